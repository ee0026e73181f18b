/*
 * stats.c — a run's figures as JSON (the --format json and log forms) and
 * as text (--analyze), from suql_run_stats (engine.h).
 */
#include "engine_int.h"

#include <stdio.h>

cJSON *suql_stats_json(const suql_run_stats *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "candidates", (double)s->candidates);
    cJSON_AddNumberToObject(o, "verified", (double)s->checked);
    cJSON_AddNumberToObject(o, "passed", (double)s->passed);
    cJSON_AddNumberToObject(o, "llm_calls", (double)s->llm_calls);
    cJSON_AddNumberToObject(o, "llm_rounds", (double)s->rounds);
    if (s->classify_calls) cJSON_AddNumberToObject(o, "classify_calls", (double)s->classify_calls);
    cJSON_AddNumberToObject(o, "cache_hits", (double)s->cache_hits);
    cJSON_AddNumberToObject(o, "memo_hits", (double)s->memo_hits);
    if (s->budget_hit) cJSON_AddTrueToObject(o, "budget_hit");
    if (s->inexact) cJSON_AddTrueToObject(o, "inexact");
    if (s->sampled) {
        cJSON *x = cJSON_AddObjectToObject(o, "estimate");
        cJSON_AddNumberToObject(x, "confirmed", (double)s->confirmed);
        cJSON_AddNumberToObject(x, "sampled", (double)s->sampled);
        cJSON_AddNumberToObject(x, "sample_passed", (double)s->sample_passed);
        cJSON_AddNumberToObject(x, "unchecked", (double)s->sample_rest);
        cJSON_AddNumberToObject(x, "total", (double)s->est_total);
        cJSON_AddNumberToObject(x, "low", (double)s->est_lo);
        cJSON_AddNumberToObject(x, "high", (double)s->est_hi);
    }
    if (s->nsteps) {
        cJSON *a = cJSON_AddArrayToObject(o, "steps");
        for (int i = 0; i < s->nsteps; i++) {
            const suql_step_stats *p = &s->steps[i];
            cJSON *x = cJSON_CreateObject();
            if (p->conjunct) cJSON_AddNumberToObject(x, "conjunct", p->conjunct);
            else cJSON_AddStringToObject(x, "step", "final");
            cJSON_AddNumberToObject(x, "candidates", (double)p->candidates);
            cJSON_AddNumberToObject(x, "verified", (double)p->checked);
            cJSON_AddNumberToObject(x, "passed", (double)p->passed);
            cJSON_AddNumberToObject(x, "evaluations", (double)p->evaluations);
            cJSON_AddNumberToObject(x, "llm_calls", (double)p->llm_calls);
            cJSON_AddNumberToObject(x, "cache_hits", (double)p->cache_hits);
            cJSON_AddNumberToObject(x, "memo_hits", (double)p->memo_hits);
            cJSON_AddNumberToObject(x, "ms", p->ms_total);
            cJSON_AddNumberToObject(x, "ms_llm", p->ms_llm);
            cJSON_AddItemToArray(a, x);
        }
    }
    return o;
}

void suql_stats_print(const suql_run_stats *s, gn_buf *out)
{
    gn_buf_printf(out, "mode:        %s\n", s->mode ? s->mode : "?");
    if (s->conjuncts) gn_buf_printf(out, "conjuncts:   %ld\n", s->conjuncts);
    if (s->candidates || s->checked)
        gn_buf_printf(out, "candidates:  %ld, checked %ld, passed %ld\n", s->candidates, s->checked,
                      s->passed);
    gn_buf_printf(out, "rows:        %ld\n", s->rows);
    gn_buf_printf(out, "free text:   %ld evaluations of %d allowed%s (%ld LLM calls, %ld from the cache, "
                  "%ld memo hits, %ld offline, %ld failed", s->evaluations, s->budget,
                  s->budget_hit ? ", budget reached" : "",
                  s->llm_calls - s->classify_calls, s->cache_hits - s->classify_cached,
                  s->memo_hits, s->offline, s->failures);
    if (s->rounds) gn_buf_printf(out, "; the calls in %ld round%s", s->rounds, s->rounds == 1 ? "" : "s");
    gn_buf_puts(out, ")\n");
    if (s->sampled)
        gn_buf_printf(out, "estimate:    %ld confirmed; a random sample of %ld of the unchecked "
                      "candidates had %ld, so about %ld match in all (95%% interval %ld to %ld, "
                      "Wilson; %ld candidates neither checked nor sampled)\n", s->confirmed,
                      s->sampled, s->sample_passed, s->est_total, s->est_lo, s->est_hi,
                      s->sample_rest);
    if (s->classify_calls || s->classify_cached)
        gn_buf_printf(out, "enum values: %ld LLM call%s, %ld from the cache, mapping literals (CLASSIFY), "
                      "not free text\n", s->classify_calls, s->classify_calls == 1 ? "" : "s",
                      s->classify_cached);
    gn_buf_printf(out, "time:        %.1f ms total, %.1f ms waiting for the LLM, %.1f ms engine\n",
                  s->ms_total, s->ms_llm, s->ms_total - s->ms_llm > 0 ? s->ms_total - s->ms_llm : 0);
    if (!s->nsteps) return;
    gn_buf_puts(out, "steps:\n");
    for (int i = 0; i < s->nsteps; i++) {
        const suql_step_stats *p = &s->steps[i];
        if (p->conjunct)
            gn_buf_printf(out, "  conjunct %d%s: %ld candidates, %ld checked, %ld passed;", p->conjunct,
                          p->conjunct == SUQL_MAX_STEPS - 1 && s->conjuncts >= SUQL_MAX_STEPS ? "+" : "",
                          p->candidates, p->checked, p->passed);
        else
            gn_buf_puts(out, "  final:      the rows returned, their select-list free text;");
        gn_buf_printf(out, " %ld evaluations (%ld LLM calls, %ld from the cache, %ld memo hits); "
                      "%.1f ms, %.1f ms LLM\n", p->evaluations, p->llm_calls, p->cache_hits,
                      p->memo_hits, p->ms_total, p->ms_llm);
    }
}
