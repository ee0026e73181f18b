/*
 * runsql.c — one SQL statement of a run (engine_int.h): stepped with the
 * run's time limit and cancel (SQLite's progress handler), cut at
 * SUQL_MAX_ROWS rows or SUQL_MAX_BYTES (numbers as 8 bytes) with a note, SQLite's
 * errors worded with the limit that caused them; and the figures read
 * after a run: rows tied with the last one kept at a LIMIT, and how many
 * rows matched in all.
 */
#include "engine_int.h"
#include "suql/pgval.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- running SQL ------------------------------------------------------------------- */

int suql_time_error(const suql_engine *en, gn_err *e)
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

int suql_step_error(suql_engine *en, const char *sql, gn_err *e)
{
    (void)sql;
    if (en->stopped == STOP_TIME) return suql_time_error(en, e);
    if (en->stopped == STOP_CANCEL) return gn_err_set(e, GN_ECANCEL, "the query was cancelled");
    if (en->ferr_set) {
        *e = en->ferr;
        return e->code;
    }
    return db_error(en, "running the query", e);
}

/* Has the run worked past its time limit (LLM waits not counted)? */
int suql_past_time(const suql_engine *en)
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
    if (suql_past_time(en)) {                /* the compile is not interruptible */
        sqlite3_finalize(st);
        en->stopped = STOP_TIME;
        return suql_time_error(en, e);
    }
    int rc;
    if (collect) {
        en->collect = 1;
        suql_queue_free(en);
        long seen = 0;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            if (!(++seen & 255) && suql_past_time(en)) {    /* rows cost outside SQLite's VM too */
                en->stopped = STOP_TIME;
                rc = SQLITE_INTERRUPT;
                break;
            }
        en->collect = 0;
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return suql_step_error(en, sql, e);
        }
        if (en->nqueue) {
            gn_err qe;
            int qrc = suql_eval(en, en->queue, en->nqueue, &qe);
            (void)qrc;      /* over budget: the real pass computes what fits */
        }
        suql_queue_free(en);
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
        if (!((res->nrows + 1) & 255) && suql_past_time(en)) {
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
    if (rc != SQLITE_DONE) return suql_step_error(en, sql, e);
    return 0;
}

/* SQLite's progress handler: a query stops when it has worked past its
 * time limit (the time waiting for the LLM inside answer() not counted)
 * or the user cancelled, at once rather than at the next window. */
int suql_on_progress(void *ud)
{
    suql_engine *en = ud;
    if (!en->t_start) return 0;
    if (en->cancel && *en->cancel) {
        en->stopped = STOP_CANCEL;
        return 1;
    }
    if (suql_past_time(en)) {
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
void suql_count_matched(suql_engine *en, suql_query *q, const suql_select *sel, const suql_result *res)
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

