/*
 * parse_stmt.c — PostgreSQL SelectStmt nodes (libpg_query JSON) to SUQL
 * statements: WITH, the select list, FROM items, WHERE, GROUP BY, HAVING,
 * ORDER BY, LIMIT and OFFSET (ast.h).
 *
 * Invariant: as for expressions, every field of a node is either turned
 * into the AST or refuses the query — writes hidden in a SELECT (INTO,
 * FOR UPDATE, INSERT/UPDATE/DELETE in WITH) with GN_EUSAGE, constructs
 * SUQL does not support (window frame clauses, LATERAL subqueries, ...)
 * with GN_EPARSE "unsupported: ...".  A set operation becomes a
 * suql_select with op, larg and rarg (ast.h), as PostgreSQL's own tree.
 *
 * Positions: SelectStmt, JoinExpr and RangeSubselect carry no location in
 * libpg_query; a select is placed on its SELECT keyword (found just before
 * its first column), a join on its left item, a subquery in FROM on its
 * SELECT, and a set operation's error on its UNION/INTERSECT/EXCEPT.
 *
 * Rejected: ignoring LATERAL on subqueries (it changes name resolution);
 * accepting frame clauses by dropping them (the frame changes the values).
 */
#include "suql/parse_int.h"

#include <string.h>

static const char *const select_word[] = { "select", NULL };
static const char *const quantifier_words[] = { "distinct", "all", NULL };
static const char *const setop_words[] = { "union", "intersect", "except", NULL };

static int from_item(suql_pstate *p, const cJSON *node, suql_from **out);

/* Where the statement BODY starts: its WITH or its SELECT keyword. */
static int select_pos(suql_pstate *p, const cJSON *b)
{
    const char *op = suql_str_field(b, "op");
    const cJSON *larg = suql_field(b, "larg");
    if (op && strcmp(op, "SETOP_NONE") && cJSON_IsObject(larg)) return select_pos(p, larg);
    const cJSON *w = suql_field(b, "withClause");
    if (cJSON_IsObject(w)) return suql_loc(p, w);
    const cJSON *t = suql_field(b, "targetList"), *tb;
    if (!cJSON_IsArray(t) || !suql_node(t->child, &tb)) return p->last_pos;
    int pos = suql_loc(p, tb), k;
    if ((k = suql_word_before(p->text, pos, quantifier_words)) >= 0) pos = k;
    if ((k = suql_word_before(p->text, pos, select_word)) >= 0) pos = k;
    return pos;
}

static int select_body(suql_pstate *p, const cJSON *b, suql_select *s);
static int with_clause(suql_pstate *p, const cJSON *w, suql_select *s);
static int order_by(suql_pstate *p, const cJSON *list, suql_select *s);
static int optional_expr(suql_pstate *p, const cJSON *b, const char *key, suql_expr **out);

/* The UNION/INTERSECT/EXCEPT keyword of set operation B (the operands
 * carry no location: it is the word before the right operand). */
static int setop_pos(suql_pstate *p, const cJSON *b)
{
    const cJSON *rarg = suql_field(b, "rarg");
    int pos = cJSON_IsObject(rarg) ? select_pos(p, rarg) : p->last_pos, k;
    if ((k = suql_word_before(p->text, pos, quantifier_words)) >= 0) pos = k;
    if ((k = suql_word_before(p->text, pos, setop_words)) >= 0) pos = k;
    return pos;
}

/* larg UNION/INTERSECT/EXCEPT [ALL] rarg, with WITH, ORDER BY, LIMIT and
 * OFFSET of the whole. */
static int set_operation(suql_pstate *p, const cJSON *b, const char *op, suql_select **out)
{
    static const char *const ok[] = {
        "op", "all", "larg", "rarg", "sortClause", "limitOffset", "limitCount",
        "limitOption", "withClause", NULL
    };
    static const suql_refusal no[] = {
        { "intoClause", "SELECT ... INTO creates a table", GN_EUSAGE },
        { "lockingClause", "FOR UPDATE and FOR SHARE lock rows", GN_EUSAGE },
        { NULL, NULL, 0 }
    };
    int pos = setop_pos(p, b);
    int rc = suql_enter(p, pos);
    if (rc) return rc;
    suql_select *s = *out = suql_select_new(p->q, pos);
    s->op = !strcmp(op, "SETOP_UNION") ? SUQL_SET_UNION
          : !strcmp(op, "SETOP_INTERSECT") ? SUQL_SET_INTERSECT : SUQL_SET_EXCEPT;
    s->all = suql_bool_field(b, "all");
    rc = suql_check_fields(p, b, "SelectStmt", pos, ok, no);
    const char *lo = suql_str_field(b, "limitOption");
    if (!rc && lo && strcmp(lo, "LIMIT_OPTION_DEFAULT") && strcmp(lo, "LIMIT_OPTION_COUNT"))
        rc = suql_unsupported(p, pos, "FETCH FIRST ... WITH TIES");
    const cJSON *w = suql_field(b, "withClause");
    if (!rc && w) rc = with_clause(p, w, s);
    const cJSON *l = suql_field(b, "larg"), *r = suql_field(b, "rarg");
    if (!rc && (!cJSON_IsObject(l) || !cJSON_IsObject(r)))
        rc = suql_fail(p, GN_EPARSE, pos, "malformed parse tree (set operation)");
    if (!rc) rc = suql_parse_select(p, l, &s->larg);
    if (!rc) rc = suql_parse_select(p, r, &s->rarg);
    if (!rc) rc = order_by(p, suql_field(b, "sortClause"), s);
    if (!rc) rc = optional_expr(p, b, "limitCount", &s->limit);
    if (!rc) rc = optional_expr(p, b, "limitOffset", &s->offset);
    suql_leave(p);
    return rc;
}

/* ---- WITH ----------------------------------------------------------- */

static const struct { const char *type, *word; } write_stmts[] = {
    { "InsertStmt", "INSERT" }, { "UpdateStmt", "UPDATE" },
    { "DeleteStmt", "DELETE" }, { "MergeStmt", "MERGE" },
};

static int cte(suql_pstate *p, const cJSON *node, suql_cte *c)
{
    static const char *const ok[] = {
        "ctename", "aliascolnames", "ctematerialized", "ctequery", "location", NULL
    };
    static const suql_refusal no[] = {
        { "search_clause", "SEARCH in WITH", GN_EPARSE },
        { "cycle_clause", "CYCLE in WITH", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    const cJSON *b, *qb;
    const char *t = suql_node(node, &b);
    if (!t || strcmp(t, "CommonTableExpr"))
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (WITH)");
    int pos = c->pos = suql_loc(p, b);
    int rc = suql_check_fields(p, b, "CommonTableExpr", pos, ok, no);
    if (rc) return rc;
    const char *m = suql_str_field(b, "ctematerialized");
    if (m && strcmp(m, "CTEMaterializeDefault"))
        return suql_unsupported(p, pos, "MATERIALIZED and NOT MATERIALIZED");
    c->name = suql_strdup(p->q, suql_str_field(b, "ctename"));
    if (!c->name) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (WITH name)");
    rc = suql_name_list(p, suql_field(b, "aliascolnames"), pos, &c->cols, &c->ncols);
    if (rc) return rc;
    const char *qt = suql_node(suql_field(b, "ctequery"), &qb);
    for (size_t i = 0; qt && i < sizeof write_stmts / sizeof *write_stmts; i++)
        if (!strcmp(qt, write_stmts[i].type))
            return suql_fail(p, GN_EUSAGE, pos, "only a single SELECT query is allowed "
                             "(%s inside WITH modifies data)", write_stmts[i].word);
    if (!qt || strcmp(qt, "SelectStmt"))
        return suql_unsupported(p, pos, "this statement inside WITH");
    return suql_parse_select(p, qb, &c->select);
}

static int with_clause(suql_pstate *p, const cJSON *w, suql_select *s)
{
    static const char *const ok[] = { "ctes", "location", NULL };
    static const suql_refusal no[] = {
        { "recursive", "WITH RECURSIVE", GN_EPARSE }, { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, w, "WithClause", s->pos, ok, no);
    if (rc) return rc;
    const cJSON *ctes = suql_field(w, "ctes");
    s->nctes = cJSON_IsArray(ctes) ? cJSON_GetArraySize(ctes) : 0;
    s->ctes = suql_array_new(p->q, s->nctes, sizeof *s->ctes);
    int i = 0;
    for (const cJSON *it = s->nctes ? ctes->child : NULL; it && !rc; it = it->next)
        rc = cte(p, it, &s->ctes[i++]);
    return rc;
}

/* ---- FROM ----------------------------------------------------------- */

/* An Alias (not a node: the object itself); cols only when WITH_COLS. */
static int alias(suql_pstate *p, const cJSON *a, int pos, suql_from *f, int with_cols)
{
    static const char *const ok[] = { "aliasname", "colnames", NULL };
    if (!a) return 0;
    int rc = suql_check_fields(p, a, "Alias", pos, ok, NULL);
    if (rc) return rc;
    f->alias = suql_strdup(p->q, suql_str_field(a, "aliasname"));
    if (suql_field(a, "colnames") && !with_cols)
        return suql_unsupported(p, pos, "column aliases on a table");
    return suql_name_list(p, suql_field(a, "colnames"), pos, &f->cols, &f->ncols);
}

static int range_var(suql_pstate *p, const cJSON *b, suql_from **out)
{
    static const char *const ok[] = {
        "relname", "inh", "relpersistence", "alias", "location", "schemaname", NULL
    };
    static const suql_refusal no[] = {
        { "catalogname", "catalog-qualified table names", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int pos = suql_loc(p, b);
    int rc = suql_check_fields(p, b, "RangeVar", pos, ok, no);
    if (rc) return rc;
    /* The knowledge base is PostgreSQL's default schema: public.t is t. */
    const char *schema = suql_str_field(b, "schemaname");
    if (schema && strcmp(schema, "public"))
        return suql_unsupported(p, pos, "schema-qualified table names (other than public.)");
    suql_from *f = *out = suql_from_new(p->q, SUQL_FROM_TABLE, pos);
    f->table = suql_strdup(p->q, suql_str_field(b, "relname"));
    if (!f->table) return suql_fail(p, GN_EPARSE, pos, "malformed parse tree (table)");
    return alias(p, suql_field(b, "alias"), pos, f, 0);
}

static int join_expr(suql_pstate *p, const cJSON *b, suql_from **out)
{
    static const char *const ok[] = {
        "jointype", "isNatural", "larg", "rarg", "usingClause", "quals", "rtindex", NULL
    };
    static const suql_refusal no[] = {
        { "alias", "an alias on a join", GN_EPARSE },
        { "join_using_alias", "an alias on USING", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int pos = p->last_pos;
    int rc = suql_check_fields(p, b, "JoinExpr", pos, ok, no);
    if (rc) return rc;
    suql_from *f = *out = suql_from_new(p->q, SUQL_FROM_JOIN, pos);
    if ((rc = from_item(p, suql_field(b, "larg"), &f->left))) return rc;
    if ((rc = from_item(p, suql_field(b, "rarg"), &f->right))) return rc;
    f->pos = f->left->pos;
    f->natural = suql_bool_field(b, "isNatural");
    const char *jt = suql_str_field(b, "jointype");
    if (!jt || !strcmp(jt, "JOIN_INNER")) f->join = SUQL_JOIN_INNER;
    else if (!strcmp(jt, "JOIN_LEFT")) f->join = SUQL_JOIN_LEFT;
    else if (!strcmp(jt, "JOIN_RIGHT")) f->join = SUQL_JOIN_RIGHT;
    else if (!strcmp(jt, "JOIN_FULL")) f->join = SUQL_JOIN_FULL;
    else return suql_fail(p, GN_EPARSE, f->pos, "unsupported: join type %s", jt);
    rc = suql_name_list(p, suql_field(b, "usingClause"), f->pos, &f->using, &f->nusing);
    if (!rc && suql_field(b, "quals")) rc = suql_parse_expr(p, suql_field(b, "quals"), &f->on);
    if (!rc && f->join == SUQL_JOIN_INNER && !f->natural && !f->on && !f->nusing)
        f->join = SUQL_JOIN_CROSS;
    return rc;
}

static int range_subselect(suql_pstate *p, const cJSON *b, suql_from **out)
{
    static const char *const ok[] = { "subquery", "alias", NULL };
    static const char *const lateral[] = { "lateral", NULL };
    const cJSON *sb;
    const char *t = suql_node(suql_field(b, "subquery"), &sb);
    if (!t || strcmp(t, "SelectStmt"))
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (subquery in FROM)");
    int pos = select_pos(p, sb);
    if (suql_bool_field(b, "lateral")) {
        int k = suql_word_before(p->text, pos, lateral);
        return suql_unsupported(p, k >= 0 ? k : pos, "LATERAL subqueries");
    }
    int rc = suql_check_fields(p, b, "RangeSubselect", pos, ok, NULL);
    if (rc) return rc;
    suql_from *f = *out = suql_from_new(p->q, SUQL_FROM_SUBQUERY, pos);
    if ((rc = suql_parse_select(p, sb, &f->sub))) return rc;
    return alias(p, suql_field(b, "alias"), pos, f, 1);
}

/* A function in FROM, e.g. unnest(reviews) AS r.  LATERAL is accepted and
 * dropped: PostgreSQL treats functions in FROM as lateral anyway. */
static int range_function(suql_pstate *p, const cJSON *b, suql_from **out)
{
    static const char *const ok[] = { "lateral", "functions", "alias", NULL };
    static const suql_refusal no[] = {
        { "ordinality", "WITH ORDINALITY", GN_EPARSE },
        { "is_rowsfrom", "ROWS FROM (...)", GN_EPARSE },
        { "coldeflist", "column definition lists", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, b, "RangeFunction", p->last_pos, ok, no);
    if (rc) return rc;
    /* functions: [ {"List": {"items": [call, coldeflist or {}]}} ] */
    const cJSON *fl = suql_field(b, "functions"), *lb;
    const char *lt = cJSON_GetArraySize(fl) == 1 ? suql_node(fl->child, &lb) : NULL;
    const cJSON *items = lt && !strcmp(lt, "List") ? suql_field(lb, "items") : NULL;
    if (!cJSON_IsArray(items) || !items->child)
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (function in FROM)");
    const cJSON *coldef = items->child->next;
    if (coldef && !(cJSON_IsObject(coldef) && !coldef->child))
        return suql_unsupported(p, p->last_pos, "column definition lists");
    suql_from *f = *out = suql_from_new(p->q, SUQL_FROM_FUNC, p->last_pos);
    if ((rc = suql_parse_expr(p, items->child, &f->func))) return rc;
    f->pos = f->func->pos;
    if (f->func->kind != SUQL_E_FUNC)
        return suql_fail(p, GN_EPARSE, f->pos, "unsupported: %s in FROM (only a function call, "
                         "such as unnest(column))", suql_kind_name(f->func->kind));
    return alias(p, suql_field(b, "alias"), f->pos, f, 1);
}

static const struct { const char *type, *what; } refused_from[] = {
    { "RangeTableSample", "TABLESAMPLE" },
    { "RangeTableFunc", "XMLTABLE" },
    { "JsonTable", "JSON_TABLE" },
};

static int from_item(suql_pstate *p, const cJSON *node, suql_from **out)
{
    const cJSON *b;
    const char *t = suql_node(node, &b);
    if (!t) return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (FROM)");
    /* Only RangeVar has a location: place the others on their first token
     * that has one (p->last_pos, read by the handlers). */
    int pos = suql_field(b, "location") ? suql_loc(p, b) : suql_first_loc(p, b);
    for (size_t i = 0; i < sizeof refused_from / sizeof *refused_from; i++)
        if (!strcmp(t, refused_from[i].type)) return suql_unsupported(p, pos, refused_from[i].what);
    int rc = suql_enter(p, pos);
    if (rc) return rc;
    if (!strcmp(t, "RangeVar")) rc = range_var(p, b, out);
    else if (!strcmp(t, "JoinExpr")) rc = join_expr(p, b, out);
    else if (!strcmp(t, "RangeSubselect")) rc = range_subselect(p, b, out);
    else if (!strcmp(t, "RangeFunction")) rc = range_function(p, b, out);
    else rc = suql_fail(p, GN_EPARSE, p->last_pos, "unsupported: %s in FROM", t);
    suql_leave(p);
    return rc;
}

static int from_clause(suql_pstate *p, const cJSON *list, suql_select *s)
{
    s->nfrom = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    s->from = suql_array_new(p->q, s->nfrom, sizeof *s->from);
    int i = 0, rc = 0;
    for (const cJSON *it = s->nfrom ? list->child : NULL; it && !rc; it = it->next)
        rc = from_item(p, it, &s->from[i++]);
    return rc;
}

/* ---- the select list and ORDER BY ----------------------------------- */

static int targets(suql_pstate *p, const cJSON *list, suql_select *s)
{
    static const char *const ok[] = { "name", "val", "location", NULL };
    static const suql_refusal no[] = {
        { "indirection", "subscripts in the select list", GN_EPARSE }, { NULL, NULL, 0 }
    };
    s->ntargets = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    if (s->ntargets == 0) return suql_fail(p, GN_EPARSE, s->pos, "SELECT without columns");
    s->targets = suql_array_new(p->q, s->ntargets, sizeof *s->targets);
    int i = 0;
    for (const cJSON *it = list->child; it; it = it->next, i++) {
        const cJSON *b;
        const char *t = suql_node(it, &b);
        if (!t || strcmp(t, "ResTarget"))
            return suql_fail(p, GN_EPARSE, s->pos, "malformed parse tree (select list)");
        int pos = suql_loc(p, b);
        int rc = suql_check_fields(p, b, "ResTarget", pos, ok, no);
        if (!rc) rc = suql_parse_expr(p, suql_field(b, "val"), &s->targets[i].expr);
        if (rc) return rc;
        s->targets[i].alias = suql_strdup(p->q, suql_str_field(b, "name"));
    }
    return 0;
}

static int sort_key(suql_pstate *p, const cJSON *node, suql_order *o)
{
    static const char *const ok[] = { "node", "sortby_dir", "sortby_nulls", "location", NULL };
    static const suql_refusal no[] = {
        { "useOp", "ORDER BY ... USING", GN_EPARSE }, { NULL, NULL, 0 }
    };
    const cJSON *b;
    const char *t = suql_node(node, &b);
    if (!t || strcmp(t, "SortBy"))
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (ORDER BY)");
    int rc = suql_parse_expr(p, suql_field(b, "node"), &o->expr);
    if (!rc) rc = suql_check_fields(p, b, "SortBy", o->expr->pos, ok, no);
    if (rc) return rc;
    const char *dir = suql_str_field(b, "sortby_dir"), *nulls = suql_str_field(b, "sortby_nulls");
    o->desc = dir && !strcmp(dir, "SORTBY_DESC");
    o->nulls = !nulls ? SUQL_NULLS_DEFAULT
             : !strcmp(nulls, "SORTBY_NULLS_FIRST") ? SUQL_NULLS_FIRST
             : !strcmp(nulls, "SORTBY_NULLS_LAST") ? SUQL_NULLS_LAST : SUQL_NULLS_DEFAULT;
    return 0;
}

int suql_parse_sort(suql_pstate *p, const cJSON *list, suql_order **out, int *n)
{
    *n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    *out = suql_array_new(p->q, *n, sizeof **out);
    int i = 0, rc = 0;
    for (const cJSON *it = *n ? list->child : NULL; it && !rc; it = it->next)
        rc = sort_key(p, it, &(*out)[i++]);
    return rc;
}

static int order_by(suql_pstate *p, const cJSON *list, suql_select *s)
{
    return suql_parse_sort(p, list, &s->order, &s->norder);
}

/* ---- the statement -------------------------------------------------- */

/* DISTINCT is a list holding one empty node; DISTINCT ON lists expressions. */
static int distinct(suql_pstate *p, const cJSON *list, suql_select *s)
{
    if (!list) return 0;
    if (cJSON_GetArraySize(list) == 1 && cJSON_IsObject(list->child) && !list->child->child) {
        s->distinct = 1;
        return 0;
    }
    return suql_parse_exprs(p, list, &s->distinct_on, &s->ndistinct_on);
}

/* ---- windows -------------------------------------------------------- */

int suql_parse_window(suql_pstate *p, const cJSON *b, suql_window **out)
{
    static const char *const ok[] = {
        "name", "refname", "partitionClause", "orderClause", "frameOptions", "location", NULL
    };
    static const suql_refusal no[] = {
        { "startOffset", "window frame clauses (ROWS, RANGE, GROUPS)", GN_EPARSE },
        { "endOffset", "window frame clauses (ROWS, RANGE, GROUPS)", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    /* RANGE UNBOUNDED PRECEDING to CURRENT ROW: the default frame. */
    enum { DEFAULT_FRAME = 0x00002 | 0x00020 | 0x00400 };
    if (!cJSON_IsObject(b))
        return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (window)");
    int pos = suql_loc(p, b);
    int rc = suql_check_fields(p, b, "WindowDef", pos, ok, no);
    if (rc) return rc;
    const cJSON *fo = suql_field(b, "frameOptions");
    if (fo && (!cJSON_IsNumber(fo) || fo->valueint != DEFAULT_FRAME))
        return suql_unsupported(p, pos, "window frame clauses (ROWS, RANGE, GROUPS)");
    suql_window *w = *out = suql_array_new(p->q, 1, sizeof *w);
    w->pos = pos;
    w->name = suql_strdup(p->q, suql_str_field(b, "name"));
    w->refname = suql_strdup(p->q, suql_str_field(b, "refname"));
    rc = suql_parse_exprs(p, suql_field(b, "partitionClause"), &w->partition, &w->npartition);
    if (!rc) rc = suql_parse_sort(p, suql_field(b, "orderClause"), &w->order, &w->norder);
    return rc;
}

static int window_clause(suql_pstate *p, const cJSON *list, suql_select *s)
{
    s->nwindows = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    s->windows = suql_array_new(p->q, s->nwindows, sizeof *s->windows);
    int i = 0;
    for (const cJSON *it = s->nwindows ? list->child : NULL; it; it = it->next, i++) {
        suql_window *w;
        const cJSON *b;
        const char *t = suql_node(it, &b);
        if (!t || strcmp(t, "WindowDef"))
            return suql_fail(p, GN_EPARSE, p->last_pos, "malformed parse tree (WINDOW)");
        int rc = suql_parse_window(p, b, &w);
        if (rc) return rc;
        if (!w->name) return suql_fail(p, GN_EPARSE, w->pos, "malformed parse tree (WINDOW)");
        s->windows[i] = *w;
    }
    return 0;
}

static int optional_expr(suql_pstate *p, const cJSON *b, const char *key, suql_expr **out)
{
    const cJSON *n = suql_field(b, key);
    return n ? suql_parse_expr(p, n, out) : 0;
}

static int select_body(suql_pstate *p, const cJSON *b, suql_select *s)
{
    static const char *const ok[] = {
        "distinctClause", "targetList", "fromClause", "whereClause", "groupClause",
        "havingClause", "sortClause", "limitOffset", "limitCount", "limitOption",
        "withClause", "windowClause", "op", NULL
    };
    static const suql_refusal no[] = {
        { "intoClause", "SELECT ... INTO creates a table", GN_EUSAGE },
        { "lockingClause", "FOR UPDATE and FOR SHARE lock rows", GN_EUSAGE },
        { "valuesLists", "VALUES", GN_EPARSE },
        { "groupDistinct", "GROUP BY DISTINCT", GN_EPARSE },
        { NULL, NULL, 0 }
    };
    int rc = suql_check_fields(p, b, "SelectStmt", s->pos, ok, no);
    if (rc) return rc;
    const char *lo = suql_str_field(b, "limitOption");
    if (lo && strcmp(lo, "LIMIT_OPTION_DEFAULT") && strcmp(lo, "LIMIT_OPTION_COUNT"))
        return suql_unsupported(p, s->pos, "FETCH FIRST ... WITH TIES");
    const cJSON *w = suql_field(b, "withClause");
    if (w && (rc = with_clause(p, w, s))) return rc;
    if ((rc = distinct(p, suql_field(b, "distinctClause"), s))) return rc;
    if ((rc = targets(p, suql_field(b, "targetList"), s))) return rc;
    if ((rc = from_clause(p, suql_field(b, "fromClause"), s))) return rc;
    if ((rc = optional_expr(p, b, "whereClause", &s->where))) return rc;
    if ((rc = suql_parse_exprs(p, suql_field(b, "groupClause"), &s->group, &s->ngroup))) return rc;
    if ((rc = optional_expr(p, b, "havingClause", &s->having))) return rc;
    if ((rc = window_clause(p, suql_field(b, "windowClause"), s))) return rc;
    if ((rc = order_by(p, suql_field(b, "sortClause"), s))) return rc;
    if ((rc = optional_expr(p, b, "limitCount", &s->limit))) return rc;
    return optional_expr(p, b, "limitOffset", &s->offset);
}

int suql_parse_select(suql_pstate *p, const cJSON *b, suql_select **out)
{
    int pos = select_pos(p, b);
    *out = NULL;
    const char *op = suql_str_field(b, "op");
    if (op && strcmp(op, "SETOP_NONE")) return set_operation(p, b, op, out);
    int rc = suql_enter(p, pos);
    if (rc) return rc;
    suql_select *s = *out = suql_select_new(p->q, pos);
    p->last_pos = pos;
    rc = select_body(p, b, s);
    suql_leave(p);
    return rc;
}
