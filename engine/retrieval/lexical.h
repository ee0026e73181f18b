/*
 * lexical.h — genie's BM25 postings: the lexical side of hybrid ranking.
 *
 * Own postings rather than SQLite FTS5, because FTS5 spends about 2 µs per
 * matching passage in its SQL machinery, 800 ms a query at 5 million
 * passages, where a flat scan of packed postings spends a few nanoseconds
 * (the retrieval benchmark keeps FTS5, fed with these same terms, as its
 * speed baseline).  Terms: the tokenizer's folded words (tokenize.h) split
 * at ' - &, stop words dropped, stemmed by Snowball (stem.h).  The index
 * records the tokenizer's id (rt_tokenizer_id), so a change of tokenizer
 * or stemmer rebuilds it.  Scoring is Okapi BM25 with k1 = 1.2, b = 0.75,
 * idf = ln(1 + (N - df + 0.5)/(df + 0.5)).
 *
 * File DB.lex (little-endian): a 64-byte header (magic "GNLX0001", build
 * nonce, passages, terms, buckets, postings, average passage length), then
 * u32 bucket[nbuckets] (term index + 1; FNV-1a, linear probing),
 * term[nterms] {u32 stroff, u32 df, u64 first posting}, u16 len[npass]
 * (padded to 8 bytes), posting[npostings] {u32 pid, u32 tf}, strings.
 */
#ifndef GENIE_LEXICAL_H
#define GENIE_LEXICAL_H

#include "util/err.h"

#include <sqlite3.h>
#include <stdint.h>

typedef struct rt_lex rt_lex;

/* Calls fn(term, len, ud) for each term of TEXT, in order, repeats
 * included: what the index holds of a passage and what a query looks up.
 * TERM is NUL-terminated and valid only during the call. */
typedef void (*rt_lex_term_fn)(const char *term, int len, void *ud);
void rt_lex_terms(const char *text, rt_lex_term_fn fn, void *ud);

/* Build DB.lex-format file PATH from genie_passages (all N passages, in id
 * order) with build nonce NONCE.  0 or an error. */
int rt_lex_build(sqlite3 *db, const char *path, long n, uint64_t nonce, gn_err *e);

/* Map PATH; GN_ESTALE when it is missing, damaged or from another build
 * (nonce/npass mismatch).  Close with rt_lex_close. */
int rt_lex_open(const char *path, uint64_t nonce, long npass, rt_lex **out, gn_err *e);
void rt_lex_close(rt_lex *lx);

/* Check the header of PATH only (for freshness checks). */
int rt_lex_check(const char *path, uint64_t nonce, long npass, gn_err *e);

/* Score passages for TEXT.  For each matching passage p with keep(p, ud)
 * true, fn(p, score, ud) is called once with its BM25 score.  Returns the
 * number of query terms found in the vocabulary. */
typedef int (*rt_lex_keep_fn)(long pid, void *ud);
typedef void (*rt_lex_hit_fn)(long pid, float score, void *ud);
int rt_lex_score(rt_lex *lx, const char *text, rt_lex_keep_fn keep, rt_lex_hit_fn fn, void *ud);

#endif
