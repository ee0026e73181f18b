/*
 * emit_window.c — window functions, aggregate FILTER and ORDER BY, and
 * SELECT DISTINCT ON, in SQLite (emit.h).
 *
 * OVER, the WINDOW clause and FILTER (WHERE ...) are SQLite's own syntax
 * (3.28 and 3.30 on), with the same meaning: the default frame (RANGE
 * from the partition's start to the current row's last peer) is both
 * systems' default, and the only one the parser accepts.  A window's
 * ORDER BY spells out PostgreSQL's NULL placement and sorts enums in
 * their declared order, as the statement's ORDER BY does.
 *
 * ORDER BY inside an aggregate's parentheses is SQLite's from 3.44 on
 * (checked at run time with sqlite3_libversion_number).  Before that it is
 * dropped where it cannot change the value (count, sum, avg, min, max,
 * bool_and, bool_or, every).  string_agg and array_agg with ORDER BY or
 * DISTINCT become pgagg.c's aggregates on every version:
 *
 *   string_agg(DISTINCT x, ', ' ORDER BY x DESC)
 *     -> suql_string_agg(x, ', ', 1, '-f+l+l', x, x, ', ')
 *   array_agg(x ORDER BY price) -> suql_array_agg(json_quote(x), 0, '+l', <price's ordinal>)
 *
 * the spec holding each key's direction and NULL placement (PostgreSQL's
 * defaults spelled out), DISTINCT's keys ending with the arguments (as
 * PostgreSQL sorts them), an enum key its ordinal, an array value JSON.
 *
 * DISTINCT ON (d...) keeps the first row of each group of equal d in the
 * ORDER BY order.  SQLite has no such clause; it becomes
 *
 *   SELECT "_1" AS name1, ... FROM (
 *     SELECT <select list AS "_1", ...>, <ORDER BY keys AS "_k1", ...>,
 *            row_number() OVER (PARTITION BY d... ORDER BY keys...) AS "_rn"
 *     FROM ... WHERE ... GROUP BY ... HAVING ... WINDOW ...) AS "_d"
 *   WHERE "_rn" = 1 ORDER BY "_k1", ... LIMIT ... OFFSET ...
 *
 * where a key that names an output (by name or position) is that output's
 * expression.  Ties in ORDER BY pick an arbitrary row, as in PostgreSQL.
 *
 * Rejected for ordered string_agg/array_agg: an ordered subquery feeding
 * group_concat (SQLite does not promise that order, and an aggregate
 * cannot reach a subquery in its FROM); SQLite 3.44's own ORDER BY inside
 * the call (its DISTINCT takes one argument, and one code path gives the
 * same answers on every version).
 */
#include "suql/emit_int.h"
#include "suql/analyze.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

/* ---- aggregate ORDER BY and FILTER ------------------------------------ */

static int native_agg_order(void)
{
    return sqlite3_libversion_number() >= 3044000;
}

/* Aggregates whose value does not depend on the order of their input. */
static int order_free(const char *name)
{
    static const char *const names[] = {
        "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* string_agg and array_agg, ordered by pgagg.c. */
static int sorted_agg(const char *name)
{
    return !strcmp(name, "string_agg") || !strcmp(name, "array_agg");
}

int suql_em_sorted_agg(suql_emitter *m, const suql_expr *x)
{
    int array = !strcmp(x->name, "array_agg"), nargs = array ? 1 : 2;
    if (x->over)   /* the analyzer refuses DISTINCT and ORDER BY with OVER first */
        return suql_em_fail(m, x->pos, "%s is not implemented for window functions",
                            x->distinct ? "DISTINCT" : "aggregate ORDER BY");
    if (x->nargs != nargs) return suql_em_fail(m, x->pos, "%s() takes %d argument%s", x->name, nargs,
                                               nargs == 1 ? "" : "s");
    int rc;
    if (array) {
        /* The element as JSON text, written as json_group_array writes it. */
        gn_buf_puts(m->out, "suql_array_agg(");
        if (x->args[0]->varray) {
            rc = suql_em_json(m, x->args[0]);
        } else {
            gn_buf_puts(m->out, "json_quote(");
            rc = suql_em_expr(m, x->args[0], L_NONE);
            gn_buf_putc(m->out, ')');
        }
    } else {
        gn_buf_puts(m->out, "suql_string_agg(");
        rc = suql_em_list(m, x->args, x->nargs);
    }
    gn_buf_printf(m->out, ", %d, '", x->distinct ? 1 : 0);
    for (int i = 0; i < x->naorder; i++) {
        const suql_order *o = &x->aorder[i];
        int first = o->nulls == SUQL_NULLS_FIRST || (o->nulls == SUQL_NULLS_DEFAULT && o->desc);
        gn_buf_putc(m->out, o->desc ? '-' : '+');
        gn_buf_putc(m->out, first ? 'f' : 'l');
    }
    for (int i = 0; x->distinct && i < nargs; i++) gn_buf_puts(m->out, "+l");
    gn_buf_putc(m->out, '\'');
    for (int i = 0; i < x->naorder && !rc; i++) {
        gn_buf_puts(m->out, ", ");
        rc = suql_em_sort_key(m, x->aorder[i].expr);
    }
    for (int i = 0; x->distinct && i < nargs && !rc; i++) {
        gn_buf_puts(m->out, ", ");
        rc = suql_em_sort_key(m, x->args[i]);
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

int suql_em_agg_order_check(suql_emitter *m, const suql_expr *x)
{
    if (!x->naorder || native_agg_order() || order_free(x->name) || sorted_agg(x->name)) return 0;
    return suql_em_fail(m, x->pos, "unsupported: ORDER BY inside %s() (SQLite orders aggregates "
                        "from 3.44 on; this is %s): sort the rows in a subquery in FROM instead",
                        x->name, sqlite3_libversion());
}

int suql_em_agg_order(suql_emitter *m, const suql_expr *x)
{
    if (!x->naorder || !native_agg_order()) return 0;
    gn_buf_puts(m->out, " ORDER BY ");
    return suql_em_order_keys(m, x->aorder, x->naorder);
}

/* ---- windows ---------------------------------------------------------- */

/* A window's specification after OVER or AS. */
static int spec(suql_emitter *m, const suql_window *w, int bare_name)
{
    if (bare_name && w->name && !w->refname && !w->npartition && !w->norder) {
        suql_emit_ident(w->name, m->out);
        return 0;
    }
    const char *sep = "";
    int rc = 0;
    gn_buf_putc(m->out, '(');
    if (w->refname) {
        suql_emit_ident(w->refname, m->out);
        sep = " ";
    }
    if (w->npartition) {
        gn_buf_printf(m->out, "%sPARTITION BY ", sep);
        rc = suql_em_list(m, w->partition, w->npartition);
        sep = " ";
    }
    if (!rc && w->norder) {
        gn_buf_printf(m->out, "%sORDER BY ", sep);
        rc = suql_em_order_keys(m, w->order, w->norder);
    }
    gn_buf_putc(m->out, ')');
    return rc;
}

int suql_em_call_tail(suql_emitter *m, const suql_expr *x)
{
    int rc = 0;
    if (x->filter) {
        gn_buf_puts(m->out, " FILTER (WHERE ");
        rc = suql_em_expr(m, x->filter, L_NONE);
        gn_buf_putc(m->out, ')');
    }
    if (!rc && x->over) {
        gn_buf_puts(m->out, " OVER ");
        rc = spec(m, x->over, 1);
    }
    m->lvl = L_ATOM;
    return rc;
}

int suql_em_windows(suql_emitter *m, const suql_select *s)
{
    gn_buf_puts(m->out, " WINDOW ");
    for (int i = 0; i < s->nwindows; i++) {
        if (i) gn_buf_puts(m->out, ", ");
        suql_emit_ident(s->windows[i].name, m->out);
        gn_buf_puts(m->out, " AS ");
        int rc = spec(m, &s->windows[i], 0);
        if (rc) return rc;
    }
    return 0;
}

/* ---- DISTINCT ON -------------------------------------------------------- */

typedef struct nth_ctx {
    int want, k;
    const suql_from *item, *join;
    int index;
} nth_ctx;

static void nth_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    nth_ctx *c = ud;
    if (c->k++ != c->want) return;
    c->item = item;
    c->index = index;
    c->join = join;
}

const suql_expr *suql_em_key_expr(const suql_select *s, const suql_expr *x, suql_expr *tmp)
{
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS && x->rtarget) return x->rtarget;
    if (x->kind != SUQL_E_INT) return x;
    int k = 0;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        if (t->kind != SUQL_E_STAR) {
            if (x->ival == ++k) return t;
            continue;
        }
        nth_ctx c = { (int)x->ival - k - 1, 0, NULL, NULL, 0 };
        suql_star_walk(s, t, nth_fn, &c);
        if (c.item) {
            memset(tmp, 0, sizeof *tmp);
            tmp->kind = SUQL_E_COLUMN;
            tmp->pos = x->pos;
            tmp->name = c.item->rcols[c.index].name;
            tmp->rkind = c.item->rtab ? SUQL_R_BASE : SUQL_R_DERIVED;
            tmp->rfrom = c.item;
            tmp->rjoin = c.join;
            tmp->rindex = c.index;
            tmp->rtab = c.item->rcols[c.index].tab;
            tmp->rcol = c.item->rcols[c.index].col;
            tmp->vtype = c.item->rcols[c.index].vtype;
            tmp->venum = c.item->rcols[c.index].venum;
            return tmp;
        }
        k += c.k;
    }
    return x;
}

/* The value a key sorts by: an enum column by its declared place. */
static int key_value(suql_emitter *m, const suql_select *s, const suql_expr *x)
{
    suql_expr tmp;
    const suql_expr *k = suql_em_key_expr(s, x, &tmp);
    const struct st_column *c = suql_em_enum_col(k);
    return c ? suql_em_enum_ordinal(m, k, c) : suql_em_expr(m, k, L_NONE);
}

static void direction(suql_emitter *m, const suql_order *o)
{
    int first = o->nulls == SUQL_NULLS_FIRST || (o->nulls == SUQL_NULLS_DEFAULT && o->desc);
    gn_buf_puts(m->out, o->desc ? " DESC" : " ASC");
    gn_buf_puts(m->out, first ? " NULLS FIRST" : " NULLS LAST");
}

static void hidden(gn_buf *b, const char *prefix, int i)
{
    char name[32];
    snprintf(name, sizeof name, "%s%d", prefix, i + 1);
    suql_emit_ident(name, b);
}

/* The inner SELECT: the outputs as "_1"..., the keys, the row numbers. */
static int numbered(suql_emitter *m, const suql_select *s, const char *const *inner, int n)
{
    int rc = suql_em_targets(m, s, inner, n);
    for (int i = 0; i < s->norder && !rc; i++) {
        gn_buf_puts(m->out, ", ");
        rc = key_value(m, s, s->order[i].expr);
        gn_buf_puts(m->out, " AS ");
        hidden(m->out, "_k", i);
    }
    if (rc) return rc;
    gn_buf_puts(m->out, ", row_number() OVER (PARTITION BY ");
    for (int i = 0; i < s->ndistinct_on && !rc; i++) {
        suql_expr tmp;
        if (i) gn_buf_puts(m->out, ", ");
        rc = suql_em_expr(m, suql_em_key_expr(s, s->distinct_on[i], &tmp), L_NONE);
    }
    for (int i = 0; i < s->norder && !rc; i++) {
        gn_buf_puts(m->out, i ? ", " : " ORDER BY ");
        rc = key_value(m, s, s->order[i].expr);
        direction(m, &s->order[i]);
    }
    gn_buf_puts(m->out, ") AS \"_rn\"");
    return rc ? rc : suql_em_from_having(m, s);
}

int suql_em_distinct_on(suql_emitter *m, const suql_select *s, const char *const *names, int nnames)
{
    int n = s->nrcols;
    if (!s->rcols || n < 1) return suql_em_fail(m, s->pos, "DISTINCT ON needs an analyzed query");
    char (*buf)[16] = xcalloc((size_t)n, sizeof *buf);
    const char **inner = xcalloc((size_t)n, sizeof *inner);
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "_%d", i + 1);
        inner[i] = buf[i];
    }
    suql_em_sel here = { s, xcalloc((size_t)s->ntargets, sizeof(int)) };
    suql_em_sel *saved = m->sel;
    int rc = s->nctes > 0 ? suql_em_ctes(m, s) : 0;
    if (!rc) {
        gn_buf_puts(m->out, "SELECT ");
        for (int i = 0; i < n; i++) {
            if (i) gn_buf_puts(m->out, ", ");
            suql_emit_ident(inner[i], m->out);
            gn_buf_puts(m->out, " AS ");
            suql_emit_ident(i < nnames ? names[i] : s->rcols[i].name, m->out);
        }
        gn_buf_puts(m->out, " FROM (SELECT ");
        m->sel = &here;
        rc = numbered(m, s, inner, n);
        m->sel = saved;
        gn_buf_puts(m->out, ") AS \"_d\" WHERE \"_rn\" = 1");
    }
    for (int i = 0; i < s->norder && !rc; i++) {
        gn_buf_puts(m->out, i ? ", " : " ORDER BY ");
        hidden(m->out, "_k", i);
        direction(m, &s->order[i]);
    }
    if (!rc) rc = suql_em_limit(m, s);
    m->sel = saved;
    free(here.tpos);
    free(inner);
    free(buf);
    m->lvl = L_ATOM;
    return rc;
}
