/*
 * shape.c — what a query's form says before it runs (engine_int.h):
 * whether it aggregates, how many rows it wants (LIMIT + OFFSET), the
 * budget it gets, and whether free text is in its ORDER BY or select list.
 */
#include "engine_int.h"

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

int suql_freetext_targets(const suql_select *sel)
{
    int n = 0;
    for (int i = 0; i < sel->ntargets; i++) n += suql_is_freetext(sel->targets[i].expr);
    return n;
}
