/*
 * parse.c — suql_parse: limits, libpg_query, the one-SELECT rule, error
 * positions and carets (parse.h); the JSON helpers of the walkers.
 *
 * Flow: length, UTF-8 and operator-count checks on the raw text (the last
 * protects libpg_query, which recurses once per tree level and would
 * overflow the stack on 100 000 chained operators); pg_query_parse to JSON;
 * cJSON; the statement list must hold exactly one SelectStmt; the walkers
 * (parse_stmt.c, parse_expr.c) build the AST in the query's arena.
 *
 * Invariant: a walker either handles every field of a node or refuses the
 * node (suql_check_fields), so nothing the user wrote is silently dropped;
 * and any failure leaves *out NULL with everything freed.
 *
 * libpg_query 15-4.0.0 quirk: its JSON leaves out the value of a negative
 * Integer ("ival": {} for -5, as for 0), so a negative integer constant is
 * read back from the query text at its location (parse_expr.c).
 *
 * Rejected: the protobuf output (needs protobuf-c and generated code for
 * one format; the JSON is as complete, bar the quirk above); a grammar of
 * our own (PostgreSQL's is what the LLM writes and what SUQL is defined
 * on); pg_query_split to find statements (the parse already lists them).
 */
#include "suql/parse.h"
#include "suql/parse_int.h"

#include "util/xmem.h"

#include <pg_query.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- positions ------------------------------------------------------ */

void suql_linecol(const char *text, int pos, int *line, int *col)
{
    int l = 1, c = 1;
    for (int i = 0; i < pos && text[i]; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n') {
            l++;
            c = 1;
        } else if ((ch & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static int vset_at(gn_err *e, int code, const char *text, int pos,
                   const char *fmt, va_list ap)
{
    char msg[sizeof e->msg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int line = 0, col = 0;
    if (pos >= 0 && text) suql_linecol(text, pos, &line, &col);
    return gn_err_setpos(e, code, NULL, line, col, "%s", msg);
}

int suql_error_at(gn_err *e, int code, const suql_query *q, int pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset_at(e, code, q ? q->text : NULL, pos, fmt, ap);
    va_end(ap);
    return code;
}

int suql_fail(suql_pstate *p, int code, int pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset_at(p->e, code, p->text, pos, fmt, ap);
    va_end(ap);
    return code;
}

int suql_unsupported(suql_pstate *p, int pos, const char *what)
{
    return suql_fail(p, GN_EPARSE, pos, "unsupported: %s", what);
}

int suql_enter(suql_pstate *p, int pos)
{
    if (p->depth >= SUQL_MAX_DEPTH)
        return suql_fail(p, GN_ELIMIT, pos, "query nested too deeply (more than %d levels)",
                         SUQL_MAX_DEPTH);
    p->depth++;
    return 0;
}

void suql_leave(suql_pstate *p)
{
    p->depth--;
}

/* ---- JSON access ---------------------------------------------------- */

const char *suql_node(const cJSON *node, const cJSON **body)
{
    if (!cJSON_IsObject(node) || !node->child || node->child->next) return NULL;
    *body = node->child;
    return node->child->string;
}

const cJSON *suql_field(const cJSON *body, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(body, key);
}

int suql_int_field(const cJSON *body, const char *key)
{
    const cJSON *v = suql_field(body, key);
    return cJSON_IsNumber(v) ? v->valueint : 0;
}

int suql_bool_field(const cJSON *body, const char *key)
{
    return cJSON_IsTrue(suql_field(body, key));
}

const char *suql_str_field(const cJSON *body, const char *key)
{
    const cJSON *v = suql_field(body, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int suql_loc(suql_pstate *p, const cJSON *body)
{
    const cJSON *v = suql_field(body, "location");
    int loc = v ? (cJSON_IsNumber(v) ? v->valueint : -1) : 0;
    if (loc < 0 || (size_t)loc > p->len) return p->last_pos;
    p->last_pos = loc;
    return loc;
}

/* The smallest location in the subtree N, or -1. */
static int min_loc(const cJSON *n)
{
    int best = -1;
    for (const cJSON *c = n ? n->child : NULL; c; c = c->next) {
        int l = c->string && !strcmp(c->string, "location") && cJSON_IsNumber(c) ? c->valueint
                                                                                  : min_loc(c);
        if (l >= 0 && (best < 0 || l < best)) best = l;
    }
    return best;
}

int suql_first_loc(suql_pstate *p, const cJSON *body)
{
    int loc = min_loc(body);
    if (loc < 0 || (size_t)loc > p->len) return p->last_pos;
    p->last_pos = loc;
    return loc;
}

int suql_list_len(const cJSON *body, const char *key)
{
    const cJSON *v = suql_field(body, key);
    return cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
}

const char *suql_string_node(const cJSON *node)
{
    const cJSON *b;
    const char *t = suql_node(node, &b);
    if (!t || strcmp(t, "String")) return NULL;
    const char *s = suql_str_field(b, "sval");
    return s ? s : "";   /* an empty sval is left out */
}

int suql_name_list(suql_pstate *p, const cJSON *list, int pos, const char ***out, int *n)
{
    int cnt = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    const char **v = suql_array_new(p->q, cnt, sizeof *v);
    int i = 0;
    for (const cJSON *it = list ? list->child : NULL; it; it = it->next, i++) {
        const char *s = suql_string_node(it);
        if (!s) return suql_unsupported(p, pos, "a name that is not an identifier");
        v[i] = suql_strdup(p->q, s);
    }
    *out = v;
    *n = cnt;
    return 0;
}

int suql_check_fields(suql_pstate *p, const cJSON *body, const char *node, int pos,
                      const char *const *allowed, const suql_refusal *refused)
{
    for (const cJSON *f = body->child; f; f = f->next) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++) ok = !strcmp(f->string, allowed[i]);
        if (ok) continue;
        for (int i = 0; refused && refused[i].key; i++) {
            if (strcmp(f->string, refused[i].key)) continue;
            if (refused[i].code == GN_EUSAGE)
                return suql_fail(p, GN_EUSAGE, pos,
                                 "only a single SELECT query is allowed (%s)", refused[i].what);
            return suql_unsupported(p, pos, refused[i].what);
        }
        return suql_fail(p, GN_EPARSE, pos, "unsupported: %s.%s", node, f->string);
    }
    return 0;
}

/* ---- statements ----------------------------------------------------- */

static int pg_error(suql_pstate *p, const PgQueryError *err)
{
    const char *m = err->message ? err->message : "syntax error";
    int code = strstr(m, "memory exhausted") || strstr(m, "stack depth") ? GN_ELIMIT : GN_EPARSE;
    if (err->cursorpos <= 0) return suql_fail(p, code, -1, "%s", m);
    /* cursorpos counts characters from 1; we want a byte offset. */
    int pos = 0;
    for (int chars = 1; (size_t)pos < p->len; pos++) {
        if (((unsigned char)p->text[pos] & 0xC0) == 0x80) continue;
        if (chars++ == err->cursorpos) break;
    }
    return suql_fail(p, code, pos, "%s", m);
}

static const struct { const char *type, *name; } stmt_names[] = {
    { "InsertStmt", "INSERT" }, { "UpdateStmt", "UPDATE" }, { "DeleteStmt", "DELETE" },
    { "MergeStmt", "MERGE" }, { "CreateStmt", "CREATE TABLE" },
    { "CreateTableAsStmt", "CREATE TABLE AS" }, { "DropStmt", "DROP" },
    { "AlterTableStmt", "ALTER TABLE" }, { "TruncateStmt", "TRUNCATE" },
    { "CopyStmt", "COPY" }, { "VariableSetStmt", "SET" }, { "VariableShowStmt", "SHOW" },
    { "ExplainStmt", "EXPLAIN" }, { "TransactionStmt", "a transaction command" },
    { "GrantStmt", "GRANT" }, { "IndexStmt", "CREATE INDEX" }, { "ViewStmt", "CREATE VIEW" },
    { "DoStmt", "DO" }, { "CallStmt", "CALL" }, { "PrepareStmt", "PREPARE" },
    { "ExecuteStmt", "EXECUTE" }, { "VacuumStmt", "VACUUM" }, { "LockStmt", "LOCK" },
    { "CreateFunctionStmt", "CREATE FUNCTION" }, { "LoadStmt", "LOAD" },
};

/* "DELETE" for DeleteStmt; the node type itself when not listed. */
static const char *stmt_name(const char *type)
{
    if (!type) return "an unknown statement";
    for (size_t i = 0; i < sizeof stmt_names / sizeof *stmt_names; i++)
        if (!strcmp(type, stmt_names[i].type)) return stmt_names[i].name;
    return type;
}

static int stmt_pos(suql_pstate *p, const cJSON *raw)
{
    return suql_skip_blank(p->text, p->len, suql_int_field(raw, "stmt_location"));
}

/* The statement list: exactly one, and a SELECT. */
static int one_select(suql_pstate *p, const cJSON *tree, const cJSON **body)
{
    const cJSON *stmts = suql_field(tree, "stmts");
    int n = cJSON_IsArray(stmts) ? cJSON_GetArraySize(stmts) : 0;
    if (n == 0) return suql_fail(p, GN_EPARSE, -1, "empty query: expected a SELECT");
    const cJSON *raw = stmts->child;
    const char *type = suql_node(suql_field(raw, "stmt"), body);
    if (!type || strcmp(type, "SelectStmt"))
        return suql_fail(p, GN_EUSAGE, stmt_pos(p, raw),
                         "only a single SELECT query is allowed (found %s)", stmt_name(type));
    if (n > 1)
        return suql_fail(p, GN_EUSAGE, stmt_pos(p, raw->next),
                         "only a single SELECT query is allowed (found %d statements)", n);
    return 0;
}

static int check_text(suql_pstate *p)
{
    if (p->len > SUQL_MAX_QUERY)
        return suql_fail(p, GN_ELIMIT, -1, "query too long (%zu bytes; the limit is %zu)",
                         p->len, SUQL_MAX_QUERY);
    long bad = suql_bad_utf8(p->text, p->len);
    if (bad >= 0) return suql_fail(p, GN_EPARSE, (int)bad, "invalid UTF-8 in the query");
    long at = suql_scan_complexity(p->text, p->len, SUQL_MAX_OPERATORS);
    if (at >= 0)
        return suql_fail(p, GN_ELIMIT, (int)at, "query too complex (more than %d operators)",
                         SUQL_MAX_OPERATORS);
    return 0;
}

static int parse_tree(suql_pstate *p)
{
    PgQueryParseResult r = pg_query_parse(p->text);
    int rc = 0;
    cJSON *tree = NULL;
    if (r.error) {
        rc = pg_error(p, r.error);
    } else if (!(tree = cJSON_Parse(r.parse_tree))) {
        /* libpg_query's JSON is well-formed: only cJSON's nesting limit
         * rejects it, and SUQL_MAX_DEPTH normally fires first. */
        rc = suql_fail(p, GN_ELIMIT, -1, "query nested too deeply");
    } else {
        const cJSON *body = NULL;
        rc = one_select(p, tree, &body);
        if (!rc) rc = suql_parse_select(p, body, &p->q->select);
    }
    cJSON_Delete(tree);
    pg_query_free_parse_result(r);
    return rc;
}

int suql_parse(const char *text, suql_query **out, gn_err *e)
{
    *out = NULL;
    gn_err_clear(e);
    if (!text) return gn_err_set(e, GN_EUSAGE, "no query");
    suql_pstate p = { .text = text, .len = strlen(text), .e = e };
    int rc = check_text(&p);
    if (rc) return rc;
    p.q = suql_query_new(text);
    p.text = p.q->text;
    rc = parse_tree(&p);
    if (rc) {
        suql_query_free(p.q);
        return rc;
    }
    *out = p.q;
    return 0;
}

/* ---- carets --------------------------------------------------------- */

#define CARET_WIDTH 100   /* characters shown of a long line */
#define CARET_LEAD  60    /* of them, before the caret */

/* Byte offset of the N-th character after S (stopping at END). */
static const char *skip_chars(const char *s, const char *end, int n)
{
    while (s < end && n > 0) {
        s++;
        while (s < end && ((unsigned char)*s & 0xC0) == 0x80) s++;
        n--;
    }
    return s;
}

static void put_shown(gn_buf *out, const char *s, const char *end, int caret_line)
{
    for (; s < end; s++) {
        unsigned char c = (unsigned char)*s;
        if (caret_line) {
            if ((c & 0xC0) == 0x80) continue;
            gn_buf_putc(out, c == '\t' ? '\t' : ' ');
        } else {
            gn_buf_putc(out, c < 0x20 && c != '\t' ? ' ' : (char)c);
        }
    }
}

void suql_error_caret(const char *text, const gn_err *e, gn_buf *out)
{
    if (!text || !e || e->line < 1) return;
    const char *ls = text;
    for (int l = 1; l < e->line; l++) {
        const char *nl = strchr(ls, '\n');
        if (!nl) return;
        ls = nl + 1;
    }
    const char *le = ls + strcspn(ls, "\n");
    if (le > ls && le[-1] == '\r') le--;
    int col = e->col > 0 ? e->col : 1;
    const char *at = skip_chars(ls, le, col - 1);
    const char *from = ls, *to = le;
    int lead = 0, tail = 0;
    if (skip_chars(ls, le, CARET_WIDTH) < le) {
        int start = col - 1 > CARET_LEAD ? col - 1 - CARET_LEAD : 0;
        from = skip_chars(ls, le, start);
        to = skip_chars(from, le, CARET_WIDTH);
        lead = from > ls;
        tail = to < le;
    }
    if (lead) gn_buf_puts(out, "...");
    put_shown(out, from, to, 0);
    if (tail) gn_buf_puts(out, "...");
    gn_buf_putc(out, '\n');
    if (lead) gn_buf_puts(out, "   ");
    put_shown(out, from, at, 1);
    gn_buf_puts(out, "^\n");
}
