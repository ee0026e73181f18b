/*
 * course_voice.c — how one course's students talk: slot values and filler
 * choice for the review composer (review.c).
 *
 * Slots come from the course itself (its topics, code, lecturer, hours), so
 * a review of CS 224N talks about transformers and its lecturer by name.
 * What the assignments are called follows project_based ("projects",
 * "problem sets", or the neutral "assignments" when unknown), so even that
 * word does not leak an unknown value.
 */
#include "course.h"

#include <stdio.h>
#include <string.h>

typedef struct voice {
    const gen_course *c;
    gen_rng *rng;
    int last_topic;
    gen_said said;
    char buf[96];
    gn_buf tmp;
} voice;

static int is(const char *name, size_t len, const char *s)
{
    return strlen(s) == len && !memcmp(name, s, len);
}

static const char *topic(voice *v)
{
    int n = v->c->ntopic;
    int k = (int)gen_rng_below(v->rng, (size_t)n);
    if (k == v->last_topic && n > 1) k = (k + 1) % n;
    v->last_topic = k;
    return v->c->topic[k];
}

static const char *expand_tmp(voice *v, const char *tpl)
{
    gn_buf_reset(&v->tmp);
    gen_tpl_expand(&v->tmp, tpl, v->rng, NULL, NULL);
    return v->tmp.data;
}

static const char *slot(void *ud, const char *name, size_t len)
{
    voice *v = ud;
    const gen_course *c = v->c;
    const gen_area *a = &gen_area_table[c->area];
    if (is(name, len, "topic") || is(name, len, "topic2")) return topic(v);
    if (is(name, len, "code")) return c->codes[0];
    if (is(name, len, "label")) return a->label;
    if (is(name, len, "prof")) {
        /* "Professor Chen" or the full name */
        const char *last = strrchr(c->lecturer, ' ');
        if (last && gen_rng_chance(v->rng, 0.6)) snprintf(v->buf, sizeof v->buf, "Professor %s", last + 1);
        else snprintf(v->buf, sizeof v->buf, "%s", c->lecturer);
        return v->buf;
    }
    if (is(name, len, "hours")) {
        snprintf(v->buf, sizeof v->buf, "%d hours", (int)(c->hours + 0.5));
        return v->buf;
    }
    if (is(name, len, "assign"))
        return c->attr[CA_PROJECT] > 0 ? expand_tmp(v, "[projects|labs|project milestones]")
             : c->attr[CA_PROJECT] < 0 ? "problem sets" : "assignments";
    if (is(name, len, "artifact")) return expand_tmp(v, a->artifact);
    return NULL;
}

static void begin(void *ud, int stars)
{
    voice *v = ud;
    (void)stars;
    v->last_topic = -1;
    v->said.n = 0;
}

static void fill(void *ud, gen_rng *r, int kind, int stars, gn_buf *out)
{
    static const double mood_w[5][3] = {
        {0.0, 0.1, 0.9}, {0.05, 0.4, 0.55}, {0.25, 0.55, 0.2}, {0.75, 0.25, 0}, {0.95, 0.05, 0}};
    voice *v = ud;
    const char *const *list;
    if (kind == GEN_FILL_OPENER) list = gen_cphr_opener;
    else if (kind == GEN_FILL_CLOSER) list = gen_cphr_closer[stars - 1];
    else list = gen_cphr_body[gen_rng_weighted(r, mood_w[stars - 1], 3)];
    gen_tpl_expand(out, gen_pick_fresh(&v->said, r, list), r, slot, v);
}

void gen_course_reviews(const gen_course *c, int n, gen_rng *rng, gen_review_set *s)
{
    voice v = {.c = c, .rng = rng, .last_topic = -1};
    gn_buf_init(&v.tmp);
    gen_review_spec spec = {
        .nreviews = n,
        .nattr = CA_COUNT,
        .value = c->attr,
        .templates = gen_cphr_attr,
        .good = gen_cattr_good,
        .min_mentions = 2,
        .max_mentions = n >= 10 ? 4 : 3,
        .mean_stars = c->rating,
        .begin = begin,
        .fill = fill,
        .slot = slot,
        .ud = &v,
    };
    gen_reviews_compose(&spec, rng, s);
    gn_buf_release(&v.tmp);
}
