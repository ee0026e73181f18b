/*
 * ast.c — lifecycle, constructors and names of the SUQL syntax tree (ast.h).
 *
 * Invariant: every node and string reachable from a suql_query lives in its
 * arena, so suql_query_free is one arena release and a pass that rewrites
 * the tree (DNF, constant folding) can drop nodes without freeing them.
 *
 * Rejected: a union per expression kind (every pass would need a switch to
 * find a node's children; with shared fields l, r, args and sub a generic
 * walk is four lines); reference-counted nodes (no node outlives its query).
 */
#include "suql/ast.h"

#include <string.h>

suql_query *suql_query_new(const char *text)
{
    suql_arena *a = suql_arena_new();
    suql_query *q = suql_arena_alloc(a, sizeof *q);
    q->arena = a;
    q->text = suql_arena_strdup(a, text ? text : "");
    return q;
}

void suql_query_free(suql_query *q)
{
    if (q) suql_arena_free(q->arena);   /* q itself lives in the arena */
}

suql_expr *suql_expr_new(suql_query *q, suql_kind kind, int pos)
{
    suql_expr *e = suql_arena_alloc(q->arena, sizeof *e);
    e->kind = kind;
    e->pos = pos;
    return e;
}

suql_select *suql_select_new(suql_query *q, int pos)
{
    suql_select *s = suql_arena_alloc(q->arena, sizeof *s);
    s->pos = pos;
    return s;
}

suql_from *suql_from_new(suql_query *q, suql_from_kind kind, int pos)
{
    suql_from *f = suql_arena_alloc(q->arena, sizeof *f);
    f->kind = kind;
    f->pos = pos;
    return f;
}

const char *suql_strdup(suql_query *q, const char *s)
{
    return suql_arena_strdup(q->arena, s);
}

void *suql_array_new(suql_query *q, int n, size_t size)
{
    return suql_arena_alloc(q->arena, (size_t)(n > 0 ? n : 0) * size);
}

static const char *const op_text[SUQL_OP__COUNT] = {
    [SUQL_OP_NONE] = "?",
    [SUQL_OP_EQ] = "=", [SUQL_OP_NE] = "<>", [SUQL_OP_LT] = "<",
    [SUQL_OP_LE] = "<=", [SUQL_OP_GT] = ">", [SUQL_OP_GE] = ">=",
    [SUQL_OP_ADD] = "+", [SUQL_OP_SUB] = "-", [SUQL_OP_MUL] = "*",
    [SUQL_OP_DIV] = "/", [SUQL_OP_MOD] = "%", [SUQL_OP_CONCAT] = "||",
    [SUQL_OP_CONTAINS] = "@>", [SUQL_OP_CONTAINED] = "<@", [SUQL_OP_OVERLAP] = "&&",
    [SUQL_OP_LIKE] = "LIKE", [SUQL_OP_NOT_LIKE] = "NOT LIKE",
    [SUQL_OP_ILIKE] = "ILIKE", [SUQL_OP_NOT_ILIKE] = "NOT ILIKE",
    [SUQL_OP_POW] = "^", [SUQL_OP_DISTINCT] = "IS DISTINCT FROM",
    [SUQL_OP_NOT_DISTINCT] = "IS NOT DISTINCT FROM",
};

const char *suql_op_text(suql_op op)
{
    return (unsigned)op < SUQL_OP__COUNT ? op_text[op] : "?";
}

static const char *const type_name[SUQL_T__COUNT] = {
    [SUQL_T_INT] = "INTEGER", [SUQL_T_REAL] = "REAL", [SUQL_T_NUMERIC] = "NUMERIC",
    [SUQL_T_TEXT] = "TEXT", [SUQL_T_BOOL] = "BOOLEAN", [SUQL_T_DATE] = "DATE",
    [SUQL_T_TIME] = "TIME", [SUQL_T_TIMESTAMP] = "TIMESTAMP", [SUQL_T_INTERVAL] = "INTERVAL",
};

const char *suql_cast_type_name(suql_cast_type t)
{
    return (unsigned)t < SUQL_T__COUNT ? type_name[t] : "?";
}

static const char *const kind_name[SUQL_E__COUNT] = {
    [SUQL_E_COLUMN] = "COLUMN", [SUQL_E_STAR] = "STAR", [SUQL_E_STRING] = "STRING",
    [SUQL_E_INT] = "INT", [SUQL_E_FLOAT] = "FLOAT", [SUQL_E_BOOL] = "BOOL",
    [SUQL_E_NULL] = "NULL", [SUQL_E_FUNC] = "FUNC", [SUQL_E_ANSWER] = "ANSWER",
    [SUQL_E_SUMMARY] = "SUMMARY", [SUQL_E_NEG] = "NEG", [SUQL_E_NOT] = "NOT",
    [SUQL_E_ARITH] = "ARITH", [SUQL_E_CMP] = "CMP", [SUQL_E_ARRAYOP] = "ARRAYOP",
    [SUQL_E_AND] = "AND", [SUQL_E_OR] = "OR", [SUQL_E_IN] = "IN",
    [SUQL_E_IN_SELECT] = "IN_SELECT", [SUQL_E_BETWEEN] = "BETWEEN",
    [SUQL_E_LIKE] = "LIKE", [SUQL_E_ISNULL] = "ISNULL", [SUQL_E_ANY] = "ANY",
    [SUQL_E_ALL] = "ALL", [SUQL_E_ARRAY] = "ARRAY", [SUQL_E_CAST] = "CAST",
    [SUQL_E_CASE] = "CASE", [SUQL_E_SUBQUERY] = "SUBQUERY", [SUQL_E_EXISTS] = "EXISTS",
    [SUQL_E_COALESCE] = "COALESCE", [SUQL_E_ISBOOL] = "ISBOOL", [SUQL_E_SUBSCRIPT] = "SUBSCRIPT",
};

const char *suql_kind_name(suql_kind k)
{
    return (unsigned)k < SUQL_E__COUNT && kind_name[k] ? kind_name[k] : "?";
}

/* ---- walking ------------------------------------------------------------------ */

static int visit_from(const suql_from *f, const suql_visit *v)
{
    if (!f) return 0;
    int rc = v->from ? v->from(f, v->ud) : 0;
    if (!rc) rc = suql_visit_select(f->sub, v);
    if (!rc) rc = suql_visit_expr(f->func, v);
    if (!rc) rc = visit_from(f->left, v);
    if (!rc) rc = visit_from(f->right, v);
    if (!rc) rc = suql_visit_expr(f->on, v);
    return rc;
}

int suql_visit_expr(const suql_expr *x, const suql_visit *v)
{
    if (!x) return 0;
    int rc = v->expr(x, v->ud);
    if (!rc) rc = suql_visit_expr(x->l, v);
    if (!rc) rc = suql_visit_expr(x->r, v);
    for (int i = 0; !rc && i < x->nargs; i++) rc = suql_visit_expr(x->args[i], v);
    if (!rc) rc = suql_visit_select(x->sub, v);
    return rc;
}

int suql_visit_select(const suql_select *s, const suql_visit *v)
{
    if (!s) return 0;
    int rc = suql_visit_select(s->larg, v);
    if (!rc) rc = suql_visit_select(s->rarg, v);
    for (int i = 0; !rc && i < s->nctes; i++) rc = suql_visit_select(s->ctes[i].select, v);
    for (int i = 0; !rc && v->targets && i < s->ntargets; i++) rc = suql_visit_expr(s->targets[i].expr, v);
    for (int i = 0; !rc && i < s->nfrom; i++) rc = visit_from(s->from[i], v);
    if (!rc) rc = suql_visit_expr(s->where, v);
    if (!rc) rc = suql_visit_expr(s->having, v);
    return rc;
}
