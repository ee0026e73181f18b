/*
 * emit_setop.c — UNION, INTERSECT and EXCEPT in SQLite (emit.h).
 *
 * SQLite's compound SELECT differs from PostgreSQL's set operations in
 * three ways, and each is bridged here:
 *   - its operators all bind alike, left to right, and its operands are
 *     bare SELECT blocks (no parentheses, ORDER BY, LIMIT or WITH): an
 *     operand that is not a plain block, or a set operation on the right,
 *     is wrapped as SELECT "_1" AS a, ... FROM (operand), its outputs
 *     renamed "_1", "_2", ... inside so that duplicate names cannot clash;
 *     a set operation on the left chains as it is (it groups to the left
 *     in both systems);
 *   - its ORDER BY takes only output names and positions, so ORDER BY,
 *     LIMIT or OFFSET of the whole wrap it too, and sort on the wrapped
 *     columns (an enum output carried from one column sorts in declared
 *     order, NULLs as PostgreSQL places them);
 *   - it has no INTERSECT ALL or EXCEPT ALL.  Each operand's rows are
 *     numbered within their group of equal rows (row_number() OVER
 *     (PARTITION BY every column)), the numbered rows are intersected or
 *     subtracted, and the numbers dropped: a row m times on the left and
 *     n times on the right is then kept min(m, n) times (INTERSECT ALL) or
 *     max(m - n, 0) times (EXCEPT ALL), PostgreSQL's multiset semantics.
 * The output names are the left operand's, as PostgreSQL names them.
 *
 * Rejected: refusing INTERSECT ALL and EXCEPT ALL (the numbering costs one
 * sort per operand); relying on SQLite's own precedence (it would group
 * A UNION B INTERSECT C differently from PostgreSQL).
 */
#include "suql/emit_int.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

typedef struct setop_ctx {
    suql_emitter *m;
    int n;                       /* output columns */
    const char **inner;          /* "_1", "_2", ... */
} setop_ctx;

static int body(setop_ctx *c, const suql_select *s, const char *const *names);

/* A SELECT block or set operation SQLite takes bare as an operand. */
static int plain(const suql_select *s)
{
    return !s->nctes && !s->norder && !s->limit && !s->offset && !s->ndistinct_on;
}

static int emulated(const suql_select *s)
{
    return s->all && s->op != SUQL_SET_UNION;
}

/* SELECT "_1" AS names[0], ... FROM ( */
static void rename_from(setop_ctx *c, const char *const *names)
{
    gn_buf *b = c->m->out;
    gn_buf_puts(b, "SELECT ");
    for (int i = 0; i < c->n; i++) {
        if (i) gn_buf_puts(b, ", ");
        suql_emit_ident(c->inner[i], b);
        if (strcmp(names[i], c->inner[i])) {
            gn_buf_puts(b, " AS ");
            suql_emit_ident(names[i], b);
        }
    }
    gn_buf_puts(b, " FROM (");
}

/* S (any SELECT) as a subquery in FROM, its outputs named NAMES. */
static int wrapped(setop_ctx *c, const suql_select *s, const char *const *names)
{
    rename_from(c, names);
    int rc = suql_em_select(c->m, s, c->inner, c->n);
    gn_buf_putc(c->m->out, ')');
    return rc;
}

static int operand(setop_ctx *c, const suql_select *s, int left, const char *const *names)
{
    if (s->op == SUQL_SET_NONE && plain(s)) return suql_em_select(c->m, s, names, c->n);
    if (s->op != SUQL_SET_NONE && left && plain(s) && !emulated(s)) return body(c, s, names);
    return wrapped(c, s, names);
}

/* One side of INTERSECT ALL / EXCEPT ALL: its rows numbered within their
 * group of equal rows. */
static int numbered(setop_ctx *c, const suql_select *s)
{
    gn_buf *b = c->m->out;
    gn_buf_puts(b, "SELECT ");
    for (int i = 0; i < c->n; i++) {
        suql_emit_ident(c->inner[i], b);
        gn_buf_puts(b, ", ");
    }
    gn_buf_puts(b, "row_number() OVER (PARTITION BY ");
    for (int i = 0; i < c->n; i++) {
        if (i) gn_buf_puts(b, ", ");
        suql_emit_ident(c->inner[i], b);
    }
    gn_buf_puts(b, ") AS \"_rn\" FROM (");
    int rc = suql_em_select(c->m, s, c->inner, c->n);
    gn_buf_putc(b, ')');
    return rc;
}

/* Set operation S with its outputs named NAMES, without its own WITH,
 * ORDER BY, LIMIT and OFFSET. */
static int body(setop_ctx *c, const suql_select *s, const char *const *names)
{
    static const char *const words[] = {
        [SUQL_SET_NONE] = " ? ", [SUQL_SET_UNION] = " UNION ",
        [SUQL_SET_INTERSECT] = " INTERSECT ", [SUQL_SET_EXCEPT] = " EXCEPT ",
    };
    if (emulated(s)) {
        rename_from(c, names);
        int rc = numbered(c, s->larg);
        gn_buf_puts(c->m->out, words[s->op]);
        if (!rc) rc = numbered(c, s->rarg);
        gn_buf_putc(c->m->out, ')');
        return rc;
    }
    int rc = operand(c, s->larg, 1, names);
    gn_buf_puts(c->m->out, words[s->op]);
    if (s->all) gn_buf_puts(c->m->out, "ALL ");
    if (!rc) rc = operand(c, s->rarg, 0, names);
    return rc;
}

/* ORDER BY of the whole, over the wrapped columns "_s"."_1", ... */
static int order_by(setop_ctx *c, const suql_select *s)
{
    suql_expr *cols = xcalloc((size_t)s->norder, sizeof *cols);
    suql_order *keys = xcalloc((size_t)s->norder, sizeof *keys);
    int rc = 0;
    for (int i = 0; i < s->norder && !rc; i++) {
        const suql_expr *x = s->order[i].expr;
        int k = x->kind == SUQL_E_INT ? (int)x->ival - 1 : x->rkind == SUQL_R_ALIAS ? x->rindex : -1;
        if (k < 0 || k >= c->n) {
            rc = suql_em_fail(c->m, x->pos, "ORDER BY of a set operation: a result column name "
                              "or position");
            break;
        }
        cols[i].kind = SUQL_E_COLUMN;
        cols[i].pos = x->pos;
        cols[i].qual = "_s";
        cols[i].name = c->inner[k];
        cols[i].rcol = s->rcols[k].col;   /* an enum sorts in declared order */
        cols[i].vtype = s->rcols[k].vtype;
        cols[i].venum = s->rcols[k].venum;
        keys[i] = s->order[i];
        keys[i].expr = &cols[i];
    }
    if (!rc) {
        gn_buf_puts(c->m->out, " ORDER BY ");
        rc = suql_em_order_keys(c->m, keys, s->norder);
    }
    free(keys);
    free(cols);
    return rc;
}

int suql_em_setop(suql_emitter *m, const suql_select *s, const char *const *names, int nnames)
{
    int n = s->nrcols;
    if (!s->rcols || n < 1 || !s->larg || !s->rarg)
        return suql_em_fail(m, s->pos, "a set operation needs an analyzed query");
    char (*buf)[16] = xcalloc((size_t)n, sizeof *buf);
    const char **inner = xcalloc((size_t)n, sizeof *inner);
    const char **outer = xcalloc((size_t)n, sizeof *outer);
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "_%d", i + 1);
        inner[i] = buf[i];
        outer[i] = i < nnames ? names[i] : s->rcols[i].name;
    }
    setop_ctx c = { m, n, inner };
    suql_em_sel *saved = m->sel;
    m->sel = NULL;
    int rc = s->nctes > 0 ? suql_em_ctes(m, s) : 0;
    if (!rc && !s->norder && !s->limit && !s->offset) {
        rc = body(&c, s, outer);
    } else if (!rc) {
        rename_from(&c, outer);
        rc = body(&c, s, inner);
        gn_buf_puts(m->out, ") AS \"_s\"");
        if (!rc && s->norder) rc = order_by(&c, s);
        if (!rc) rc = suql_em_limit(m, s);
    }
    m->sel = saved;
    free(outer);
    free(inner);
    free(buf);
    m->lvl = L_ATOM;
    return rc;
}
