/*
 * dnf.c — disjunctive normal form (see dnf.h).
 *
 * Recursive: dnf(a AND b) is the cross product of dnf(a) and dnf(b),
 * dnf(a OR b) their concatenation, dnf(NOT x) is dnf of x with the
 * negation pushed one level down.  Conjuncts are built as arrays of atom
 * pointers; atoms are shared, never copied.
 */
#include "dnf.h"

#include <string.h>

typedef struct { suql_query *q; int max; int over; } ctx;

static suql_dnf single(ctx *c, suql_expr *atom)
{
    suql_dnf d;
    d.n = 1;
    d.c = suql_array_new(c->q, 1, sizeof *d.c);
    d.c[0].n = atom ? 1 : 0;
    d.c[0].atoms = suql_array_new(c->q, 1, sizeof(suql_expr *));
    d.c[0].atoms[0] = atom;
    return d;
}

static suql_dnf product(ctx *c, suql_dnf a, suql_dnf b)
{
    suql_dnf d = { NULL, 0 };
    if ((long)a.n * b.n > c->max) {
        c->over = 1;
        return d;
    }
    d.n = a.n * b.n;
    d.c = suql_array_new(c->q, d.n, sizeof *d.c);
    int k = 0;
    for (int i = 0; i < a.n; i++)
        for (int j = 0; j < b.n; j++, k++) {
            d.c[k].n = a.c[i].n + b.c[j].n;
            d.c[k].atoms = suql_array_new(c->q, d.c[k].n ? d.c[k].n : 1, sizeof(suql_expr *));
            memcpy(d.c[k].atoms, a.c[i].atoms, sizeof(suql_expr *) * (size_t)a.c[i].n);
            memcpy(d.c[k].atoms + a.c[i].n, b.c[j].atoms, sizeof(suql_expr *) * (size_t)b.c[j].n);
        }
    return d;
}

static suql_dnf sum(ctx *c, suql_dnf a, suql_dnf b)
{
    suql_dnf d = { NULL, 0 };
    if (a.n + b.n > c->max) {
        c->over = 1;
        return d;
    }
    d.n = a.n + b.n;
    d.c = suql_array_new(c->q, d.n, sizeof *d.c);
    memcpy(d.c, a.c, sizeof *d.c * (size_t)a.n);
    memcpy(d.c + a.n, b.c, sizeof *d.c * (size_t)b.n);
    return d;
}

static suql_dnf walk(ctx *c, suql_expr *x, int neg);

/* AND (and_like) or OR of the args of X, under negation NEG. */
static suql_dnf nary(ctx *c, suql_expr *x, int neg, int and_like)
{
    suql_dnf d = walk(c, x->args[0], neg);
    for (int i = 1; i < x->nargs && !c->over; i++) {
        suql_dnf r = walk(c, x->args[i], neg);
        if (c->over) break;
        d = and_like ? product(c, d, r) : sum(c, d, r);
    }
    return d;
}

static suql_dnf walk(ctx *c, suql_expr *x, int neg)
{
    if (c->over) return (suql_dnf){ NULL, 0 };
    switch (x->kind) {
    case SUQL_E_AND:
        return nary(c, x, neg, !neg);      /* NOT (a AND b) = NOT a OR NOT b */
    case SUQL_E_OR:
        return nary(c, x, neg, neg);       /* NOT (a OR b) = NOT a AND NOT b */
    case SUQL_E_NOT:
        return walk(c, x->l, !neg);
    default:
        if (!neg) return single(c, x);
        suql_expr *n = suql_expr_new(c->q, SUQL_E_NOT, x->pos);
        n->l = x;
        return single(c, n);
    }
}

int suql_dnf_build(suql_query *q, suql_expr *x, int max, suql_dnf *out, gn_err *e)
{
    ctx c = { q, max > 0 ? max : SUQL_DNF_MAX, 0 };
    if (!x) {
        *out = single(&c, NULL);
        return 0;
    }
    *out = walk(&c, x, 0);
    if (c.over) {
        out->c = NULL;
        out->n = 0;
        return gn_err_set(e, GN_ELIMIT, "the WHERE clause needs more than %d conjuncts in "
                          "disjunctive normal form", c.max);
    }
    return 0;
}

void suql_dnf_print(const suql_dnf *d, gn_buf *out)
{
    for (int i = 0; i < d->n; i++) {
        gn_buf_printf(out, "  [%d] ", i + 1);
        if (!d->c[i].n) gn_buf_puts(out, "TRUE");
        for (int j = 0; j < d->c[i].n; j++) {
            if (j) gn_buf_puts(out, " AND ");
            int paren = d->c[i].atoms[j]->kind == SUQL_E_OR;
            if (paren) gn_buf_putc(out, '(');
            suql_print_expr(d->c[i].atoms[j], out);
            if (paren) gn_buf_putc(out, ')');
        }
        gn_buf_putc(out, '\n');
    }
}
