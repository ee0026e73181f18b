/*
 * tokenize.h — the one word splitter of every lexical path (BM25 index and
 * queries, the offline embedder, the offline answerer, passage ranking,
 * CLASSIFY), so all of them see the same words.
 */
#ifndef GENIE_TOKENIZE_H
#define GENIE_TOKENIZE_H

/* Calls fn(word, len, ud) for each word of TEXT (UTF-8), folded: lowercase
 * and without diacritics ("Crème" -> "creme", "ß" -> "ss"), in UTF-8.
 * Words are letters and digits of any script, with ' - & kept inside a
 * word when a letter or digit follows (a typographic apostrophe becomes ').
 * Anything else separates words, including bytes that are not well-formed
 * UTF-8.  Words longer than 63 bytes are skipped.  Returns the number of
 * words. */
typedef void (*rt_word_fn)(const char *word, int len, void *ud);
int rt_tokenize(const char *text, rt_word_fn fn, void *ud);

/* 1 if WORD (a tokenizer word) is an English stop word. */
int rt_is_stopword(const char *word, int len);

/* The tokenizer and stemmer's name and version, recorded with a retrieval
 * index so an index built by another one is rebuilt.  Static string. */
const char *rt_tokenizer_id(void);

/* Benchmark only: with ON, rt_tokenize and rt_stem behave as before the
 * Unicode tokenizer (ASCII words, suffix stripping) and rt_tokenizer_id
 * says so.  Process-wide and not synchronized: set it while no other
 * thread tokenizes.  rt_tokenizer_legacy says whether it is on. */
void rt_tokenizer_set_legacy(int on);
int rt_tokenizer_legacy(void);

#endif
