/*
 * emit_int.h — what the emitter's files share (emit.c: expressions;
 * emit_select.c: statements; emit_array.c: arrays, ANY/ALL and mapped
 * literals; emit_func.c: the function allow-list).  Not a public header.
 *
 * Parentheses: every form records how loosely it binds in SQLite's
 * grammar (m->lvl, one of the L_* levels); suql_em_expr wraps a form in
 * parentheses when it binds more loosely than its position needs.  The
 * levels are SQLite's, not PostgreSQL's: `||` binds tightest there, and
 * `<` binds tighter than `=`, so operands of comparisons are wrapped
 * whenever they are themselves comparisons.
 */
#ifndef GENIE_SUQL_EMIT_INT_H
#define GENIE_SUQL_EMIT_INT_H

#include "suql/emit.h"

enum {
    L_NONE, L_OR, L_AND, L_NOT, L_EQ, L_REL, L_ADD, L_MUL, L_CAT, L_NEG, L_ATOM = 20
};

/* The SELECT being emitted: where each target landed in the output. */
typedef struct suql_em_sel {
    const suql_select *s;
    int *tpos;                       /* 1-based output position per target */
} suql_em_sel;

typedef struct suql_emitter {
    const suql_query *q;
    const suql_emit_hooks *h;        /* never NULL (an empty set instead) */
    gn_buf *out;
    gn_err *e;
    int lvl;                         /* binding level of the last form */
    suql_em_sel *sel;                /* NULL outside a SELECT */
    int tail_done;                   /* a call's special form emitted its
                                        FILTER and OVER itself */
    int depth;                       /* SELECTs being emitted: 1 in the
                                        outermost (whose values are shown) */
} suql_emitter;

/* An operand: an expression, or fixed SQL of ours (json_each's "value"). */
typedef struct suql_opnd {
    const suql_expr *x;
    const char *raw;
} suql_opnd;

/* A set of SQL values for IN lists, deduplicated by their SQL text
 * (hashed: a model's IN list of 80,000 strings must not cost n^2). */
typedef struct suql_valset {
    gn_buf sql;                      /* "'a', 'b'" */
    char **items;
    int n, cap;
    int *slot;                       /* open addressing: index + 1, 0 empty */
    int nslot;                       /* a power of two, > 2n */
} suql_valset;

/* What sort key X of S stands for: the output it names (by name or
 * position) as an expression, else X.  A position inside a star becomes
 * the column it is, in *tmp.  (emit_window.c) */
const suql_expr *suql_em_key_expr(const suql_select *s, const suql_expr *x, suql_expr *tmp);

/* emit.c */
/* X as it is shown: a char(n) value padded to n, anything else as is. */
int suql_em_padded(suql_emitter *m, const suql_expr *x);
/* X where a value of type T is wanted: a string literal of a number or a
 * boolean as that value (CASE ... THEN '7' ELSE units_min END is 7). */
int suql_em_typed(suql_emitter *m, const suql_expr *x, suql_vtype t);
/* X as text the way PostgreSQL's output function writes it (concat()
 * and concat_ws() use it): a boolean t or f, a char(n) padded, anything
 * else as suql_em_text. */
int suql_em_shown(suql_emitter *m, const suql_expr *x);
int suql_em_expr(suql_emitter *m, const suql_expr *x, int min);
int suql_em_list(suql_emitter *m, suql_expr *const *v, int n);
int suql_em_opnd(suql_emitter *m, suql_opnd o, int min);
/* L OP R for a comparison or LIKE operator, PostgreSQL semantics. */
int suql_em_binop(suql_emitter *m, suql_op op, suql_opnd l, suql_opnd r);
/* X as PostgreSQL's text of it (a double as float8 prints, a time with
 * its seconds, a boolean as true/false), for ||, concat() and ::text. */
int suql_em_text(suql_emitter *m, const suql_expr *x);
/* suql_array_key(X) (pgval.h), with the vocabulary of an enum array, so
 * that arrays order element by element as in PostgreSQL. */
int suql_em_array_key(suql_emitter *m, const suql_expr *x);
/* X as a divisor of DIVIDEND (may be NULL): a zero is PostgreSQL's
 * "division by zero" error, unless the dividend is NULL. */
int suql_em_divisor(suql_emitter *m, const suql_expr *x, const suql_expr *dividend);
/* The SQL of column INDEX of FROM item F (merged by JOIN when not NULL). */
void suql_em_item_column(gn_buf *b, const suql_from *f, int index, const suql_from *join);

/* The enum column X names (not an array of them), or NULL. */
const struct st_column *suql_em_enum_col(const suql_expr *x);
/* X, enum column C, as its place in C's declared order (0, 1, ...; NULL
 * for a value outside it). */
int suql_em_enum_ordinal(suql_emitter *m, const suql_expr *x, const struct st_column *c);

/* emit_select.c: S as a SELECT; NAMES[NNAMES] rename its first outputs. */
int suql_em_select(suql_emitter *m, const suql_select *s, const char *const *names, int nnames);
/* Pieces of a SELECT block S: "WITH ... " (with its trailing space); the
 * select list (m->sel must be S's), NAMES renaming its first outputs;
 * " FROM ..." to " WINDOW ..."; " LIMIT ... OFFSET ..." (S's); and the
 * keys of an ORDER BY, with PostgreSQL's NULL placement and enum order;
 * one key's value alone (an enum's ordinal, an array's or interval's
 * sort key, else the expression). */
int suql_em_ctes(suql_emitter *m, const suql_select *s);
int suql_em_targets(suql_emitter *m, const suql_select *s, const char *const *names, int nnames);
int suql_em_from_having(suql_emitter *m, const suql_select *s);
int suql_em_limit(suql_emitter *m, const suql_select *s);
int suql_em_order_keys(suql_emitter *m, const suql_order *v, int n);
int suql_em_sort_key(suql_emitter *m, const suql_expr *x);

/* emit_setop.c: set operation S (op not NONE), NAMES as above. */
int suql_em_setop(suql_emitter *m, const suql_select *s, const char *const *names, int nnames);

/* emit_window.c: a call's aggregate ORDER BY (checked: 0 or the error
 * for what this SQLite cannot do; emitted: inside the parentheses, or
 * nothing), its FILTER and OVER (after them); S's WINDOW clause; a SELECT
 * block with DISTINCT ON.  suql_em_sorted_agg writes string_agg or
 * array_agg X that has ORDER BY or DISTINCT as pgagg.c's aggregate. */
int suql_em_sorted_agg(suql_emitter *m, const suql_expr *x);
int suql_em_agg_order_check(suql_emitter *m, const suql_expr *x);
int suql_em_agg_order(suql_emitter *m, const suql_expr *x);
int suql_em_call_tail(suql_emitter *m, const suql_expr *x);
int suql_em_windows(suql_emitter *m, const suql_select *s);
int suql_em_distinct_on(suql_emitter *m, const suql_select *s, const char *const *names, int nnames);
int suql_em_fail(suql_emitter *m, int pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* emit_array.c */
int suql_em_quantified(suql_emitter *m, const suql_expr *x);     /* ANY ALL */
int suql_em_arrayop(suql_emitter *m, const suql_expr *x);        /* @> <@ && */
/* CMP or IN with a string literal and a column, through map_literal:
 * 1 when emitted, 0 when the caller emits the plain form, or an error
 * as a negative GN code. */
int suql_em_mapped_cmp(suql_emitter *m, const suql_expr *x);
/* json_array(...) for ARRAY[...], json(x) for another array value. */
int suql_em_json(suql_emitter *m, const suql_expr *x);
void suql_valset_init(suql_valset *v);
void suql_valset_release(suql_valset *v);
void suql_valset_add(suql_valset *v, const char *sql);

/* emit_func.c */
int suql_em_func(suql_emitter *m, const suql_expr *x);

#endif
