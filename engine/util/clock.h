/*
 * clock.h — the one monotonic clock of genie, for timings and deadlines.
 */
#ifndef GENIE_CLOCK_H
#define GENIE_CLOCK_H

/* Seconds on a monotonic clock (CLOCK_MONOTONIC): only differences mean
 * anything. */
double gn_now(void);

#endif
