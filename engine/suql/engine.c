/*
 * engine.c — the SUQL engine: lifecycle, the SQLite functions behind
 * answer() and summary(), the emit hooks, plain and per-row runs, and the
 * dispatch between the three modes (see engine.h).
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
    if (en->st) {
        en->st->ms_llm += b.llm_calls + b.cache_hits > a.llm_calls + a.cache_hits
                              ? (gn_now() * 1e3) - t0 : 0;
        en->st->evaluations += need;
        en->st->llm_calls += b.llm_calls - a.llm_calls;
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

static void free_queue(suql_engine *en)
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

/* ---- emit hooks ----------------------------------------------------------------- */

static int is_vocab(const st_column *c)
{
    return c && (c->nenum > 0 || (c->is_array && !c->free_text && !strcmp(c->type, "text")));
}

/* LIT stands for none of column C's values: said in the run's note, with
 * the values (the first 12). */
static void unmatched(suql_engine *en, const st_table *t, const st_column *c, const char *lit)
{
    gn_buf *b = &en->unmatched;
    gn_buf_printf(b, "%s'%s' is none of the values of %s.%s, so it matched nothing", b->len ? "; " : "",
                  lit, t->name, c->name);
    if (c->nenum > 0) {
        gn_buf_puts(b, " (its values:");
        for (int i = 0; i < c->nenum && i < 12; i++)
            gn_buf_printf(b, "%s '%s'", i ? "," : "", c->enum_vals[i]);
        if (c->nenum > 12) gn_buf_printf(b, " and %d more", c->nenum - 12);
        gn_buf_putc(b, ')');
    }
}

static int map_literal(const suql_expr *col, const char *lit, void *ud, const char *const **vals,
                       int *n, gn_err *e)
{
    suql_engine *en = ud;
    const st_column *c = col->rcol;
    const st_table *t = col->rtab;
    if (!t || !is_vocab(c)) return 0;
    suql_mapping m;
    if (en->explain) {
        int k = suql_classify_local(en->cls, t, c, lit, &m, e);
        if (k < 0) return k;
        if (!k) {
            gn_buf_printf(&en->mapped, "        %s.%s: '%s' is not one of its values: the run asks "
                          "the LLM which it means (CLASSIFY)\n", t->name, c->name, lit);
            return 0;
        }
    } else {
        double t0 = gn_now() * 1e3;
        int rc = suql_classify(en->cls, t, c, lit, &m, e);
        if (rc) return -rc;
        if (m.asked && en->st) {             /* CLASSIFY's call is an LLM call too */
            if (m.cached) {
                en->st->cache_hits++;
                en->st->classify_cached++;
            } else {
                en->st->llm_calls++;
                en->st->classify_calls++;
            }
            en->st->ms_llm += gn_now() * 1e3 - t0;
        }
    }
    /* A value as written stays; one in another case ('Cheap', 'spring
     * 2027') becomes the vocabulary's spelling, or it would match nothing. */
    if (m.exact && (m.nvalues != 1 || !strcmp(m.values[0], lit))) return 0;
    if (en->explain) {
        gn_buf_printf(&en->mapped, "        %s.%s: '%s' ->", t->name, c->name, lit);
        for (int i = 0; i < m.nvalues; i++) gn_buf_printf(&en->mapped, "%s '%s'", i ? "," : "", m.values[i]);
        if (!m.nvalues) gn_buf_puts(&en->mapped, " no value (matches nothing)");
        gn_buf_printf(&en->mapped, " (%s)\n", m.exact ? "the vocabulary's spelling"
                      : m.offline ? "by similarity, offline" : "as the LLM said earlier");
    }
    if (!m.nvalues) unmatched(en, t, c, lit);
    *vals = m.values;
    *n = m.nvalues;
    return 1;
}

static const char *hint_of(const suql_engine *en, const suql_expr *x)
{
    for (int i = 0; i < en->nhints; i++)
        if (en->hints[i].node == x) return en->hints[i].hint;
    return NULL;
}

/* answer(a, q) → suql_answer(a, q, 'field', hint); summary(a) →
 * suql_summary(a, 'field'). */
static int freetext_call(const suql_expr *x, void *ud, gn_buf *out, gn_err *e)
{
    suql_engine *en = ud;
    suql_emit_hooks h;
    const suql_expr *arg = x->args[0];
    const char *field = arg->kind == SUQL_E_COLUMN ? arg->name : "text";
    gn_buf_puts(out, x->kind == SUQL_E_ANSWER ? "suql_answer(" : "suql_summary(");
    int rc = suql_emit_expr(NULL, arg, suql_hooks_calls(en, &h), out, e);
    if (rc) return rc;
    if (x->kind == SUQL_E_ANSWER) {
        gn_buf_puts(out, ", ");
        rc = suql_emit_expr(NULL, x->args[1], &h, out, e);
        if (rc) return rc;
    }
    gn_buf_puts(out, ", ");
    suql_emit_string(field, out);
    if (x->kind == SUQL_E_ANSWER) {
        const char *hint = hint_of(en, x);
        gn_buf_puts(out, ", ");
        if (hint) suql_emit_string(hint, out);
        else gn_buf_puts(out, "NULL");
    }
    gn_buf_putc(out, ')');
    return 0;
}

static int freetext_literal(const suql_expr *x, void *ud, gn_buf *out, gn_err *e)
{
    suql_engine *en = ud;
    for (int i = 0; i < en->nvals; i++)
        if (en->vals[i].node == x) {
            if (en->vals[i].text) suql_emit_string(en->vals[i].text, out);
            else gn_buf_puts(out, "NULL");
            return 0;
        }
    return freetext_call(x, ud, out, e);
}

const suql_emit_hooks *suql_hooks_calls(suql_engine *en, suql_emit_hooks *h)
{
    h->freetext = freetext_call;
    h->map_literal = map_literal;
    h->ud = en;
    return h;
}

const suql_emit_hooks *suql_hooks_literals(suql_engine *en, suql_emit_hooks *h)
{
    h->freetext = freetext_literal;
    h->map_literal = map_literal;
    h->ud = en;
    return h;
}

/* ---- type hints ------------------------------------------------------------------ */

static const char *cast_hint(suql_cast_type t)
{
    switch (t) {
    case SUQL_T_INT: return "Reply with a whole number only.";
    case SUQL_T_REAL:
    case SUQL_T_NUMERIC: return "Reply with a number only.";
    case SUQL_T_BOOL: return "Reply with Yes or No only.";
    case SUQL_T_DATE: return "Reply with a date as YYYY-MM-DD only.";
    case SUQL_T_TIME: return "Reply with a time as HH:MM (24-hour) only.";
    case SUQL_T_TIMESTAMP: return "Reply with a date and time as YYYY-MM-DD HH:MM only.";
    default: return NULL;
    }
}

static void hints_expr(suql_engine *en, const suql_expr *x);

static void hints_select(suql_engine *en, const suql_select *s)
{
    if (!s) return;
    for (int i = 0; i < s->nctes; i++) hints_select(en, s->ctes[i].select);
    for (int i = 0; i < s->ntargets; i++) hints_expr(en, s->targets[i].expr);
    hints_expr(en, s->where);
    hints_expr(en, s->having);
    for (int i = 0; i < s->ngroup; i++) hints_expr(en, s->group[i]);
    for (int i = 0; i < s->norder; i++) hints_expr(en, s->order[i].expr);
    hints_select(en, s->larg);
    hints_select(en, s->rarg);
}

static void hints_expr(suql_engine *en, const suql_expr *x)
{
    if (!x) return;
    if (x->kind == SUQL_E_CAST && x->l && x->l->kind == SUQL_E_ANSWER && cast_hint(x->type)) {
        en->hints = xrealloc(en->hints, sizeof *en->hints * (size_t)(en->nhints + 1));
        en->hints[en->nhints++] = (node_hint){ x->l, cast_hint(x->type) };
    }
    hints_expr(en, x->l);
    hints_expr(en, x->r);
    for (int i = 0; i < x->nargs; i++) hints_expr(en, x->args[i]);
    hints_select(en, x->sub);
}

void suql_collect_hints(suql_engine *en, const suql_select *sel)
{
    en->nhints = 0;
    hints_select(en, sel);
}

/* ---- running SQL ------------------------------------------------------------------- */

static int time_error(const suql_engine *en, gn_err *e)
{
    return gn_err_set(e, GN_ELIMIT, "the query ran past its time limit of %g s of database work "
                      "(--query-timeout); narrow it, or join fewer tables", en->cfg.time_limit);
}

/* SQLite's failure WHAT of the current statement, the limits named: out
 * of memory is the query's memory limit (the process has more), too big
 * a value the text limit that follows from it. */
static int db_error(suql_engine *en, const char *what, gn_err *e)
{
    int rc = sqlite3_errcode(en->cfg.db);
    if (rc == SQLITE_NOMEM)
        return gn_err_set(e, GN_ELIMIT, "the query needed more than its memory limit of %lld MB "
                          "(--query-memory); narrow it, or join fewer tables",
                          en->cfg.memory_limit >> 20);
    if (rc == SQLITE_TOOBIG)
        return gn_err_set(e, GN_ELIMIT, "the query made a value longer than %lld MB, the most one "
                          "value may hold (a sixteenth of --query-memory)",
                          (long long)sqlite3_limit(en->cfg.db, SQLITE_LIMIT_LENGTH, -1) >> 20);
    return st_dberr(en->cfg.db, e, what);
}

static int step_error(suql_engine *en, const char *sql, gn_err *e)
{
    (void)sql;
    if (en->stopped == STOP_TIME) return time_error(en, e);
    if (en->stopped == STOP_CANCEL) return gn_err_set(e, GN_ECANCEL, "the query was cancelled");
    if (en->ferr_set) {
        *e = en->ferr;
        return e->code;
    }
    return db_error(en, "running the query", e);
}

/* Has the run worked past its time limit (LLM waits not counted)? */
static int past_time(const suql_engine *en)
{
    double llm = en->st ? en->st->ms_llm / 1e3 : 0;
    return en->t_start && gn_now() - en->t_start - llm > en->cfg.time_limit;
}

int suql_run_sql(suql_engine *en, const char *sql, int collect, suql_result *res, gn_err *e)
{
    sqlite3_stmt *st;
    en->ferr_set = 0;
    if (sqlite3_prepare_v2(en->cfg.db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_error(en, "compiling the query", e);
    if (past_time(en)) {                /* the compile is not interruptible */
        sqlite3_finalize(st);
        en->stopped = STOP_TIME;
        return time_error(en, e);
    }
    int rc;
    if (collect) {
        en->collect = 1;
        free_queue(en);
        long seen = 0;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            if (!(++seen & 255) && past_time(en)) {    /* rows cost outside SQLite's VM too */
                en->stopped = STOP_TIME;
                rc = SQLITE_INTERRUPT;
                break;
            }
        en->collect = 0;
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return step_error(en, sql, e);
        }
        if (en->nqueue) {
            gn_err qe;
            int qrc = suql_eval(en, en->queue, en->nqueue, &qe);
            (void)qrc;      /* over budget: the real pass computes what fits */
        }
        free_queue(en);
        sqlite3_reset(st);
        en->readback = 1;
    }
    int nc = sqlite3_column_count(st);
    const char **names = xcalloc((size_t)nc + 1, sizeof *names);
    for (int i = 0; i < nc; i++) names[i] = sqlite3_column_name(st, i);
    suql_result_init(res, names, nc);
    free(names);
    long bytes = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!((res->nrows + 1) & 255) && past_time(en)) {
            en->stopped = STOP_TIME;
            rc = SQLITE_INTERRUPT;
            break;
        }
        if (res->nrows >= SUQL_MAX_ROWS || bytes >= SUQL_MAX_BYTES) {
            free(res->note);
            char size[32];
            if (bytes < 1 << 20) snprintf(size, sizeof size, "%ld KB", (bytes + 1023) >> 10);
            else snprintf(size, sizeof size, "%.1f MB", (double)bytes / (1 << 20));
            res->note = xasprintf("the result was cut at %d rows (%s): it holds at most %d rows and "
                                  "%ld MB", res->nrows, size, SUQL_MAX_ROWS, SUQL_MAX_BYTES >> 20);
            if (en->st) en->st->cut = 1;
            rc = SQLITE_DONE;
            break;
        }
        suql_cell *row = suql_result_add_row(res);
        for (int i = 0; i < nc; i++) {
            switch (sqlite3_column_type(st, i)) {
            /* A number counts as the 8 bytes it is held in. */
            case SQLITE_INTEGER: suql_cell_set_int(&row[i], sqlite3_column_int64(st, i)); bytes += 8; break;
            case SQLITE_FLOAT: suql_cell_set_real(&row[i], sqlite3_column_double(st, i)); bytes += 8; break;
            case SQLITE_NULL: break;
            default:
                suql_cell_set_text(&row[i], (const char *)sqlite3_column_text(st, i));
                bytes += sqlite3_column_bytes(st, i);
            }
        }
    }
    sqlite3_finalize(st);
    en->readback = 0;
    if (rc != SQLITE_DONE) return step_error(en, sql, e);
    return 0;
}

/* SQLite's progress handler: a query stops when it has worked past its
 * time limit (the time waiting for the LLM inside answer() not counted)
 * or the user cancelled, at once rather than at the next window. */
static int on_progress(void *ud)
{
    suql_engine *en = ud;
    if (!en->t_start) return 0;
    if (en->cancel && *en->cancel) {
        en->stopped = STOP_CANCEL;
        return 1;
    }
    if (past_time(en)) {
        en->stopped = STOP_TIME;
        return 1;
    }
    return 0;
}

/* Do rows R1 and R2 (the current and a saved one) hold the same values? */
static int same_row(sqlite3_stmt *st, sqlite3_value **saved, int n)
{
    for (int i = 0; i < n; i++) {
        sqlite3_value *v = sqlite3_column_value(st, i);
        int t = sqlite3_value_type(v);
        if (t != sqlite3_value_type(saved[i])) return 0;
        if (t == SQLITE_NULL) continue;
        if (t == SQLITE_INTEGER ? sqlite3_value_int64(v) != sqlite3_value_int64(saved[i])
            : t == SQLITE_FLOAT ? sqlite3_value_double(v) != sqlite3_value_double(saved[i])
            : sqlite3_value_bytes(v) != sqlite3_value_bytes(saved[i]) ||
              memcmp(sqlite3_value_blob(v), sqlite3_value_blob(saved[i]), (size_t)sqlite3_value_bytes(v)))
            return 0;
    }
    return 1;
}

/* How many of the rows the LIMIT (WANT) cut tie, on SEL's ORDER BY keys,
 * with the last row kept, into st->tied (at most SUQL_TIED_MAX): a top 3
 * whose third place is shared says so rather than choosing silently. */
static void count_tied(suql_engine *en, suql_query *q, const suql_select *sel, long want)
{
    if (!sel->norder || sel->offset || want < 1 || suql_order_has_freetext(sel)) return;
    suql_select keys = *sel;
    suql_target *tg = suql_array_new(q, sel->norder, sizeof *tg);
    for (int i = 0; i < sel->norder; i++) tg[i] = (suql_target){ sel->order[i].expr, NULL };
    keys.targets = tg;
    keys.ntargets = sel->norder;
    keys.limit = keys.offset = NULL;
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    gn_err e;
    gn_err_clear(&e);
    if (!suql_emit_select(q, &keys, suql_hooks_calls(en, &h), &sql, &e)) {
        char *c = xasprintf("%s LIMIT %d OFFSET %ld", sql.data, SUQL_TIED_MAX + 1, want - 1);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(en->cfg.db, c, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
            int n = sqlite3_column_count(st);
            sqlite3_value **last = xcalloc((size_t)n + 1, sizeof *last);
            for (int i = 0; i < n; i++) last[i] = sqlite3_value_dup(sqlite3_column_value(st, i));
            long tied = 0;
            while (sqlite3_step(st) == SQLITE_ROW && same_row(st, last, n)) tied++;
            en->st->tied = tied;
            for (int i = 0; i < n; i++) sqlite3_value_free(last[i]);
            free(last);
        }
        sqlite3_finalize(st);
        free(c);
    }
    gn_buf_release(&sql);
}

/* How many rows SEL selects without its LIMIT, into st->matched, when the
 * LIMIT cut RES and counting costs one statement without free text (the
 * reply can then say "3 of 69").  Errors leave it unknown. */
static void count_matched(suql_engine *en, suql_query *q, const suql_select *sel, const suql_result *res)
{
    long want = suql_rows_wanted(sel);
    if (!en->cfg.count_matched || !en->st || !sel->limit || sel->distinct || want < 0 || res->nrows < want || !res->nrows) return;
    suql_select all = *sel;
    suql_expr *one = suql_expr_new(q, SUQL_E_INT, 0);
    one->ival = 1;
    one->text = "1";
    suql_target tg = { one, NULL };
    all.targets = &tg;
    all.ntargets = 1;
    all.order = NULL;
    all.norder = 0;
    all.limit = all.offset = NULL;
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    gn_err e;
    gn_err_clear(&e);
    if (!suql_emit_select(q, &all, suql_hooks_calls(en, &h), &sql, &e)) {
        /* Bounded: past SUQL_COUNT_MAX rows "more than" is all the reply needs. */
        char *c = xasprintf("SELECT count(*) FROM (%s LIMIT %d)", sql.data, SUQL_COUNT_MAX + 1);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(en->cfg.db, c, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            en->st->matched = (long)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        free(c);
    }
    gn_buf_release(&sql);
    if (en->st->matched > res->nrows) count_tied(en, q, sel, want);
}

/* ---- shapes of a query -------------------------------------------------------------- */

static int has_aggregate(const suql_expr *x)
{
    if (!x) return 0;
    if (x->kind == SUQL_E_FUNC && suql_func_is_aggregate(x->name)) return 1;
    if (has_aggregate(x->l) || has_aggregate(x->r)) return 1;
    for (int i = 0; i < x->nargs; i++)
        if (has_aggregate(x->args[i])) return 1;
    return 0;
}

int suql_aggregates(const suql_select *sel)
{
    if (sel->distinct || sel->ngroup || sel->having) return 1;
    for (int i = 0; i < sel->ntargets; i++)
        if (has_aggregate(sel->targets[i].expr)) return 1;
    return 0;
}

static long const_int(const suql_expr *x)
{
    return x && x->kind == SUQL_E_INT && x->ival >= 0 ? (long)x->ival : -1;
}

long suql_rows_wanted(const suql_select *sel)
{
    long l = const_int(sel->limit);
    if (l < 0 || suql_aggregates(sel) || suql_rows_interact(sel)) return -1;
    long o = sel->offset ? const_int(sel->offset) : 0;
    return o < 0 ? -1 : l + o;
}

int suql_budget_for(const suql_engine *en, const suql_select *sel)
{
    if (en->cfg.budget > 0) return en->cfg.budget;
    long want = suql_rows_wanted(sel);
    if (want < 0) return SUQL_BUDGET_NOLIMIT;
    /* A LIMIT (written by a model) never buys more than no LIMIT. */
    long b = want > SUQL_BUDGET_NOLIMIT ? SUQL_BUDGET_NOLIMIT : want * SUQL_BUDGET_PER_ROW;
    return b < SUQL_BUDGET_MIN ? SUQL_BUDGET_MIN : b > SUQL_BUDGET_NOLIMIT ? SUQL_BUDGET_NOLIMIT : (int)b;
}

int suql_order_has_freetext(const suql_select *sel)
{
    for (int i = 0; i < sel->norder; i++)
        if (suql_is_freetext(sel->order[i].expr)) return 1;
    return 0;
}

/* ---- lifecycle ----------------------------------------------------------------------- */

int suql_engine_new(const suql_engine_config *cfg, suql_engine **out, gn_err *e)
{
    *out = NULL;
    suql_engine *en = xcalloc(1, sizeof *en);
    en->cfg = *cfg;
    gn_buf_init(&en->mapped);
    gn_buf_init(&en->unmatched);
    gn_buf_init(&en->unranked);
    if (en->cfg.window <= 0) en->cfg.window = SUQL_WINDOW;
    suql_ft_config fc = { .em = cfg->em, .client = cfg->client, .answer_tpl = cfg->answer_tpl,
                          .verify_tpl = cfg->verify_tpl, .summary_tpl = cfg->summary_tpl,
                          .verify_rows_tpl = cfg->verify_rows_tpl, .verify_batch = cfg->verify_batch,
                          .offline_threshold = cfg->offline_threshold,
                          .verdict = cfg->verdict, .verdict_ud = cfg->verdict_ud,
                          .summary_extractive = cfg->summary_extractive };
    en->ft = suql_ft_new(&fc);
    en->cls = suql_classifier_new(cfg->db, cfg->em, cfg->client, cfg->client ? cfg->classify_tpl : NULL);
    int flags = SQLITE_UTF8;
    if (sqlite3_create_function(cfg->db, "suql_answer", -1, flags, en, fn_answer, NULL, NULL) ||
        sqlite3_create_function(cfg->db, "suql_summary", -1, flags, en, fn_summary, NULL, NULL)) {
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
    sqlite3_progress_handler(cfg->db, 10000, on_progress, en);
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
    free_queue(en);
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
    if (!rc && past_time(en)) rc = time_error(en, e);
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

int suql_freetext_targets(const suql_select *sel)
{
    int n = 0;
    for (int i = 0; i < sel->ntargets; i++) n += suql_is_freetext(sel->targets[i].expr);
    return n;
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
        if (!rc) count_matched(en, q, sel, res);
        break;
    case RUN_PLAIN:
        rc = run_whole(en, q, suql_freetext_targets(sel) && !suql_order_has_freetext(sel), res, e);
        if (!rc && !ctes) count_matched(en, q, sel, res);
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
        rc = step_error(en, NULL, e);
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
            if (b > 1)
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

cJSON *suql_stats_json(const suql_run_stats *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "candidates", (double)s->candidates);
    cJSON_AddNumberToObject(o, "verified", (double)s->checked);
    cJSON_AddNumberToObject(o, "passed", (double)s->passed);
    cJSON_AddNumberToObject(o, "llm_calls", (double)s->llm_calls);
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
                  "%ld memo hits, %ld offline, %ld failed)\n", s->evaluations, s->budget,
                  s->budget_hit ? ", budget reached" : "",
                  s->llm_calls - s->classify_calls, s->cache_hits - s->classify_cached,
                  s->memo_hits, s->offline, s->failures);
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
