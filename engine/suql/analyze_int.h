/*
 * analyze_int.h — what the analyzer's files share (analyze.c: SELECT and
 * FROM; analyze_names.c: scopes and column references; analyze_expr.c:
 * expressions and their types; analyze_window.c: OVER, FILTER and
 * aggregate ORDER BY; analyze_setop.c: UNION, INTERSECT, EXCEPT).  Not a
 * public header.
 */
#ifndef GENIE_SUQL_ANALYZE_INT_H
#define GENIE_SUQL_ANALYZE_INT_H

#include "suql/analyze.h"

/* A WITH query visible to a SELECT, innermost first. */
typedef struct suql_an_cte {
    const struct suql_an_cte *up;
    suql_cte *cte;
    suql_rcolumn *cols;
    int ncols;
} suql_an_cte;

typedef struct suql_an_scope {
    const struct suql_an_scope *up;      /* the enclosing query, or NULL */
    const suql_select *sel;      /* NULL: a level that sees no FROM items */
    const suql_from **vis;       /* visible FROM subtrees, in order */
    int nvis;
    const suql_an_cte *ctes;
} suql_an_scope;

typedef struct suql_an_ctx {
    suql_query *q;
    const st_schema *s;
    gn_err *e;
    long blocks;                 /* SELECT blocks so far, each read of a
                                    WITH query counting its body's
                                    (SUQL_MAX_BLOCKS) */
} suql_an_ctx;

/* Where a name was found in a FROM subtree. */
typedef struct suql_an_source {
    const suql_from *leaf;
    int idx;
    const suql_from *join;       /* merged by this JOIN, or NULL */
} suql_an_source;

/* Resolve S (its WITH, FROM, clauses) with UP the enclosing query's
 * scope and CTES the visible WITH queries; *out gets its output columns
 * (arena).  0 or a GN code with e set.  (analyze.c) */
int suql_an_select(suql_an_ctx *a, suql_select *s, const suql_an_scope *up, const suql_an_cte *ctes,
                   suql_rcolumn **out, int *nout);
/* Resolve, type and check expression X (NULL: nothing) in SC.
 * (analyze_expr.c) */
int suql_an_expr(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x);

/* Most FROM items one scope lists in messages. */
#define MAX_LEAVES 64

typedef struct suql_an_excl {
    const char *const *names;
    int n;
    const struct suql_an_excl *up;
} suql_an_excl;

typedef struct suql_an_collect {
    suql_an_ctx *a;
    suql_rcolumn *v;
    int n, cap;
} suql_an_collect;

/* ---- analyze_names.c ---- */

/* The schema's type name (text, enum, int, ...) as a suql_vtype. */
suql_vtype suql_an_schema_type(const char *t);
/* C when it is an enum column with declared values (its elements', for
 * an array), else NULL. */
const struct st_column *suql_an_enum_column(const struct st_column *c);
/* The type as messages name it: "TEXT", "REAL[]", ... (static). */
const char *suql_an_vtype_name(suql_vtype t, int array);
/* X in messages: a column's name, else its printed form (arena). */
const char *suql_an_label(suql_an_ctx *a, const suql_expr *x);
/* The same, a column's name in single quotes (arena). */
const char *suql_an_quoted(suql_an_ctx *a, const suql_expr *x);
/* " (did you mean 'x'?)" for the closest of CAND[N] to NAME, or "". */
const char *suql_an_hint(suql_an_ctx *a, const char *name, const char *const *cand, int n);
/* A TABLE, SUBQUERY or FUNC item (not a JOIN). */
int suql_an_is_leaf(const suql_from *f);
/* Index of column NAME in LEAF's rcols (case-insensitive), or -1. */
int suql_an_col_index(const suql_from *leaf, const char *name);
/* Is NAME among V[N] (case-insensitive)? */
int suql_an_in_names(const char *const *v, int n, const char *name);
/* How many times subtree F exposes NAME unqualified; *src: where. */
int suql_an_exposed(const suql_from *f, const char *name, suql_an_source *src);
/* The FROM item of SC that qualifier QUAL names, or NULL. */
const suql_from *suql_an_scope_leaf(const suql_an_scope *sc, const char *qual);
/* The FROM items (not JOINs) of SC into V[MAX_LEAVES]; returns the count. */
int suql_an_scope_leaves(const suql_an_scope *sc, const suql_from **v);
/* Call FN for each column subtree F exposes, in star order, but those
 * named in EX (may be NULL). */
void suql_an_walk(const suql_from *f, const suql_an_excl *ex, suql_star_fn fn, void *ud);
/* Append COL to C (arena). */
void suql_an_collect_add(suql_an_collect *c, const suql_rcolumn *col);
/* A suql_star_fn appending each column to the suql_an_collect UD. */
void suql_an_collect_fn(void *ud, const suql_from *item, int index, const suql_from *join);
/* Resolve column reference X in SC or the scopes around it.  QUIET:
 * -1 instead of an "unknown column" error (ambiguity is still one). */
int suql_an_column(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x, int quiet);

/* ---- analyze_expr.c ---- */

/* A known scalar type (not an array, not NULL, not unknown)? */
int suql_an_is_scalar(const suql_expr *x);
/* GN_EPARSE at the first aggregate call in X (not in subqueries), naming
 * the clause WHERE; 0 when there is none. */
int suql_an_no_aggregate(suql_an_ctx *a, const suql_expr *x, const char *where);

/* ---- analyze.c ---- */

/* LIMIT or OFFSET X (NULL: none) of a SELECT in scope SC; WHAT names it. */
int suql_an_limit(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x, const char *what);

/* ---- analyze_window.c ---- */

/* The aggregate ORDER BY, FILTER and OVER of call X (its arguments
 * resolved already): resolved in SC and checked (PostgreSQL's rules). */
int suql_an_call_extras(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x);
/* S's WINDOW clause, resolved in SC (S's own scope). */
int suql_an_windows(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s);
/* GN_EPARSE at the first window function in X (not in subqueries),
 * naming the clause WHERE; 0 when there is none. */
int suql_an_no_window(suql_an_ctx *a, const suql_expr *x, const char *where);
/* The same for S's WHERE, GROUP BY and HAVING. */
int suql_an_no_window_in(suql_an_ctx *a, const suql_select *s);
/* 1 if W's PARTITION BY or ORDER BY calls answer() or summary(). */
int suql_an_window_freetext(const suql_window *w);

/* ---- analyze_setop.c ---- */

/* Set operation S (op not NONE): both operands resolved in the scope
 * around S (UP, CTES: S's own WITH already added), the column counts
 * checked, ORDER BY bound to the output columns, LIMIT and OFFSET; *out
 * gets the output columns (the left operand's names). */
int suql_an_setop(suql_an_ctx *a, suql_select *s, const suql_an_scope *up, const suql_an_cte *ctes,
                  suql_rcolumn **out, int *nout);
/* X where PostgreSQL needs a boolean (the argument of WHAT: AND, OR,
 * NOT, WHERE, HAVING, JOIN/ON): 0, or "argument of WHERE must be type
 * boolean, not type integer" at X. */
int suql_an_boolean(suql_an_ctx *a, const suql_expr *x, const char *what);
/* Whether PostgreSQL compares values of types L and R (UNKNOWN matches
 * anything), and its name of a type in messages ("double precision"). */
int suql_an_types_match(suql_vtype l, suql_vtype r);
const char *suql_an_pg_type(suql_vtype t);
/* PostgreSQL's grouping rules on analyzed S: every column outside an
 * aggregate grouped, DISTINCT's ORDER BY selected.  (analyze_group.c) */
int suql_an_grouping(suql_an_ctx *a, const suql_select *s);
/* String literal LIT read as type T, as PostgreSQL reads an untyped
 * literal beside a typed operand: 0, or its error at LIT ("invalid input
 * syntax for type time: ..."). */
int suql_an_literal_as(suql_an_ctx *a, const suql_expr *lit, suql_vtype t);
/* L and R compared by operator OP (text for messages) at POS: 0, or
 * PostgreSQL's "operator does not exist: text = integer" or the error of
 * a literal that does not read as the other side's type. */
int suql_an_check_pair(suql_an_ctx *a, int pos, const suql_expr *l, const suql_expr *r, const char *op);

#endif
