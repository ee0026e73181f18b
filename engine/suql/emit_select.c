/*
 * emit_select.c — the clauses of a SELECT in SQLite (emit.h): WITH, the
 * select list with the star expanded and PostgreSQL's output names, FROM
 * items and joins, WHERE, GROUP BY, HAVING, ORDER BY with PostgreSQL's
 * NULL placement, LIMIT and OFFSET.
 *
 * Output names: every select-list item gets an AS with the name
 * PostgreSQL would give it ("count", "answer", "?column?") unless SQLite
 * already names it so (a plain column), so result columns read the same
 * on both.  An output name or position used in ORDER BY or GROUP BY is
 * emitted as the position, which SQLite cannot mistake for an input
 * column (in GROUP BY SQLite tries input columns first, including ones
 * the schema hides).  A subquery in FROM with column aliases, s(a, b),
 * gets them as its items' AS names: SQLite has no column alias lists
 * there.  NATURAL joins are emitted as USING over the schema's common
 * columns.
 *
 * Set operations (emit_setop.c) and DISTINCT ON (emit_window.c) are
 * built from the same pieces: the select list, FROM to WINDOW, ORDER BY
 * keys, LIMIT.
 *
 * Rejected: emitting SELECT * as * (it would show columns the schema
 * hides, and json_each's eight columns for unnest); relying on SQLite's
 * NATURAL JOIN (it would join on hidden columns too).
 */
#include "suql/emit_int.h"
#include "suql/analyze.h"
#include "util/xmem.h"

#include <math.h>
#include <string.h>

/* ---- SELECT --------------------------------------------------------- */

typedef struct star_ctx {
    suql_emitter *m;
    const char *const *names;
    int nnames, *k;
} star_ctx;

/* One output column: AS when its name differs from what SQLite would
 * call it (or an override name is given). */
static void as_name(star_ctx *c, const char *name, const char *natural)
{
    const char *want = *c->k < c->nnames ? c->names[*c->k] : name;
    if (!natural || strcmp(want, natural)) {
        gn_buf_puts(c->m->out, " AS ");
        suql_emit_ident(want, c->m->out);
    }
    (*c->k)++;
}

static void star_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    star_ctx *c = ud;
    if (*c->k > 0) gn_buf_puts(c->m->out, ", ");
    size_t at = c->m->out->len;
    suql_em_item_column(c->m->out, item, index, join);
    /* SQLite names a column reference by the column; coalesce() and
     * json_each's value need the name given. */
    const char *name = item->rcols[index].name;
    int named = item->kind != SUQL_FROM_FUNC && strncmp(c->m->out->data + at, "coalesce(", 9);
    as_name(c, name, named ? name : NULL);
}

static int analyzed(const suql_from *f)
{
    if (f->kind == SUQL_FROM_JOIN) return analyzed(f->left) && analyzed(f->right);
    return f->rname && f->rcols;
}

static int star(star_ctx *c, const suql_select *s, const suql_expr *x)
{
    int ok = s->nfrom > 0;
    for (int i = 0; i < s->nfrom; i++) ok = ok && analyzed(s->from[i]);
    if (!ok) {
        /* Not analyzed: SQLite's own expansion. */
        if (*c->k > 0) gn_buf_puts(c->m->out, ", ");
        if (x->qual) {
            suql_emit_ident(x->qual, c->m->out);
            gn_buf_putc(c->m->out, '.');
        }
        gn_buf_putc(c->m->out, '*');
        (*c->k)++;
        return 0;
    }
    int before = *c->k;
    suql_star_walk(s, x, star_fn, c);
    if (*c->k == before) return suql_em_fail(c->m, x->pos, "* stands for no columns here");
    return 0;
}

int suql_em_targets(suql_emitter *m, const suql_select *s, const char *const *names, int nnames)
{
    int k = 0;
    star_ctx c = { m, names, nnames, &k };
    for (int i = 0; i < s->ntargets; i++) {
        const suql_target *t = &s->targets[i];
        m->sel->tpos[i] = k + 1;
        if (t->expr->kind == SUQL_E_STAR) {
            int rc = star(&c, s, t->expr);
            if (rc) return rc;
            continue;
        }
        if (k > 0) gn_buf_puts(m->out, ", ");
        /* A char(n) value is shown padded to n (it computes unpadded). */
        int rc = m->depth == 1 ? suql_em_padded(m, t->expr) : suql_em_expr(m, t->expr, L_NONE);
        if (rc) return rc;
        const suql_expr *x = t->expr;
        const char *natural = NULL;
        if (x->kind == SUQL_E_COLUMN && !x->rjoin && x->rfrom && x->rkind != SUQL_R_UNNEST)
            natural = x->rfrom->rcols[x->rindex].name;
        else if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_NONE)
            natural = x->name;
        as_name(&c, suql_target_name(t), natural);
    }
    return 0;
}

static const char *join_word(const suql_from *f)
{
    static const char *const words[] = {
        [SUQL_JOIN_INNER] = " JOIN ", [SUQL_JOIN_LEFT] = " LEFT JOIN ",
        [SUQL_JOIN_RIGHT] = " RIGHT JOIN ", [SUQL_JOIN_FULL] = " FULL JOIN ",
        [SUQL_JOIN_CROSS] = " CROSS JOIN ",
    };
    return f->join <= SUQL_JOIN_CROSS ? words[f->join] : " JOIN ";
}

static void alias(gn_buf *b, const char *name, const char *as)
{
    suql_emit_ident(name, b);
    if (as && strcmp(as, name)) {
        gn_buf_puts(b, " AS ");
        suql_emit_ident(as, b);
    }
}

static int from(suql_emitter *m, const suql_from *f)
{
    gn_buf *b = m->out;
    int rc = 0;
    switch (f->kind) {
    case SUQL_FROM_TABLE:
        alias(b, f->rcte ? f->rcte->name : f->rtab ? f->rtab->name : f->table,
              f->rname ? f->rname : f->alias);
        return 0;
    case SUQL_FROM_SUBQUERY:
        gn_buf_putc(b, '(');
        rc = suql_em_select(m, f->sub, f->cols, f->ncols);
        gn_buf_puts(b, ") AS ");
        suql_emit_ident(f->alias ? f->alias : f->rname, b);
        return rc;
    case SUQL_FROM_FUNC:
        if (!f->func || !f->func->name || strcmp(f->func->name, "unnest") || f->func->nargs != 1)
            return suql_em_fail(m, f->pos, "only unnest(array) is supported in FROM");
        gn_buf_puts(b, "json_each(");
        rc = suql_em_expr(m, f->func->args[0], L_NONE);
        gn_buf_puts(b, ") AS ");
        suql_emit_ident(f->rname ? f->rname : f->alias ? f->alias : "unnest", b);
        return rc;
    default: break;
    }
    if ((rc = from(m, f->left))) return rc;
    int natural = f->natural && !f->rusing;   /* not analyzed: SQLite's NATURAL */
    if (natural) gn_buf_puts(b, " NATURAL");
    gn_buf_puts(b, join_word(f));
    int paren = f->right->kind == SUQL_FROM_JOIN;
    if (paren) gn_buf_putc(b, '(');
    if ((rc = from(m, f->right))) return rc;
    if (paren) gn_buf_putc(b, ')');
    const char *const *using = f->rusing ? f->rusing : f->using;
    int nusing = f->rusing ? f->nrusing : f->nusing;
    if (f->on) {
        gn_buf_puts(b, " ON ");
        return suql_em_expr(m, f->on, L_NONE);
    }
    if (nusing > 0) {
        gn_buf_puts(b, " USING (");
        for (int i = 0; i < nusing; i++) {
            if (i) gn_buf_puts(b, ", ");
            suql_emit_ident(using[i], b);
        }
        gn_buf_putc(b, ')');
    } else if (f->join != SUQL_JOIN_CROSS && !natural) {
        gn_buf_puts(b, " ON 1");   /* NATURAL with no common column: every pair */
    }
    return 0;
}

static int order_by(suql_emitter *m, const suql_select *s)
{
    gn_buf_puts(m->out, " ORDER BY ");
    /* A position naming an enum output sorts by the output's place in the
     * enum (ORDER BY 1 of NULLIF(price, ...)): the key is that output.
     * (Only here: in an aggregate's or a window's ORDER BY a number is a
     * constant.) */
    suql_order *keys = xcalloc((size_t)s->norder + 1, sizeof *keys);
    suql_expr *tmp = xcalloc((size_t)s->norder + 1, sizeof *tmp);
    for (int i = 0; i < s->norder; i++) {
        keys[i] = s->order[i];
        if (s->order[i].expr->kind != SUQL_E_INT) continue;
        const suql_expr *t = suql_em_key_expr(s, s->order[i].expr, &tmp[i]);
        if (suql_em_enum_col(t)) keys[i].expr = (suql_expr *)t;
    }
    int rc = suql_em_order_keys(m, keys, s->norder);
    free(tmp);
    free(keys);
    return rc;
}

int suql_em_sort_key(suql_emitter *m, const suql_expr *x)
{
    /* An enum sorts in its declared order, as in PostgreSQL. */
    const struct st_column *c = suql_em_enum_col(x);
    /* An array sorts element by element, an interval by its length
     * (an output name stands for its expression inside the call). */
    const char *key = x->varray ? "suql_array_key(" : x->vtype == SUQL_VT_INTERVAL ? "suql_iv_key(" : NULL;
    if (key && x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS && x->rtarget) x = x->rtarget;
    if (c) return suql_em_enum_ordinal(m, x, c);
    if (x->varray) return suql_em_array_key(m, x);
    if (!key) return suql_em_expr(m, x, L_ADD);
    gn_buf_puts(m->out, key);
    int rc = suql_em_expr(m, x, L_NONE);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

int suql_em_order_keys(suql_emitter *m, const suql_order *v, int n)
{
    for (int i = 0; i < n; i++) {
        const suql_order *o = &v[i];
        if (i) gn_buf_puts(m->out, ", ");
        int rc = suql_em_sort_key(m, o->expr);
        if (rc) return rc;
        int first = o->nulls == SUQL_NULLS_FIRST || (o->nulls == SUQL_NULLS_DEFAULT && o->desc);
        gn_buf_puts(m->out, o->desc ? " DESC" : " ASC");
        gn_buf_puts(m->out, first ? " NULLS FIRST" : " NULLS LAST");
    }
    return 0;
}

/* LIMIT and OFFSET values: NULL means none (LIMIT) or 0 (OFFSET). */
static int limit_value(suql_emitter *m, const suql_expr *x, const char *none)
{
    if (x->kind == SUQL_E_NULL) {
        gn_buf_puts(m->out, none);
        return 0;
    }
    if (x->kind == SUQL_E_INT) return suql_em_expr(m, x, L_NONE);
    if (x->kind == SUQL_E_FLOAT) {
        gn_buf_printf(m->out, "%lld", (long long)llround(x->fval));
        return 0;
    }
    gn_buf_puts(m->out, "coalesce(CAST(round(");
    int rc = suql_em_expr(m, x, L_NONE);
    gn_buf_printf(m->out, ") AS INTEGER), %s)", none);
    return rc;
}

int suql_em_limit(suql_emitter *m, const suql_select *s)
{
    int rc = 0;
    if (s->limit || s->offset) gn_buf_puts(m->out, " LIMIT ");
    if (s->limit) rc = limit_value(m, s->limit, "-1");
    else if (s->offset) gn_buf_puts(m->out, "-1");
    if (!rc && s->offset) {
        gn_buf_puts(m->out, " OFFSET ");
        rc = limit_value(m, s->offset, "0");
    }
    return rc;
}

int suql_em_ctes(suql_emitter *m, const suql_select *s)
{
    gn_buf_puts(m->out, "WITH ");
    for (int i = 0; i < s->nctes; i++) {
        const suql_cte *c = &s->ctes[i];
        if (i) gn_buf_puts(m->out, ", ");
        suql_emit_ident(c->name, m->out);
        if (c->ncols > 0) {
            gn_buf_putc(m->out, '(');
            for (int j = 0; j < c->ncols; j++) {
                if (j) gn_buf_puts(m->out, ", ");
                suql_emit_ident(c->cols[j], m->out);
            }
            gn_buf_putc(m->out, ')');
        }
        gn_buf_puts(m->out, " AS (");
        int rc = suql_em_select(m, c->select, NULL, 0);
        if (rc) return rc;
        gn_buf_putc(m->out, ')');
    }
    gn_buf_putc(m->out, ' ');
    return 0;
}

int suql_em_from_having(suql_emitter *m, const suql_select *s)
{
    int rc = 0;
    for (int i = 0; i < s->nfrom && !rc; i++) {
        gn_buf_puts(m->out, i ? ", " : " FROM ");
        rc = from(m, s->from[i]);
    }
    if (!rc && s->where) {
        gn_buf_puts(m->out, " WHERE ");
        rc = suql_em_expr(m, s->where, L_NONE);
    }
    for (int i = 0; i < s->ngroup && !rc; i++) {
        gn_buf_puts(m->out, i ? ", " : " GROUP BY ");
        rc = suql_em_expr(m, s->group[i], L_NONE);
    }
    if (!rc && s->having) {
        gn_buf_puts(m->out, " HAVING ");
        rc = suql_em_expr(m, s->having, L_NONE);
    }
    if (!rc && s->nwindows > 0) rc = suql_em_windows(m, s);
    return rc;
}

static int clauses(suql_emitter *m, const suql_select *s)
{
    int rc = suql_em_from_having(m, s);
    if (!rc && s->norder > 0) rc = order_by(m, s);
    if (!rc) rc = suql_em_limit(m, s);
    return rc;
}

int suql_em_select(suql_emitter *m, const suql_select *s, const char *const *names, int nnames)
{
    if (s && s->op != SUQL_SET_NONE) return suql_em_setop(m, s, names, nnames);
    if (!s || s->ntargets < 1) return suql_em_fail(m, -1, "incomplete SELECT");
    if (s->ndistinct_on) return suql_em_distinct_on(m, s, names, nnames);
    suql_em_sel here = { s, xcalloc((size_t)s->ntargets, sizeof(int)) };
    suql_em_sel *saved = m->sel;
    int rc = 0;
    m->depth++;
    if (s->nctes > 0) rc = suql_em_ctes(m, s);
    m->sel = &here;
    if (!rc) {
        gn_buf_puts(m->out, s->distinct ? "SELECT DISTINCT " : "SELECT ");
        rc = suql_em_targets(m, s, names, nnames);
    }
    if (!rc) rc = clauses(m, s);
    m->depth--;
    m->sel = saved;
    free(here.tpos);
    m->lvl = L_ATOM;
    return rc;
}

static const suql_emit_hooks no_hooks;

int suql_emit_select(const suql_query *q, const suql_select *s, const suql_emit_hooks *h,
                     gn_buf *out, gn_err *e)
{
    suql_emitter m = { q, h ? h : &no_hooks, out, e, L_ATOM, NULL, 0, 0 };
    return suql_em_select(&m, s ? s : q ? q->select : NULL, NULL, 0);
}

int suql_emit_expr(const suql_query *q, const suql_expr *x, const suql_emit_hooks *h,
                   gn_buf *out, gn_err *e)
{
    /* (depth 1: a subquery in an expression is not the statement shown) */
    suql_emitter m = { q, h ? h : &no_hooks, out, e, L_ATOM, NULL, 0, 1 };
    return suql_em_expr(&m, x, L_NONE);
}
