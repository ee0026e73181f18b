/*
 * pgstat.c — PostgreSQL's statistical aggregates stddev, stddev_samp,
 * stddev_pop, variance, var_samp and var_pop as SQLite aggregate and
 * window functions (pgfunc.h).
 *
 * The state is PostgreSQL's float8 one (float8_accum): the count N, the
 * sum Sx and the sum of squared deviations Sxx, updated by the
 * Youngs-Cramer step, so a double result has PostgreSQL's digits.  NULL
 * inputs are skipped.  The sample forms are NULL for fewer than two
 * values, the population forms for none.  Infinities and NaNs are
 * counted apart from the sums and make the result NaN (which SQLite
 * stores as NULL), as they make PostgreSQL's; keeping them apart is what
 * lets xInverse take a value out again when a window frame moves on.
 * The _n variants are for integer and numeric input, whose result
 * PostgreSQL computes in exact numeric: the same steps in long double,
 * the result rounded to 15 significant digits (pgval.c's numeric).
 *
 *
 * Also here, as window-capable aggregates too: sum, avg, min and max of
 * intervals (suql_iv_sum, suql_iv_avg, suql_iv_min, suql_iv_max), which
 * SQLite's own would read as numbers or compare as text.  The sum adds
 * months, days and microseconds apart, with no justification (36 hours
 * stay 36:00:00), as interval_pl; avg divides that sum by the count as
 * PostgreSQL 15's interval_div; min and max compare lengths (a month as
 * 30 days, a day as 24 hours) and return the value itself, the later of
 * two equal lengths.  min and max keep the frame's values, so that a
 * moving window frame can drop its oldest.
 *
 * Rejected: Welford's mean-and-M2 update (same accuracy, other last
 * digits than PostgreSQL's float8 results); two passes over stored values
 * (memory for a result the streaming form gives); exact decimal
 * arithmetic for the numeric forms (the project's numeric is a double).
 */
#include "suql/pgfunc.h"
#include "suql/pgfn.h"
#include "suql/pgtime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stat_state {
    double n, sx, sxx;
    /* The same in long double, for the _n forms: as bytes, since SQLite
     * aligns an aggregate's context to 8 only. */
    unsigned char lbytes[3 * sizeof(long double)];
    long long nonfinite;       /* infinities and NaNs in the frame */
} stat_state;

typedef struct lstate {
    long double n, sx, sxx;
} lstate;

static lstate lload(const stat_state *s)
{
    lstate l;
    memcpy(&l.n, s->lbytes, sizeof l.n);
    memcpy(&l.sx, s->lbytes + sizeof l.n, sizeof l.sx);
    memcpy(&l.sxx, s->lbytes + 2 * sizeof l.n, sizeof l.sxx);
    return l;
}

static void lstore(stat_state *s, const lstate *l)
{
    memcpy(s->lbytes, &l->n, sizeof l->n);
    memcpy(s->lbytes + sizeof l->n, &l->sx, sizeof l->sx);
    memcpy(s->lbytes + 2 * sizeof l->n, &l->sxx, sizeof l->sxx);
}

/* The forms: sample or population, variance or its square root, and
 * whether the result is numeric. */
enum { S_POP = 1, S_SQRT = 2, S_NUMERIC = 4 };

static const struct {
    const char *name;
    int form;
} stat_fns[] = {
    { "suql_stddev", S_SQRT }, { "suql_stddev_samp", S_SQRT }, { "suql_stddev_pop", S_SQRT | S_POP },
    { "suql_variance", 0 }, { "suql_var_samp", 0 }, { "suql_var_pop", S_POP },
};

static void overflow(sqlite3_context *c)
{
    sqlite3_result_error(c, "value out of range: overflow", -1);
}

static void stat_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    int t = sqlite3_value_numeric_type(v[0]);
    if (t == SQLITE_NULL) return;
    stat_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s) return;
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
        char msg[120];
        snprintf(msg, sizeof msg, "invalid input syntax for type double precision: \"%.60s\"",
                 (const char *)sqlite3_value_text(v[0]));
        sqlite3_result_error(c, msg, -1);
        return;
    }
    double x = sqlite3_value_double(v[0]);
    if (!isfinite(x)) {
        s->nonfinite++;
        return;
    }
    double n0 = s->n;
    lstate l = lload(s);
    s->n += 1;
    s->sx += x;
    l.n += 1;
    l.sx += x;
    if (n0 > 0) {
        double tmp = x * s->n - s->sx;
        s->sxx += tmp * tmp / (s->n * n0);
        long double ltmp = x * l.n - l.sx;
        l.sxx += ltmp * ltmp / (l.n * n0);
    }
    lstore(s, &l);
    if (isinf(s->sx) || isinf(s->sxx)) overflow(c);
}

/* The step undone: X taken out of the frame. */
static void stat_inverse(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    int t = sqlite3_value_numeric_type(v[0]);
    stat_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s || (t != SQLITE_INTEGER && t != SQLITE_FLOAT)) return;
    double x = sqlite3_value_double(v[0]);
    if (!isfinite(x)) {
        s->nonfinite--;
        return;
    }
    if (s->n <= 1) {
        s->n = s->sx = s->sxx = 0;
        memset(s->lbytes, 0, sizeof s->lbytes);
        return;
    }
    double tmp = x * s->n - s->sx;
    s->sxx -= tmp * tmp / (s->n * (s->n - 1));
    if (s->sxx < 0) s->sxx = 0;
    s->n -= 1;
    s->sx -= x;
    lstate l = lload(s);
    long double ltmp = x * l.n - l.sx;
    l.sxx -= ltmp * ltmp / (l.n * (l.n - 1));
    if (l.sxx < 0) l.sxx = 0;
    l.n -= 1;
    l.sx -= x;
    lstore(s, &l);
}

static void stat_value(sqlite3_context *c)
{
    stat_state *s = sqlite3_aggregate_context(c, 0);
    int form = (int)(intptr_t)sqlite3_user_data(c);
    double n = s ? s->n + (double)s->nonfinite : 0;
    if (n < ((form & S_POP) ? 1 : 2)) {
        sqlite3_result_null(c);
        return;
    }
    if (s->nonfinite) {
        sqlite3_result_double(c, NAN);
        return;
    }
    double r = s->sxx / ((form & S_POP) ? n : n - 1);
    if (form & S_SQRT) r = sqrt(r);
    if (form & S_NUMERIC) {
        long double lr = lload(s).sxx / ((form & S_POP) ? n : n - 1);
        r = (double)((form & S_SQRT) ? sqrtl(lr) : lr);
        char buf[40];
        snprintf(buf, sizeof buf, "%.15g", r);
        r = strtod(buf, NULL);
    }
    sqlite3_result_double(c, r);
}

static int iv_register(sqlite3 *db);

int suql_pgstat_register(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    for (size_t i = 0; i < sizeof stat_fns / sizeof *stat_fns; i++) {
        for (int numeric = 0; numeric < 2; numeric++) {
            char name[40];
            snprintf(name, sizeof name, "%s%s", stat_fns[i].name, numeric ? "_n" : "");
            intptr_t form = stat_fns[i].form | (numeric ? S_NUMERIC : 0);
            int rc = sqlite3_create_window_function(db, name, 1, flags, (void *)form, stat_step,
                                                    stat_value, stat_value, stat_inverse, NULL);
            if (rc != SQLITE_OK) return rc;
        }
    }
    return iv_register(db);
}

/* ---- sum, avg, min and max of intervals ---------------------------------- */

/* PostgreSQL's interval_pl, field by field (months and days are int32
 * there), or -1 when a field leaves its range. */
static int iv_add(suql_interval *a, const suql_interval *b, int sign)
{
    long long u;
    a->months += sign * b->months;
    a->days += sign * b->days;
    if (__builtin_add_overflow(a->usec, sign * b->usec, &u)) return -1;
    a->usec = u;
    return a->months < INT32_MIN || a->months > INT32_MAX || a->days < INT32_MIN || a->days > INT32_MAX
               ? -1 : 0;
}

/* PostgreSQL 15's interval_div: each field divided, a month's fraction
 * spilling into days of 30 and a day's into 24-hour microseconds, both
 * rounded to microseconds on the way (TSROUND). */
static void iv_div(const suql_interval *a, double f, suql_interval *r)
{
    r->months = (int)((double)a->months / f);
    r->days = (int)((double)a->days / f);
    double mdays = ((double)a->months / f - (double)r->months) * 30;
    mdays = rint(mdays * 1e6) / 1e6;
    double secs = ((double)a->days / f - (double)r->days + mdays - (int)mdays) * 86400;
    secs = rint(secs * 1e6) / 1e6;
    if (fabs(secs) >= 86400) {
        r->days += (int)(secs / 86400);
        secs -= (int)(secs / 86400) * 86400;
    }
    r->days += (int)mdays;
    r->usec = (long long)rint((double)a->usec / f + secs * 1e6);
}

/* PostgreSQL's interval_cmp: the length, a month as 30 days of 24 hours. */
static void iv_len(const suql_interval *a, long long *days, long long *usec)
{
    long long q = a->usec / 86400000000LL, r = a->usec % 86400000000LL;
    if (r < 0) q--, r += 86400000000LL;
    *days = a->months * 30 + a->days + q;
    *usec = r;
}

static int iv_cmp(const suql_interval *a, const suql_interval *b)
{
    long long ad, au, bd, bu;
    iv_len(a, &ad, &au);
    iv_len(b, &bd, &bu);
    if (ad != bd) return ad < bd ? -1 : 1;
    return au < bu ? -1 : au > bu;
}

/* The argument as an interval: 1, 0 for NULL, -1 after an error. */
static int iv_arg(sqlite3_context *c, sqlite3_value *v, suql_interval *iv)
{
    char msg[128];
    if (sqlite3_value_type(v) == SQLITE_NULL) return 0;
    const char *s = (const char *)sqlite3_value_text(v);
    if (!suql_parse_interval(s ? s : "", iv, msg, sizeof msg)) return 1;
    sqlite3_result_error(c, msg, -1);
    return -1;
}

/* suql_iv_sum and suql_iv_avg: the sum of the values in the frame and
 * how many there are; the user data is 1 for avg. */
typedef struct ivsum_state {
    suql_interval sum;
    long long n;
} ivsum_state;

static void ivsum_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    suql_interval x;
    if (iv_arg(c, v[0], &x) <= 0) return;
    ivsum_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s) return;
    s->n++;
    if (iv_add(&s->sum, &x, 1)) sqlite3_result_error(c, "interval out of range", -1);
}

static void ivsum_inverse(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    suql_interval x;
    ivsum_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s || iv_arg(c, v[0], &x) <= 0) return;
    s->n--;
    if (iv_add(&s->sum, &x, -1)) sqlite3_result_error(c, "interval out of range", -1);
}

static void ivsum_value(sqlite3_context *c)
{
    ivsum_state *s = sqlite3_aggregate_context(c, 0);
    if (!s || s->n <= 0) {
        sqlite3_result_null(c);
        return;
    }
    if (!sqlite3_user_data(c)) {
        suql_pg_result_interval(c, &s->sum);
        return;
    }
    suql_interval r;
    iv_div(&s->sum, (double)s->n, &r);
    suql_pg_result_interval(c, &r);
}

/* suql_iv_min and suql_iv_max: the values of the frame in order (a
 * window frame drops its oldest first); the user data is 1 for max.  Of
 * equal lengths the later value wins, as interval_smaller and
 * interval_larger keep their second argument on a tie. */
typedef struct ivext_state {
    suql_interval *v;
    size_t head, n, cap;
} ivext_state;

static void ivext_step(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    suql_interval x;
    if (iv_arg(c, v[0], &x) <= 0) return;
    ivext_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (!s) return;
    if (s->head && s->head == s->n) s->head = s->n = 0;
    if (s->n == s->cap && s->head > s->cap / 2) {
        memmove(s->v, s->v + s->head, (s->n - s->head) * sizeof *s->v);
        s->n -= s->head;
        s->head = 0;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        suql_interval *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv) {
            sqlite3_result_error_nomem(c);
            return;
        }
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = x;
}

static void ivext_inverse(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    ivext_state *s = sqlite3_aggregate_context(c, sizeof *s);
    if (s && sqlite3_value_type(v[0]) != SQLITE_NULL && s->head < s->n) s->head++;
}

static void ivext_value(sqlite3_context *c)
{
    ivext_state *s = sqlite3_aggregate_context(c, 0);
    if (!s || s->head >= s->n) {
        sqlite3_result_null(c);
        return;
    }
    int max = sqlite3_user_data(c) != NULL;
    const suql_interval *best = &s->v[s->head];
    for (size_t i = s->head + 1; i < s->n; i++) {
        int d = iv_cmp(best, &s->v[i]);
        if (max ? d <= 0 : d >= 0) best = &s->v[i];
    }
    suql_pg_result_interval(c, best);
}

static void ivext_final(sqlite3_context *c)
{
    ivext_value(c);
    ivext_state *s = sqlite3_aggregate_context(c, 0);
    if (s) free(s->v);
}

static int iv_register(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    static const struct {
        const char *name;
        intptr_t data;
        int ext;
    } ivfns[] = {
        { "suql_iv_sum", 0, 0 }, { "suql_iv_avg", 1, 0 }, { "suql_iv_min", 0, 1 }, { "suql_iv_max", 1, 1 },
    };
    for (size_t i = 0; i < sizeof ivfns / sizeof *ivfns; i++) {
        int rc = ivfns[i].ext
                     ? sqlite3_create_window_function(db, ivfns[i].name, 1, flags, (void *)ivfns[i].data,
                                                      ivext_step, ivext_final, ivext_value, ivext_inverse, NULL)
                     : sqlite3_create_window_function(db, ivfns[i].name, 1, flags, (void *)ivfns[i].data,
                                                      ivsum_step, ivsum_value, ivsum_value, ivsum_inverse, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}
