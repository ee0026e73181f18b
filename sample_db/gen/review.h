/*
 * review.h — composing a set of reviews from latent attributes.
 *
 * Both datasets write reviews the same way: each entity has, per attribute,
 * a latent value +1, -1 or 0; every non-zero attribute is expressed by a few
 * of the entity's reviews (chosen here and recorded as ground truth), in a
 * paraphrase of the right polarity; the remaining sentences come from the
 * dataset's own filler (food, service, lectures...).  Attributes with value 0
 * are never expressed, so no review leaks them.
 */
#ifndef GENIE_GEN_REVIEW_H
#define GENIE_GEN_REVIEW_H

#include "dbwrite.h"
#include "engine/util/buf.h"
#include "rng.h"
#include "text.h"

#define GEN_MAX_REVIEWS 24
#define GEN_MAX_MENTIONS 128
#define GEN_MAX_SAID 16

/* Kinds of filler sentence asked of the dataset. */
enum { GEN_FILL_OPENER, GEN_FILL_BODY, GEN_FILL_CLOSER };

typedef struct gen_review_spec {
    int nreviews;                 /* 1..GEN_MAX_REVIEWS */
    int nattr;
    const signed char *value;     /* latent value per attribute */
    /* templates[2*a] for value +1, templates[2*a+1] for value -1; each a
     * NULL-terminated list */
    const char *const *const *templates;
    const signed char *good;      /* per attribute: +1 if value +1 is desirable */
    int min_mentions, max_mentions; /* reviews per non-zero attribute */
    double mean_stars;            /* where the reviews' star ratings center */
    /* Called at the start of each review (reset per-review slot state). */
    void (*begin)(void *ud, int stars);
    /* Append one filler sentence of the given kind for a review with the
     * given stars (1..5), unexpanded or expanded as the dataset likes. */
    void (*fill)(void *ud, gen_rng *r, int kind, int stars, gn_buf *out);
    gen_slot_fn slot;             /* for attribute templates */
    void *ud;
} gen_review_spec;

typedef struct gen_mention {
    unsigned char review, attr;
    signed char value;
} gen_mention;

typedef struct gen_review_set {
    int n;
    gn_buf text[GEN_MAX_REVIEWS];
    int stars[GEN_MAX_REVIEWS];
    gen_mention mention[GEN_MAX_MENTIONS];
    int nmention;
} gen_review_set;

/* Filler templates already used in the review being written. */
typedef struct gen_said {
    const char *tpl[GEN_MAX_SAID];
    int n;                        /* set to 0 at the start of each review */
} gen_said;

/* An empty set with its text buffers ready; release frees the buffers. */
void gen_review_set_init(gen_review_set *s);
void gen_review_set_release(gen_review_set *s);

/* Write spec->nreviews reviews into s (previous content is replaced) and
 * record which review expresses which attribute. */
void gen_reviews_compose(const gen_review_spec *spec, gen_rng *r, gen_review_set *s);

/* A template of the NULL-terminated list not yet in said (a few tries,
 * then any), remembered in said while there is room.  Returns a pointer
 * into list. */
const char *gen_pick_fresh(gen_said *said, gen_rng *r, const char *const *list);

/* Ground truth through ins, a prepared INSERT taking (id, attr, value):
 * one row per non-zero value[a], attr named names[a].  Returns 0 or the
 * first gen_db_run error. */
int gen_review_write_attrs(sqlite3 *db, sqlite3_stmt *ins, int64_t id, const signed char *value,
                           int nattr, const char *const *names, gn_err *e);

/* Ground truth through ins, a prepared INSERT taking (id, review_idx,
 * attr, value): one row per mention in s, attr named names[attr].
 * Returns 0 or the first gen_db_run error. */
int gen_review_write_mentions(sqlite3 *db, sqlite3_stmt *ins, int64_t id, const gen_review_set *s,
                              const char *const *names, gn_err *e);

#endif
