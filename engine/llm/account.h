/*
 * account.h — accounting of LLM use: calls, cache hits, tokens, latency,
 * cost.
 *
 * The client keeps one llm_stats per stage and adds every finished call to
 * it; a front end takes a snapshot before a turn and subtracts it after to
 * get the turn's share.  Plain data, no locking here (the client locks).
 *
 * The words every front end uses (status line, SUQL pane, --analyze, the
 * timings event, the sessions file, the log):
 *   an LLM call  a request sent to the server (it connected), whatever
 *                its outcome; its retries are not more calls;
 *   a cache hit  a reply the LLM cache gave instead of a call;
 *   a memo hit   a free-text question the SUQL engine had already answered
 *                in the same run (the same text and question): it asks
 *                nothing, neither the server nor the cache (engine.h).
 */
#ifndef GENIE_LLM_ACCOUNT_H
#define GENIE_LLM_ACCOUNT_H

#include "util/buf.h"

typedef struct llm_stats {
    long calls;              /* requests sent to the server (above) */
    long errors;             /* failed (cancelled ones not included) */
    long cancelled;
    long cache_hits;         /* replies from the cache: not calls */
    long retries;            /* attempts after the first */
    long prompt_tokens, completion_tokens;
    long usage_missing;      /* replies without usage: their tokens are
                                estimated from the deltas received */
    double ttft_sum;         /* seconds to first token, summed ... */
    long ttft_n;             /* ... over this many calls (network calls) */
    double gen_seconds;      /* first token to end, summed over calls */
    long gen_tokens;         /* completion tokens of those calls */
    double cost;             /* dollars, over calls with a known price */
    long priced_calls;
} llm_stats;

/* INTO += X, field by field. */
void llm_stats_add(llm_stats *into, const llm_stats *x);

/* OUT = A - B (A a later snapshot of the same counters as B). */
void llm_stats_sub(llm_stats *out, const llm_stats *a, const llm_stats *b);

/* Mean time to first token in seconds, or -1 when no call measured it. */
double llm_stats_ttft(const llm_stats *s);

/* Generation speed in tokens per second, or -1 when unknown. */
double llm_stats_tps(const llm_stats *s);

/* Append one line without newline, e.g. "12 LLM calls (1 retry), 3 from the
 * cache, 1234 tokens in, 56 out, first token 0.21 s, 45 tok/s, $0.0012"
 * (the cost only when some call was priced; "no calls" when there were
 * neither calls nor cache hits). */
void llm_stats_format(const llm_stats *s, gn_buf *out);

#endif
