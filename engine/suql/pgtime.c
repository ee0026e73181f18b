/*
 * pgtime.c — PostgreSQL's date, time, timestamp and interval values: their
 * input forms, their output text, and the arithmetic between them
 * (pgval.h; pgtime.h for what pgval.c's SQL functions share).
 *
 * Dates are counted in days from 1970-01-01 on the proleptic Gregorian
 * calendar (as PostgreSQL does); times in microseconds from midnight.  An
 * interval keeps months, days and microseconds apart, so that adding
 * '1 month' to January 31 gives February 28 and '1 day' across a month
 * end stays a day, as in PostgreSQL.  Comparing intervals reads a month
 * as 30 days and a day as 24 hours (PostgreSQL's interval_cmp).
 *
 * Rejected: time zones (the knowledge base has none; timestamptz reads as
 * timestamp), BC dates, ISO 8601 interval syntax ('P1D') and
 * PostgreSQL's many other input spellings of dates ('Nov 26 2026'): an
 * LLM writes ISO dates, and an unknown form is an error, never a guess.
 */
#include "suql/pgtime.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define USEC_MIN 60000000LL
#define USEC_HOUR 3600000000LL
#define USEC_DAY 86400000000LL

/* ---- calendar ------------------------------------------------------------ */

long long suql_days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void suql_civil_from_days(long long z, long long *y, int *m, int *d)
{
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

int suql_month_days(long long y, int m)
{
    static const int n[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
    return n[m - 1];
}

/* ---- scanning ------------------------------------------------------------ */

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* Digits at *S: their value and count (at most 18 read). */
static int digits(const char **s, long long *v)
{
    int n = 0;
    *v = 0;
    while (isdigit((unsigned char)**s) && n < 18) {
        *v = *v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    return n;
}

/* The digits after a decimal point at *S as microseconds, rounded half
 * to even at the sixth digit as PostgreSQL rounds (1000000 when they
 * round up to a whole second). */
static long long scan_frac(const char **sp)
{
    const char *s = *sp;
    long long frac = 0;
    int nf = 0, next = -1, rest = 0;
    for (; isdigit((unsigned char)*s); s++, nf++) {
        if (nf < 6) frac = frac * 10 + (*s - '0');
        else if (nf == 6) next = *s - '0';
        else rest |= *s != '0';
    }
    for (int k = nf; k < 6; k++) frac *= 10;
    if (next > 5 || (next == 5 && (rest || frac % 2))) frac++;
    *sp = s;
    return frac;
}

static int fail(char *out, size_t outn, const char *type, const char *s)
{
    snprintf(out, outn, "invalid input syntax for type %s: \"%.60s\"", type, s);
    return -1;
}

static int range(char *out, size_t outn, const char *s)
{
    snprintf(out, outn, "date/time field value out of range: \"%.60s\"", s);
    return -1;
}

/* A time of day at *S into *usec: H[H]:MM[:SS[.f]] [am|pm].  0, or -1
 * with *bad set: 1 syntax, 2 range. */
static int scan_time(const char **sp, long long *usec, int *bad)
{
    const char *s = *sp;
    long long h, mi = 0, sec = 0, frac = 0;
    *bad = 1;
    int nh = digits(&s, &h);
    if (nh < 1 || nh > 2 || *s != ':') return -1;
    s++;
    /* One digit is enough, as in PostgreSQL: '9:5' is 09:05:00. */
    int nm = digits(&s, &mi);
    if (nm < 1 || nm > 2) return -1;
    if (*s == ':') {
        s++;
        int ns = digits(&s, &sec);
        if (ns < 1 || ns > 2) return -1;
        if (*s == '.') {
            s++;
            if (!isdigit((unsigned char)*s)) return -1;
            frac = scan_frac(&s);
        }
    }
    const char *t = skip_space(s);
    if (!strncasecmp(t, "am", 2) || !strncasecmp(t, "pm", 2)) {
        int pm = tolower((unsigned char)*t) == 'p';
        if (h < 1 || h > 12) {
            *bad = 2;
            return -1;
        }
        h = h % 12 + (pm ? 12 : 0);
        s = t + 2;
    }
    if (mi > 59 || sec > 60 || h > 24 || (h == 24 && (mi || sec || frac))) {
        *bad = 2;
        return -1;
    }
    *usec = ((h * 60 + mi) * 60 + sec) * 1000000LL + frac;
    *sp = s;
    return 0;
}

/* A date at *S into *days: YYYY-MM-DD or YYYYMMDD. */
static int scan_date(const char **sp, long long *days, int *bad)
{
    const char *s = *sp;
    long long y, m, d;
    *bad = 1;
    int ny = digits(&s, &y);
    if (ny == 8 && !isdigit((unsigned char)*s)) {
        d = y % 100;
        m = y / 100 % 100;
        y /= 10000;
    } else {
        if (ny < 1 || ny > 7 || *s != '-') return -1;
        s++;
        int nm = digits(&s, &m);
        if (nm < 1 || nm > 2 || *s != '-') return -1;
        s++;
        int nd = digits(&s, &d);
        if (nd < 1 || nd > 2) return -1;
    }
    if (m < 1 || m > 12 || d < 1 || d > suql_month_days(y, (int)m) || y < 1 || y > SUQL_YEAR_MAX) {
        *bad = 2;
        return -1;
    }
    *days = suql_days_from_civil(y, (int)m, (int)d);
    *sp = s;
    return 0;
}

/* ---- output -------------------------------------------------------------- */

/* HH:MM:SS[.ffffff] of USEC (>= 0; hours may pass 24) appended to OUT. */
static void put_clock(char *out, size_t outn, unsigned long long usec)
{
    unsigned long long sec = usec / 1000000ULL, frac = usec % 1000000ULL;
    size_t n = strlen(out);
    n += (size_t)snprintf(out + n, outn - n, "%02llu:%02llu:%02llu", sec / 3600, sec / 60 % 60, sec % 60);
    if (frac && n < outn) {
        char f[8];
        snprintf(f, sizeof f, "%06llu", frac);
        for (int i = 5; i > 0 && f[i] == '0'; i--) f[i] = 0;
        snprintf(out + n, outn - n, ".%s", f);
    }
}

void suql_fmt_time(long long usec, char *out, size_t outn)
{
    out[0] = 0;
    put_clock(out, outn, (unsigned long long)usec);
}

void suql_fmt_date(long long days, char *out, size_t outn)
{
    long long y;
    int m, d;
    suql_civil_from_days(days, &y, &m, &d);
    snprintf(out, outn, "%04lld-%02d-%02d", y, m, d);
}

void suql_fmt_timestamp(long long days, long long usec, char *out, size_t outn)
{
    suql_fmt_date(days, out, outn);
    size_t n = strlen(out);
    if (n + 1 < outn) {
        out[n] = ' ';
        out[n + 1] = 0;
    }
    put_clock(out, outn, (unsigned long long)usec);
}

/* PostgreSQL's interval output (IntervalStyle postgres): years, mons and
 * days each with its sign, '+' when it follows a negative part, then the
 * clock part when it is not zero or nothing else is. */
void suql_fmt_interval(const suql_interval *iv, char *out, size_t outn)
{
    long long parts[3] = { iv->months / 12, iv->months % 12, iv->days };
    static const char *const units[3] = { "year", "mon", "day" };
    size_t n = 0;
    int before = 0, zero = 1;
    out[0] = 0;
    for (int i = 0; i < 3; i++) {
        long long v = parts[i];
        if (!v) continue;
        n += (size_t)snprintf(out + n, outn - n, "%s%s%lld %s%s", zero ? "" : " ",
                              before && v > 0 ? "+" : "", v, units[i], v == 1 ? "" : "s");
        if (n >= outn) n = outn - 1;
        before = v < 0;
        zero = 0;
    }
    if (zero || iv->usec) {
        int minus = iv->usec < 0;
        n += (size_t)snprintf(out + n, outn - n, "%s%s", zero ? "" : " ",
                              minus ? "-" : before ? "+" : "");
        if (n >= outn) n = outn - 1;
        put_clock(out, outn, minus ? (unsigned long long)(-iv->usec) : (unsigned long long)iv->usec);
    }
}

/* ---- the parsers --------------------------------------------------------- */

int suql_parse_time(const char *s, long long *usec, char *out, size_t outn)
{
    const char *p = skip_space(s);
    int bad;
    long long days;
    const char *q = p;
    /* A timestamp's time part. */
    if (scan_date(&q, &days, &bad) == 0 && (*q == ' ' || *q == 'T')) p = skip_space(q + 1);
    if (scan_time(&p, usec, &bad) || *skip_space(p))
        return bad == 2 ? range(out, outn, s) : fail(out, outn, "time without time zone", s);
    return 0;
}

int suql_parse_timestamp(const char *s, long long *days, long long *usec, char *out, size_t outn)
{
    const char *p = skip_space(s);
    int bad;
    *usec = 0;
    if (scan_date(&p, days, &bad))
        return bad == 2 ? range(out, outn, s) : fail(out, outn, "timestamp", s);
    if (*p == 'T' || *p == ' ') {
        const char *t = skip_space(p + 1);
        if (*t) {
            if (scan_time(&t, usec, &bad))
                return bad == 2 ? range(out, outn, s) : fail(out, outn, "timestamp", s);
            p = t;
        }
    }
    if (*skip_space(p)) return fail(out, outn, "timestamp", s);
    if (*usec == USEC_DAY) {
        (*days)++;
        *usec = 0;
    }
    return 0;
}

int suql_parse_date(const char *s, long long *days, char *out, size_t outn)
{
    long long usec;
    if (suql_parse_timestamp(s, days, &usec, out, outn) == 0) return 0;
    if (strstr(out, "out of range")) return -1;
    return fail(out, outn, "date", s);
}

/* Units of interval input: months, days or microseconds per unit. */
static const struct {
    const char *name;
    int kind;                   /* 0 months, 1 days, 2 microseconds */
    double per;
} iv_units[] = {
    { "millennium", 0, 12000 }, { "millennia", 0, 12000 }, { "century", 0, 1200 },
    { "centuries", 0, 1200 }, { "decade", 0, 120 }, { "decades", 0, 120 },
    { "year", 0, 12 }, { "years", 0, 12 }, { "y", 0, 12 }, { "yr", 0, 12 }, { "yrs", 0, 12 },
    { "month", 0, 1 }, { "months", 0, 1 }, { "mon", 0, 1 }, { "mons", 0, 1 },
    { "week", 1, 7 }, { "weeks", 1, 7 }, { "w", 1, 7 },
    { "day", 1, 1 }, { "days", 1, 1 }, { "d", 1, 1 },
    { "hour", 2, 3600e6 }, { "hours", 2, 3600e6 }, { "h", 2, 3600e6 }, { "hr", 2, 3600e6 },
    { "hrs", 2, 3600e6 },
    { "minute", 2, 60e6 }, { "minutes", 2, 60e6 }, { "min", 2, 60e6 }, { "mins", 2, 60e6 },
    { "m", 2, 60e6 },
    { "second", 2, 1e6 }, { "seconds", 2, 1e6 }, { "sec", 2, 1e6 }, { "secs", 2, 1e6 },
    { "s", 2, 1e6 },
    { "millisecond", 2, 1e3 }, { "milliseconds", 2, 1e3 }, { "ms", 2, 1e3 },
    { "microsecond", 2, 1 }, { "microseconds", 2, 1 }, { "us", 2, 1 },
};

/* Add V units of kind K (with PER) to IV, spilling fractions downward as
 * PostgreSQL does: a fraction of a month into days of 30, of a day into
 * microseconds of 24 hours. */
/* 0, or -1 when a field would leave PostgreSQL's range ("interval out
 * of range"): months and days as 32-bit, microseconds as 64-bit. */
static int iv_add_units(suql_interval *iv, double v, int k, double per)
{
    double x = v * per;
    if (!isfinite(x) || fabs(x) > (k == 2 ? 9.2e18 : 2147483647.0)) return -1;
    if (k == 0) {
        double whole = trunc(x);
        iv->months += (long long)whole;
        x = (x - whole) * 30;
        k = 1;
        per = 1;
    }
    if (k == 1) {
        double whole = trunc(x);
        iv->days += (long long)whole;
        x = (x - whole) * (double)USEC_DAY;
    }
    if (__builtin_add_overflow(iv->usec, llround(x), &iv->usec)) return -1;
    return llabs(iv->months) > 2147483647LL || llabs(iv->days) > 2147483647LL ? -1 : 0;
}

int suql_parse_interval(const char *s, suql_interval *iv, char *out, size_t outn)
{
    const char *p = skip_space(s);
    int any = 0;
    memset(iv, 0, sizeof *iv);
    while (*p) {
        int neg = 0;
        const char *tok = p;
        if (*p == '+' || *p == '-') neg = *p++ == '-';
        if (!strncasecmp(p, "ago", 3) && !isalpha((unsigned char)p[3]) && any && tok == p) {
            iv->months = -iv->months;
            iv->days = -iv->days;
            iv->usec = -iv->usec;
            p = skip_space(p + 3);
            if (*p) return fail(out, outn, "interval", s);
            break;
        }
        if (!isdigit((unsigned char)*p) && *p != '.') return fail(out, outn, "interval", s);
        /* A clock: [-]H:MM[:SS[.f]] (hours may pass 24). */
        const char *c = p;
        while (isdigit((unsigned char)*c)) c++;
        if (*c == ':') {
            long long h, mi, sec = 0, frac = 0;
            digits(&p, &h);
            p++;
            if (digits(&p, &mi) != 2 || mi > 59) return fail(out, outn, "interval", s);
            if (*p == ':') {
                p++;
                if (digits(&p, &sec) != 2 || sec > 59) return fail(out, outn, "interval", s);
                if (*p == '.') {
                    p++;
                    frac = scan_frac(&p);
                }
            }
            if (h > 2562047787LL) {   /* the most hours 64-bit microseconds hold */
                snprintf(out, outn, "interval field value out of range: \"%.60s\"", s);
                return -1;
            }
            long long u = ((h * 60 + mi) * 60 + sec) * 1000000LL + frac;
            iv->usec += neg ? -u : u;
            any = 1;
            p = skip_space(p);
            continue;
        }
        char *end;
        double v = strtod(p, &end);
        if (end == p) return fail(out, outn, "interval", s);
        p = skip_space(end);
        const char *u = p;
        while (isalpha((unsigned char)*p)) p++;
        size_t un = (size_t)(p - u);
        int k = -1;
        double per = 1;
        if (un == 0) {
            k = 2;   /* a bare number is seconds */
            per = 1e6;
        }
        for (size_t i = 0; un && i < sizeof iv_units / sizeof *iv_units; i++)
            if (strlen(iv_units[i].name) == un && !strncasecmp(u, iv_units[i].name, un)) {
                k = iv_units[i].kind;
                per = iv_units[i].per;
            }
        if (k < 0) return fail(out, outn, "interval", s);
        if (iv_add_units(iv, neg ? -v : v, k, per)) {
            snprintf(out, outn, "interval field value out of range: \"%.60s\"", s);
            return -1;
        }
        any = 1;
        p = skip_space(p);
    }
    if (!any) return fail(out, outn, "interval", s);
    return 0;
}

/* ---- arithmetic ---------------------------------------------------------- */

int suql_ts_add(long long *days, long long *usec, const suql_interval *iv, int sign)
{
    if (llabs(iv->months) > 12LL * SUQL_YEAR_MAX || llabs(iv->days) > 366LL * SUQL_YEAR_MAX) return -1;
    if (iv->months) {
        long long y;
        int m, d;
        suql_civil_from_days(*days, &y, &m, &d);
        long long mm = y * 12 + (m - 1) + sign * iv->months;
        y = mm >= 0 ? mm / 12 : -((-mm + 11) / 12);
        m = (int)(mm - y * 12) + 1;
        if (d > suql_month_days(y, m)) d = suql_month_days(y, m);
        *days = suql_days_from_civil(y, m, d);
    }
    *days += sign * iv->days;
    long long u = *usec + sign * iv->usec;
    long long q = u >= 0 ? u / USEC_DAY : -((-u + USEC_DAY - 1) / USEC_DAY);
    *days += q;
    *usec = u - q * USEC_DAY;
    return *days < suql_days_from_civil(1, 1, 1) || *days > suql_days_from_civil(SUQL_YEAR_MAX, 12, 31) ? -1 : 0;
}

double suql_iv_seconds(const suql_interval *iv)
{
    return (double)iv->months * 30 * 86400 + (double)iv->days * 86400 + (double)iv->usec / 1e6;
}

/* timestamp - timestamp as PostgreSQL's timestamp_mi gives it (with
 * interval_justify_hours): days and a clock part below 24 hours. */
void suql_ts_diff(long long d1, long long u1, long long d2, long long u2, suql_interval *iv)
{
    /* Days and a clock part of one sign, without forming the total in
     * microseconds (it can pass 2^63 across the whole calendar). */
    long long days = d1 - d2, us = u1 - u2;
    if (days > 0 && us < 0) {
        days--;
        us += USEC_DAY;
    } else if (days < 0 && us > 0) {
        days++;
        us -= USEC_DAY;
    }
    iv->months = 0;
    iv->days = days;
    iv->usec = us;
}
