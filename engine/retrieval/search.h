/*
 * search.h — hybrid ranking of rows by free-text constraints.
 *
 * For each constraint (a query text over one free-text column, or all of the
 * table's) two rankings of rows are made: dense (cosine similarity of the
 * query vector with the row's best passage) and lexical (BM25 of the row's
 * best passage over genie's own postings, lexical.h).  They are fused by weighted reciprocal rank fusion:
 *     fused_c(row) = w / (K + rank_dense) + (1 - w) / (K + rank_bm25)
 * (a term is 0 when the row is absent from that ranking; defaults K = 60,
 * w = 0.5).  With several constraints a row's score is the SUQL paper's
 * aggregate: the sum over constraints of its per-constraint score.  When the
 * caller passes candidate rows (those that passed the structured filters)
 * only they are ranked.
 */
#ifndef GENIE_SEARCH_H
#define GENIE_SEARCH_H

#include "retrieval/index.h"

#define RT_MAXCONS 8

enum rt_mode { RT_HYBRID, RT_DENSE, RT_BM25 };

typedef struct rt_constraint {
    const char *col;      /* free-text column, or NULL for all of the table's */
    const char *text;     /* the query */
} rt_constraint;

typedef struct rt_query {
    const char *tbl;
    const rt_constraint *cons;
    int ncons;                 /* 1..RT_MAXCONS */
    const int64_t *cand;       /* candidate row ids (any order, duplicates ok) */
    long ncand;
    int restrict_cand;         /* 1: rank only cand (even if ncand is 0) */
    int k;                     /* rows wanted */
    enum rt_mode mode;
    /* Settings a benchmark varies (0: the defaults) */
    int exact;                 /* 1: the dense ranking by an exact scan
                                  whatever the size (the reference recall
                                  is measured against) */
    int depth_min;             /* rows each ranking gives the fusion, at
                                  least (4 k when more); 0: RT_DEPTH_MIN */
    double breadth;            /* passages the approximate search asks for
                                  first, per row a ranking needs (search.c);
                                  0: RT_BREADTH */
} rt_query;

/* Rows a ranking gives the fusion at least, and the approximate search's
 * first breadth in passages per such row (search.c). */
#define RT_DEPTH_MIN 100
#define RT_BREADTH 8.0

typedef struct rt_hit {
    int64_t row_id;
    double score;              /* fused aggregate score, higher is better */
    int64_t pid[RT_MAXCONS];   /* best passage per constraint, -1 if none */
    float sim[RT_MAXCONS];     /* cosine similarity of that passage */
} rt_hit;

/* Rank rows; *out (caller frees) gets at most k hits, best first (ties by
 * row id).  Errors: GN_ENOTFOUND for a table or column without free text,
 * GN_EUSAGE for a bad query, GN_EDB. */
int rt_search(rt_index *ix, const rt_query *q, rt_hit **out, int *nout, gn_err *e);

/* The stored vectors of the passages of row ROW in TBL.COL, for the N
 * texts PS (the elements of the row's value): where a passage holds
 * exactly the text PS[i] (an element short enough to be one passage),
 * VEC + i * dim gets its vector and HAVE[i] is 1; elsewhere HAVE[i] is 0
 * (an element cut into chunks, a text the index has not seen: the caller
 * embeds it).  VEC holds DIM floats a text.  The texts are compared, so a
 * row changed since the index was built gets no stale vector.  Returns 0,
 * GN_ENOTFOUND for a column the index does not hold, GN_ESTALE when its
 * vectors are not DIM long, or the index's error. */
int rt_row_vectors(rt_index *ix, const char *tbl, const char *col, int64_t row,
                   const char *const *ps, int n, int dim, float *vec, unsigned char *have,
                   gn_err *e);

/* Text, table and column of passage PID (caller frees each; NULL args
 * skipped).  GN_ENOTFOUND if there is no such passage. */
int rt_passage(rt_index *ix, int64_t pid, char **text, char **tbl, char **col, gn_err *e);

#endif
