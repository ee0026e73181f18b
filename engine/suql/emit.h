/*
 * emit.h — an analyzed SUQL tree compiled to SQLite SQL text.
 *
 * PostgreSQL meaning, SQLite spelling: arrays are JSON arrays (= ANY, @>,
 * &&, <@ and unnest go through json_each), LIKE stays case-sensitive,
 * ORDER BY makes PostgreSQL's NULL placement explicit, casts and
 * PostgreSQL function names map to SQLite's, answer() and summary() are
 * left to a hook (the planner) or to SQL functions the executor registers.
 * The output is one SELECT statement: identifiers are always double-quoted,
 * every string literal is re-quoted (never copied from the query text),
 * numbers are printed from their values, and only functions on the
 * allow-list of emit_func.c are ever called, so nothing in a query can
 * reach load_extension() or end the statement.
 *
 * The tree must have been through suql_analyze (analyze.h); nodes a later
 * pass adds without annotations are printed with their names as written.
 */
#ifndef GENIE_SUQL_EMIT_H
#define GENIE_SUQL_EMIT_H

#include "suql/ast.h"
#include "util/buf.h"
#include "util/err.h"

#include <sqlite3.h>

typedef struct suql_emit_hooks {
    /* answer()/summary() node X: append to OUT the SQL that stands for its
     * value (a quoted literal the planner computed, a function call, or
     * anything else that is one primary expression: parenthesize
     * otherwise).  Returns 0 or a GN_* code with e set.  NULL hook: X is
     * emitted as suql_answer(<value SQL>, <question SQL>) or
     * suql_summary(<value SQL>), SQL functions the executor registers. */
    int (*freetext)(const suql_expr *x, void *ud, gn_buf *out, gn_err *e);
    /* A string literal compared with column COL (col = 'lit', col <> 'lit',
     * col IN ('a', 'b'), 'lit' = ANY (col), 'lit' <> ALL (col),
     * col @> ARRAY['lit'], col && ARRAY[...], col <@ ARRAY[...]): the
     * values it stands for.  Return 1 with *vals and *n set (n may be 0:
     * it matches nothing; the values are copied before the next call),
     * 0 to keep the literal as it is, or a negative GN code (-GN_ENET, ...)
     * with e set.  COL is an analyzed SUQL_E_COLUMN: rcol is the schema
     * column (for an unnest element, the array column it comes from).
     * NULL hook: literals kept. */
    int (*map_literal)(const suql_expr *col, const char *literal, void *ud,
                       const char *const **vals, int *n, gn_err *e);
    void *ud;
} suql_emit_hooks;

/* Append to OUT the SQLite SELECT for S (Q's statement or any SELECT
 * inside it; S NULL: Q's statement; H may be NULL: no hooks).  Returns 0,
 * a hook's error, or GN_EPARSE (positioned) for what cannot be compiled.
 * OUT may hold a partial statement after an error.  Q is only used for
 * error positions and may be NULL (S must then be given). */
int suql_emit_select(const suql_query *q, const suql_select *s, const suql_emit_hooks *h,
                     gn_buf *out, gn_err *e);

/* The same for one expression X of Q (a WHERE term, a select-list item);
 * column references are qualified as they are in the full statement.  A
 * select-list output name (rkind SUQL_R_ALIAS) is emitted as its output
 * position inside its own SELECT, and as the expression it names anywhere
 * else (alone, or in a SELECT a later pass rebuilt with other targets). */
int suql_emit_expr(const suql_query *q, const suql_expr *x, const suql_emit_hooks *h,
                   gn_buf *out, gn_err *e);

/* Append S as one SQL string literal: 'it''s'. */
void suql_emit_string(const char *s, gn_buf *out);

/* Append S as one quoted SQL identifier: "a""b". */
void suql_emit_ident(const char *s, gn_buf *out);

/* Register on DB the SQL functions emitted SQL may call besides
 * SQLite's own (suql_answer and suql_summary excepted: the executor
 * provides those):
 *   suql_like(x, pattern)  PostgreSQL LIKE: case-sensitive, '%' and '_'
 *                          over UTF-8 characters, '\' escapes; NULL when
 *                          either argument is NULL.  Used for LIKE with a
 *                          pattern that is not a literal.
 * Returns SQLITE_OK or SQLite's error code. */
int suql_register_functions(sqlite3 *db);

/* ---- the function allow-list (emit_func.c) --------------------------- */

/* 0 when the emitter compiles call X (a SUQL_E_FUNC: known name, right
 * number of arguments, DISTINCT and * only where they mean something),
 * else GN_EPARSE at X's position: "unknown function 'st_distance_sphere'"
 * (with a close name suggested), "round() takes 1 or 2 arguments". */
int suql_func_check(const suql_query *q, const suql_expr *x, gn_err *e);

/* 1 if NAME is an aggregate function of the allow-list (count, sum, avg,
 * min, max, string_agg, array_agg, bool_and, bool_or, every). */
int suql_func_is_aggregate(const char *name);

/* 1 if NAME is a window function of the allow-list (row_number, rank,
 * dense_rank, percent_rank, cume_dist, ntile, lag, lead, first_value,
 * last_value, nth_value): it needs OVER. */
int suql_func_is_window(const char *name);

/* The result type of analyzed call X, *array set when it is an array
 * (array_agg); SUQL_VT_UNKNOWN when it depends on data. */
suql_vtype suql_func_type(const suql_expr *x, int *array);

#endif
