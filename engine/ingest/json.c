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
 * exact form, booleans true/false, null empty, and arrays or objects their
 * JSON text (an array of values becomes a list column).
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
    int rc = 0, k = 0;
    for (cJSON *v = o->child; v; v = v->next, k++) {
        int col = find_column(t, v->string, k);
        if (col < 0) {
            if (!grow) {
                rc = gn_err_setpos(e, GN_EIO, t->path, (int)line, 0,
                                   "key \"%s\" was not there when the file was first read "
                                   "(did it change?)", v->string);
                break;
            }
            if ((col = ig_column_add(t, v->string, line, e)) < 0) {
                rc = e->code;
                break;
            }
        }
        if (t->ncols > *cap) {
            int old = *cap;
            *cap = t->ncols * 2;
            *cells = xrealloc(*cells, (size_t)*cap * sizeof **cells);
            memset(*cells + old, 0, (size_t)(*cap - old) * sizeof **cells);
        }
        free((*cells)[col]);
        /* below 2^53 a double holds the number exactly: no rescan */
        char *raw = cJSON_IsNumber(v) && fabs(v->valuedouble) >= 9007199254740992.0
                        ? raw_number(text, n, k) : NULL;
        (*cells)[col] = raw ? raw : cell_text(v);
    }
    cJSON_Delete(o);
    if (!rc) rc = fn(ud, t, *cells, line, e);
    for (int i = 0; i < t->ncols; i++) {
        free((*cells)[i]);
        (*cells)[i] = NULL;
    }
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
