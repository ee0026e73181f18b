/*
 * load.c — loading an agent directory: agent.ini, the spec, apis.ini, and
 * the files agent.ini names (init SQL, knowledge-parser examples).
 *
 * Invariant: an agent that loads is complete and consistent — every path
 * is resolved against the directory, every file it needs in memory is read,
 * the spec parses, and every API a task worksheet names is declared in
 * apis.ini — so nothing later has to report a configuration error in the
 * middle of a conversation.  The database file itself is not checked: the
 * front end opens it and says why it cannot.
 *
 * Both INI files go through one reader (ag_ini_parse) over inih: the
 * distribution's inih passes no line number to its handler, so our own
 * fgets-style reader counts lines, notices [section] lines (inih reports
 * none, so an empty or misspelt section would pass unseen) and tells
 * indented continuation lines (inih's multi-line values) from new keys.
 * A SQL statement or a description easily passes inih's default line
 * buffer (200 bytes), so the parse raises Debian inih's run-time
 * `ini_max_line` to MAX_LINE for its duration and restores it after (agent
 * loading happens at start-up, on one thread, like the config's parse);
 * longer lines are errors, not silently split.
 *
 * Rejected: ignoring unknown keys as the user config does (config.c) — an
 * agent directory is one unit written for one genie, and a misspelt
 * `databse` silently ignored would surface much later as a missing
 * database; our own INI parser — two INI dialects in one program; changing
 * inih's other global switches (inline comments, multi-line values) — the
 * defaults are what genie-worksheet(5) documents, and apis.c rejects the
 * one trap they set for SQL (" ;" starting a comment).
 */
#include "agent/agent_int.h"
#include "util/buf.h"
#include "util/strdist.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INI_BYTES (1u << 20)
#define MAX_LINE 16384              /* bytes per INI line, newline included */
#define MAX_TEXT_BYTES (8u << 20)

/* ---- the INI reader ------------------------------------------------------- */

typedef struct ini_ctx {
    const char *path;
    const char *p, *end;      /* the text not read yet */
    int line;                 /* of the line inih is processing */
    int indented;             /* that line starts with a blank */
    const char *raw;          /* that line as written, without its newline */
    size_t rawlen;
    int toolong, limit;       /* first over-long line, inih's line limit */
    char prev_key[64];        /* the key an indented line would continue */
    int have_prev;
    ag_ini_fn fn;
    void *ud;
    int err_line;             /* first error from FN, 0 for none */
    gn_err err;
} ini_ctx;

static void report(ini_ctx *c, const ag_ini_item *it)
{
    if (c->err_line) return;
    if (c->fn(c->ud, it, &c->err)) c->err_line = c->line;
}

/* A [section] line: inih keeps it to itself, so we tell FN here.  Like
 * inih, an indented line after a key continues that key instead. */
static void see_section(ini_ctx *c, const char *s, size_t len)
{
    if (c->indented && c->have_prev) return;
    const char *close = memchr(s, ']', len);
    if (!close) return;                       /* inih reports the syntax */
    c->have_prev = 0;
    char *name = xstrndup(s, (size_t)(close - s));
    ag_ini_item it = { c->path, name, NULL, NULL, c->line, 0, c->raw, c->rawlen };
    report(c, &it);
    free(name);
}

/* inih's fgets-like reader over the text in memory. */
static char *read_line(char *str, int num, void *stream)
{
    ini_ctx *c = stream;
    if (c->p >= c->end) return NULL;
    const char *s = c->p, *nl = memchr(s, '\n', (size_t)(c->end - s));
    size_t len = nl ? (size_t)(nl - s) + 1 : (size_t)(c->end - s);
    c->p += len;
    c->line++;
    size_t body = len;
    while (body > 0 && (s[body - 1] == '\n' || s[body - 1] == '\r')) body--;
    size_t skip = c->line == 1 && body >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
    size_t lead = skip;
    while (lead < body && (s[lead] == ' ' || s[lead] == '\t')) lead++;
    c->indented = lead > skip && lead < body;
    c->raw = s;
    c->rawlen = body;
    /* inih needs room for "\r\n\0" after the text. */
    c->limit = num > 3 ? num - 3 : 0;
    if (body > (size_t)c->limit) {
        /* A long comment is harmless once cut; a long setting is not. */
        if (!c->toolong && s[lead] != ';' && s[lead] != '#') c->toolong = c->line;
        len = num > 1 ? (size_t)num - 1 : 0;
    }
    memcpy(str, s, len);
    str[len] = 0;
    if (lead < body && s[lead] == '[') see_section(c, s + lead + 1, body - lead - 1);
    return str;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    /* inih calls us with the previous key's name for an indented line when
     * there is a previous key in this section: that is a continuation. */
    int cont = c->indented && c->have_prev && !strcmp(c->prev_key, name);
    if (!cont) {
        snprintf(c->prev_key, sizeof c->prev_key, "%s", name);
        c->have_prev = 1;
    }
    if (c->err_line) return 1;
    ag_ini_item it = { c->path, section, name, value, c->line, cont, c->raw, c->rawlen };
    report(c, &it);
    return !c->err_line;
}

/* The text of line N of TEXT, trimmed and shortened, for syntax errors. */
static void nth_line(const char *text, const char *end, int n, char *out, size_t size)
{
    const char *s = text;
    for (int i = 1; i < n && s < end && (s = memchr(s, '\n', (size_t)(end - s))); i++) s++;
    if (!s) s = end;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    size_t len = 0;
    while (s + len < end && s[len] != '\r' && s[len] != '\n') len++;
    int cut = len > 60;
    snprintf(out, size, "%.*s%s", cut ? 60 : (int)len, s, cut ? "..." : "");
}

int ag_ini_parse(const char *path, const char *text, size_t len, ag_ini_fn fn,
                 void *ud, gn_err *e)
{
    ini_ctx c = { .path = path, .p = text, .end = text + len, .fn = fn, .ud = ud };
    gn_err_clear(&c.err);
    int saved = ini_max_line;
    ini_max_line = MAX_LINE;
    int ret = ini_parse_stream(read_line, &c, on_pair, &c);
    ini_max_line = saved;
    if (ret < 0) return gn_err_setpos(e, GN_EIO, path, 0, 0, "cannot parse (inih error %d)", ret);
    /* The first problem by line wins: an over-long line, ours, inih's. */
    int syn = ret > 0 && ret != c.err_line ? ret : 0;
    int first = 0;
    if (c.toolong) first = c.toolong;
    if (c.err_line && (!first || c.err_line < first)) first = c.err_line;
    if (syn && (!first || syn < first)) first = syn;
    if (!first) return 0;
    if (first == c.toolong)
        return gn_err_setpos(e, GN_ELIMIT, path, first, 0, "line too long (the limit is "
                             "%d bytes; continue a long value on indented lines)",
                             c.limit);
    if (first == c.err_line) {
        if (e) *e = c.err;
        return c.err.code;
    }
    char got[80];
    nth_line(text, text + len, first, got, sizeof got);
    return gn_err_setpos(e, GN_EPARSE, path, first, 0,
                         "syntax error: expected '[section]' or 'key = value', got '%s'", got);
}

const char *ag_closest(const char *name, const char *const *names, int n)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < n; i++) {
        int d = gn_edit_distance(name, names[i]);
        if (d < bd && (size_t)d * 2 < strlen(name)) bd = d, best = names[i];
    }
    return best;
}

/* ---- files ---------------------------------------------------------------- */

/* Whether PATH names something: a symbolic link loop or a file that
 * cannot be read is there, and reading it says what is wrong with it. */
static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

/* DIR/P, or P when absolute; without doubling DIR's trailing slash. */
static char *resolve(const char *dir, const char *p)
{
    if (p[0] == '/') return xstrdup(p);
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dl--;
    if (dl == 1 && dir[0] == '/') return xasprintf("/%s", p);
    return xasprintf("%.*s/%s", (int)dl, dir, p);
}

/* The directory's name: its last component, or the real path's when the
 * directory was given as "." or "..". */
static char *base_name(const char *dir)
{
    char real[PATH_MAX];
    const char *d = dir;
    size_t dl = strlen(d);
    while (dl > 1 && d[dl - 1] == '/') dl--;
    const char *s = d + dl;
    while (s > d && s[-1] != '/') s--;
    size_t n = (size_t)(d + dl - s);
    if ((n == 1 && *s == '.') || (n == 2 && !strncmp(s, "..", 2)) || n == 0) {
        if (!realpath(dir, real)) return xstrdup("agent");
        const char *r = strrchr(real, '/');
        return xstrdup(r && r[1] ? r + 1 : "agent");
    }
    return xstrndup(s, n);
}

/* ---- agent.ini ---------------------------------------------------------- */

enum { K_NAME, K_DESC, K_GREETING, K_DATABASE, K_SPEC, K_APIS, K_INIT_SQL,
       K_KB_EXAMPLES, K_PROMPTS, K__COUNT };

static const char *const keys[K__COUNT] = {
    "name", "description", "greeting", "database", "spec", "apis", "init_sql",
    "kb_examples", "prompts",
};

/* Values that may go on over indented lines (joined with a space). */
static int multiline(int k) { return k == K_DESC || k == K_GREETING; }

typedef struct agent_ini {
    char *val[K__COUNT];
    int line[K__COUNT];
    int cur;                  /* the key being set, for continuation lines */
} agent_ini;

static int on_agent_section(const ag_ini_item *it, gn_err *e)
{
    static const char *const sections[] = { "agent" };
    if (!strcmp(it->section, "agent")) return 0;
    const char *near = ag_closest(it->section, sections, 1);
    if (near)
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0,
                             "unknown section [%s] (did you mean [%s]?)", it->section, near);
    return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0,
                         "unknown section [%s] (agent.ini has only [agent])", it->section);
}

static int key_index(const char *key)
{
    for (int k = 0; k < K__COUNT; k++)
        if (!strcmp(keys[k], key)) return k;
    return -1;
}

static int on_agent_item(void *ud, const ag_ini_item *it, gn_err *e)
{
    agent_ini *v = ud;
    if (!it->key) return on_agent_section(it, e);
    if (!*it->section)
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "key '%s' is outside "
                             "any section (put it under [agent])", it->key);
    if (strcmp(it->section, "agent")) return on_agent_section(it, e);
    if (it->cont) {
        if (!multiline(v->cur))
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "indented line "
                                 "continues '%s', which takes one line (unindent a new key)",
                                 keys[v->cur]);
        char *joined = xasprintf("%s%s%s", v->val[v->cur], *v->val[v->cur] ? " " : "", it->value);
        free(v->val[v->cur]);
        v->val[v->cur] = joined;
        return 0;
    }
    int k = key_index(it->key);
    if (k < 0) {
        const char *near = ag_closest(it->key, keys, K__COUNT);
        if (near)
            return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0,
                                 "unknown key '%s' (did you mean '%s'?)", it->key, near);
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "unknown key '%s'", it->key);
    }
    if (v->line[k])
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0,
                             "key '%s' is already set on line %d", it->key, v->line[k]);
    if (!*it->value && !multiline(k))
        return gn_err_setpos(e, GN_EPARSE, it->path, it->line, 0, "key '%s' is empty", it->key);
    v->val[k] = xstrdup(it->value);
    v->line[k] = it->line;
    v->cur = k;
    return 0;
}

/* ---- loading --------------------------------------------------------------- */

typedef struct loader {
    ag_agent *a;
    const char *ini;          /* DIR/agent.ini */
    agent_ini v;
} loader;

/* Reads the file key K names into *out; errors point at agent.ini's line. */
static int read_keyed(loader *l, int k, char **out, gn_err *e)
{
    char *path = resolve(l->a->dir, l->v.val[k]);
    int rc = gn_read_file(path, MAX_TEXT_BYTES, out, NULL, e);
    if (rc) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e ? e->msg : "");
        gn_err_setpos(e, rc, l->ini, l->v.line[k], 0, "%s: '%s': %s", keys[k], path, msg);
    }
    free(path);
    return rc;
}

static int load_paths(loader *l, gn_err *e)
{
    ag_agent *a = l->a;
    agent_ini *v = &l->v;
    a->name = v->val[K_NAME] ? xstrdup(v->val[K_NAME]) : base_name(a->dir);
    a->description = xstrdup(v->val[K_DESC] ? v->val[K_DESC] : "");
    a->greeting = xstrdup(v->val[K_GREETING] ? v->val[K_GREETING] : "");
    if (!v->val[K_DATABASE])
        return gn_err_setpos(e, GN_EPARSE, l->ini, 0, 0,
                             "missing 'database = FILE' in [agent]");
    a->db_path = resolve(a->dir, v->val[K_DATABASE]);
    if (v->val[K_PROMPTS]) {
        struct stat st;
        a->prompt_dir = resolve(a->dir, v->val[K_PROMPTS]);
        if (stat(a->prompt_dir, &st) || !S_ISDIR(st.st_mode))
            return gn_err_setpos(e, GN_ENOTFOUND, l->ini, v->line[K_PROMPTS], 0,
                                 "prompts: '%s' is not a directory", a->prompt_dir);
    }
    if (v->val[K_INIT_SQL]) {
        int rc = read_keyed(l, K_INIT_SQL, &a->init_sql, e);
        if (rc) return rc;
    }
    if (v->val[K_KB_EXAMPLES]) return read_keyed(l, K_KB_EXAMPLES, &a->kb_examples, e);
    return 0;
}

static int load_spec(loader *l, gn_err *e)
{
    ag_agent *a = l->a;
    char *path;
    if (l->v.val[K_SPEC]) {
        path = resolve(a->dir, l->v.val[K_SPEC]);
        if (!exists(path)) {
            int rc = gn_err_setpos(e, GN_ENOTFOUND, l->ini, l->v.line[K_SPEC], 0,
                                   "spec: '%s' does not exist", path);
            free(path);
            return rc;
        }
    } else {
        path = resolve(a->dir, "worksheet.csv");
        if (!exists(path)) {
            free(path);
            path = resolve(a->dir, "worksheet.json");
        }
        if (!exists(path)) {
            free(path);
            return gn_err_setpos(e, GN_ENOTFOUND, l->ini, 0, 0, "%s has no worksheet.csv "
                                 "or worksheet.json (or name the spec with 'spec = FILE')",
                                 a->dir);
        }
    }
    int rc = ws_spec_load(path, &a->spec, e);
    free(path);
    return rc;
}

static int load_apis(loader *l, gn_err *e)
{
    ag_agent *a = l->a;
    const char *named = l->v.val[K_APIS];
    char *path = resolve(a->dir, named ? named : "apis.ini");
    char *text = NULL;
    size_t len = 0;
    int rc = 0;
    if (!named && !exists(path)) goto done;   /* no APIs */
    if (named && !exists(path)) {
        rc = gn_err_setpos(e, GN_ENOTFOUND, l->ini, l->v.line[K_APIS], 0,
                           "apis: '%s' does not exist", path);
        goto done;
    }
    rc = gn_read_file(path, MAX_INI_BYTES, &text, &len, e);
    if (!rc) rc = ag_apis_parse(path, text, len, &a->apis, &a->napis, e);
done:
    free(text);
    free(path);
    return rc;
}

/* Every task worksheet's API is declared in apis.ini. */
static int check_apis(const ag_agent *a, gn_err *e)
{
    const char **names = xmalloc(sizeof *names * (size_t)(a->napis + 1));
    for (int i = 0; i < a->napis; i++) names[i] = a->apis[i].name;
    int rc = 0;
    for (int i = 0; i < a->spec->nsheets && !rc; i++) {
        const ws_sheet *w = &a->spec->sheets[i];
        if (w->kind != WSK_TASK || !w->api || !*w->api || ag_api_find(a, w->api)) continue;
        const char *near = ag_closest(w->api, names, a->napis);
        char hint[160] = "";
        if (near) snprintf(hint, sizeof hint, " (did you mean %s?)", near);
        else if (!a->napis) snprintf(hint, sizeof hint, " (the agent declares no APIs)");
        rc = gn_err_setpos(e, GN_EPARSE, a->spec->path, w->line, 0, "worksheet %s names API "
                           "%s, not declared in apis.ini%s", w->name, w->api, hint);
    }
    free(names);
    return rc;
}

/* The first call in N (a predicate or action tree) of a function that is
 * neither a built-in, an API of A nor a worksheet (whose name makes a
 * record), or NULL. */
static const ws_node *unknown_call(const ag_agent *a, const ws_node *n)
{
    if (!n) return NULL;
    if (n->kind == WN_CALL && n->a && n->a->kind == WN_NAME && !ws_builtin_known(n->a->name) &&
        !ag_api_find(a, n->a->name) && ws_spec_sheet_index(a->spec, n->a->name) < 0)
        return n;
    const ws_node *kids[] = { n->a, n->b, n->c };
    for (int i = 0; i < 3; i++) {
        const ws_node *u = unknown_call(a, kids[i]);
        if (u) return u;
    }
    for (int i = 0; i < n->nargs; i++) {
        const ws_node *u = unknown_call(a, n->args[i]);
        if (u) return u;
    }
    return NULL;
}

static const ws_node *unknown_in_prog(const ag_agent *a, const ws_prog *p)
{
    for (int i = 0; p && i < p->n; i++) {
        const ws_node *u = unknown_call(a, p->stmts[i].target);
        if (!u) u = unknown_call(a, p->stmts[i].value);
        if (u) return u;
    }
    return NULL;
}

/* Every function a predicate or action calls exists (a call of system()
 * or of a misspelt API is found when the agent loads, with its line, not
 * when a user's turn reaches it). */
static int check_calls(const ag_agent *a, gn_err *e)
{
    for (int si = 0; si < a->spec->nsheets; si++) {
        const ws_sheet *w = &a->spec->sheets[si];
        for (int fi = -1; fi < w->nfields; fi++) {
            const ws_node *u = fi < 0 ? unknown_call(a, w->pred) : unknown_call(a, w->fields[fi].pred);
            if (!u) u = unknown_in_prog(a, fi < 0 ? w->actions : w->fields[fi].actions);
            if (!u) continue;
            int line = (fi < 0 ? w->line : w->fields[fi].line) + u->line - 1;
            return gn_err_setpos(e, GN_EPARSE, a->spec->path, line, 0, "%s%s%s calls %s(), which "
                                 "is not a built-in function, an API of apis.ini or a worksheet",
                                 w->name, fi < 0 ? "" : ".", fi < 0 ? "" : w->fields[fi].name,
                                 u->a->name);
        }
    }
    return 0;
}

/* agent.ini alone (FULL 0), or with the spec and the APIs. */
static int load(const char *dir, int full, ag_agent **out, gn_err *e)
{
    *out = NULL;
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return gn_err_set(e, GN_ENOTFOUND, "%s is not an agent directory (no such directory)", dir);
    loader l = { .a = xcalloc(1, sizeof *l.a) };
    l.a->dir = xstrdup(dir);
    char *ini = resolve(dir, "agent.ini"), *text = NULL;
    l.ini = ini;
    size_t len = 0;
    int rc = gn_read_file(ini, MAX_INI_BYTES, &text, &len, e);
    if (rc == GN_ENOTFOUND)
        rc = gn_err_set(e, GN_ENOTFOUND, "%s is not an agent directory (no agent.ini)", dir);
    if (!rc) rc = ag_ini_parse(ini, text, len, on_agent_item, &l.v, e);
    if (!rc) rc = load_paths(&l, e);
    if (!rc && full) rc = load_spec(&l, e);
    if (!rc && full) rc = load_apis(&l, e);
    if (!rc && full) rc = check_apis(l.a, e);
    if (!rc && full) rc = check_calls(l.a, e);
    for (int k = 0; k < K__COUNT; k++) free(l.v.val[k]);
    free(text);
    free(ini);
    if (rc) ag_agent_free(l.a);
    else *out = l.a;
    return rc;
}

int ag_agent_load(const char *dir, ag_agent **out, gn_err *e) { return load(dir, 1, out, e); }

int ag_agent_database(const char *dir, char **path, gn_err *e)
{
    ag_agent *a;
    *path = NULL;
    int rc = load(dir, 0, &a, e);
    if (rc) return rc;
    *path = a->db_path;
    a->db_path = NULL;
    ag_agent_free(a);
    return 0;
}

void ag_agent_free(ag_agent *a)
{
    if (!a) return;
    free(a->dir);
    free(a->name);
    free(a->description);
    free(a->greeting);
    free(a->db_path);
    free(a->init_sql);
    free(a->kb_examples);
    free(a->prompt_dir);
    ws_spec_free(a->spec);
    ag_apis_free(a->apis, a->napis);
    free(a);
}

/* ---- the init SQL ------------------------------------------------------- */

/* SQLite's authorizer while an API's statements are compiled: notes a
 * statement that begins, ends or nests a transaction (whatever comments or
 * spacing come before it), allowing everything (nothing runs here). */
typedef struct { const char *what; } tx_seen;

static int note_tx(void *ud, int action, const char *a1, const char *a2, const char *db, const char *trig)
{
    (void)a2, (void)db, (void)trig;
    tx_seen *t = ud;
    if (action == SQLITE_TRANSACTION && !t->what) t->what = a1 && *a1 ? a1 : "a transaction statement";
    if (action == SQLITE_SAVEPOINT && !t->what) t->what = "SAVEPOINT";
    return SQLITE_OK;
}

int ag_agent_check_sql(const ag_agent *a, sqlite3 *wdb, gn_err *e)
{
    tx_seen tx = { NULL };
    if (wdb) sqlite3_set_authorizer(wdb, note_tx, &tx);   /* the writer has none of its own */
    for (int i = 0; wdb && i < a->napis; i++) {
        const ag_api *api = &a->apis[i];
        for (const char *p = api->kind == AG_API_SQL ? api->sql : ""; p && *p;) {
            sqlite3_stmt *st = NULL;
            const char *tail = NULL;
            if (sqlite3_prepare_v2(wdb, p, -1, &st, &tail) != SQLITE_OK) {
                sqlite3_set_authorizer(wdb, NULL, NULL);
                char *path = resolve(a->dir, "apis.ini");
                int rc = gn_err_setpos(e, GN_EPARSE, path, api->line, 0, "API %s: %s", api->name,
                                       sqlite3_errmsg(wdb));
                free(path);
                return rc;
            }
            if (tx.what) {
                /* The call's statements run in one transaction genie opens
                 * and commits itself (apis.c): one of their own would end it. */
                sqlite3_finalize(st);
                sqlite3_set_authorizer(wdb, NULL, NULL);
                char *path = resolve(a->dir, "apis.ini");
                int rc = gn_err_setpos(e, GN_EPARSE, path, api->line, 0,
                                       "API %s: %s is not allowed: a call's statements run in one "
                                       "transaction genie opens and commits", api->name, tx.what);
                free(path);
                return rc;
            }
            sqlite3_finalize(st);
            if (!tail || tail == p) break;
            p = tail;
        }
    }
    if (wdb) sqlite3_set_authorizer(wdb, NULL, NULL);
    return 0;
}

int ag_agent_init_db(const ag_agent *a, sqlite3 *wdb, gn_err *e)
{
    if (!a->init_sql) return 0;
    if (!wdb) return gn_err_set(e, GN_EDB, "init.sql: no writable database");
    char *msg = NULL;
    int rc = sqlite3_exec(wdb, "BEGIN IMMEDIATE", NULL, NULL, &msg), began = rc == SQLITE_OK;
    if (rc == SQLITE_OK) rc = sqlite3_exec(wdb, a->init_sql, NULL, NULL, &msg);
    if (rc == SQLITE_OK) rc = sqlite3_exec(wdb, "COMMIT", NULL, NULL, &msg);
    if (rc == SQLITE_OK) return 0;
    int code = (rc & 0xff) == SQLITE_FULL ? GN_EIO : GN_EDB;
    gn_err_set(e, code, "init.sql: %s", code == GN_EIO ? "disk full"
               : msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    /* Only our own transaction: a failed BEGIN may mean the caller's. */
    if (began && !sqlite3_get_autocommit(wdb)) sqlite3_exec(wdb, "ROLLBACK", NULL, NULL, NULL);
    return code;
}
