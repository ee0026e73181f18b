/*
 * analyze_group.c — the rules PostgreSQL checks once a SELECT's names are
 * resolved: in a grouped query every column read outside an aggregate
 * must be grouped, and with SELECT DISTINCT every ORDER BY expression
 * must be selected (analyze.h; suql_an_select calls suql_an_grouping).
 *
 * SQLite accepts both and answers with a value from some row of the
 * group; PostgreSQL refuses the query.  An answer from an arbitrary row
 * is a wrong fact told with confidence, so SUQL refuses too, with
 * PostgreSQL's message and the position of the column.
 *
 * An expression is grouped when it is a GROUP BY expression (the same
 * column, or the same printed expression), or is built only of grouped
 * expressions, aggregates, constants and subqueries.  As in PostgreSQL,
 * grouping by a table's key (_id) groups all of its columns.
 */
#include "suql/analyze_int.h"
#include "suql/emit.h"
#include "suql/parse.h"

#include <string.h>

typedef struct group_ctx {
    suql_an_ctx *a;
    const suql_select *s;
    char **printed;          /* the GROUP BY expressions, printed */
} group_ctx;

static int same_column(const suql_expr *x, const suql_expr *y)
{
    return x->kind == SUQL_E_COLUMN && y->kind == SUQL_E_COLUMN && x->rfrom && x->rfrom == y->rfrom &&
           x->rindex == y->rindex && x->rjoin == y->rjoin && x->rdepth == y->rdepth &&
           (x->rkind == SUQL_R_BASE ? x->rcol == y->rcol : 1);
}

/* X and Y are the same expression: the same columns (however they are
 * qualified), functions, operators and literals.  Subqueries never are. */
static int same_expr(const suql_expr *x, const suql_expr *y)
{
    if (x == y) return 1;
    if (!x || !y) return 0;
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS && x->rtarget) return same_expr(x->rtarget, y);
    if (y->kind == SUQL_E_COLUMN && y->rkind == SUQL_R_ALIAS && y->rtarget) return same_expr(x, y->rtarget);
    if (x->kind != y->kind) return 0;
    if (x->kind == SUQL_E_COLUMN)
        return x->rfrom ? same_column(x, y) : !y->rfrom && !strcmp(x->name, y->name) &&
                                                  !((x->qual != NULL) ^ (y->qual != NULL));
    if (x->op != y->op || x->negated != y->negated || x->distinct != y->distinct || x->star != y->star ||
        x->type != y->type || x->array != y->array || x->ival != y->ival || x->symmetric != y->symmetric ||
        x->slice != y->slice || x->nargs != y->nargs || x->sub || y->sub || x->over || y->over ||
        x->filter || y->filter || x->naorder || y->naorder)
        return 0;
    if ((x->name || y->name) && (!x->name || !y->name || strcmp(x->name, y->name))) return 0;
    if ((x->text || y->text) && (!x->text || !y->text || strcmp(x->text, y->text))) return 0;
    if (!same_expr(x->l, y->l) || !same_expr(x->r, y->r)) return 0;
    for (int i = 0; i < x->nargs; i++)
        if (!same_expr(x->args[i], y->args[i])) return 0;
    return 1;
}

static char *printed(suql_an_ctx *a, const suql_expr *x)
{
    gn_buf b;
    gn_buf_init(&b);
    suql_print_expr(x, &b);
    char *s = (char *)suql_strdup(a->q, b.data ? b.data : "");
    gn_buf_release(&b);
    return s;
}

/* The GROUP BY expression that output name or position X stands for. */
static const suql_expr *group_target(const group_ctx *g, const suql_expr *x)
{
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) return x->rtarget;
    if (x->kind == SUQL_E_INT && x->ival >= 1 && x->ival <= g->s->ntargets)
        return g->s->targets[x->ival - 1].expr;
    return x;
}

static int is_grouped(const group_ctx *g, const suql_expr *x)
{
    const char *px = NULL;
    for (int i = 0; i < g->s->ngroup; i++) {
        const suql_expr *k = group_target(g, g->s->group[i]);
        if (k == x || same_column(k, x)) return 1;
        /* Grouping by a table's row id groups the table's columns. */
        if (k->kind == SUQL_E_COLUMN && k->rkind == SUQL_R_BASE && k->name && !strcmp(k->name, "_id") &&
            x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_BASE && x->rfrom == k->rfrom &&
            x->rdepth == k->rdepth)
            return 1;
        if (x->kind != SUQL_E_COLUMN) {
            if (same_expr(k, x)) return 1;
            if (!px) px = printed(g->a, x);
            if (!strcmp(px, g->printed[i])) return 1;
        }
    }
    return 0;
}

static int is_aggregate_call(const suql_expr *x)
{
    return x->kind == SUQL_E_FUNC && x->name && !x->over && suql_func_is_aggregate(x->name);
}

/* Whether column X of the grouped query, read from a subquery (its
 * depth differs), is one the grouping keeps. */
static int grouped_outer(const group_ctx *g, const suql_expr *x)
{
    for (int i = 0; i < g->s->ngroup; i++) {
        const suql_expr *k = group_target(g, g->s->group[i]);
        if (k->kind != SUQL_E_COLUMN || k->rfrom != x->rfrom) continue;
        if ((k->rindex == x->rindex && k->rjoin == x->rjoin) ||
            (k->rkind == SUQL_R_BASE && k->name && !strcmp(k->name, "_id") && x->rkind == SUQL_R_BASE))
            return 1;
    }
    return 0;
}

static const suql_expr *outer_select(const group_ctx *g, const suql_select *s, int depth);

/* The first column of X that reads the grouped query DEPTH levels out
 * and is not grouped there. */
static const suql_expr *outer_expr(const group_ctx *g, const suql_expr *x, int depth)
{
    if (!x) return NULL;
    if (x->kind == SUQL_E_COLUMN)
        return x->rdepth == depth && x->rfrom && !grouped_outer(g, x) ? x : NULL;
    const suql_expr *c;
    if ((c = outer_expr(g, x->l, depth)) || (c = outer_expr(g, x->r, depth)) ||
        (c = outer_expr(g, x->filter, depth)))
        return c;
    for (int i = 0; i < x->nargs; i++)
        if ((c = outer_expr(g, x->args[i], depth))) return c;
    return x->sub ? outer_select(g, x->sub, depth + 1) : NULL;
}

static const suql_expr *outer_select(const group_ctx *g, const suql_select *s, int depth)
{
    const suql_expr *c;
    if (!s) return NULL;
    if (s->op != SUQL_SET_NONE)
        return (c = outer_select(g, s->larg, depth)) ? c : outer_select(g, s->rarg, depth);
    for (int i = 0; i < s->ntargets; i++)
        if ((c = outer_expr(g, s->targets[i].expr, depth))) return c;
    if ((c = outer_expr(g, s->where, depth)) || (c = outer_expr(g, s->having, depth))) return c;
    for (int i = 0; i < s->ngroup; i++)
        if ((c = outer_expr(g, s->group[i], depth))) return c;
    for (int i = 0; i < s->norder; i++)
        if ((c = outer_expr(g, s->order[i].expr, depth))) return c;
    return NULL;
}

/* The first column of X read outside an aggregate and not grouped. */
static const suql_expr *ungrouped(const group_ctx *g, const suql_expr *x)
{
    if (!x || is_aggregate_call(x) || is_grouped(g, x)) return NULL;
    if (x->kind == SUQL_E_COLUMN)
        return x->rdepth == 0 && (x->rkind == SUQL_R_BASE || x->rkind == SUQL_R_DERIVED ||
                                  x->rkind == SUQL_R_UNNEST) ? x : NULL;
    const suql_expr *c;
    if ((c = ungrouped(g, x->l)) || (c = ungrouped(g, x->r))) return c;
    for (int i = 0; i < x->nargs; i++)
        if ((c = ungrouped(g, x->args[i]))) return c;
    if (x->over) {
        for (int i = 0; i < x->over->npartition; i++)
            if ((c = ungrouped(g, x->over->partition[i]))) return c;
        for (int i = 0; i < x->over->norder; i++)
            if ((c = ungrouped(g, x->over->order[i].expr))) return c;
    }
    /* A subquery is checked on its own, but what it reads of this query
     * must be grouped here (PostgreSQL: "subquery uses ungrouped column"). */
    return x->sub ? outer_select(g, x->sub, 1) : NULL;
}

static int has_aggregate(const suql_expr *x)
{
    if (!x) return 0;
    if (is_aggregate_call(x)) return 1;
    if (has_aggregate(x->l) || has_aggregate(x->r)) return 1;
    for (int i = 0; i < x->nargs; i++)
        if (has_aggregate(x->args[i])) return 1;
    return 0;
}

static int fail_ungrouped(suql_an_ctx *a, const suql_expr *c)
{
    const char *q = c->qual, *n = c->name ? c->name : "?";
    if (c->rdepth > 0)
        return suql_error_at(a->e, GN_EPARSE, a->q, c->pos,
                             "subquery uses ungrouped column \"%s%s%s\" from outer query", q ? q : "",
                             q ? "." : "", n);
    return suql_error_at(a->e, GN_EPARSE, a->q, c->pos,
                         "column \"%s%s%s\" must appear in the GROUP BY clause or be used in an "
                         "aggregate function", q ? q : "", q ? "." : "", n);
}

typedef struct star_ctx {
    const group_ctx *g;
    int pos;
    suql_expr col;           /* the first ungrouped column; kind NONE: none */
} star_ctx;

static void star_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    star_ctx *c = ud;
    if (c->col.kind == SUQL_E_COLUMN) return;
    const suql_rcolumn *rc = &item->rcols[index];
    suql_expr x = { .kind = SUQL_E_COLUMN, .pos = c->pos, .name = rc->name, .qual = item->rname,
                    .rkind = item->kind == SUQL_FROM_FUNC ? SUQL_R_UNNEST
                             : item->rtab ? SUQL_R_BASE : SUQL_R_DERIVED,
                    .rtab = rc->tab, .rcol = rc->col, .rfrom = item, .rjoin = join, .rindex = index,
                    .vtype = rc->vtype, .varray = rc->varray, .venum = rc->venum };
    if (ungrouped(c->g, &x)) c->col = x;
}

static int grouping(suql_an_ctx *a, const suql_select *s)
{
    int grouped = s->ngroup > 0 || has_aggregate(s->having);
    for (int i = 0; i < s->ntargets && !grouped; i++) grouped = has_aggregate(s->targets[i].expr);
    for (int i = 0; i < s->norder && !grouped; i++) grouped = has_aggregate(s->order[i].expr);
    if (!grouped) return 0;
    group_ctx g = { a, s, suql_array_new(a->q, s->ngroup, sizeof(char *)) };
    for (int i = 0; i < s->ngroup; i++) g.printed[i] = printed(a, group_target(&g, s->group[i]));
    const suql_expr *c;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        if (t->kind == SUQL_E_STAR) {
            /* SELECT * ... GROUP BY location: each column the star stands for. */
            star_ctx sc = { &g, t->pos, { .kind = SUQL_E_NULL } };
            suql_star_walk(s, t, star_fn, &sc);
            if (sc.col.kind == SUQL_E_COLUMN) return fail_ungrouped(a, &sc.col);
        } else if ((c = ungrouped(&g, t))) {
            return fail_ungrouped(a, c);
        }
    }
    if ((c = ungrouped(&g, s->having))) return fail_ungrouped(a, c);
    for (int i = 0; i < s->norder; i++) {
        const suql_expr *x = s->order[i].expr;
        if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) continue;
        if ((c = ungrouped(&g, x))) return fail_ungrouped(a, c);
    }
    return 0;
}

/* SELECT DISTINCT ... ORDER BY x: x must be selected. */
static int distinct_order(suql_an_ctx *a, const suql_select *s)
{
    if (!s->distinct) return 0;
    for (int i = 0; i < s->norder; i++) {
        const suql_expr *x = s->order[i].expr;
        if ((x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) || x->kind == SUQL_E_INT) continue;
        int found = 0;
        const char *px = printed(a, x);
        for (int j = 0; j < s->ntargets && !found; j++) {
            const suql_expr *t = s->targets[j].expr;
            found = t->kind == SUQL_E_STAR || same_column(t, x) || same_expr(t, x) || !strcmp(printed(a, t), px);
        }
        if (!found)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
    }
    return 0;
}

int suql_an_grouping(suql_an_ctx *a, const suql_select *s)
{
    if (s->op != SUQL_SET_NONE) return 0;
    int rc = grouping(a, s);
    return rc ? rc : distinct_order(a, s);
}
