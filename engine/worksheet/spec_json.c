/*
 * spec_json.c — a worksheet spec as JSON (spec.h): the content of the
 * spreadsheet layout, one object per worksheet with its fields inside:
 *
 *   {"worksheets": [{"name", "kind": "worksheet|db|type", "api",
 *     "predicate", "actions", "description",
 *     "fields": [{"name", "kind": "input|internal|output", "primary",
 *                 "type", "enum": [...], "description", "dont_ask",
 *                 "required", "confirm", "predicate", "actions"}]}]}
 *
 * What: cJSON parses; two key tables say what each object may hold and
 * where it goes; the raw spec then passes the same ws_spec_check as CSV,
 * with errors named by JSON path ("worksheets[1].fields[2].type").
 *
 * Invariant: every error names the file and a line: the syntax error's
 * line and column, or the line of the worksheet or field object the error
 * is about (column 0).  cJSON keeps no positions, so the line of every
 * object is found by one scan for '{' outside strings: their order is the
 * pre-order of the object nodes in the tree.  Strings are trimmed and an
 * empty predicate, actions or api is NULL, exactly as a blank CSV cell, so
 * the two formats load the same content to identical structures.
 *
 * Rejected: ignoring unknown keys (a misspelt "requried" would silently
 * leave the field optional; unknown keys are errors with a did-you-mean);
 * defaulting a missing "kind" (the CSV layout cannot omit it either);
 * cJSON_GetErrorPtr (a global shared by threads; ParseWithOpts returns the
 * same position through its end pointer).
 */
#include "worksheet/spec_int.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct json_ctx {
    const char *file;
    gn_err *e;
    ws_spec *s;
    int *lines;                  /* line of each '{' in document order */
    int nlines;
    const cJSON **objs;          /* each object node in pre-order */
    int nobjs, capobjs;
    int si, fi;                  /* the object being read: worksheets[si].fields[fi] (-1: none) */
    int line;                    /* its line */
} json_ctx;

enum jk { J_STR, J_OPT, J_DESC, J_BOOL, J_SKIND, J_FKIND, J_ENUM, J_FIELDS };

typedef struct jkey {
    const char *key;
    enum jk kind;
    size_t off;                  /* STR, OPT, DESC, BOOL: member of the struct */
} jkey;

static const jkey sheet_keys[] = {
    {"name", J_STR, offsetof(ws_sheet, name)},
    {"kind", J_SKIND, 0},
    {"api", J_OPT, offsetof(ws_sheet, api)},
    {"predicate", J_OPT, offsetof(ws_sheet, pred_src)},
    {"actions", J_OPT, offsetof(ws_sheet, act_src)},
    {"description", J_DESC, offsetof(ws_sheet, desc)},
    {"fields", J_FIELDS, 0},
};

static const jkey field_keys[] = {
    {"name", J_STR, offsetof(ws_field, name)},
    {"kind", J_FKIND, 0},
    {"primary", J_BOOL, offsetof(ws_field, primary)},
    {"type", J_STR, offsetof(ws_field, type_src)},
    {"enum", J_ENUM, 0},
    {"description", J_DESC, offsetof(ws_field, desc)},
    {"dont_ask", J_BOOL, offsetof(ws_field, dont_ask)},
    {"required", J_BOOL, offsetof(ws_field, required)},
    {"confirm", J_BOOL, offsetof(ws_field, confirm)},
    {"predicate", J_OPT, offsetof(ws_field, pred_src)},
    {"actions", J_OPT, offsetof(ws_field, act_src)},
};

#define NKEYS(t) ((int)(sizeof t / sizeof *t))

static int fail(json_ctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error about KEY (NULL: the object itself) of the current object. */
static int fail(json_ctx *c, const char *key, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[160] = "";
    int n = 0;
    if (c->si >= 0) n = snprintf(where, sizeof where, "worksheets[%d]", c->si);
    if (c->fi >= 0) n += snprintf(where + n, sizeof where - (size_t)n, ".fields[%d]", c->fi);
    if (key) snprintf(where + n, sizeof where - (size_t)n, "%s%s", n ? "." : "", key);
    return gn_err_setpos(c->e, GN_EPARSE, c->file, c->line, 0, "%s%s%s", where,
                         where[0] ? ": " : "", msg);
}

/* ---- object lines ------------------------------------------------------------ */

static void scan_lines(json_ctx *c, const char *text)
{
    int line = 1, cap = 0, in_str = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') line++;
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = 0;
        } else if (*p == '"') {
            in_str = 1;
        } else if (*p == '{') {
            if (c->nlines == cap) {
                cap = cap ? 2 * cap : 64;
                c->lines = xrealloc(c->lines, (size_t)cap * sizeof *c->lines);
            }
            c->lines[c->nlines++] = line;
        }
    }
}

static void collect_objs(json_ctx *c, const cJSON *n)
{
    if (cJSON_IsObject(n)) {
        if (c->nobjs == c->capobjs) {
            c->capobjs = c->capobjs ? 2 * c->capobjs : 64;
            c->objs = xrealloc(c->objs, (size_t)c->capobjs * sizeof *c->objs);
        }
        c->objs[c->nobjs++] = n;
    }
    for (const cJSON *k = n->child; k; k = k->next) collect_objs(c, k);
}

static int obj_line(const json_ctx *c, const cJSON *o)
{
    if (c->nobjs != c->nlines) return 0;
    for (int i = 0; i < c->nobjs; i++)
        if (c->objs[i] == o) return c->lines[i];
    return 0;
}

/* ---- reading objects ------------------------------------------------------------ */

static int read_fields(json_ctx *c, const cJSON *arr, int si);

static int read_special(json_ctx *c, const jkey *k, const cJSON *v, void *base, int si)
{
    static const char *const skinds[] = {"worksheet", "db", "type"};
    static const char *const fkinds[] = {"input", "internal", "output"};
    if (k->kind == J_FIELDS) {
        if (!cJSON_IsArray(v)) return fail(c, k->key, "expected an array of field objects");
        return read_fields(c, v, si);
    }
    if (k->kind == J_ENUM) {
        if (!cJSON_IsArray(v)) return fail(c, k->key, "expected an array of strings");
        int i = 0;
        for (const cJSON *x = v->child; x; x = x->next, i++) {
            if (!cJSON_IsString(x))
                return fail(c, k->key, "item %d: expected a string", i);
            char *t = ws_trimdup(x->valuestring, strlen(x->valuestring));
            ws_field_add_enum(base, t ? t : "");
            free(t);
        }
        return 0;
    }
    const char *const *words = k->kind == J_SKIND ? skinds : fkinds;
    if (!cJSON_IsString(v)) return fail(c, k->key, "expected a string: %s, %s or %s",
                                        words[0], words[1], words[2]);
    const char *s = v->valuestring;
    if (k->kind == J_SKIND) {
        if (!ws_sheet_kind_parse(s, &((ws_sheet *)base)->kind)) return 0;
    } else {
        for (int i = 0; i < 3; i++)
            if (!strcasecmp(s, fkinds[i])) return ((ws_field *)base)->kind = (enum ws_field_kind)i, 0;
    }
    const char *dym = ws_did_you_mean(s, words, 3);
    return fail(c, k->key, "unknown kind '%s'%s%s%s: expected %s, %s or %s", s,
                dym ? " (did you mean '" : "", dym ? dym : "", dym ? "'?)" : "",
                words[0], words[1], words[2]);
}

static int read_value(json_ctx *c, const jkey *k, const cJSON *v, void *base, int si)
{
    char **sp = (char **)((char *)base + k->off);
    switch (k->kind) {
    case J_BOOL:
        if (!cJSON_IsBool(v)) return fail(c, k->key, "expected true or false");
        *(int *)((char *)base + k->off) = cJSON_IsTrue(v);
        return 0;
    case J_STR:
    case J_OPT:
    case J_DESC:
        if (k->kind == J_OPT && cJSON_IsNull(v)) return 0;
        if (!cJSON_IsString(v)) return fail(c, k->key, "expected a string");
        free(*sp);
        *sp = ws_trimdup(v->valuestring, strlen(v->valuestring));
        if (!*sp && k->kind != J_OPT) *sp = xstrdup("");
        return 0;
    default:
        return read_special(c, k, v, base, si);
    }
}

/* Read object O's members into BASE by the table KEYS; MUST names a key
 * that must be present. */
static int read_object(json_ctx *c, const cJSON *o, const jkey *keys, int nkeys, void *base,
                       int si, const char *must, const char *must_hint)
{
    if (!cJSON_IsObject(o)) return fail(c, NULL, "expected an object");
    unsigned seen = 0;
    for (const cJSON *m = o->child; m; m = m->next) {
        int i = 0;
        while (i < nkeys && strcmp(m->string, keys[i].key)) i++;
        if (i == nkeys) {
            const char **names = xmalloc((size_t)nkeys * sizeof *names);
            for (int j = 0; j < nkeys; j++) names[j] = keys[j].key;
            const char *dym = ws_did_you_mean(m->string, names, nkeys);
            free(names);
            return fail(c, NULL, "unknown key \"%s\"%s%s%s", m->string,
                        dym ? " (did you mean \"" : "", dym ? dym : "", dym ? "\"?)" : "");
        }
        if (seen & (1u << i)) return fail(c, NULL, "duplicate key \"%s\"", m->string);
        seen |= 1u << i;
        int rc = read_value(c, &keys[i], m, base, si);
        if (rc) return rc;
    }
    for (int i = 0; i < nkeys; i++)
        if (!strcmp(keys[i].key, must) && !(seen & (1u << i)))
            return fail(c, NULL, "missing \"%s\": %s", must, must_hint);
    return 0;
}

static int read_fields(json_ctx *c, const cJSON *arr, int si)
{
    int saved_line = c->line;
    for (const cJSON *o = arr->child; o; o = o->next) {
        ws_sheet *w = &c->s->sheets[si];
        c->fi = ws_sheet_add_field(w);
        ws_field *f = &w->fields[c->fi];
        int l = obj_line(c, o);              /* not an object: its worksheet's line */
        c->line = f->line = l ? l : saved_line;
        int rc = read_object(c, o, field_keys, NKEYS(field_keys), f, si, "kind",
                             "input, internal or output");
        if (rc) return rc;
    }
    c->fi = -1;
    c->line = saved_line;
    return 0;
}

static int read_root(json_ctx *c, const cJSON *root)
{
    c->line = obj_line(c, root);
    if (!c->line) c->line = 1;
    int root_line = c->line;
    if (!cJSON_IsObject(root)) return fail(c, NULL, "expected an object {\"worksheets\": [...]}");
    for (const cJSON *m = root->child; m; m = m->next)
        if (strcmp(m->string, "worksheets"))
            return fail(c, NULL, "unknown key \"%s\": the top level holds \"worksheets\"", m->string);
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "worksheets");
    if (!cJSON_IsArray(arr)) return fail(c, "worksheets", "expected an array of worksheet objects");
    if (!arr->child) return fail(c, "worksheets", "no worksheets");
    for (const cJSON *o = arr->child; o; o = o->next) {
        int idx = c->si = ws_spec_add_sheet(c->s);
        int l = obj_line(c, o);              /* not an object: the top level's line */
        c->line = c->s->sheets[idx].line = l ? l : root_line;
        int rc = read_object(c, o, sheet_keys, NKEYS(sheet_keys), &c->s->sheets[idx], idx,
                             "kind", "worksheet, db or type");
        if (rc) return rc;
    }
    return 0;
}

/* ---- where errors found later point --------------------------------------------- */

static void json_where(void *ud, int sheet, int field, enum ws_what what, int item,
                       int *line, int *col, gn_buf *label)
{
    const json_ctx *c = ud;
    const ws_sheet *w = &c->s->sheets[sheet];
    *line = field >= 0 ? w->fields[field].line : w->line;
    *col = 0;
    gn_buf_printf(label, "worksheets[%d]", sheet);
    if (field >= 0) gn_buf_printf(label, ".fields[%d]", field);
    switch (what) {
    case WW_ROW: break;
    case WW_NAME: gn_buf_puts(label, ".name"); break;
    case WW_TYPE: gn_buf_puts(label, ".type"); break;
    case WW_ENUM: gn_buf_printf(label, ".enum[%d]", item); break;
    case WW_PRED: gn_buf_puts(label, ".predicate"); break;
    case WW_ACT: gn_buf_puts(label, ".actions"); break;
    }
}

/* ---- driver ------------------------------------------------------------------------ */

static int syntax_error(const char *name, const char *text, const char *at, gn_err *e)
{
    int line = 1, col = 1;
    if (!at) at = text;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') line++, col = 1;
        else col++;
    }
    if (!*at) return gn_err_setpos(e, GN_EPARSE, name, line, col, "invalid JSON: unexpected end");
    int n = 0;
    while (n < 20 && at[n] && at[n] != '\n' && at[n] != '\r') n++;
    return gn_err_setpos(e, GN_EPARSE, name, line, col, "invalid JSON near '%.*s'", n, at);
}

int ws_spec_parse_json(const char *name, const char *text, ws_spec **out, gn_err *e)
{
    *out = NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) return syntax_error(name, text, end, e);
    json_ctx c = {.file = name, .e = e, .s = ws_spec_new_empty(name), .si = -1, .fi = -1};
    scan_lines(&c, text);
    collect_objs(&c, root);
    int rc = read_root(&c, root);
    if (!rc) {
        ws_where w = {name, "list them in its \"enum\" array", json_where, &c};
        rc = ws_spec_check(c.s, &w, e);
    }
    cJSON_Delete(root);
    free(c.lines);
    free(c.objs);
    if (rc) ws_spec_free(c.s);
    else *out = c.s;
    return rc;
}
