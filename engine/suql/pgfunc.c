/*
 * pgfunc.c — PostgreSQL's text, array, math and date functions that
 * SQLite lacks or defines differently, as SQL functions (pgfunc.h):
 * lpad, rpad, repeat, reverse, octet_length, ascii, chr, md5, translate,
 * string_to_array, array_position, array_remove, array_append,
 * array_prepend, array_cat, the trigonometric functions, degrees,
 * radians, log10, cbrt, div, gcd, lcm, make_date, make_time, date_trunc.
 *
 * Text is UTF-8 and counted in code points, as PostgreSQL counts it in a
 * UTF8 database.  Arrays are JSON arrays (how genie stores them); the
 * array functions split an array's text into its top-level elements and
 * write the kept elements back byte for byte, so a number or a string
 * comes out exactly as it went in.  An element argument arrives as JSON
 * text too (the emitter passes json_quote(x)), so SQL NULL is JSON null
 * and array_position(arr, NULL) finds a NULL element, as PostgreSQL's IS
 * NOT DISTINCT FROM does.  Elements compare by value: numbers as
 * numbers, strings by their bytes, null equal to null.
 *
 * The math functions are C, not SQLite's built-ins of the same names:
 * SQLite returns NULL for acos(2) or log10(0) where PostgreSQL raises
 * "input is out of range" or "cannot take logarithm of zero", and SQLite
 * has no cbrt.  div follows the project's numeric (pgval.c): the quotient
 * of two doubles is rounded to 15 significant digits before it is
 * truncated, so div(0.3, 0.1) is 3 as in PostgreSQL.
 *
 * Rejected: BC dates (make_date with a year before 1 is the out-of-range
 * error; pgtime.c has none); date_trunc on an interval or with a time
 * zone; gcd and lcm of fractional numerics (integers only, as bigint:
 * "bigint out of range" where PostgreSQL's int4 versions would say
 * "integer out of range"); parsing arrays with cJSON (it would reprint
 * numbers and escapes).
 */
#include "suql/pgfunc.h"
#include "suql/pgfn.h"
#include "suql/pgtime.h"

#include "util/buf.h"
#include "util/md5.h"
#include "util/utf8.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* JSON's subtype, as SQLite's JSON functions mark their results. */
#define JSON_SUBTYPE 74

/* ---- helpers ------------------------------------------------------------- */

/* The longest text this connection may hold (SQLite's length limit). */
static long long max_len(sqlite3_context *c)
{
    return sqlite3_limit(sqlite3_context_db_handle(c), SQLITE_LIMIT_LENGTH, -1);
}

/* PostgreSQL's error for a text longer than the connection may hold,
 * with the limit named. */
static void too_long(sqlite3_context *c)
{
    char msg[160];
    snprintf(msg, sizeof msg, "requested length too large (a text value may hold at most %lld MB, "
             "a sixteenth of --query-memory)", max_len(c) >> 20);
    suql_pg_error(c, "%s", msg);
}

/* Room for a result of N bytes in SQLite's heap, where the query's memory
 * limit counts it (NULL, with the error set, when it does not fit). */
static char *result_room(sqlite3_context *c, long long n)
{
    char *out = sqlite3_malloc64((sqlite3_uint64)n + 1);
    if (!out) sqlite3_result_error_nomem(c);
    return out;
}

/* Fill OUT[0..N) with UNIT[0..UB) over and over, doubling what is there. */
static void fill_repeat(char *out, long long n, const char *unit, long long ub)
{
    if (n <= 0) return;
    long long have = ub < n ? ub : n;
    memcpy(out, unit, (size_t)have);
    while (have < n) {
        long long k = have < n - have ? have : n - have;
        memcpy(out + have, out, (size_t)k);
        have += k;
    }
}

/* Result text B (taken over: released here). */
static void result_buf(sqlite3_context *c, gn_buf *b)
{
    sqlite3_result_text(c, b->data ? b->data : "", (int)b->len, SQLITE_TRANSIENT);
    gn_buf_release(b);
}

/* Bytes of the character at S (1 for a stray continuation byte). */
static size_t char_len(const char *s)
{
    size_t n = 1;
    while (s[n] && (s[n] & 0xC0) == 0x80) n++;
    return n;
}

static long long char_count(const char *s)
{
    long long n = 0;
    for (; *s; s++) n += (*s & 0xC0) != 0x80;
    return n;
}

/* Byte offset of character I (0-based) in S, or its length when past. */
static size_t char_at(const char *s, long long i)
{
    size_t b = 0;
    for (long long k = 0; s[b] && k < i; k++) b += char_len(s + b);
    return b;
}

/* The code point at S (its first byte when not well-formed). */
static long code_point(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) return u[0];
    int n = u[0] >= 0xF0 ? 3 : u[0] >= 0xE0 ? 2 : u[0] >= 0xC0 ? 1 : 0;
    long cp = u[0] & (0x3F >> n);
    for (int i = 1; i <= n; i++) {
        if ((u[i] & 0xC0) != 0x80) return u[0];
        cp = cp << 6 | (u[i] & 0x3F);
    }
    return cp;
}

/* A numeric argument as a double: 0, or -1 after PostgreSQL's error for
 * text that is not a number. */
static int arg_double(sqlite3_context *c, sqlite3_value *v, double *d)
{
    int t = sqlite3_value_numeric_type(v);
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
        *d = sqlite3_value_double(v);
        return 0;
    }
    suql_pg_error(c, "invalid input syntax for type double precision: \"%.60s\"", suql_pg_text(v));
    return -1;
}

/* An integer argument of function FN (a double with no fraction counts):
 * 0, or -1 after the error. */
static int arg_int(sqlite3_context *c, sqlite3_value *v, const char *fn, long long *i)
{
    int t = sqlite3_value_numeric_type(v);
    if (t == SQLITE_INTEGER) {
        *i = sqlite3_value_int64(v);
        return 0;
    }
    double d = sqlite3_value_double(v);
    if (t == SQLITE_FLOAT && d == floor(d) && fabs(d) < 9.2e18) {
        *i = (long long)d;
        return 0;
    }
    if (t == SQLITE_FLOAT) suql_pg_error(c, "%s() takes integers: %.17g is not one", fn, d);
    else suql_pg_error(c, "invalid input syntax for type bigint: \"%.60s\"", suql_pg_text(v));
    return -1;
}

/* ---- text ---------------------------------------------------------------- */

/* suql_lpad(s, n[, fill]) and suql_rpad: S cut or padded to N characters
 * with FILL (a space) repeated; an empty FILL pads nothing. */
static void pad(sqlite3_context *c, int argc, sqlite3_value **v, int left)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]), *fill = argc > 2 ? suql_pg_text(v[2]) : " ";
    long long n = sqlite3_value_int64(v[1]), len = char_count(s);
    if (n < 0) n = 0;
    if (len >= n || !*fill || char_count(fill) == 0) {
        size_t b = char_at(s, n);
        sqlite3_result_text(c, s, (int)b, SQLITE_TRANSIENT);
        return;
    }
    long long want = n - len, fc = char_count(fill), fb = (long long)strlen(fill);
    long long sb = (long long)strlen(s), tail = (long long)char_at(fill, want % fc);
    if (want > max_len(c) || (want / fc) * fb + tail + sb > max_len(c)) {
        too_long(c);
        return;
    }
    long long padb = (want / fc) * fb + tail, total = padb + sb;
    char *out = result_room(c, total);
    if (!out) return;
    fill_repeat(out + (left ? 0 : sb), padb, fill, fb);
    memcpy(out + (left ? padb : 0), s, (size_t)sb);
    out[total] = 0;
    sqlite3_result_text64(c, out, (sqlite3_uint64)total, sqlite3_free, SQLITE_UTF8);
}

static void fn_lpad(sqlite3_context *c, int argc, sqlite3_value **v) { pad(c, argc, v, 1); }
static void fn_rpad(sqlite3_context *c, int argc, sqlite3_value **v) { pad(c, argc, v, 0); }

/* suql_repeat(s, n): S N times; '' for N <= 0. */
static void fn_repeat(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]);
    long long n = sqlite3_value_int64(v[1]), sb = (long long)strlen(s);
    if (n <= 0 || !sb) {
        sqlite3_result_text(c, "", 0, SQLITE_STATIC);
        return;
    }
    if (n > max_len(c) / sb) {
        too_long(c);
        return;
    }
    char *out = result_room(c, n * sb);
    if (!out) return;
    fill_repeat(out, n * sb, s, sb);
    out[n * sb] = 0;
    sqlite3_result_text64(c, out, (sqlite3_uint64)(n * sb), sqlite3_free, SQLITE_UTF8);
}

/* suql_reverse(s): the characters of S last to first. */
static void fn_reverse(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    const char *s = suql_pg_text(v[0]);
    size_t n = strlen(s);
    char *out = sqlite3_malloc64(n + 1);
    if (!out) {
        sqlite3_result_error_nomem(c);
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t k = char_len(s + i);
        memcpy(out + n - i - k, s + i, k);
        i += k;
    }
    out[n] = 0;
    sqlite3_result_text(c, out, (int)n, sqlite3_free);
}

/* suql_octet_length(s): bytes of S's UTF-8. */
static void fn_octet_length(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) sqlite3_result_null(c);
    else sqlite3_result_int64(c, (sqlite3_int64)strlen(suql_pg_text(v[0])));
}

/* suql_ascii(s): the code point of S's first character; 0 for ''. */
static void fn_ascii(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) sqlite3_result_null(c);
    else sqlite3_result_int64(c, code_point(suql_pg_text(v[0])));
}

/* suql_chr(n): the character of code point N. */
static void fn_chr(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    long long n = sqlite3_value_int64(v[0]);
    if (n <= 0 || n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) {
        if (n < 0) suql_pg_error(c, "character number must be positive");
        else if (n == 0) suql_pg_error(c, "null character not permitted");
        else if (n > 0x10FFFF) suql_pg_error(c, "requested character too large for encoding: %lld", n);
        else suql_pg_error(c, "requested character not valid for encoding: %lld", n);
        return;
    }
    char out[4];
    int k = gn_utf8_put((uint32_t)n, out);
    sqlite3_result_text(c, out, k, SQLITE_TRANSIENT);
}

/* suql_md5(s): the MD5 of S's bytes in hex. */
static void fn_md5(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    char out[33];
    gn_md5_hex(suql_pg_text(v[0]), (size_t)sqlite3_value_bytes(v[0]), out);
    sqlite3_result_text(c, out, 32, SQLITE_TRANSIENT);
}

/* suql_translate(s, from, to): each character of S found in FROM (its
 * first place there) replaced by TO's character at that place, or
 * dropped when TO is shorter. */
static void fn_translate(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]), *from = suql_pg_text(v[1]), *to = suql_pg_text(v[2]);
    gn_buf b;
    gn_buf_init(&b);
    for (size_t i = 0; s[i];) {
        size_t k = char_len(s + i);
        long long at = 0;
        const char *f = from;
        while (*f && (char_len(f) != k || memcmp(f, s + i, k))) f += char_len(f), at++;
        if (!*f) {
            gn_buf_add(&b, s + i, k);
        } else {
            size_t t = char_at(to, at);
            if (to[t]) gn_buf_add(&b, to + t, char_len(to + t));
        }
        i += k;
    }
    result_buf(c, &b);
}

/* ---- arrays -------------------------------------------------------------- */

/* S[0, N) as a JSON string. */
static void json_string(gn_buf *b, const char *s, size_t n)
{
    gn_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            gn_buf_putc(b, '\\');
            gn_buf_putc(b, (char)ch);
        } else if (ch < 0x20) {
            const char *esc = ch == '\n' ? "\\n" : ch == '\t' ? "\\t" : ch == '\r' ? "\\r"
                            : ch == '\b' ? "\\b" : ch == '\f' ? "\\f" : NULL;
            if (esc) gn_buf_puts(b, esc);
            else gn_buf_printf(b, "\\u%04x", ch);
        } else {
            gn_buf_putc(b, (char)ch);
        }
    }
    gn_buf_putc(b, '"');
}

/* suql_string_to_array(s, delim[, null_string]): the fields of S between
 * DELIM as a JSON array of strings ([] for ''); a NULL DELIM splits S into
 * characters, an empty one gives S whole; a field equal to NULL_STRING is
 * null. */
static void fn_string_to_array(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    const char *s = suql_pg_text(v[0]), *dl = suql_pg_is_null(v[1]) ? NULL : suql_pg_text(v[1]);
    const char *ns = argc > 2 && !suql_pg_is_null(v[2]) ? suql_pg_text(v[2]) : NULL;
    size_t dn = dl ? strlen(dl) : 0;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_putc(&b, '[');
    for (const char *p = s; *p;) {
        const char *e = !dl ? p + char_len(p) : !dn ? p + strlen(p) : strstr(p, dl);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (p != s) gn_buf_putc(&b, ',');
        if (ns && strlen(ns) == n && !memcmp(ns, p, n)) gn_buf_puts(&b, "null");
        else json_string(&b, p, n);
        if (!dl || !dn) {
            p += n;
            continue;
        }
        if (!e) break;
        p = e + dn;
        if (!*p) {   /* a trailing delimiter: one empty field after it */
            gn_buf_putc(&b, ',');
            if (ns && !*ns) gn_buf_puts(&b, "null");
            else gn_buf_puts(&b, "\"\"");
        }
    }
    gn_buf_putc(&b, ']');
    result_buf(c, &b);
    sqlite3_result_subtype(c, JSON_SUBTYPE);
}

/* A JSON array's top-level elements: where each starts, its length. */
typedef struct elems {
    const char **at;
    size_t *len;
    int n;
} elems;

static void elems_free(elems *a)
{
    sqlite3_free(a->at);
    sqlite3_free(a->len);
}

/* The end of the JSON value at P (strings and nesting skipped), or NULL
 * when it runs off the text. */
static const char *value_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) return NULL;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if (*p == ']' || *p == '}') {
            if (!depth) return p;
            depth--;
        } else if (*p == ',' && !depth) {
            return p;
        }
    }
    return NULL;
}

/* Split JSON array S into A: 0, or -1 after setting the error on C. */
static int split_array(sqlite3_context *c, const char *s, elems *a)
{
    memset(a, 0, sizeof *a);
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    if (*p++ != '[') goto bad;
    size_t cap = 0;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (*p == ']' && !a->n) {
            p++;
            break;
        }
        const char *e = value_end(p);
        if (!e || e == p) goto bad;
        size_t n = (size_t)(e - p);
        while (n && isspace((unsigned char)p[n - 1])) n--;
        if ((size_t)a->n == cap) {
            cap = cap ? 2 * cap : 8;
            const char **at = sqlite3_realloc64(a->at, cap * sizeof *at);
            if (at) a->at = at;
            size_t *len = sqlite3_realloc64(a->len, cap * sizeof *len);
            if (len) a->len = len;
            if (!at || !len) {
                elems_free(a);
                sqlite3_result_error_nomem(c);
                return -1;
            }
        }
        a->at[a->n] = p;
        a->len[a->n++] = n;
        p = e + 1;
        if (*e == ']') break;
    }
    while (isspace((unsigned char)*p)) p++;
    if (!*p) return 0;
bad:
    elems_free(a);
    suql_pg_error(c, "malformed array literal: \"%.60s\"", s);
    return -1;
}

/* Whether JSON values A and B (parsed) are the same value: numbers by
 * value, strings by bytes, a number and a string by the string read as
 * a number (a literal '3' against an integer array). */
static int same_json(const cJSON *a, const cJSON *b)
{
    if (!a || !b) return 0;
    if (cJSON_IsString(a) && cJSON_IsNumber(b)) {
        const cJSON *t = a;
        a = b;
        b = t;
    }
    if (cJSON_IsNumber(a) && cJSON_IsString(b)) {
        char *end;
        double d = strtod(b->valuestring, &end);
        return end != b->valuestring && !*end && d == a->valuedouble;
    }
    if (cJSON_IsNumber(a) && cJSON_IsBool(b)) return a->valuedouble == cJSON_IsTrue(b);
    if (cJSON_IsBool(a) && cJSON_IsNumber(b)) return b->valuedouble == cJSON_IsTrue(a);
    if ((a->type & 0xFF) != (b->type & 0xFF)) return 0;
    if (cJSON_IsNumber(a)) return a->valuedouble == b->valuedouble;
    if (cJSON_IsString(a)) return !strcmp(a->valuestring, b->valuestring);
    if (cJSON_IsNull(a) || cJSON_IsBool(a)) return 1;
    return cJSON_Compare(a, b, 1);
}

/* Whether element I of A is the value ELEM (parsed). */
static int elem_is(const elems *a, int i, const cJSON *elem)
{
    cJSON *x = cJSON_ParseWithLength(a->at[i], a->len[i]);
    int r = same_json(x, elem);
    cJSON_Delete(x);
    return r;
}

/* Result: the JSON array of BEFORE (one element's JSON text, or NULL),
 * the elements of A (may be NULL), then AFTER (the same). */
static void result_array(sqlite3_context *c, const char *before, const elems *a, const char *after)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_putc(&b, '[');
    if (before) gn_buf_puts(&b, before);
    for (int i = 0; a && i < a->n; i++) {
        if (b.len > 1) gn_buf_putc(&b, ',');
        gn_buf_add(&b, a->at[i], a->len[i]);
    }
    if (after) {
        if (b.len > 1) gn_buf_putc(&b, ',');
        gn_buf_puts(&b, after);
    }
    gn_buf_putc(&b, ']');
    result_buf(c, &b);
    sqlite3_result_subtype(c, JSON_SUBTYPE);
}

/* The element argument: JSON text ("null" for SQL NULL). */
static const char *elem_arg(sqlite3_value *v)
{
    return suql_pg_is_null(v) ? "null" : suql_pg_text(v);
}

/* suql_array_position(arr, elem[, start]): the 1-based place of the
 * first ELEM in ARR at or after START, or NULL. */
static void fn_array_position(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    long long start = 1;
    if (argc > 2) {
        if (suql_pg_is_null(v[2])) {
            suql_pg_error(c, "initial position must not be null");
            return;
        }
        start = sqlite3_value_int64(v[2]);
    }
    elems a;
    if (split_array(c, suql_pg_text(v[0]), &a)) return;
    cJSON *elem = cJSON_Parse(elem_arg(v[1]));
    long long found = 0;
    for (long long i = start < 1 ? 0 : start - 1; i < a.n && !found; i++)
        if (elem_is(&a, (int)i, elem)) found = i + 1;
    cJSON_Delete(elem);
    elems_free(&a);
    if (found) sqlite3_result_int64(c, found);
    else sqlite3_result_null(c);
}

/* suql_array_remove(arr, elem): ARR without the elements equal to ELEM. */
static void fn_array_remove(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    elems a;
    if (split_array(c, suql_pg_text(v[0]), &a)) return;
    cJSON *elem = cJSON_Parse(elem_arg(v[1]));
    int kept = 0;
    for (int i = 0; i < a.n; i++) {
        if (elem_is(&a, i, elem)) continue;
        a.at[kept] = a.at[i];
        a.len[kept++] = a.len[i];
    }
    a.n = kept;
    cJSON_Delete(elem);
    result_array(c, NULL, &a, NULL);
    elems_free(&a);
}

/* suql_array_append(arr, elem) and suql_array_prepend(elem, arr): a NULL
 * ARR is the empty array. */
static void add_elem(sqlite3_context *c, sqlite3_value *arr, sqlite3_value *elem, int front)
{
    elems a = { 0 };
    if (!suql_pg_is_null(arr) && split_array(c, suql_pg_text(arr), &a)) return;
    result_array(c, front ? elem_arg(elem) : NULL, &a, front ? NULL : elem_arg(elem));
    elems_free(&a);
}

static void fn_array_append(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    add_elem(c, v[0], v[1], 0);
}

static void fn_array_prepend(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    add_elem(c, v[1], v[0], 1);
}

/* suql_array_cat(a, b): A's elements then B's; a NULL side adds none,
 * two NULLs are NULL. */
static void fn_array_cat(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0]) && suql_pg_is_null(v[1])) {
        sqlite3_result_null(c);
        return;
    }
    elems a = { 0 }, b = { 0 };
    if (!suql_pg_is_null(v[0]) && split_array(c, suql_pg_text(v[0]), &a)) return;
    if (!suql_pg_is_null(v[1]) && split_array(c, suql_pg_text(v[1]), &b)) {
        elems_free(&a);
        return;
    }
    gn_buf out;
    gn_buf_init(&out);
    gn_buf_putc(&out, '[');
    for (int i = 0; i < a.n + b.n; i++) {
        if (i) gn_buf_putc(&out, ',');
        if (i < a.n) gn_buf_add(&out, a.at[i], a.len[i]);
        else gn_buf_add(&out, b.at[i - a.n], b.len[i - a.n]);
    }
    gn_buf_putc(&out, ']');
    elems_free(&a);
    elems_free(&b);
    result_buf(c, &out);
    sqlite3_result_subtype(c, JSON_SUBTYPE);
}

/* ---- math ---------------------------------------------------------------- */

#define RADIANS_PER_DEGREE 0.0174532925199432957692

/* How a one-argument function checks its input and result. */
enum { M_ANY, M_FINITE, M_UNIT, M_LOG, M_DIV_RPD, M_MUL_RPD, M_SQRT, M_EXP };

typedef struct math_fn {
    const char *name;
    double (*f)(double);
    int check;
} math_fn;

static double degrees_(double x) { return x / RADIANS_PER_DEGREE; }
static double radians_(double x) { return x * RADIANS_PER_DEGREE; }

static const math_fn math_fns[] = {
    { "suql_cos", cos, M_FINITE }, { "suql_sin", sin, M_FINITE }, { "suql_tan", tan, M_FINITE },
    { "suql_acos", acos, M_UNIT }, { "suql_asin", asin, M_UNIT }, { "suql_atan", atan, M_ANY },
    { "suql_cbrt", cbrt, M_ANY }, { "suql_log10", log10, M_LOG }, { "suql_log", log10, M_LOG },
    { "suql_ln", log, M_LOG },
    { "suql_sqrt", sqrt, M_SQRT }, { "suql_exp", exp, M_EXP },
    { "suql_degrees", degrees_, M_DIV_RPD }, { "suql_radians", radians_, M_MUL_RPD },
};

/* PostgreSQL's float8 functions: NaN in, NaN out; its range errors. */
static void fn_math(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    const math_fn *m = sqlite3_user_data(c);
    double x;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    if (arg_double(c, v[0], &x)) return;
    if (isnan(x)) {
        sqlite3_result_double(c, x);
        return;
    }
    if ((m->check == M_FINITE && isinf(x)) || (m->check == M_UNIT && (x < -1 || x > 1))) {
        suql_pg_error(c, "input is out of range");
        return;
    }
    if (m->check == M_LOG && x <= 0) {
        suql_pg_error(c, x == 0 ? "cannot take logarithm of zero" : "cannot take logarithm of a negative number");
        return;
    }
    if (m->check == M_SQRT && x < 0) {
        suql_pg_error(c, "cannot take square root of a negative number");
        return;
    }
    double r = m->f(x);
    if (isinf(r) && !isinf(x)) {
        suql_pg_error(c, "value out of range: overflow");
        return;
    }
    if ((r == 0 && m->check == M_EXP && !isinf(x)) ||
        (r == 0 && x != 0 && ((m->check == M_LOG && x != 1) || m->check == M_DIV_RPD || m->check == M_MUL_RPD))) {
        suql_pg_error(c, "value out of range: underflow");
        return;
    }
    sqlite3_result_double(c, r);
}

/* suql_log(b, x): the logarithm of X to base B, with PostgreSQL's errors. */
static void fn_log_b(sqlite3_context *c, int argc, sqlite3_value **v)
{
    double b, x;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_double(c, v[0], &b) || arg_double(c, v[1], &x)) return;
    /* The base first, as PostgreSQL checks it. */
    double bad = b <= 0 ? b : x <= 0 ? x : 1;
    if (bad <= 0) {
        suql_pg_error(c, bad == 0 ? "cannot take logarithm of zero" : "cannot take logarithm of a negative number");
        return;
    }
    if (b == 1) {
        suql_pg_error(c, "division by zero");
        return;
    }
    sqlite3_result_double(c, log(x) / log(b));
}

/* suql_pow(x, y): X to the power Y (power() and ^), with PostgreSQL's
 * errors where SQLite's pow() gives NULL or Inf. */
static void fn_pow(sqlite3_context *c, int argc, sqlite3_value **v)
{
    double x, y;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_double(c, v[0], &x) || arg_double(c, v[1], &y)) return;
    if (x == 0 && y < 0) {
        suql_pg_error(c, "zero raised to a negative power is undefined");
        return;
    }
    if (x < 0 && y != floor(y)) {
        suql_pg_error(c, "a negative number raised to a non-integer power yields a complex result");
        return;
    }
    double r = pow(x, y);
    if (isinf(r) && !isinf(x) && !isinf(y)) {
        suql_pg_error(c, "value out of range: overflow");
        return;
    }
    if (r == 0 && x != 0 && !isinf(y)) {
        suql_pg_error(c, "value out of range: underflow");
        return;
    }
    sqlite3_result_double(c, r);
}

/* suql_fcheck(x): X, or PostgreSQL's error when double precision
 * arithmetic overflowed (SQLite gives Inf).  genie refuses Infinity
 * literals, so an infinite result is an overflow; only a text 'Infinity'
 * cast at run time (suql_float reads it) would make one, and then an
 * arithmetic result of it is refused where PostgreSQL keeps Infinity. */
static void fn_fcheck(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (sqlite3_value_type(v[0]) == SQLITE_FLOAT && isinf(sqlite3_value_double(v[0]))) {
        suql_pg_error(c, "value out of range: overflow");
        return;
    }
    sqlite3_result_value(c, v[0]);
}

/* suql_atan2(y, x). */
static void fn_atan2(sqlite3_context *c, int argc, sqlite3_value **v)
{
    double y, x;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_double(c, v[0], &y) || arg_double(c, v[1], &x)) return;
    sqlite3_result_double(c, atan2(y, x));
}

/* suql_div(a, b): the quotient truncated toward zero. */
static void fn_div(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    int ta = sqlite3_value_numeric_type(v[0]), tb = sqlite3_value_numeric_type(v[1]);
    for (int i = 0; i < 2; i++)
        if ((i ? tb : ta) != SQLITE_INTEGER && (i ? tb : ta) != SQLITE_FLOAT) {
            suql_pg_error(c, "invalid input syntax for type numeric: \"%.60s\"", suql_pg_text(v[i]));
            return;
        }
    if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
        long long a = sqlite3_value_int64(v[0]), b = sqlite3_value_int64(v[1]);
        if (!b) suql_pg_error(c, "division by zero");
        else if (a == LLONG_MIN && b == -1) sqlite3_result_double(c, 9223372036854775808.0);
        else sqlite3_result_int64(c, a / b);
        return;
    }
    double a = sqlite3_value_double(v[0]), b = sqlite3_value_double(v[1]);
    if (b == 0) {
        suql_pg_error(c, "division by zero");
        return;
    }
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", a / b);
    double q = trunc(strtod(buf, NULL));
    if (fabs(q) < 9e18) sqlite3_result_int64(c, (long long)q);
    else sqlite3_result_double(c, q);
}

static unsigned long long gcd_u(unsigned long long a, unsigned long long b)
{
    while (b) {
        unsigned long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static unsigned long long abs_u(long long x)
{
    return x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
}

/* suql_gcd(a, b) and suql_lcm(a, b) of integers; never negative. */
static void gcd_lcm(sqlite3_context *c, int argc, sqlite3_value **v, int lcm)
{
    long long a, b;
    const char *fn = lcm ? "lcm" : "gcd";
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_int(c, v[0], fn, &a) || arg_int(c, v[1], fn, &b)) return;
    unsigned long long g = gcd_u(abs_u(a), abs_u(b));
    if (!lcm) {
        if (g > (unsigned long long)LLONG_MAX) suql_pg_error(c, "bigint out of range");
        else sqlite3_result_int64(c, (long long)g);
        return;
    }
    if (!a || !b) {
        sqlite3_result_int64(c, 0);
        return;
    }
    unsigned long long r;
    if (__builtin_mul_overflow(abs_u(a) / g, abs_u(b), &r) || r > (unsigned long long)LLONG_MAX)
        suql_pg_error(c, "bigint out of range");
    else
        sqlite3_result_int64(c, (long long)r);
}

static void fn_gcd(sqlite3_context *c, int argc, sqlite3_value **v) { gcd_lcm(c, argc, v, 0); }
static void fn_lcm(sqlite3_context *c, int argc, sqlite3_value **v) { gcd_lcm(c, argc, v, 1); }

/* ---- dates --------------------------------------------------------------- */

#define USEC_SEC 1000000LL
#define USEC_DAY 86400000000LL

/* suql_make_date(y, m, d). */
static void fn_make_date(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long y, m, d;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_int(c, v[0], "make_date", &y) || arg_int(c, v[1], "make_date", &m) ||
        arg_int(c, v[2], "make_date", &d))
        return;
    if (y < 1 || y > 5874897 || m < 1 || m > 12 || d < 1 || d > suql_month_days(y, (int)m)) {
        suql_pg_error(c, "date field value out of range: %lld-%02lld-%02lld", y, m, d);
        return;
    }
    suql_pg_result_date(c, suql_days_from_civil(y, (int)m, (int)d));
}

/* suql_make_time(h, m, s): S may have a fraction and may be 60 (the
 * next minute); 24:00:00 is the last time of day. */
static void fn_make_time(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long h, m;
    double s;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_int(c, v[0], "make_time", &h) || arg_int(c, v[1], "make_time", &m) || arg_double(c, v[2], &s))
        return;
    double us = rint(s * USEC_SEC);
    if (h < 0 || h > 24 || m < 0 || m >= 60 || isnan(s) || us < 0 || us > 60 * USEC_SEC ||
        (h * 60 + m) * 60 * USEC_SEC + (long long)us > USEC_DAY) {
        suql_pg_error(c, "time field value out of range: %lld:%02lld:%02g", h, m, s);
        return;
    }
    suql_pg_result_time(c, (h * 60 + m) * 60 * USEC_SEC + (long long)us);
}

/* The fields of date_trunc, with PostgreSQL's plurals and abbreviations. */
enum { U_USEC, U_MSEC, U_SEC, U_MIN, U_HOUR, U_DAY, U_WEEK, U_MONTH, U_QUARTER, U_YEAR, U_DECADE,
       U_CENTURY, U_MILLENNIUM };

static int trunc_unit(const char *s)
{
    static const struct {
        const char *name;
        int unit;
    } units[] = {
        { "microseconds", U_USEC }, { "microsecond", U_USEC }, { "us", U_USEC }, { "usec", U_USEC },
        { "usecs", U_USEC }, { "milliseconds", U_MSEC }, { "millisecond", U_MSEC }, { "ms", U_MSEC },
        { "msec", U_MSEC }, { "msecs", U_MSEC }, { "second", U_SEC }, { "seconds", U_SEC },
        { "s", U_SEC }, { "sec", U_SEC }, { "secs", U_SEC }, { "minute", U_MIN }, { "minutes", U_MIN },
        { "m", U_MIN }, { "min", U_MIN }, { "mins", U_MIN }, { "hour", U_HOUR }, { "hours", U_HOUR },
        { "h", U_HOUR }, { "hr", U_HOUR }, { "hrs", U_HOUR }, { "day", U_DAY }, { "days", U_DAY },
        { "d", U_DAY }, { "week", U_WEEK }, { "weeks", U_WEEK }, { "w", U_WEEK },
        { "month", U_MONTH }, { "months", U_MONTH }, { "mon", U_MONTH }, { "mons", U_MONTH },
        { "quarter", U_QUARTER }, { "qtr", U_QUARTER }, { "year", U_YEAR }, { "years", U_YEAR },
        { "y", U_YEAR }, { "yr", U_YEAR }, { "yrs", U_YEAR }, { "decade", U_DECADE },
        { "decades", U_DECADE }, { "dec", U_DECADE }, { "decs", U_DECADE }, { "century", U_CENTURY },
        { "centuries", U_CENTURY }, { "c", U_CENTURY }, { "cent", U_CENTURY },
        { "millennium", U_MILLENNIUM }, { "millennia", U_MILLENNIUM }, { "millenniums", U_MILLENNIUM },
        { "mil", U_MILLENNIUM }, { "mils", U_MILLENNIUM },
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcasecmp(s, units[i].name)) return units[i].unit;
    return -1;
}

/* suql_date_trunc(field, ts): TS (a timestamp or a date) cut down to the
 * start of its FIELD; a week starts on Monday. */
static void fn_date_trunc(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *field = suql_pg_text(v[0]);
    int unit = trunc_unit(field);
    if (unit < 0) {
        char low[64];
        size_t i = 0;
        for (; field[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)field[i]);
        low[i] = 0;
        suql_pg_error(c, "unit \"%s\" not recognized for type timestamp without time zone", low);
        return;
    }
    long long days, usec, y;
    int m, d;
    char msg[128];
    if (suql_parse_timestamp(suql_pg_text(v[1]), &days, &usec, msg, sizeof msg)) {
        sqlite3_result_error(c, msg, -1);
        return;
    }
    static const long long step[] = { 1, 1000, USEC_SEC, 60 * USEC_SEC, 3600 * USEC_SEC };
    if (unit <= U_HOUR) {
        usec -= usec % step[unit];
    } else {
        usec = 0;
        if (unit == U_WEEK) days -= ((days % 7) + 7 + 3) % 7;   /* 1970-01-01 was a Thursday */
        if (unit >= U_MONTH) {
            suql_civil_from_days(days, &y, &m, &d);
            if (unit == U_QUARTER) m = (m - 1) / 3 * 3 + 1;
            if (unit >= U_YEAR) m = 1;
            if (unit == U_DECADE) y = y / 10 * 10;
            if (unit == U_CENTURY) y = (y + 99) / 100 * 100 - 99;
            if (unit == U_MILLENNIUM) y = (y + 999) / 1000 * 1000 - 999;
            days = suql_days_from_civil(y, m, 1);
        }
    }
    suql_pg_result_timestamp(c, days, usec);
}

/* suql_date_trunc_iv(field, iv): interval IV (or a time, which PostgreSQL
 * casts to one) with the parts below FIELD dropped, each part keeping its
 * sign ('-01:30:00' to the hour is '-01:00:00'). */
static void fn_date_trunc_iv(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *field = suql_pg_text(v[0]);
    int unit = trunc_unit(field);
    suql_interval iv;
    char msg[128];
    if (unit < 0 || unit == U_WEEK) {
        suql_pg_error(c, unit < 0 ? "unit \"%.40s\" not recognized for type interval"
                                  : "unit \"%.40s\" not supported for type interval (months have fractional "
                                    "weeks)", field);
        return;
    }
    if (suql_parse_interval(suql_pg_text(v[1]), &iv, msg, sizeof msg)) {
        sqlite3_result_error(c, msg, -1);
        return;
    }
    static const long long step[] = { 1, 1000, USEC_SEC, 60 * USEC_SEC, 3600 * USEC_SEC };
    static const long long months[] = { [U_QUARTER] = 3, [U_YEAR] = 12, [U_DECADE] = 120,
                                        [U_CENTURY] = 1200, [U_MILLENNIUM] = 12000 };
    if (unit <= U_HOUR) iv.usec -= iv.usec % step[unit];
    else iv.usec = 0;
    if (unit >= U_MONTH) iv.days = 0;
    if (unit >= U_QUARTER) {
        long long years = iv.months / 12, mon = iv.months % 12;
        iv.months = unit == U_QUARTER ? years * 12 + mon - mon % 3 : iv.months - iv.months % months[unit];
    }
    suql_pg_result_interval(c, &iv);
}

/* ---- registration -------------------------------------------------------- */

int suql_pgfunc_register(sqlite3 *db)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        { "suql_lpad", 2, fn_lpad }, { "suql_lpad", 3, fn_lpad },
        { "suql_rpad", 2, fn_rpad }, { "suql_rpad", 3, fn_rpad },
        { "suql_repeat", 2, fn_repeat }, { "suql_reverse", 1, fn_reverse },
        { "suql_octet_length", 1, fn_octet_length }, { "suql_ascii", 1, fn_ascii },
        { "suql_chr", 1, fn_chr }, { "suql_md5", 1, fn_md5 },
        { "suql_translate", 3, fn_translate },
        { "suql_string_to_array", 2, fn_string_to_array },
        { "suql_string_to_array", 3, fn_string_to_array },
        { "suql_array_position", 2, fn_array_position },
        { "suql_array_position", 3, fn_array_position },
        { "suql_array_remove", 2, fn_array_remove }, { "suql_array_append", 2, fn_array_append },
        { "suql_array_prepend", 2, fn_array_prepend }, { "suql_array_cat", 2, fn_array_cat },
        { "suql_atan2", 2, fn_atan2 }, { "suql_div", 2, fn_div },
        { "suql_log", 2, fn_log_b }, { "suql_pow", 2, fn_pow },
        { "suql_fcheck", 1, fn_fcheck },
        { "suql_gcd", 2, fn_gcd }, { "suql_lcm", 2, fn_lcm },
        { "suql_make_date", 3, fn_make_date }, { "suql_make_time", 3, fn_make_time },
        { "suql_date_trunc", 2, fn_date_trunc }, { "suql_date_trunc_iv", 2, fn_date_trunc_iv },
    };
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
#ifdef SQLITE_RESULT_SUBTYPE
    flags |= SQLITE_RESULT_SUBTYPE;
#endif
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        int rc = sqlite3_create_function(db, fns[i].name, fns[i].nargs, flags, NULL, fns[i].fn, NULL, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++) {
        int rc = sqlite3_create_function(db, math_fns[i].name, 1, flags, (void *)&math_fns[i], fn_math,
                                         NULL, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    return suql_pgstat_register(db);
}
