/*
 * stem.h — the one stemmer of every lexical path: Snowball's English
 * stemmer (libstemmer), applied to tokenizer words (tokenize.h).
 */
#ifndef GENIE_STEM_H
#define GENIE_STEM_H

/* Stem WORD (a tokenizer word: folded UTF-8, LEN bytes) into OUT, which has
 * room for LEN + 1 bytes; returns the stem's length (never more than LEN)
 * and NUL-terminates it.  "running", "runs" and "run" share the stem "run".
 * Safe to call from any thread (each thread has its own stemmer). */
int rt_stem(const char *word, int len, char *out);

#endif
