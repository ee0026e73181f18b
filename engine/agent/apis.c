/*
 * apis.c — the agent's backend APIs: apis.ini, and calling them for the
 * worksheet interpreter (ws_host).
 *
 * An API is either SQL run on the writable database or an HTTP endpoint.
 * A SQL API's statements run in order inside one BEGIN IMMEDIATE ...
 * COMMIT: the invariant is that a call either applies all of its
 * statements or none (any failure rolls back), so a booking that fails its
 * second INSERT leaves no half-written row from the first.  Parameters
 * bind by name from the call's arguments (`:name`, `@name`, `$name`;
 * `?`/`?N` take the positional ones; `$restaurant::location`, a part of
 * the knowledge-base row an argument names, see ws_state_arg), and
 * `:txn_id` is a fresh
 * transaction id the result reports.  An HTTP API gets the arguments as a
 * JSON body (POST) or a query string (GET); its JSON object reply is the
 * result.  The request is util/http.h's, with genie's policy (http and
 * https only, user agent), the API's timeout for each attempt and a
 * bounded reply.  Retries follow one rule: a GET only reads, so it is
 * retried as any idempotent request (connection failures, timeouts, 408,
 * 409, 429, 5xx); a POST may book, so it is sent again only when the first
 * cannot have been acted on — no connection was made (the name did not
 * resolve, the connection was refused or timed out while connecting) or
 * the server answered 429, or 503 with Retry-After — never after a reset,
 * a timeout once connected, a 500 or a 504, when the booking may exist.
 *
 * With a scope (the saved conversation), a call is recorded with its
 * writes, in the same transaction, and a call made again from a turn
 * that was never saved returns what was recorded (see ag_api_host in
 * agent.h): a crash between a booking and the saving of its turn cannot
 * book twice.
 *
 * Rejected: building SQL by pasting argument text in (injection, quoting);
 * a transaction per statement (partial bookings); following HTTP
 * redirects (a POST silently turned into a GET); an unbounded response
 * buffer (a misbehaving endpoint could exhaust memory mid-turn);
 * rand()/modulo for transaction ids (predictable, biased).
 */
#include "agent/agent_int.h"
#include "util/buf.h"
#include "util/check.h"
#include "util/http.h"
#include "util/xmem.h"

#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#define MAX_RESPONSE (1u << 20)
#define MAX_ROWS 1000
#define DEFAULT_HTTP_TIMEOUT 15.0

/* ---- apis.ini ------------------------------------------------------------ */

enum { A_SQL, A_URL, A_METHOD, A_TIMEOUT, A_HEADER, A__COUNT };
static const char *const api_keys[A__COUNT] = { "sql", "url", "method", "timeout", "header" };

typedef struct apis_ctx {
    ag_api *v;
    int n, cap;
    int line[A__COUNT];       /* where the current API set each key */
    int cur;                  /* the key being set, for continuation lines */
} apis_ctx;

static int is_ident(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9')) return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int on_api_section(apis_ctx *c, const ag_ini_item *it, gn_err *e)
{
    if (!is_ident(it->section))
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API name '%s' is not "
                             "an identifier (letters, digits, _)", it->section);
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->v[i].name, it->section))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s is declared "
                                 "twice (first on line %d)", it->section, c->v[i].line);
    if (c->n == c->cap) c->v = xrealloc(c->v, sizeof *c->v * (size_t)(c->cap = c->cap ? 2 * c->cap : 8));
    c->v[c->n++] = (ag_api){ .name = xstrdup(it->section), .line = it->line };
    memset(c->line, 0, sizeof c->line);
    c->cur = -1;
    return 0;
}

/* A key setting the other kind of API than one already set. */
static int kind_clash(apis_ctx *c, int k, const ag_ini_item *it, gn_err *e)
{
    const ag_api *api = &c->v[c->n - 1];
    if (k == A_SQL) {
        for (int o = A_URL; o < A__COUNT; o++)
            if (c->line[o])
                return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s has both "
                                     "sql and %s (line %d); an API is SQL or HTTP (url), not "
                                     "both", api->name, api_keys[o], c->line[o]);
    } else if (c->line[A_SQL]) {
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s has both sql "
                             "(line %d) and %s; an API is SQL or HTTP (url), not both",
                             api->name, c->line[A_SQL], api_keys[k]);
    }
    return 0;
}

static int set_http_value(ag_api *api, int k, const ag_ini_item *it, gn_err *e)
{
    const char *v = it->value;
    if (k == A_URL) {
        if (strncasecmp(v, "http://", 7) && strncasecmp(v, "https://", 8))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: url '%s' is "
                                 "not http:// or https://", api->name, v);
        api->url = xstrdup(v);
    } else if (k == A_METHOD) {
        if (strcasecmp(v, "GET") && strcasecmp(v, "POST"))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: method '%s' "
                                 "is not GET or POST", api->name, v);
        api->get = !strcasecmp(v, "GET");
    } else if (k == A_TIMEOUT) {
        char *end;
        double t = strtod(v, &end);
        if (end == v || *end || !isfinite(t) || t <= 0 || t > 3600)
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: timeout '%s' "
                                 "is not a number of seconds in (0, 3600]", api->name, v);
        api->timeout = t;
    } else {
        const char *colon = strchr(v, ':');
        if (!colon || colon == v || strcspn(v, " \t") < (size_t)(colon - v))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: header '%s' "
                                 "is not 'Name: value'", api->name, v);
        api->headers = xrealloc(api->headers, sizeof *api->headers * (size_t)(api->nheaders + 1));
        api->headers[api->nheaders++] = xstrdup(v);
    }
    return 0;
}

/* inih ends a value at a ';' after a blank (an inline comment): in SQL
 * that would drop statements silently, so it is an error there. */
static int cut_sql(const ag_api *api, const ag_ini_item *it, gn_err *e)
{
    for (size_t i = 1; i < it->rawlen; i++)
        if (it->raw[i] == ';' && (it->raw[i - 1] == ' ' || it->raw[i - 1] == '\t'))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, (int)i + 1, "API %s: ' ;' "
                                 "starts a comment in an INI file and would cut the SQL here "
                                 "(write ';' right after the statement)", api->name);
    return 0;
}

static int on_api_key(apis_ctx *c, const ag_ini_item *it, gn_err *e)
{
    ag_api *api = &c->v[c->n - 1];
    if (it->cont) {
        if (c->cur < 0) return 0;
        if (c->cur != A_SQL)
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "indented line continues "
                                 "'%s', which takes one line (only sql spans lines)",
                                 api_keys[c->cur]);
        if (cut_sql(api, it, e)) return GN_EPARSE;
        char *joined = xasprintf("%s%s%s", api->sql, *api->sql ? "\n" : "", it->value);
        free(api->sql);
        api->sql = joined;
        return 0;
    }
    int k = -1;
    for (int i = 0; i < A__COUNT; i++)
        if (!strcmp(api_keys[i], it->key)) k = i;
    if (k < 0) {
        const char *near = ag_closest(it->key, api_keys, A__COUNT);
        char hint[96] = "";
        if (near) snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: unknown key '%s'%s",
                             api->name, it->key, hint);
    }
    if (c->line[k] && k != A_HEADER)
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: key '%s' is already "
                             "set on line %d", api->name, it->key, c->line[k]);
    int rc = kind_clash(c, k, it, e);
    if (rc) return rc;
    if (!*it->value && k != A_SQL)
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "API %s: key '%s' is empty",
                             api->name, it->key);
    c->line[k] = it->line;
    c->cur = k;
    if (k != A_SQL) return set_http_value(api, k, it, e);
    if (cut_sql(api, it, e)) return GN_EPARSE;
    api->kind = AG_API_SQL;
    api->sql = xstrdup(it->value);
    return 0;
}

static int on_apis_item(void *ud, const ag_ini_item *it, gn_err *e)
{
    apis_ctx *c = ud;
    if (!it->key) return on_api_section(c, it, e);
    if (!c->n || strcmp(it->section, c->v[c->n - 1].name))
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "key '%s' is outside any "
                             "API section (start one with [api_name])", it->key);
    return on_api_key(c, it, e);
}

/* Each API got exactly one of sql and url. */
static int check_complete(const char *path, ag_api *v, int n, gn_err *e)
{
    for (int i = 0; i < n; i++) {
        ag_api *a = &v[i];
        if (a->url) {
            a->kind = AG_API_HTTP;
            continue;
        }
        if (!a->sql)
            return gn_err_setpos(e, GN_EPARSE, path, a->line, 0, "API %s has neither 'sql' "
                                 "nor 'url'", a->name);
        if (!a->sql[strspn(a->sql, " \t\r\n")])
            return gn_err_setpos(e, GN_EPARSE, path, a->line, 0, "API %s: sql is empty", a->name);
    }
    return 0;
}

int ag_apis_parse(const char *path, const char *text, size_t len, ag_api **out, int *n,
                  gn_err *e)
{
    apis_ctx c = { .cur = -1 };
    int rc = ag_ini_parse(path, text, len, on_apis_item, &c, e);
    if (!rc) rc = check_complete(path, c.v, c.n, e);
    if (rc) {
        ag_apis_free(c.v, c.n);
        *out = NULL;
        *n = 0;
        return rc;
    }
    *out = c.v;
    *n = c.n;
    return 0;
}

void ag_apis_free(ag_api *apis, int n)
{
    for (int i = 0; i < n; i++) {
        free(apis[i].name);
        free(apis[i].sql);
        free(apis[i].url);
        for (int j = 0; j < apis[i].nheaders; j++) free(apis[i].headers[j]);
        free(apis[i].headers);
    }
    free(apis);
}

const ag_api *ag_api_find(const ag_agent *a, const char *name)
{
    for (int i = 0; a && i < a->napis; i++)
        if (!strcmp(a->apis[i].name, name)) return &a->apis[i];
    return NULL;
}

/* ---- transaction ids ------------------------------------------------------- */

int ag_txn_id(char *out, size_t n, gn_err *e)
{
    /* No I and no O: an id read back with O for 0 or I for 1 is still
     * only one id (the sample agents' lookups map them). */
    static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
    if (n < 11) return gn_err_set(e, GN_EUSAGE, "transaction id buffer smaller than 11 bytes");
    unsigned char rnd[32];
    int have = 0;
    while (have < 10) {
        ssize_t got = getrandom(rnd, sizeof rnd, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return gn_err_set(e, GN_EIO, "getrandom: %s", strerror(errno));
        /* 238 = 7 * 34: bytes above it would favour the first letters. */
        for (ssize_t i = 0; i < got && have < 10; i++)
            if (rnd[i] < 238) out[have++] = alphabet[rnd[i] % 34];
    }
    out[10] = 0;
    return 0;
}

/* ---- SQL APIs ---------------------------------------------------------------- */

typedef struct sql_run {
    sqlite3 *db;
    const ag_api *api;
    const ws_val *args;
    char txn[11];
    int used_txn;
    ws_val *rows;             /* of the last statement that returned any */
} sql_run;

static int db_error(const sql_run *r, gn_err *e)
{
    if ((sqlite3_errcode(r->db) & 0xff) == SQLITE_FULL)
        return gn_err_set(e, GN_EIO, "API %s: disk full", r->api->name);
    return gn_err_set(e, GN_EDB, "API %s: %s", r->api->name, sqlite3_errmsg(r->db));
}

static char *json_text(const ws_val *v)
{
    cJSON *j = ws_val_to_json(v);
    char *p = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    char *s = xstrdup(p ? p : "null");
    cJSON_free(p);
    return s;
}

static void bind_value(sqlite3_stmt *st, int i, const ws_val *v)
{
    switch (v ? v->kind : WV_NONE) {
    case WV_NONE: sqlite3_bind_null(st, i); break;
    case WV_BOOL: sqlite3_bind_int(st, i, v->u.b != 0); break;
    case WV_INT: sqlite3_bind_int64(st, i, v->u.i); break;
    case WV_FLOAT: sqlite3_bind_double(st, i, v->u.f); break;
    case WV_STR: sqlite3_bind_text(st, i, v->u.s, -1, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_text(st, i, json_text(v), -1, free); break;
    }
}

/* The argument parameter I of ST takes: `:name`/`@name`/`$name` by name,
 * `?` and `?N` the positional ones ("$1"...). */
static const ws_val *param_value(const sql_run *r, sqlite3_stmt *st, int i)
{
    if (!r->args || r->args->kind != WV_DICT) return NULL;
    const char *pn = sqlite3_bind_parameter_name(st, i);
    char pos[72];
    if (!pn || pn[0] == '?') {
        if (pn) snprintf(pos, sizeof pos, "$%s", pn + 1);
        else snprintf(pos, sizeof pos, "$%d", i);
        return ws_dict_get(r->args, pos);
    }
    const ws_val *v = ws_dict_get(r->args, pn + 1);
    if (!v && pn[0] == '$') v = ws_dict_get(r->args, pn);   /* $1 */
    return v;
}

static int bind_params(sql_run *r, sqlite3_stmt *st, gn_err *e)
{
    int n = sqlite3_bind_parameter_count(st);
    for (int i = 1; i <= n; i++) {
        const char *pn = sqlite3_bind_parameter_name(st, i);
        if (pn && pn[0] != '?' && !strcmp(pn + 1, "txn_id")) {
            if (!r->used_txn) {
                int rc = ag_txn_id(r->txn, sizeof r->txn, e);
                if (rc) return rc;
                r->used_txn = 1;
            }
            sqlite3_bind_text(st, i, r->txn, -1, SQLITE_TRANSIENT);
            continue;
        }
        bind_value(st, i, param_value(r, st, i));
    }
    return 0;
}

static ws_val *column_value(sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: return ws_int(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT: return ws_float(sqlite3_column_double(st, i));
    case SQLITE_NULL: return ws_none();
    default: {
        /* TEXT, and a BLOB read as text. */
        const char *s = (const char *)sqlite3_column_text(st, i);
        return ws_strn(s ? s : "", (size_t)sqlite3_column_bytes(st, i));
    }
    }
}

static int run_stmt(sql_run *r, sqlite3_stmt *st, gn_err *e)
{
    /* An API writes inside the call's own transaction, or not at all. */
    GN_ASSERT(!sqlite3_get_autocommit(r->db));
    ws_val *rows = NULL;
    int ncol = sqlite3_column_count(st), rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!rows) rows = ws_list();
        if (rows->u.c.n == MAX_ROWS) {
            ws_val_free(rows);
            return gn_err_set(e, GN_ELIMIT, "API %s: a statement returned more than %d rows",
                              r->api->name, MAX_ROWS);
        }
        ws_val *row = ws_dict();
        for (int i = 0; i < ncol; i++) {
            const char *cn = sqlite3_column_name(st, i);
            ws_dict_set(row, cn ? cn : "?", column_value(st, i));
        }
        ws_list_add(rows, row);
    }
    if (rc != SQLITE_DONE) {
        ws_val_free(rows);
        return db_error(r, e);
    }
    if (rows) {
        ws_val_free(r->rows);
        r->rows = rows;
    }
    return 0;
}

static int run_all(sql_run *r, gn_err *e)
{
    const char *p = r->api->sql;
    int rc = 0;
    while (!rc && *p) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(r->db, p, -1, &st, &tail) != SQLITE_OK) return db_error(r, e);
        if (!st) {                      /* only blanks or a comment left */
            if (!tail || tail == p) break;
            p = tail;
            continue;
        }
        p = tail;
        rc = bind_params(r, st, e);
        if (!rc) rc = run_stmt(r, st, e);
        sqlite3_finalize(st);
    }
    return rc;
}

/* {"transaction_id"} when the SQL used :txn_id, and the last rows: one
 * row's columns, or several as "rows". */
static ws_val *sql_result(sql_run *r)
{
    ws_val *res = ws_dict();
    if (r->used_txn) ws_dict_set(res, "transaction_id", ws_str(r->txn));
    if (r->rows && r->rows->u.c.n == 1) {
        const ws_val *row = r->rows->u.c.items[0];
        for (int i = 0; i < row->u.c.n; i++)
            ws_dict_set(res, row->u.c.keys[i], ws_val_copy(row->u.c.items[i]));
        ws_val_free(r->rows);
    } else if (r->rows) {
        ws_dict_set(res, "rows", r->rows);
    }
    r->rows = NULL;
    return res;
}

static const char calls_ddl[] =
    "CREATE TABLE IF NOT EXISTS genie_api_calls(scope TEXT NOT NULL, turn INTEGER NOT NULL, "
    "api TEXT NOT NULL, args TEXT NOT NULL, result TEXT NOT NULL, at REAL NOT NULL); "
    "CREATE INDEX IF NOT EXISTS genie_api_calls_scope ON genie_api_calls(scope, api, turn)";

/* The result a call of this conversation with these arguments recorded in
 * a turn that was never saved (>= the current one, or lost: AG_API_LOST),
 * or NULL.  The record then belongs to the current turn. */
static ws_val *recorded(sqlite3 *db, const ag_api_host *h, const char *api, const char *args)
{
    sqlite3_stmt *st = NULL;
    ws_val *v = NULL;
    sqlite3_int64 row = 0;
    if (sqlite3_prepare_v2(db, "SELECT result, rowid FROM genie_api_calls WHERE scope = ? AND api = ? "
                           "AND args = ? AND turn >= ? ORDER BY rowid DESC LIMIT 1", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, h->scope, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, api, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, args, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, h->turn);
        if (sqlite3_step(st) == SQLITE_ROW) {
            cJSON *j = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
            v = j ? ws_val_from_json(j) : NULL;
            cJSON_Delete(j);
            row = sqlite3_column_int64(st, 1);
        }
    }
    sqlite3_finalize(st);
    if (v && sqlite3_prepare_v2(db, "UPDATE genie_api_calls SET turn = ? WHERE rowid = ?", -1, &st,
                                NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, h->turn);
        sqlite3_bind_int64(st, 2, row);
        sqlite3_step(st);
        sqlite3_finalize(st);
    }
    return v;
}

static int record_call(sqlite3 *db, const ag_api_host *h, const char *api, const char *args,
                       const ws_val *res)
{
    sqlite3_stmt *st = NULL;
    char *rj = json_text(res);
    int ok = sqlite3_prepare_v2(db, "INSERT INTO genie_api_calls(scope, turn, api, args, result, at) "
                                "VALUES (?, ?, ?, ?, ?, julianday('now'))", -1, &st, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(st, 1, h->scope, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, h->turn);
        sqlite3_bind_text(st, 3, api, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, args, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, rj, -1, SQLITE_STATIC);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    free(rj);
    return ok ? 0 : -1;
}

static int call_sql(ag_api_host *h, const ag_api *api, const ws_val *args, ws_val **out,
                    gn_err *e)
{
    sql_run r = { .db = h->wdb, .api = api, .args = args };
    if (!r.db) return gn_err_set(e, GN_EDB, "API %s: no writable database", api->name);
    if (sqlite3_exec(r.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return db_error(&r, e);
    int rc = 0;
    char *argj = h->scope[0] ? json_text(args) : NULL;
    ws_val *again = NULL;
    if (argj && sqlite3_exec(r.db, calls_ddl, NULL, NULL, NULL) != SQLITE_OK) rc = db_error(&r, e);
    if (!rc && argj) again = recorded(r.db, h, api->name, argj);
    if (!rc && !again) rc = run_all(&r, e);
    ws_val *res = rc || again ? NULL : sql_result(&r);
    if (!rc && res && argj && record_call(r.db, h, api->name, argj, res)) rc = db_error(&r, e);
    if (!rc && sqlite3_exec(r.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = db_error(&r, e);
    free(argj);
    if (rc) {
        /* An error may already have rolled back (SQLITE_FULL does). */
        if (!sqlite3_get_autocommit(r.db)) sqlite3_exec(r.db, "ROLLBACK", NULL, NULL, NULL);
        ws_val_free(r.rows);
        ws_val_free(res);
        ws_val_free(again);
        return rc;
    }
    *out = again ? again : res;
    return 0;
}

char *ag_api_unsaved(sqlite3 *wdb, const char *scope, int after_turn)
{
    sqlite3_stmt *st = NULL;
    gn_buf b;
    gn_buf_init(&b);
    if (wdb && scope && *scope &&
        sqlite3_prepare_v2(wdb, "SELECT api, json_extract(result, '$.transaction_id'), args FROM "
                           "genie_api_calls WHERE scope = ? AND turn > ? ORDER BY rowid", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, after_turn);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *txn = (const char *)sqlite3_column_text(st, 1);
            gn_buf_printf(&b, "%s%s (", b.len ? "; " : "", sqlite3_column_text(st, 0));
            /* what it was done with, so that the user can tell it apart */
            cJSON *args = cJSON_Parse((const char *)sqlite3_column_text(st, 2));
            int n = 0;
            for (cJSON *a = args ? args->child : NULL; a; a = a->next) {
                if (cJSON_IsNull(a) || !a->string || !strcmp(a->string, "confirm")) continue;
                char *v = cJSON_IsString(a) ? NULL : cJSON_PrintUnformatted(a);
                gn_buf_printf(&b, "%s%s: %s", n++ ? ", " : "", a->string, v ? v : a->valuestring);
                free(v);
            }
            cJSON_Delete(args);
            if (txn) gn_buf_printf(&b, "%stransaction %s", n ? "; " : "", txn);
            gn_buf_putc(&b, ')');
        }
    }
    sqlite3_finalize(st);
    if (!b.len) {
        gn_buf_release(&b);
        return NULL;
    }
    return gn_buf_detach(&b);
}

void ag_api_adopt_lost(sqlite3 *wdb, const char *scope, int after_turn)
{
    sqlite3_stmt *st = NULL;
    if (!wdb || !scope || !*scope) return;
    if (sqlite3_exec(wdb, calls_ddl, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(wdb, "UPDATE genie_api_calls SET turn = ? WHERE scope = ? AND turn > ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, AG_API_LOST);
        sqlite3_bind_text(st, 2, scope, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, after_turn);
        sqlite3_step(st);
    }
    sqlite3_finalize(st);
}

/* ---- HTTP APIs ------------------------------------------------------------- */

/* A query-string value: text as is, numbers and booleans as JSON writes
 * them, containers as JSON. */
static char *query_text(const ws_val *v)
{
    switch (v->kind) {
    case WV_STR: return xstrdup(v->u.s);
    case WV_INT: return xasprintf("%lld", v->u.i);
    case WV_FLOAT: return xasprintf("%.17g", v->u.f);
    case WV_BOOL: return xstrdup(v->u.b ? "true" : "false");
    default: return json_text(v);
    }
}

/* ARGS appended to URL as ?k=v&...; None values are left out. */
static void add_query(gn_buf *url, const ws_val *args)
{
    if (!args || args->kind != WV_DICT) return;
    char sep = strchr(url->data, '?') ? '&' : '?';
    for (int i = 0; i < args->u.c.n; i++) {
        const ws_val *v = args->u.c.items[i];
        if (v->kind == WV_NONE) continue;
        char *text = query_text(v);
        char *ek = curl_easy_escape(NULL, args->u.c.keys[i], 0), *ev = curl_easy_escape(NULL, text, 0);
        gn_buf_printf(url, "%c%s=%s", sep, ek ? ek : "", ev ? ev : "");
        sep = '&';
        curl_free(ek);
        curl_free(ev);
        free(text);
    }
}

/* The result of a 2xx reply: its JSON object, {"result": other JSON},
 * {"text": body} when not JSON, {} when empty. */
static ws_val *http_result(const gn_buf *b)
{
    if (!b->data[strspn(b->data, " \t\r\n")]) return ws_dict();
    cJSON *j = memchr(b->data, 0, b->len) ? NULL : cJSON_ParseWithOpts(b->data, NULL, 1);
    ws_val *res;
    if (j && cJSON_IsObject(j)) {
        res = ws_val_from_json(j);
    } else {
        res = ws_dict();
        if (j) ws_dict_set(res, "result", ws_val_from_json(j));
        else ws_dict_set(res, "text", ws_strn(b->data, b->len));
    }
    cJSON_Delete(j);
    return res;
}

/* The request headers of API: JSON accepted, JSON sent (POST), the
 * section's own headers.  Caller frees the array, not the strings. */
static const char **http_headers(const ag_api *api, int *n)
{
    const char **hl = xcalloc((size_t)api->nheaders + 2, sizeof *hl);
    *n = 0;
    hl[(*n)++] = "Accept: application/json";
    if (!api->get) hl[(*n)++] = "Content-Type: application/json";
    for (int i = 0; i < api->nheaders; i++) hl[(*n)++] = api->headers[i];
    return hl;
}

/* The error of a failed call, in this module's words: "API NAME: HTTP
 * 503: the body's gist", "API NAME: response larger than ...", or the
 * request's own message for a failure before any reply. */
static int http_error(const ag_api *api, int rc, const gn_http_res *res, gn_err *e)
{
    if (rc == GN_ENET && res->status > 0) {
        char snip[256];
        gn_http_snippet(res->body.data, res->body.len, snip, sizeof snip);
        return gn_err_set(e, GN_ENET, "API %s: HTTP %ld%s%s", api->name, res->status,
                          *snip ? ": " : "", snip);
    }
    if (rc == GN_ELIMIT)
        return gn_err_set(e, GN_ELIMIT, "API %s: response larger than %u bytes", api->name,
                          MAX_RESPONSE);
    return rc;
}

/* ARGS as an HTTP API gets them: a row's `_id` (KEY::_id, ws_state_arg)
 * is the knowledge base's own and stays home; its key value and context
 * go.  Caller frees. */
static ws_val *http_args(const ws_val *args)
{
    if (!args || args->kind != WV_DICT) return args ? ws_val_copy(args) : NULL;
    ws_val *d = ws_dict();
    for (int i = 0; i < args->u.c.n; i++) {
        const char *k = args->u.c.keys[i], *sep = strstr(k, "::");
        if (sep && !strcmp(sep, "::_id")) continue;
        ws_dict_set(d, k, ws_val_copy(args->u.c.items[i]));
    }
    return d;
}

static int call_http(ag_api_host *h, const ag_api *api, const ws_val *all, ws_val **out,
                     gn_err *e)
{
    ws_val *args = http_args(all);
    gn_buf url;
    gn_buf_init(&url);
    gn_buf_puts(&url, api->url);
    char *body = NULL;
    if (api->get) add_query(&url, args);
    else body = args ? json_text(args) : xstrdup("{}");
    int nh;
    const char **hl = http_headers(api, &nh);
    double t = api->timeout > 0 ? api->timeout
             : h->http_timeout > 0 ? h->http_timeout : DEFAULT_HTTP_TIMEOUT;
    char *what = xasprintf("API %s", api->name);
    gn_http_req rq = {
        .what = what, .method = api->get ? "GET" : "POST", .url = url.data,
        .headers = hl, .nheaders = nh, .body = body,
        .connect_timeout = h->http_connect_timeout > 0 && h->http_connect_timeout < t
                           ? h->http_connect_timeout : t,
        .timeout = t, .max_body = MAX_RESPONSE,
        .retries = h->http_retries > 0 ? h->http_retries : 0,
        .retry_max_wait = h->http_retry_max_wait,
        /* A GET only reads; a POST may book (see the top of the file). */
        .retry = api->get ? GN_HTTP_IDEMPOTENT : GN_HTTP_UNSENT_ONLY,
        .cancel = h->cancel,
    };
    gn_http_res res;
    gn_http_res_init(&res);
    int rc = gn_http_request(&rq, &res, e);
    if (rc) rc = http_error(api, rc, &res, e);
    else *out = http_result(&res.body);
    gn_http_res_release(&res);
    free(what);
    free(hl);
    gn_buf_release(&url);
    free(body);
    ws_val_free(args);
    return rc;
}

/* ---- the host ------------------------------------------------------------- */

static int host_has_api(void *ud, const char *name)
{
    const ag_api_host *h = ud;
    return ag_api_find(h->agent, name) != NULL;
}

static int host_call_api(void *ud, const char *name, const ws_val *args, ws_val **out,
                         gn_err *e)
{
    ag_api_host *h = ud;
    *out = NULL;
    const ag_api *api = ag_api_find(h->agent, name);
    if (!api) return gn_err_set(e, GN_ENOTFOUND, "no API named %s in apis.ini", name);
    if (api->kind == AG_API_SQL) return call_sql(h, api, args, out, e);
    return call_http(h, api, args, out, e);
}

void ag_api_host_init(ag_api_host *h, const ag_agent *a, sqlite3 *wdb)
{
    memset(h, 0, sizeof *h);
    h->host.has_api = host_has_api;
    h->host.call_api = host_call_api;
    h->host.ud = h;
    h->agent = a;
    h->wdb = wdb;
    h->http_timeout = DEFAULT_HTTP_TIMEOUT;
    h->http_connect_timeout = 10;
    h->http_retries = 2;
    h->http_retry_max_wait = 10;
}
