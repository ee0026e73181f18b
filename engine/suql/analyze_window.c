/*
 * analyze_window.c — what decorates a function call (analyze.h): window
 * functions and their windows (OVER, the WINDOW clause), aggregate
 * FILTER (WHERE ...) and ORDER BY inside an aggregate's parentheses.
 *
 * PostgreSQL's rules, with its messages: a window function (row_number,
 * rank, ...) needs OVER; OVER takes a window function or an aggregate;
 * FILTER and ORDER BY take an aggregate, and neither DISTINCT nor ORDER BY
 * goes with OVER; with DISTINCT, each ORDER BY key must be one of the
 * arguments (the same column or printed expression); window functions do not nest, nor sit in an aggregate's
 * arguments, FILTER, a window definition, WHERE, GROUP BY, HAVING or JOIN
 * conditions.  A window's PARTITION BY and ORDER BY read input columns
 * (select-list names and positions are not theirs: SQL:1999 rules, as
 * PostgreSQL's); OVER w and OVER (w ORDER BY ...) name a window of the
 * SELECT's WINDOW clause, which may extend an earlier one but not
 * override its PARTITION BY or ORDER BY.
 *
 * Rejected: resolving named windows into copies (the emitter spells them
 * as SQLite does, with the same WINDOW clause).
 */
#include "suql/analyze_int.h"
#include "suql/emit.h"
#include "suql/parse.h"

#include <string.h>

/* ---- finding window functions -------------------------------------- */

static const suql_expr *find_window(const suql_expr *x)
{
    if (!x) return NULL;
    if (x->kind == SUQL_E_FUNC && x->over) return x;
    const suql_expr *f;
    if ((f = find_window(x->l)) || (f = find_window(x->r)) || (f = find_window(x->filter)))
        return f;
    for (int i = 0; i < x->nargs; i++)
        if ((f = find_window(x->args[i]))) return f;
    for (int i = 0; i < x->naorder; i++)
        if ((f = find_window(x->aorder[i].expr))) return f;
    return NULL;   /* subqueries are their own level */
}

int suql_an_no_window(suql_an_ctx *a, const suql_expr *x, const char *where)
{
    const suql_expr *f = find_window(x);
    if (!f) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, f->pos, "window functions are not allowed in %s",
                         where);
}

static int list_no_window(suql_an_ctx *a, suql_expr *const *v, int n, const char *where)
{
    for (int i = 0; i < n; i++) {
        int rc = suql_an_no_window(a, v[i], where);
        if (rc) return rc;
    }
    return 0;
}

int suql_an_window_freetext(const suql_window *w)
{
    if (!w) return 0;
    for (int i = 0; i < w->npartition; i++)
        if (suql_is_freetext(w->partition[i])) return 1;
    for (int i = 0; i < w->norder; i++)
        if (suql_is_freetext(w->order[i].expr)) return 1;
    return 0;
}

/* ---- windows -------------------------------------------------------- */

static int orders(suql_an_ctx *a, const suql_an_scope *sc, suql_order *v, int n, const char *where)
{
    for (int i = 0; i < n; i++) {
        int rc = suql_an_expr(a, sc, v[i].expr);
        if (!rc) rc = suql_an_no_window(a, v[i].expr, where);
        if (rc) return rc;
    }
    return 0;
}

/* The window named NAME among the first N of SEL's WINDOW clause. */
static const suql_window *named(const suql_select *sel, int n, const char *name)
{
    for (int i = 0; sel && i < n && i < sel->nwindows; i++)
        if (!strcmp(sel->windows[i].name, name)) return &sel->windows[i];
    return NULL;
}

/* W's PARTITION BY and ORDER BY, and the window it names: for OVER
 * (NREF < 0) any of the SELECT's WINDOW clause, for the NREF-th item of
 * that clause an earlier one. */
static int spec(suql_an_ctx *a, const suql_an_scope *sc, const suql_window *w, int nref)
{
    const char *ref = nref < 0 && w->name ? w->name : w->refname;
    if (ref) {
        const suql_select *sel = sc->sel;
        const suql_window *base = named(sel, nref >= 0 ? nref : sel ? sel->nwindows : 0, ref);
        if (!base)
            return suql_error_at(a->e, GN_EPARSE, a->q, w->pos, "window \"%s\" does not exist", ref);
        if (w->npartition)
            return suql_error_at(a->e, GN_EPARSE, a->q, w->pos,
                                 "cannot override PARTITION BY clause of window \"%s\"", ref);
        if (w->norder && base->norder)
            return suql_error_at(a->e, GN_EPARSE, a->q, w->pos,
                                 "cannot override ORDER BY clause of window \"%s\"", ref);
    }
    for (int i = 0; i < w->npartition; i++) {
        int rc = suql_an_expr(a, sc, w->partition[i]);
        if (!rc) rc = suql_an_no_window(a, w->partition[i], "window definitions");
        if (rc) return rc;
    }
    return orders(a, sc, w->order, w->norder, "window definitions");
}

int suql_an_windows(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s)
{
    for (int i = 0; i < s->nwindows; i++) {
        if (named(s, i, s->windows[i].name))
            return suql_error_at(a->e, GN_EPARSE, a->q, s->windows[i].pos,
                                 "window \"%s\" is already defined", s->windows[i].name);
        int rc = spec(a, sc, &s->windows[i], i);
        if (rc) return rc;
    }
    return 0;
}

/* ---- calls ---------------------------------------------------------- */

static int same_column(const suql_expr *x, const suql_expr *y)
{
    return x->kind == SUQL_E_COLUMN && y->kind == SUQL_E_COLUMN && x->rfrom && x->rfrom == y->rfrom &&
           x->rindex == y->rindex && x->rjoin == y->rjoin && x->rdepth == y->rdepth &&
           (x->rkind == SUQL_R_BASE ? x->rcol == y->rcol : 1);
}

static int same_printed(const suql_expr *x, const suql_expr *y)
{
    gn_buf a, b;
    gn_buf_init(&a);
    gn_buf_init(&b);
    suql_print_expr(x, &a);
    suql_print_expr(y, &b);
    int same = a.data && b.data && !strcmp(a.data, b.data);
    gn_buf_release(&a);
    gn_buf_release(&b);
    return same;
}

/* f(DISTINCT args ORDER BY keys): each key must be one of the arguments,
 * as PostgreSQL sorts the distinct argument lists by the keys. */
static int distinct_keys(suql_an_ctx *a, const suql_expr *x)
{
    for (int i = 0; x->distinct && i < x->naorder; i++) {
        const suql_expr *k = x->aorder[i].expr;
        int found = 0;
        for (int j = 0; j < x->nargs && !found; j++)
            found = same_column(x->args[j], k) || same_printed(x->args[j], k);
        if (!found)
            return suql_error_at(a->e, GN_EPARSE, a->q, k->pos,
                                 "in an aggregate with DISTINCT, ORDER BY expressions must appear in "
                                 "argument list");
    }
    return 0;
}

static int fail(suql_an_ctx *a, const suql_expr *x, const char *fmt)
{
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, fmt, x->name);
}

int suql_an_call_extras(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int agg = suql_func_is_aggregate(x->name), win = suql_func_is_window(x->name), rc;
    if (win && !x->over) return fail(a, x, "window function %s requires an OVER clause");
    if (x->over && !agg && !win)
        return fail(a, x, "OVER specified, but %s is not a window function nor an aggregate function");
    if (x->naorder && !agg) return fail(a, x, "ORDER BY specified, but %s is not an aggregate function");
    if (x->filter && !agg)
        return fail(a, x, win ? "FILTER is not implemented for non-aggregate window functions"
                              : "FILTER specified, but %s is not an aggregate function");
    if (x->over && x->distinct)
        return fail(a, x, "DISTINCT is not implemented for window functions");
    if (x->over && x->naorder)
        return fail(a, x, "aggregate ORDER BY is not implemented for window functions");
    const char *nest = x->over ? "window function calls cannot be nested"
                               : "aggregate function calls cannot contain window function calls";
    for (int i = 0; i < x->nargs && agg | win; i++) {
        const suql_expr *f = find_window(x->args[i]);
        if (f) return suql_error_at(a->e, GN_EPARSE, a->q, f->pos, "%s", nest);
    }
    if (x->filter) {
        if ((rc = suql_an_expr(a, sc, x->filter)) ||
            (rc = suql_an_no_aggregate(a, x->filter, "FILTER")) ||
            (rc = suql_an_no_window(a, x->filter, "FILTER")))
            return rc;
    }
    if ((rc = orders(a, sc, x->aorder, x->naorder, "aggregate ORDER BY")) || (rc = distinct_keys(a, x)))
        return rc;
    if (x->naorder && !x->over) {
        for (int i = 0; i < x->naorder; i++) {
            const suql_expr *k = x->aorder[i].expr;
            if ((rc = suql_an_no_aggregate(a, k, "aggregate ORDER BY"))) return rc;
        }
    }
    return x->over ? spec(a, sc, x->over, -1) : 0;
}

int suql_an_no_window_in(suql_an_ctx *a, const suql_select *s)
{
    int rc = suql_an_no_window(a, s->where, "WHERE");
    if (!rc) rc = list_no_window(a, s->group, s->ngroup, "GROUP BY");
    if (!rc) rc = suql_an_no_window(a, s->having, "HAVING");
    return rc;
}

int suql_rows_interact(const suql_select *s)
{
    if (!s) return 0;
    if (s->op != SUQL_SET_NONE || s->ndistinct_on) return 1;
    for (int i = 0; i < s->ntargets; i++)
        if (find_window(s->targets[i].expr)) return 1;
    for (int i = 0; i < s->norder; i++)
        if (find_window(s->order[i].expr)) return 1;
    return 0;
}
