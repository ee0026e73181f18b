/*
 * rng.h — the generator's own pseudo-random numbers (xoshiro256**).
 *
 * Every random choice of genie-gen goes through a gen_rng, never rand() or
 * the clock, so a (seed, scale) pair always yields the same table contents.
 * Independent streams (one per restaurant, per course, ...) are derived from
 * the seed and a stream number, so one record's draws do not shift another's.
 */
#ifndef GENIE_GEN_RNG_H
#define GENIE_GEN_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

/* Seed r from (seed, stream) through splitmix64; any values are valid. */
void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream);

/* Next raw 64-bit value. */
uint64_t gen_rng_next(gen_rng *r);

/* Uniform integer in [0, n); returns 0 when n == 0. */
size_t gen_rng_below(gen_rng *r, size_t n);

/* Uniform integer in [lo, hi] (inclusive); lo when hi < lo. */
int gen_rng_range(gen_rng *r, int lo, int hi);

/* Uniform double in [0, 1). */
double gen_rng_unit(gen_rng *r);

/* 1 with probability p, else 0. */
int gen_rng_chance(gen_rng *r, double p);

/* Normal deviate with the given mean and standard deviation. */
double gen_rng_normal(gen_rng *r, double mean, double sd);

/* Index drawn with probability proportional to w[i] (w[i] >= 0); returns 0
 * when all weights are zero. */
size_t gen_rng_weighted(gen_rng *r, const double *w, size_t n);

/* Fisher-Yates shuffle of n elements of the given size (at most 256 bytes
 * each), in place. */
void gen_rng_shuffle(gen_rng *r, void *base, size_t n, size_t size);

/* Element count of a NULL-terminated string list. */
size_t gen_list_len(const char *const *list);

/* A uniformly chosen element of a NULL-terminated, non-empty string list. */
const char *gen_rng_pick(gen_rng *r, const char *const *list);

/* A uniformly chosen element of an array of n > 0 strings. */
const char *gen_rng_pick_n(gen_rng *r, const char *const *items, size_t n);

#endif
