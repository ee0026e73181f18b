/*
 * utf8.h — checking and repairing UTF-8.
 *
 * Text from outside (the user's input, a model's reply, a database's
 * rows, a data file) may hold bytes that are not UTF-8; JSON, the sessions
 * file and the requests genie sends must not.  Repair replaces each byte
 * that does not start a well-formed sequence (overlong forms, surrogates
 * and code points past U+10FFFF are not well-formed) with U+FFFD, as the
 * Unicode standard's "maximal subpart" practice does byte by byte.
 */
#ifndef GENIE_UTF8_H
#define GENIE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define GN_UTF8_BAD 0xFFFFFFFFu

/* Whether the N bytes at S are well-formed UTF-8 without a NUL byte. */
int gn_utf8_valid(const char *s, size_t n);

/* The N bytes at S with every ill-formed byte replaced by U+FFFD (NUL
 * bytes too), NUL-terminated; caller frees.  *CHANGED (may be NULL) says
 * whether anything was replaced. */
char *gn_utf8_fix(const char *s, size_t n, int *changed);

/* The code point at S (NUL-terminated, *S != 0) into *CP and its length in
 * bytes; a byte that does not start a well-formed sequence gives
 * GN_UTF8_BAD and length 1.  Never reads past the terminating NUL. */
int gn_utf8_next(const char *s, uint32_t *cp);

/* Code point CP (at most U+10FFFF) as UTF-8 into OUT (room for 4 bytes);
 * returns its length, 1 to 4. */
int gn_utf8_put(uint32_t cp, char *out);

#endif
