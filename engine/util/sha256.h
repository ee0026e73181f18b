/*
 * sha256.h — SHA-256 (FIPS 180-4), incremental and one-shot.
 *
 * Used to turn a request into a short, stable key (the response cache keys
 * on the hex digest of what it would send).  Not for secrets: nothing here
 * tries to be constant-time or to wipe memory.
 */
#ifndef GENIE_SHA256_H
#define GENIE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The running state.  Embedded struct: gn_sha256_init, then any number of
 * gn_sha256_update, then gn_sha256_final; it owns no memory. */
typedef struct gn_sha256 {
    uint32_t h[8];             /* chaining value */
    uint64_t nbytes;           /* message length so far */
    unsigned char block[64];   /* a partial block */
    size_t fill;               /* bytes used in block, < 64 */
} gn_sha256;

/* Start a new digest in S (any previous content is discarded). */
void gn_sha256_init(gn_sha256 *s);

/* Append the N bytes at P to the message (P may be NULL when N is 0).
 * Splitting a message across calls anywhere gives the same digest. */
void gn_sha256_update(gn_sha256 *s, const void *p, size_t n);

/* Finish the digest into OUT (32 bytes).  S is then spent: call
 * gn_sha256_init before using it again. */
void gn_sha256_final(gn_sha256 *s, unsigned char out[32]);

/* The digest of the N bytes at P as 64 lowercase hex digits and a NUL. */
void gn_sha256_hex(const void *p, size_t n, char out[65]);

/* gn_sha256_final, written as 64 lowercase hex digits and a NUL. */
void gn_sha256_final_hex(gn_sha256 *s, char out[65]);

#endif
