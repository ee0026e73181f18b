/*
 * courses.c — the courses dataset: catalog, offerings, ratings, ground truth.
 *
 * The catalog starts with the classic courses (course_vocab.c) and continues
 * with generated ones, each drawn from its own random stream, so a smaller
 * scale is a prefix of a larger one.  Codes are unique across the catalog
 * (CS numbers per area, then other departments when CS runs out at large
 * scales); prerequisites only name courses that exist and come earlier.
 *
 * Latent attributes are drawn first, from area and level (theory is math
 * heavy, systems is work heavy, intro courses welcome beginners); the
 * description, weekly hours, rating and reviews are then written to agree
 * with them.
 */
#include "gen.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "dbwrite.h"
#include "engine/util/xmem.h"
#include "text.h"
#include "vocab.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const gen_column COURSE_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"course_id", "int", 0, 0, NULL, "UNIQUE", "Course number; offerings and ratings refer to it."},
    {"title", "text", 0, 0, NULL, NULL, "Course title."},
    {"course_codes", "text", 1, 0, NULL, NULL,
     "Listing codes, the first is the main one, e.g. [\"CS 224N\",\"LINGUIST 284\"]."},
    {"description", "text", 0, 1, NULL, NULL, "Catalog description."},
    {"units_min", "int", 0, 0, NULL, NULL, "Fewest units the course can be taken for; a course can be taken for N units "
     "when units_min <= N AND units_max >= N."},
    {"units_max", "int", 0, 0, NULL, NULL, "Most units the course can be taken for."},
    {"grading_options", "enum", 1, 0, "[\"Letter\",\"Credit/No Credit\"]", NULL, "Grading bases offered."},
    {"prerequisites", "text", 0, 0, NULL, NULL,
     "Prerequisite courses, e.g. 'CS 106B and CS 109'; NULL when there are none."},
};
static const gen_column OFFERING_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"course_id", "int", 0, 0, NULL, NULL, "The course offered (courses.course_id)."},
    {"quarter", "enum", 0, 0, "[\"Autumn 2026\",\"Winter 2027\",\"Spring 2027\",\"Summer 2027\"]", NULL,
     "Academic quarter, in calendar order: Autumn is late September to mid December, Winter "
     "January to March, Spring April to mid June, Summer late June to August."},
    {"days", "text", 0, 0, NULL, NULL, "Meeting days, e.g. 'Mon, Wed' (Tuesdays: days LIKE '%Tue%')."},
    {"start_time", "time", 0, 0, NULL, NULL, "Start time, 24-hour HH:MM."},
    {"end_time", "time", 0, 0, NULL, NULL, "End time, 24-hour HH:MM."},
    {"instructors", "text", 1, 0, NULL, NULL, "Instructors' names."},
};
static const gen_column RATING_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"course_id", "int", 0, 0, NULL, NULL, "The course rated (courses.course_id)."},
    {"average_rating", "real", 0, 0, NULL, NULL, "Average student rating, 1 to 5."},
    {"average_hours_per_week", "real", 0, 0, NULL, NULL, "Average hours per week students spent."},
    {"reviews", "text", 1, 1, NULL, NULL, "Student reviews."},
};
static const gen_column PROGRAM_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"name", "text", 0, 0, NULL, NULL, "Degree program, e.g. 'CS MS AI track'."},
    {"requirements", "text", 0, 1, NULL, NULL, "Requirements of the program, naming courses."},
};
static const gen_column TRUTH_ATTR_COLS[] = {
    {"course_id", "int", 0, 0, NULL, NULL, NULL},
    {"attr", "text", 0, 0, NULL, NULL, NULL},
    {"value", "int", 0, 0, NULL, NULL, NULL},
};
static const gen_column TRUTH_REVIEW_COLS[] = {
    {"course_id", "int", 0, 0, NULL, NULL, NULL},
    {"review_idx", "int", 0, 0, NULL, NULL, NULL},
    {"attr", "text", 0, 0, NULL, NULL, NULL},
    {"value", "int", 0, 0, NULL, NULL, NULL},
};

static const char *const QUARTERS[] = {"Autumn 2026", "Winter 2027", "Spring 2027", "Summer 2027"};

typedef struct area_data {
    gen_list topics, numbers, cross, langs;
    gen_list faculty;           /* instructor names */
    char *faculty_store;
    long *members, nmembers, cap; /* catalog indexes of this area's courses */
} area_data;

typedef struct ctx {
    sqlite3 *db;
    const gen_opts *o;
    gen_course *cs;
    long n;
    area_data *ad;
    gen_strset codes, titles;
    gen_list first, last;
    gen_list *classic_topics;   /* gen_classic_count lists, split once */
    gn_buf a, b, c, tmp;
    gen_review_set rs;
    sqlite3_stmt *ins_course, *ins_offering, *ins_rating, *ins_attr, *ins_mention;
    long offering_id, rating_id;
} ctx;

/* ---- vocabulary ---------------------------------------------------------- */

static void make_faculty(ctx *x, gen_rng *rng, area_data *d, int size)
{
    gn_buf names;
    gn_buf_init(&names);
    for (int k = 0, tries = 0; k < size && tries < 50 * size; tries++) {
        gn_buf_reset(&x->tmp);
        gn_buf_printf(&x->tmp, "%s %s", gen_rng_pick_n(rng, x->first.item, x->first.n),
                      gen_rng_pick_n(rng, x->last.item, x->last.n));
        if (!gen_strset_add(&x->titles, x->tmp.data)) continue;  /* names unique overall */
        if (names.len) gn_buf_putc(&names, '|');
        gn_buf_puts(&names, x->tmp.data);
        k++;
    }
    if (!names.len) gn_buf_puts(&names, "Staff");
    gen_list_split(&d->faculty, names.data);
    gn_buf_release(&names);
}

static void areas_init(ctx *x)
{
    gen_rng rng;
    gen_rng_seed(&rng, x->o->seed, GEN_STREAM_MISC + 1);
    gen_list_split(&x->first, gen_first_names);
    gen_list_split(&x->last, gen_last_names);
    x->ad = xcalloc(gen_area_count, sizeof *x->ad);
    /* 17 areas x 120 stays well inside the ~3,900 first x last names. */
    int pool = 4 + (int)(x->n / 60);
    if (pool > 120) pool = 120;
    for (size_t i = 0; i < gen_area_count; i++) {
        const gen_area *a = &gen_area_table[i];
        area_data *d = &x->ad[i];
        gen_list_split(&d->topics, a->topics);
        gen_list_split(&d->numbers, a->numbers);
        gen_list_split(&d->cross, a->cross);
        gen_list_split(&d->langs, a->langs);
        make_faculty(x, &rng, d, pool);
    }
    /* Faculty names went through the title set only to be unique. */
    gen_strset_release(&x->titles);
    gen_strset_init(&x->titles);
}

static void areas_free(ctx *x)
{
    for (size_t i = 0; x->ad && i < gen_area_count; i++) {
        area_data *d = &x->ad[i];
        gen_list_free(&d->topics);
        gen_list_free(&d->numbers);
        gen_list_free(&d->cross);
        gen_list_free(&d->langs);
        gen_list_free(&d->faculty);
        free(d->members);
    }
    free(x->ad);
    gen_list_free(&x->first);
    gen_list_free(&x->last);
}

static void add_member(area_data *d, long idx)
{
    if (d->nmembers == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->members = xrealloc(d->members, (size_t)d->cap * sizeof *d->members);
    }
    d->members[d->nmembers++] = idx;
}

/* ---- codes and titles ---------------------------------------------------- */

static int level_of(int num)
{
    return num < 110 ? GEN_LEVEL_INTRO : num < 200 ? GEN_LEVEL_UNDERGRAD : num < 500 ? GEN_LEVEL_GRAD
                                                                                 : GEN_LEVEL_SEMINAR;
}

static int add_code(ctx *x, gen_course *c, const char *code)
{
    if (c->ncodes >= GEN_COURSE_MAX_CODES || !gen_strset_add(&x->codes, code)) return 0;
    snprintf(c->codes[c->ncodes++], sizeof c->codes[0], "%s", code);
    return 1;
}

static const char SUFFIXES[] = "ABCDEGHILMNPRSUVW";

/* A fresh code in the area's CS ranges, else in another department. */
static int main_code(ctx *x, gen_course *c, gen_rng *rng)
{
    const area_data *d = &x->ad[c->area];
    char code[24];
    int seminar = gen_rng_chance(rng, 0.08);
    for (int tries = 0; tries < 40; tries++) {
        int lo = 500, hi = 599;
        if (!seminar) {
            const char *range = gen_rng_pick_n(rng, d->numbers.item, d->numbers.n);
            const char *dash = strchr(range, '-');
            lo = atoi(range);
            hi = dash ? atoi(dash + 1) : lo;
        }
        int num = gen_rng_range(rng, lo, hi);
        char suf = gen_rng_chance(rng, 0.55) ? 0 : SUFFIXES[gen_rng_below(rng, sizeof SUFFIXES - 1)];
        snprintf(code, sizeof code, "CS %d%.1s", num, suf ? &suf : "");
        if (add_code(x, c, code)) return level_of(num);
    }
    static const char *const DEPTS[] = {"CS", "EE", "CME", "MS&E", "STATS", "SYMSYS", "DATASCI", "BIOMEDIN"};
    for (long tries = 0;; tries++) {
        int num = gen_rng_range(rng, 100, 699);
        char suf = SUFFIXES[gen_rng_below(rng, sizeof SUFFIXES - 1)];
        snprintf(code, sizeof code, "%s %d%c", DEPTS[gen_rng_below(rng, NELEM(DEPTS))], num, suf);
        if (tries > 1000) snprintf(code, sizeof code, "CS %ldX", c->id);
        if (add_code(x, c, code)) return level_of(num);
    }
}

static void cross_code(ctx *x, gen_course *c, gen_rng *rng)
{
    const area_data *d = &x->ad[c->area];
    double p = !strcmp(gen_area_table[c->area].key, "nlp") ? 0.35 : 0.18;
    if (!d->cross.n || !gen_rng_chance(rng, p)) return;
    const char *dept = gen_rng_pick_n(rng, d->cross.item, d->cross.n);
    char code[24];
    for (int tries = 0; tries < 10; tries++) {
        const char *num = strchr(c->codes[0], ' ') + 1;
        if (gen_rng_chance(rng, 0.5)) snprintf(code, sizeof code, "%s %s", dept, num);
        else snprintf(code, sizeof code, "%s %d", dept, gen_rng_range(rng, 100, 399));
        if (add_code(x, c, code)) return;
    }
}

static int small_word(const char *w, size_t n)
{
    static const char *const SMALL[] = {"and", "of", "the", "in", "to", "for", "with", "on", "a",
                                        "an", "from", "under", "or", NULL};
    for (const char *const *s = SMALL; *s; s++)
        if (strlen(*s) == n && !strncmp(*s, w, n)) return 1;
    return 0;
}

/* Title Case in place: words capitalized except small ones mid-title; the
 * word after ':' counts as first; never lowercases (keeps "SQL", "GPUs"). */
static void title_case(char *s)
{
    int first = 1;
    for (char *p = s; *p;) {
        while (*p == ' ') p++;
        char *w = p;
        while (*p && *p != ' ') p++;
        size_t n = (size_t)(p - w);
        if (!n) break;
        if (first || !small_word(w, n)) {
            w[0] = (char)toupper((unsigned char)w[0]);
            for (char *h = w; h < p; h++)
                if (*h == '-' && h + 1 < p) h[1] = (char)toupper((unsigned char)h[1]);
        }
        first = p[-1] == ':';
    }
}

/* Titles never promise a project, a lab or a pace: those are latent
 * attributes, drawn after the title, and the title must not contradict them. */
static const char *const TITLE_TPL[4] = {
    "[Introduction to {T}|{T} for Everyone|Principles of {T}|{T}]",
    "[Introduction to {T}|{T}|Principles of {T}|Foundations of {T}|{T} and {T2}|Practical {T}|"
    "{T}: Concepts and Techniques]",
    "[{T}|Advanced {T}|Modern {T}|{T} and {T2}|Topics in {L}: {T}|"
    "{T}: [Foundations and Applications|Algorithms and Systems|Principles and Practice]|"
    "Advanced Topics in {L}: {T}]",
    "[Seminar on {T}|Research Seminar in {L}: {T}|Reading Group: {T}|Workshop on {T}|Current Topics in {T}]",
};

typedef struct title_slots {
    const gen_course *c;
} title_slots;

static const char *title_slot(void *ud, const char *name, size_t len)
{
    const gen_course *c = ((title_slots *)ud)->c;
    if (len == 1 && name[0] == 'T') return c->topic[0];
    if (len == 2 && !memcmp(name, "T2", 2)) return c->topic[c->ntopic > 1];
    if (len == 1 && name[0] == 'L') return gen_area_table[c->area].title;
    return NULL;
}

static void pick_topics(ctx *x, gen_course *c, gen_rng *rng)
{
    const gen_list *t = &x->ad[c->area].topics;
    size_t idx[32], n = t->n < 32 ? t->n : 32;
    for (size_t i = 0; i < n; i++) idx[i] = i;
    gen_rng_shuffle(rng, idx, n, sizeof idx[0]);
    c->ntopic = gen_rng_range(rng, 3, 5);
    for (int i = 0; i < c->ntopic; i++) c->topic[i] = t->item[idx[i]];
}

static void pick_title(ctx *x, gen_course *c, gen_rng *rng)
{
    title_slots ts = {c};
    for (int tries = 0; tries < 16; tries++) {
        pick_topics(x, c, rng);
        gn_buf_reset(&x->tmp);
        gen_tpl_expand(&x->tmp, TITLE_TPL[c->level], rng, title_slot, &ts);
        snprintf(c->title, sizeof c->title, "%s", x->tmp.data);
        title_case(c->title);
        if (gen_strset_add(&x->titles, c->title)) return;
    }
}

/* ---- one course ----------------------------------------------------------- */

static signed char tri(gen_rng *rng, double plus, double minus)
{
    plus = plus < 0 ? 0 : plus > 0.9 ? 0.9 : plus;
    minus = minus < 0 ? 0 : minus > 0.9 - plus ? 0.9 - plus : minus;
    double u = gen_rng_unit(rng);
    return u < plus ? 1 : u < plus + minus ? -1 : 0;
}

static void pick_attrs(gen_course *c, gen_rng *rng)
{
    const gen_area *a = &gen_area_table[c->area];
    signed char *v = c->attr;
    int sem = c->level == GEN_LEVEL_SEMINAR, intro = c->level == GEN_LEVEL_INTRO;
    v[CA_HEAVY] = sem ? tri(rng, 0.02, 0.5) : intro ? tri(rng, 0.2, 0.25)
                : tri(rng, 0.25 + 0.2 * a->heavy, 0.18 - 0.12 * a->heavy);
    v[CA_EASY_GRADING] = sem ? tri(rng, 0.5, 0.02) : tri(rng, 0.22 - 0.1 * a->math, 0.18 + 0.15 * a->math);
    v[CA_GREAT_LECTURER] = tri(rng, 0.3, 0.15);
    v[CA_PROJECT] = sem ? tri(rng, 0.1, 0.2) : tri(rng, 0.3 + 0.3 * a->project, 0.2 - 0.15 * a->project);
    if (strstr(c->title, "Project")) v[CA_PROJECT] = 1;   /* "Senior Project" says so */
    v[CA_MATH] = tri(rng, 0.25 + 0.35 * a->math, 0.2 - 0.2 * a->math);
    v[CA_BEGINNERS] = intro ? tri(rng, 0.8, 0.02) : c->level == GEN_LEVEL_UNDERGRAD ? tri(rng, 0.2, 0.25)
                    : sem ? tri(rng, 0.15, 0.25) : tri(rng, 0.05, 0.45);
    v[CA_ORGANIZED] = tri(rng, 0.3, 0.15);
    /* A beginners' course is not also a wall of proofs. */
    if (v[CA_BEGINNERS] > 0 && v[CA_MATH] > 0) v[CA_MATH] = 0;

    double q = gen_rng_normal(rng, 4.05, 0.28) + 0.3 * v[CA_GREAT_LECTURER] + 0.15 * v[CA_ORGANIZED] +
               0.1 * v[CA_EASY_GRADING] - 0.05 * (v[CA_HEAVY] > 0);
    q = q < 1.5 ? 1.5 : q > 5.0 ? 5.0 : q;
    c->rating = round(q * 100) / 100;
    double h = v[CA_HEAVY] > 0 ? 15 + 11 * gen_rng_unit(rng)
             : v[CA_HEAVY] < 0 ? 3.5 + 4 * gen_rng_unit(rng) : 7.5 + 6.5 * gen_rng_unit(rng);
    if (v[CA_PROJECT] > 0 && v[CA_HEAVY] >= 0) h += 2;
    if (c->units_max >= 5 && v[CA_HEAVY] >= 0) h += 1;
    if (c->level == GEN_LEVEL_SEMINAR && v[CA_HEAVY] <= 0) h = 1.5 + 3 * gen_rng_unit(rng);
    c->hours = round(h * 100) / 100;
}

static void pick_units(gen_course *c, gen_rng *rng)
{
    static const int U[4][4][2] = {
        {{3, 5}, {3, 5}, {4, 5}, {5, 5}},
        {{3, 4}, {3, 4}, {3, 5}, {4, 4}},
        {{3, 4}, {3, 3}, {2, 4}, {3, 5}},
        {{1, 1}, {1, 1}, {1, 2}, {1, 3}},
    };
    const int *u = U[c->level][gen_rng_below(rng, 4)];
    c->units_min = u[0];
    c->units_max = u[1];
}

static void pick_grading(gen_course *c, gen_rng *rng)
{
    if (c->level == GEN_LEVEL_SEMINAR) {
        c->cnc = 1;
        c->letter = gen_rng_chance(rng, 0.3);
    } else {
        c->letter = 1;
        c->cnc = gen_rng_chance(rng, 0.65);
    }
}

/* Earlier courses of the same area at a lower level, else core courses. */
static void pick_prereqs(ctx *x, gen_course *c, gen_rng *rng)
{
    static const char *const CORE[] = {"CS 106B", "CS 107", "CS 103", "CS 109", "CS 161", "CS 110"};
    const char *chosen[2];
    int k = 0;
    int want = c->level == GEN_LEVEL_INTRO ? (int)gen_rng_below(rng, 2)
             : c->level == GEN_LEVEL_SEMINAR ? (int)gen_rng_below(rng, 2) : gen_rng_range(rng, 1, 2);
    const area_data *d = &x->ad[c->area];
    for (int tries = 0; k < want && tries < 8; tries++) {
        const char *code = NULL;
        if (d->nmembers && gen_rng_chance(rng, 0.6)) {
            const gen_course *p = &x->cs[d->members[gen_rng_below(rng, (size_t)d->nmembers)]];
            if (p->level < c->level || (p->level == GEN_LEVEL_UNDERGRAD && c->level >= GEN_LEVEL_GRAD))
                code = p->codes[0];
        } else {
            code = CORE[gen_rng_below(rng, c->level <= GEN_LEVEL_UNDERGRAD ? 4 : NELEM(CORE))];
            if (!gen_strset_has(&x->codes, code)) code = NULL;
        }
        if (!code || (k && !strcmp(code, chosen[0])) || !strcmp(code, c->codes[0])) continue;
        chosen[k++] = code;
    }
    if (!k) c->prereq[0] = 0;
    else if (k == 1) snprintf(c->prereq, sizeof c->prereq, "%s%s", chosen[0],
                              gen_rng_chance(rng, 0.2) ? " or equivalent" : "");
    else snprintf(c->prereq, sizeof c->prereq, "%s and %s", chosen[0], chosen[1]);
}

static void classic_course(ctx *x, gen_course *c, const gen_classic *k)
{
    gen_list l;
    c->area = gen_area_find(k->area);
    c->level = k->level;
    snprintf(c->title, sizeof c->title, "%s", k->title);
    gen_strset_add(&x->titles, c->title);
    gen_list_split(&l, k->codes);
    for (size_t i = 0; i < l.n; i++) add_code(x, c, l.item[i]);
    gen_list_free(&l);
    c->units_min = k->units_min;
    c->units_max = k->units_max;
    c->letter = 1;
    c->cnc = k->level != GEN_LEVEL_GRAD || k->units_max > 1;
    if (k->level == GEN_LEVEL_SEMINAR && k->units_max == 1) c->letter = 0;
    const gen_list *topics = &x->classic_topics[k - gen_classic_table];
    c->ntopic = 0;
    for (size_t i = 0; i < topics->n && c->ntopic < GEN_COURSE_MAX_TOPICS; i++)
        c->topic[c->ntopic++] = topics->item[i];
    c->prereq[0] = 0;
    if (k->prereqs) {
        gen_list_split(&l, k->prereqs);
        for (size_t i = 0; i < l.n; i++) {
            if (!gen_strset_has(&x->codes, l.item[i])) continue;
            size_t len = strlen(c->prereq);
            snprintf(c->prereq + len, sizeof c->prereq - len, "%s%s", len ? " and " : "", l.item[i]);
        }
        gen_list_free(&l);
    }
}

static void generated_course(ctx *x, gen_course *c, gen_rng *rng)
{
    double w[64];
    for (size_t i = 0; i < gen_area_count && i < 64; i++) w[i] = gen_area_table[i].weight;
    c->area = (int)gen_rng_weighted(rng, w, gen_area_count);
    c->level = main_code(x, c, rng);
    if (c->level == GEN_LEVEL_INTRO && strcmp(gen_area_table[c->area].key, "intro"))
        c->level = GEN_LEVEL_UNDERGRAD;
    cross_code(x, c, rng);
    pick_title(x, c, rng);
    pick_units(c, rng);
    pick_grading(c, rng);
    pick_prereqs(x, c, rng);
}

static void make_course(ctx *x, gen_course *c, long i, gen_rng *rng)
{
    memset(c, 0, sizeof *c);
    c->id = i + 1;
    c->course_id = 100000 + i * 40 + (long)gen_rng_below(rng, 40);
    if ((size_t)i < gen_classic_count) classic_course(x, c, &gen_classic_table[i]);
    else generated_course(x, c, rng);
    const gen_list *fac = &x->ad[c->area].faculty;
    snprintf(c->lecturer, sizeof c->lecturer, "%s", gen_rng_pick_n(rng, fac->item, fac->n));
    pick_attrs(c, rng);
    add_member(&x->ad[c->area], i);
}

/* ---- description ---------------------------------------------------------- */

typedef struct desc_slots {
    ctx *x;
    const gen_course *c;
    gen_rng *rng;
} desc_slots;

static const char *desc_slot(void *ud, const char *name, size_t len)
{
    desc_slots *s = ud;
    const gen_course *c = s->c;
    if (len == 2 && name[0] == 't' && name[1] >= '0' && name[1] <= '4')
        return c->topic[(name[1] - '0') % c->ntopic];
    if (len == 5 && !memcmp(name, "label", 5)) return gen_area_table[c->area].label;
    if (len == 8 && !memcmp(name, "artifact", 8)) {
        gn_buf_reset(&s->x->tmp);
        gen_tpl_expand(&s->x->tmp, gen_area_table[c->area].artifact, s->rng, NULL, NULL);
        return s->x->tmp.data;
    }
    if (len == 4 && !memcmp(name, "lang", 4)) {
        const gen_list *l = &s->x->ad[c->area].langs;
        return gen_rng_pick_n(s->rng, l->item, l->n);
    }
    return NULL;
}

static const char *const DESC_OPEN[] = {
    "[This course covers|Covers|Topics include] {t0}, {t1}, and {t2}.",
    "An introduction to {label}, with an emphasis on {t0} and {t1}.",
    "A [rigorous|hands-on|broad|practical] [survey|study] of {t0} and {t1}[, with applications to {t2}|].",
    "Students learn the [foundations|principles|state of the art] of {t0}, from {t1} to {t2}.",
    "Core ideas and methods of {t0}, {t1} and {t2}, with an eye to current practice.",
    NULL};
static const char *const DESC_SEMINAR =
    "A [weekly|discussion-based] seminar on [recent research in|current work in] {t0} and {t1}; "
    "students read and present papers.";

static void describe(ctx *x, const gen_course *c, gen_rng *rng, gn_buf *out)
{
    desc_slots s = {x, c, rng};
    const signed char *v = c->attr;
    int n = 1;
    gn_buf_reset(out);
    gen_tpl_expand(out, c->level == GEN_LEVEL_SEMINAR ? DESC_SEMINAR : gen_rng_pick(rng, DESC_OPEN), rng,
                   desc_slot, &s);
    const char *extra[4];
    int ne = 0;
    if (v[CA_PROJECT] > 0)
        extra[ne++] = "Students complete a [quarter-long|substantial] [team |]project, building {artifact}.";
    else if (v[CA_PROJECT] < 0)
        extra[ne++] = "Coursework consists of weekly problem sets[ and a midterm and final exam| and two exams].";
    if (v[CA_MATH] > 0)
        extra[ne++] = !strcmp(gen_area_table[c->area].key, "theory")
                          ? "[Assumes|Requires] comfort with [proofs and discrete mathematics|mathematical proofs]."
                          : "[Assumes|Requires] comfort with [linear algebra, probability and multivariable "
                            "calculus|probability and statistics|linear algebra and optimization].";
    else if (v[CA_MATH] < 0)
        extra[ne++] = "[No advanced mathematics is required.|Emphasis is on intuition and practice rather than proofs.]";
    if (v[CA_BEGINNERS] > 0) extra[ne++] = "No prior experience [required|in {label} is assumed].";
    else if (v[CA_BEGINNERS] < 0)
        extra[ne++] = "Intended for [advanced undergraduates and graduate students|students with prior research "
                      "experience|students comfortable with the prerequisites].";
    if (ne < 3 && strcmp(gen_area_table[c->area].key, "theory") && strcmp(gen_area_table[c->area].key, "society"))
        extra[ne++] = "[Programming assignments|Assignments] in {lang}.";
    int room = 3 - (c->prereq[0] != 0);
    for (int i = 0; i < ne && n <= room; i++, n++) {
        gn_buf_putc(out, ' ');
        gen_tpl_expand(out, extra[i], rng, desc_slot, &s);
    }
    if (n < 2 && !c->prereq[0]) {
        gn_buf_putc(out, ' ');
        gen_tpl_expand(out, "[Lectures are complemented by weekly sections.|Includes weekly readings and discussion.]",
                       rng, NULL, NULL);
    }
    if (c->prereq[0]) gn_buf_printf(out, " Prerequisites: %s.", c->prereq);
}

/* ---- writing -------------------------------------------------------------- */

static int write_course(ctx *x, const gen_course *c, gen_rng *rng, gn_err *e)
{
    describe(x, c, rng, &x->c);
    gen_jarr_begin(&x->a);
    for (int i = 0; i < c->ncodes; i++) gen_jarr_add(&x->a, c->codes[i]);
    gen_jarr_end(&x->a);
    gen_jarr_begin(&x->b);
    if (c->letter) gen_jarr_add(&x->b, "Letter");
    if (c->cnc) gen_jarr_add(&x->b, "Credit/No Credit");
    gen_jarr_end(&x->b);
    sqlite3_stmt *st = x->ins_course;
    gen_db_bind_int(st, 1, c->id);
    gen_db_bind_int(st, 2, c->course_id);
    gen_db_bind_text(st, 3, c->title);
    gen_db_bind_text(st, 4, x->a.data);
    gen_db_bind_text(st, 5, x->c.data);
    gen_db_bind_int(st, 6, c->units_min);
    gen_db_bind_int(st, 7, c->units_max);
    gen_db_bind_text(st, 8, x->b.data);
    gen_db_bind_text(st, 9, c->prereq[0] ? c->prereq : NULL);
    return gen_db_run(x->db, st, e);
}

static const struct meeting {
    const char *days;
    int minutes;
} MEETINGS[] = {
    {"Mon, Wed", 80}, {"Tue, Thu", 80}, {"Mon, Wed, Fri", 50}, {"Tue, Thu", 80}, {"Mon, Wed", 80},
};
static const struct meeting SEMINAR_MEETINGS[] = {{"Wed", 110}, {"Fri", 110}, {"Mon", 80}, {"Thu", 80}};

static int write_offerings(ctx *x, const gen_course *c, gen_rng *rng, gn_err *e)
{
    static const int START[] = {9 * 60, 9 * 60 + 30, 10 * 60 + 30, 12 * 60, 13 * 60 + 30, 15 * 60, 16 * 60 + 30};
    int q[4] = {0, 1, 2, 3}, nq;
    int intro = c->level == GEN_LEVEL_INTRO && (size_t)(c->id - 1) < gen_classic_count;
    if (intro) nq = 3;
    else if (c->level == GEN_LEVEL_SEMINAR) nq = 1;
    else nq = 1 + (gen_rng_chance(rng, 0.4) ? 1 : 0) + (gen_rng_chance(rng, 0.25) ? 1 : 0);
    gen_rng_shuffle(rng, q, 3, sizeof q[0]);
    if (gen_rng_chance(rng, intro ? 0.6 : 0.04)) q[nq++] = 3;
    /* quarters in calendar order */
    for (int i = 1; i < nq; i++)
        for (int j = i; j > 0 && q[j - 1] > q[j]; j--) {
            int t = q[j];
            q[j] = q[j - 1];
            q[j - 1] = t;
        }
    const gen_list *fac = &x->ad[c->area].faculty;
    int rc = 0;
    for (int i = 0; !rc && i < nq; i++) {
        const struct meeting *m = c->level == GEN_LEVEL_SEMINAR
                                      ? &SEMINAR_MEETINGS[gen_rng_below(rng, NELEM(SEMINAR_MEETINGS))]
                                      : &MEETINGS[gen_rng_below(rng, NELEM(MEETINGS))];
        int start = START[gen_rng_below(rng, NELEM(START))], end = start + m->minutes;
        char st_s[32], en_s[32];
        snprintf(st_s, sizeof st_s, "%02d:%02d", start / 60, start % 60);
        snprintf(en_s, sizeof en_s, "%02d:%02d", end / 60, end % 60);
        gen_jarr_begin(&x->a);
        /* The reviewed lecturer teaches the first offering; others may rotate. */
        const char *who = i == 0 || gen_rng_chance(rng, 0.7) ? c->lecturer
                                                            : gen_rng_pick_n(rng, fac->item, fac->n);
        gen_jarr_add(&x->a, who);
        if (gen_rng_chance(rng, 0.2)) {
            const char *other = gen_rng_pick_n(rng, fac->item, fac->n);
            if (strcmp(other, who)) gen_jarr_add(&x->a, other);
        }
        gen_jarr_end(&x->a);
        sqlite3_stmt *st = x->ins_offering;
        gen_db_bind_int(st, 1, ++x->offering_id);
        gen_db_bind_int(st, 2, c->course_id);
        gen_db_bind_text(st, 3, QUARTERS[q[i]]);
        gen_db_bind_text(st, 4, m->days);
        gen_db_bind_text(st, 5, st_s);
        gen_db_bind_text(st, 6, en_s);
        gen_db_bind_text(st, 7, x->a.data);
        rc = gen_db_run(x->db, st, e);
    }
    return rc;
}

static int write_rating(ctx *x, const gen_course *c, gen_rng *rng, gn_err *e)
{
    int rc = gen_review_write_attrs(x->db, x->ins_attr, c->course_id, c->attr, CA_COUNT, gen_cattr_names, e);
    /* New courses have no evaluations yet; the classics always do. */
    int rated = (size_t)(c->id - 1) < gen_classic_count || gen_rng_chance(rng, 0.92);
    if (rc || !rated) return rc;
    gen_course_reviews(c, gen_rng_range(rng, 5, 15), rng, &x->rs);
    gen_jarr_begin(&x->a);
    for (int i = 0; i < x->rs.n; i++) gen_jarr_add(&x->a, x->rs.text[i].data);
    gen_jarr_end(&x->a);
    sqlite3_stmt *st = x->ins_rating;
    gen_db_bind_int(st, 1, ++x->rating_id);
    gen_db_bind_int(st, 2, c->course_id);
    gen_db_bind_real(st, 3, c->rating);
    gen_db_bind_real(st, 4, c->hours);
    gen_db_bind_text(st, 5, x->a.data);
    rc = gen_db_run(x->db, st, e);
    if (!rc) rc = gen_review_write_mentions(x->db, x->ins_mention, c->course_id, &x->rs, gen_cattr_names, e);
    return rc;
}

static int create_schema(sqlite3 *db, gn_err *e)
{
    int rc = gen_db_define_table(db, "courses", COURSE_COLS, NELEM(COURSE_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "offerings", OFFERING_COLS, NELEM(OFFERING_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "ratings", RATING_COLS, NELEM(RATING_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "programs", PROGRAM_COLS, NELEM(PROGRAM_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "_truth_course_attrs", TRUTH_ATTR_COLS, NELEM(TRUTH_ATTR_COLS), 0, e);
    if (!rc) rc = gen_db_define_table(db, "_truth_course_review_attrs", TRUTH_REVIEW_COLS,
                                      NELEM(TRUTH_REVIEW_COLS), 0, e);
    return rc;
}

static int prepare(ctx *x, gn_err *e)
{
    static const struct {
        size_t off;
        const char *sql;
    } STMTS[] = {
        {offsetof(ctx, ins_course), "INSERT INTO courses(_id,course_id,title,course_codes,description,"
                                    "units_min,units_max,grading_options,prerequisites) VALUES(?,?,?,?,?,?,?,?,?)"},
        {offsetof(ctx, ins_offering), "INSERT INTO offerings(_id,course_id,quarter,days,start_time,end_time,"
                                      "instructors) VALUES(?,?,?,?,?,?,?)"},
        {offsetof(ctx, ins_rating), "INSERT INTO ratings(_id,course_id,average_rating,average_hours_per_week,"
                                    "reviews) VALUES(?,?,?,?,?)"},
        {offsetof(ctx, ins_attr), "INSERT INTO _truth_course_attrs(course_id,attr,value) VALUES(?,?,?)"},
        {offsetof(ctx, ins_mention), "INSERT INTO _truth_course_review_attrs(course_id,review_idx,attr,value)"
                                     " VALUES(?,?,?,?)"},
    };
    int rc = 0;
    for (size_t i = 0; !rc && i < NELEM(STMTS); i++)
        rc = gen_db_prepare(x->db, (sqlite3_stmt **)((char *)x + STMTS[i].off), STMTS[i].sql, e);
    return rc;
}

static void ctx_init(ctx *x, sqlite3 *db, const gen_opts *o)
{
    memset(x, 0, sizeof *x);
    x->db = db;
    x->o = o;
    x->n = gen_scaled(o, 300, 10);
    x->cs = xcalloc((size_t)x->n, sizeof *x->cs);
    gen_strset_init(&x->codes);
    gen_strset_init(&x->titles);
    gn_buf_init(&x->a);
    gn_buf_init(&x->b);
    gn_buf_init(&x->c);
    gn_buf_init(&x->tmp);
    gen_review_set_init(&x->rs);
    areas_init(x);
    x->classic_topics = xcalloc(gen_classic_count, sizeof *x->classic_topics);
    for (size_t i = 0; i < gen_classic_count; i++)
        gen_list_split(&x->classic_topics[i], gen_classic_table[i].topics);
}

static void ctx_release(ctx *x)
{
    sqlite3_finalize(x->ins_course);
    sqlite3_finalize(x->ins_offering);
    sqlite3_finalize(x->ins_rating);
    sqlite3_finalize(x->ins_attr);
    sqlite3_finalize(x->ins_mention);
    areas_free(x);
    for (size_t i = 0; x->classic_topics && i < gen_classic_count; i++) gen_list_free(&x->classic_topics[i]);
    free(x->classic_topics);
    free(x->cs);
    gen_strset_release(&x->codes);
    gen_strset_release(&x->titles);
    gn_buf_release(&x->a);
    gn_buf_release(&x->b);
    gn_buf_release(&x->c);
    gn_buf_release(&x->tmp);
    gen_review_set_release(&x->rs);
}

static int generate(ctx *x, gn_err *e)
{
    const gen_opts *o = x->o;
    long step = x->n / 10 > 0 ? x->n / 10 : 1;
    int rc = gen_db_exec(x->db, "BEGIN", e);
    for (long i = 0; !rc && i < x->n; i++) {
        gen_rng rng;
        gen_rng_seed(&rng, o->seed, GEN_STREAM_COURSE + (uint64_t)i);
        make_course(x, &x->cs[i], i, &rng);
        rc = write_course(x, &x->cs[i], &rng, e);
        if (!rc) rc = write_offerings(x, &x->cs[i], &rng, e);
        if (!rc) rc = write_rating(x, &x->cs[i], &rng, e);
        if (o->progress && ((i + 1) % step == 0 || i + 1 == x->n))
            o->progress(o->progress_ud, "courses", i + 1, x->n);
    }
    if (!rc) rc = gen_programs_write(x->db, x->cs, x->n, e);
    if (!rc) rc = gen_db_exec(x->db, "COMMIT", e);
    return rc;
}

int gen_courses(sqlite3 *db, const gen_opts *o, gn_err *e)
{
    ctx x;
    ctx_init(&x, db, o);
    int rc = create_schema(db, e);
    if (!rc) rc = prepare(&x, e);
    if (!rc) rc = generate(&x, e);
    if (!rc) rc = gen_db_exec(db,
                              "CREATE INDEX offerings_course ON offerings(course_id);"
                              "CREATE INDEX ratings_course ON ratings(course_id);"
                              "CREATE INDEX _truth_course_attrs_av ON _truth_course_attrs(attr, value);"
                              "CREATE INDEX _truth_course_review_attrs_av ON _truth_course_review_attrs(attr, value);"
                              "CREATE INDEX _truth_course_review_attrs_c ON _truth_course_review_attrs(course_id);",
                              e);
    if (!rc) rc = gen_db_write_meta(db, "courses", o->seed, o->scale, e);
    ctx_release(&x);
    return rc;
}
