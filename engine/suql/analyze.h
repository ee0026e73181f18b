/*
 * analyze.h — names and types of a parsed SUQL query, checked against the
 * knowledge base's schema.
 *
 * suql_analyze resolves every table in FROM (knowledge-base tables, CTEs,
 * subqueries, unnest(array) AS x) and every column reference (qualified or
 * not, select-list aliases in ORDER BY and GROUP BY, correlated references
 * to enclosing queries), annotates the tree with what each name means
 * (ast.h: rkind, rtab, rcol, rfrom, ... on expressions; rtab, rcte, rname,
 * rcols on FROM items) and with each expression's inferred type, and
 * refuses, with a position, what would fail or silently mean something
 * else later: unknown or hidden tables, unknown or ambiguous columns,
 * unknown functions, answer()/summary() on non-text values or with a
 * question that is not a string literal, arrays compared with scalars,
 * and PostgreSQL's rules for set operations, window functions, FILTER,
 * aggregate ORDER BY and DISTINCT ON.  Every SELECT (set operations
 * included) gets its output columns in rcols.
 * Other type checks are lenient: SQLite is dynamically typed.
 *
 * The schema is borrowed: the annotations point into it, so it must
 * outlive the query's use of them.
 */
#ifndef GENIE_SUQL_ANALYZE_H
#define GENIE_SUQL_ANALYZE_H

#include "store/kb.h"
#include "suql/ast.h"
#include "util/err.h"

/* Resolve and check Q against S (tables not in S — genie_* bookkeeping,
 * _truth_* ground truth — do not exist for a query).  Returns 0, or with
 * e set (line and column of the offending node):
 *   GN_ENOTFOUND  unknown table or column ("unknown table 'restaurant'
 *                 (did you mean 'restaurants'?)", "unknown column 'ratings'
 *                 in restaurants (did you mean 'rating'?)");
 *   GN_EPARSE     ambiguous column, unknown function or wrong arity,
 *                 unnest() outside FROM, misuse of answer()/summary(),
 *                 array/scalar mix-ups, aggregates in WHERE, a subquery
 *                 with the wrong number of columns, a bad ORDER BY
 *                 position, and the like;
 *   GN_ELIMIT     a query that expands past SUQL_MAX_BLOCKS SELECT
 *                 blocks once each read of a WITH query is a copy of it,
 *                 as SQLite compiles it (see below).
 * May be run again on the same query (annotations are overwritten). */
int suql_analyze(suql_query *q, const st_schema *s, gn_err *e);

/* The most SELECT blocks a query may expand to.  SQLite compiles each
 * read of a WITH query as a copy of its body (MATERIALIZED too, in the
 * SQLite Debian ships), so a chain of WITH queries that each read the one
 * before twice compiles 2^n copies: a 1 KB query took 5 s and 1.4 GB
 * before its first row, past any time limit (SQLite's compile cannot be
 * interrupted).  PostgreSQL computes each once; genie refuses what it
 * cannot compile in bounded time, naming the WITH query. */
#define SUQL_MAX_BLOCKS 65536

/* 1 if X's subtree (subqueries included) calls answer() or summary(),
 * else 0; NULL gives 0. */
int suql_is_freetext(const suql_expr *x);

/* 1 if which rows S returns, or what they hold, depends on S's other rows
 * beyond aggregation: S is a set operation (UNION, INTERSECT, EXCEPT), has
 * DISTINCT ON, or calls a window function in its select list or ORDER BY.
 * Such a query must run as written (never row set by row set). */
int suql_rows_interact(const suql_select *s);

/* The one knowledge-base table S reads when its FROM is exactly one table
 * (no join, subquery, CTE or function), else NULL.  When ALIAS is not
 * NULL, *alias is set to the name that qualifies its columns (the alias,
 * else the table name as written).  Needs an analyzed S. */
const st_table *suql_single_table(const suql_select *s, const char **alias);

/* The output name of target T as PostgreSQL names it: the alias, else the
 * column's name, the function's name ("count", "answer"), the inner
 * expression's name through casts, "case", "coalesce", "exists", "array",
 * a scalar subquery's first column, else "?column?".  Static or owned by
 * the query; never NULL.  (A star has no single name: "*".) */
const char *suql_target_name(const suql_target *t);

/* The output columns S's select-list star STAR (a SUQL_E_STAR target of S,
 * qualified or not) stands for, in PostgreSQL's order: FN is called once
 * per column with the FROM item that holds it (TABLE, SUBQUERY or FUNC),
 * the column's index in that item's rcols, and, for a column merged by
 * JOIN USING or NATURAL, that JOIN (else NULL).  Needs an analyzed S. */
typedef void (*suql_star_fn)(void *ud, const suql_from *item, int index, const suql_from *join);
void suql_star_walk(const suql_select *s, const suql_expr *star, suql_star_fn fn, void *ud);

#endif
