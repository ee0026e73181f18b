/*
 * retry.h — when to retry an HTTP request, and how long to wait.
 *
 * One policy for every HTTP request genie makes: the LLM client's
 * transfers (llm/transfer.c) and the blocking requests of http.h
 * (embeddings, the agent's APIs).  Pure functions, so the policy is
 * tested without a network:
 *   - what is retryable: connection-level failures (refused, reset, timed
 *     out, dropped mid-stream) and HTTP 408, 409, 429 and 5xx; never once
 *     output has reached the user (the caller tracks that);
 *   - how long: the server's word first (`retry-after-ms`, then
 *     `Retry-After` as seconds or an HTTP date), else exponential backoff
 *     with "equal jitter" (half the delay fixed, half random), base 0.5 s
 *     doubling per attempt; both capped.
 */
#ifndef GENIE_UTIL_RETRY_H
#define GENIE_UTIL_RETRY_H

#include <time.h>

/* Is HTTP status S worth a retry (408, 409, 429, 5xx)? */
int gn_retry_status(long s);

/* The wait the server asked for, in seconds, from the values of the
 * headers retry-after-ms and Retry-After (either may be NULL); NOW is the
 * current time for an HTTP-date value.  Returns -1 when neither header
 * gives a usable value; a date in the past gives 0. */
double gn_retry_after(const char *retry_after_ms, const char *retry_after, time_t now);

/* The wait before retry number ATTEMPT (1 for the first retry): the server's
 * SERVER_WAIT when >= 0, else min(cap, 0.5 * 2^(attempt-1)) scaled by a
 * random factor in [0.5, 1] drawn from *SEED; always capped at CAP. */
double gn_retry_delay(int attempt, double server_wait, double cap, unsigned *seed);

#endif
