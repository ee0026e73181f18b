/*
 * result.c — result tables and their three renderings (see result.h).
 *
 * Display width: cells are measured in terminal columns over UTF-8 decoded
 * here (East Asian wide characters count 2, combining marks 0; bytes that
 * are not valid UTF-8 count 1 each and print as '?'), so the table lines
 * up whatever the locale.
 *
 * JSON: values are written as PostgreSQL's row_to_json writes them, so a
 * result reads the same from genie and from PostgreSQL.  Numbers become
 * cJSON raw items holding their exact text: a cJSON number is a double,
 * which cannot hold every integer past 2^53, and cJSON prints it with 15
 * significant digits whenever those read back within a relative epsilon
 * (0.1+0.2 would print as 0.3).  Reals use PostgreSQL's float8 text
 * (suql_pg_float_text: the shortest digits that read back exactly;
 * positional for decimal exponents -4 to 14).  An array column's JSON text is parsed into the
 * array, and its numbers are rewritten from their tokens in the text the
 * same way (cJSON's parser keeps only the double).  Rejected: a JSON
 * writer of our own (cJSON's layout is what --format json has always
 * printed, and the agent reads the cJSON tree).
 */
#include "result.h"

#include "suql/pgval.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

void suql_result_init(suql_result *r, const char *const *names, int ncols)
{
    memset(r, 0, sizeof *r);
    r->ncols = ncols;
    r->names = xcalloc((size_t)ncols + 1, sizeof *r->names);
    r->types = xcalloc((size_t)ncols + 1, sizeof *r->types);
    for (int i = 0; i < ncols; i++) r->names[i] = xstrdup(names[i] ? names[i] : "?");
}

void suql_result_release(suql_result *r)
{
    for (int i = 0; i < r->ncols; i++) free(r->names[i]);
    free(r->names);
    free(r->types);
    for (long i = 0; i < (long)r->nrows * r->ncols; i++) free(r->cells[i].text);
    free(r->cells);
    free(r->note);
    memset(r, 0, sizeof *r);
}

suql_cell *suql_result_add_row(suql_result *r)
{
    if (r->nrows == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->cells = xrealloc(r->cells, sizeof *r->cells * (size_t)r->cap * (size_t)r->ncols);
    }
    suql_cell *row = &r->cells[(size_t)r->nrows * (size_t)r->ncols];
    memset(row, 0, sizeof *row * (size_t)r->ncols);
    r->nrows++;
    return row;
}

static void clear(suql_cell *c)
{
    free(c->text);
    c->text = NULL;
}

void suql_cell_set_int(suql_cell *c, long long v)
{
    clear(c);
    c->type = SUQL_INT;
    c->i = v;
}

void suql_cell_set_real(suql_cell *c, double v)
{
    clear(c);
    c->type = SUQL_REAL;
    c->d = v;
}

void suql_cell_set_text(suql_cell *c, const char *s)
{
    clear(c);
    c->type = s ? SUQL_TEXT : SUQL_NULL;
    c->text = s ? xstrdup(s) : NULL;
}

const char *suql_cell_text(const suql_cell *c, char *buf)
{
    switch (c->type) {
    case SUQL_INT:
        snprintf(buf, 32, "%lld", c->i);
        return buf;
    case SUQL_REAL:
        if (c->d == floor(c->d) && fabs(c->d) < 1e15) {
            snprintf(buf, 32, "%.1f", c->d);        /* 10.0, not 1e+01 */
            return buf;
        }
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, 32, "%.*g", p, c->d);
            if (strtod(buf, NULL) == c->d) break;
        }
        if (!strpbrk(buf, ".eEn") && isfinite(c->d)) strcat(buf, ".0");
        return buf;
    case SUQL_TEXT:
        return c->text;
    default:
        return "";
    }
}

/* The type of R's column J (unknown when R has none). */
static suql_coltype col_type(const suql_result *r, int j)
{
    suql_coltype none = { SUQL_VT_UNKNOWN, 0 };
    return r->types ? r->types[j] : none;
}

/* 1 (then *V) when C is SQLite's 1 or 0 for a boolean in column J. */
static int cell_bool(const suql_result *r, int j, const suql_cell *c, int *v)
{
    suql_coltype t = col_type(r, j);
    if (t.vtype != SUQL_VT_BOOL || t.varray || c->type != SUQL_INT || (c->i != 0 && c->i != 1))
        return 0;
    *v = (int)c->i;
    return 1;
}

/* Cell I,J of R as the table and CSV show it: suql_cell_text, but a
 * boolean as true/false. */
static const char *cell_text(const suql_result *r, int i, int j, char *buf)
{
    const suql_cell *c = &r->cells[(size_t)i * (size_t)r->ncols + (size_t)j];
    int v;
    if (cell_bool(r, j, c, &v)) return v ? "true" : "false";
    return suql_cell_text(c, buf);
}

/* ---- table ---------------------------------------------------------------- */

/* Decode one UTF-8 character at S (N bytes left, N > 0): its code point in
 * *CP and its length, or 1 with *CP = -1 for a byte that does not start a
 * valid sequence.  Our own decoder: the locale may not be UTF-8 (CI runs
 * under C), and the table must line up anyway. */
static int decode(const char *s, size_t n, long *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int len = u[0] < 0x80 ? 1 : (u[0] & 0xe0) == 0xc0 ? 2 : (u[0] & 0xf0) == 0xe0 ? 3
            : (u[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len || (size_t)len > n) {
        *cp = -1;
        return 1;
    }
    long c = len == 1 ? u[0] : u[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            *cp = -1;
            return 1;
        }
        c = (c << 6) | (u[i] & 0x3f);
    }
    static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
        *cp = -1;
        return 1;
    }
    *cp = c;
    return len;
}

/* Terminal columns of code point CP: the C library's wcwidth when the
 * locale knows it, else 0 for combining marks, 2 for East Asian wide and
 * fullwidth ranges, 1 otherwise. */
static int char_width(long cp)
{
    if (cp < 0) return 1;
    int w = wcwidth((wchar_t)cp);
    if (w >= 0) return w;
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f)) return 0;
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
        (cp >= 0x20000 && cp <= 0x3fffd))
        return 2;
    return 1;
}

static int text_width(const char *s)
{
    int w = 0;
    size_t n = strlen(s);
    while (n) {
        long wc;
        int k = decode(s, n, &wc);
        w += char_width(wc);
        s += k;
        n -= (size_t)k;
    }
    return w;
}

/* Append S cut to WIDTH columns (with "…" when cut), padded to WIDTH. */
static void put_cell(gn_buf *out, const char *s, int width)
{
    int full = text_width(s), used = 0;
    int room = full > width ? width - 1 : width;
    size_t n = strlen(s);
    while (n) {
        long wc;
        int k = decode(s, n, &wc);
        int cw = char_width(wc);
        if (used + cw > room) break;
        if (wc < 0) gn_buf_putc(out, '?');
        else if (wc == '\n' || wc == '\t' || wc == '\r') gn_buf_putc(out, ' ');
        else gn_buf_add(out, s, (size_t)k);
        used += cw;
        s += k;
        n -= (size_t)k;
    }
    if (full > width) {
        gn_buf_puts(out, "\xe2\x80\xa6");
        used++;
    }
    for (; used < width; used++) gn_buf_putc(out, ' ');
}

void suql_result_table(const suql_result *r, int width, gn_buf *out)
{
    if (width < 20) width = 20;
    int nc = r->ncols;
    if (!nc) {
        gn_buf_puts(out, "(no columns)\n");
        return;
    }
    int *want = xcalloc((size_t)nc, sizeof *want), *w = xcalloc((size_t)nc, sizeof *w);
    char buf[32];
    for (int j = 0; j < nc; j++) {
        want[j] = text_width(r->names[j]);
        for (int i = 0; i < r->nrows; i++) {
            int cw = text_width(cell_text(r, i, j, buf));
            if (cw > want[j]) want[j] = cw;
        }
        if (want[j] < 1) want[j] = 1;
    }
    /* Room for cells: the width less two spaces between columns.  Columns
     * that fit in an equal share keep their width; the rest share what is
     * left in proportion to what they want, at least 3 each. */
    int room = width - 2 * (nc - 1), total = 0;
    for (int j = 0; j < nc; j++) total += want[j];
    if (total <= room) {
        for (int j = 0; j < nc; j++) w[j] = want[j];
    } else {
        int left = room, nbig = 0, bigwant = 0;
        int share = room / nc;
        for (int j = 0; j < nc; j++) {
            if (want[j] <= share) {
                w[j] = want[j];
                left -= w[j];
            } else {
                nbig++;
                bigwant += want[j];
            }
        }
        for (int j = 0; j < nc; j++)
            if (want[j] > share) {
                w[j] = (int)((long)left * want[j] / (bigwant ? bigwant : 1));
                if (w[j] < 3) w[j] = 3;
            }
    }
    for (int j = 0; j < nc; j++) {
        if (j) gn_buf_puts(out, "  ");
        put_cell(out, r->names[j], w[j]);
    }
    while (out->len && out->data[out->len - 1] == ' ') out->len--;
    gn_buf_putc(out, '\n');
    for (int j = 0; j < nc; j++) {
        if (j) gn_buf_puts(out, "  ");
        for (int k = 0; k < w[j]; k++) gn_buf_putc(out, '-');
    }
    gn_buf_putc(out, '\n');
    for (int i = 0; i < r->nrows; i++) {
        for (int j = 0; j < nc; j++) {
            if (j) gn_buf_puts(out, "  ");
            put_cell(out, cell_text(r, i, j, buf), w[j]);
        }
        while (out->len && out->data[out->len - 1] == ' ') out->len--;
        gn_buf_putc(out, '\n');
    }
    gn_buf_printf(out, "(%d row%s)\n", r->nrows, r->nrows == 1 ? "" : "s");
    if (r->note) gn_buf_printf(out, "note: %s\n", r->note);
    free(want);
    free(w);
}

/* ---- JSON and CSV ------------------------------------------------------------ */

/* A real as a JSON value: a raw number in float8's text, or a string when
 * not finite (row_to_json writes "NaN", "Infinity", "-Infinity"). */
static cJSON *real_cjson(double d)
{
    char buf[32];
    suql_pg_float_text(d, buf);
    return isfinite(d) ? cJSON_CreateRaw(buf) : cJSON_CreateString(buf);
}

static cJSON *int_cjson(long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    return cJSON_CreateRaw(buf);
}

/* The next number token of JSON text *S (outside strings), its length in
 * *N; *S moves past it.  NULL when none is left. */
static const char *next_number(const char **s, size_t *n)
{
    const char *p = *s;
    for (; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) break;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            *n = strspn(p, "0123456789+-.eE");
            *s = p + *n;
            return p;
        }
    }
    *s = p;
    return NULL;
}

/* Replace the numbers under X, in document order, by raw items: integer
 * tokens exactly, others as real_cjson.  *S walks the text X was parsed
 * from. */
static void exact_numbers(cJSON *x, const char **s)
{
    for (cJSON *c = x->child; c; c = c->next) {
        if (!cJSON_IsNumber(c)) {
            exact_numbers(c, s);
            continue;
        }
        size_t n = 0;
        const char *t = next_number(s, &n);
        char tok[32], *end;
        long long v = 0;
        int exact = 0;
        size_t sign = t && *t == '-';
        if (t && n > sign && n < sizeof tok && strspn(t + sign, "0123456789") == n - sign) {
            memcpy(tok, t, n);
            tok[n] = 0;
            errno = 0;
            v = strtoll(tok, &end, 10);
            exact = !errno && !*end;
        }
        cJSON *num = exact ? int_cjson(v) : real_cjson(c->valuedouble);
        if (c->string) num->string = xstrdup(c->string);    /* an object's member */
        cJSON_ReplaceItemViaPointer(x, c, num);
        c = num;
    }
}

/* An array column's cell TEXT as a cJSON array, or NULL when it is not a
 * JSON array. */
static cJSON *array_cjson(const char *text)
{
    cJSON *a = cJSON_ParseWithOpts(text, NULL, 1);
    if (!cJSON_IsArray(a)) {
        cJSON_Delete(a);
        return NULL;
    }
    exact_numbers(a, &text);
    return a;
}

static cJSON *cell_cjson(const suql_result *r, int j, const suql_cell *c)
{
    int b;
    cJSON *a;
    if (cell_bool(r, j, c, &b)) return cJSON_CreateBool(b);
    switch (c->type) {
    case SUQL_INT: return int_cjson(c->i);
    case SUQL_REAL: return real_cjson(c->d);
    case SUQL_TEXT:
        if (col_type(r, j).varray && (a = array_cjson(c->text))) return a;
        return cJSON_CreateString(c->text);
    default: return cJSON_CreateNull();
    }
}

cJSON *suql_result_cjson(const suql_result *r, int max_rows)
{
    cJSON *arr = cJSON_CreateArray();
    char **keys = xcalloc((size_t)r->ncols + 1, sizeof *keys);
    for (int j = 0; j < r->ncols; j++) {
        int seen = 1;
        for (int k = 0; k < j; k++) seen += !strcmp(r->names[k], r->names[j]);
        keys[j] = seen > 1 ? xasprintf("%s:%d", r->names[j], seen) : xstrdup(r->names[j]);
    }
    for (int i = 0; i < r->nrows && (max_rows < 0 || i < max_rows); i++) {
        cJSON *o = cJSON_CreateObject();
        for (int j = 0; j < r->ncols; j++) {
            const suql_cell *c = &r->cells[(size_t)i * (size_t)r->ncols + (size_t)j];
            cJSON_AddItemToObject(o, keys[j], cell_cjson(r, j, c));
        }
        cJSON_AddItemToArray(arr, o);
    }
    for (int j = 0; j < r->ncols; j++) free(keys[j]);
    free(keys);
    return arr;
}

void suql_result_json(const suql_result *r, gn_buf *out)
{
    cJSON *arr = suql_result_cjson(r, -1);
    char *s = cJSON_Print(arr);
    gn_buf_puts(out, s);
    gn_buf_putc(out, '\n');
    free(s);
    cJSON_Delete(arr);
}

void suql_result_csv(const suql_result *r, gn_buf *out)
{
    char buf[32];
    for (int j = 0; j < r->ncols; j++) {
        if (j) gn_buf_putc(out, ',');
        gn_buf_csv(out, r->names[j]);
    }
    gn_buf_puts(out, "\r\n");
    for (int i = 0; i < r->nrows; i++) {
        for (int j = 0; j < r->ncols; j++) {
            if (j) gn_buf_putc(out, ',');
            gn_buf_csv(out, cell_text(r, i, j, buf));
        }
        gn_buf_puts(out, "\r\n");
    }
}
