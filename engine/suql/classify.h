/*
 * classify.h — CLASSIFY: what a value outside a column's vocabulary means.
 *
 * SUQL overloads `=` on enumerated columns: `price = 'cheap'` compares as
 * usual, but `'coffee' = ANY(cuisines)`, where 'coffee' is no value of the
 * column, means "any of the values that 'coffee' names" ('coffee & tea',
 * 'cafe').  A classifier maps such a term onto the column's values:
 *
 *   1. exact match, ignoring case and surrounding space: that value;
 *   2. otherwise the candidates: for a small vocabulary all values in
 *      their order, for a large one (cuisines across all rows: the "value
 *      memory") the LLM_CLASSIFY_SHORTLIST values most similar to the term
 *      by word vectors and shared words, most similar first;
 *   3. online, the LLM picks among the candidates with the classify prompt
 *      and answers by number; the reply is read by a strict little parser
 *      ("4, 12" or "none"), anything else is an error, never guessed at;
 *   4. offline (no client), the candidates scoring at least
 *      LLM_CLASSIFY_OFFLINE_MIN, at most LLM_CLASSIFY_OFFLINE_MAX of them.
 *
 * A mapping is remembered per (table, column, term) for the life of the
 * classifier, and `--explain` shows what is known (suql_classify_known).
 */
#ifndef GENIE_SUQL_CLASSIFY_H
#define GENIE_SUQL_CLASSIFY_H

#include "llm/client.h"
#include "llm/template.h"
#include "retrieval/embed.h"
#include "store/kb.h"

/* Candidates shown to the LLM for a large vocabulary. */
#define LLM_CLASSIFY_SHORTLIST 40
/* Offline: the least score a value needs, and the most values taken. */
#define LLM_CLASSIFY_OFFLINE_MIN 0.75
#define LLM_CLASSIFY_OFFLINE_MAX 5

typedef struct suql_classifier suql_classifier;

/* A mapping: the values TERM stands for (possibly none). */
typedef struct suql_mapping {
    const char *const *values;  /* nvalues values, owned by the classifier */
    int nvalues;
    int exact;                  /* the term was itself a value */
    int offline;                /* decided by similarity, not by the LLM */
    int asked;                  /* this call asked the LLM (not memoized yet) */
    int cached;                 /* ... and the LLM cache answered */
} suql_mapping;

/* A classifier over the knowledge base DB (a guarded read connection is
 * fine), embedding with EM (required), asking the LLM through CLIENT with
 * the classify prompt TPL (both NULL: offline).  Borrowed pointers must
 * outlive it.  Free with suql_classifier_free. */
suql_classifier *suql_classifier_new(sqlite3 *db, rt_embedder *em, llm_client *client,
                                     const llm_tpl *tpl);
void suql_classifier_free(suql_classifier *k);

/* The vocabulary of column COL of table T: its enum values, else the
 * in their declared order, else the distinct values (array elements for an
 * array column) in sorted order; owned by
 * the classifier (loaded once).  Returns 0 or GN_EDB. */
int suql_column_values(suql_classifier *k, const st_table *t, const st_column *col,
                       const char *const **vals, int *n, gn_err *e);

/* Map TERM for T.COL into *OUT (valid until the classifier is freed).
 * Returns 0; GN_ENET, GN_ECANCEL (the LLM call failed) or GN_EPARSE (its
 * reply was neither numbers in range nor "none"), with the reply quoted in
 * E; or GN_EDB.  Failures are not remembered, so a later call tries again. */
int suql_classify(suql_classifier *k, const st_table *t, const st_column *col,
                  const char *term, suql_mapping *out, gn_err *e);

/* The mapping for T.COL and TERM if it needs no LLM call: one already
 * known, the vocabulary's spelling of a value in another case, or (a
 * classifier without a client) the offline mapping.  Returns 1 and *OUT
 * set, 0 when the LLM would be asked, or -GN_EDB (E set). */
int suql_classify_local(suql_classifier *k, const st_table *t, const st_column *col,
                        const char *term, suql_mapping *out, gn_err *e);

/* The mapping already known for T.COL and TERM, without computing one:
 * 1 and *OUT set, or 0. */
int suql_classify_known(suql_classifier *k, const st_table *t, const st_column *col,
                        const char *term, suql_mapping *out);

/* Parse a classify reply: "none", or numbers 1..N separated by commas or
 * spaces (a trailing period and surrounding space allowed, duplicates
 * dropped); or, as models also write it, that on the last line after a
 * preamble ending in a colon (markdown emphasis dropped), or the chosen
 * values as a numbered list ("2. Winter 2027").  Fills PICKED (capacity
 * N) with 0-based indexes and returns how many, or -1 for anything else. */
int suql_classify_reply(const char *reply, int n, int *picked);

#endif
