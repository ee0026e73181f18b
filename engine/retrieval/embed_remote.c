/*
 * embed_remote.c — embeddings from an OpenAI-compatible /v1/embeddings
 * endpoint, in batches.
 *
 * Request: {"model": M, "input": [texts...]}; reply: {"data": [{"index": i,
 * "embedding": [...]}, ...]}.  Replies are placed by "index" (servers may
 * reorder), every vector is checked to have the same dimension, and each is
 * normalized here rather than trusting the server.  The key travels only in
 * the Authorization header and never appears in an error message.
 *
 * The request is util/http.h's, with the policy every request of genie
 * has (http and https only, user agent, keep-alive) and the LLM client's
 * network settings (connect and stall timeouts, retries with backoff and
 * Retry-After): embedding the same texts again is harmless, so every
 * transient failure (connection, timeout, 408, 409, 429, 5xx) is retried.
 * Rejected: fixed timeouts of its own (a slow local server needed
 * different ones from the chat's, and a flaky one failed a whole --reindex
 * on one 503).
 * Rejected: going through the streaming chat client — embeddings are one
 * small JSON request with no stream, and this stays usable by `--reindex`
 * without the LLM machinery.
 */
#include "embed.h"
#include "util/buf.h"
#include "util/http.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_REPLY (256u << 20)

typedef struct {
    rt_embedder base;
    char *url, *model, *key;
    int batch;
    rt_remote_net net;
} remote;

static char *request_body(const remote *r, const char *const *texts, int n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "model", r->model);
    cJSON *arr = cJSON_AddArrayToObject(o, "input");
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(texts[i] && texts[i][0] ? texts[i] : " "));
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

static int post(const remote *r, const char *body, gn_http_res *reply, gn_err *e)
{
    char *auth = r->key && r->key[0] ? xasprintf("Authorization: Bearer %s", r->key) : NULL;
    const char *headers[] = { "Content-Type: application/json", "X-Genie-Stage: embed", auth };
    char *url = xasprintf("%s/embeddings", r->url);
    gn_http_req rq = {
        .what = "embeddings", .method = "POST", .url = url,
        .headers = headers, .nheaders = auth ? 3 : 2, .body = body,
        .connect_timeout = r->net.connect_timeout, .stall_timeout = r->net.stall_timeout,
        .max_body = MAX_REPLY, .retries = r->net.retries,
        .retry_max_wait = r->net.retry_max_wait, .retry = GN_HTTP_IDEMPOTENT,
    };
    int rc = gn_http_request(&rq, reply, e);
    free(url);
    if (auth) {
        memset(auth, 0, strlen(auth));
        free(auth);
    }
    return rc;
}

/* Place each reply vector at its index in out (n * dim, allocated here on the
 * first batch once the dimension is known). */
static int parse_reply(remote *r, const char *json, int n, int off, float **out, int total, gn_err *e)
{
    cJSON *o = cJSON_Parse(json);
    cJSON *data = o ? cJSON_GetObjectItemCaseSensitive(o, "data") : NULL;
    int rc = 0, seen = 0;
    if (!cJSON_IsArray(data)) {
        rc = gn_err_set(e, GN_ENET, "embeddings: reply has no \"data\" array");
        goto done;
    }
    cJSON *it;
    cJSON_ArrayForEach(it, data) {
        cJSON *idx = cJSON_GetObjectItemCaseSensitive(it, "index");
        cJSON *emb = cJSON_GetObjectItemCaseSensitive(it, "embedding");
        int i = cJSON_IsNumber(idx) ? idx->valueint : seen;
        int d = cJSON_GetArraySize(emb);
        if (!cJSON_IsArray(emb) || i < 0 || i >= n || d <= 0 || d > 65536 ||
            (r->base.dim && d != r->base.dim)) {
            rc = gn_err_set(e, GN_ENET, "embeddings: malformed item %d in reply", seen);
            goto done;
        }
        if (!r->base.dim) r->base.dim = d;
        if (!*out) *out = xcalloc((size_t)total * (size_t)d, sizeof(float));
        float *v = *out + (size_t)(off + i) * d;
        int j = 0;
        cJSON *x;
        cJSON_ArrayForEach(x, emb) v[j++] = (float)x->valuedouble;
        rt_vec_normalize(v, d);
        seen++;
    }
    if (seen != n) rc = gn_err_set(e, GN_ENET, "embeddings: %d vectors for %d inputs", seen, n);
done:
    cJSON_Delete(o);
    return rc;
}

static int remote_embed(rt_embedder *em, const char *const *texts, int n, float **out, gn_err *e)
{
    remote *r = (remote *)em;
    *out = NULL;
    gn_http_res reply;
    gn_http_res_init(&reply);
    int rc = 0;
    for (int off = 0; off < n && !rc; off += r->batch) {
        int m = n - off < r->batch ? n - off : r->batch;
        char *body = request_body(r, texts + off, m);
        rc = post(r, body, &reply, e);
        free(body);
        if (!rc) rc = parse_reply(r, reply.body.data, m, off, out, n, e);
    }
    gn_http_res_release(&reply);
    if (rc) { free(*out); *out = NULL; }
    return rc;
}

static void remote_free(rt_embedder *em)
{
    remote *r = (remote *)em;
    free(r->url);
    free(r->model);
    free(r->key);
    free(r);
}

static const struct rt_embedder_ops remote_ops = { remote_embed, remote_free };

int rt_embedder_remote_new(const char *base_url, const char *model, const char *key,
                           int batch, const rt_remote_net *net, rt_embedder **out,
                           gn_err *e)
{
    *out = NULL;
    if (!base_url || !base_url[0])
        return gn_err_set(e, GN_EUSAGE, "remote embedder needs an endpoint (--embed-url)");
    if (strncasecmp(base_url, "http://", 7) && strncasecmp(base_url, "https://", 8))
        return gn_err_set(e, GN_EUSAGE, "remote embedder: endpoint '%.*s' is not http:// "
                          "or https://", (int)strcspn(base_url, "?#"), base_url);
    remote *r = xcalloc(1, sizeof *r);
    r->base.ops = &remote_ops;
    r->net = net ? *net : (rt_remote_net){ 0, 0, -1, -1 };
    if (r->net.connect_timeout <= 0) r->net.connect_timeout = 10;
    if (r->net.stall_timeout <= 0) r->net.stall_timeout = 120;
    if (r->net.retries < 0) r->net.retries = 4;
    if (r->net.retry_max_wait < 0) r->net.retry_max_wait = 60;
    size_t ul = strlen(base_url);
    while (ul > 0 && base_url[ul - 1] == '/') ul--;
    r->url = xstrndup(base_url, ul);
    r->model = xstrdup(model && model[0] ? model : "text-embedding-3-small");
    r->key = xstrdup(key ? key : "");
    r->batch = batch > 0 ? batch : 64;
    snprintf(r->base.id, sizeof r->base.id, "remote:%s:%s", r->url, r->model);
    *out = &r->base;
    return 0;
}
