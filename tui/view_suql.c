/*
 * view_suql.c — the SUQL pane: every query of the conversation, newest
 * last, highlighted, each with what running it did:
 *
 *   ── turn 2 · "romantic italian places in palo alto"
 *   SELECT name FROM restaurants WHERE answer(reviews, 'is it romantic?')
 *     = 'Yes' AND location = 'Palo Alto' LIMIT 3
 *     → 3 rows · 12 candidates, 5 verified · 5 LLM calls, 2 from the cache · 41 ms
 *
 * A query tried again after an error or an empty result says so; one not
 * run (a required parameter missing) says why.  A query typed with /suql
 * or /explain is headed by the command, not a turn's number, and an
 * explained one says it was planned, not run.  The counts use account.h's
 * words: LLM calls sent, cache hits, memo hits.
 */
#include "view.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

void vq_init(vq_list *q) { memset(q, 0, sizeof *q); }

void vq_clear(vq_list *q)
{
    for (int i = 0; i < q->n; i++) {
        free(q->v[i].suql);
        free(q->v[i].question);
        free(q->v[i].error);
        free(q->v[i].note);
    }
    q->n = 0;
}

void vq_release(vq_list *q)
{
    vq_clear(q);
    free(q->v);
    vq_init(q);
}

static char *jdup(const cJSON *o, const char *k)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
    return s ? xstrdup(s) : NULL;
}

static double jnum(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void vq_add(vq_list *q, int turn, const char *suql, const cJSON *data, const char *error)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 16;
        q->v = xrealloc(q->v, (size_t)q->cap * sizeof *q->v);
    }
    vq_query *x = &q->v[q->n++];
    memset(x, 0, sizeof *x);
    x->suql = xstrdup(suql ? suql : "");
    x->question = jdup(data, "question");
    x->attempt = (int)jnum(data, "attempt");
    x->turn = turn;
    if (error) {
        x->error = xstrdup(error);
        x->done = 1;
    }
}

void vq_result(vq_list *q, const cJSON *d)
{
    if (!q->n) return;
    vq_query *x = &q->v[q->n - 1];
    const cJSON *plan = cJSON_GetObjectItemCaseSensitive(d, "plan");
    x->done = 1;
    x->count = (long)jnum(d, "count");
    free(x->error);
    x->error = jdup(d, "error");
    x->note = jdup(d, "note");
    x->ms = jnum(d, "ms");
    x->candidates = (long)jnum(plan, "candidates");
    x->verified = (long)jnum(plan, "verified");
    x->llm_calls = (long)jnum(plan, "llm_calls");
    x->cache_hits = (long)jnum(plan, "cache_hits");
    x->memo_hits = (long)jnum(plan, "memo_hits");
    x->budget_hit = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(plan, "budget_hit"));
}

static void summary(const vq_list *q, const vq_query *x, gn_buf *b)
{
    if (!x->done) {
        gn_buf_puts(b, "running\xe2\x80\xa6");
        return;
    }
    if (x->turn == VQ_TYPED_EXPLAIN) {            /* nothing ran: /explain plans */
        gn_buf_puts(b, "planned, not run (the plan is in the conversation)");
        return;
    }
    gn_buf_printf(b, "%ld row%s", x->count, x->count == 1 ? "" : "s");
    if (x->candidates) gn_buf_printf(b, " \xc2\xb7 %ld candidates, %ld verified", x->candidates, x->verified);
    if (x->llm_calls || x->cache_hits || x->memo_hits) {
        gn_buf_printf(b, " \xc2\xb7 %ld LLM call%s", x->llm_calls, x->llm_calls == 1 ? "" : "s");
        if (x->cache_hits) gn_buf_printf(b, ", %ld from the cache", x->cache_hits);
        if (x->memo_hits) gn_buf_printf(b, ", %ld memo hit%s", x->memo_hits, x->memo_hits == 1 ? "" : "s");
    }
    /* Said once: the note under it says so when it names the budget. */
    if (x->budget_hit && !(x->note && strstr(x->note, "budget"))) gn_buf_puts(b, " \xc2\xb7 budget reached");
    if (!q->hide_times) gn_buf_printf(b, " \xc2\xb7 %.0f ms", x->ms);
}

void vq_render(const vq_list *q, int width, tx_lines *out)
{
    gn_buf b;
    gn_buf_init(&b);
    if (width < 10) width = 10;
    for (int i = 0; i < q->n; i++) {
        const vq_query *x = &q->v[i];
        gn_buf_reset(&b);
        if (x->turn >= 0) gn_buf_printf(&b, "\xe2\x94\x80\xe2\x94\x80 turn %d", x->turn);  /* "── " */
        else gn_buf_printf(&b, "\xe2\x94\x80\xe2\x94\x80 %s (typed)",
                           x->turn == VQ_TYPED_EXPLAIN ? "/explain" : "/suql");
        if (x->attempt > 1) gn_buf_puts(&b, " \xc2\xb7 retry");
        if (x->question && strcmp(x->question, x->suql)) gn_buf_printf(&b, " \xc2\xb7 \"%s\"", x->question);
        tx_plain(b.data, NULL, (int)b.len, width, 0, TX_DIM, out);
        int n = (int)strlen(x->suql);
        unsigned char *st = xmalloc((size_t)n + 1);
        tx_suql_styles(x->suql, n, st, TX_PLAIN);
        tx_plain(x->suql, st, n, width, 0, TX_PLAIN, out);
        free(st);
        if (x->error) {
            gn_buf_reset(&b);
            gn_buf_printf(&b, "\xe2\x9c\x97 %s", x->error);
            tx_plain(b.data, NULL, (int)b.len, width, 2, TX_ERROR, out);
        } else {
            gn_buf_reset(&b);
            gn_buf_puts(&b, "\xe2\x86\x92 ");
            summary(q, x, &b);
            tx_plain(b.data, NULL, (int)b.len, width, 2, TX_DONE, out);
        }
        if (x->note) tx_plain(x->note, NULL, (int)strlen(x->note), width, 2, TX_WARN, out);
    }
    if (!q->n) tx_plain("no query yet", NULL, 12, width, 1, TX_DIM, out);
    gn_buf_release(&b);
}
