/*
 * engine.c — the SUQL engine: its lifecycle, and a run: the limits on,
 * the query parsed, its shape, the dispatch between the three modes
 * (plain, optimized, per row), the result's note (see engine.h).  The
 * rest of the engine: evaluate.c (answer() and summary() in SQLite),
 * hooks.c (emit hooks), runsql.c (one statement), shape.c (the query's
 * form), stats.c (figures), optimize.c and pushdown.c (the optimized run).
 *
 * The select list's answer()/summary() are computed for the rows returned
 * only, and concurrently: the final statement runs twice when it can, a
 * first pass in which the SQLite functions merely queue their requests
 * (returning NULL), then one concurrent batch, then the real pass in which
 * every function finds its value in the memo.  The first pass is skipped
 * when free text decides which rows come back (WHERE or ORDER BY of a
 * per-row run), since NULLs there would pick other rows; the functions
 * then compute on demand, one at a time.
 *
 * Rejected: letting SQLite call the LLM for every row of a scan (the
 * reference implementation's failure: millions of calls for one query);
 * running answer() outside SQLite and joining results back in C (the SQL
 * around it — casts, CASE, ORDER BY — would have to be reimplemented).
 */
#include "engine_int.h"
#include "suql/pgval.h"
#include "util/clock.h"

#include "util/xmem.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- lifecycle ----------------------------------------------------------------------- */

int suql_engine_new(const suql_engine_config *cfg, suql_engine **out, gn_err *e)
{
    *out = NULL;
    suql_engine *en = xcalloc(1, sizeof *en);
    en->cfg = *cfg;
    gn_buf_init(&en->mapped);
    gn_buf_init(&en->unmatched);
    gn_buf_init(&en->unranked);
    if (en->cfg.concurrency <= 0) en->cfg.concurrency = SUQL_CONCURRENCY;
    suql_ft_config fc = { .em = cfg->em, .ix = cfg->embed_passages ? NULL : cfg->ix,
                          .client = cfg->client, .answer_tpl = cfg->answer_tpl,
                          .verify_tpl = cfg->verify_tpl, .summary_tpl = cfg->summary_tpl,
                          .verify_rows_tpl = cfg->verify_rows_tpl, .verify_batch = cfg->verify_batch,
                          .offline_threshold = cfg->offline_threshold,
                          .verdict = cfg->verdict, .verdict_ud = cfg->verdict_ud,
                          .summary_extractive = cfg->summary_extractive };
    en->ft = suql_ft_new(&fc);
    en->cls = suql_classifier_new(cfg->db, cfg->em, cfg->client, cfg->client ? cfg->classify_tpl : NULL);
    if (suql_register_freetext(en)) {
        int rc = st_dberr(cfg->db, e, "registering the SUQL functions");
        suql_engine_free(en);
        return rc;
    }
    suql_register_functions(cfg->db);
    suql_pgval_register(cfg->db, cfg->today);   /* CURRENT_DATE is --today */
    if (en->cfg.time_limit <= 0) en->cfg.time_limit = SUQL_TIME_LIMIT;
    if (en->cfg.memory_limit <= 0) en->cfg.memory_limit = SUQL_MEMORY_LIMIT;
    /* One value may take a sixteenth of the memory (64 MB by default, the
     * most text a result holds): repeat('x', 1e9) fails at once instead
     * of filling it (SQLite's own cap is 1e9 bytes), and a function that
     * walks one value (translate, position), which no time check can
     * interrupt, walks at most that. */
    long long len = en->cfg.memory_limit / 16;
    if (len < (1 << 20)) len = 1 << 20;
    if (len > 1000000000) len = 1000000000;
    sqlite3_limit(cfg->db, SQLITE_LIMIT_LENGTH, (int)len);
    sqlite3_progress_handler(cfg->db, 10000, suql_on_progress, en);
    *out = en;
    return 0;
}

void suql_engine_watch(suql_engine *en, suql_progress_fn fn, void *ud, const atomic_int *cancel)
{
    en->progress = fn;
    en->progress_ud = ud;
    en->cancel = cancel;
}

void suql_engine_free(suql_engine *en)
{
    if (!en) return;
    sqlite3_progress_handler(en->cfg.db, 0, NULL, NULL);    /* it points here */
    suql_queue_free(en);
    free(en->queue);
    free(en->vals);
    free(en->hints);
    gn_buf_release(&en->mapped);
    gn_buf_release(&en->unmatched);
    gn_buf_release(&en->unranked);
    suql_classifier_free(en->cls);
    suql_ft_free(en->ft);
    free(en);
}

/* ---- runs ------------------------------------------------------------------------------ */

/* The run's limits on: its time counts from here (the parse and the
 * compile are work too), and SQLite's heap may grow by the memory limit
 * (the process's SQLite memory is one heap: the limit is what is in use
 * now plus the query's share). */
static struct {
    pthread_mutex_t lock;
    int runs;                     /* runs under way, in every engine */
    sqlite3_int64 before;         /* the process's limit before the first */
} heap = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };

/* Runs of several engines may overlap (threads): the process's limit is
 * set by the latest to begin (what is in use then, the others' share
 * included, plus its own) and put back when the last ends. */
static void limits_begin(suql_engine *en)
{
    en->t_start = gn_now();
    en->stopped = STOP_NONE;
    pthread_mutex_lock(&heap.lock);
    if (heap.runs++ == 0) heap.before = sqlite3_hard_heap_limit64(-1);
    sqlite3_hard_heap_limit64(sqlite3_memory_used() + en->cfg.memory_limit);
    pthread_mutex_unlock(&heap.lock);
}

static void limits_end(suql_engine *en)
{
    pthread_mutex_lock(&heap.lock);
    if (--heap.runs == 0) sqlite3_hard_heap_limit64(heap.before);
    pthread_mutex_unlock(&heap.lock);
    en->t_start = 0;
    en->stopped = STOP_NONE;
}

static int prepare(suql_engine *en, const char *text, suql_query **q, gn_err *e)
{
    int rc = suql_parse(text, q, e);
    if (!rc) rc = suql_analyze(*q, en->cfg.schema, e);
    if (!rc && suql_past_time(en)) rc = suql_time_error(en, e);
    if (rc) {
        suql_query_free(*q);
        *q = NULL;
    }
    return rc;
}

static int run_whole(suql_engine *en, suql_query *q, int collect, suql_result *res, gn_err *e)
{
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    int rc = suql_emit_select(q, q->select, suql_hooks_calls(en, &h), &sql, e);
    if (!rc) rc = suql_run_sql(en, sql.data, collect, res, e);
    gn_buf_release(&sql);
    return rc;
}


/* How a query runs: the modes of engine.h, plain in two forms. */
typedef enum {
    RUN_PLAIN,          /* the statement as it is */
    RUN_ROWS_FIRST,     /* one table, free text in the select list only:
                           rows chosen first (suql_run_final) */
    RUN_OPTIMIZED,
    RUN_PER_ROW,
    RUN_PUSHDOWN,       /* a join: its free text over one table (pushdown.c) */
    RUN_NONE            /* a CTE's run failed: nothing more runs */
} run_mode;

static const char *const mode_names[] = { "plain", "plain", "optimized", "per-row", "optimized", "plain" };

typedef struct {
    run_mode mode;
    const st_table *t;       /* the one table, or NULL */
    const char *alias;       /* its alias, else its name */
    suql_dnf dnf;            /* RUN_OPTIMIZED: the WHERE clause */
    suql_pushdown pd;        /* RUN_PUSHDOWN */
} run_shape;

/* The shape of SEL.  A WHERE clause too large for DNF gives way to
 * per-row evaluation of the clause as written. */
static void shape_of(suql_query *q, suql_select *sel, run_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->t = suql_single_table(sel, &sh->alias);
    if (sh->t && !sh->alias) sh->alias = sh->t->name;
    /* Set operations, DISTINCT ON and window functions see every row the
     * statement selects: they run as written, free text row by row. */
    int interact = suql_rows_interact(sel);
    if (sel->op != SUQL_SET_NONE) {
        suql_expr whole = { .kind = SUQL_E_SUBQUERY, .sub = sel };
        sh->mode = suql_is_freetext(&whole) ? RUN_PER_ROW : RUN_PLAIN;
        return;
    }
    int simple = sh->t && !sel->nctes && !suql_order_has_freetext(sel) && !interact;
    gn_err e;
    if (!sel->where || !suql_is_freetext(sel->where))
        sh->mode = simple && suql_freetext_targets(sel) ? RUN_ROWS_FIRST : RUN_PLAIN;
    else if (simple && suql_dnf_build(q, sel->where, 0, &sh->dnf, &e) == 0)
        sh->mode = RUN_OPTIMIZED;
    else if (!interact && suql_pushdown_plan(q, sel, &sh->pd))
        sh->mode = RUN_PUSHDOWN;
    else
        sh->mode = RUN_PER_ROW;
}

/* The per-run state of EN for SEL. */
static void begin(suql_engine *en, suql_select *sel, suql_run_stats *st, int explain)
{
    en->st = st;
    en->explain = explain;
    gn_buf_reset(&en->mapped);
    gn_buf_reset(&en->unmatched);
    gn_buf_reset(&en->unranked);
    en->used = 0;
    en->reserve = 0;
    en->budget = st->budget = suql_budget_for(en, sel);
    suql_collect_hints(en, sel);
}

/* RES's column types from SEL's analyzed select list, a star expanded as
 * the emitter expands it (a set operation: the analyzer's output columns,
 * typed where its arms agree); all left unknown should the counts differ. */
typedef struct {
    suql_result *res;
    int k;
} types_ctx;

static void type_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    (void)join;
    types_ctx *c = ud;
    if (c->k < c->res->ncols)
        c->res->types[c->k] = (suql_coltype){ item->rcols[index].vtype, item->rcols[index].varray };
    c->k++;
}

static void set_types(suql_result *res, const suql_select *sel)
{
    types_ctx c = { res, 0 };
    if (!res->types) return;
    for (; sel->op != SUQL_SET_NONE && c.k < sel->nrcols; c.k++)
        if (c.k < res->ncols)
            res->types[c.k] = (suql_coltype){ sel->rcols[c.k].vtype, sel->rcols[c.k].varray };
    for (int i = 0; i < sel->ntargets; i++) {
        const suql_expr *x = sel->targets[i].expr;
        if (x->kind == SUQL_E_STAR) {
            suql_star_walk(sel, x, type_fn, &c);
            continue;
        }
        if (c.k < res->ncols) res->types[c.k] = (suql_coltype){ x->vtype, x->varray };
        c.k++;
    }
    if (c.k != res->ncols) memset(res->types, 0, (size_t)res->ncols * sizeof *res->types);
}

int suql_execute(suql_engine *en, const char *text, suql_result *res, suql_run_stats *stats,
                 gn_err *e)
{
    suql_run_stats local;
    suql_run_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    memset(res, 0, sizeof *res);
    double t0 = (gn_now() * 1e3);
    suql_query *q;
    limits_begin(en);
    int rc = prepare(en, text, &q, e);
    if (rc) {
        limits_end(en);
        return rc;
    }
    suql_select *sel = q->select;
    begin(en, sel, st, 0);
    run_shape sh;
    int ctes = 0;
    rc = sel->nctes ? suql_run_cte_filters(en, q, sel, &ctes, NULL, e) : 0;
    shape_of(q, sel, &sh);
    if (sh.mode == RUN_PLAIN) suql_exact_first(q, sel);
    st->mode = ctes ? "optimized" : mode_names[sh.mode];
    if (rc) sh.mode = RUN_NONE;
    switch (sh.mode) {
    case RUN_NONE:
        break;
    case RUN_ROWS_FIRST:
        rc = suql_run_final(en, q, sel, sh.t, sh.alias, NULL, -1, 0, res, e);
        if (!rc) suql_count_matched(en, q, sel, res);
        break;
    case RUN_PLAIN:
        rc = run_whole(en, q, suql_freetext_targets(sel) && !suql_order_has_freetext(sel), res, e);
        if (!rc && !ctes) suql_count_matched(en, q, sel, res);
        break;
    case RUN_OPTIMIZED:
        rc = suql_run_optimized(en, q, sel, sh.t, sh.alias, &sh.dnf, res, NULL, e);
        break;
    case RUN_PER_ROW:
        rc = run_whole(en, q, 0, res, e);
        break;
    case RUN_PUSHDOWN:
        rc = suql_run_pushdown(en, q, sel, &sh.pd, res, NULL, e);
        break;
    }
    if (!rc) {
        st->rows = res->nrows;
        set_types(res, sel);
        if (en->unmatched.len && !res->note) {
            res->note = xstrdup(en->unmatched.data);
            st->unmatched = 1;
        }
        if (st->sampled && !res->note)
            res->note = xasprintf("the free-text budget of %d evaluations checked %ld of the %ld "
                                  "candidates: %ld confirmed matches, which are what the query "
                                  "counts%s; a random sample of %ld of the unchecked ones had %ld, "
                                  "so about %ld match in all (95%% interval: %ld to %ld)",
                                  st->budget, st->checked, st->candidates, st->confirmed,
                                  sel->ngroup ? " (each group's count is of its confirmed matches: "
                                                "at least that many)" : "",
                                  st->sampled, st->sample_passed, st->est_total, st->est_lo,
                                  st->est_hi);
        else if (st->budget_hit && suql_aggregates(sel) && st->candidates > 0 && !res->note)
            res->note = xasprintf("the free-text budget of %d evaluations checked %ld of the %ld "
                                  "candidates: the aggregates are over the %ld matches found, so a "
                                  "count is at least that, not the count of all", st->budget,
                                  st->checked, st->candidates, st->passed);
        if (st->inexact && !res->note)
            res->note = xasprintf("the free-text budget of %d evaluations checked %ld of the %ld "
                                  "candidates: these are the best of those checked as ORDER BY "
                                  "ranks them, and a better-placed match may exist among the "
                                  "others", st->budget, st->checked, st->candidates);
        if (st->budget_hit && !res->note)
            res->note = xasprintf("the free-text budget of %d evaluations ran out: %s", st->budget,
                                  st->relevance_first
                                      ? "the candidates most likely to match were checked and the "
                                        "matches sorted as ORDER BY asks; there may be more, and "
                                        "better-placed, matching rows than shown"
                                  : sh.mode == RUN_OPTIMIZED || sh.mode == RUN_PUSHDOWN || ctes
                                      ? "there may be more matching rows than shown"
                                      : "some answer() or summary() values are missing (NULL)");
        if (en->unranked.len && (st->budget_hit || st->sampled || st->inexact)) {
            /* Not every candidate was checked, and the ones that were are
             * not the likeliest: say so. */
            char *n = res->note ? xasprintf("%s; %s", res->note, en->unranked.data) : xstrdup(en->unranked.data);
            free(res->note);
            res->note = n;
        }
    } else {
        suql_result_release(res);
    }
    if (rc && en->stopped) {
        /* Whatever step was interrupted (candidates, a count, the final
         * statement), the reason is the limit or the cancel. */
        rc = suql_step_error(en, NULL, e);
    }
    st->ms_total = (gn_now() * 1e3) - t0;
    en->st = NULL;
    limits_end(en);
    suql_query_free(q);
    return rc;
}

int suql_explain(suql_engine *en, const char *text, gn_buf *out, gn_err *e)
{
    suql_query *q;
    limits_begin(en);                   /* --explain counts candidates */
    int rc = prepare(en, text, &q, e);
    if (rc) {
        limits_end(en);
        return rc;
    }
    suql_select *sel = q->select;
    suql_run_stats st;
    memset(&st, 0, sizeof st);
    begin(en, sel, &st, 1);
    gn_buf_puts(out, "query:  ");
    suql_print(q, out);
    gn_buf_putc(out, '\n');
    run_shape sh;
    int ctes = 0;
    if (sel->nctes) rc = suql_run_cte_filters(en, q, sel, &ctes, out, e);
    shape_of(q, sel, &sh);
    if (sh.mode == RUN_PLAIN) suql_exact_first(q, sel);
    suql_emit_hooks h;
    if (rc) {
        /* the CTE's explanation said what failed */
    } else if (sh.mode == RUN_OPTIMIZED) {
        gn_buf_printf(out, "mode:   optimized (one table, %s, free-text filters in WHERE)\n",
                      sh.t->name);
        suql_result dummy;
        memset(&dummy, 0, sizeof dummy);
        rc = suql_run_optimized(en, q, sel, sh.t, sh.alias, &sh.dnf, &dummy, out, e);
        suql_result_release(&dummy);
    } else if (sh.mode == RUN_PUSHDOWN) {
        gn_buf_printf(out, "mode:   optimized (a join; its free-text filters read %s only)\n",
                      sh.pd.t->name);
        rc = suql_run_pushdown(en, q, sel, &sh.pd, NULL, out, e);
    } else {
        gn_buf_puts(out, sh.mode == RUN_PER_ROW
                             ? "mode:   per-row (free text the optimizer does not plan): answer() "
                               "and summary() evaluated row by row, memoized and budgeted\n"
                             : "mode:   plain (no free text in WHERE): the query runs in SQLite\n");
        if (sh.mode == RUN_ROWS_FIRST)
            gn_buf_puts(out, "        rows chosen first; answer() and summary() of the select "
                             "list for those rows only\n");
        gn_buf_puts(out, "sql:    ");
        rc = suql_emit_select(q, sel, suql_hooks_calls(en, &h), out, e);
        gn_buf_putc(out, '\n');
    }
    long want = suql_rows_wanted(sel);
    int nft = suql_freetext_targets(sel);
    /* A query without free text has no budget to spend: no line for it. */
    if (!rc && (sh.mode != RUN_PLAIN || nft || st.bound)) {
        gn_buf_printf(out, "budget: %d free-text evaluations", en->budget);
        if (nft && want >= 0)
            gn_buf_printf(out, "; the select list adds at most %ld x %d", want, nft);
        gn_buf_putc(out, '\n');
        if (st.bound || (nft && want >= 0)) {
            long filters = st.bound < en->budget ? st.bound : en->budget;
            long sl = nft && want >= 0 ? want * nft : 0, b = suql_ft_batch(en->ft);
            if (suql_ft_offline(en->ft))
                /* Offline the checks are genie's own, by embedding
                 * similarity: what they cost is evaluations, not calls. */
                gn_buf_printf(out, "LLM calls: none (offline: %ld free-text evaluations of %ld that "
                              "checking every candidate would take, by embedding similarity%s)\n",
                              filters, st.bound, sl ? ", plus the select list" : "");
            else if (b > 1)
                gn_buf_printf(out, "LLM calls: about %ld, at most %ld (filters: %ld evaluations of "
                              "%ld that checking every candidate would take, verified up to %ld "
                              "rows a call, a row without a clear verdict again alone%s)\n",
                              (filters + b - 1) / b + sl, filters + (filters + b - 1) / b + sl,
                              filters, st.bound, b, sl ? "; plus the select list" : "");
            else
                gn_buf_printf(out, "LLM calls: at most %ld (filters %ld of %ld that checking every "
                              "candidate would take%s)\n", filters + sl, filters, st.bound,
                              sl ? ", plus the select list" : "");
        }
    }
    if (!rc && en->mapped.len) {
        gn_buf_puts(out, "values: enum literals and the values they stand for:\n");
        gn_buf_add(out, en->mapped.data, en->mapped.len);
    }
    en->st = NULL;
    en->explain = 0;
    limits_end(en);
    suql_query_free(q);
    return rc;
}

