/*
 * json.c — reading a JSON array of objects, or JSON Lines, an object at a
 * time.
 *
 * The file is never parsed whole: a small scanner finds where each
 * top-level object ends (braces counted outside strings, escapes skipped),
 * and cJSON parses just that object, so memory stays flat in the file's
 * size.  An array is `[ {...}, {...} ]`; JSON Lines (or objects one after
 * another) is any run of objects.  Keys become columns in the order they
 * first appear; strings are cells as they are, numbers in their shortest
 * exact form, booleans true/false, null empty, a small object columns of
 * its own (key_member), and arrays or bigger objects their JSON text (an
 * array of values becomes a list column).  A file that is one object
 * holding an array of objects ({"features": [...]}, {"data": [...]}) has
 * those as its records; a GeoJSON Feature is its properties.
 */
#include "ingest/ingest_int.h"
#include "util/utf8.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef ig_chunks jreader;

/* Skip white space (counting lines); the next byte, or -1 at the end. */
static int peek(jreader *r, gn_err *e)
{
    for (;;) {
        while (r->pos < r->len) {
            char c = r->buf[r->pos];
            if (c == '\n') r->line++;
            else if (c != ' ' && c != '\t' && c != '\r') return (unsigned char)c;
            r->pos++;
        }
        if (r->eof) return -1;
        if (ig_chunks_fill(r, "an object", e)) return -2;
    }
}

/* The object at r->pos (which is '{'): its length in *n, or an error. */
static int object_extent(jreader *r, size_t *n, long *lines, gn_err *e)
{
    for (;;) {
        int depth = 0, instr = 0;
        long nl = 0;
        for (size_t i = r->pos; i < r->len; i++) {
            char c = r->buf[i];
            if (c == '\n') nl++;
            if (instr) {
                if (c == '\\') i++;
                else if (c == '"') instr = 0;
                continue;
            }
            if (c == '"') instr = 1;
            else if (c == '{' || c == '[') depth++;
            else if ((c == '}' || c == ']') && --depth == 0) {
                *n = i + 1 - r->pos;
                *lines = nl;
                return 0;
            }
        }
        if (r->eof)
            return gn_err_setpos(e, GN_EPARSE, r->path, (int)r->line, 0,
                                 "this object is never closed (the file ends inside it)");
        if (ig_chunks_fill(r, "an object", e)) return e->code;
    }
}

static char *cell_text(const cJSON *v)
{
    char num[40];
    if (cJSON_IsNull(v)) return NULL;
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        while (*s == ' ' || *s == '\t') s++;
        char *t = xstrdup(s);
        size_t k = strlen(t);
        while (k && (t[k - 1] == ' ' || t[k - 1] == '\t')) t[--k] = '\0';
        if (ig_is_null(t)) { free(t); return NULL; }
        return t;
    }
    if (cJSON_IsBool(v)) return xstrdup(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsNumber(v)) {
        ig_number_text(v->valuedouble, num, sizeof num);
        return xstrdup(num);
    }
    char *s = cJSON_PrintUnformatted(v);
    char *t = xstrdup(s ? s : "");
    cJSON_free(s);
    return t;
}

/* The end of the JSON value at P (valid JSON: cJSON parsed it). */
static const char *value_end(const char *p, const char *end)
{
    int depth = 0, instr = 0;
    for (; p < end; p++) {
        if (instr) {
            if (*p == '\\') p++;
            else if (*p == '"') { instr = 0; if (!depth) return p + 1; }
            continue;
        }
        if (*p == '"') instr = 1;
        else if (*p == '{' || *p == '[') depth++;
        else if (*p == '}' || *p == ']') { if (--depth <= 0) return depth < 0 ? p : p + 1; }
        else if (!depth && (*p == ',' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            return p;
    }
    return end;
}

/* The text of the object's K-th member's value, when it is a number: the
 * digits as written, so 9007199254740993 is not rounded through a double.
 * Members are in the text in cJSON's order. */
static char *raw_number(const char *text, size_t n, int k)
{
    const char *p = memchr(text, '{', n), *end = text + n;
    if (!p) return NULL;
    p++;
    for (int i = 0; p < end; i++) {
        while (p < end && *p != '"') p++;                  /* the key */
        p = value_end(p, end);
        while (p < end && *p != ':') p++;
        p++;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
        const char *v = p;
        p = value_end(p, end);
        if (i == k) return (*v == '-' || (*v >= '0' && *v <= '9')) ? xstrndup(v, (size_t)(p - v)) : NULL;
        while (p < end && *p != ',') p++;
        p++;
    }
    return NULL;
}

static int find_column(ig_table *t, const char *key, int guess)
{
    if (guess < t->ncols && !strcmp(t->cols[guess].src, key)) return guess;
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].src, key)) return i;
    return -1;
}

/* How deeply arrays and objects nest in TEXT[N] (strings skipped). */
static long json_depth(const char *text, size_t n)
{
    long d = 0, most = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < n && text[i] != '"'; i++)
                if (text[i] == '\\') i++;
        } else if (c == '[' || c == '{') {
            if (++d > most) most = d;
        } else if (c == ']' || c == '}') {
            d--;
        }
    }
    return most;
}

/* An object a member holds is flattened into columns of its own
 * ("baseStats": {"hp": 45} is column baseStats_hp) when it is small and
 * not deep: at most FLAT_MEMBERS members, FLAT_DEPTH levels down.  A
 * bigger one (a map of hundreds of keys) stays one column of JSON text. */
#define FLAT_MEMBERS 16
#define FLAT_DEPTH 3

typedef struct obj_ctx {
    ig_table *t;
    int grow;
    long line;
    char ***cells;
    int *cap;
    const char *text;         /* the object's text (big numbers as written) */
    size_t n;
} obj_ctx;

static int flattens(const cJSON *v, int depth)
{
    return cJSON_IsObject(v) && v->child && depth + 1 < FLAT_DEPTH &&
           cJSON_GetArraySize(v) <= FLAT_MEMBERS;
}

/* The cells of object O's members, column names after PREFIX. */
static int members(obj_ctx *c, const cJSON *o, const char *prefix, int depth, gn_err *e)
{
    int k = 0;
    for (const cJSON *v = o->child; v; v = v->next, k++) {
        char *key = *prefix ? xasprintf("%s_%s", prefix, v->string) : xstrdup(v->string);
        if (flattens(v, depth)) {
            int rc = members(c, v, key, depth + 1, e);
            free(key);
            if (rc) return rc;
            continue;
        }
        ig_table *t = c->t;
        int col = find_column(t, key, k);
        if (col < 0) {
            if (!c->grow) {
                int rc = gn_err_setpos(e, GN_EIO, t->path, (int)c->line, 0,
                                       "key \"%s\" was not there when the file was first read "
                                       "(did it change?)", key);
                free(key);
                return rc;
            }
            if ((col = ig_column_add(t, key, c->line, e)) < 0) {
                free(key);
                return e->code;
            }
        }
        free(key);
        if (t->ncols > *c->cap) {
            int old = *c->cap;
            *c->cap = t->ncols * 2;
            *c->cells = xrealloc(*c->cells, (size_t)*c->cap * sizeof **c->cells);
            memset(*c->cells + old, 0, (size_t)(*c->cap - old) * sizeof **c->cells);
        }
        free((*c->cells)[col]);
        /* below 2^53 a double holds the number exactly: no rescan (a
         * top-level member's digits only) */
        char *raw = !depth && c->text && cJSON_IsNumber(v) && fabs(v->valuedouble) >= 9007199254740992.0
                        ? raw_number(c->text, c->n, k) : NULL;
        (*c->cells)[col] = raw ? raw : cell_text(v);
    }
    return 0;
}

/* The row of parsed object O (C->text its text, or NULL: big numbers are
 * then read through a double), handed to FN. */
static int object_row(obj_ctx *c, const cJSON *o, ig_row_fn fn, void *ud, gn_err *e)
{
    int rc = members(c, o, "", 0, e);
    if (!rc) rc = fn(ud, c->t, *c->cells, c->line, e);
    for (int i = 0; i < c->t->ncols; i++) {
        free((*c->cells)[i]);
        (*c->cells)[i] = NULL;
    }
    return rc;
}

static int one_object(ig_table *t, int grow, const char *text, size_t n, long line,
                      char ***cells, int *cap, ig_row_fn fn, void *ud, gn_err *e)
{
    if (!gn_utf8_valid(text, n))
        return gn_err_setpos(e, GN_EPARSE, t->path, (int)line, 0, "%s in this object",
                             memchr(text, 0, n) ? "a NUL byte" : "invalid UTF-8");
    cJSON *o = cJSON_ParseWithLength(text, n);
    if (!o) {
        const char *at = cJSON_GetErrorPtr();
        long l = line;
        for (const char *p = text; at && p < at && p < text + n; p++) l += *p == '\n';
        long depth = json_depth(text, n);
        if (depth > CJSON_NESTING_LIMIT)
            return gn_err_setpos(e, GN_EPARSE, t->path, (int)line, 0, "this object nests arrays "
                                 "and objects %ld deep, more than the %d levels genie reads",
                                 depth, CJSON_NESTING_LIMIT);
        return gn_err_setpos(e, GN_EPARSE, t->path, (int)l, 0, "this object is not valid JSON");
    }
    obj_ctx c = { t, grow, line, cells, cap, text, n };
    int rc = object_row(&c, o, fn, ud, e);
    cJSON_Delete(o);
    return rc;
}

/* The records of a file that is one object: the elements of its array
 * of objects ("features" of GeoJSON, "data", "results" ...: the member
 * named so, else the longest array whose elements are all objects), one
 * row each, a GeoJSON Feature as its properties with its geometry (JSON
 * text) and id; with no such array the object is the one row. */
static int wrapped(ig_table *t, int grow, const char *text, size_t n, long line, char ***cells,
                   int *cap, ig_row_fn fn, void *ud, gn_err *e)
{
    static const char *const names[] = { "features", "data", "results", "records", "items", "rows", NULL };
    cJSON *o = gn_utf8_valid(text, n) ? cJSON_ParseWithLength(text, n) : NULL;
    const cJSON *best = NULL;
    for (const cJSON *v = o ? o->child : NULL; v; v = v->next) {
        if (!cJSON_IsArray(v) || !v->child) continue;
        int all = 1;
        for (const cJSON *it = v->child; it && all; it = it->next) all = cJSON_IsObject(it);
        if (!all) continue;
        int named = 0;
        for (int i = 0; names[i] && !named; i++) named = !strcmp(v->string, names[i]);
        if (named) { best = v; break; }
        if (!best || cJSON_GetArraySize(v) > cJSON_GetArraySize(best)) best = v;
    }
    if (!best) {
        cJSON_Delete(o);
        return one_object(t, grow, text, n, line, cells, cap, fn, ud, e);
    }
    int rc = 0;
    for (const cJSON *it = best->child; it && !rc; it = it->next) {
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(it, "properties");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(it, "type");
        cJSON *row = NULL;
        if (cJSON_IsObject(props) && cJSON_IsString(type) && !strcmp(type->valuestring, "Feature")) {
            row = cJSON_Duplicate(props, 1);
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
            const cJSON *geo = cJSON_GetObjectItemCaseSensitive(it, "geometry");
            if (id && !cJSON_GetObjectItemCaseSensitive(row, "id"))
                cJSON_AddItemToObject(row, "id", cJSON_Duplicate(id, 1));
            if (geo) {
                char *g = cJSON_PrintUnformatted(geo);
                cJSON_AddStringToObject(row, "geometry", g ? g : "");
                cJSON_free(g);
            }
        }
        obj_ctx c = { t, grow, line, cells, cap, NULL, 0 };
        rc = object_row(&c, row ? row : it, fn, ud, e);
        cJSON_Delete(row);
    }
    cJSON_Delete(o);
    return rc;
}

int ig_scan_json(ig_table *t, int grow, ig_row_fn fn, void *ud, ig_progress_fn progress,
                 void *pud, gn_err *e)
{
    jreader r;
    int rc = ig_chunks_open(&r, t->path, e), cap = t->ncols > 8 ? t->ncols : 8;
    char **cells = xcalloc((size_t)cap, sizeof *cells);
    int c = rc ? -2 : peek(&r, e), array = c == '[';
    long rows = 0;
    int closed = 0;
    if (array) {
        r.pos++;
        c = peek(&r, e);
    }
    while (!rc && c >= 0) {
        if (array && c == ']') {
            closed = 1;
            r.pos++;
            c = peek(&r, e);
            if (c >= 0) rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)r.line, 0,
                                           "text after the array's closing ']'");
            break;
        }
        if (c != '{') {
            rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)r.line, 0, "expected %s, found '%c'",
                               array ? "an object '{' or the array's end ']'" : "an object '{'",
                               c);
            break;
        }
        size_t n = 0;
        long lines = 0;
        if ((rc = object_extent(&r, &n, &lines, e))) break;
        if (!array && !rows) {
            /* The first object: when it is the whole file, its records may
             * be wrapped in it ({"features": [...]}) */
            char *obj = xstrndup(r.buf + r.pos, n);
            long at = r.line;
            r.pos += n;
            r.line += lines;
            c = peek(&r, e);
            if (c == -1) rc = wrapped(t, grow, obj, n, at, &cells, &cap, fn, ud, e);
            else if (c == -2) rc = e->code;
            else rc = one_object(t, grow, obj, n, at, &cells, &cap, fn, ud, e);
            free(obj);
            rows++;
            if (rc || c < 0) break;
            continue;
        }
        rc = one_object(t, grow, r.buf + r.pos, n, r.line, &cells, &cap, fn, ud, e);
        r.pos += n;
        r.line += lines;
        if (rc) break;
        if (++rows % IG_PROGRESS_EVERY == 0 && progress && progress(pud, t, NULL, rows, 0)) {
            rc = gn_err_set(e, GN_ECANCEL, "cancelled");
            break;
        }
        c = peek(&r, e);
        if (array && c == ',') {
            r.pos++;
            c = peek(&r, e);
            if (c == ']') {
                rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)r.line, 0,
                                   "a comma before the array's closing ']'");
                break;
            }
        } else if (array && c != ']') {
            if (c >= 0)
                rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)r.line, 0,
                                   "expected ',' or ']' after an object");
            break;
        }
    }
    if (!rc && c == -2) rc = e->code;
    if (!rc && array && !closed)
        rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)r.line, 0,
                           "the array is never closed with ']'");
    free(cells);
    ig_chunks_close(&r);
    return rc;
}
