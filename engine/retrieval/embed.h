/*
 * embed.h — text embedders behind one interface.
 *
 * Two implementations: the offline GloVe embedder (embed_glove.c) and a
 * remote OpenAI-compatible /v1/embeddings client (embed_remote.c).  Every
 * vector returned is L2-normalized (or all zeros for text with no known
 * word), so inner product is cosine similarity.
 */
#ifndef GENIE_EMBED_H
#define GENIE_EMBED_H

#include "util/err.h"

typedef struct rt_embedder rt_embedder;

/* Offline embedder over the word-vector file at VECPATH (see wordvec.h). */
int rt_embedder_glove_new(const char *vecpath, rt_embedder **out, gn_err *e);

/* How a remote embedder's requests treat the network: the LLM client's
 * settings (--connect-timeout, --stall-timeout, --retries,
 * --retry-max-wait) are given here too. */
typedef struct rt_remote_net {
    double connect_timeout;     /* seconds; <= 0: 10 */
    double stall_timeout;       /* seconds without a byte; <= 0: 120 */
    int retries;                /* retries after the first attempt; < 0: 4 */
    double retry_max_wait;      /* cap of one wait, seconds; < 0: 60 */
} rt_remote_net;

/* Remote embedder: BASE_URL is an OpenAI-compatible base such as
 * http://127.0.0.1:8080/v1 (the request goes to BASE_URL/embeddings); KEY may
 * be NULL or empty.  BATCH texts per request.  NET may be NULL (the
 * defaults above).  The dimension is learned from the first response.
 * Requests are retried on connection failures, timeouts and HTTP 408,
 * 409, 429 and 5xx, with backoff and the server's Retry-After (embedding
 * is idempotent).  Returns GN_EUSAGE when BASE_URL is empty or not
 * http:// or https://. */
int rt_embedder_remote_new(const char *base_url, const char *model, const char *key,
                           int batch, const rt_remote_net *net, rt_embedder **out,
                           gn_err *e);

void rt_embedder_free(rt_embedder *em);

/* Dimension, or 0 for a remote embedder that has not answered yet. */
int rt_embedder_dim(const rt_embedder *em);

/* A stable identity of the embedding function ("glove:100:<words>" or
 * "remote:<url>:<model>"): an index built with another id is stale. */
const char *rt_embedder_id(const rt_embedder *em);

/* Embed N texts into OUT (n * dim floats, caller-allocated; call with a
 * remote embedder of unknown dim only through rt_embed_alloc).  0 or error. */
int rt_embed(rt_embedder *em, const char *const *texts, int n, float *out, gn_err *e);

/* Like rt_embed but allocates *out (n * dim floats; caller frees) and works
 * before the dimension is known. */
int rt_embed_alloc(rt_embedder *em, const char *const *texts, int n, float **out, gn_err *e);

/* Embedder internals shared by the implementations. */
struct rt_embedder_ops {
    int (*embed)(rt_embedder *em, const char *const *texts, int n, float **out, gn_err *e);
    void (*free)(rt_embedder *em);
};
struct rt_embedder {
    const struct rt_embedder_ops *ops;
    int dim;
    char id[256];
};

/* Normalize v[dim] to unit length (left zero if it is zero). */
void rt_vec_normalize(float *v, int dim);

/* Inner product of two dim-vectors (cosine similarity for unit vectors). */
float rt_dot(const float *a, const float *b, int dim);

#endif
