/*
 * passrank.c — relevance of a row's passages to a question (passrank.h).
 *
 * Terms: the lexical index's terms (rt_lex_terms: the one tokenizer's
 * folded words split at ' - &, stop words dropped, Snowball stems) of
 * llm_offline_query's words of the question (what it asks about, not "is
 * it" or "good"); a passage's terms the same way, so "Crème brûlée?" finds
 * "creme brulee".  At most MAX_TERMS question terms count (a question is short).
 */
#include "suql/passrank.h"

#include "llm/offline.h"
#include "retrieval/lexical.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 16
#define TERM_MAX 64

typedef struct {
    char t[MAX_TERMS][TERM_MAX];
    int n;
    int seen[MAX_TERMS];      /* a passage's scan: which terms it has */
    int collect;              /* 1: add terms; 0: mark the ones seen */
} terms;

/* One term: added (collecting the question's) or marked (scanning). */
static void on_term(const char *t, int len, void *ud)
{
    terms *ts = ud;
    if (len < 1 || len >= TERM_MAX) return;
    for (int i = 0; i < ts->n; i++)
        if (!strcmp(ts->t[i], t)) {
            ts->seen[i] = 1;
            return;
        }
    if (ts->collect && ts->n < MAX_TERMS) memcpy(ts->t[ts->n++], t, (size_t)len + 1);
}

static void question_terms(const char *question, terms *ts)
{
    gn_buf q;
    gn_buf_init(&q);
    llm_offline_query(question, &q);
    memset(ts, 0, sizeof *ts);
    ts->collect = 1;
    rt_lex_terms(q.data ? q.data : question, on_term, ts);
    ts->collect = 0;
    gn_buf_release(&q);
}

static double share(terms *ts, const char *text)
{
    if (!ts->n) return 0;
    memset(ts->seen, 0, sizeof ts->seen);
    rt_lex_terms(text, on_term, ts);
    int k = 0;
    for (int i = 0; i < ts->n; i++) k += ts->seen[i];
    return (double)k / ts->n;
}

double suql_term_share(const char *question, const char *text)
{
    terms ts;
    question_terms(question, &ts);
    return share(&ts, text);
}

/* The vectors of PS into *OUT (n x dim, caller frees): STORED's where
 * HAVE says so, the others embedded (in one call). */
static int passage_vectors(rt_embedder *em, const char *const *ps, int n, const float *stored,
                           const unsigned char *have, float **out, gn_err *e)
{
    if (!stored) return rt_embed_alloc(em, ps, n, out, e);
    int dim = rt_embedder_dim(em), m = 0;
    const char **miss = xcalloc((size_t)n + 1, sizeof *miss);
    for (int i = 0; i < n; i++)
        if (!have[i]) miss[m++] = ps[i];
    float *mv = NULL, *v = xcalloc((size_t)n * (size_t)dim + 1, sizeof *v);
    int rc = m ? rt_embed_alloc(em, miss, m, &mv, e) : 0;
    for (int i = 0, j = 0; !rc && i < n; i++) {
        const float *src = have[i] ? stored + (size_t)i * (size_t)dim : mv + (size_t)(j++) * (size_t)dim;
        memcpy(v + (size_t)i * (size_t)dim, src, sizeof *v * (size_t)dim);
    }
    free(mv);
    free(miss);
    if (rc) {
        free(v);
        return rc;
    }
    *out = v;
    return 0;
}

int suql_passage_scores(rt_embedder *em, const char *question, const char *const *ps, int n,
                        const float *stored, const unsigned char *have, float *score, gn_err *e)
{
    float *v = NULL, *q = NULL;
    const char *qs[1] = { question };
    int rc = passage_vectors(em, ps, n, stored, have, &v, e);
    if (!rc) rc = rt_embed_alloc(em, qs, 1, &q, e);
    if (!rc) {
        int dim = rt_embedder_dim(em);
        terms ts;
        question_terms(question, &ts);
        /* A term weighs less the more of the row's passages have it:
         * "friendly" in six reviews says less of "dog-friendly" than "dog"
         * in two. */
        unsigned char *has = xcalloc((size_t)n * MAX_TERMS + 1, 1);
        int df[MAX_TERMS] = { 0 };
        for (int i = 0; i < n; i++) {
            share(&ts, ps[i]);
            for (int t = 0; t < ts.n; t++) {
                has[(size_t)i * MAX_TERMS + (size_t)t] = (unsigned char)ts.seen[t];
                df[t] += ts.seen[t];
            }
        }
        double wsum = 0, w[MAX_TERMS];
        for (int t = 0; t < ts.n; t++) wsum += w[t] = 1.0 / (1 + df[t]);
        for (int i = 0; i < n; i++) {
            double lex = 0;
            for (int t = 0; t < ts.n; t++) lex += has[(size_t)i * MAX_TERMS + (size_t)t] ? w[t] : 0;
            score[i] = rt_dot(q, v + (size_t)i * (size_t)dim, dim) + (float)(wsum > 0 ? lex / wsum : 0);
        }
        free(has);
    }
    free(v);
    free(q);
    return rc;
}
