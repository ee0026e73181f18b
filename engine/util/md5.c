/*
 * md5.c — MD5 after RFC 1321, section 3.
 *
 * One-shot only: the message is compressed block by block from the
 * caller's buffer, and the last one or two blocks (the tail, the 0x80
 * byte, zeros and the bit length) are built on the stack.  Words are
 * read and written little-endian byte by byte, so the code does not
 * depend on the host's byte order or alignment.
 *
 * Rejected: linking a crypto library for a function a query calls on
 * short texts; an incremental interface like sha256.h's (no caller
 * streams into it).
 */
#include "util/md5.h"

#include <stdint.h>
#include <string.h>

/* K[i] = floor(2^32 * |sin(i + 1)|) and the per-round shift amounts. */
static const uint32_t K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static const unsigned S[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };

static uint32_t rotl(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

static uint32_t load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void compress(uint32_t h[4], const unsigned char *block)
{
    uint32_t m[16];
    for (int i = 0; i < 16; i++) m[i] = load_le32(block + 4 * i);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
        }
        uint32_t t = d;
        d = c;
        c = b;
        b += rotl(a + f + K[i] + m[g], S[(i / 16) * 4 + i % 4]);
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
}

void gn_md5_hex(const void *p, size_t n, char out[33])
{
    static const char hex[] = "0123456789abcdef";
    uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
    const unsigned char *s = p;
    size_t full = n / 64 * 64;
    for (size_t i = 0; i < full; i += 64) compress(h, s + i);
    unsigned char tail[128] = { 0 };
    size_t rest = n - full, tn = rest < 56 ? 64 : 128;
    if (rest) memcpy(tail, s + full, rest);
    tail[rest] = 0x80;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++) tail[tn - 8 + i] = (unsigned char)(bits >> (8 * i));
    compress(h, tail);
    if (tn == 128) compress(h, tail + 64);
    for (int i = 0; i < 16; i++) {
        unsigned char byte = (unsigned char)(h[i / 4] >> (8 * (i % 4)));
        out[2 * i] = hex[byte >> 4];
        out[2 * i + 1] = hex[byte & 15];
    }
    out[32] = 0;
}
