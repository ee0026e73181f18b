/*
 * account.c — arithmetic and rendering of llm_stats (see account.h).
 */
#include "account.h"

void llm_stats_add(llm_stats *into, const llm_stats *x)
{
    into->calls += x->calls;
    into->errors += x->errors;
    into->cancelled += x->cancelled;
    into->cache_hits += x->cache_hits;
    into->retries += x->retries;
    into->prompt_tokens += x->prompt_tokens;
    into->completion_tokens += x->completion_tokens;
    into->usage_missing += x->usage_missing;
    into->ttft_sum += x->ttft_sum;
    into->ttft_n += x->ttft_n;
    into->gen_seconds += x->gen_seconds;
    into->gen_tokens += x->gen_tokens;
    into->cost += x->cost;
    into->priced_calls += x->priced_calls;
}

void llm_stats_sub(llm_stats *out, const llm_stats *a, const llm_stats *b)
{
    out->calls = a->calls - b->calls;
    out->errors = a->errors - b->errors;
    out->cancelled = a->cancelled - b->cancelled;
    out->cache_hits = a->cache_hits - b->cache_hits;
    out->retries = a->retries - b->retries;
    out->prompt_tokens = a->prompt_tokens - b->prompt_tokens;
    out->completion_tokens = a->completion_tokens - b->completion_tokens;
    out->usage_missing = a->usage_missing - b->usage_missing;
    out->ttft_sum = a->ttft_sum - b->ttft_sum;
    out->ttft_n = a->ttft_n - b->ttft_n;
    out->gen_seconds = a->gen_seconds - b->gen_seconds;
    out->gen_tokens = a->gen_tokens - b->gen_tokens;
    out->cost = a->cost - b->cost;
    out->priced_calls = a->priced_calls - b->priced_calls;
}

double llm_stats_ttft(const llm_stats *s)
{
    return s->ttft_n > 0 ? s->ttft_sum / (double)s->ttft_n : -1;
}

double llm_stats_tps(const llm_stats *s)
{
    return s->gen_seconds > 0 && s->gen_tokens > 0 ? (double)s->gen_tokens / s->gen_seconds : -1;
}

void llm_stats_format(const llm_stats *s, gn_buf *out)
{
    if (!s->calls && !s->cache_hits) {
        gn_buf_puts(out, "no calls");
        return;
    }
    gn_buf_printf(out, "%ld LLM call%s", s->calls, s->calls == 1 ? "" : "s");
    const char *sep = " (";
    if (s->retries) {
        gn_buf_printf(out, "%s%ld retr%s", sep, s->retries, s->retries == 1 ? "y" : "ies");
        sep = ", ";
    }
    if (s->errors) { gn_buf_printf(out, "%s%ld failed", sep, s->errors); sep = ", "; }
    if (s->cancelled) { gn_buf_printf(out, "%s%ld cancelled", sep, s->cancelled); sep = ", "; }
    if (*sep == ',') gn_buf_putc(out, ')');
    if (s->cache_hits) gn_buf_printf(out, ", %ld from the cache", s->cache_hits);
    gn_buf_printf(out, ", %ld tokens in, %ld out%s", s->prompt_tokens, s->completion_tokens,
                  s->usage_missing ? " (partly estimated)" : "");
    double t = llm_stats_ttft(s), v = llm_stats_tps(s);
    if (t >= 0) gn_buf_printf(out, ", first token %.2f s", t);
    if (v >= 0) gn_buf_printf(out, ", %.0f tok/s", v);
    if (s->priced_calls) gn_buf_printf(out, ", $%.4f", s->cost);
}
