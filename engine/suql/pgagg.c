/*
 * pgagg.c — string_agg and array_agg with ORDER BY or DISTINCT inside the
 * call, as PostgreSQL computes them, for SQLite before 3.44 (pgagg.h).
 *
 * SQLite before 3.44 has no ORDER BY inside an aggregate, and its
 * DISTINCT aggregates take one argument, so group_concat and
 * json_group_array cannot say string_agg(x, ', ' ORDER BY y DESC) or
 * string_agg(DISTINCT x, ', ').  These aggregates keep each row's value,
 * separator and sort keys, and in xFinal sort them (stably: ties keep the
 * input order), drop repeats under DISTINCT and join what is left:
 *
 *   - keys compare as SQLite compares values (numbers numerically, text
 *     byte by byte: PostgreSQL's collation C), NULLs first or last as the
 *     spec says (the emitter spells out PostgreSQL's defaults: last when
 *     ascending, first when descending); an enum key arrives as its
 *     ordinal, an array as suql_array_key's text;
 *   - string_agg skips NULL values, puts each value's own separator
 *     before it (not before the first; a NULL separator adds nothing),
 *     and is NULL when no value is left;
 *   - array_agg keeps NULLs (JSON null); its values arrive as JSON text
 *     (json_quote, or json for an array) so the elements are written as
 *     json_group_array writes them, and the result is NULL for no rows;
 *   - with DISTINCT, PostgreSQL sorts by the ORDER BY keys and then by
 *     the arguments, and keeps one of each run of equal arguments (NULL
 *     equal to NULL); the emitter passes the arguments as the last keys.
 *
 * FILTER (WHERE ...) is SQLite's own on these as on any aggregate.  They
 * are not window functions (no xValue, xInverse): PostgreSQL refuses
 * DISTINCT and ORDER BY in a window call too, so nothing is lost.
 *
 * Rejected: a sorted subquery feeding group_concat (SQLite promises no
 * order there); ORDER BY inside the call on SQLite 3.44 and later (its
 * DISTINCT still takes one argument, and one code path behaves the same
 * on every version); folding the values as they come (the order is only
 * known at the end).
 */
#include "suql/pgagg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* JSON's subtype, as SQLite's JSON functions mark their results. */
#define JSON_SUBTYPE 74

typedef struct agg_state {
    sqlite3_value **cell;    /* n rows of stride values: arguments, then keys */
    size_t n, cap;
    int stride, nargs, nkeys, distinct;
    char *spec;              /* two characters per key */
} agg_state;

/* ---- comparing ----------------------------------------------------------- */

static int type_class(int t)
{
    return t == SQLITE_NULL ? 0 : t == SQLITE_INTEGER || t == SQLITE_FLOAT ? 1 : t == SQLITE_TEXT ? 2 : 3;
}

static int cmp_int_real(sqlite3_int64 i, double r)
{
    double d = (double)i;
    if (d < r) return -1;
    if (d > r) return 1;
    if (r >= -9223372036854775808.0 && r < 9223372036854775808.0) {
        sqlite3_int64 ir = (sqlite3_int64)r;
        return i < ir ? -1 : i > ir;
    }
    return 0;
}

/* SQLite's order of two values, BINARY collation: NULL, numbers, text,
 * blobs. */
static int cmp_value(sqlite3_value *a, sqlite3_value *b)
{
    int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
    int ca = type_class(ta), cb = type_class(tb);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 0) return 0;
    if (ca == 1) {
        if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
            sqlite3_int64 x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
            return x < y ? -1 : x > y;
        }
        if (ta == SQLITE_INTEGER) return cmp_int_real(sqlite3_value_int64(a), sqlite3_value_double(b));
        if (tb == SQLITE_INTEGER) return -cmp_int_real(sqlite3_value_int64(b), sqlite3_value_double(a));
        double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
        return x < y ? -1 : x > y;
    }
    const void *pa = ca == 2 ? (const void *)sqlite3_value_text(a) : sqlite3_value_blob(a);
    const void *pb = cb == 2 ? (const void *)sqlite3_value_text(b) : sqlite3_value_blob(b);
    int na = sqlite3_value_bytes(a), nb = sqlite3_value_bytes(b);
    int c = na && nb ? memcmp(pa, pb, (size_t)(na < nb ? na : nb)) : 0;
    return c ? (c < 0 ? -1 : 1) : na < nb ? -1 : na > nb;
}

/* Rows X and Y of S in the spec's order (0 for equal keys). */
static int cmp_rows(const agg_state *s, size_t x, size_t y)
{
    sqlite3_value **a = s->cell + x * (size_t)s->stride + s->nargs;
    sqlite3_value **b = s->cell + y * (size_t)s->stride + s->nargs;
    for (int k = 0; k < s->nkeys; k++) {
        int desc = s->spec[2 * k] == '-', nulls_first = s->spec[2 * k + 1] == 'f';
        int na = sqlite3_value_type(a[k]) == SQLITE_NULL, nb = sqlite3_value_type(b[k]) == SQLITE_NULL;
        int c;
        if (na || nb) {
            if (na && nb) continue;
            c = na ? (nulls_first ? -1 : 1) : (nulls_first ? 1 : -1);
            return c;
        }
        c = cmp_value(a[k], b[k]);
        if (c) return desc ? -c : c;
    }
    return 0;
}

/* Stable merge sort of the row numbers V[0..n) through TMP. */
static void sort_rows(const agg_state *s, size_t *v, size_t *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    sort_rows(s, v, tmp, h);
    sort_rows(s, v + h, tmp, n - h);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) tmp[o++] = cmp_rows(s, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[o++] = v[i++];
    while (j < n) tmp[o++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* Whether rows X and Y have equal arguments (NULL equal to NULL). */
static int same_args(const agg_state *s, size_t x, size_t y)
{
    sqlite3_value **a = s->cell + x * (size_t)s->stride, **b = s->cell + y * (size_t)s->stride;
    for (int i = 0; i < s->nargs; i++)
        if (cmp_value(a[i], b[i])) return 0;
    return 1;
}

/* ---- collecting ------------------------------------------------------------ */

static void state_free(agg_state *s)
{
    for (size_t i = 0; i < s->n * (size_t)s->stride; i++) sqlite3_value_free(s->cell[i]);
    sqlite3_free(s->cell);
    sqlite3_free(s->spec);
    s->cell = NULL;
    s->spec = NULL;
    s->n = s->cap = 0;
}

/* One row: NARGS arguments, then DISTINCT, SPEC and the keys. */
static void collect(sqlite3_context *c, int argc, sqlite3_value **v, int nargs)
{
    agg_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(c);
        return;
    }
    if (!s->stride) {
        const char *spec = (const char *)sqlite3_value_text(v[nargs + 1]);
        int nkeys = argc - nargs - 2;
        if (nkeys < 0 || !spec || strlen(spec) != (size_t)nkeys * 2) {
            sqlite3_result_error(c, "internal error: bad arguments to an ordered aggregate", -1);
            return;
        }
        if (!(s->spec = sqlite3_mprintf("%s", spec))) {
            sqlite3_result_error_nomem(c);
            return;
        }
        s->nargs = nargs;
        s->nkeys = nkeys;
        s->stride = nargs + nkeys;
        s->distinct = sqlite3_value_int(v[nargs]) != 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        sqlite3_value **cell = sqlite3_realloc64(s->cell, cap * (size_t)s->stride * sizeof *cell);
        if (!cell) {
            sqlite3_result_error_nomem(c);
            return;
        }
        s->cell = cell;
        s->cap = cap;
    }
    sqlite3_value **row = s->cell + s->n * (size_t)s->stride;
    for (int i = 0; i < s->stride; i++) {
        row[i] = sqlite3_value_dup(v[i < nargs ? i : i + 2]);
        if (!row[i]) {
            while (i-- > 0) sqlite3_value_free(row[i]);
            sqlite3_result_error_nomem(c);
            return;
        }
    }
    s->n++;
}

static void string_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (argc < 4) {
        sqlite3_result_error(c, "internal error: suql_string_agg takes at least 4 arguments", -1);
        return;
    }
    if (sqlite3_value_type(v[0]) == SQLITE_NULL) return;   /* PostgreSQL skips NULL values */
    collect(c, argc, v, 2);
}

static void array_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (argc < 3) {
        sqlite3_result_error(c, "internal error: suql_array_agg takes at least 3 arguments", -1);
        return;
    }
    collect(c, argc, v, 1);
}

/* ---- finishing --------------------------------------------------------- */

/* S's rows in order, repeats dropped under DISTINCT, in *ORDER; their
 * number, or -1 when out of memory. */
static long ordered(agg_state *s, size_t **order)
{
    size_t *v = sqlite3_malloc64(s->n * sizeof *v * 2);
    if (!v) return -1;
    for (size_t i = 0; i < s->n; i++) v[i] = i;
    sort_rows(s, v, v + s->n, s->n);
    size_t n = s->n;
    if (s->distinct) {
        n = 0;
        for (size_t i = 0; i < s->n; i++)
            if (!n || !same_args(s, v[n - 1], v[i])) v[n++] = v[i];
    }
    *order = v;
    return (long)n;
}

static void finish(sqlite3_context *c, int array)
{
    agg_state *s = sqlite3_aggregate_context(c, 0);
    if (!s || !s->n) {
        sqlite3_result_null(c);
        if (s) state_free(s);
        return;
    }
    size_t *order;
    long n = ordered(s, &order);
    sqlite3_str *out = n < 0 ? NULL : sqlite3_str_new(sqlite3_context_db_handle(c));
    if (out && array) sqlite3_str_appendchar(out, 1, '[');
    for (long i = 0; out && i < n; i++) {
        sqlite3_value **row = s->cell + order[i] * (size_t)s->stride;
        const char *t = (const char *)sqlite3_value_text(row[0]);
        if (array) {
            if (i) sqlite3_str_appendchar(out, 1, ',');
            sqlite3_str_appendall(out, t ? t : "null");
            continue;
        }
        const char *sep = (const char *)sqlite3_value_text(row[1]);
        if (i && sep) sqlite3_str_append(out, sep, sqlite3_value_bytes(row[1]));
        if (t) sqlite3_str_append(out, t, sqlite3_value_bytes(row[0]));
    }
    if (out && array) sqlite3_str_appendchar(out, 1, ']');
    if (n >= 0) sqlite3_free(order);
    int err = out ? sqlite3_str_errcode(out) : SQLITE_NOMEM;
    int len = out ? sqlite3_str_length(out) : 0;
    char *text = out ? sqlite3_str_finish(out) : NULL;
    state_free(s);
    if (err) {
        sqlite3_free(text);
        sqlite3_result_error_code(c, err);
        return;
    }
    /* An empty string's text is NULL: it is still a value. */
    sqlite3_result_text(c, text ? text : "", len, text ? sqlite3_free : SQLITE_STATIC);
    if (array) sqlite3_result_subtype(c, JSON_SUBTYPE);
}

static void string_final(sqlite3_context *c)
{
    finish(c, 0);
}

static void array_final(sqlite3_context *c)
{
    finish(c, 1);
}

int suql_pgagg_register(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function(db, "suql_string_agg", -1, flags, NULL, NULL, string_step,
                                     string_final);
#ifdef SQLITE_RESULT_SUBTYPE
    flags |= SQLITE_RESULT_SUBTYPE;
#endif
    if (!rc) rc = sqlite3_create_function(db, "suql_array_agg", -1, flags, NULL, NULL, array_step, array_final);
    return rc;
}
