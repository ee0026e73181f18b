/*
 * review.c — the review composer shared by the restaurant and course data.
 *
 * Invariants: a review mentions an attribute only if the entity's latent
 * value is non-zero, and then only with that value's polarity; every mention
 * is recorded in s->mention.  Mentions are spread over the reviews that have
 * the fewest so far, so no single review turns into a checklist.  Sentence
 * order is shuffled between an optional opener and closer, and an attribute
 * sentence that goes against the review's overall mood gets a connector
 * ("Only complaint: ...", "On the plus side, ...") so the text reads as one
 * person's opinion.  Rejected: one template per whole review (too few
 * distinct texts; retrieval would learn the templates, not the meaning).
 * The datasets' voices share gen_pick_fresh so a review does not repeat a
 * filler, and both write their ground truth rows through the same helpers.
 */
#include "review.h"

#include <math.h>
#include <string.h>

void gen_review_set_init(gen_review_set *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < GEN_MAX_REVIEWS; i++) gn_buf_init(&s->text[i]);
}

void gen_review_set_release(gen_review_set *s)
{
    for (int i = 0; i < GEN_MAX_REVIEWS; i++) gn_buf_release(&s->text[i]);
}

/* Choose, for every non-zero attribute, which reviews express it: the k
 * reviews with the lowest load, ties broken by a fresh shuffle. */
static void assign_mentions(const gen_review_spec *sp, gen_rng *r, gen_review_set *s)
{
    int load[GEN_MAX_REVIEWS] = {0};
    s->nmention = 0;
    for (int a = 0; a < sp->nattr; a++) {
        if (!sp->value[a]) continue;
        int k = gen_rng_range(r, sp->min_mentions, sp->max_mentions);
        if (k > sp->nreviews) k = sp->nreviews;
        int order[GEN_MAX_REVIEWS];
        for (int i = 0; i < sp->nreviews; i++) order[i] = i;
        gen_rng_shuffle(r, order, (size_t)sp->nreviews, sizeof order[0]);
        /* insertion sort by load keeps the shuffled order among equals */
        for (int i = 1; i < sp->nreviews; i++) {
            int v = order[i], j = i;
            while (j > 0 && load[order[j - 1]] > load[v]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = v;
        }
        for (int i = 0; i < k && s->nmention < GEN_MAX_MENTIONS; i++) {
            gen_mention *m = &s->mention[s->nmention++];
            m->review = (unsigned char)order[i];
            m->attr = (unsigned char)a;
            m->value = sp->value[a];
            load[order[i]]++;
        }
    }
}

static int clamp_stars(double x)
{
    int s = (int)lround(x);
    return s < 1 ? 1 : s > 5 ? 5 : s;
}

/* How many sentences a review has before attribute mentions force more. */
static int draw_length(gen_rng *r)
{
    static const double w[] = {0.14, 0.34, 0.32, 0.20};
    return 1 + (int)gen_rng_weighted(r, w, 4);
}

static const char *const CONN_AGAINST_GOOD[] = {  /* a bright spot in a bad review */
    "On the plus side, ", "To be fair, ", "The one bright spot: ", "I'll give them this: ", NULL};
static const char *const CONN_AGAINST_BAD[] = {   /* a drawback in a good review */
    "Only complaint: ", "Fair warning: ", "Heads up: ", "One gripe: ", "That said, ",
    "The only downside: ", NULL};
static const char *const CONN_PLAIN[] = {"Also, ", "Oh, and ", "And ", "Note that ", NULL};

/* One attribute sentence, with a connector when it is not the first. */
static void attr_sentence(const gen_review_spec *sp, gen_rng *r, const gen_mention *m,
                          int stars, int first, gn_buf *out)
{
    const char *const *tpl = sp->templates[2 * m->attr + (m->value < 0)];
    int good = m->value * sp->good[m->attr] > 0;
    size_t start = out->len;
    const char *conn = NULL;
    if (!first) {
        if (good && stars <= 2 && gen_rng_chance(r, 0.6)) conn = gen_rng_pick(r, CONN_AGAINST_GOOD);
        else if (!good && stars >= 4 && gen_rng_chance(r, 0.5)) conn = gen_rng_pick(r, CONN_AGAINST_BAD);
        else if (gen_rng_chance(r, 0.12)) conn = gen_rng_pick(r, CONN_PLAIN);
    }
    if (conn) gn_buf_puts(out, conn);
    size_t body = out->len;
    gen_tpl_expand(out, gen_rng_pick(r, tpl), r, sp->slot, sp->ud);
    gen_capitalize_at(out, conn ? start : body);
}

enum { PART_OPENER, PART_ATTR, PART_BODY, PART_CLOSER };

static void compose_one(const gen_review_spec *sp, gen_rng *r, gen_review_set *s, int j)
{
    int stars = clamp_stars(gen_rng_normal(r, sp->mean_stars, 0.85));
    s->stars[j] = stars;
    gn_buf *out = &s->text[j];
    gn_buf_reset(out);
    if (sp->begin) sp->begin(sp->ud, stars);

    int mine[GEN_MAX_MENTIONS], nm = 0;
    for (int i = 0; i < s->nmention; i++)
        if (s->mention[i].review == j) mine[nm++] = i;

    int n = draw_length(r);
    if (n < nm) n = nm;
    if (n == nm && n < 4 && gen_rng_chance(r, 0.6)) n++;
    int free_slots = n - nm;
    int opener = free_slots >= 2 && gen_rng_chance(r, 0.35);
    int closer = free_slots - opener >= 2 && gen_rng_chance(r, 0.4);
    int nbody = free_slots - opener - closer;

    /* parts[] holds PART_ATTR + mention index * 4, or a plain part kind */
    int parts[GEN_MAX_MENTIONS + 8], np = 0;
    for (int i = 0; i < nm; i++) parts[np++] = PART_ATTR + 4 * mine[i];
    for (int i = 0; i < nbody; i++) parts[np++] = PART_BODY;
    gen_rng_shuffle(r, parts, (size_t)np, sizeof parts[0]);

    int first = 1;
    if (opener) {
        size_t at = out->len;
        sp->fill(sp->ud, r, GEN_FILL_OPENER, stars, out);
        gen_capitalize_at(out, at);
        first = 0;
    }
    for (int i = 0; i < np; i++) {
        if (!first) gn_buf_putc(out, ' ');
        size_t at = out->len;
        if ((parts[i] & 3) == PART_ATTR) {
            attr_sentence(sp, r, &s->mention[parts[i] >> 2], stars, first, out);
        } else {
            sp->fill(sp->ud, r, GEN_FILL_BODY, stars, out);
            gen_capitalize_at(out, at);
        }
        first = 0;
    }
    if (closer) {
        gn_buf_putc(out, ' ');
        size_t at = out->len;
        sp->fill(sp->ud, r, GEN_FILL_CLOSER, stars, out);
        gen_capitalize_at(out, at);
    }
}

void gen_reviews_compose(const gen_review_spec *sp, gen_rng *r, gen_review_set *s)
{
    s->n = sp->nreviews;
    assign_mentions(sp, r, s);
    for (int j = 0; j < sp->nreviews; j++) compose_one(sp, r, s, j);
}

const char *gen_pick_fresh(gen_said *said, gen_rng *r, const char *const *list)
{
    const char *t = gen_rng_pick(r, list);
    for (int tries = 0; tries < 6; tries++) {
        int seen = 0;
        for (int i = 0; i < said->n; i++) seen |= said->tpl[i] == t;
        if (!seen) break;
        t = gen_rng_pick(r, list);
    }
    if (said->n < GEN_MAX_SAID) said->tpl[said->n++] = t;
    return t;
}

int gen_review_write_attrs(sqlite3 *db, sqlite3_stmt *ins, int64_t id, const signed char *value,
                           int nattr, const char *const *names, gn_err *e)
{
    int rc = 0;
    for (int a = 0; !rc && a < nattr; a++) {
        if (!value[a]) continue;
        gen_db_bind_int(ins, 1, id);
        gen_db_bind_text(ins, 2, names[a]);
        gen_db_bind_int(ins, 3, value[a]);
        rc = gen_db_run(db, ins, e);
    }
    return rc;
}

int gen_review_write_mentions(sqlite3 *db, sqlite3_stmt *ins, int64_t id, const gen_review_set *s,
                              const char *const *names, gn_err *e)
{
    int rc = 0;
    for (int i = 0; !rc && i < s->nmention; i++) {
        const gen_mention *m = &s->mention[i];
        gen_db_bind_int(ins, 1, id);
        gen_db_bind_int(ins, 2, m->review);
        gen_db_bind_text(ins, 3, names[m->attr]);
        gen_db_bind_int(ins, 4, m->value);
        rc = gen_db_run(db, ins, e);
    }
    return rc;
}
