/*
 * check.c — the one place a broken invariant stops the process (check.h).
 * The message goes to stderr before abort(): the front end's fatal-signal
 * handler then restores the terminal, as for any crash.
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

void gn_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "genie: internal error: %s (%s:%d)\n", expr, file, line);
    abort();
}
