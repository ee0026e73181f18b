/*
 * embed.c — the embedder dispatch and vector helpers.  Implementations
 * allocate their output (a remote one learns its dimension from the first
 * reply); rt_embed copies into the caller's buffer for the common case.
 */
#include "embed.h"
#include "util/xmem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rt_embedder_free(rt_embedder *em)
{
    if (em) em->ops->free(em);
}

int rt_embedder_dim(const rt_embedder *em) { return em->dim; }

const char *rt_embedder_id(const rt_embedder *em) { return em->id; }

int rt_embed_alloc(rt_embedder *em, const char *const *texts, int n, float **out, gn_err *e)
{
    *out = NULL;
    if (n <= 0) {
        *out = xmalloc(sizeof(float));
        return 0;
    }
    return em->ops->embed(em, texts, n, out, e);
}

int rt_embed(rt_embedder *em, const char *const *texts, int n, float *out, gn_err *e)
{
    float *tmp;
    int rc = rt_embed_alloc(em, texts, n, &tmp, e);
    if (rc) return rc;
    memcpy(out, tmp, sizeof(float) * (size_t)n * (size_t)em->dim);
    free(tmp);
    return 0;
}

void rt_vec_normalize(float *v, int dim)
{
    double s = 0;
    for (int i = 0; i < dim; i++) s += (double)v[i] * v[i];
    if (s <= 0) return;
    float inv = (float)(1.0 / sqrt(s));
    for (int i = 0; i < dim; i++) v[i] *= inv;
}

float rt_dot(const float *a, const float *b, int dim)
{
    /* Eight independent sums so the compiler can keep them in vector lanes
     * without -ffast-math. */
    float s[8] = { 0 };
    int i = 0;
    for (; i + 8 <= dim; i += 8)
        for (int j = 0; j < 8; j++) s[j] += a[i + j] * b[i + j];
    for (; i < dim; i++) s[0] += a[i] * b[i];
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}
