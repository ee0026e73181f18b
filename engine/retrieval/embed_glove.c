/*
 * embed_glove.c — the offline embedder: a weighted mean of GloVe word vectors.
 *
 * Weighting (smooth inverse frequency, Arora et al. 2017): a word of
 * frequency rank r gets weight a / (a + p(r)), with p estimated from Zipf's
 * law as p(r) = 1 / ((r + 1) * H), H = ln(N) + 0.5772 for the N words of the
 * table, and a = 1e-3.  "the" weighs ~0.01, a word of rank 1000 ~0.9, so
 * function words barely move the mean and content words dominate.  Words not
 * in the table are retried without a trailing "'s" and, when hyphenated, part
 * by part; otherwise they are skipped.  The sum is L2-normalized.
 * Rejected: removing the first principal component (SIF's second step) — it
 * needs a corpus pass at index time and made no ranking difference here.
 */
#include "embed.h"
#include "tokenize.h"
#include "wordvec.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SIF_A 1e-3

typedef struct {
    rt_embedder base;
    rt_wordvec *wv;
    float *weight;          /* per rank */
} glove;

typedef struct { glove *g; float *acc; } accum_ctx;

static void add_word(glove *g, const char *w, int len, float *acc)
{
    int r = rt_wordvec_find(g->wv, w, len);
    if (r >= 0) { rt_wordvec_accum(g->wv, r, g->weight[r], acc); return; }
    if (len > 2 && w[len - 2] == '\'' && w[len - 1] == 's') {
        add_word(g, w, len - 2, acc);
        return;
    }
    const char *dash = memchr(w, '-', (size_t)len);
    if (dash) {
        int first = (int)(dash - w);
        if (first > 0) add_word(g, w, first, acc);
        add_word(g, dash + 1, len - first - 1, acc);
    }
}

static void on_word(const char *w, int len, void *ud)
{
    accum_ctx *c = ud;
    add_word(c->g, w, len, c->acc);
}

static int glove_embed(rt_embedder *em, const char *const *texts, int n, float **out, gn_err *e)
{
    (void)e;
    glove *g = (glove *)em;
    float *v = xcalloc((size_t)n * (size_t)em->dim, sizeof(float));
    for (int i = 0; i < n; i++) {
        accum_ctx c = { g, v + (size_t)i * em->dim };
        rt_tokenize(texts[i] ? texts[i] : "", on_word, &c);
        rt_vec_normalize(c.acc, em->dim);
    }
    *out = v;
    return 0;
}

static void glove_free(rt_embedder *em)
{
    glove *g = (glove *)em;
    rt_wordvec_close(g->wv);
    free(g->weight);
    free(g);
}

static const struct rt_embedder_ops glove_ops = { glove_embed, glove_free };

int rt_embedder_glove_new(const char *vecpath, rt_embedder **out, gn_err *e)
{
    *out = NULL;
    rt_wordvec *wv;
    int rc = rt_wordvec_open(vecpath, &wv, e);
    if (rc) return rc;
    glove *g = xcalloc(1, sizeof *g);
    g->base.ops = &glove_ops;
    g->base.dim = rt_wordvec_dim(wv);
    g->wv = wv;
    int n = rt_wordvec_count(wv);
    snprintf(g->base.id, sizeof g->base.id, "glove:%d:%d:sif", g->base.dim, n);
    g->weight = xmalloc(sizeof(float) * (size_t)n);
    double h = log((double)n) + 0.5772;
    for (int r = 0; r < n; r++) {
        double p = 1.0 / ((r + 1.0) * h);
        g->weight[r] = (float)(SIF_A / (SIF_A + p));
    }
    *out = &g->base;
    return 0;
}
