/*
 * tokenize.h — the word splitter shared by the offline embedder and the BM25
 * query builder, so both see the same words.
 */
#ifndef GENIE_TOKENIZE_H
#define GENIE_TOKENIZE_H

/* Calls fn(word, len, ud) for each lowercase word of TEXT (ASCII letters and
 * digits, with ' - & kept inside a word; other bytes, including non-ASCII,
 * separate words).  Words longer than 63 bytes are skipped.  Returns the
 * number of words. */
typedef void (*rt_word_fn)(const char *word, int len, void *ud);
int rt_tokenize(const char *text, rt_word_fn fn, void *ud);

/* 1 if WORD (lowercase) is an English stop word. */
int rt_is_stopword(const char *word, int len);

#endif
