/*
 * pgval.c — the SQL functions that give emitted SQL PostgreSQL's meaning
 * where SQLite's built-ins differ (pgval.h): number text, rounding,
 * strict casts, division by zero, dates, times and intervals, substr,
 * left, right, split_part, initcap, array ordering, scalar subqueries.
 *
 * Each function takes SQLite values as the emitter passes them and
 * returns NULL for a NULL argument (PostgreSQL's strict functions), so
 * the emitter never needs a CASE around them.  The date and time work is
 * pgtime.c's; this file only adapts it to SQLite.
 *
 * Rejected: exact numeric arithmetic.  A numeric value is a double here;
 * suql_numeric rounds a result to 15 significant digits, which gives the
 * exact decimal whenever it has at most 15 (0.1 + 0.2 = 0.3 holds, as in
 * PostgreSQL); longer results differ past the 15th digit.
 */
#include "suql/casemap.h"
#include "suql/pgtime.h"
#include "suql/pgfn.h"

#include "util/buf.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- numbers ------------------------------------------------------------- */

void suql_pg_float_text(double d, char *out)
{
    if (isnan(d)) {
        strcpy(out, "NaN");
        return;
    }
    if (isinf(d)) {
        strcpy(out, d < 0 ? "-Infinity" : "Infinity");
        return;
    }
    if (d == 0) {
        strcpy(out, signbit(d) ? "-0" : "0");
        return;
    }
    char e[40];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, d);
        if (strtod(e, NULL) == d) break;
    }
    /* e: [-]D[.DDD]e[+-]XX; its digits and exponent. */
    char dig[24];
    int nd = 0, neg = e[0] == '-';
    const char *s = e + neg;
    for (; *s && *s != 'e'; s++)
        if (isdigit((unsigned char)*s)) dig[nd++] = *s;
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    dig[nd] = 0;
    int x = atoi(s + 1);
    char *o = out;
    if (neg) *o++ = '-';
    if (x < -4 || x >= 15) {
        *o++ = dig[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        sprintf(o, "e%c%02d", x < 0 ? '-' : '+', abs(x));
        return;
    }
    if (x < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = -1; i > x; i--) *o++ = '0';
        memcpy(o, dig, (size_t)nd);
        o += nd;
    } else {
        for (int i = 0; i <= x || i < nd; i++) {
            if (i == x + 1) *o++ = '.';
            *o++ = i < nd ? dig[i] : '0';
        }
    }
    *o = 0;
}

void suql_pg_error(sqlite3_context *c, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sqlite3_result_error(c, msg, -1);
}

/* suql_text(x): x as PostgreSQL's text of it (a double as float8 prints). */
static void fn_text(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    char buf[40];
    switch (sqlite3_value_type(v[0])) {
    case SQLITE_NULL: sqlite3_result_null(c); return;
    case SQLITE_FLOAT:
        suql_pg_float_text(sqlite3_value_double(v[0]), buf);
        sqlite3_result_text(c, buf, -1, SQLITE_TRANSIENT);
        return;
    default:
        sqlite3_result_text(c, suql_pg_text(v[0]), -1, SQLITE_TRANSIENT);
    }
}

/* suql_numeric(x): a numeric result, rounded to 15 significant digits. */
static void fn_numeric(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (sqlite3_value_type(v[0]) != SQLITE_FLOAT) {
        sqlite3_result_value(c, v[0]);
        return;
    }
    double d = sqlite3_value_double(v[0]);
    if (isinf(d)) {
        /* Past a double's range (PostgreSQL's numeric goes further). */
        suql_pg_error(c, "value out of range: overflow");
        return;
    }
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", d);
    sqlite3_result_double(c, isfinite(d) ? strtod(buf, NULL) : d);
}

/* suql_round(x): a double rounded half to even (PostgreSQL's rint). */
static void fn_round(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) sqlite3_result_null(c);
    else if (sqlite3_value_type(v[0]) == SQLITE_INTEGER) sqlite3_result_value(c, v[0]);
    else sqlite3_result_double(c, nearbyint(sqlite3_value_double(v[0])));
}

/* suql_round_n(x, n): numeric rounding half away from zero to N digits
 * after the point (before it when N is negative). */
static void fn_round_n(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0]) || suql_pg_is_null(v[1])) {
        sqlite3_result_null(c);
        return;
    }
    double x = sqlite3_value_double(v[0]);
    int n = sqlite3_value_int(v[1]);
    if (n > 300) n = 300;
    if (n < -300) n = -300;
    /* Scale, then read the scaled value as its 15-digit decimal so that a
     * written half (2.675 at 2 places) rounds as written, not as stored. */
    double p = pow(10, n < 0 ? -n : n), y = n < 0 ? x / p : x * p;
    char buf[64];
    snprintf(buf, sizeof buf, "%.15g", y);
    double yd = strtod(buf, NULL);
    double r = yd < 0 ? -floor(-yd + 0.5) : floor(yd + 0.5);
    r = n < 0 ? r * p : r / p;
    snprintf(buf, sizeof buf, "%.15g", r);
    sqlite3_result_double(c, strtod(buf, NULL));
}

/* suql_numeric_mod(x, p, s): a numeric(p,s) value: rounded to S places,
 * PostgreSQL's "numeric field overflow" when it needs more than P - S
 * digits before the point. */
static void fn_numeric_mod(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    double x = sqlite3_value_double(v[0]);
    int p = sqlite3_value_int(v[1]), s = sqlite3_value_int(v[2]);
    double scale = pow(10, s), r = round(x * scale) / scale;
    char buf[64];
    snprintf(buf, sizeof buf, "%.15g", r);
    r = strtod(buf, NULL);
    if (fabs(r) >= pow(10, p - s)) {
        suql_pg_error(c, "numeric field overflow");
        return;
    }
    sqlite3_result_double(c, r);
}

/* A whole string S as PostgreSQL's int8 input: spaces, a sign, digits. */
static int int_input(const char *s, long long *out)
{
    while (isspace((unsigned char)*s)) s++;
    const char *d = s + (*s == '+' || *s == '-');
    if (!isdigit((unsigned char)*d)) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE) return -2;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return -1;
    *out = v;
    return 0;
}

static int float_input(const char *s, double *out)
{
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return -1;
    char *end;
    double d = strtod(s, &end);
    if (end == s) return -1;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return -1;
    /* strtod also reads hexadecimal and "inf"; PostgreSQL reads Infinity
     * and NaN but no hexadecimal. */
    const char *t = s + (*s == '+' || *s == '-');
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) return -1;
    *out = d;
    return 0;
}

/* suql_int(x): PostgreSQL's cast to an integer: a double rounded half to
 * even, text read strictly. */
static void fn_int(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    long long i;
    switch (sqlite3_value_type(v[0])) {
    case SQLITE_NULL: sqlite3_result_null(c); return;
    case SQLITE_INTEGER: sqlite3_result_value(c, v[0]); return;
    case SQLITE_FLOAT: {
        double d = nearbyint(sqlite3_value_double(v[0]));
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
            suql_pg_error(c, "integer out of range");
        else sqlite3_result_int64(c, (long long)d);
        return;
    }
    default: {
        const char *s = suql_pg_text(v[0]);
        int rc = int_input(s, &i);
        if (rc == -2) suql_pg_error(c, "value \"%.60s\" is out of range for type bigint", s);
        else if (rc) suql_pg_error(c, "invalid input syntax for type integer: \"%.60s\"", s);
        else sqlite3_result_int64(c, i);
    }
    }
}

/* suql_float(x[, 'numeric']): a cast to a double, text read strictly. */
static void fn_float(sqlite3_context *c, int argc, sqlite3_value **v)
{
    double d;
    switch (sqlite3_value_type(v[0])) {
    case SQLITE_NULL: sqlite3_result_null(c); return;
    case SQLITE_INTEGER: case SQLITE_FLOAT: sqlite3_result_double(c, sqlite3_value_double(v[0])); return;
    default:
        if (float_input(suql_pg_text(v[0]), &d))
            suql_pg_error(c, "invalid input syntax for type %s: \"%.60s\"",
                  argc > 1 ? "numeric" : "double precision", suql_pg_text(v[0]));
        else if (isinf(d) && !strpbrk(suql_pg_text(v[0]), "iI"))
            suql_pg_error(c, "\"%.60s\" is out of range for type double precision", suql_pg_text(v[0]));
        else sqlite3_result_double(c, d);
    }
}

/* PostgreSQL's boolean input: 1, 0, or -1. */
static int bool_input(const char *s)
{
    static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "1", "0" };
    static const int val[] = { 1, 0, 1, 0, 1, 0, 1, 0 };
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (!n) return -1;
    int hit = -1;
    for (int i = 0; i < 8; i++) {
        if (n > strlen(words[i]) || strncasecmp(s, words[i], n)) continue;
        /* A prefix must be unique: "o" is neither on nor off. */
        if (hit >= 0 && val[hit] != val[i]) return -1;
        if (!strcasecmp(words[i], "on") || !strcasecmp(words[i], "off"))
            if (n < 2) return -1;
        hit = i;
    }
    return hit < 0 ? -1 : val[hit];
}

static void fn_bool(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    switch (sqlite3_value_type(v[0])) {
    case SQLITE_NULL: sqlite3_result_null(c); return;
    case SQLITE_INTEGER: sqlite3_result_int(c, sqlite3_value_int64(v[0]) != 0); return;
    case SQLITE_FLOAT: suql_pg_error(c, "cannot cast type double precision to boolean"); return;
    default: {
        int b = bool_input(suql_pg_text(v[0]));
        if (b < 0) suql_pg_error(c, "invalid input syntax for type boolean: \"%.60s\"", suql_pg_text(v[0]));
        else sqlite3_result_int(c, b);
    }
    }
}

/* suql_nz(x[, dividend]): x, or the error PostgreSQL raises for a zero
 * divisor (not when the dividend is NULL: NULL / 0 is NULL). */
static void fn_nz(sqlite3_context *c, int argc, sqlite3_value **v)
{
    int t = sqlite3_value_type(v[0]);
    if (argc > 1 && suql_pg_is_null(v[1])) sqlite3_result_null(c);
    else if ((t == SQLITE_INTEGER && sqlite3_value_int64(v[0]) == 0) ||
        (t == SQLITE_FLOAT && sqlite3_value_double(v[0]) == 0))
        suql_pg_error(c, "division by zero");
    else
        sqlite3_result_value(c, v[0]);
}

/* ---- dates, times, intervals --------------------------------------------- */

int suql_pg_time(const char *s, char *out, size_t outn)
{
    long long u;
    if (suql_parse_time(s, &u, out, outn)) return -1;
    suql_fmt_time(u, out, outn);
    return 0;
}

int suql_pg_date(const char *s, char *out, size_t outn)
{
    long long d;
    if (suql_parse_date(s, &d, out, outn)) return -1;
    suql_fmt_date(d, out, outn);
    return 0;
}

int suql_pg_timestamp(const char *s, char *out, size_t outn)
{
    long long d, u;
    if (suql_parse_timestamp(s, &d, &u, out, outn)) return -1;
    suql_fmt_timestamp(d, u, out, outn);
    return 0;
}

int suql_pg_interval(const char *s, char *out, size_t outn)
{
    suql_interval iv;
    if (suql_parse_interval(s, &iv, out, outn)) return -1;
    suql_fmt_interval(&iv, out, outn);
    return 0;
}

typedef int (*canon_fn)(const char *s, char *out, size_t outn);

static void canon(sqlite3_context *c, sqlite3_value *v, canon_fn fn)
{
    char out[128];
    if (suql_pg_is_null(v)) {
        sqlite3_result_null(c);
        return;
    }
    if (fn(suql_pg_text(v), out, sizeof out)) sqlite3_result_error(c, out, -1);
    else sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

static void fn_time(sqlite3_context *c, int n, sqlite3_value **v) { (void)n; canon(c, v[0], suql_pg_time); }
static void fn_date(sqlite3_context *c, int n, sqlite3_value **v) { (void)n; canon(c, v[0], suql_pg_date); }
static void fn_timestamp(sqlite3_context *c, int n, sqlite3_value **v) { (void)n; canon(c, v[0], suql_pg_timestamp); }
static void fn_interval(sqlite3_context *c, int n, sqlite3_value **v) { (void)n; canon(c, v[0], suql_pg_interval); }

/* Argument readers: 0, or -1 after setting the error on C. */
static int arg_ts(sqlite3_context *c, sqlite3_value *v, long long *d, long long *u)
{
    char msg[128];
    if (!suql_parse_timestamp(suql_pg_text(v), d, u, msg, sizeof msg)) return 0;
    sqlite3_result_error(c, msg, -1);
    return -1;
}

static int arg_time(sqlite3_context *c, sqlite3_value *v, long long *u)
{
    char msg[128];
    if (!suql_parse_time(suql_pg_text(v), u, msg, sizeof msg)) return 0;
    sqlite3_result_error(c, msg, -1);
    return -1;
}

static int arg_iv(sqlite3_context *c, sqlite3_value *v, suql_interval *iv)
{
    char msg[128];
    if (!suql_parse_interval(suql_pg_text(v), iv, msg, sizeof msg)) return 0;
    sqlite3_result_error(c, msg, -1);
    return -1;
}

void suql_pg_result_date(sqlite3_context *c, long long days)
{
    char out[32];
    suql_fmt_date(days, out, sizeof out);
    sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

void suql_pg_result_time(sqlite3_context *c, long long usec)
{
    char out[32];
    suql_fmt_time(usec, out, sizeof out);
    sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

void suql_pg_result_timestamp(sqlite3_context *c, long long days, long long usec)
{
    char out[64];
    suql_fmt_timestamp(days, usec, out, sizeof out);
    sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

void suql_pg_result_interval(sqlite3_context *c, const suql_interval *iv)
{
    char out[128];
    suql_fmt_interval(iv, out, sizeof out);
    sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

/* suql_date_add(date, n): the date N days on (N an integer). */
static void fn_date_add(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long d, u;
    if (suql_pg_null_result(c, argc, v)) return;
    if (sqlite3_value_type(v[1]) != SQLITE_INTEGER) {
        suql_pg_error(c, "operator does not exist: date + %s",
              sqlite3_value_type(v[1]) == SQLITE_FLOAT ? "numeric" : "text");
        return;
    }
    if (arg_ts(c, v[0], &d, &u)) return;
    long long r;
    if (__builtin_add_overflow(d, sqlite3_value_int64(v[1]), &r) || r < suql_days_from_civil(1, 1, 1) ||
        r > suql_days_from_civil(SUQL_YEAR_MAX, 12, 31)) {
        suql_pg_error(c, "date out of range");
        return;
    }
    suql_pg_result_date(c, r);
}

/* suql_date_diff(a, b): days from date B to date A. */
static void fn_date_diff(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long a, b, u;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_ts(c, v[0], &a, &u) || arg_ts(c, v[1], &b, &u)) return;
    sqlite3_result_int64(c, a - b);
}

/* suql_ts_add(timestamp or date, interval, sign): a timestamp. */
static void fn_ts_add(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long d, u;
    suql_interval iv;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_ts(c, v[0], &d, &u) || arg_iv(c, v[1], &iv)) return;
    if (suql_ts_add(&d, &u, &iv, sqlite3_value_int(v[2]) < 0 ? -1 : 1)) {
        suql_pg_error(c, "timestamp out of range");
        return;
    }
    suql_pg_result_timestamp(c, d, u);
}

/* suql_ts_diff(a, b): the interval from timestamp B to A. */
static void fn_ts_diff(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long d1, u1, d2, u2;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_ts(c, v[0], &d1, &u1) || arg_ts(c, v[1], &d2, &u2)) return;
    suql_interval iv;
    suql_ts_diff(d1, u1, d2, u2, &iv);
    suql_pg_result_interval(c, &iv);
}

/* suql_time_add(time, interval, sign): a time, around the clock. */
static void fn_time_add(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long u;
    suql_interval iv;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_time(c, v[0], &u) || arg_iv(c, v[1], &iv)) return;
    const long long day = 86400000000LL;
    u = (u + (sqlite3_value_int(v[2]) < 0 ? -1 : 1) * (iv.usec % day)) % day;
    if (u < 0) u += day;
    suql_pg_result_time(c, u);
}

/* suql_time_diff(a, b): the interval from time B to A. */
static void fn_time_diff(sqlite3_context *c, int argc, sqlite3_value **v)
{
    long long a, b;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_time(c, v[0], &a) || arg_time(c, v[1], &b)) return;
    suql_interval iv = { 0, 0, a - b };
    suql_pg_result_interval(c, &iv);
}

/* suql_iv_add(a, b, sign): a + sign * b. */
static void fn_iv_add(sqlite3_context *c, int argc, sqlite3_value **v)
{
    suql_interval a, b;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_iv(c, v[0], &a) || arg_iv(c, v[1], &b)) return;
    int s = sqlite3_value_int(v[2]) < 0 ? -1 : 1;
    a.months += s * b.months;
    a.days += s * b.days;
    a.usec += s * b.usec;
    suql_pg_result_interval(c, &a);
}

/* suql_iv_mul(interval, factor): fractions spill down (months to days
 * of 30, days to hours), as PostgreSQL's interval_mul. */
static void fn_iv_mul(sqlite3_context *c, int argc, sqlite3_value **v)
{
    suql_interval a, r;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_iv(c, v[0], &a)) return;
    double f = sqlite3_value_double(v[1]);
    double m = (double)a.months * f, d = (double)a.days * f;
    double us = (double)a.usec * f + (d - trunc(d)) * 86400e6;
    if (!isfinite(m) || !isfinite(d) || !isfinite(us) || fabs(m) > 2147483647.0 || fabs(d) > 2147483647.0 ||
        fabs(us) > 9.2e18) {
        suql_pg_error(c, "interval out of range");
        return;
    }
    r.months = (long long)trunc(m);
    d += (m - trunc(m)) * 30;
    r.days = (long long)trunc(d);
    r.usec = llround((double)a.usec * f + (d - trunc(d)) * 86400e6);
    suql_pg_result_interval(c, &r);
}

/* suql_iv_key(interval): seconds, for comparisons. */
static void fn_iv_key(sqlite3_context *c, int argc, sqlite3_value **v)
{
    suql_interval a;
    if (suql_pg_null_result(c, argc, v)) return;
    if (arg_iv(c, v[0], &a)) return;
    sqlite3_result_double(c, suql_iv_seconds(&a));
}

/* ISO 8601 week number and year of a date (days from 1970-01-01). */
static int iso_week(long long days, long long *isoyear)
{
    long long y;
    int m, d;
    suql_civil_from_days(days, &y, &m, &d);
    int wd = (int)(((days + 3) % 7 + 7) % 7) + 1;            /* Monday 1 .. Sunday 7 */
    long long thursday = days - wd + 4;
    suql_civil_from_days(thursday, isoyear, &m, &d);
    long long jan1 = suql_days_from_civil(*isoyear, 1, 1);
    return (int)((thursday - jan1) / 7 + 1);
}

/* suql_date_part(field, value, kind): kind 'd' date, 't' time, 's'
 * timestamp, 'i' interval; PostgreSQL's fields for each. */
static void fn_date_part(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *f = suql_pg_text(v[0]), *k = suql_pg_text(v[2]);
    double r;
    if (*k == 'i') {
        suql_interval iv;
        if (arg_iv(c, v[1], &iv)) return;
        double sec = (double)(iv.usec % 60000000LL) / 1e6;
        long long min = iv.usec / 60000000LL;
        /* PostgreSQL: whole years of 365.25 days, other months of 30. */
        if (!strcmp(f, "epoch"))
            r = (double)(iv.months / 12) * 365.25 * 86400 + (double)(iv.months % 12) * 30 * 86400 +
                (double)iv.days * 86400 + (double)iv.usec / 1e6;
        else if (!strcmp(f, "year")) r = (double)(iv.months / 12);
        else if (!strcmp(f, "month")) r = (double)(iv.months % 12);
        else if (!strcmp(f, "day")) r = (double)iv.days;
        else if (!strcmp(f, "hour")) r = (double)(min / 60);
        else if (!strcmp(f, "minute")) r = (double)(min % 60);
        else if (!strcmp(f, "second")) r = sec;
        else if (!strcmp(f, "milliseconds")) r = sec * 1e3;
        else if (!strcmp(f, "microseconds")) r = sec * 1e6;
        else if (!strcmp(f, "quarter")) r = (double)((iv.months % 12) / 3 + 1);
        else if (!strcmp(f, "decade")) r = (double)(iv.months / 120);
        else if (!strcmp(f, "century")) r = (double)(iv.months / 1200);
        else if (!strcmp(f, "millennium")) r = (double)(iv.months / 12000);
        else {
            suql_pg_error(c, "interval units \"%s\" not supported", f);
            return;
        }
        sqlite3_result_double(c, r);
        return;
    }
    long long days = 0, usec = 0;
    if (*k == 't') {
        if (arg_time(c, v[1], &usec)) return;
    } else if (arg_ts(c, v[1], &days, &usec)) {
        return;
    }
    long long y;
    int m, d;
    suql_civil_from_days(days, &y, &m, &d);
    int is_date_field = 1;
    if (!strcmp(f, "hour")) r = (double)(usec / 3600000000LL), is_date_field = 0;
    else if (!strcmp(f, "minute")) r = (double)(usec / 60000000LL % 60), is_date_field = 0;
    else if (!strcmp(f, "second")) r = (double)(usec % 60000000LL) / 1e6, is_date_field = 0;
    else if (!strcmp(f, "milliseconds")) r = (double)(usec % 60000000LL) / 1e3, is_date_field = 0;
    else if (!strcmp(f, "microseconds")) r = (double)(usec % 60000000LL), is_date_field = 0;
    else if (!strcmp(f, "epoch")) r = (double)days * 86400 + (double)usec / 1e6, is_date_field = *k != 't';
    else if (!strcmp(f, "year")) r = (double)y;
    else if (!strcmp(f, "month")) r = m;
    else if (!strcmp(f, "day")) r = d;
    else if (!strcmp(f, "quarter")) r = (m - 1) / 3 + 1;
    else if (!strcmp(f, "dow")) r = (double)(((days + 4) % 7 + 7) % 7);
    else if (!strcmp(f, "isodow")) r = (double)(((days + 3) % 7 + 7) % 7 + 1);
    else if (!strcmp(f, "doy")) r = (double)(days - suql_days_from_civil(y, 1, 1) + 1);
    else if (!strcmp(f, "week")) { long long iy; r = iso_week(days, &iy); }
    else if (!strcmp(f, "isoyear")) { long long iy; iso_week(days, &iy); r = (double)iy; }
    else if (!strcmp(f, "decade")) r = (double)(y / 10);
    else if (!strcmp(f, "century")) r = (double)((y + 99) / 100);
    else if (!strcmp(f, "millennium")) r = (double)((y + 999) / 1000);
    else {
        suql_pg_error(c, "unit \"%s\" not recognized", f);
        return;
    }
    if (*k == 't' && is_date_field && strcmp(f, "epoch")) {
        suql_pg_error(c, "unit \"%s\" not supported for type time without time zone", f);
        return;
    }
    if (*k == 'd' && !is_date_field) {
        /* A date reads as its midnight: its time fields are zero. */
    }
    sqlite3_result_double(c, r);
}

/* ---- text ---------------------------------------------------------------- */

/* Byte offset of character I (0-based) in S, or its length when past. */
static size_t char_at(const char *s, long long i)
{
    size_t b = 0;
    for (long long k = 0; s[b] && k < i; k++) {
        b++;
        while ((s[b] & 0xC0) == 0x80) b++;
    }
    return b;
}

static long long char_count(const char *s)
{
    long long n = 0;
    for (; *s; s++) n += (*s & 0xC0) != 0x80;
    return n;
}

/* Characters [from, to) of S, clipped to the string (0-based). */
static void result_chars(sqlite3_context *c, const char *s, long long from, long long to)
{
    long long n = char_count(s);
    if (from < 0) from = 0;
    if (to > n) to = n;
    if (to <= from) {
        sqlite3_result_text(c, "", 0, SQLITE_STATIC);
        return;
    }
    size_t a = char_at(s, from), b = a + char_at(s + a, to - from);
    sqlite3_result_text(c, s + a, (int)(b - a), SQLITE_TRANSIENT);
}

/* suql_substr(s, start[, len]): PostgreSQL's, start counted from 1 and
 * possibly before it; a negative length is an error. */
static void fn_substr(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    long long start = sqlite3_value_int64(v[1]);
    if (argc < 3) {
        result_chars(c, suql_pg_text(v[0]), start - 1, char_count(suql_pg_text(v[0])));
        return;
    }
    long long len = sqlite3_value_int64(v[2]);
    if (len < 0) {
        suql_pg_error(c, "negative substring length not allowed");
        return;
    }
    result_chars(c, suql_pg_text(v[0]), start - 1, start - 1 + len);
}

/* suql_left(s, n) and suql_right(s, n): a negative N drops |N|
 * characters from the other end. */
static void fn_left(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]);
    long long n = sqlite3_value_int64(v[1]), len = char_count(s);
    result_chars(c, s, 0, n >= 0 ? n : len + n);
}

static void fn_right(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]);
    long long n = sqlite3_value_int64(v[1]), len = char_count(s);
    result_chars(c, s, n >= 0 ? len - n : -n, len);
}

/* suql_split_part(s, delimiter, n): field N (from the end when
 * negative); '' past the fields; N = 0 is an error. */
static void fn_split_part(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_null_result(c, argc, v)) return;
    const char *s = suql_pg_text(v[0]), *dl = suql_pg_text(v[1]);
    long long n = sqlite3_value_int64(v[2]);
    if (n == 0) {
        suql_pg_error(c, "field position must not be zero");
        return;
    }
    size_t dn = strlen(dl);
    /* Field boundaries: count fields first (for negative N). */
    long long fields = 1;
    if (dn == 0) {
        fields = *s ? 1 : 0;
    } else {
        for (const char *p = strstr(s, dl); p; p = strstr(p + dn, dl)) fields++;
    }
    if (!*s) fields = 0;
    long long want = n > 0 ? n : fields + n + 1;
    if (want < 1 || want > fields) {
        sqlite3_result_text(c, "", 0, SQLITE_STATIC);
        return;
    }
    if (dn == 0) {
        sqlite3_result_text(c, s, -1, SQLITE_TRANSIENT);
        return;
    }
    const char *p = s;
    for (long long k = 1; k < want; k++) p = strstr(p, dl) + dn;
    const char *e = strstr(p, dl);
    sqlite3_result_text(c, p, e ? (int)(e - p) : -1, SQLITE_TRANSIENT);
}

/* suql_upper(s), suql_lower(s), suql_initcap(s): the case of all of
 * Unicode as PostgreSQL maps it under a UTF-8 ctype (casemap.c). */
static void case_fn(sqlite3_context *c, sqlite3_value *v, suql_case how)
{
    if (suql_pg_is_null(v)) {
        sqlite3_result_null(c);
        return;
    }
    const char *s = suql_pg_text(v);
    size_t n = (size_t)sqlite3_value_bytes(v);
    char *out;
    size_t outn;
    if (!s || suql_case_map(s, n, how, &out, &outn)) {
        sqlite3_result_error_nomem(c);
        return;
    }
    sqlite3_result_text64(c, out, outn, free, SQLITE_UTF8);
}

static void fn_upper(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    case_fn(c, v[0], SUQL_CASE_UPPER);
}

static void fn_lower(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    case_fn(c, v[0], SUQL_CASE_LOWER);
}

static void fn_initcap(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    case_fn(c, v[0], SUQL_CASE_INITCAP);
}

/* suql_array_key(json): a text that sorts as PostgreSQL sorts arrays,
 * element by element (a shorter prefix first): each element's key then
 * \x01.  Text is \x02 and its bytes; a number \x02 and 16 hex digits of
 * its bits made order-preserving (negatives below positives); a NULL
 * element \x7f (after any value, as in PostgreSQL). */
static void fn_array_key(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    /* An enum array's elements sort by their place in the vocabulary. */
    cJSON *vocab = argc > 1 ? cJSON_Parse(suql_pg_text(v[1])) : NULL;
    cJSON *a = cJSON_Parse(suql_pg_text(v[0]));
    if (!cJSON_IsArray(a)) {
        cJSON_Delete(a);
        sqlite3_result_value(c, v[0]);
        return;
    }
    gn_buf b;
    gn_buf_init(&b);
    for (const cJSON *it = a->child; it; it = it->next) {
        if (cJSON_IsNumber(it)) {
            double d = it->valuedouble;
            unsigned long long bits;
            memcpy(&bits, &d, sizeof bits);
            bits = (bits >> 63) ? ~bits : bits | (1ULL << 63);
            gn_buf_printf(&b, "\x02%016llx", bits);
        } else if (cJSON_IsString(it)) {
            int place = -1, k = 0;
            for (const cJSON *w = cJSON_IsArray(vocab) ? vocab->child : NULL; w && place < 0; w = w->next, k++)
                if (cJSON_IsString(w) && !strcmp(w->valuestring, it->valuestring)) place = k;
            gn_buf_putc(&b, '\x02');
            if (place >= 0) gn_buf_printf(&b, "%08d", place);
            else gn_buf_puts(&b, it->valuestring);
        } else if (cJSON_IsNull(it)) {
            gn_buf_putc(&b, '\x7f');
        } else {
            char *t = cJSON_PrintUnformatted(it);
            gn_buf_putc(&b, '\x02');
            if (t) gn_buf_puts(&b, t);
            cJSON_free(t);
        }
        gn_buf_putc(&b, '\x01');
    }
    cJSON_Delete(a);
    cJSON_Delete(vocab);
    sqlite3_result_text(c, b.data ? b.data : "", (int)b.len, SQLITE_TRANSIENT);
    gn_buf_release(&b);
}

/* suql_array_text(json): an array as PostgreSQL prints one, {a,"b c",NULL}:
 * an element is quoted when empty, when it is "NULL" in any case, or when
 * it holds a space, comma, brace, quote or backslash (those two escaped). */
static void fn_array_text(sqlite3_context *c, int argc, sqlite3_value **v)
{
    /* suql_array_text(json, 'bool'): numbers 1 and 0 are t and f. */
    int bools = argc > 1 && !strcmp(suql_pg_text(v[1]), "bool");
    if (suql_pg_is_null(v[0])) {
        sqlite3_result_null(c);
        return;
    }
    cJSON *a = cJSON_Parse(suql_pg_text(v[0]));
    if (!cJSON_IsArray(a)) {
        cJSON_Delete(a);
        sqlite3_result_value(c, v[0]);
        return;
    }
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_putc(&b, '{');
    for (const cJSON *it = a->child; it; it = it->next) {
        if (it != a->child) gn_buf_putc(&b, ',');
        if (cJSON_IsNull(it)) {
            gn_buf_puts(&b, "NULL");
        } else if (cJSON_IsNumber(it) && bools) {
            gn_buf_putc(&b, it->valuedouble != 0 ? 't' : 'f');
        } else if (cJSON_IsNumber(it)) {
            char num[40];
            suql_pg_float_text(it->valuedouble, num);
            gn_buf_puts(&b, num);
        } else if (cJSON_IsBool(it)) {
            gn_buf_putc(&b, cJSON_IsTrue(it) ? 't' : 'f');
        } else {
            const char *s = cJSON_IsString(it) ? it->valuestring : "";
            int quote = !*s || !strcasecmp(s, "null") || strpbrk(s, " ,{}\"\\\t\n") != NULL;
            if (quote) gn_buf_putc(&b, '"');
            for (; *s; s++) {
                if (quote && (*s == '"' || *s == '\\')) gn_buf_putc(&b, '\\');
                gn_buf_putc(&b, *s);
            }
            if (quote) gn_buf_putc(&b, '"');
        }
    }
    gn_buf_putc(&b, '}');
    cJSON_Delete(a);
    sqlite3_result_text(c, b.data, (int)b.len, SQLITE_TRANSIENT);
    gn_buf_release(&b);
}

/* ---- scalar subqueries --------------------------------------------------- */

/* suql_single(x): the one value of a scalar subquery; a second row is
 * PostgreSQL's error. */
typedef struct single_acc {
    sqlite3_value *v;
    int n;
} single_acc;

static void single_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    single_acc *a = sqlite3_aggregate_context(c, sizeof *a);
    if (!a) return;
    if (++a->n == 1 && !(a->v = sqlite3_value_dup(v[0]))) sqlite3_result_error_nomem(c);
}

static void single_final(sqlite3_context *c)
{
    single_acc *a = sqlite3_aggregate_context(c, 0);
    if (!a || !a->n) sqlite3_result_null(c);
    else if (a->n > 1) suql_pg_error(c, "more than one row returned by a subquery used as an expression");
    else if (!a->v) sqlite3_result_error_nomem(c);
    else sqlite3_result_value(c, a->v);
    if (a) sqlite3_value_free(a->v);
}

/* ---- today --------------------------------------------------------------- */

static void today_of(sqlite3_context *c, char *out)
{
    const char *t = sqlite3_user_data(c);
    if (t && *t) {
        snprintf(out, 11, "%s", t);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(out, 11, "%Y-%m-%d", &tm);
}

static void fn_today(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    (void)v;
    char d[16];
    today_of(c, d);
    sqlite3_result_text(c, d, -1, SQLITE_TRANSIENT);
}

/* suql_now(): today (as given) at the system's time of day. */
static void fn_now(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    (void)v;
    char d[16], out[40];
    today_of(c, d);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    snprintf(out, sizeof out, "%s %02d:%02d:%02d", d, tm.tm_hour, tm.tm_min, tm.tm_sec);
    sqlite3_result_text(c, out, -1, SQLITE_TRANSIENT);
}

/* ---- registration -------------------------------------------------------- */

int suql_pgval_register(sqlite3 *db, const char *today)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        { "suql_text", 1, fn_text }, { "suql_numeric", 1, fn_numeric },
        { "suql_round", 1, fn_round }, { "suql_int", 1, fn_int },
        { "suql_float", 1, fn_float }, { "suql_float", 2, fn_float },
        { "suql_bool", 1, fn_bool }, { "suql_nz", 1, fn_nz }, { "suql_nz", 2, fn_nz },
        { "suql_round_n", 2, fn_round_n }, { "suql_numeric_mod", 3, fn_numeric_mod },
        { "suql_time", 1, fn_time }, { "suql_date", 1, fn_date },
        { "suql_timestamp", 1, fn_timestamp }, { "suql_interval", 1, fn_interval },
        { "suql_date_add", 2, fn_date_add }, { "suql_date_diff", 2, fn_date_diff },
        { "suql_ts_add", 3, fn_ts_add }, { "suql_ts_diff", 2, fn_ts_diff },
        { "suql_time_add", 3, fn_time_add }, { "suql_time_diff", 2, fn_time_diff },
        { "suql_iv_add", 3, fn_iv_add }, { "suql_iv_mul", 2, fn_iv_mul },
        { "suql_iv_key", 1, fn_iv_key }, { "suql_date_part", 3, fn_date_part },
        { "suql_substr", 2, fn_substr }, { "suql_substr", 3, fn_substr },
        { "suql_left", 2, fn_left }, { "suql_right", 2, fn_right },
        { "suql_split_part", 3, fn_split_part }, { "suql_initcap", 1, fn_initcap },
        { "suql_upper", 1, fn_upper }, { "suql_lower", 1, fn_lower },
        { "suql_array_key", 1, fn_array_key }, { "suql_array_key", 2, fn_array_key },
        { "suql_array_text", 1, fn_array_text }, { "suql_array_text", 2, fn_array_text },
    };
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        int rc = sqlite3_create_function(db, fns[i].name, fns[i].nargs, flags, NULL, fns[i].fn, NULL, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    int rc = sqlite3_create_function(db, "suql_single", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL, NULL,
                                     single_step, single_final);
    /* The date is the connection's: copied, freed with the function. */
    char *t = today ? sqlite3_mprintf("%s", today) : NULL;
    if (!rc) rc = sqlite3_create_function_v2(db, "suql_today", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, t,
                                             fn_today, NULL, NULL, sqlite3_free);
    char *t2 = today ? sqlite3_mprintf("%s", today) : NULL;
    if (!rc) rc = sqlite3_create_function_v2(db, "suql_now", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, t2,
                                             fn_now, NULL, NULL, sqlite3_free);
    return rc;
}
