/*
 * exactfirst.c — a name looked up by a pattern finds the name itself
 * first (engine_int.h, suql_exact_first).
 *
 * A model looking a name up writes `name ILIKE '%Thunderbolt%' LIMIT 1`:
 * SQL leaves the order of a query without ORDER BY open, and SQLite's
 * first row was "10,000,000 Volt Thunderbolt" while "Thunderbolt" itself
 * is a row.  Such a query gets an order: the rows whose value is the
 * pattern's text itself (case ignored) first.  The rows are the ones the
 * query selects either way; only which of them a LIMIT keeps changes, and
 * the query had not chosen.
 *
 * Taken: a SELECT without ORDER BY, grouping, DISTINCT or aggregates, with
 * a LIMIT, whose WHERE is (or ANDs) `column LIKE/ILIKE '%text%'` with no
 * other wildcard in the text.  Rejected: ranking the other rows too (by
 * length, say): which of several partial matches is meant is the model's
 * and the user's to say, not a guess of ours.
 */
#include "suql/engine_int.h"

#include <string.h>

/* The text of a '%text%' pattern with no other wildcard, or NULL. */
static const char *inner_text(suql_query *q, const char *pat)
{
    size_t n = strlen(pat);
    if (n < 3 || pat[0] != '%' || pat[n - 1] != '%') return NULL;
    for (size_t i = 1; i + 1 < n; i++)
        if (pat[i] == '%' || pat[i] == '_' || pat[i] == '\\') return NULL;
    char *t = suql_array_new(q, n - 1, 1);
    memcpy(t, pat + 1, n - 2);
    t[n - 2] = 0;
    return t;
}

/* The lookup in X: a `column (I)LIKE '%text%'` node, or NULL. */
static const suql_expr *lookup(const suql_expr *x)
{
    if (!x || x->kind != SUQL_E_LIKE || (x->op != SUQL_OP_LIKE && x->op != SUQL_OP_ILIKE)) return NULL;
    if (!x->l || x->l->kind != SUQL_E_COLUMN || !x->r || x->r->kind != SUQL_E_STRING) return NULL;
    return x;
}

void suql_exact_first(suql_query *q, suql_select *sel)
{
    if (!sel || sel->op != SUQL_SET_NONE || sel->norder || !sel->limit || sel->ngroup ||
        sel->distinct || sel->ndistinct_on || sel->having || suql_aggregates(sel) || !sel->where)
        return;
    suql_expr *const *cj = sel->where->kind == SUQL_E_AND ? sel->where->args : &sel->where;
    int n = sel->where->kind == SUQL_E_AND ? sel->where->nargs : 1;
    const suql_expr *lk = NULL;
    for (int i = 0; i < n && !lk; i++) lk = lookup(cj[i]);
    const char *text = lk ? inner_text(q, lk->r->text) : NULL;
    if (!text) return;
    suql_expr *lit = suql_expr_new(q, SUQL_E_STRING, lk->r->pos);
    lit->text = text;
    suql_expr *same = suql_expr_new(q, SUQL_E_LIKE, lk->pos);
    same->op = SUQL_OP_ILIKE;
    same->l = lk->l;
    same->r = lit;
    suql_order *o = suql_array_new(q, 1, sizeof *o);
    o[0] = (suql_order){ same, 1, SUQL_NULLS_DEFAULT };
    sel->order = o;
    sel->norder = 1;
}
