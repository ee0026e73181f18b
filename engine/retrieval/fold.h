/*
 * fold.h — the tokenizer's view of one code point: a separator, a mark to
 * drop, or a word character and its folded form (lowercase, without
 * diacritics: 'É' -> "e", 'ß' -> "ss", 'Æ' -> "ae", 'Σ' -> "σ").
 */
#ifndef GENIE_FOLD_H
#define GENIE_FOLD_H

#include <stdint.h>

/* Writes the folded UTF-8 form of CP to OUT (room for 4 bytes) and returns
 * its length (1..4); 0 for a combining mark (part of a word, adds nothing);
 * -1 for a code point that separates words (spaces, punctuation, symbols,
 * controls, surrogates, private use). */
int rt_fold_cp(uint32_t cp, char *out);

#endif
