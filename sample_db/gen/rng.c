/*
 * rng.c — xoshiro256** seeded by splitmix64 (Blackman & Vigna).
 *
 * Chosen over rand()/random() because those differ between C libraries and
 * share one global state; xoshiro is tiny, fast and has no bad low bits.
 * Bounded integers use the multiply-high method on the top 53 bits: the
 * residual bias (n / 2^53) is far below anything a sample database notices,
 * and it keeps the draw count per call fixed, which keeps streams aligned.
 */
#include "rng.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull) ^ 0x6A09E667F3BCC909ull;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    /* An all-zero state would be a fixed point; splitmix cannot produce four
     * zeros in a row, but be explicit about the invariant. */
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

uint64_t gen_rng_next(gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double gen_rng_unit(gen_rng *r)
{
    return (double)(gen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

size_t gen_rng_below(gen_rng *r, size_t n)
{
    if (n == 0) return 0;
    size_t v = (size_t)(gen_rng_unit(r) * (double)n);
    return v < n ? v : n - 1;
}

int gen_rng_range(gen_rng *r, int lo, int hi)
{
    if (hi < lo) return lo;
    return lo + (int)gen_rng_below(r, (size_t)(hi - lo) + 1);
}

int gen_rng_chance(gen_rng *r, double p) { return gen_rng_unit(r) < p; }

double gen_rng_normal(gen_rng *r, double mean, double sd)
{
    /* Box-Muller, one value per call: two draws always, so the stream
     * position does not depend on cached state. */
    double u1 = gen_rng_unit(r), u2 = gen_rng_unit(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return mean + sd * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

size_t gen_rng_weighted(gen_rng *r, const double *w, size_t n)
{
    double total = 0;
    for (size_t i = 0; i < n; i++) total += w[i];
    if (total <= 0) return 0;
    double x = gen_rng_unit(r) * total;
    for (size_t i = 0; i < n; i++) {
        if (x < w[i]) return i;
        x -= w[i];
    }
    /* Rounding can leave x just past the end: return the last positive. */
    for (size_t i = n; i-- > 0;)
        if (w[i] > 0) return i;
    return 0;
}

void gen_rng_shuffle(gen_rng *r, void *base, size_t n, size_t size)
{
    unsigned char *p = base, tmp[256];
    if (size > sizeof tmp) return;
    for (size_t i = n; i > 1; i--) {
        size_t j = gen_rng_below(r, i);
        if (j == i - 1) continue;
        memcpy(tmp, p + (i - 1) * size, size);
        memcpy(p + (i - 1) * size, p + j * size, size);
        memcpy(p + j * size, tmp, size);
    }
}

size_t gen_list_len(const char *const *list)
{
    size_t n = 0;
    while (list[n]) n++;
    return n;
}

const char *gen_rng_pick(gen_rng *r, const char *const *list)
{
    return list[gen_rng_below(r, gen_list_len(list))];
}

const char *gen_rng_pick_n(gen_rng *r, const char *const *items, size_t n)
{
    return items[gen_rng_below(r, n)];
}
