/*
 * evaluate.c — what answer() and summary() cost and how SQLite calls them
 * (engine_int.h): the budget check of a batch of free-text requests, and
 * the SQLite functions suql_answer() and suql_summary(), which in a first
 * pass queue their requests (returning NULL) and in the real pass find
 * their values in the memo, or compute them on demand within the budget.
 */
#include "engine_int.h"
#include "suql/pgval.h"
#include "util/check.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- budget and evaluation ------------------------------------------------ */

int suql_eval(suql_engine *en, suql_ft_req *reqs, int n, gn_err *e)
{
    int need = 0;
    for (int i = 0; i < n; i++) need += !suql_ft_known(en->ft, &reqs[i]);
    if (en->used + need > en->budget) {
        if (en->st) en->st->budget_hit = 1;
        return gn_err_set(e, GN_ELIMIT, "the free-text budget of %d evaluations is spent",
                          en->budget);
    }
    suql_ft_stats a, b;
    suql_ft_get_stats(en->ft, &a);
    double t0 = (gn_now() * 1e3);
    int rc = suql_ft_run(en->ft, reqs, n, e);
    suql_ft_get_stats(en->ft, &b);
    en->used += need;
    GN_ASSERT(en->used <= en->budget);          /* the budget is never exceeded */
    if (en->st) {
        en->st->ms_llm += b.llm_calls + b.cache_hits > a.llm_calls + a.cache_hits
                              ? (gn_now() * 1e3) - t0 : 0;
        en->st->evaluations += need;
        en->st->llm_calls += b.llm_calls - a.llm_calls;
        en->st->rounds += b.llm_calls > a.llm_calls;
        en->st->cache_hits += b.cache_hits - a.cache_hits;
        if (!en->readback) en->st->memo_hits += b.memo_hits - a.memo_hits;
        en->st->offline += b.offline - a.offline;
        en->st->failures += b.failures - a.failures;
    }
    return rc;
}

/* ---- the SQLite functions ---------------------------------------------------- */

static const char *arg_text(sqlite3_value *v)
{
    return sqlite3_value_type(v) == SQLITE_NULL ? NULL : (const char *)sqlite3_value_text(v);
}

static void queue_req(suql_engine *en, const suql_ft_req *r)
{
    if (en->nqueue == en->capqueue) {
        en->capqueue = en->capqueue ? en->capqueue * 2 : 16;
        en->queue = xrealloc(en->queue, sizeof *en->queue * (size_t)en->capqueue);
    }
    suql_ft_req *q = &en->queue[en->nqueue++];
    memset(q, 0, sizeof *q);
    q->kind = r->kind;
    q->field = r->field ? xstrdup(r->field) : NULL;
    q->value = r->value ? xstrdup(r->value) : NULL;
    q->question = r->question ? xstrdup(r->question) : NULL;
    q->type_hint = r->type_hint ? xstrdup(r->type_hint) : NULL;
}

void suql_queue_free(suql_engine *en)
{
    for (int i = 0; i < en->nqueue; i++) {
        free((char *)en->queue[i].field);
        free((char *)en->queue[i].value);
        free((char *)en->queue[i].question);
        free((char *)en->queue[i].type_hint);
    }
    en->nqueue = 0;
}

static void fn_common(sqlite3_context *cx, suql_ft_req *r)
{
    suql_engine *en = sqlite3_user_data(cx);
    if (!r->value) {
        sqlite3_result_null(cx);
        return;
    }
    if (en->collect) {
        /* Only what the budget can pay for: a cross join's millions of
         * rows must not queue millions of texts (the rest are NULL in the
         * real pass, and the note says so). */
        if (en->nqueue < en->budget - en->used) queue_req(en, r);
        sqlite3_result_null(cx);
        return;
    }
    gn_err e;
    int rc = suql_eval(en, r, 1, &e);
    if (rc == GN_ELIMIT) {
        sqlite3_result_null(cx);             /* the note says why */
        return;
    }
    if (rc || r->status) {
        en->ferr = rc ? e : r->err;
        en->ferr_set = 1;
        sqlite3_result_error(cx, en->ferr.msg, -1);
        return;
    }
    if (r->text) sqlite3_result_text(cx, r->text, -1, SQLITE_TRANSIENT);
    else sqlite3_result_null(cx);
}

/* suql_answer(value, question, field, hint) */
static void fn_answer(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    suql_ft_req r = { .kind = SUQL_FT_ANSWER, .value = arg_text(argv[0]),
                      .question = arg_text(argv[1]) };
    r.field = argc > 2 ? arg_text(argv[2]) : NULL;
    r.type_hint = argc > 3 ? arg_text(argv[3]) : NULL;
    if (!r.question) {
        sqlite3_result_error(cx, "answer(): the question is NULL", -1);
        return;
    }
    fn_common(cx, &r);
}

/* suql_summary(value, field) */
static void fn_summary(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    suql_ft_req r = { .kind = SUQL_FT_SUMMARY, .value = arg_text(argv[0]) };
    r.field = argc > 1 ? arg_text(argv[1]) : NULL;
    fn_common(cx, &r);
}

int suql_register_freetext(suql_engine *en)
{
    int flags = SQLITE_UTF8;
    int rc = sqlite3_create_function(en->cfg.db, "suql_answer", -1, flags, en, fn_answer, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(en->cfg.db, "suql_summary", -1, flags, en, fn_summary, NULL, NULL);
    return rc;
}
