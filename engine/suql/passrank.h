/*
 * passrank.h — which of a row's passages a free-text prompt shows.
 *
 * A row may hold twenty reviews; a prompt shows the few most relevant to
 * its question (freetext.c).  Relevance is the passage's vector similarity
 * to the question plus the share of the question's terms the passage
 * contains (the lexical index's terms: words split at ' - &, stop words
 * and the words every question is made of dropped, stemmed), a term
 * weighing less the more of the row's passages have it.  Similarity
 * alone misses the obvious: word vectors of a whole review about the
 * atmosphere sit nearer "is it dog-friendly?" than a review that says
 * "they brought our dog a bowl of water".
 */
#ifndef GENIE_SUQL_PASSRANK_H
#define GENIE_SUQL_PASSRANK_H

#include "retrieval/embed.h"
#include "util/err.h"

/* SCORE[i] for each of the N passages PS: cosine similarity to QUESTION
 * plus the weighted share (0..1) of the question's terms in the passage,
 * a term weighing 1 / (1 + the passages of PS that have it).  STORED (may
 * be NULL) holds the passages' vectors where HAVE[i] is 1 (the retrieval
 * index's, rt_row_vectors): only the others are embedded.  Returns 0 or
 * the embedder's error. */
int suql_passage_scores(rt_embedder *em, const char *question, const char *const *ps, int n,
                        const float *stored, const unsigned char *have, float *score, gn_err *e);

/* The share (0..1) of QUESTION's terms that TEXT contains; 0 when the
 * question has none. */
double suql_term_share(const char *question, const char *text);

#endif
