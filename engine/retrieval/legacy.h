/*
 * legacy.h — the ASCII tokenizer and suffix-stripping stemmer genie used
 * before the Unicode tokenizer and Snowball, kept only so the retrieval
 * benchmark can measure against them in the same process
 * (rt_tokenizer_set_legacy).  Nothing else may call these.
 */
#ifndef GENIE_LEGACY_H
#define GENIE_LEGACY_H

#include "tokenize.h"

/* rt_tokenize as it was: ASCII letters and digits, lowercased; every other
 * byte, including each byte of a non-ASCII character, separates words. */
int rt_legacy_tokenize(const char *text, rt_word_fn fn, void *ud);

/* rt_stem as it was: plural, -ing and -ed endings stripped.  OUT has room
 * for len + 1 bytes; returns the stem's length. */
int rt_legacy_stem(const char *word, int len, char *out);

#endif
