/*
 * parse_expr.c — PostgreSQL expression nodes (libpg_query JSON) to SUQL
 * expressions (ast.h).
 *
 * What: one handler per node type, found in a table; each handler checks
 * the node's fields against the ones it understands (suql_check_fields),
 * so a field it does not know — WITHIN GROUP, a type modifier — refuses
 * the query instead of vanishing from it.  A call keeps its aggregate
 * ORDER BY, FILTER and OVER (windows are read by parse_stmt.c).  Operators, cast types,
 * SQL-syntax functions and the SUQL built-ins are tables too.
 *
 * Normalizations (each prints back to text that parses to the same tree):
 * AND and OR lists are flattened; NOT over `x IN (SELECT ...)` becomes
 * `x NOT IN (SELECT ...)` (PostgreSQL's own reading of NOT IN); `!=` is
 * `<>`; the operators ~~ ~~* !~~ !~~* are LIKE, ILIKE and their NOT forms;
 * NULLIF, GREATEST and LEAST become calls of those names; integer literals
 * that do not fit PostgreSQL's int4 (it keeps them as numeric text) are
 * SUQL_E_INT when they fit 64 bits.  Float literals are read with strtod,
 * LC_NUMERIC being C (util/locale.h).
 *
 * Rejected: accepting unknown operators as opaque names (the emitter could
 * not translate them and the error would come later, without a position).
 */
#include "suql/parse_int.h"

#include "util/xmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*expr_fn)(suql_pstate *p, const cJSON *b, int pos, suql_expr **out);

static suql_expr *new_expr(suql_pstate *p, suql_kind kind, int pos)
{
    return suql_expr_new(p->q, kind, pos);
}

/* The expression in field KEY, which must be present. */
static int child(suql_pstate *p, const cJSON *b, const char *key, int pos, suql_expr **out)
{
    const cJSON *n = suql_field(b, key);
    if (!n) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (no %s)", key);
    return suql_parse_expr(p, n, out);
}

/* The items of a {"List": {"items": [...]}} node. */
static const cJSON *list_items(const cJSON *node)
{
    const cJSON *b;
    const char *t = suql_node(node, &b);
    return t && !strcmp(t, "List") ? suql_field(b, "items") : NULL;
}

int suql_parse_exprs(suql_pstate *p, const cJSON *list, suql_expr ***out, int *n)
{
    int cnt = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    suql_expr **v = suql_array_new(p->q, cnt, sizeof *v);
    int i = 0;
    for (const cJSON *it = cnt ? list->child : NULL; it; it = it->next, i++) {
        int rc = suql_parse_expr(p, it, &v[i]);
        if (rc) return rc;
    }
    *out = v;
    *n = cnt;
    return 0;
}

/* ---- literals and names --------------------------------------------- */

/* An integer constant whose JSON lost its value (zero or negative, see
 * parse.c): the sign count and the digits at its location. */
static long long int_at(suql_pstate *p, int pos)
{
    int neg = 0;
    size_t i = (size_t)pos;
    for (;;) {
        i = (size_t)suql_skip_blank(p->text, p->len, (int)i);
        if (i < p->len && p->text[i] == '-') neg = !neg;
        else if (i >= p->len || p->text[i] != '(') break;
        i++;
    }
    long long v = 0;
    for (; i < p->len && p->text[i] >= '0' && p->text[i] <= '9'; i++)
        if (v < 1000000000000LL) v = v * 10 + (p->text[i] - '0');
    return neg ? -v : v;
}

static void set_int(suql_pstate *p, suql_expr *e, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    e->kind = SUQL_E_INT;
    e->ival = v;
    e->text = suql_strdup(p->q, buf);
}

/* A numeric literal kept as text by PostgreSQL. */
static void set_number(suql_pstate *p, suql_expr *e, const char *text)
{
    const char *d = text + (*text == '-');
    if (*d && strspn(d, "0123456789") == strlen(d)) {
        errno = 0;
        long long v = strtoll(text, NULL, 10);
        if (errno == 0) {
            set_int(p, e, v);
            return;
        }
    }
    e->kind = SUQL_E_FLOAT;
    e->text = suql_strdup(p->q, text);
    e->fval = strtod(text, NULL);
}

static int a_const(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = {
        "ival", "fval", "boolval", "sval", "isnull", "location", NULL
    };
    static const suql_refusal no[] = {
        { "bsval", "bit string literals", GN_EPARSE }, { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, b, "A_Const", pos, ok, no);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_NULL, pos);
    const cJSON *v;
    if (suql_bool_field(b, "isnull")) {
        e->kind = SUQL_E_NULL;
    } else if ((v = suql_field(b, "ival"))) {
        const cJSON *n = suql_field(v, "ival");
        set_int(p, e, cJSON_IsNumber(n) ? (long long)n->valuedouble : int_at(p, pos));
    } else if ((v = suql_field(b, "fval"))) {
        const char *t = suql_str_field(v, "fval");
        set_number(p, e, t ? t : "0");
    } else if ((v = suql_field(b, "boolval"))) {
        e->kind = SUQL_E_BOOL;
        e->ival = suql_bool_field(v, "boolval");
    } else if ((v = suql_field(b, "sval"))) {
        const char *t = suql_str_field(v, "sval");
        e->kind = SUQL_E_STRING;
        e->text = suql_strdup(p->q, t ? t : "");
    } else {
        return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (empty constant)");
    }
    return 0;
}

static int column_ref(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "fields", "location", NULL };
    int rc = suql_check_fields(p, b, "ColumnRef", pos, ok, NULL);
    if (rc) return rc;
    const cJSON *f = suql_field(b, "fields");
    int n = cJSON_IsArray(f) ? cJSON_GetArraySize(f) : 0;
    if (n < 1 || n > 2)
        return suql_unsupported(p, pos, "names with more than two parts (schema.table.column)");
    const cJSON *last = cJSON_GetArrayItem(f, n - 1), *tb;
    const char *lt = suql_node(last, &tb);
    suql_expr *e = *out = new_expr(p, SUQL_E_COLUMN, pos);
    if (lt && !strcmp(lt, "A_Star")) {
        e->kind = SUQL_E_STAR;
    } else if (!(e->name = suql_strdup(p->q, suql_string_node(last)))) {
        return suql_unsupported(p, pos, "this kind of column reference");
    }
    if (n == 2 && !(e->qual = suql_strdup(p->q, suql_string_node(f->child))))
        return suql_unsupported(p, pos, "this kind of column reference");
    return 0;
}

/* ---- function calls ------------------------------------------------- */

/* The SUQL built-ins, recognized by name (PostgreSQL folds it to lower
 * case unless quoted). */
static const struct {
    const char *name;
    suql_kind kind;
    int nargs;
    const char *usage;
} builtins[] = {
    { "answer", SUQL_E_ANSWER, 2, "answer(text or text array, 'question')" },
    { "summary", SUQL_E_SUMMARY, 1, "summary(text)" },
};

/* Functions that PostgreSQL's grammar names in pg_catalog: its SQL-syntax
 * forms, which SUQL does not support. */
static const struct { const char *name, *syntax; } sql_syntax[] = {
    { "extract", "EXTRACT(field FROM value)" },
    { "btrim", "TRIM(...)" }, { "ltrim", "TRIM(LEADING ...)" }, { "rtrim", "TRIM(TRAILING ...)" },
    { "position", "POSITION(... IN ...)" },
    { "substring", "SUBSTRING(... FROM ...)" },
    { "overlay", "OVERLAY(... PLACING ...)" },
    { "timezone", "AT TIME ZONE" },
    { "normalize", "NORMALIZE(...)" },
    { "is_normalized", "IS NORMALIZED" },
    { "pg_collation_for", "COLLATION FOR" },
    { "like_escape", "LIKE ... ESCAPE" },
    { "similar_to_escape", "SIMILAR TO" },
};

/* SQL-syntax forms PostgreSQL's grammar turns into pg_catalog calls that
 * SUQL reads: the name they get here.  extract and position print back
 * in their SQL syntax (print.c); like_escape is folded into its LIKE. */
static const struct { const char *pg, *name; } sql_forms[] = {
    { "extract", "extract" }, { "date_part", "date_part" }, { "btrim", "btrim" },
    { "ltrim", "ltrim" }, { "rtrim", "rtrim" }, { "position", "position" },
    { "substring", "substring" }, { "like_escape", "like_escape" },
};

static int func_name(suql_pstate *p, const cJSON *b, int pos, const char **name)
{
    const cJSON *f = suql_field(b, "funcname");
    int n = cJSON_IsArray(f) ? cJSON_GetArraySize(f) : 0;
    const char *last = n ? suql_string_node(cJSON_GetArrayItem(f, n - 1)) : NULL;
    const char *first = n ? suql_string_node(f->child) : NULL;
    if (!last || !first)
        return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (function name)");
    if (n == 1) {
        *name = suql_strdup(p->q, last);
        return 0;
    }
    if (!strcmp(first, "pg_catalog"))
        for (size_t i = 0; i < sizeof sql_forms / sizeof *sql_forms; i++)
            if (!strcmp(last, sql_forms[i].pg)) {
                *name = sql_forms[i].name;
                return 0;
            }
    if (!strcmp(first, "pg_catalog"))
        for (size_t i = 0; i < sizeof sql_syntax / sizeof *sql_syntax; i++)
            if (!strcmp(last, sql_syntax[i].name))
                return suql_unsupported(p, pos, sql_syntax[i].syntax);
    return suql_fail(p, GN_EPARSE, pos, "unsupported: qualified function name %s.%s", first, last);
}

static int func_call(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = {
        "funcname", "args", "agg_star", "agg_distinct", "funcformat", "location",
        "agg_order", "agg_filter", "over", NULL
    };
    static const suql_refusal no[] = {
        { "agg_within_group", "WITHIN GROUP", GN_EPARSE },
        { "func_variadic", "VARIADIC", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, b, "FuncCall", pos, ok, no);
    const char *name = NULL;
    if (!rc) rc = func_name(p, b, pos, &name);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_FUNC, pos);
    e->name = name;
    e->star = suql_bool_field(b, "agg_star");
    e->distinct = suql_bool_field(b, "agg_distinct");
    rc = suql_parse_exprs(p, suql_field(b, "args"), &e->args, &e->nargs);
    if (!rc) rc = suql_parse_sort(p, suql_field(b, "agg_order"), &e->aorder, &e->naorder);
    if (!rc && suql_field(b, "agg_filter")) rc = child(p, b, "agg_filter", pos, &e->filter);
    if (!rc && suql_field(b, "over")) rc = suql_parse_window(p, suql_field(b, "over"), &e->over);
    if (rc) return rc;
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
        if (strcmp(name, builtins[i].name)) continue;
        if (e->naorder || e->filter || e->over)
            return suql_fail(p, GN_EPARSE, pos, "%s() is not an aggregate or window function: "
                             "it takes no ORDER BY, FILTER or OVER", name);
        if (e->nargs != builtins[i].nargs || e->star || e->distinct)
            return suql_fail(p, GN_EPARSE, pos, "%s() takes %d argument%s: %s", name,
                             builtins[i].nargs, builtins[i].nargs == 1 ? "" : "s",
                             builtins[i].usage);
        e->kind = builtins[i].kind;
        e->name = NULL;
    }
    return 0;
}

static int coalesce(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "args", "location", NULL };
    int rc = suql_check_fields(p, b, "CoalesceExpr", pos, ok, NULL);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_COALESCE, pos);
    return suql_parse_exprs(p, suql_field(b, "args"), &e->args, &e->nargs);
}

static int min_max(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "op", "args", "location", NULL };
    int rc = suql_check_fields(p, b, "MinMaxExpr", pos, ok, NULL);
    if (rc) return rc;
    const char *op = suql_str_field(b, "op");
    suql_expr *e = *out = new_expr(p, SUQL_E_FUNC, pos);
    e->name = op && !strcmp(op, "IS_LEAST") ? "least" : "greatest";
    return suql_parse_exprs(p, suql_field(b, "args"), &e->args, &e->nargs);
}

/* ---- operators ------------------------------------------------------ */

static const struct {
    const char *pg;
    suql_kind kind;
    suql_op op;
} operators[] = {
    { "=", SUQL_E_CMP, SUQL_OP_EQ }, { "<>", SUQL_E_CMP, SUQL_OP_NE },
    { "!=", SUQL_E_CMP, SUQL_OP_NE }, { "<", SUQL_E_CMP, SUQL_OP_LT },
    { "<=", SUQL_E_CMP, SUQL_OP_LE }, { ">", SUQL_E_CMP, SUQL_OP_GT },
    { ">=", SUQL_E_CMP, SUQL_OP_GE },
    { "+", SUQL_E_ARITH, SUQL_OP_ADD }, { "-", SUQL_E_ARITH, SUQL_OP_SUB },
    { "*", SUQL_E_ARITH, SUQL_OP_MUL }, { "/", SUQL_E_ARITH, SUQL_OP_DIV },
    { "%", SUQL_E_ARITH, SUQL_OP_MOD }, { "||", SUQL_E_ARITH, SUQL_OP_CONCAT },
    { "^", SUQL_E_ARITH, SUQL_OP_POW },
    { "@>", SUQL_E_ARRAYOP, SUQL_OP_CONTAINS }, { "<@", SUQL_E_ARRAYOP, SUQL_OP_CONTAINED },
    { "&&", SUQL_E_ARRAYOP, SUQL_OP_OVERLAP },
    { "~~", SUQL_E_LIKE, SUQL_OP_LIKE }, { "!~~", SUQL_E_LIKE, SUQL_OP_NOT_LIKE },
    { "~~*", SUQL_E_LIKE, SUQL_OP_ILIKE }, { "!~~*", SUQL_E_LIKE, SUQL_OP_NOT_ILIKE },
};

/* The operator of an A_Expr: its name, and its row in operators[] or -1. */
static int operator(suql_pstate *p, const cJSON *b, int pos, const char **name, int *row)
{
    const cJSON *n = suql_field(b, "name");
    if (!cJSON_IsArray(n) || cJSON_GetArraySize(n) != 1 || !(*name = suql_string_node(n->child)))
        return suql_unsupported(p, pos, "OPERATOR(schema.op) syntax");
    *row = -1;
    for (int i = 0; i < (int)(sizeof operators / sizeof *operators); i++)
        if (!strcmp(*name, operators[i].pg)) *row = i;
    return 0;
}

static int binary(suql_pstate *p, const cJSON *b, int pos, suql_kind kind, suql_op op,
                  suql_expr **out)
{
    suql_expr *e = *out = new_expr(p, kind, pos);
    e->op = op;
    int rc = child(p, b, "lexpr", pos, &e->l);
    return rc ? rc : child(p, b, "rexpr", pos, &e->r);
}

/* The node B (lexpr, rexpr) as the function call NAME(lexpr, rexpr). */
static int call2(suql_pstate *p, const cJSON *b, int pos, const char *name, suql_expr **out)
{
    suql_expr *e = *out = new_expr(p, SUQL_E_FUNC, pos);
    e->name = name;
    e->nargs = 2;
    e->args = suql_array_new(p->q, 2, sizeof *e->args);
    int rc = child(p, b, "lexpr", pos, &e->args[0]);
    return rc ? rc : child(p, b, "rexpr", pos, &e->args[1]);
}

static int op_expr(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    const char *name;
    int row, rc = operator(p, b, pos, &name, &row);
    if (rc) return rc;
    if (!suql_field(b, "lexpr")) {
        /* Unary plus is refused, not dropped: dropping it would let
         * x = ANY (+(SELECT ...)) print as the different x = ANY (SELECT ...),
         * and -+5 as the literal -5. */
        if (strcmp(name, "-"))
            return suql_fail(p, GN_EPARSE, pos, "unsupported: prefix operator %s", name);
        suql_expr *e = *out = new_expr(p, SUQL_E_NEG, pos);
        return child(p, b, "rexpr", pos, &e->l);
    }
    if (!strcmp(name, "^@")) return call2(p, b, pos, "starts_with", out);   /* a ^@ b */
    if (row < 0) return suql_fail(p, GN_EPARSE, pos, "unsupported: operator %s", name);
    return binary(p, b, pos, operators[row].kind, operators[row].op, out);
}

/* Operators that may stand before ANY and ALL: comparisons and LIKE. */
static int quantifiable(int row)
{
    return operators[row].kind == SUQL_E_CMP || operators[row].kind == SUQL_E_LIKE;
}

/* l op ANY (r) / l op ALL (r). */
static int quantified(suql_pstate *p, const cJSON *b, int pos, suql_kind kind, suql_expr **out)
{
    const char *name;
    int row, rc = operator(p, b, pos, &name, &row);
    if (rc) return rc;
    if (row < 0 || !quantifiable(row))
        return suql_fail(p, GN_EPARSE, pos, "unsupported: operator %s with %s", name,
                         kind == SUQL_E_ANY ? "ANY" : "ALL");
    return binary(p, b, pos, kind, operators[row].op, out);
}

static int in_list(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    const char *name;
    int row, rc = operator(p, b, pos, &name, &row);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_IN, pos);
    e->negated = !strcmp(name, "<>");
    const cJSON *items = list_items(suql_field(b, "rexpr"));
    if (!items) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (IN list)");
    rc = child(p, b, "lexpr", pos, &e->l);
    return rc ? rc : suql_parse_exprs(p, items, &e->args, &e->nargs);
}

static int between(suql_pstate *p, const cJSON *b, int pos, int negated, suql_expr **out)
{
    suql_expr *e = *out = new_expr(p, SUQL_E_BETWEEN, pos);
    e->negated = negated;
    const cJSON *items = list_items(suql_field(b, "rexpr"));
    if (cJSON_GetArraySize(items) != 2)
        return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (BETWEEN)");
    int rc = child(p, b, "lexpr", pos, &e->l);
    return rc ? rc : suql_parse_exprs(p, items, &e->args, &e->nargs);
}

static int nullif(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    return call2(p, b, pos, "nullif", out);
}

static const struct {
    const char *kind;
    const char *refusal;    /* NULL when handled */
} aexpr_kinds[] = {
    { "AEXPR_OP", NULL }, { "AEXPR_OP_ANY", NULL }, { "AEXPR_OP_ALL", NULL },
    { "AEXPR_IN", NULL }, { "AEXPR_LIKE", NULL }, { "AEXPR_ILIKE", NULL },
    { "AEXPR_BETWEEN", NULL }, { "AEXPR_NOT_BETWEEN", NULL }, { "AEXPR_NULLIF", NULL },
    { "AEXPR_DISTINCT", NULL }, { "AEXPR_NOT_DISTINCT", NULL },
    { "AEXPR_BETWEEN_SYM", NULL }, { "AEXPR_NOT_BETWEEN_SYM", NULL },
    { "AEXPR_SIMILAR", "SIMILAR TO" },
};

/* x LIKE pattern ESCAPE 'c': PostgreSQL wraps the pattern in
 * like_escape(pattern, 'c'); SUQL rewrites a literal pattern to the
 * default escape, backslash (an empty escape: none at all). */
static int like_escape(suql_pstate *p, suql_expr *e)
{
    suql_expr *r = e->r;
    if (r->kind != SUQL_E_FUNC || !r->name || strcmp(r->name, "like_escape")) return 0;
    if (r->nargs != 2 || r->args[0]->kind != SUQL_E_STRING || r->args[1]->kind != SUQL_E_STRING ||
        strlen(r->args[1]->text) > 1)
        return suql_unsupported(p, r->pos, "LIKE ... ESCAPE with a pattern or escape that is not a "
                                           "literal (or an escape of more than one character)");
    const char *s = r->args[0]->text;
    char esc = r->args[1]->text[0];
    size_t n = strlen(s);
    char *t = suql_array_new(p->q, (int)(2 * n + 1), 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (esc && s[i] == esc && i + 1 < n) {
            t[j++] = '\\';
            t[j++] = s[++i];
        } else if (s[i] == '\\' && esc != '\\') {
            t[j++] = '\\';
            t[j++] = '\\';
        } else {
            t[j++] = s[i];
        }
    }
    t[j] = 0;
    r->args[0]->text = t;
    e->r = r->args[0];
    return 0;
}

static int a_expr(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "kind", "name", "lexpr", "rexpr", "location", NULL };
    int rc = suql_check_fields(p, b, "A_Expr", pos, ok, NULL);
    if (rc) return rc;
    const char *kind = suql_str_field(b, "kind");
    if (!kind) kind = "AEXPR_OP";
    for (size_t i = 0; i < sizeof aexpr_kinds / sizeof *aexpr_kinds; i++)
        if (!strcmp(kind, aexpr_kinds[i].kind) && aexpr_kinds[i].refusal)
            return suql_unsupported(p, pos, aexpr_kinds[i].refusal);
    if (!strcmp(kind, "AEXPR_OP")) return op_expr(p, b, pos, out);
    if (!strcmp(kind, "AEXPR_OP_ANY")) return quantified(p, b, pos, SUQL_E_ANY, out);
    if (!strcmp(kind, "AEXPR_OP_ALL")) return quantified(p, b, pos, SUQL_E_ALL, out);
    if (!strcmp(kind, "AEXPR_IN")) return in_list(p, b, pos, out);
    if (!strcmp(kind, "AEXPR_BETWEEN")) return between(p, b, pos, 0, out);
    if (!strcmp(kind, "AEXPR_NOT_BETWEEN")) return between(p, b, pos, 1, out);
    if (!strcmp(kind, "AEXPR_NULLIF")) return nullif(p, b, pos, out);
    if (!strcmp(kind, "AEXPR_DISTINCT") || !strcmp(kind, "AEXPR_NOT_DISTINCT"))
        return binary(p, b, pos, SUQL_E_CMP,
                      strcmp(kind, "AEXPR_DISTINCT") ? SUQL_OP_NOT_DISTINCT : SUQL_OP_DISTINCT, out);
    if (!strcmp(kind, "AEXPR_BETWEEN_SYM") || !strcmp(kind, "AEXPR_NOT_BETWEEN_SYM")) {
        rc = between(p, b, pos, !strcmp(kind, "AEXPR_NOT_BETWEEN_SYM"), out);
        if (*out) (*out)->symmetric = 1;
        return rc;
    }
    if (!strcmp(kind, "AEXPR_LIKE") || !strcmp(kind, "AEXPR_ILIKE")) {
        const char *name;
        int row;
        rc = operator(p, b, pos, &name, &row);
        if (rc) return rc;
        if (row < 0 || operators[row].kind != SUQL_E_LIKE)
            return suql_fail(p, GN_EPARSE, pos, "unsupported: operator %s", name);
        rc = binary(p, b, pos, SUQL_E_LIKE, operators[row].op, out);
        return rc ? rc : like_escape(p, *out);
    }
    return suql_fail(p, GN_EPARSE, pos, "unsupported: %s", kind);
}

/* ---- boolean logic -------------------------------------------------- */

/* AND/OR: the arguments, with those of the same connective spliced in. */
static int bool_list(suql_pstate *p, const cJSON *args, int pos, suql_kind kind, suql_expr **out)
{
    suql_expr **v = NULL;
    int n = 0, cap = 0, rc = 0;
    for (const cJSON *it = cJSON_IsArray(args) ? args->child : NULL; it && !rc; it = it->next) {
        suql_expr *c;
        if ((rc = suql_parse_expr(p, it, &c))) break;
        int k = c->kind == kind ? c->nargs : 1;
        if (n + k > cap) {
            cap = (n + k) * 2;
            v = xrealloc(v, (size_t)cap * sizeof *v);
        }
        if (c->kind == kind) {
            memcpy(v + n, c->args, (size_t)k * sizeof *v);
        } else {
            v[n] = c;
        }
        n += k;
    }
    if (!rc && n < 2) rc = suql_fail(p, GN_EPARSE, pos, "malformed parse tree (AND/OR)");
    if (!rc) {
        suql_expr *e = *out = new_expr(p, kind, pos);
        e->nargs = n;
        e->args = suql_array_new(p->q, n, sizeof *e->args);
        memcpy(e->args, v, (size_t)n * sizeof *v);
    }
    free(v);
    return rc;
}

static int bool_expr(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "boolop", "args", "location", NULL };
    int rc = suql_check_fields(p, b, "BoolExpr", pos, ok, NULL);
    if (rc) return rc;
    const char *op = suql_str_field(b, "boolop");
    const cJSON *args = suql_field(b, "args");
    if (op && !strcmp(op, "AND_EXPR")) return bool_list(p, args, pos, SUQL_E_AND, out);
    if (op && !strcmp(op, "OR_EXPR")) return bool_list(p, args, pos, SUQL_E_OR, out);
    if (!op || strcmp(op, "NOT_EXPR") || cJSON_GetArraySize(args) != 1)
        return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (BoolExpr)");
    suql_expr *c;
    if ((rc = suql_parse_expr(p, args->child, &c))) return rc;
    if (c->kind == SUQL_E_IN_SELECT && !c->negated) {
        c->negated = 1;   /* PostgreSQL reads x NOT IN (SELECT ...) so */
        *out = c;
        return 0;
    }
    suql_expr *e = *out = new_expr(p, SUQL_E_NOT, pos);
    e->l = c;
    return 0;
}

static int null_test(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "arg", "nulltesttype", "argisrow", "location", NULL };
    int rc = suql_check_fields(p, b, "NullTest", pos, ok, NULL);
    if (rc) return rc;
    const char *t = suql_str_field(b, "nulltesttype");
    suql_expr *e = *out = new_expr(p, SUQL_E_ISNULL, pos);
    e->negated = t && !strcmp(t, "IS_NOT_NULL");
    return child(p, b, "arg", pos, &e->l);
}

/* ---- subqueries ----------------------------------------------------- */

static int subselect(suql_pstate *p, const cJSON *b, int pos, suql_select **out)
{
    const cJSON *sb;
    const char *t = suql_node(suql_field(b, "subselect"), &sb);
    if (!t || strcmp(t, "SelectStmt"))
        return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (subquery)");
    return suql_parse_select(p, sb, out);
}

static int sub_link(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = {
        "subLinkType", "subLinkId", "testexpr", "operName", "subselect", "location", NULL
    };
    int rc = suql_check_fields(p, b, "SubLink", pos, ok, NULL);
    if (rc) return rc;
    const char *t = suql_str_field(b, "subLinkType");
    if (!t) t = "EXISTS_SUBLINK";   /* enum value 0 */
    suql_expr *e = *out = new_expr(p, SUQL_E_SUBQUERY, pos);
    if (!strcmp(t, "EXISTS_SUBLINK")) {
        e->kind = SUQL_E_EXISTS;
    } else if (!strcmp(t, "ANY_SUBLINK") || !strcmp(t, "ALL_SUBLINK")) {
        e->kind = !strcmp(t, "ANY_SUBLINK") ? SUQL_E_ANY : SUQL_E_ALL;
        const cJSON *opn = suql_field(b, "operName");
        if (!opn && e->kind == SUQL_E_ANY) {
            e->kind = SUQL_E_IN_SELECT;
        } else {
            const char *name = cJSON_GetArraySize(opn) == 1 ? suql_string_node(opn->child) : NULL;
            int row = -1;
            for (int i = 0; name && i < (int)(sizeof operators / sizeof *operators); i++)
                if (!strcmp(name, operators[i].pg)) row = i;
            if (row < 0 || !quantifiable(row))
                return suql_fail(p, GN_EPARSE, pos, "unsupported: operator %s with a subquery",
                                 name ? name : "OPERATOR()");
            e->op = operators[row].op;
        }
        if ((rc = child(p, b, "testexpr", pos, &e->l))) return rc;
    } else if (!strcmp(t, "ARRAY_SUBLINK")) {
        e->array = 1;
    } else if (strcmp(t, "EXPR_SUBLINK")) {
        return suql_unsupported(p, pos, "this kind of subquery");
    }
    return subselect(p, b, pos, &e->sub);
}

/* ---- casts, arrays, CASE -------------------------------------------- */

static const struct { const char *name; suql_cast_type type; } cast_types[] = {
    { "int2", SUQL_T_INT }, { "int4", SUQL_T_INT }, { "int8", SUQL_T_INT },
    { "int", SUQL_T_INT }, { "integer", SUQL_T_INT }, { "smallint", SUQL_T_INT },
    { "bigint", SUQL_T_INT },
    { "float4", SUQL_T_REAL }, { "float8", SUQL_T_REAL }, { "float", SUQL_T_REAL },
    { "real", SUQL_T_REAL },
    { "numeric", SUQL_T_NUMERIC }, { "decimal", SUQL_T_NUMERIC },
    { "text", SUQL_T_TEXT }, { "varchar", SUQL_T_TEXT }, { "bpchar", SUQL_T_TEXT },
    { "bool", SUQL_T_BOOL }, { "boolean", SUQL_T_BOOL },
    { "date", SUQL_T_DATE }, { "time", SUQL_T_TIME }, { "timestamp", SUQL_T_TIMESTAMP },
    { "timestamptz", SUQL_T_TIMESTAMP }, { "interval", SUQL_T_INTERVAL },
};

/* Type modifiers: numeric(p[,s]) and varchar(n); others are refused. */
static int typmods(suql_pstate *p, const cJSON *tn, int pos, const char *type, suql_expr *e)
{
    suql_expr **v;
    int n, rc;
    if (!suql_field(tn, "typmods")) return 0;
    if ((rc = suql_parse_exprs(p, suql_field(tn, "typmods"), &v, &n))) return rc;
    int max = e->type == SUQL_T_NUMERIC ? 2 : !strcmp(type, "varchar") || !strcmp(type, "bpchar") ? 1 : 0;
    if (n > max)
        return suql_unsupported(p, pos, "type modifiers other than numeric(p,s) and varchar(n)");
    for (int i = 0; i < n; i++) {
        if (v[i]->kind != SUQL_E_INT || v[i]->ival < 0 || v[i]->ival > 1000)
            return suql_fail(p, GN_EPARSE, v[i]->pos, "type modifiers must be simple constants or identifiers");
        e->tmod[i] = (int)v[i]->ival;
    }
    e->ntmod = n;
    if (!strcmp(type, "bpchar")) e->tmod[1] = 1;   /* char(n): padded */
    if (e->type == SUQL_T_NUMERIC && n == 2 && e->tmod[1] > e->tmod[0])
        return suql_fail(p, GN_EPARSE, pos, "NUMERIC scale %d must be between 0 and precision %d",
                         e->tmod[1], e->tmod[0]);
    return 0;
}

static int type_name(suql_pstate *p, const cJSON *tn, int pos, suql_expr *e)
{
    static const char *const ok[] = { "names", "typemod", "typmods", "arrayBounds", "location", NULL };
    static const suql_refusal no[] = {
        { "setof", "SETOF", GN_EPARSE }, { "pct_type", "%TYPE", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, tn, "TypeName", pos, ok, no);
    if (rc) return rc;
    const cJSON *names = suql_field(tn, "names");
    int n = cJSON_IsArray(names) ? cJSON_GetArraySize(names) : 0;
    const char *last = n ? suql_string_node(cJSON_GetArrayItem(names, n - 1)) : NULL;
    const char *first = n ? suql_string_node(names->child) : NULL;
    int known = -1;
    for (int i = 0; last && i < (int)(sizeof cast_types / sizeof *cast_types); i++)
        if (!strcmp(last, cast_types[i].name)) known = i;
    if (known < 0 || n > 2 || (n == 2 && strcmp(first, "pg_catalog")))
        return suql_fail(p, GN_EPARSE, pos, "unsupported: type %s", last ? last : "?");
    int dims = suql_list_len(tn, "arrayBounds");
    if (dims > 1) return suql_unsupported(p, pos, "multidimensional array types");
    e->type = cast_types[known].type;
    e->array = dims == 1;
    return typmods(p, tn, pos, last, e);
}

static int type_cast(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "arg", "typeName", "location", NULL };
    int rc = suql_check_fields(p, b, "TypeCast", pos, ok, NULL);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_CAST, pos);
    if ((rc = child(p, b, "arg", pos, &e->l))) return rc;
    const cJSON *tn = suql_field(b, "typeName");
    if (!cJSON_IsObject(tn)) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (cast)");
    return type_name(p, tn, suql_loc(p, tn), e);
}

static int array_expr(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "elements", "location", NULL };
    int rc = suql_check_fields(p, b, "A_ArrayExpr", pos, ok, NULL);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_ARRAY, pos);
    return suql_parse_exprs(p, suql_field(b, "elements"), &e->args, &e->nargs);
}

static int case_when(suql_pstate *p, const cJSON *node, suql_expr **when, suql_expr **then)
{
    static const char *const ok[] = { "expr", "result", "location", NULL };
    const cJSON *b;
    const char *t = suql_node(node, &b);
    if (!t || strcmp(t, "CaseWhen"))
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (CASE)");
    int pos = suql_loc(p, b);
    int rc = suql_check_fields(p, b, "CaseWhen", pos, ok, NULL);
    if (!rc) rc = child(p, b, "expr", pos, when);
    return rc ? rc : child(p, b, "result", pos, then);
}

static int case_expr(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "arg", "args", "defresult", "location", NULL };
    int rc = suql_check_fields(p, b, "CaseExpr", pos, ok, NULL);
    if (rc) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_CASE, pos);
    if (suql_field(b, "arg") && (rc = child(p, b, "arg", pos, &e->l))) return rc;
    const cJSON *arms = suql_field(b, "args");
    int n = cJSON_IsArray(arms) ? cJSON_GetArraySize(arms) : 0;
    if (n == 0) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (CASE)");
    e->nargs = 2 * n;
    e->args = suql_array_new(p->q, e->nargs, sizeof *e->args);
    int i = 0;
    for (const cJSON *it = arms->child; it; it = it->next, i += 2)
        if ((rc = case_when(p, it, &e->args[i], &e->args[i + 1]))) return rc;
    if (suql_field(b, "defresult")) rc = child(p, b, "defresult", pos, &e->r);
    return rc;
}

/* ---- IS TRUE, CURRENT_DATE, subscripts ------------------------------ */

static int boolean_test(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "arg", "booltesttype", "location", NULL };
    static const struct { const char *t; int val, neg; } tests[] = {
        { "IS_TRUE", 1, 0 }, { "IS_NOT_TRUE", 1, 1 }, { "IS_FALSE", 0, 0 },
        { "IS_NOT_FALSE", 0, 1 }, { "IS_UNKNOWN", -1, 0 }, { "IS_NOT_UNKNOWN", -1, 1 },
    };
    int rc = suql_check_fields(p, b, "BooleanTest", pos, ok, NULL);
    if (rc) return rc;
    const char *t = suql_str_field(b, "booltesttype");
    if (!t) t = "IS_TRUE";   /* enum value 0 */
    suql_expr *e = *out = new_expr(p, SUQL_E_ISBOOL, pos);
    int hit = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        if (!strcmp(t, tests[i].t)) {
            e->ival = tests[i].val;
            e->negated = tests[i].neg;
            hit = 1;
        }
    if (!hit) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (BooleanTest)");
    return child(p, b, "arg", pos, &e->l);
}

/* CURRENT_DATE and its kin: calls without parentheses. */
static int sql_value(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "op", "typmod", "type", "location", NULL };
    static const struct { const char *op, *name; } fns[] = {
        { "SVFOP_CURRENT_DATE", "current_date" },
        { "SVFOP_CURRENT_TIMESTAMP", "current_timestamp" },
        { "SVFOP_LOCALTIMESTAMP", "localtimestamp" },
        { "SVFOP_CURRENT_TIME", "current_time" }, { "SVFOP_LOCALTIME", "localtime" },
    };
    int rc = suql_check_fields(p, b, "SQLValueFunction", pos, ok, NULL);
    if (rc) return rc;
    const char *op = suql_str_field(b, "op");
    if (!op) op = "SVFOP_CURRENT_DATE";   /* enum value 0 */
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (!strcmp(op, fns[i].op)) {
            suql_expr *e = *out = new_expr(p, SUQL_E_FUNC, pos);
            e->name = fns[i].name;
            e->sqlvalue = 1;
            return 0;
        }
    return suql_unsupported(p, pos, "CURRENT_USER, CURRENT_TIMESTAMP(n) and the like");
}

/* arr[i] and arr[a:b]: one subscript. */
static int indirection(suql_pstate *p, const cJSON *b, int pos, suql_expr **out)
{
    static const char *const ok[] = { "arg", "indirection", NULL };
    int rc = suql_check_fields(p, b, "A_Indirection", pos, ok, NULL);
    if (rc) return rc;
    const cJSON *list = suql_field(b, "indirection"), *ib;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != 1)
        return suql_unsupported(p, pos, "more than one subscript (multidimensional arrays)");
    const char *t = suql_node(list->child, &ib);
    if (!t || strcmp(t, "A_Indices"))
        return suql_unsupported(p, pos, "field selection (x).field");
    static const char *const iok[] = { "is_slice", "lidx", "uidx", NULL };
    if ((rc = suql_check_fields(p, ib, "A_Indices", pos, iok, NULL))) return rc;
    suql_expr *e = *out = new_expr(p, SUQL_E_SUBSCRIPT, pos);
    e->slice = suql_bool_field(ib, "is_slice");
    e->nargs = 2;
    e->args = suql_array_new(p->q, 2, sizeof *e->args);
    if ((rc = child(p, b, "arg", pos, &e->l))) return rc;
    if (suql_field(ib, "lidx") && (rc = child(p, ib, "lidx", pos, &e->args[0]))) return rc;
    if (suql_field(ib, "uidx") && (rc = child(p, ib, "uidx", pos, &e->args[1]))) return rc;
    /* A plain subscript keeps its index in uidx. */
    if (!e->slice) {
        e->args[0] = e->args[1];
        e->args[1] = NULL;
        e->nargs = 1;
        if (!e->args[0]) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (subscript)");
    }
    return 0;
}

/* ---- dispatch ------------------------------------------------------- */

static const struct { const char *type; expr_fn fn; } handlers[] = {
    { "ColumnRef", column_ref }, { "A_Const", a_const }, { "A_Expr", a_expr },
    { "BoolExpr", bool_expr }, { "FuncCall", func_call }, { "NullTest", null_test },
    { "SubLink", sub_link }, { "TypeCast", type_cast }, { "A_ArrayExpr", array_expr },
    { "CaseExpr", case_expr }, { "CoalesceExpr", coalesce }, { "MinMaxExpr", min_max },
    { "BooleanTest", boolean_test }, { "SQLValueFunction", sql_value },
    { "A_Indirection", indirection },
};

static const struct { const char *type, *what; } refused_nodes[] = {
    { "ParamRef", "parameters ($1)" },
    { "CollateClause", "COLLATE" },
    { "RowExpr", "row constructors" },
    { "GroupingFunc", "GROUPING()" },
    { "GroupingSet", "GROUPING SETS, ROLLUP and CUBE" },
    { "XmlExpr", "XML functions" }, { "XmlSerialize", "XML functions" },
    { "SetToDefault", "DEFAULT" },
    { "A_Star", "* here" },
};

int suql_parse_expr(suql_pstate *p, const cJSON *node, suql_expr **out)
{
    const cJSON *b;
    const char *type = suql_node(node, &b);
    *out = NULL;
    if (!type) return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree");
    /* Expressions never start at offset 0 (the statement does), so no
     * location field means a node type without one. */
    int pos = suql_field(b, "location") ? suql_loc(p, b) : suql_first_loc(p, b);
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++) {
        if (strcmp(type, handlers[i].type)) continue;
        int rc = suql_enter(p, pos);
        if (rc) return rc;
        rc = handlers[i].fn(p, b, pos, out);
        suql_leave(p);
        return rc;
    }
    for (size_t i = 0; i < sizeof refused_nodes / sizeof *refused_nodes; i++)
        if (!strcmp(type, refused_nodes[i].type))
            return suql_unsupported(p, pos, refused_nodes[i].what);
    return suql_fail(p, GN_EPARSE, pos, "unsupported: %s", type);
}
