/*
 * coerce.c — converting loosely written values to a field's type.
 *
 * The spellings accepted are the ones people and LLMs actually produce
 * ("7pm", "19:30", "next Friday", "March 14", "five", "credit/no credit"),
 * each mapped to one canonical form so that the state, the prompts and the
 * database see a single spelling.  What cannot be read is refused with the
 * value and the expectation in the reason; nothing is guessed (an hour
 * without am/pm stays as written, a date without a year takes the next
 * such date from today).  Rejected: a general date library — the forms
 * needed are few and this keeps the behaviour testable and explicit.
 */
#include "worksheet/coerce.h"
#include "util/xmem.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const months[] = { "january", "february", "march", "april", "may", "june",
                                      "july", "august", "september", "october", "november",
                                      "december" };
static const char *const wdays[] = { "monday", "tuesday", "wednesday", "thursday", "friday",
                                     "saturday", "sunday" };
static const char *const small_nums[] = { "zero", "one", "two", "three", "four", "five", "six",
                                          "seven", "eight", "nine", "ten", "eleven", "twelve",
                                          "thirteen", "fourteen", "fifteen", "sixteen",
                                          "seventeen", "eighteen", "nineteen", "twenty" };

ws_date ws_today(void)
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    return (ws_date){ tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday };
}

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int mdays(int y, int m)
{
    static const int d[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return m == 2 && leap(y) ? 29 : d[m - 1];
}

static int valid(ws_date d)
{
    return d.y >= 1900 && d.y <= 9999 && d.m >= 1 && d.m <= 12 && d.d >= 1 && d.d <= mdays(d.y, d.m);
}

/* Days since 1970-01-01 (civil calendar), and back. */
static long to_days(ws_date d)
{
    int y = d.y - (d.m <= 2);
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (d.m + (d.m > 2 ? -3 : 9)) + 2) / 5 + d.d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static ws_date from_days(long z)
{
    z += 719468;
    long era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    ws_date r;
    r.d = (int)(doy - (153 * mp + 2) / 5 + 1);
    r.m = (int)(mp < 10 ? mp + 3 : mp - 9);
    r.y = (int)(yoe + era * 400 + (r.m <= 2));
    return r;
}

int ws_date_weekday(ws_date d) { return (int)(((to_days(d) % 7) + 10) % 7); }

int ws_date_parse_iso(const char *s, ws_date *out)
{
    ws_date d;
    char extra;
    if (sscanf(s, "%4d-%2d-%2d%c", &d.y, &d.m, &d.d, &extra) != 3 || !valid(d)) return -1;
    *out = d;
    return 0;
}

void ws_date_format_long(ws_date d, char *out, size_t n)
{
    const char *w = wdays[ws_date_weekday(d)];
    snprintf(out, n, "%c%s, %04d-%02d-%02d", toupper((unsigned char)w[0]), w + 1, d.y, d.m, d.d);
}

/* Lower-cased copy of S with ',' and '.' after letters turned to spaces
 * ("Mar. 14", "7 p.m.") and "st/nd/rd/th" after digits dropped, for the
 * word forms. */
static char *normalize(const char *s)
{
    size_t n = strlen(s);
    char *o = xmalloc(n + 1), *p = o;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ',' || (c == '.' && i > 0 && isalpha((unsigned char)s[i - 1]))) c = ' ';
        if (isdigit((unsigned char)s[i]) && i + 2 < n + 1 &&
            (!strncasecmp(s + i + 1, "st", 2) || !strncasecmp(s + i + 1, "nd", 2) ||
             !strncasecmp(s + i + 1, "rd", 2) || !strncasecmp(s + i + 1, "th", 2)) &&
            !isalpha((unsigned char)s[i + 3])) {
            *p++ = (char)c;
            i += 2;
            continue;
        }
        *p++ = (char)tolower(c);
    }
    *p = 0;
    return o;
}

static int month_of(const char *w)
{
    size_t n = strlen(w);
    if (n < 3) return 0;
    for (int i = 0; i < 12; i++)
        if (!strncmp(months[i], w, n) || (n == 4 && !strcmp(w, "sept") && i == 8)) return i + 1;
    return 0;
}

static int wday_of(const char *w)
{
    size_t n = strlen(w);
    if (n < 3) return -1;
    for (int i = 0; i < 7; i++)
        if (!strncmp(wdays[i], w, n) || (n > 3 && !strncmp(wdays[i], w, 3) &&
                                         (!strcmp(w + 3, "s") || !strcmp(w + 3, ".")))) return i;
    return -1;
}

/* The next date on or after TODAY with month M and day D (year unknown). */
static ws_date next_md(ws_date today, int m, int d)
{
    ws_date r = { today.y, m, d };
    if (to_days(r) < to_days(today) || !valid(r)) r.y++;
    return r;
}

static int parse_words_date(const char *norm, ws_date today, ws_date *out)
{
    char w[6][32];
    int nw = sscanf(norm, "%31s %31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3], w[4], w[5]);
    int i = 0, next = 0;
    if (nw <= 0) return -1;
    if (!strcmp(w[0], "on") || !strcmp(w[0], "this")) i++;
    else if (!strcmp(w[0], "next")) { i++; next = 1; }
    if (i >= nw) return -1;
    if (nw - i == 1 && (!strcmp(w[i], "today") || !strcmp(w[i], "tonight"))) { *out = today; return 0; }
    if (nw - i == 1 && !strcmp(w[i], "tomorrow")) { *out = from_days(to_days(today) + 1); return 0; }
    if (nw - i == 3 && !strcmp(w[i], "day") && !strcmp(w[i + 1], "after") &&
        !strcmp(w[i + 2], "tomorrow")) {
        *out = from_days(to_days(today) + 2);
        return 0;
    }
    int wd = wday_of(w[i]);
    if (wd >= 0 && nw - i == 1) {
        int delta = (wd - ws_date_weekday(today) + 7) % 7;
        if (next && delta == 0) delta = 7;
        *out = from_days(to_days(today) + delta);
        return 0;
    }
    if (wd >= 0) i++;            /* "Friday, March 20" */
    if (i >= nw || next) return -1;
    int m = month_of(w[i]), d = 0, y = 0;
    char *end;
    if (m && i + 1 < nw) {                       /* March 14 [2026] */
        d = (int)strtol(w[i + 1], &end, 10);
        if (*end) return -1;
        if (i + 2 < nw) { y = (int)strtol(w[i + 2], &end, 10); if (*end || i + 3 < nw) return -1; }
    } else if (i + 1 < nw && (m = month_of(w[i + 1])) != 0) { /* 14 March [2026] */
        d = (int)strtol(w[i], &end, 10);
        if (*end) return -1;
        if (i + 2 < nw) { y = (int)strtol(w[i + 2], &end, 10); if (*end || i + 3 < nw) return -1; }
    } else {
        return -1;
    }
    ws_date r = y ? (ws_date){ y, m, d } : next_md(today, m, d);
    if (!valid(r)) return -1;
    *out = r;
    return 0;
}

static int parse_date(const char *s, ws_date today, ws_date *out)
{
    int a, b, c, n = 0;
    ws_date r;
    while (isspace((unsigned char)*s)) s++;
    if (sscanf(s, "%d-%d-%d%n", &a, &b, &c, &n) == 3 && !s[n] && a > 999) r = (ws_date){ a, b, c };
    else if (sscanf(s, "%d/%d/%d%n", &a, &b, &c, &n) == 3 && !s[n])
        r = a > 999 ? (ws_date){ a, b, c } : (ws_date){ c < 100 ? 2000 + c : c, a, b };
    else if (sscanf(s, "%d/%d%n", &a, &b, &n) == 2 && !s[n]) r = next_md(today, a, b);
    else {
        char *norm = normalize(s);
        int rc = parse_words_date(norm, today, &r);
        free(norm);
        if (rc) return -1;
    }
    if (!valid(r)) return -1;
    *out = r;
    return 0;
}

static int parse_time(const char *s, int *hh, int *mm)
{
    char *norm = normalize(s), *p = norm;
    int h = -1, m = 0, rc = -1;
    while (isspace((unsigned char)*p)) p++;
    if (!strncmp(p, "noon", 4) || !strncmp(p, "midday", 6)) { h = 12; p += *p == 'n' ? 4 : 6; }
    else if (!strncmp(p, "midnight", 8)) { h = 0; p += 8; }
    else if (isdigit((unsigned char)*p)) {
        h = (int)strtol(p, &p, 10);
        if (*p == ':' || *p == '.' || *p == 'h') {
            char *q = p + 1;
            if (isdigit((unsigned char)*q)) { m = (int)strtol(q, &p, 10); }
            else if (*p == 'h') p = q;
            else goto out;
        } else if (h >= 100 && h <= 2359) { m = h % 100; h /= 100; }
        while (isspace((unsigned char)*p)) p++;
        /* normalize() made "a.m." "a m " */
        if (!strncmp(p, "am", 2) || !strncmp(p, "a m", 3)) {
            if (h < 1 || h > 12) goto out;
            if (h == 12) h = 0;
            p += p[1] == 'm' ? 2 : 3;
        } else if (!strncmp(p, "pm", 2) || !strncmp(p, "p m", 3)) {
            if (h < 1 || h > 12) goto out;
            if (h != 12) h += 12;
            p += p[1] == 'm' ? 2 : 3;
        } else if (!strncmp(p, "o'clock", 7) || !strncmp(p, "oclock", 6)) {
            p += p[1] == '\'' ? 7 : 6;
        } else if (*p == ':') {               /* seconds: 19:30:00 */
            strtol(p + 1, &p, 10);
        }
    } else {
        goto out;
    }
    while (isspace((unsigned char)*p) || *p == '.') p++;
    if (!*p && h >= 0 && h <= 23 && m >= 0 && m <= 59) { *hh = h; *mm = m; rc = 0; }
out:
    free(norm);
    return rc;
}

/* "a"/"an" is one ("a single person", "an adult") unless the word after
 * it is a quantity: "a couple" is two, "a dozen" twelve, "a few" or "a
 * lot" no number at all. */
static int word_number(const char *s, long long *out)
{
    static const char *const vague[] = { "few", "lot", "lots", "bunch", "crowd", "handful", "number",
                                         "group", "ton", "bit", "little", "several", "many" };
    char w[32], w2[32];
    int nw = sscanf(s, " %31s %31s", w, w2);
    if (nw < 1) return -1;
    for (char *p = w; *p; p++) *p = (char)tolower((unsigned char)*p);
    if (nw == 2 && (!strcmp(w, "a") || !strcmp(w, "an"))) {
        for (char *p = w2; *p; p++) *p = (char)tolower((unsigned char)*p);
        for (size_t i = 0; i < sizeof vague / sizeof *vague; i++)
            if (!strcmp(w2, vague[i])) return -1;
        if (!strcmp(w2, "dozen")) { *out = 12; return 0; }
        if (strcmp(w2, "couple") && strcmp(w2, "pair")) { *out = 1; return 0; }
        strcpy(w, w2);
    }
    for (int i = 0; i <= 20; i++)
        if (!strcmp(w, small_nums[i])) { *out = i; return 0; }
    if (!strcmp(w, "single")) { *out = 1; return 0; }
    if (!strcmp(w, "couple") || !strcmp(w, "pair")) { *out = 2; return 0; }
    return -1;
}

/* A number at the start of S ("4", "4.5 units", "four people"). */
static int parse_number(const char *s, double *out)
{
    char *end;
    long long w;
    while (isspace((unsigned char)*s)) s++;
    if (*s == '$') s++;
    double d = strtod(s, &end);
    if (end != s && (!*end || isspace((unsigned char)*end))) { *out = d; return 0; }
    if (!word_number(s, &w)) { *out = (double)w; return 0; }
    return -1;
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = { "true", "yes", "y", "yeah", "yep", "sure", "ok", "okay", "1",
                                       "correct", "confirm", "confirmed" };
    static const char *const no[] = { "false", "no", "n", "nope", "0", "cancel" };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(s, yes[i])) { *out = 1; return 0; }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (!strcasecmp(s, no[i])) { *out = 0; return 0; }
    return -1;
}

/* Letters and digits only, lower-cased: "Credit / no-credit" -> "creditnocredit". */
static void squash(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (isalnum((unsigned char)*s)) out[k++] = (char)tolower((unsigned char)*s);
    out[k] = 0;
}

/* Is W (lower case) a word of S, in any case? */
static int has_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = s; (p = strcasestr(p, w)) != NULL; p++)
        if ((p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n])) return 1;
    return 0;
}

/* Are all the words of A (letters and digits, any case) words of B, B
 * having at most two more? */
static int words_within(const char *a, const char *b)
{
    char wa[16][32], wb[16][32];
    int na = 0, nb = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *p = pass ? b : a;
        char (*w)[32] = pass ? wb : wa;
        int *n = pass ? &nb : &na;
        while (*p) {
            while (*p && !isalnum((unsigned char)*p)) p++;
            size_t k = 0;
            while (isalnum((unsigned char)*p)) {
                if (k < 31 && *n < 16) w[*n][k++] = (char)tolower((unsigned char)*p);
                p++;
            }
            if (k && *n < 16) w[(*n)++][k] = 0;
        }
    }
    if (!na || nb > 15) return 0;
    int distinct = 0;
    for (int i = 0; i < na; i++) {
        int found = 0, seen = 0;
        for (int j = 0; j < nb && !found; j++) found = !strcmp(wa[i], wb[j]);
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(wa[i], wa[j]);
        if (!found) return 0;
        distinct += !seen;
    }
    return nb - distinct <= 2;
}

static int coerce_enum(const ws_field *f, const char *s, ws_val **out, char *why, size_t nwhy)
{
    char a[256], b[256];
    for (int i = 0; i < f->nenums; i++)
        if (!strcasecmp(f->enums[i], s)) { *out = ws_str(f->enums[i]); return 0; }
    squash(s, a, sizeof a);
    for (int i = 0; i < f->nenums && a[0]; i++) {
        squash(f->enums[i], b, sizeof b);
        if (!strcmp(a, b)) { *out = ws_str(f->enums[i]); return 0; }
    }
    /* A near miss that names one value only: "letter grade" is Letter;
     * never under a negation the value lacks ("not expensive", "no
     * letter"; the "no" of Credit/No Credit is its own). */
    int hit = -1, hits = 0;
    for (int i = 0; i < f->nenums; i++)
        if (words_within(f->enums[i], s)) hit = i, hits++;
    static const char *const negations[] = { "not", "no", "without", "except", "but", "never", NULL };
    for (const char *const *w = negations; hits == 1 && *w; w++)
        if (has_word(s, *w) && !has_word(f->enums[hit], *w)) hits = 0;
    if (hits == 1 && hit >= 0) { *out = ws_str(f->enums[hit]); return 0; }
    size_t k = (size_t)snprintf(why, nwhy, "\"%s\" is not one of: ", s);
    for (int i = 0; i < f->nenums && k < nwhy; i++)
        k += (size_t)snprintf(why + k, nwhy - k, "%s%s", i ? ", " : "", f->enums[i]);
    return -1;
}

static char *to_text(const ws_val *v)
{
    gn_buf b;
    if (v->kind == WV_STR) return xstrdup(v->u.s);
    gn_buf_init(&b);
    ws_val_print(v, &b, NULL, NULL);
    return gn_buf_detach(&b);
}

static int scalar(const ws_spec *spec, const ws_field *f, const ws_type *t, const ws_val *in,
                  ws_date today, ws_val **out, char *why, size_t nwhy)
{
    double d;
    int b, h, m;
    ws_date dt;
    const char *s = in->kind == WV_STR ? in->u.s : NULL;
    switch (t->kind) {
    case WT_STR: case WT_TEXT: case WT_KB:
        if (in->kind == WV_LIST || in->kind == WV_DICT || in->kind == WV_REC) break;
        *out = ws_str_own(to_text(in));
        return 0;
    case WT_INT: case WT_FLOAT:
        if (in->kind == WV_INT || in->kind == WV_FLOAT) d = in->kind == WV_INT ? (double)in->u.i : in->u.f;
        else if (!s || parse_number(s, &d)) break;
        if (t->kind == WT_FLOAT) { *out = ws_float(d); return 0; }
        if (d != floor(d) || fabs(d) > 9e15) {
            snprintf(why, nwhy, "%g is not a whole number", d);
            return -1;
        }
        *out = ws_int((long long)d);
        return 0;
    case WT_BOOL: case WT_CONFIRM:
        if (in->kind == WV_BOOL) { *out = ws_bool(in->u.b); return 0; }
        if (in->kind == WV_INT && (in->u.i == 0 || in->u.i == 1)) { *out = ws_bool((int)in->u.i); return 0; }
        if (!s || parse_bool(s, &b)) break;
        *out = ws_bool(b);
        return 0;
    case WT_DATE:
        if (!s || parse_date(s, today, &dt)) break;
        *out = ws_str_own(xasprintf("%04d-%02d-%02d", dt.y, dt.m, dt.d));
        return 0;
    case WT_TIME:
        if (in->kind == WV_INT && in->u.i >= 0 && in->u.i <= 23) { h = (int)in->u.i; m = 0; }
        else if (!s || parse_time(s, &h, &m)) break;
        *out = ws_str_own(xasprintf("%02d:%02d", h, m));
        return 0;
    case WT_ENUM: {
        char *txt = in->kind == WV_STR || in->kind == WV_INT ? to_text(in) : NULL;
        if (!txt) break;
        int rc = coerce_enum(f, txt, out, why, nwhy);
        free(txt);
        return rc;
    }
    case WT_SHEET:
        if (in->kind == WV_REC) { *out = ws_val_copy(in); return 0; }
        snprintf(why, nwhy, "expected a %s record", spec->sheets[t->sheet].name);
        return -1;
    case WT_LIST:
        break;
    }
    static const char *const what[] = { "text", "a whole number", "a number", "yes or no",
                                        "a date", "a time", "yes or no", "one of the options",
                                        "text" };
    char *txt = to_text(in);
    snprintf(why, nwhy, "\"%.80s\" is not %s", txt, t->kind <= WT_TEXT ? what[t->kind] : "valid");
    free(txt);
    return -1;
}

int ws_coerce(const ws_spec *spec, const ws_field *f, const ws_type *t, const ws_val *in,
              ws_date today, ws_val **out, char *why, size_t nwhy)
{
    if (!in || in->kind == WV_NONE) { *out = ws_none(); return 0; }
    if (t->kind != WT_LIST) return scalar(spec, f, t, in, today, out, why, nwhy);
    ws_val *l = ws_list();
    if (in->kind != WV_LIST) {
        ws_val *one;
        if (scalar(spec, f, t->elem, in, today, &one, why, nwhy)) { ws_val_free(l); return -1; }
        ws_list_add(l, one);
    } else {
        for (int i = 0; i < in->u.c.n; i++) {
            ws_val *it;
            if (ws_coerce(spec, f, t->elem, in->u.c.items[i], today, &it, why, nwhy)) {
                ws_val_free(l);
                return -1;
            }
            ws_list_add(l, it);
        }
    }
    *out = l;
    return 0;
}
