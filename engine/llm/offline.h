/*
 * offline.h — what SUQL's free-text functions do when no LLM is configured.
 *
 * answer(text, 'question') becomes extractive answering: the sentences of
 * the row's passages are ranked against the question and the best one or
 * two are returned verbatim.  answer(...) = 'Yes' used as a filter becomes
 * a similarity test (llm_offline_match).  summary(text) becomes an
 * extractive summary: central sentences picked with Maximal Marginal
 * Relevance.  Everything runs on an rt_embedder (embed.h), normally the
 * offline GloVe one; nothing here talks to a network unless the embedder
 * does.  When the passages hold nothing relevant the result is
 * LLM_OFFLINE_NO_INFO, the marker the LLM's answer and summary prompts use.
 *
 * Scoring of a sentence S against a question:
 *
 *   sim(S) = 0.3 * cos(E(q), E(S)) + 0.7 * min_w cos(E(w), E(S))
 *            + 0.3 * overlap(q, S)
 *
 * where q is the question rewritten as a statement-like query
 * (llm_offline_query: "does it have outdoor seating?" -> "outdoor
 * seating"), w ranges over the content words of q embedded one by one (for
 * a one-word q the min is the first cosine again), E is the embedder, and
 * overlap the fraction of q's content words whose stem (the retrieval
 * stemmer's, cut to 5 bytes: "kids" -> "kid", "parking" -> "park",
 * "romantic" -> "roman") occurs in S.  The min term asks that every
 * word of the question be present in meaning: the mean vector of a short
 * query is carried by any one of its words, and "happy hour" alone scored
 * "we waited over an hour" 0.93.  llm_offline_match also subtracts 0.2 from
 * sentences whose negation ("not", "no", "n't", "never", ...) differs from
 * the question's, so "not the place for a romantic evening" does not make a
 * row romantic; llm_offline_answer does not, because such a sentence is the
 * right evidence to show.  Scores are not bounded by 1.
 *
 * Thresholds, for the offline GloVe embedder (another embedder has another
 * scale of cosines and needs its own).  Measured on the sample restaurants
 * (genie-gen restaurants --seed 1 --scale 0.05: 90 rows of 20 reviews; held
 * out: --seed 2 --scale 0.1, 180 rows) with 13 yes/no questions, one per
 * latent attribute ("is it romantic?", "is it good for kids?", "does it have
 * outdoor seating?", ...), against _truth_restaurant_attrs:
 *
 *   llm_offline_match at LLM_OFFLINE_THRESHOLD 0.88, a row being a "Yes"
 *   when its value is +1 (the best F1 of the 0.70..1.00 sweep on both sets):
 *     tuning    precision 0.83  recall 0.63  F1 0.72
 *     held out  precision 0.83  recall 0.59  F1 0.69
 *   (the cosine of the rewritten question alone: best F1 0.45)
 *   llm_offline_answer at LLM_OFFLINE_ANSWER_THRESHOLD 0.80, an answer
 *   other than "no info" being right when the row mentions the attribute
 *   either way (+1 or -1):
 *     tuning    precision 0.79  recall 0.67  F1 0.73
 *     held out  precision 0.78  recall 0.64  F1 0.70
 *
 * Recall is lowest where the reviews paraphrase without the question's
 * words (noisy: "so loud we had to shout", 0.17; romantic: "took my
 * partner here for our anniversary", 0.27): averaged word vectors do not
 * bridge that.  The unit test offline_threshold_on_sample_restaurants
 * keeps these numbers from regressing; run it with GENIE_MEASURE=1 to print
 * the sweep and the per-question figures.
 */
#ifndef GENIE_OFFLINE_H
#define GENIE_OFFLINE_H

#include "retrieval/embed.h"
#include "util/buf.h"
#include "util/err.h"

#include <stddef.h>

/* What the fallbacks write when the passages say nothing relevant. */
#define LLM_OFFLINE_NO_INFO "no info"
/* Longest sentence in bytes; longer ones are cut at a word boundary. */
#define LLM_OFFLINE_SENT_MAX 300
/* Default thresholds of llm_offline_match and llm_offline_answer, for the
 * offline GloVe embedder (measured: see above). */
#define LLM_OFFLINE_THRESHOLD 0.88
#define LLM_OFFLINE_ANSWER_THRESHOLD 0.80
/* Summary length used when llm_offline_summary is given max_chars 0. */
#define LLM_OFFLINE_SUMMARY_MAX 400

/* Called once per sentence: START points into the text given to
 * llm_offline_sentences (not NUL-terminated), LEN > 0 bytes, with no
 * leading or trailing white space. */
typedef void (*llm_sentence_fn)(const char *start, size_t len, void *ud);

/* Split TEXT into sentences and call fn for each, in order.  A sentence
 * ends at '.', '!' or '?' (runs such as "?!" or "..." and closing quotes or
 * brackets stay with it) followed by white space or the end, and at every
 * line break.  A period does not end a sentence after a title ("Dr.",
 * "Mr.", "St.", ...), after "e.g." / "i.e." / "vs." / "approx.", after a
 * single capital initial ("J. Smith"), or after "etc." and dotted
 * abbreviations ("p.m.", "U.S.") unless the next word is capitalized; a
 * decimal point ("4.5") never does.  A sentence longer than MAX_LEN bytes
 * (0: LLM_OFFLINE_SENT_MAX) is cut after its last "; " in the second
 * half of the limit, else at its last space within it (hard, at a UTF-8
 * boundary, when there is none) and the rest continues as a new
 * sentence.  Pieces without a letter or digit are dropped.
 * Returns the number of sentences. */
int llm_offline_sentences(const char *text, size_t max_len, llm_sentence_fn fn, void *ud);

/* Write into OUT (replacing its content) QUESTION rewritten as a
 * statement-like query: its lowercase words (rt_tokenize) minus stop words
 * and the words a question is made of rather than what it asks about --
 * interrogatives and auxiliaries ("is", "does", "there"), request verbs and
 * container nouns ("serve", "take", "options") and the evaluations every
 * review is full of ("good", "nice") -- in order, separated by single
 * spaces: "does it have outdoor seating?" -> "outdoor seating", "is it good
 * for kids?" -> "kids".  Negations ("not", "no") are kept.  When nothing is
 * left, OUT is the question unchanged. */
void llm_offline_query(const char *question, gn_buf *out);

/* Extractive answer to QUESTION from the N passages (NULL entries are
 * skipped).  Writes into OUT (replacing its content) the best sentence, plus
 * the runner-up when it also reaches THRESHOLD, scores within 0.05 of the
 * best, is not a near duplicate of it (same words, or cosine >= 0.95) and
 * fits in LLM_OFFLINE_SENT_MAX bytes together with it; the two are joined by
 * a space in passage order.  When no sentence reaches THRESHOLD (normally
 * LLM_OFFLINE_ANSWER_THRESHOLD), or there is no sentence at all, OUT is
 * LLM_OFFLINE_NO_INFO.  *BEST (may be NULL) receives the top score (0 when
 * there is no sentence).  Returns 0, or GN_EUSAGE for a NULL embedder or
 * question or a negative N, or the embedder's error (OUT is then empty). */
int llm_offline_answer(rt_embedder *em, const char *question, const char *const *passages,
                       int n, double threshold, gn_buf *out, double *best, gn_err *e);

/* The filter fallback of answer(text, 'yes/no question') = 'Yes': returns
 * 1 when some sentence of the N passages scores >= THRESHOLD (normally
 * LLM_OFFLINE_THRESHOLD) against QUESTION, with the negation penalty
 * described above; 0 when none does or there is no sentence; -1 on error,
 * with the detail in E (GN_EUSAGE for a NULL embedder or question or a
 * negative N, or the embedder's error).  The status is not a GN_E* code
 * because GN_EUSAGE is 1, which would read as a match.  *BEST (may be NULL)
 * receives the top score (0 when there is no sentence). */
int llm_offline_match(rt_embedder *em, const char *question, const char *const *passages,
                      int n, double threshold, double *best, gn_err *e);

/* Extractive summary of the N passages into OUT (replacing its content).
 * One passage (a description) gives its sentences in order, each that
 * still fits in MAX_CHARS bytes.  Of several (reviews), each sentence is
 * scored by centrality (cosine to the normalized mean of
 * all sentence vectors, which orders sentences like their mean similarity
 * to all others); sentences are then picked greedily by Maximal Marginal
 * Relevance, 0.7 * centrality - 0.3 * (highest cosine to a sentence already
 * picked), skipping near duplicates (same words, or cosine >= 0.95) and
 * sentences that no longer fit, until nothing fits in MAX_CHARS bytes
 * (0: LLM_OFFLINE_SUMMARY_MAX).  The picked sentences are written in pick
 * order, joined by a space (" … " after a piece cut from a longer
 * sentence); ties go to the earlier sentence, so the result
 * is deterministic for a given embedder.  When every sentence is longer
 * than MAX_CHARS, the most central one is cut at a word boundary and ends
 * in "..." (within MAX_CHARS).
 * LLM_OFFLINE_NO_INFO when there is no sentence (whatever MAX_CHARS).
 * Returns 0, GN_EUSAGE for a NULL embedder or a negative N, or the
 * embedder's error (OUT is then empty). */
int llm_offline_summary(rt_embedder *em, const char *const *passages, int n, size_t max_chars,
                        gn_buf *out, gn_err *e);

#endif
