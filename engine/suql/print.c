/*
 * print.c — the SUQL tree back to normalized text (suql_print, ast.h).
 *
 * One canonical form, used by --explain and the golden tests: keywords in
 * upper case, one space between tokens, ", " between list items, string
 * literals in single quotes ('' doubled; E'...' escapes only when the value
 * holds control characters), identifiers bare unless they need quotes,
 * casts as x::TYPE, no trailing semicolon.
 *
 * Invariant: parsing the output gives a tree that prints the same text.
 * Two rules keep it: parentheses are added exactly where PostgreSQL's
 * precedence would otherwise regroup the tree (each node has a level, each
 * operand position a minimum level; below it, the operand is wrapped), and
 * an identifier is quoted when it is not lower-case ASCII or is a keyword
 * that PostgreSQL does not accept as a bare name.  Extra parentheses are
 * harmless (they leave no trace in the tree); missing ones would not be.
 *
 * Rejected: libpg_query's deparser (it works on its protobuf tree, not on
 * ours, and prints PostgreSQL's forms: pg_catalog.int4, ~~ for LIKE);
 * fully parenthesized output (unreadable in --explain); quoting every
 * identifier (noisy, and the paper's queries would not read as written).
 */
#include "suql/ast.h"

#include <stdlib.h>
#include <string.h>

/* PostgreSQL keywords that are not "unreserved": reserved, type/function
 * name and column name keywords (kwlist.h, PostgreSQL 15 and 16).  Such a
 * word as a column, table or function name must be quoted.  Sorted. */
static const char *const keywords[] = {
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc",
    "asymmetric", "authorization", "between", "bigint", "binary", "bit",
    "boolean", "both", "case", "cast", "char", "character", "check", "coalesce",
    "collate", "collation", "column", "concurrently", "constraint", "create",
    "cross", "current_catalog", "current_date", "current_role",
    "current_schema", "current_time", "current_timestamp", "current_user",
    "dec", "decimal", "default", "deferrable", "desc", "distinct", "do", "else",
    "end", "except", "exists", "extract", "false", "fetch", "float", "for",
    "foreign", "freeze", "from", "full", "grant", "greatest", "group",
    "grouping", "having", "ilike", "in", "initially", "inner", "inout", "int",
    "integer", "intersect", "interval", "into", "is", "isnull", "join",
    "json_array", "json_arrayagg", "json_object", "json_objectagg", "lateral",
    "leading", "least", "left", "like", "limit", "localtime", "localtimestamp",
    "national", "natural", "nchar", "none", "normalize", "not", "notnull",
    "null", "nullif", "numeric", "offset", "on", "only", "or", "order", "out",
    "outer", "overlaps", "overlay", "placing", "position", "precision",
    "primary", "real", "references", "returning", "right", "row", "select",
    "session_user", "setof", "similar", "smallint", "some", "substring",
    "symmetric", "system_user", "table", "tablesample", "then", "time",
    "timestamp", "to", "trailing", "treat", "trim", "true", "union", "unique",
    "user", "using", "values", "varchar", "variadic", "verbose", "when",
    "where", "window", "with", "xmlattributes", "xmlconcat", "xmlelement",
    "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot",
    "xmlserialize", "xmltable",
};

/* Functions whose keyword syntax PostgreSQL parses back into the same
 * call: printed as NAME(args) when the arity fits, else as a quoted name. */
static const struct { const char *name, *text; int min, max; } kwfuncs[] = {
    { "nullif", "NULLIF", 2, 2 },
    { "greatest", "GREATEST", 1, 1 << 30 },
    { "least", "LEAST", 1, 1 << 30 },
};

/* Binding levels, loosest first (PostgreSQL's gram.y precedence list). */
enum {
    L_NONE = 0, L_OR, L_AND, L_NOT, L_IS, L_CMP, L_LIKE, L_OP, L_ADD, L_MUL,
    L_POW = 10, L_NEG = 11, L_CAST = 13, L_ATOM = 20
};

static int cmp_kw(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int suql_is_keyword(const char *s)
{
    return bsearch(&s, keywords, sizeof keywords / sizeof *keywords,
                   sizeof *keywords, cmp_kw) != NULL;
}

static int bare_ok(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    for (const char *p = s + 1; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$'))
            return 0;
    return !suql_is_keyword(s);
}

static void put_ident(gn_buf *b, const char *s)
{
    if (!s) s = "";
    if (bare_ok(s)) {
        gn_buf_puts(b, s);
        return;
    }
    gn_buf_quoted(b, '"', s);
}

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 1;
    return 0;
}

static void put_string(gn_buf *b, const char *s)
{
    if (!s) s = "";
    if (!has_control(s)) {
        gn_buf_putc(b, '\'');
        for (; *s; s++) {
            if (*s == '\'') gn_buf_putc(b, '\'');
            gn_buf_putc(b, *s);
        }
        gn_buf_putc(b, '\'');
        return;
    }
    /* An escape string keeps control characters visible in --explain. */
    gn_buf_puts(b, "E'");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'' || c == '\\') {
            gn_buf_putc(b, '\\');
            gn_buf_putc(b, (char)c);
        } else if (c == '\n') {
            gn_buf_puts(b, "\\n");
        } else if (c == '\t') {
            gn_buf_puts(b, "\\t");
        } else if (c == '\r') {
            gn_buf_puts(b, "\\r");
        } else if (c < 0x20 || c == 0x7f) {
            gn_buf_printf(b, "\\x%02x", c);
        } else {
            gn_buf_putc(b, (char)c);
        }
    }
    gn_buf_putc(b, '\'');
}

static int op_level(suql_op op)
{
    switch (op) {
    case SUQL_OP_EQ: case SUQL_OP_NE: case SUQL_OP_LT:
    case SUQL_OP_LE: case SUQL_OP_GT: case SUQL_OP_GE:
        return L_CMP;
    case SUQL_OP_LIKE: case SUQL_OP_NOT_LIKE: case SUQL_OP_ILIKE: case SUQL_OP_NOT_ILIKE:
        return L_LIKE;
    case SUQL_OP_ADD: case SUQL_OP_SUB:
        return L_ADD;
    case SUQL_OP_MUL: case SUQL_OP_DIV: case SUQL_OP_MOD:
        return L_MUL;
    case SUQL_OP_POW:
        return L_POW;
    case SUQL_OP_DISTINCT: case SUQL_OP_NOT_DISTINCT:
        return L_IS;
    default:
        return L_OP;   /* || @> <@ &&: PostgreSQL's generic operator level */
    }
}

/* How tightly E's printed form binds. */
static int level(const suql_expr *e)
{
    switch (e->kind) {
    case SUQL_E_OR: return L_OR;
    case SUQL_E_AND: return L_AND;
    case SUQL_E_NOT: return L_NOT;
    case SUQL_E_ISNULL: case SUQL_E_ISBOOL: return L_IS;
    case SUQL_E_IN: case SUQL_E_IN_SELECT: case SUQL_E_BETWEEN: return L_LIKE;
    case SUQL_E_CMP: case SUQL_E_LIKE: case SUQL_E_ARITH: case SUQL_E_ARRAYOP:
    case SUQL_E_ANY: case SUQL_E_ALL:
        return op_level(e->op);
    case SUQL_E_NEG: return L_NEG;
    case SUQL_E_CAST: return L_CAST;
    case SUQL_E_INT: case SUQL_E_FLOAT:
        /* A negative literal reads as unary minus: -5::int is -(5::int). */
        return e->text && e->text[0] == '-' ? L_NEG : L_ATOM;
    default: return L_ATOM;
    }
}

static void put_expr(gn_buf *b, const suql_expr *e, int min);
static void put_select(gn_buf *b, const suql_select *s);
static void put_orders(gn_buf *b, const suql_order *v, int n);
static void put_window(gn_buf *b, const suql_window *w);

static void put_list(gn_buf *b, suql_expr *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) gn_buf_puts(b, ", ");
        put_expr(b, v[i], L_NONE);
    }
}

static void put_names(gn_buf *b, const char *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) gn_buf_puts(b, ", ");
        put_ident(b, v[i]);
    }
}

static void put_subquery(gn_buf *b, const suql_select *s)
{
    gn_buf_putc(b, '(');
    put_select(b, s);
    gn_buf_putc(b, ')');
}

/* Calls PostgreSQL writes in SQL syntax: 1 when printed so. */
static int put_sql_form(gn_buf *b, const suql_expr *e)
{
    if (e->sqlvalue) {
        for (const char *p = e->name; *p; p++) gn_buf_putc(b, (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
        return 1;
    }
    if (!strcmp(e->name, "extract") && e->nargs == 2 && e->args[0]->kind == SUQL_E_STRING) {
        gn_buf_puts(b, "EXTRACT(");
        put_string(b, e->args[0]->text);
        gn_buf_puts(b, " FROM ");
        put_expr(b, e->args[1], L_NONE);
        gn_buf_putc(b, ')');
        return 1;
    }
    if (!strcmp(e->name, "position") && e->nargs == 2) {
        gn_buf_puts(b, "POSITION(");
        put_expr(b, e->args[1], L_ADD);
        gn_buf_puts(b, " IN ");
        put_expr(b, e->args[0], L_ADD);
        gn_buf_putc(b, ')');
        return 1;
    }
    return 0;
}

static void put_func(gn_buf *b, const suql_expr *e)
{
    int decorated = e->naorder || e->filter || e->over;
    if (!decorated && !e->distinct && !e->star && put_sql_form(b, e)) return;
    for (size_t i = 0; i < sizeof kwfuncs / sizeof *kwfuncs && !decorated; i++) {
        if (!strcmp(e->name, kwfuncs[i].name) && !e->distinct && !e->star &&
            e->nargs >= kwfuncs[i].min && e->nargs <= kwfuncs[i].max) {
            gn_buf_puts(b, kwfuncs[i].text);
            gn_buf_putc(b, '(');
            put_list(b, e->args, e->nargs);
            gn_buf_putc(b, ')');
            return;
        }
    }
    put_ident(b, e->name);
    gn_buf_putc(b, '(');
    if (e->star) gn_buf_putc(b, '*');
    if (e->distinct) gn_buf_puts(b, "DISTINCT ");
    put_list(b, e->args, e->nargs);
    if (e->naorder) {
        gn_buf_puts(b, " ORDER BY ");
        put_orders(b, e->aorder, e->naorder);
    }
    gn_buf_putc(b, ')');
    if (e->filter) {
        gn_buf_puts(b, " FILTER (WHERE ");
        put_expr(b, e->filter, L_NONE);
        gn_buf_putc(b, ')');
    }
    if (e->over) {
        gn_buf_puts(b, " OVER ");
        put_window(b, e->over);
    }
}

static void put_binary(gn_buf *b, const suql_expr *e, int lmin, int rmin)
{
    put_expr(b, e->l, lmin);
    gn_buf_printf(b, " %s ", suql_op_text(e->op));
    put_expr(b, e->r, rmin);
}

static void put_nary(gn_buf *b, const suql_expr *e, const char *sep, int min)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i) gn_buf_puts(b, sep);
        put_expr(b, e->args[i], min);
    }
}

static void put_quantified(gn_buf *b, const suql_expr *e)
{
    put_expr(b, e->l, op_level(e->op) + 1);
    gn_buf_printf(b, " %s %s ", suql_op_text(e->op), e->kind == SUQL_E_ANY ? "ANY" : "ALL");
    if (e->sub) {
        put_subquery(b, e->sub);
    } else {
        gn_buf_putc(b, '(');
        put_expr(b, e->r, L_NONE);
        gn_buf_putc(b, ')');
    }
}

static void put_case(gn_buf *b, const suql_expr *e)
{
    gn_buf_puts(b, "CASE");
    if (e->l) {
        gn_buf_putc(b, ' ');
        put_expr(b, e->l, L_NONE);
    }
    for (int i = 0; i + 1 < e->nargs; i += 2) {
        gn_buf_puts(b, " WHEN ");
        put_expr(b, e->args[i], L_NONE);
        gn_buf_puts(b, " THEN ");
        put_expr(b, e->args[i + 1], L_NONE);
    }
    if (e->r) {
        gn_buf_puts(b, " ELSE ");
        put_expr(b, e->r, L_NONE);
    }
    gn_buf_puts(b, " END");
}

static void put_call(gn_buf *b, const char *name, const suql_expr *e)
{
    gn_buf_puts(b, name);
    gn_buf_putc(b, '(');
    put_list(b, e->args, e->nargs);
    gn_buf_putc(b, ')');
}

/* Operands bind at least one level tighter than the operator, except the
 * left operand of a left-associative one (a - b - c needs no parentheses). */
static void put_bare(gn_buf *b, const suql_expr *e)
{
    int lv = level(e);
    switch (e->kind) {
    case SUQL_E_COLUMN:
        if (e->qual) {
            put_ident(b, e->qual);
            gn_buf_putc(b, '.');
        }
        put_ident(b, e->name);
        break;
    case SUQL_E_STAR:
        if (e->qual) {
            put_ident(b, e->qual);
            gn_buf_putc(b, '.');
        }
        gn_buf_putc(b, '*');
        break;
    case SUQL_E_STRING: put_string(b, e->text); break;
    case SUQL_E_INT: case SUQL_E_FLOAT: gn_buf_puts(b, e->text ? e->text : "0"); break;
    case SUQL_E_BOOL: gn_buf_puts(b, e->ival ? "TRUE" : "FALSE"); break;
    case SUQL_E_NULL: gn_buf_puts(b, "NULL"); break;
    case SUQL_E_FUNC: put_func(b, e); break;
    case SUQL_E_ANSWER: put_call(b, "answer", e); break;
    case SUQL_E_SUMMARY: put_call(b, "summary", e); break;
    case SUQL_E_COALESCE: put_call(b, "COALESCE", e); break;
    case SUQL_E_NEG:
        /* Never "--" (a comment): a negative operand gets parentheses. */
        gn_buf_putc(b, '-');
        put_expr(b, e->l, L_NEG + 1);
        break;
    case SUQL_E_NOT:
        gn_buf_puts(b, "NOT ");
        put_expr(b, e->l, L_NOT);
        break;
    case SUQL_E_ARITH: case SUQL_E_ARRAYOP:
        put_binary(b, e, lv, lv + 1);
        break;
    case SUQL_E_CMP: case SUQL_E_LIKE:
        put_binary(b, e, lv + 1, lv + 1);
        break;
    case SUQL_E_AND: put_nary(b, e, " AND ", L_AND + 1); break;
    case SUQL_E_OR: put_nary(b, e, " OR ", L_OR + 1); break;
    case SUQL_E_IN:
        put_expr(b, e->l, L_LIKE + 1);
        gn_buf_puts(b, e->negated ? " NOT IN (" : " IN (");
        put_list(b, e->args, e->nargs);
        gn_buf_putc(b, ')');
        break;
    case SUQL_E_IN_SELECT:
        put_expr(b, e->l, L_LIKE + 1);
        gn_buf_puts(b, e->negated ? " NOT IN " : " IN ");
        put_subquery(b, e->sub);
        break;
    case SUQL_E_BETWEEN:
        put_expr(b, e->l, L_LIKE + 1);
        gn_buf_puts(b, e->negated ? " NOT BETWEEN " : " BETWEEN ");
        if (e->symmetric) gn_buf_puts(b, "SYMMETRIC ");
        put_expr(b, e->nargs > 0 ? e->args[0] : NULL, L_LIKE + 1);
        gn_buf_puts(b, " AND ");
        put_expr(b, e->nargs > 1 ? e->args[1] : NULL, L_LIKE + 1);
        break;
    case SUQL_E_ISNULL:
        put_expr(b, e->l, L_IS + 1);
        gn_buf_puts(b, e->negated ? " IS NOT NULL" : " IS NULL");
        break;
    case SUQL_E_ISBOOL:
        put_expr(b, e->l, L_IS + 1);
        gn_buf_printf(b, " IS %s%s", e->negated ? "NOT " : "",
                      e->ival > 0 ? "TRUE" : e->ival == 0 ? "FALSE" : "UNKNOWN");
        break;
    case SUQL_E_SUBSCRIPT:
        /* Only a column takes a subscript bare: (f(x))[1]. */
        if (e->l && e->l->kind == SUQL_E_COLUMN) {
            put_expr(b, e->l, L_NONE);
        } else {
            gn_buf_putc(b, '(');
            put_expr(b, e->l, L_NONE);
            gn_buf_putc(b, ')');
        }
        gn_buf_putc(b, '[');
        if (e->nargs > 0 && e->args[0]) put_expr(b, e->args[0], L_NONE);
        if (e->slice) {
            gn_buf_putc(b, ':');
            if (e->nargs > 1 && e->args[1]) put_expr(b, e->args[1], L_NONE);
        }
        gn_buf_putc(b, ']');
        break;
    case SUQL_E_ANY: case SUQL_E_ALL: put_quantified(b, e); break;
    case SUQL_E_ARRAY:
        gn_buf_puts(b, "ARRAY[");
        put_list(b, e->args, e->nargs);
        gn_buf_putc(b, ']');
        break;
    case SUQL_E_CAST:
        put_expr(b, e->l, L_CAST);
        gn_buf_printf(b, "::%s", e->type == SUQL_T_TEXT && e->ntmod ? (e->tmod[1] ? "CHAR" : "VARCHAR")
                                                                   : suql_cast_type_name(e->type));
        if (e->ntmod == 1) gn_buf_printf(b, "(%d)", e->tmod[0]);
        if (e->ntmod == 2) gn_buf_printf(b, "(%d,%d)", e->tmod[0], e->tmod[1]);
        if (e->array) gn_buf_puts(b, "[]");
        break;
    case SUQL_E_CASE: put_case(b, e); break;
    case SUQL_E_SUBQUERY:
        if (e->array) gn_buf_puts(b, "ARRAY");
        put_subquery(b, e->sub);
        break;
    case SUQL_E_EXISTS:
        gn_buf_puts(b, "EXISTS ");
        put_subquery(b, e->sub);
        break;
    default: gn_buf_puts(b, "<?>"); break;
    }
}

static void put_expr(gn_buf *b, const suql_expr *e, int min)
{
    if (!e) {
        gn_buf_puts(b, "<?>");
        return;
    }
    int paren = level(e) < min;
    if (paren) gn_buf_putc(b, '(');
    put_bare(b, e);
    if (paren) gn_buf_putc(b, ')');
}

static void put_alias(gn_buf *b, const char *alias, const char *const *cols, int ncols)
{
    if (alias) {
        gn_buf_puts(b, " AS ");
        put_ident(b, alias);
    }
    if (ncols > 0) {
        gn_buf_putc(b, '(');
        put_names(b, cols, ncols);
        gn_buf_putc(b, ')');
    }
}

static const char *join_word(const suql_from *f)
{
    switch (f->join) {
    case SUQL_JOIN_LEFT: return f->natural ? " NATURAL LEFT JOIN " : " LEFT JOIN ";
    case SUQL_JOIN_RIGHT: return f->natural ? " NATURAL RIGHT JOIN " : " RIGHT JOIN ";
    case SUQL_JOIN_FULL: return f->natural ? " NATURAL FULL JOIN " : " FULL JOIN ";
    case SUQL_JOIN_CROSS: return " CROSS JOIN ";
    default: return f->natural ? " NATURAL JOIN " : " JOIN ";
    }
}

static void put_from(gn_buf *b, const suql_from *f)
{
    switch (f->kind) {
    case SUQL_FROM_TABLE:
        put_ident(b, f->table);
        put_alias(b, f->alias, NULL, 0);
        break;
    case SUQL_FROM_SUBQUERY:
        put_subquery(b, f->sub);
        put_alias(b, f->alias, f->cols, f->ncols);
        break;
    case SUQL_FROM_FUNC:
        put_expr(b, f->func, L_NONE);
        put_alias(b, f->alias, f->cols, f->ncols);
        break;
    case SUQL_FROM_JOIN:
        /* Joins group to the left; a join on the right needs parentheses. */
        put_from(b, f->left);
        gn_buf_puts(b, join_word(f));
        if (f->right->kind == SUQL_FROM_JOIN) gn_buf_putc(b, '(');
        put_from(b, f->right);
        if (f->right->kind == SUQL_FROM_JOIN) gn_buf_putc(b, ')');
        if (f->on) {
            gn_buf_puts(b, " ON ");
            put_expr(b, f->on, L_NONE);
        } else if (f->nusing > 0) {
            gn_buf_puts(b, " USING (");
            put_names(b, f->using, f->nusing);
            gn_buf_putc(b, ')');
        }
        break;
    }
}

static void put_ctes(gn_buf *b, const suql_select *s)
{
    gn_buf_puts(b, "WITH ");
    for (int i = 0; i < s->nctes; i++) {
        const suql_cte *c = &s->ctes[i];
        if (i) gn_buf_puts(b, ", ");
        put_ident(b, c->name);
        if (c->ncols > 0) {
            gn_buf_putc(b, '(');
            put_names(b, c->cols, c->ncols);
            gn_buf_putc(b, ')');
        }
        gn_buf_puts(b, " AS ");
        put_subquery(b, c->select);
    }
    gn_buf_putc(b, ' ');
}

static void put_orders(gn_buf *b, const suql_order *v, int n)
{
    for (int i = 0; i < n; i++) {
        const suql_order *o = &v[i];
        if (i) gn_buf_puts(b, ", ");
        put_expr(b, o->expr, L_NONE);
        if (o->desc) gn_buf_puts(b, " DESC");
        if (o->nulls == SUQL_NULLS_FIRST) gn_buf_puts(b, " NULLS FIRST");
        if (o->nulls == SUQL_NULLS_LAST) gn_buf_puts(b, " NULLS LAST");
    }
}

static void put_order(gn_buf *b, const suql_select *s)
{
    gn_buf_puts(b, " ORDER BY ");
    put_orders(b, s->order, s->norder);
}

/* A window's specification: the name alone (OVER w), else in parentheses. */
static void put_window(gn_buf *b, const suql_window *w)
{
    if (w->name && !w->refname && !w->npartition && !w->norder) {
        put_ident(b, w->name);
        return;
    }
    const char *sep = "";
    gn_buf_putc(b, '(');
    if (w->refname) {
        put_ident(b, w->refname);
        sep = " ";
    }
    if (w->npartition) {
        gn_buf_printf(b, "%sPARTITION BY ", sep);
        put_list(b, w->partition, w->npartition);
        sep = " ";
    }
    if (w->norder) {
        gn_buf_printf(b, "%sORDER BY ", sep);
        put_orders(b, w->order, w->norder);
    }
    gn_buf_putc(b, ')');
}

/* UNION and EXCEPT bind alike, INTERSECT tighter (PostgreSQL's grammar). */
static int setop_level(suql_setop op)
{
    return op == SUQL_SET_INTERSECT ? 2 : 1;
}

/* A set operation's operand: bare when the grammar reads it back as the
 * same tree, else in parentheses. */
static void put_operand(gn_buf *b, const suql_select *s, const suql_select *parent, int left)
{
    int bare = s && !s->nctes && !s->norder && !s->limit && !s->offset;
    if (bare && s->op != SUQL_SET_NONE) {
        int lv = setop_level(s->op), plv = setop_level(parent->op);
        bare = left ? lv >= plv : lv > plv;
    }
    if (!bare) gn_buf_putc(b, '(');
    put_select(b, s);
    if (!bare) gn_buf_putc(b, ')');
}

static void put_setop(gn_buf *b, const suql_select *s)
{
    static const char *const words[] = {
        [SUQL_SET_NONE] = "?", [SUQL_SET_UNION] = "UNION",
        [SUQL_SET_INTERSECT] = "INTERSECT", [SUQL_SET_EXCEPT] = "EXCEPT",
    };
    put_operand(b, s->larg, s, 1);
    gn_buf_printf(b, " %s%s ", words[s->op], s->all ? " ALL" : "");
    put_operand(b, s->rarg, s, 0);
}

static void put_windows(gn_buf *b, const suql_select *s)
{
    gn_buf_puts(b, " WINDOW ");
    for (int i = 0; i < s->nwindows; i++) {
        const suql_window *w = &s->windows[i];
        if (i) gn_buf_puts(b, ", ");
        put_ident(b, w->name);
        gn_buf_puts(b, " AS ");
        suql_window spec = *w;
        spec.name = NULL;
        if (!spec.refname && !spec.npartition && !spec.norder) gn_buf_puts(b, "()");
        else put_window(b, &spec);
    }
}

/* One SELECT block, from SELECT to WINDOW. */
static void put_block(gn_buf *b, const suql_select *s)
{
    gn_buf_puts(b, s->distinct ? "SELECT DISTINCT " : "SELECT ");
    if (s->ndistinct_on) {
        gn_buf_puts(b, "DISTINCT ON (");
        put_list(b, s->distinct_on, s->ndistinct_on);
        gn_buf_puts(b, ") ");
    }
    for (int i = 0; i < s->ntargets; i++) {
        if (i) gn_buf_puts(b, ", ");
        put_expr(b, s->targets[i].expr, L_NONE);
        put_alias(b, s->targets[i].alias, NULL, 0);
    }
    for (int i = 0; i < s->nfrom; i++) {
        gn_buf_puts(b, i ? ", " : " FROM ");
        put_from(b, s->from[i]);
    }
    if (s->where) {
        gn_buf_puts(b, " WHERE ");
        put_expr(b, s->where, L_NONE);
    }
    if (s->ngroup > 0) {
        gn_buf_puts(b, " GROUP BY ");
        put_list(b, s->group, s->ngroup);
    }
    if (s->having) {
        gn_buf_puts(b, " HAVING ");
        put_expr(b, s->having, L_NONE);
    }
    if (s->nwindows > 0) put_windows(b, s);
}

static void put_select(gn_buf *b, const suql_select *s)
{
    if (!s) {
        gn_buf_puts(b, "<?>");
        return;
    }
    if (s->nctes > 0) put_ctes(b, s);
    if (s->op != SUQL_SET_NONE) put_setop(b, s);
    else put_block(b, s);
    if (s->norder > 0) put_order(b, s);
    if (s->limit) {
        gn_buf_puts(b, " LIMIT ");
        put_expr(b, s->limit, L_NONE);
    }
    if (s->offset) {
        gn_buf_puts(b, " OFFSET ");
        put_expr(b, s->offset, L_NONE);
    }
}

void suql_print_expr(const suql_expr *e, gn_buf *out)
{
    put_expr(out, e, L_NONE);
}

void suql_print_select(const suql_select *s, gn_buf *out)
{
    put_select(out, s);
}

void suql_print(const suql_query *q, gn_buf *out)
{
    put_select(out, q ? q->select : NULL);
}
