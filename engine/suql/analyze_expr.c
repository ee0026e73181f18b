/*
 * analyze_expr.c — expressions: each resolved, typed and checked where a
 * check matters (analyze.h), plus the queries on an analyzed tree
 * (suql_is_freetext, suql_single_table, suql_target_name).
 *
 * Types are inferred only as far as the checks and the emitter need:
 * array or not, and the schema's scalar types (string literals are TEXT,
 * casts their target, answer() and summary() TEXT, functions from the
 * allow-list's table).  Errors are for what would fail later with a worse
 * message or silently mean something else: answer() over a number, a
 * question that is not a literal, an array compared with a scalar or a
 * scalar quantified like an array, aggregates where SQL forbids them.
 * What SQLite's dynamic typing handles is let through.
 *
 * Rejected: full PostgreSQL type checking (it would refuse queries that
 * run fine on SQLite, and an LLM-written query is better answered than
 * refused over a cast).
 */
#include "suql/analyze_int.h"
#include "suql/emit.h"
#include "suql/parse.h"

#include <string.h>

/* ---- expressions ---------------------------------------------------- */

static int subquery_cols(suql_an_ctx *a, const suql_an_scope *sc, suql_select *sub, int want, suql_expr *x)
{
    suql_rcolumn *cols;
    int n;
    int rc = suql_an_select(a, sub, sc, sc->ctes, &cols, &n);
    if (rc) return rc;
    if (want && n != 1)
        return suql_error_at(a->e, GN_EPARSE, a->q, sub->pos,
                             "subquery must return only one column (it returns %d)", n);
    if (x && n >= 1 && x->kind == SUQL_E_SUBQUERY) {
        x->vtype = cols[0].vtype;
        x->varray = cols[0].varray;
    }
    return 0;
}

static int exprs(suql_an_ctx *a, const suql_an_scope *sc, suql_expr **v, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = suql_an_expr(a, sc, v[i]);
        if (rc) return rc;
    }
    return 0;
}

/* answer(x, 'q') and summary(x) read text: a number or boolean is refused. */
static int freetext_call(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    const char *fn = x->kind == SUQL_E_ANSWER ? "answer" : "summary";
    int rc = exprs(a, sc, x->args, x->nargs);
    if (rc) return rc;
    const suql_expr *v = x->args[0];
    if (v->vtype == SUQL_VT_INT || v->vtype == SUQL_VT_REAL || v->vtype == SUQL_VT_BOOL)
        return suql_error_at(a->e, GN_EPARSE, a->q, v->pos, "%s() reads text; %s is %s", fn,
                             suql_an_quoted(a, v), suql_an_vtype_name(v->vtype, v->varray));
    if (x->kind == SUQL_E_ANSWER && x->args[1]->kind != SUQL_E_STRING)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->args[1]->pos,
                             "the question of answer() must be a string literal");
    x->vtype = SUQL_VT_TEXT;
    return 0;
}

static int has_aggregate(const suql_expr *x);

static int func_call(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    if (!strcmp(x->name, "unnest"))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "unnest() is only supported in FROM: write FROM t, unnest(%s) AS x",
                             x->nargs ? suql_an_label(a, x->args[0]) : "array");
    int rc = suql_func_check(a->q, x, a->e);
    if (!rc) rc = exprs(a, sc, x->args, x->nargs);
    if (rc) return rc;
    if (suql_func_is_aggregate(x->name))
        for (int i = 0; i < x->nargs; i++)
            if (has_aggregate(x->args[i]))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->args[i]->pos,
                                     "aggregate function calls cannot be nested");
    x->vtype = suql_func_type(x, &x->varray);
    return 0;
}

/* ARR (an array) compared with SC (a scalar): refused with the fix. */
static int array_vs_scalar(suql_an_ctx *a, const suql_expr *x, const suql_expr *arr, const suql_expr *sc)
{
    if (sc->kind == SUQL_E_NULL) return 0;
    const char *an = suql_an_label(a, arr);
    if (x->op == SUQL_OP_EQ || x->op == SUQL_OP_NE)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "%s is an array: write %s %s %s (%s)",
                             an, suql_an_label(a, sc), x->op == SUQL_OP_EQ ? "=" : "<>",
                             x->op == SUQL_OP_EQ ? "ANY" : "ALL", an);
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                         "%s is an array: compare its elements, e.g. %s %s ANY (%s)",
                         an, suql_an_label(a, sc), suql_op_text(x->op), an);
}

int suql_an_is_scalar(const suql_expr *x)
{
    return !x->varray && x->vtype != SUQL_VT_UNKNOWN && x->kind != SUQL_E_NULL;
}

static int compare(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc = suql_an_expr(a, sc, x->l);
    if (!rc) rc = suql_an_expr(a, sc, x->r);
    if (rc) return rc;
    x->vtype = SUQL_VT_BOOL;
    if (x->l->varray != x->r->varray)
        return x->l->varray ? array_vs_scalar(a, x, x->l, x->r) : array_vs_scalar(a, x, x->r, x->l);
    if (x->l->varray && x->op != SUQL_OP_EQ && x->op != SUQL_OP_NE)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "arrays can only be compared with = and <>, not %s",
                             suql_op_text(x->op));
    return 0;
}

static int quantified(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    const char *q = x->kind == SUQL_E_ANY ? "ANY" : "ALL";
    int rc = suql_an_expr(a, sc, x->l);
    if (rc) return rc;
    x->vtype = SUQL_VT_BOOL;
    if (x->sub) return subquery_cols(a, sc, x->sub, 1, NULL);
    if ((rc = suql_an_expr(a, sc, x->r))) return rc;
    if (suql_an_is_scalar(x->r))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->r->pos,
                             "%s (%s) needs an array; %s is %s", q, suql_an_label(a, x->r),
                             suql_an_quoted(a, x->r), suql_an_vtype_name(x->r->vtype, 0));
    if (x->l->varray)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->l->pos,
                             "%s %s (...) compares one value with each element; '%s' is an array",
                             suql_op_text(x->op), q, suql_an_label(a, x->l));
    return 0;
}

static int array_op(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc = suql_an_expr(a, sc, x->l);
    if (!rc) rc = suql_an_expr(a, sc, x->r);
    if (rc) return rc;
    x->vtype = SUQL_VT_BOOL;
    const suql_expr *bad = suql_an_is_scalar(x->l) ? x->l : suql_an_is_scalar(x->r) ? x->r : NULL;
    if (bad)
        return suql_error_at(a->e, GN_EPARSE, a->q, bad->pos,
                             "%s compares two arrays; %s is %s (write ARRAY[%s])",
                             suql_op_text(x->op), suql_an_quoted(a, bad), suql_an_vtype_name(bad->vtype, 0),
                             suql_an_label(a, bad));
    return 0;
}

static int scalar_operands(suql_an_ctx *a, const suql_expr *x, suql_expr *const *v, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (v[i] && v[i]->varray)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "%s is an array: %s does not apply to arrays (compare its "
                                 "elements with ANY (%s))", suql_an_label(a, v[i]), what, suql_an_label(a, v[i]));
    return 0;
}

static suql_vtype arith_type(const suql_expr *x)
{
    if (x->op == SUQL_OP_CONCAT) return SUQL_VT_TEXT;
    suql_vtype l = x->l->vtype, r = x->r->vtype;
    if ((l == SUQL_VT_REAL || l == SUQL_VT_INT) && (r == SUQL_VT_REAL || r == SUQL_VT_INT))
        return l == SUQL_VT_REAL || r == SUQL_VT_REAL ? SUQL_VT_REAL : SUQL_VT_INT;
    return SUQL_VT_UNKNOWN;
}

static const suql_vtype cast_types[SUQL_T__COUNT] = {
    [SUQL_T_INT] = SUQL_VT_INT, [SUQL_T_REAL] = SUQL_VT_REAL, [SUQL_T_NUMERIC] = SUQL_VT_REAL,
    [SUQL_T_TEXT] = SUQL_VT_TEXT, [SUQL_T_BOOL] = SUQL_VT_BOOL, [SUQL_T_DATE] = SUQL_VT_DATE,
    [SUQL_T_TIME] = SUQL_VT_TIME, [SUQL_T_TIMESTAMP] = SUQL_VT_TIMESTAMP,
};

static suql_vtype first_known(suql_expr **v, int n, int step, int *array)
{
    for (int i = 0; i < n; i += step)
        if (v[i] && (v[i]->vtype != SUQL_VT_UNKNOWN || v[i]->varray)) {
            *array = v[i]->varray;
            return v[i]->vtype;
        }
    return SUQL_VT_UNKNOWN;
}

static int expr_more(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x);

int suql_an_expr(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    if (!x) return 0;
    int rc;
    x->vtype = SUQL_VT_UNKNOWN;
    x->varray = 0;
    switch (x->kind) {
    case SUQL_E_COLUMN: return suql_an_column(a, sc, x, 0);
    case SUQL_E_STAR:
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "* is only allowed in the select list and in count(*)");
    case SUQL_E_STRING: x->vtype = SUQL_VT_TEXT; return 0;
    case SUQL_E_INT: x->vtype = SUQL_VT_INT; return 0;
    case SUQL_E_FLOAT: x->vtype = SUQL_VT_REAL; return 0;
    case SUQL_E_BOOL: x->vtype = SUQL_VT_BOOL; return 0;
    case SUQL_E_NULL: return 0;
    case SUQL_E_FUNC: return func_call(a, sc, x);
    case SUQL_E_ANSWER: case SUQL_E_SUMMARY: return freetext_call(a, sc, x);
    case SUQL_E_NEG:
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        x->vtype = x->l->vtype;
        return scalar_operands(a, x, &x->l, 1, "unary minus");
    case SUQL_E_NOT:
        x->vtype = SUQL_VT_BOOL;
        return suql_an_expr(a, sc, x->l);
    case SUQL_E_ARITH:
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = suql_an_expr(a, sc, x->r))) return rc;
        x->vtype = arith_type(x);
        return scalar_operands(a, x, (suql_expr *[]){ x->l, x->r }, 2, suql_op_text(x->op));
    case SUQL_E_CMP: return compare(a, sc, x);
    case SUQL_E_ARRAYOP: return array_op(a, sc, x);
    default: return expr_more(a, sc, x);
    }
}

static int expr_more(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc;
    switch (x->kind) {
    case SUQL_E_AND: case SUQL_E_OR:
        x->vtype = SUQL_VT_BOOL;
        return exprs(a, sc, x->args, x->nargs);
    case SUQL_E_IN: case SUQL_E_BETWEEN:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = exprs(a, sc, x->args, x->nargs))) return rc;
        if ((rc = scalar_operands(a, x, &x->l, 1, x->kind == SUQL_E_IN ? "IN" : "BETWEEN")))
            return rc;
        return scalar_operands(a, x, x->args, x->nargs, x->kind == SUQL_E_IN ? "IN" : "BETWEEN");
    case SUQL_E_IN_SELECT:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        if ((rc = scalar_operands(a, x, &x->l, 1, "IN"))) return rc;
        return subquery_cols(a, sc, x->sub, 1, NULL);
    case SUQL_E_LIKE:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = suql_an_expr(a, sc, x->r))) return rc;
        return scalar_operands(a, x, (suql_expr *[]){ x->l, x->r }, 2, suql_op_text(x->op));
    case SUQL_E_ISNULL:
        x->vtype = SUQL_VT_BOOL;
        return suql_an_expr(a, sc, x->l);
    case SUQL_E_ANY: case SUQL_E_ALL: return quantified(a, sc, x);
    case SUQL_E_ARRAY:
        if ((rc = exprs(a, sc, x->args, x->nargs))) return rc;
        x->varray = 1;
        for (int i = 0; i < x->nargs; i++)
            if (x->args[i]->vtype != SUQL_VT_UNKNOWN) {
                x->vtype = x->args[i]->vtype;
                break;
            }
        return 0;
    case SUQL_E_CAST:
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        x->vtype = x->type < SUQL_T__COUNT ? cast_types[x->type] : SUQL_VT_UNKNOWN;
        x->varray = x->array;   /* arr::text is its JSON text, as lenient as PostgreSQL's */
        return 0;
    case SUQL_E_CASE:
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = exprs(a, sc, x->args, x->nargs)) ||
            (rc = suql_an_expr(a, sc, x->r)))
            return rc;
        x->vtype = x->nargs > 1 ? first_known(x->args + 1, x->nargs - 1, 2, &x->varray)
                                : SUQL_VT_UNKNOWN;
        if (x->vtype == SUQL_VT_UNKNOWN && !x->varray && x->r) {
            x->vtype = x->r->vtype;
            x->varray = x->r->varray;
        }
        return 0;
    case SUQL_E_SUBQUERY: return subquery_cols(a, sc, x->sub, 1, x);
    case SUQL_E_EXISTS:
        x->vtype = SUQL_VT_BOOL;
        return subquery_cols(a, sc, x->sub, 0, NULL);
    case SUQL_E_COALESCE:
        if ((rc = exprs(a, sc, x->args, x->nargs))) return rc;
        x->vtype = first_known(x->args, x->nargs, 1, &x->varray);
        return 0;
    default:
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "unexpected expression (%s)",
                             suql_kind_name(x->kind));
    }
}

/* ---- aggregates ----------------------------------------------------- */

static const suql_expr *find_aggregate(const suql_expr *x)
{
    if (!x) return NULL;
    if (x->kind == SUQL_E_FUNC && x->name && suql_func_is_aggregate(x->name)) return x;
    const suql_expr *f;
    if ((f = find_aggregate(x->l)) || (f = find_aggregate(x->r))) return f;
    for (int i = 0; i < x->nargs; i++)
        if ((f = find_aggregate(x->args[i]))) return f;
    return NULL;   /* subqueries are their own aggregation level */
}

static int has_aggregate(const suql_expr *x)
{
    return find_aggregate(x) != NULL;
}

int suql_an_no_aggregate(suql_an_ctx *a, const suql_expr *x, const char *where)
{
    const suql_expr *f = find_aggregate(x);
    if (!f) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                         "aggregate functions are not allowed in %s (use HAVING, or a subquery)",
                         where);
}

/* ---- queries on the analyzed tree ----------------------------------- */

static int select_freetext(const suql_select *s);

static int from_freetext(const suql_from *f)
{
    if (!f) return 0;
    switch (f->kind) {
    case SUQL_FROM_SUBQUERY: return select_freetext(f->sub);
    case SUQL_FROM_FUNC: return suql_is_freetext(f->func);
    case SUQL_FROM_JOIN:
        return from_freetext(f->left) || from_freetext(f->right) || suql_is_freetext(f->on);
    default: return 0;
    }
}

static int list_freetext(suql_expr *const *v, int n)
{
    for (int i = 0; i < n; i++)
        if (suql_is_freetext(v[i])) return 1;
    return 0;
}

static int select_freetext(const suql_select *s)
{
    if (!s) return 0;
    for (int i = 0; i < s->nctes; i++)
        if (select_freetext(s->ctes[i].select)) return 1;
    for (int i = 0; i < s->ntargets; i++)
        if (suql_is_freetext(s->targets[i].expr)) return 1;
    for (int i = 0; i < s->nfrom; i++)
        if (from_freetext(s->from[i])) return 1;
    for (int i = 0; i < s->norder; i++)
        if (suql_is_freetext(s->order[i].expr)) return 1;
    return suql_is_freetext(s->where) || list_freetext(s->group, s->ngroup) ||
           suql_is_freetext(s->having) || suql_is_freetext(s->limit) ||
           suql_is_freetext(s->offset);
}

int suql_is_freetext(const suql_expr *x)
{
    if (!x) return 0;
    if (x->kind == SUQL_E_ANSWER || x->kind == SUQL_E_SUMMARY) return 1;
    return suql_is_freetext(x->l) || suql_is_freetext(x->r) || list_freetext(x->args, x->nargs) ||
           select_freetext(x->sub);
}

const st_table *suql_single_table(const suql_select *s, const char **alias)
{
    if (!s || s->nfrom != 1 || s->from[0]->kind != SUQL_FROM_TABLE || !s->from[0]->rtab)
        return NULL;
    if (alias) *alias = s->from[0]->rname;
    return s->from[0]->rtab;
}

/* ---- output names --------------------------------------------------- */

static const char *expr_name(const suql_expr *x, int *strong)
{
    static const char *const cast_names[SUQL_T__COUNT] = {
        "int4", "float8", "numeric", "text", "bool", "date", "time", "timestamp"
    };
    *strong = 1;
    switch (x->kind) {
    case SUQL_E_COLUMN: case SUQL_E_FUNC: return x->name ? x->name : "?column?";
    case SUQL_E_ANSWER: return "answer";
    case SUQL_E_SUMMARY: return "summary";
    case SUQL_E_CASE: return "case";
    case SUQL_E_COALESCE: return "coalesce";
    case SUQL_E_EXISTS: return "exists";
    case SUQL_E_ARRAY: return "array";
    case SUQL_E_STAR: return "*";
    case SUQL_E_BOOL: *strong = 0; return "bool";
    case SUQL_E_CAST: {
        const char *inner = expr_name(x->l, strong);
        if (*strong) return inner;
        *strong = 1;
        return x->type < SUQL_T__COUNT ? cast_names[x->type] : "?column?";
    }
    case SUQL_E_SUBQUERY:
        if (x->sub && x->sub->ntargets > 0) {
            const char *n = suql_target_name(&x->sub->targets[0]);
            if (strcmp(n, "*")) return n;
        }
        break;
    default: break;
    }
    *strong = 0;
    return "?column?";
}

const char *suql_target_name(const suql_target *t)
{
    if (t->alias) return t->alias;
    int strong;
    return expr_name(t->expr, &strong);
}

