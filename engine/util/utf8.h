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

/* Whether the N bytes at S are well-formed UTF-8 without a NUL byte. */
int gn_utf8_valid(const char *s, size_t n);

/* The N bytes at S with every ill-formed byte replaced by U+FFFD (NUL
 * bytes too), NUL-terminated; caller frees.  *CHANGED (may be NULL) says
 * whether anything was replaced. */
char *gn_utf8_fix(const char *s, size_t n, int *changed);

#endif
