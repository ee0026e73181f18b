/*
 * md5.h — MD5 (RFC 1321), one-shot.
 *
 * For SUQL's md5(text), which PostgreSQL defines as the hex digest of the
 * text's bytes.  MD5 is broken as a cryptographic hash: nothing in genie
 * relies on it for integrity or secrets (sha256.h is the key hash).
 */
#ifndef GENIE_MD5_H
#define GENIE_MD5_H

#include <stddef.h>

/* The digest of the N bytes at P as 32 lowercase hex digits and a NUL. */
void gn_md5_hex(const void *p, size_t n, char out[33]);

#endif
