/*
 * gen.h — the datasets genie-gen can build, and what they share.
 *
 * A dataset writes its tables, genie_columns rows and ground truth into an
 * open database (created by gen_db_create).  It reports progress through the
 * caller's callback and never prints: only gen_main.c talks to the terminal.
 */
#ifndef GENIE_GEN_H
#define GENIE_GEN_H

#include <sqlite3.h>
#include <stdint.h>

#include "engine/util/err.h"

typedef struct gen_opts {
    double scale;        /* > 0; 1 = the standard sample size */
    uint64_t seed;
    /* Called now and then with rows done so far out of total; may be NULL. */
    void (*progress)(void *ud, const char *what, long done, long total);
    void *progress_ud;
} gen_opts;

/* Number of records for a base count at o->scale: round(base * scale), at
 * least `min`. */
long gen_scaled(const gen_opts *o, long base, long min);

/* Stream numbers for gen_rng_seed, one range per purpose so that no two
 * records ever share a random stream. */
#define GEN_STREAM_REST   (1ull << 40)   /* + restaurant index */
#define GEN_STREAM_COURSE (2ull << 40)   /* + course index */
#define GEN_STREAM_MISC   (3ull << 40)   /* + small constants */

/* The restaurants dataset (SUQL paper schema) and its ground truth. */
int gen_restaurants(sqlite3 *db, const gen_opts *o, gn_err *e);

/* The courses dataset (courses, offerings, ratings, programs) and its
 * ground truth. */
int gen_courses(sqlite3 *db, const gen_opts *o, gn_err *e);

#endif
