/*
 * pushdown.c — free-text filters of a join, run over their one table.
 *
 * "The best-rated NLP course" is written as a join: courses c JOIN ratings
 * r ... WHERE answer(c.description, 'is it about NLP?') = 'Yes' ORDER BY
 * r.average_rating DESC LIMIT 1.  Evaluated row by row, the filter runs in
 * the join's order (by rating) until the budget stops it: 40 of 300
 * courses checked, none about NLP among them.  But the filter reads one
 * table only, so it is a property of a courses row: the optimizer can
 * decide it over courses alone (candidates ranked by retrieval, checks
 * batched, memoized, budgeted), and the join then runs in SQLite with the
 * filter replaced by c._id IN (the rows that passed).  The answer is the
 * same whenever the optimizer could check every candidate; when the budget
 * stops it, the rows checked were the most relevant ones, not the first
 * in some other order.
 *
 * Pushed: the top-level AND conjuncts of WHERE that read only that table
 * (the structured ones narrow its candidates; they stay in the join too),
 * and the other structured conjuncts as a semi-join over the whole FROM
 * (alias._id IN (SELECT alias._id FROM ... WHERE they)), so that every
 * candidate that passes is in a row of the join: without ORDER BY,
 * grouping or DISTINCT, LIMIT + OFFSET passes are then enough.
 * Not pushed (the query runs row by row as before): free text in ORDER
 * BY, a free-text conjunct under OR with another table, or reading two
 * tables, a subquery in a conjunct, a column of an outer query, CTEs.
 * Rejected: a rewrite of the query text (the analyzed tree already knows
 * which table each column belongs to) and a new plan per join shape (the
 * optimizer's single-table plan is the one that is measured).
 */
#include "suql/engine_int.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

enum { READS_NONE = 0, READS_ONE = 1, READS_OTHER = 2 };

/* What X reads: nothing, only FROM item *F (set on the first column
 * met), or something that keeps it from being pushed. */
static int reads(const suql_expr *x, const suql_from **f)
{
    if (!x) return READS_NONE;
    if (x->sub) return READS_OTHER;
    int r = READS_NONE;
    if (x->kind == SUQL_E_COLUMN) {
        if (x->rkind != SUQL_R_BASE || x->rdepth || !x->rfrom || x->rjoin) return READS_OTHER;
        if (*f && *f != x->rfrom) return READS_OTHER;
        *f = x->rfrom;
        r = READS_ONE;
    }
    const suql_expr *kids[2] = { x->l, x->r };
    for (int i = 0; i < 2; i++) {
        int k = reads(kids[i], f);
        if (k == READS_OTHER) return k;
        if (k) r = k;
    }
    for (int i = 0; i < x->nargs; i++) {
        int k = reads(x->args[i], f);
        if (k == READS_OTHER) return k;
        if (k) r = k;
    }
    return r;
}

int suql_pushdown_plan(suql_query *q, suql_select *sel, suql_pushdown *pd)
{
    const char *single = NULL;
    memset(pd, 0, sizeof *pd);
    if (!sel->where || sel->nctes || suql_order_has_freetext(sel) || suql_single_table(sel, &single)) return 0;
    suql_expr *const *cj = sel->where->kind == SUQL_E_AND ? sel->where->args : &sel->where;
    int n = sel->where->kind == SUQL_E_AND ? sel->where->nargs : 1;
    const suql_from *table = NULL;
    /* The table every free-text conjunct reads. */
    for (int i = 0; i < n; i++) {
        if (!suql_is_freetext(cj[i])) continue;
        const suql_from *f = NULL;
        if (reads(cj[i], &f) != READS_ONE || (table && f != table)) return 0;
        table = f;
    }
    if (!table || table->kind != SUQL_FROM_TABLE || !table->rtab) return 0;
    suql_expr **push = suql_array_new(q, n, sizeof *push);
    int np = 0;
    for (int i = 0; i < n; i++) {
        const suql_from *f = table;
        if (reads(cj[i], &f) == READS_ONE) push[np++] = cj[i];
    }
    pd->t = table->rtab;
    pd->alias = table->rname ? table->rname : table->table;
    pd->from = (suql_from *)table;
    pd->target = (suql_target){ suql_id_column(q, pd->t, pd->alias), NULL };
    pd->inner.targets = &pd->target;
    pd->inner.ntargets = 1;
    pd->inner.from = &pd->from;
    pd->inner.nfrom = 1;
    /* The other tables' structured conditions narrow the candidates too,
     * as a semi-join: alias._id IN (SELECT alias._id FROM <the join> WHERE
     * <those conditions>).  Then every candidate that passes the free
     * text is in a row of the join, so without ORDER BY, grouping or
     * DISTINCT the join's LIMIT + OFFSET rows need that many passes. */
    int nother = 0, covered = 1;
    for (int i = 0; i < n; i++) {
        const suql_from *f = table;
        if (reads(cj[i], &f) == READS_ONE) continue;
        if (suql_is_freetext(cj[i])) covered = 0;
        else nother++;
    }
    if (nother) {
        suql_select *semi = suql_array_new(q, 1, sizeof *semi);
        *semi = *sel;
        semi->pos = sel->pos;
        semi->targets = &pd->target;
        semi->ntargets = 1;
        semi->order = NULL;
        semi->norder = 0;
        semi->limit = semi->offset = NULL;
        semi->distinct = 0;
        semi->distinct_on = NULL;
        semi->ndistinct_on = 0;
        semi->group = NULL;
        semi->ngroup = 0;
        semi->having = NULL;
        semi->windows = NULL;
        semi->nwindows = 0;
        suql_expr **other = suql_array_new(q, nother, sizeof *other);
        int k = 0;
        for (int i = 0; i < n; i++) {
            const suql_from *f = table;
            if (reads(cj[i], &f) != READS_ONE && !suql_is_freetext(cj[i])) other[k++] = cj[i];
        }
        if (k == 1) {
            semi->where = other[0];
        } else {
            semi->where = suql_expr_new(q, SUQL_E_AND, sel->where->pos);
            semi->where->args = other;
            semi->where->nargs = k;
        }
        suql_expr *in = suql_expr_new(q, SUQL_E_IN_SELECT, sel->where->pos);
        in->l = suql_id_column(q, pd->t, pd->alias);
        in->sub = semi;
        suql_expr **all = suql_array_new(q, np + 1, sizeof *all);
        memcpy(all, push, sizeof *push * (size_t)np);
        all[np++] = in;
        push = all;
    }
    if (covered && !sel->norder && !sel->ngroup && !sel->distinct && !sel->ndistinct_on &&
        !suql_aggregates(sel) && sel->limit && sel->limit->kind == SUQL_E_INT &&
        (!sel->offset || sel->offset->kind == SUQL_E_INT)) {
        long long want = sel->limit->ival + (sel->offset ? sel->offset->ival : 0);
        suql_expr *lim = suql_expr_new(q, SUQL_E_INT, sel->limit->pos);
        lim->ival = want;
        char *num = suql_array_new(q, 24, 1);
        snprintf(num, 24, "%lld", want);
        lim->text = num;
        pd->inner.limit = lim;            /* the passes the join's rows need */
    }
    if (np == 1) {
        pd->inner.where = push[0];
    } else {
        suql_expr *a = suql_expr_new(q, SUQL_E_AND, push[0]->pos);
        a->args = push;
        a->nargs = np;
        pd->inner.where = a;
    }
    gn_err e;
    gn_err_clear(&e);
    return suql_dnf_build(q, pd->inner.where, 0, &pd->dnf, &e) == 0;
}

/* The _id column of IR (released here) into *IDS (caller frees); their
 * number. */
static long take_ids(suql_result *ir, int64_t **ids)
{
    *ids = xmalloc(sizeof **ids * (size_t)(ir->nrows ? ir->nrows : 1));
    long n = 0;
    for (int i = 0; i < ir->nrows; i++) {
        const suql_cell *c = &ir->cells[(size_t)i * (size_t)ir->ncols];
        if (c->type == SUQL_INT) (*ids)[n++] = c->i;
    }
    suql_result_release(ir);
    return n;
}

/* SEL's WHERE with its free-text conjuncts replaced by IDS (IN). */
static suql_expr *outer_where(suql_query *q, const suql_select *sel, const suql_pushdown *pd,
                              const int64_t *ids, long nids)
{
    suql_expr *const *cj = sel->where->kind == SUQL_E_AND ? sel->where->args : &sel->where;
    int n = sel->where->kind == SUQL_E_AND ? sel->where->nargs : 1, k = 0;
    suql_expr **keep = suql_array_new(q, n + 1, sizeof *keep);
    for (int i = 0; i < n; i++)
        if (!suql_is_freetext(cj[i])) keep[k++] = cj[i];
    keep[k++] = suql_in_ids(q, pd->t, pd->alias, ids, nids);
    if (k == 1) return keep[0];
    suql_expr *a = suql_expr_new(q, SUQL_E_AND, sel->where->pos);
    a->args = keep;
    a->nargs = k;
    return a;
}

/* With answer() or summary() in the select list and a LIMIT, the rows
 * of the pushed table that the join returns, first, with no free text
 * computed (SQLite computes a sorted statement's select list for every
 * row before LIMIT, and the budget would go to rows never shown): OUTER's
 * WHERE is then narrowed to them.  The first LIMIT + OFFSET rows of the
 * join all read one of them, so the rows returned are the same. */
static int returned_only(suql_engine *en, suql_query *q, const suql_select *sel,
                         const suql_pushdown *pd, suql_select *outer, int64_t **ids, long *nids,
                         gn_err *e)
{
    long want = suql_rows_wanted(sel);
    if (!suql_freetext_targets(sel) || want < 0 || sel->distinct || *nids <= want) return 0;
    suql_select idsel = *outer;
    suql_target tg = { suql_id_column(q, pd->t, pd->alias), NULL };
    idsel.targets = &tg;
    idsel.ntargets = 1;
    idsel.order = suql_order_sans_alias(q, sel);
    idsel.offset = NULL;
    idsel.limit = suql_expr_new(q, SUQL_E_INT, 0);
    idsel.limit->ival = want;
    char *num = suql_array_new(q, 24, 1);
    snprintf(num, 24, "%ld", want);
    idsel.limit->text = num;
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    suql_result r;
    memset(&r, 0, sizeof r);
    int rc = suql_emit_select(q, &idsel, suql_hooks_calls(en, &h), &sql, e);
    if (!rc) rc = suql_run_sql(en, sql.data, 0, &r, e);
    gn_buf_release(&sql);
    if (rc) {
        suql_result_release(&r);
        return rc;
    }
    free(*ids);
    *nids = take_ids(&r, ids);
    outer->where = outer_where(q, sel, pd, *ids, *nids);
    return 0;
}

int suql_run_pushdown(suql_engine *en, suql_query *q, suql_select *sel, suql_pushdown *pd,
                      suql_result *res, gn_buf *plan, gn_err *e)
{
    if (plan)
        gn_buf_printf(plan, "pushdown: the free-text filters read %s (%s) only: its rows are "
                            "decided first, optimized:\n    SELECT %s._id FROM %s AS %s WHERE "
                            "(the conjuncts that read it)\n",
                      pd->alias, pd->t->name, pd->alias, pd->t->name, pd->alias);
    suql_result ir;
    memset(&ir, 0, sizeof ir);
    /* The join's answer() and summary() of the rows it returns are paid
     * from what the filters leave: keep their share, as a one-table query
     * does. */
    en->reserve_outer = suql_select_reserve(en, suql_rows_wanted(sel), suql_freetext_targets(sel));
    int rc = suql_run_optimized(en, q, &pd->inner, pd->t, pd->alias, &pd->dnf, &ir, plan, e);
    en->reserve_outer = 0;
    if (rc) {
        suql_result_release(&ir);
        return rc;
    }
    /* The inner rows were checked most relevant first: when the budget
     * stopped them, the join's first rows by its ORDER BY may not be the
     * first of all (the inner query has no order to walk). */
    if (en->st && en->st->budget_hit && sel->norder && suql_rows_wanted(sel) >= 0)
        en->st->inexact = 1;
    if (plan) {
        gn_buf_printf(plan, "join:   the query as written, its free-text filters replaced by "
                            "%s._id IN (the rows that passed), in SQLite\n", pd->alias);
        return 0;
    }
    int64_t *ids;
    long nids = take_ids(&ir, &ids);
    suql_select outer = *sel;
    outer.where = outer_where(q, sel, pd, ids, nids);
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    rc = returned_only(en, q, sel, pd, &outer, &ids, &nids, e);
    free(ids);
    if (!rc) rc = suql_emit_select(q, &outer, suql_hooks_calls(en, &h), &sql, e);
    if (!rc) rc = suql_run_sql(en, sql.data, suql_freetext_targets(sel) > 0, res, e);
    gn_buf_release(&sql);
    return rc;
}

/* ---- CTEs ---------------------------------------------------------------- */

int suql_run_cte_filters(suql_engine *en, suql_query *q, suql_select *sel, int *done, gn_buf *plan,
                         gn_err *e)
{
    *done = 0;
    for (int i = 0; i < sel->nctes; i++) {
        suql_select *body = sel->ctes[i].select;
        const char *alias = NULL;
        const st_table *t = body ? suql_single_table(body, &alias) : NULL;
        if (!t || body->nctes || !body->where || !suql_is_freetext(body->where) ||
            suql_order_has_freetext(body) || body->nfrom != 1)
            continue;
        if (!alias) alias = t->name;
        suql_pushdown pd;
        memset(&pd, 0, sizeof pd);
        pd.t = t;
        pd.alias = alias;
        pd.target = (suql_target){ suql_id_column(q, t, alias), NULL };
        pd.inner.targets = &pd.target;
        pd.inner.ntargets = 1;
        pd.inner.from = body->from;
        pd.inner.nfrom = 1;
        pd.inner.where = body->where;
        gn_err de;
        gn_err_clear(&de);
        if (suql_dnf_build(q, pd.inner.where, 0, &pd.dnf, &de)) continue;
        if (plan)
            gn_buf_printf(plan, "cte %s: its free-text filters over %s decided first, optimized:\n",
                          sel->ctes[i].name, t->name);
        suql_result ir;
        memset(&ir, 0, sizeof ir);
        int rc = suql_run_optimized(en, q, &pd.inner, t, alias, &pd.dnf, &ir, plan, e);
        if (rc) {
            suql_result_release(&ir);
            return rc;
        }
        if (plan) {
            gn_buf_printf(plan, "cte %s: then its WHERE is %s._id IN (the rows that passed)\n",
                          sel->ctes[i].name, alias);
            continue;
        }
        int64_t *ids;
        long nids = take_ids(&ir, &ids);
        body->where = suql_in_ids(q, t, alias, ids, nids);
        free(ids);
        (*done)++;
    }
    return 0;
}
