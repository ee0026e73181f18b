/*
 * sha256.c — SHA-256 after FIPS 180-4, section 6.2.
 *
 * Invariant: s->fill < 64 between calls; a full block is compressed as soon
 * as it is complete, and whole blocks in the caller's buffer are compressed
 * in place without copying.  Words are read and written big-endian byte by
 * byte, so the code does not depend on the host's byte order or alignment.
 *
 * Rejected: linking a crypto library (OpenSSL, libsodium) for one hash of a
 * few kilobytes per request; unrolled or SIMD variants (the digest is not on
 * any hot path).
 */
#include "util/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One 64-byte block into the chaining value (FIPS 180-4, 6.2.2). */
static void compress(uint32_t h[8], const unsigned char *blk)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++) w[t] = load_be32(blk + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g))
                      + K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

void gn_sha256_init(gn_sha256 *s)
{
    static const uint32_t H0[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(s->h, H0, sizeof H0);
    s->nbytes = 0;
    s->fill = 0;
}

void gn_sha256_update(gn_sha256 *s, const void *p, size_t n)
{
    const unsigned char *in = p;
    if (!n) return;   /* P may then be NULL, which memcpy does not allow */
    s->nbytes += n;
    if (s->fill) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->block + s->fill, in, take);
        s->fill += take;
        in += take;
        n -= take;
        if (s->fill < 64) return;
        compress(s->h, s->block);
        s->fill = 0;
    }
    for (; n >= 64; in += 64, n -= 64) compress(s->h, in);
    if (n) memcpy(s->block, in, n);
    s->fill = n;
}

void gn_sha256_final(gn_sha256 *s, unsigned char out[32])
{
    uint64_t bits = s->nbytes * 8;
    /* Padding: 0x80, zeros up to 56 mod 64, then the bit length big-endian;
     * when fewer than 9 bytes are left in this block the length spills into
     * one more. */
    s->block[s->fill++] = 0x80;
    if (s->fill > 56) {
        memset(s->block + s->fill, 0, 64 - s->fill);
        compress(s->h, s->block);
        s->fill = 0;
    }
    memset(s->block + s->fill, 0, 56 - s->fill);
    store_be32(s->block + 56, (uint32_t)(bits >> 32));
    store_be32(s->block + 60, (uint32_t)bits);
    compress(s->h, s->block);
    for (int i = 0; i < 8; i++) store_be32(out + 4 * i, s->h[i]);
}

void gn_sha256_final_hex(gn_sha256 *s, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char d[32];
    gn_sha256_final(s, d);
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = 0;
}

void gn_sha256_hex(const void *p, size_t n, char out[65])
{
    gn_sha256 s;
    gn_sha256_init(&s);
    gn_sha256_update(&s, p, n);
    gn_sha256_final_hex(&s, out);
}
