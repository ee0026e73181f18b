/*
 * analyze_setop.c — UNION, INTERSECT and EXCEPT (analyze.h): both
 * operands resolved as separate SELECTs (each sees the enclosing queries
 * and the WITH queries, not the other), their column counts compared, and
 * the ORDER BY, LIMIT and OFFSET of the whole checked.
 *
 * PostgreSQL's rules, with its messages: the operands must have as many
 * columns ("each UNION query must have the same number of columns", at the
 * right operand's first column); the result's columns are named after the
 * left operand's; ORDER BY takes only result column names and positions
 * (an expression is "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
 * An output column keeps the base column it carries when both operands
 * carry the same one (an enum then sorts in its declared order), and its
 * type when both agree; an untyped literal ('cheap', NULL) takes the
 * other side's.
 *
 * Two known types that PostgreSQL cannot match (double precision UNION
 * text) are its error; an untyped literal goes with anything.
 *
 * Rejected: PostgreSQL's full type unification (a literal resolved to
 * the other side's type, 1 UNION 'a' refused): SQLite keeps each value's
 * own type, which is what the rows then show.
 */
#include "suql/analyze_int.h"
#include "suql/parse.h"

#include <string.h>

static const char *op_word(const suql_select *s)
{
    return s->op == SUQL_SET_UNION ? "UNION" : s->op == SUQL_SET_INTERSECT ? "INTERSECT" : "EXCEPT";
}

/* Where the leftmost SELECT block of S lists its first column. */
static int first_column_pos(const suql_select *s)
{
    while (s->op != SUQL_SET_NONE && s->larg) s = s->larg;
    return s->ntargets > 0 ? s->targets[0].expr->pos : s->pos;
}

/* ORDER BY of the whole: a result column's name or position. */
static int order_key(suql_an_ctx *a, const suql_select *s, suql_expr *x)
{
    if (x->kind == SUQL_E_INT) {
        if (x->ival >= 1 && x->ival <= s->nrcols) {
            x->vtype = SUQL_VT_INT;
            return 0;
        }
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "ORDER BY position %lld is not in the "
                             "select list (it has %d column%s)", x->ival, s->nrcols,
                             s->nrcols == 1 ? "" : "s");
    }
    if (x->kind != SUQL_E_COLUMN || x->qual)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "invalid UNION/INTERSECT/EXCEPT ORDER BY clause: only result column "
                             "names or positions can be used, not expressions or functions (put "
                             "the %s in a subquery in FROM to sort by more)", op_word(s));
    int hit = -1;
    for (int i = 0; i < s->nrcols; i++) {
        if (strcmp(s->rcols[i].name, x->name)) continue;
        if (hit >= 0)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "ORDER BY \"%s\" is ambiguous",
                                 x->name);
        hit = i;
    }
    if (hit < 0) {
        const char **cand = suql_array_new(a->q, s->nrcols, sizeof *cand);
        for (int i = 0; i < s->nrcols; i++) cand[i] = s->rcols[i].name;
        return suql_error_at(a->e, GN_ENOTFOUND, a->q, x->pos, "unknown column '%s' in the result "
                             "of %s%s", x->name, op_word(s),
                             suql_an_hint(a, x->name, cand, s->nrcols));
    }
    x->rkind = SUQL_R_ALIAS;
    x->rindex = hit;
    x->rtarget = NULL;
    x->rtab = s->rcols[hit].tab;
    x->rcol = s->rcols[hit].col;
    x->rfrom = NULL;
    x->rjoin = NULL;
    x->rdepth = 0;
    x->vtype = s->rcols[hit].vtype;
    x->varray = s->rcols[hit].varray;
    x->venum = s->rcols[hit].venum;
    return 0;
}

/* Whether output I of S is an untyped literal ('x' or NULL) in every
 * operand: it takes the other side's type, as PostgreSQL resolves it
 * (price UNION SELECT 'cheap' is still the enum). */
static int untyped(const suql_select *s, int i)
{
    if (s->op != SUQL_SET_NONE) return untyped(s->larg, i) && untyped(s->rarg, i);
    for (int k = 0; k < s->ntargets; k++)
        if (s->targets[k].expr->kind == SUQL_E_STAR) return 0;
    if (i >= s->ntargets) return 0;
    suql_kind k = s->targets[i].expr->kind;
    return k == SUQL_E_STRING || k == SUQL_E_NULL;
}

int suql_an_setop(suql_an_ctx *a, suql_select *s, const suql_an_scope *up, const suql_an_cte *ctes,
                  suql_rcolumn **out, int *nout)
{
    suql_rcolumn *l, *r;
    int nl, nr;
    int rc = suql_an_select(a, s->larg, up, ctes, &l, &nl);
    if (!rc) rc = suql_an_select(a, s->rarg, up, ctes, &r, &nr);
    if (rc) return rc;
    if (nl != nr)
        return suql_error_at(a->e, GN_EPARSE, a->q, first_column_pos(s->rarg),
                             "each %s query must have the same number of columns (%d and %d)",
                             op_word(s), nl, nr);
    suql_rcolumn *v = suql_array_new(a->q, nl, sizeof *v);
    for (int i = 0; i < nl; i++) {
        v[i] = l[i];
        if (untyped(s->rarg, i)) continue;
        if (untyped(s->larg, i)) {
            v[i] = r[i];
            v[i].name = l[i].name;
            continue;
        }
        if (!l[i].varray && !r[i].varray && !suql_an_types_match(l[i].vtype, r[i].vtype))
            return suql_error_at(a->e, GN_EPARSE, a->q, first_column_pos(s->rarg),
                                 "%s types %s and %s cannot be matched", op_word(s),
                                 suql_an_pg_type(l[i].vtype), suql_an_pg_type(r[i].vtype));
        if (r[i].tab != l[i].tab || r[i].col != l[i].col) v[i].tab = NULL, v[i].col = NULL;
        if (r[i].vtype != l[i].vtype) v[i].vtype = SUQL_VT_UNKNOWN;
        if (r[i].venum != l[i].venum) v[i].venum = NULL;
        if (r[i].varray != l[i].varray) v[i].varray = 0;
    }
    s->rcols = *out = v;
    s->nrcols = *nout = nl;
    for (int i = 0; i < s->norder; i++)
        if ((rc = order_key(a, s, s->order[i].expr))) return rc;
    suql_an_scope blind = { up, NULL, NULL, 0, ctes };
    if ((rc = suql_an_limit(a, &blind, s->limit, "LIMIT")) ||
        (rc = suql_an_limit(a, &blind, s->offset, "OFFSET")))
        return rc;
    return 0;
}
