/*
 * clock.c — gn_now (see clock.h).  One definition, so every timing in
 * the program (LLM calls, SUQL runs, turns, index builds) reads the same
 * clock the same way.
 */
#include "util/clock.h"

#include <time.h>

double gn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
