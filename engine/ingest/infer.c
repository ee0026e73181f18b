/*
 * infer.c — each column's type, from one pass over its values.
 *
 * Every value is classified as it streams by: integer (no leading zeros,
 * so "02139" stays a code), real, boolean, date, time, a JSON array, text
 * with ';' or '|' parts; its length and words are summed; and the first
 * IG_DISTINCT_CAP distinct values (and list parts) are counted in a capped
 * hash set, so memory is bounded whatever the row count.  Then, in order:
 *
 *   boolean  every value yes/no, true/false, y/n, t/f or 0/1
 *   integer  whole numbers          real   numbers, some with a fraction
 *   date     YYYY-MM-DD             time   HH:MM[:SS], 9:30, 7pm
 *   list     JSON arrays; or ';'/'|' parts that repeat across rows
 *   enum     at most IG_ENUM_MAX short values, each seen twice on average
 *   free text  long and wordy (7+ words on average)
 *   text     anything else
 *
 * A type holds when all values fit, or, from 50 values on, all but 1 in
 * 50: the few that do not are stored as text and reported (import.c), so
 * one "N/A" or "call us" does not turn a price column into text.  Each
 * column gets a sentence saying why, for the table `genie --init` prints.
 */
#include "ingest/ingest_int.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- a capped set of distinct strings with counts ------------------------ */

typedef struct vset {
    char **keys;          /* in first-seen order */
    long *counts;
    int *slots;           /* hash slots: index + 1, 0 empty */
    int n, nslots;
    int full;             /* more distinct values than the cap were seen */
} vset;

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void vset_add(vset *v, const char *s, size_t n)
{
    /* Past the cap the counts serve nothing (no enum has that many
     * values): a column of unique values costs no hashing after it. */
    if (v->full) return;
    if (!v->slots) {
        v->nslots = 64;
        v->slots = xcalloc((size_t)v->nslots, sizeof *v->slots);
    }
    uint32_t h = hash(s, n);
    int i = (int)(h & (uint32_t)(v->nslots - 1));
    while (v->slots[i]) {
        int k = v->slots[i] - 1;
        if (!strncmp(v->keys[k], s, n) && v->keys[k][n] == '\0') {
            v->counts[k]++;
            return;
        }
        i = (i + 1) & (v->nslots - 1);
    }
    if (v->n >= IG_DISTINCT_CAP || n > 200) {
        v->full = 1;
        return;
    }
    if ((v->n + 1) * 2 > v->nslots) {
        int ns = v->nslots * 2;
        int *sl = xcalloc((size_t)ns, sizeof *sl);
        for (int k = 0; k < v->n; k++) {
            int j = (int)(hash(v->keys[k], strlen(v->keys[k])) & (uint32_t)(ns - 1));
            while (sl[j]) j = (j + 1) & (ns - 1);
            sl[j] = k + 1;
        }
        free(v->slots);
        v->slots = sl;
        v->nslots = ns;
        i = (int)(h & (uint32_t)(ns - 1));
        while (v->slots[i]) i = (i + 1) & (ns - 1);
    }
    if ((v->n & (v->n - 1)) == 0) {
        int cap = v->n ? v->n * 2 : 1;
        v->keys = xrealloc(v->keys, (size_t)cap * sizeof *v->keys);
        v->counts = xrealloc(v->counts, (size_t)cap * sizeof *v->counts);
    }
    v->keys[v->n] = xstrndup(s, n);
    v->counts[v->n] = 1;
    v->slots[i] = ++v->n;
}

static void vset_free(vset *v)
{
    for (int i = 0; i < v->n; i++) free(v->keys[i]);
    free(v->keys);
    free(v->counts);
    free(v->slots);
}

/* ---- per-column counts ---------------------------------------------------- */

typedef struct part_stats {
    vset set;
    long n;               /* parts seen */
    long cells;           /* cells with more than one part */
    double len, words;
} part_stats;

struct ig_stats {
    long n_int, n_real, n_bool, n_bool01, n_date, n_time, n_arr, n_alpha;
    double len, words;
    long maxlen;
    vset vals;
    part_stats parts[2];  /* ';' and '|' */
    part_stats elems;     /* JSON array elements */
};

void ig_stats_free(ig_stats *st)
{
    if (!st) return;
    vset_free(&st->vals);
    vset_free(&st->parts[0].set);
    vset_free(&st->parts[1].set);
    vset_free(&st->elems.set);
    free(st);
}

static long words_of(const char *s, size_t n)
{
    long w = 0;
    int in = 0;
    for (size_t i = 0; i < n; i++) {
        int sp = s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r';
        if (!sp && !in) w++;
        in = !sp;
    }
    return w;
}

static void part_add(part_stats *p, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (!n) return;
    p->n++;
    p->len += (double)n;
    p->words += (double)words_of(s, n);
    vset_add(&p->set, s, n);
}

/* ---- classifiers ---------------------------------------------------------- */

void ig_number_text(double d, char *out, size_t n)
{
    if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(long long)d) {
        snprintf(out, n, "%lld", (long long)d);
        return;
    }
    for (int p = 15; p <= 17; p++) {
        snprintf(out, n, "%.*g", p, d);
        if (strtod(out, NULL) == d) return;
    }
}

int ig_stats_full(const ig_stats *st) { return st->vals.full; }
long ig_stats_distinct(const ig_stats *st) { return st->vals.n; }

int ig_is_null(const char *s)
{
    switch (s[0]) {
    case '\0': return 1;
    case 'N': return !strcmp(s, "NULL") || !strcmp(s, "NA") || !strcmp(s, "N/A");
    case 'n': return !strcmp(s, "null") || !strcmp(s, "n/a");
    default: return 0;
    }
}

int ig_is_int(const char *s, long long *v)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (!isdigit((unsigned char)*p) || (p[0] == '0' && p[1])) return 0;
    int n = 0;
    while (isdigit((unsigned char)p[n])) n++;
    if (p[n] || n > 19) return 0;
    if (!v && n < 19) return 1;                 /* fits in 64 bits */
    errno = 0;
    long long x = strtoll(s, NULL, 10);
    if (errno == ERANGE) return 0;              /* beyond 64 bits: a code, text */
    if (v) *v = x;
    return 1;
}

int ig_is_real(const char *s, double *v)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (p[0] == '0' && isdigit((unsigned char)p[1])) return 0;     /* a code: 02139 */
    int digits = 0;
    while (isdigit((unsigned char)*p)) p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) p++, digits++;
    }
    if (!digits) return 0;
    int ex = 0;
    if (*p == 'e' || *p == 'E') {
        ex = 1;
        p++;
        p += *p == '-' || *p == '+';
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)*p)) p++;
    }
    if (*p) return 0;
    if (!v && !ex && digits < 300) return 1;   /* finite without an exponent */
    double d = strtod(s, NULL);
    if (!isfinite(d)) return 0;
    if (v) *v = d;
    return 1;
}

int ig_is_bool(const char *s, int *v)
{
    static const char *const yes[] = { "yes", "true", "y", "t", "1", NULL };
    static const char *const no[] = { "no", "false", "n", "f", "0", NULL };
    if (!strchr("yYtTnNfF01", s[0]) || !s[0] || strlen(s) > 5) return 0;
    for (int i = 0; yes[i]; i++) {
        if (!strcasecmp(s, yes[i])) { if (v) *v = 1; return 1; }
        if (!strcasecmp(s, no[i])) { if (v) *v = 0; return 1; }
    }
    return 0;
}

static int two(const char *s) { return isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]); }

/* The month a word names (English, full or its first three letters), or 0. */
static int month_named(const char *w, size_t n)
{
    static const char *const names[] = { "january", "february", "march", "april", "may", "june",
                                         "july", "august", "september", "october", "november",
                                         "december" };
    if (n < 3) return 0;
    if (n == 4 && !strncasecmp(w, "sept", 4)) return 9;
    for (int i = 0; i < 12; i++)
        if ((n == 3 || n == strlen(names[i])) && !strncasecmp(w, names[i], n)) return i + 1;
    return 0;
}

/* A number of 1 to MAXD digits at *P (moved past it), or -1. */
static int digits(const char **p, int maxd)
{
    int v = 0, k = 0;
    while (isdigit((unsigned char)**p) && k < maxd) v = v * 10 + (*(*p)++ - '0'), k++;
    return k && !isdigit((unsigned char)**p) ? v : -1;
}

/* "Jun 12 1998", "June 12, 1998", "12 Jun 1998", "12 June, 1998": a named
 * month leaves no doubt about which number is the day. */
static int named_date(const char *s, int *y, int *m, int *d)
{
    const char *p = s;
    if (isalpha((unsigned char)*p)) {
        const char *w = p;
        while (isalpha((unsigned char)*p)) p++;
        if (!(*m = month_named(w, (size_t)(p - w)))) return 0;
        if (*p == '.') p++;
        if (*p++ != ' ') return 0;
        if ((*d = digits(&p, 2)) < 0) return 0;
        if (*p == ',') p++;
        if (*p++ != ' ') return 0;
    } else {
        if ((*d = digits(&p, 2)) < 0 || *p++ != ' ') return 0;
        const char *w = p;
        while (isalpha((unsigned char)*p)) p++;
        if (!(*m = month_named(w, (size_t)(p - w)))) return 0;
        if (*p == '.') p++;
        if (*p == ',') p++;
        if (*p++ != ' ') return 0;
    }
    const char *yp = p;
    if ((*y = digits(&p, 4)) < 0 || p - yp != 4 || *p) return 0;
    return 1;
}

int ig_is_date(const char *s, char out[11])
{
    int y, m, d;
    if (strlen(s) == 10 && two(s) && two(s + 2) && two(s + 5) && two(s + 8) &&
        ((s[4] == '-' && s[7] == '-') || (s[4] == '/' && s[7] == '/'))) {
        y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
        m = (s[5] - '0') * 10 + (s[6] - '0');
        d = (s[8] - '0') * 10 + (s[9] - '0');
    } else if (!named_date(s, &y, &m, &d)) {
        return 0;
    }
    static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return 0;
    if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) return 0;
    if (out) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%04d-%02d-%02d", y % 10000, m, d);
        memcpy(out, tmp, 11);
    }
    return 1;
}

int ig_is_time(const char *s, char out[9])
{
    int h = 0, m = 0, sec = 0, nd = 0;
    const char *p = s;
    while (isdigit((unsigned char)*p) && nd < 3) h = h * 10 + (*p++ - '0'), nd++;
    if (nd < 1 || nd > 2) return 0;
    int colon = 0;
    if (*p == ':') {
        colon = 1;
        if (!two(p + 1)) return 0;
        m = (p[1] - '0') * 10 + p[2] - '0';
        p += 3;
        if (*p == ':') {
            if (!two(p + 1)) return 0;
            sec = (p[1] - '0') * 10 + p[2] - '0';
            p += 3;
        }
    }
    while (*p == ' ') p++;
    if (*p) {
        int pm = !strcasecmp(p, "pm") || !strcasecmp(p, "p.m."),
            am = !strcasecmp(p, "am") || !strcasecmp(p, "a.m.");
        if (!pm && !am) return 0;
        if (h < 1 || h > 12) return 0;
        h = h % 12 + (pm ? 12 : 0);
    } else if (!colon) {
        return 0;
    }
    if (h > 23 || m > 59 || sec > 59) return 0;
    if (out) {
        if (sec) snprintf(out, 9, "%02u:%02u:%02u", (unsigned)h % 24, (unsigned)m % 60, (unsigned)sec % 60);
        else snprintf(out, 9, "%02u:%02u", (unsigned)h % 24, (unsigned)m % 60);
    }
    return 1;
}

/* ---- pass 1 --------------------------------------------------------------- */

static void json_elems(ig_stats *st, const char *s, size_t n)
{
    if (n < 2 || s[n - 1] != ']') return;
    cJSON *a = cJSON_ParseWithLength(s, n);
    if (!cJSON_IsArray(a)) {
        cJSON_Delete(a);
        return;
    }
    for (cJSON *x = a->child; x; x = x->next)
        if (!cJSON_IsString(x) && !cJSON_IsNumber(x)) {
            cJSON_Delete(a);
            return;
        }
    st->n_arr++;
    for (cJSON *x = a->child; x; x = x->next) {
        char num[40];
        const char *v = x->valuestring;
        if (cJSON_IsNumber(x)) {
            ig_number_text(x->valuedouble, num, sizeof num);
            v = num;
        }
        part_add(&st->elems, v, strlen(v));
    }
    cJSON_Delete(a);
}

static void split_parts(part_stats *p, const char *s, size_t n, char sep)
{
    if (n > 1000) return;
    p->cells++;
    const char *q = s, *end = s + n;
    while (q <= end) {
        const char *z = memchr(q, sep, (size_t)(end - q));
        if (!z) z = end;
        part_add(p, q, (size_t)(z - q));
        q = z + 1;
    }
}

static void observe(ig_column *c, const char *s)
{
    ig_stats *st = c->st;
    size_t n = strlen(s);
    c->nonnull++;
    st->len += (double)n;
    if ((long)n > st->maxlen) st->maxlen = (long)n;
    long w = words_of(s, n);
    st->words += (double)w;
    vset_add(&st->vals, s, n);
    if (c->nexamples < 3) {
        int seen = 0;
        for (int i = 0; i < c->nexamples && !seen; i++) seen = !strcmp(c->examples[i], s);
        if (!seen) c->examples[c->nexamples++] = xstrdup(s);
    }
    int alpha = 0;
    for (size_t i = 0; i < n && !alpha; i++) alpha = isalpha((unsigned char)s[i]);
    st->n_alpha += alpha;
    int b;
    if (ig_is_bool(s, &b)) {
        st->n_bool++;
        if (s[0] == '0' || s[0] == '1') st->n_bool01++;
    }
    if (ig_is_int(s, NULL)) st->n_int++;
    else if (ig_is_real(s, NULL)) st->n_real++;
    else if (n >= 10 && n <= 19 && ig_is_date(s, NULL)) st->n_date++;
    else if (n <= 11 && ig_is_time(s, NULL)) st->n_time++;
    else if (s[0] == '[') json_elems(st, s, n);
    if (n > 1 && s[0] != '[') {
        /* a single value is a one-part list too, when the column is one */
        static const char seps[2] = { ';', '|' };
        for (int k = 0; k < 2; k++) {
            if (memchr(s, seps[k], n)) split_parts(&st->parts[k], s, n, seps[k]);
            else if (st->parts[k].cells) part_add(&st->parts[k], s, n);
        }
    }
}

static int row_observe(void *ud, ig_table *t, char **cells, long line, gn_err *e)
{
    (void)ud; (void)line; (void)e;
    t->rows++;
    for (int i = 0; i < t->ncols; i++) {
        ig_column *c = &t->cols[i];
        if (!c->st) c->st = xcalloc(1, sizeof *c->st);
        if (cells[i]) observe(c, cells[i]);
    }
    return 0;
}

/* ---- decisions ------------------------------------------------------------ */

static int holds(long n, long nonnull)
{
    long allow = nonnull >= 50 ? nonnull / 50 : 0;
    return n > 0 && n >= nonnull - allow;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scales whose words have an order of meaning, lowest first: an enum's
 * values compare in their listed order (as PostgreSQL's do), so "Medium"
 * must sit between "Small" and "Large", not after "Large". */
static const char *const scales[][13] = {
    { "xxs", "xs", "s", "m", "l", "xl", "xxl", NULL },
    { "extra small", "small", "medium", "large", "extra large", NULL },
    { "tiny", "small", "medium", "large", "huge", NULL },
    { "very low", "low", "medium", "high", "very high", NULL },
    { "low", "moderate", "high", "very high", NULL },
    { "none", "mild", "moderate", "severe", NULL },
    { "very poor", "poor", "fair", "good", "very good", "excellent", NULL },
    { "never", "rarely", "sometimes", "often", "always", NULL },
    { "beginner", "intermediate", "advanced", "expert", NULL },
    { "easy", "medium", "hard", NULL },
    { "mon", "tue", "wed", "thu", "fri", "sat", "sun", NULL },
    { "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", NULL },
    { "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec" },
    { "cheap", "moderate", "expensive", "luxury", NULL },
};

/* V's rank in SCALE (case ignored), or -1. */
static int scale_rank(const char *const *scale, int n, const char *v)
{
    for (int i = 0; i < n && scale[i]; i++)
        if (!strcasecmp(scale[i], v)) return i;
    return -1;
}


static int by_number(const void *a, const void *b)
{
    double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);
    return x < y ? -1 : x > y;
}

/* Order C's values by meaning: numbers by value, the words of a known
 * scale by rank; else as text.  Returns how (for the why column). */
static const char *order_values(ig_column *c)
{
    int numeric = c->nvals > 0;
    for (int i = 0; i < c->nvals && numeric; i++)
        numeric = ig_is_int(c->vals[i], NULL) || ig_is_real(c->vals[i], NULL);
    if (numeric) {
        qsort(c->vals, (size_t)c->nvals, sizeof *c->vals, by_number);
        return "ordered by value";
    }
    for (size_t k = 0; k < sizeof scales / sizeof *scales; k++) {
        int n = 0, all = c->nvals > 1;
        while (n < 12 && scales[k][n]) n++;
        for (int i = 0; i < c->nvals && all; i++) all = scale_rank(scales[k], n, c->vals[i]) >= 0;
        if (all) {                     /* the scale's own order: its words in turn */
            int at = 0;
            for (int r = 0; r < n; r++)
                for (int i = at; i < c->nvals; i++)
                    if (scale_rank(scales[k], n, c->vals[i]) == r) {
                        char *t = c->vals[at];
                        c->vals[at++] = c->vals[i];
                        c->vals[i] = t;
                    }
            return "ordered by meaning";
        }
    }
    return NULL;
}

static void take_values(ig_column *c, const vset *v)
{
    c->nvals = v->n;
    c->vals = xmalloc((size_t)(v->n ? v->n : 1) * sizeof *c->vals);
    for (int i = 0; i < v->n; i++) c->vals[i] = xstrdup(v->keys[i]);
    qsort(c->vals, (size_t)c->nvals, sizeof *c->vals, by_str);
}

static int enum_like(const vset *v, long n, double words, long maxlen)
{
    return !v->full && v->n >= 1 && v->n <= IG_ENUM_MAX && n >= 2L * v->n && n >= 2 &&
           maxlen <= 60 && words / (double)n <= 5.0;
}

static void decide_list_elems(ig_column *c, const part_stats *p)
{
    /* the examples people see are elements, not whole cells */
    for (int i = 0; i < c->nexamples; i++) free(c->examples[i]);
    c->nexamples = 0;
    for (int i = 0; i < p->set.n && c->nexamples < 3; i++)
        c->examples[c->nexamples++] = xstrdup(p->set.keys[i]);
    double mw = p->n ? p->words / (double)p->n : 0;
    if (mw >= 7.0) c->elem = IG_FREE;
    else if (enum_like(&p->set, p->n, p->words, 60)) {
        c->elem = IG_ENUM;
        take_values(c, &p->set);
    } else {
        c->elem = IG_TEXT;
    }
}

static void why_bad(ig_column *c, long fit, char *why, size_t n)
{
    long off = c->nonnull - fit;
    if (off > 0)
        snprintf(why + strlen(why), n - strlen(why), "; %ld value%s that do%s not fit %s kept "
                 "as text", off, off == 1 ? "" : "s", off == 1 ? "es" : "", off == 1 ? "is" : "are");
}

static void why_mixed(char *why, size_t n, long nums, long yesno)
{
    snprintf(why + strlen(why), n - strlen(why), "; WARNING: %ld numbers mixed with %ld "
             "true/false values, kept as text (edit worksheet.csv to choose a type)", nums, yesno);
}

static void decide(ig_column *c)
{
    ig_stats *st = c->st;
    long n = c->nonnull;
    char *why = c->why;
    size_t wn = sizeof c->why;
    if (!st || n == 0) {
        c->type = IG_TEXT;
        snprintf(why, wn, "no values");
        return;
    }
    double mw = st->words / (double)n;
    if (holds(st->n_bool, n) && (st->n_bool > st->n_bool01 || st->vals.n == 2)) {
        c->type = IG_BOOL;
        snprintf(why, wn, "only %s values", st->n_bool > st->n_bool01 ? "yes/no" : "0/1");
        why_bad(c, st->n_bool, why, wn);
    } else if (holds(st->n_int, n) && st->n_real == 0) {
        c->type = IG_INT;
        snprintf(why, wn, "%s %ld value%s %s whole numbers", n == 1 ? "the" : "all", n,
                 n == 1 ? "" : "s", n == 1 ? "is a" : "are");
        why_bad(c, st->n_int, why, wn);
    } else if (holds(st->n_int + st->n_real, n)) {
        c->type = IG_REAL;
        snprintf(why, wn, "numbers, %ld with decimals", st->n_real);
        why_bad(c, st->n_int + st->n_real, why, wn);
    } else if (holds(st->n_date, n)) {
        c->type = IG_DATE;
        snprintf(why, wn, "dates (YYYY-MM-DD)");
        why_bad(c, st->n_date, why, wn);
    } else if (holds(st->n_time, n)) {
        c->type = IG_TIME;
        snprintf(why, wn, "times of day");
        why_bad(c, st->n_time, why, wn);
    } else if (holds(st->n_arr, n)) {
        c->type = IG_LIST;
        decide_list_elems(c, &st->elems);
        if (st->elems.set.full)
            snprintf(why, wn, "JSON arrays, %ld elements, many distinct", st->elems.n);
        else
            snprintf(why, wn, "JSON arrays, %ld elements, %d distinct", st->elems.n,
                     st->elems.set.n);
    } else {
        for (int k = 0; k < 2 && c->type != IG_LIST; k++) {
            const part_stats *p = &st->parts[k];
            if (p->cells < 2 || p->cells * 10 < n * 3 || p->set.full || p->n <= p->set.n ||
                p->words / (double)p->n > 4.0 || p->len / (double)p->n > 40.0)
                continue;
            c->type = IG_LIST;
            c->sep = k ? '|' : ';';
            decide_list_elems(c, p);
            snprintf(why, wn, "'%c'-separated parts that repeat (%d distinct in %ld)", c->sep,
                     p->set.n, p->n);
        }
        if (c->type == IG_LIST) return;
        /* numbers and true/false mixed (a move's accuracy: 90, or true
         * for "never misses"): neither type holds them, and the column
         * says so rather than passing for plain text */
        long nums = st->n_int + st->n_real, yesno = st->n_bool - st->n_bool01;
        int mixed = nums > 0 && yesno > 0 && holds(nums + yesno, n);
        if (enum_like(&st->vals, n, st->words, st->maxlen)) {
            c->type = IG_ENUM;
            take_values(c, &st->vals);
            const char *how = order_values(c);
            snprintf(why, wn, "%d value%s repeat%s over %ld rows%s%s", st->vals.n,
                     st->vals.n == 1 ? "" : "s", st->vals.n == 1 ? "s" : "", n, how ? ", " : "",
                     how ? how : "");
            if (mixed) why_mixed(why, wn, nums, yesno);
        } else if (mw >= 7.0 || (st->maxlen >= 300 && mw >= 4.0)) {
            c->type = IG_FREE;
            snprintf(why, wn, "long, wordy (%.0f words on average)", mw);
        } else {
            c->type = IG_TEXT;
            if (st->vals.full && st->vals.n >= IG_DISTINCT_CAP)
                snprintf(why, wn, "short text, over %d distinct", IG_DISTINCT_CAP);
            else if (st->vals.full)
                snprintf(why, wn, "text, some values long (up to %ld bytes)", st->maxlen);
            else
                snprintf(why, wn, "short text, %d distinct", st->vals.n);
            if (mixed) why_mixed(why, wn, nums, yesno);
        }
    }
}

/* The examples people and the LLM see, as they are stored: 19:00 for
 * "7pm", true/false for "yes"/"0" (a description drafted from "7pm" led a
 * model to compare times with '7:30pm'). */
static void stored_examples(ig_column *c)
{
    for (int i = 0; i < c->nexamples; i++) {
        char buf[16];
        int b;
        const char *x = c->examples[i], *v = NULL;
        if (c->type == IG_TIME && ig_is_time(x, buf)) v = buf;
        else if (c->type == IG_DATE && ig_is_date(x, buf)) v = buf;
        else if (c->type == IG_BOOL && ig_is_bool(x, &b)) v = b ? "true" : "false";
        if (!v) continue;
        free(c->examples[i]);
        c->examples[i] = xstrdup(v);
    }
    for (int i = 1; i < c->nexamples; i++)          /* "yes" and "y" are one example */
        for (int k = 0; k < i; k++)
            if (!strcmp(c->examples[i], c->examples[k])) {
                free(c->examples[i]);
                memmove(&c->examples[i], &c->examples[i + 1],
                        (size_t)(c->nexamples - i - 1) * sizeof *c->examples);
                c->nexamples--;
                i--;
                break;
            }
}

int ig_infer(ig_table *t, ig_progress_fn fn, void *ud, gn_err *e)
{
    t->rows = 0;
    int rc = ig_scan(t, 1, row_observe, NULL, fn, ud, e);
    if (rc) return rc;
    if (t->ncols == 0) return gn_err_set(e, GN_EPARSE, "%s: no data (no columns)", t->label);
    for (int i = 0; i < t->ncols; i++) {
        ig_column *c = &t->cols[i];
        if (!c->st) c->st = xcalloc(1, sizeof *c->st);
        decide(c);
        stored_examples(c);
    }
    return 0;
}

int ig_key_candidate(const ig_column *c, long rows)
{
    const ig_stats *st = c->st;
    return c->type == IG_TEXT && st && rows >= 2 && c->nonnull == rows &&
           st->len / (double)rows <= 40.0 && st->n_alpha * 2 >= rows && st->maxlen <= 100;
}

const char *ig_type_name(enum ig_type t)
{
    static const char *const names[] = { "text", "integer", "real", "boolean", "date", "time",
                                         "enum", "free text", "list" };
    return names[t];
}

void ig_column_type_str(const ig_column *c, char *buf, size_t n)
{
    if (c->type == IG_LIST)
        snprintf(buf, n, "list of %s", ig_type_name(c->elem));
    else if (c->type == IG_ENUM)
        snprintf(buf, n, "enum (%d)", c->nvals);
    else
        snprintf(buf, n, "%s", ig_type_name(c->type));
    if (c->key) snprintf(buf + strlen(buf), n - strlen(buf), ", key");
}
