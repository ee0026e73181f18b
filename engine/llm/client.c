/*
 * client.c — the public side of the LLM client: lifecycle, groups,
 * submission and results (see client.h; the thread is in transfer.c).
 *
 * Submission copies the call's messages, queues it under the client's mutex
 * and wakes the thread with curl_multi_wakeup; the thread hands finished
 * calls back through their group's queue and the client's condition
 * variable.  Nothing here touches curl handles of running transfers.
 */
#include "client_int.h"
#include "util/clock.h"
#include "util/fs.h"

#include "util/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GENIE_VERSION
#define GENIE_VERSION "unknown"
#endif

void llm_scrub_key(const llm_client *c, char *s)
{
    if (!c->key || strlen(c->key) < 4 || !s) return;
    size_t kl = strlen(c->key);
    char *p;
    while ((p = strstr(s, c->key))) {
        memcpy(p, "***", 3);
        memmove(p + 3, p + kl, strlen(p + kl) + 1);
    }
}

/* The URL without userinfo or query, for messages and the log (a key may
 * hide in either). */
static char *shown_url(const char *url)
{
    const char *host = strstr(url, "://");
    host = host ? host + 3 : url;
    const char *at = strchr(host, '@'), *slash = strchr(host, '/');
    if (at && (!slash || at < slash)) host = at + 1;
    size_t scheme = (size_t)(strstr(url, "://") ? strstr(url, "://") + 3 - url : 0);
    char *r = xasprintf("%.*s%s", (int)scheme, url, host);
    r[strcspn(r, "?#")] = 0;
    return r;
}

/* ---- lifecycle ------------------------------------------------------- */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init_once(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void warn(llm_client *c, const char *fmt, const char *a, const char *b)
{
    char line[1024];
    snprintf(line, sizeof line, fmt, a, b);
    char *w = xasprintf("%s%s\n", c->warnings ? c->warnings : "", line);
    free(c->warnings);
    c->warnings = w;
}

int llm_client_new(const llm_config *cfg, llm_client **out, gn_err *e)
{
    *out = NULL;
    const char *url = cfg->url;
    if (!url || !*url) return gn_err_set(e, GN_EUSAGE, "no LLM endpoint URL");
    if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
        if (!strstr(url, "://") && isalnum((unsigned char)url[0]) && !strpbrk(url, " \t"))
            /* "localhost:8080/v1": the scheme left out */
            return gn_err_set(e, GN_EUSAGE, "LLM endpoint '%s' is not an http:// or https:// URL; "
                              "did you mean 'http://%s'?", url, url);
        return gn_err_set(e, GN_EUSAGE, "LLM endpoint '%s' is not an http:// or https:// URL", url);
    }
    llm_client *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->log_mu, NULL);
    /* A query (Azure's ?api-version=...) goes after the path. */
    size_t q = strcspn(url, "?");
    c->url = xstrndup(url, q);
    size_t n = strlen(c->url);
    while (n && c->url[n - 1] == '/') c->url[--n] = 0;
    c->endpoint = xasprintf("%s/chat/completions%s", c->url, url + q);
    c->shown = shown_url(c->endpoint);
    c->key = cfg->api_key && *cfg->api_key ? xstrdup(cfg->api_key) : NULL;
    const char *host = strstr(c->url, "://") + 3;
    size_t hl = strcspn(host, ":/?");
    c->azure = hl >= 10 && !strncmp(host + hl - 10, ".azure.com", 10);
    int rc = llm_stages_resolve(&cfg->defaults, cfg->stage_spec, c->stages, e);
    if (cfg->defaults.model) snprintf(c->model, sizeof c->model, "%s", cfg->defaults.model);
    if (!rc) rc = llm_prices_parse(cfg->prices, &c->prices, &c->nprices, e);
    if (rc) {
        llm_client_free(c);
        return rc;
    }
    c->concurrency = cfg->concurrency > 0 ? cfg->concurrency : 1;
    c->retries = cfg->retries > 0 ? cfg->retries : 0;
    c->connect_timeout = cfg->connect_timeout > 0 ? cfg->connect_timeout : 10;
    c->stall_timeout = cfg->stall_timeout > 0 ? cfg->stall_timeout : 120;
    c->retry_max_wait = cfg->retry_max_wait >= 0 ? cfg->retry_max_wait : 60;
    c->seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    if (cfg->cache_path && *cfg->cache_path) {
        gn_err ce;
        if (llm_cache_open(cfg->cache_path, &c->cache, &ce)) {
            char m[900];
            warn(c, "LLM cache disabled: %s%s", gn_err_str(&ce, m, sizeof m), "");
        }
    }
    if (cfg->log_path && *cfg->log_path) {
        /* Private (gn_mkprivate): the log holds every prompt and reply. */
        gn_err le;
        gn_err_clear(&le);
        if (gn_mkprivate(cfg->log_path, &le) || !(c->log = fopen(cfg->log_path, "ae")))
            warn(c, "cannot open the LLM log %s: %s", cfg->log_path,
                 le.code ? le.msg : strerror(errno));
    }
    pthread_once(&curl_once, curl_init_once);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->multi = curl_multi_init();
    if (!c->multi || pthread_create(&c->thread, NULL, llm_thread_main, c)) {
        if (c->multi) curl_multi_cleanup(c->multi);
        c->multi = NULL;
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
        llm_client_free(c);
        return gn_err_set(e, GN_EIO, "cannot start the LLM client thread");
    }
    *out = c;
    return 0;
}

void llm_client_free(llm_client *c)
{
    if (!c) return;
    if (c->multi) {
        pthread_mutex_lock(&c->mu);
        if (c->groups) {
            fprintf(stderr, "genie: internal error: llm_client_free with %d group(s) alive\n",
                    c->groups);
            abort();
        }
        c->stop = 1;
        pthread_mutex_unlock(&c->mu);
        curl_multi_wakeup(c->multi);
        pthread_join(c->thread, NULL);
        curl_multi_cleanup(c->multi);
        llm_socks_free(c);
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
    }
    llm_cache_close(c->cache);
    if (c->log) fclose(c->log);
    pthread_mutex_destroy(&c->log_mu);
    if (c->key) memset(c->key, 0, strlen(c->key));
    free(c->key);
    free(c->url);
    free(c->endpoint);
    free(c->shown);
    free(c->warnings);
    free(c->prices);
    free(c);
}

const char *llm_client_warnings(const llm_client *c)
{
    return c->warnings ? c->warnings : "";
}

int llm_client_set_model(llm_client *c, const char *model, gn_err *e)
{
    if (!model || !*model || strlen(model) >= sizeof c->model)
        return gn_err_set(e, GN_EUSAGE, "a model name is 1 to %zu characters", sizeof c->model - 1);
    for (int i = 0; i < LLM_STAGE__COUNT; i++)
        if (!strcmp(c->stages[i].model, c->model)) snprintf(c->stages[i].model, sizeof c->stages[i].model, "%s", model);
    snprintf(c->model, sizeof c->model, "%s", model);
    return 0;
}

const llm_stage_cfg *llm_client_stage(const llm_client *c, int stage)
{
    if (stage < 0 || stage >= LLM_STAGE__COUNT) stage = LLM_STAGE_CHECK;
    return &c->stages[stage];
}

const char *llm_client_endpoint(const llm_client *c)
{
    return c->shown;
}

void llm_client_stats(llm_client *c, llm_stats out[LLM_STAGE__COUNT])
{
    pthread_mutex_lock(&c->mu);
    memcpy(out, c->stats, sizeof c->stats);
    pthread_mutex_unlock(&c->mu);
}

/* ---- groups -------------------------------------------------------------- */

llm_group *llm_group_new(llm_client *c)
{
    llm_group *g = xcalloc(1, sizeof *g);
    g->cl = c;
    pthread_mutex_lock(&c->mu);
    c->groups++;
    pthread_mutex_unlock(&c->mu);
    return g;
}

static void call_free(llm_call *k)
{
    for (int i = 0; i < k->nmsgs; i++) {
        free((char *)k->msgs[i].role);
        free((char *)k->msgs[i].content);
    }
    free(k->msgs);
    for (int i = 0; i < k->nstop; i++) free(k->stop[i]);
    free(k->stop);
    free(k->body);
    llm_result_release(&k->res);
    free(k);
}

int llm_group_submit(llm_group *g, const llm_call_opts *o, llm_call **out, gn_err *e)
{
    if (out) *out = NULL;
    if (o->stage < 0 || o->stage >= LLM_STAGE__COUNT)
        return gn_err_set(e, GN_EUSAGE, "unknown LLM stage %d", o->stage);
    if (o->nmsgs < 1 || !o->msgs)
        return gn_err_set(e, GN_EUSAGE, "%s: a request needs at least one message",
                          llm_stage_name(o->stage));
    llm_client *c = g->cl;
    const llm_stage_cfg *sc = &c->stages[o->stage];
    llm_call *k = xcalloc(1, sizeof *k);
    k->cl = c;
    k->g = g;
    k->stage = o->stage;
    snprintf(k->model, sizeof k->model, "%s", sc->model);
    k->temperature = sc->temperature;
    k->max_tokens = o->max_tokens > 0 ? o->max_tokens : sc->max_tokens;
    /* A server that ignores max_tokens must not flood the caller: more
     * than LLM_BYTES_PER_TOKEN bytes a token (at least LLM_MIN_TEXT) ends
     * the call with an error. */
    k->max_text = (size_t)k->max_tokens * LLM_BYTES_PER_TOKEN;
    if (k->max_text < LLM_MIN_TEXT) k->max_text = LLM_MIN_TEXT;
    k->stream = sc->stream;
    k->no_cache = o->no_cache;
    k->no_retry_refused = o->no_retry_refused;
    k->msgs = xcalloc((size_t)o->nmsgs, sizeof *k->msgs);
    k->nmsgs = o->nmsgs;
    for (int i = 0; i < o->nmsgs; i++) {
        k->msgs[i].role = xstrdup(o->msgs[i].role ? o->msgs[i].role : "user");
        k->msgs[i].content = xstrdup(o->msgs[i].content ? o->msgs[i].content : "");
    }
    if (o->nstop > 0) {
        k->stop = xcalloc((size_t)o->nstop, sizeof *k->stop);
        k->nstop = o->nstop;
        for (int i = 0; i < o->nstop; i++) k->stop[i] = xstrdup(o->stop[i] ? o->stop[i] : "");
    }
    if (c->cache && !k->no_cache && k->temperature == 0) {
        llm_request rq = { k->msgs, k->nmsgs, k->model, k->temperature, k->max_tokens, 0,
                           (const char *const *)k->stop, k->nstop };
        llm_request_key(&rq, c->endpoint, k->key);
    }
    k->cb = o->cb;
    k->ud = o->ud;
    k->tag = o->tag;
    atomic_init(&k->cancel, 0);
    llm_result_init(&k->res);
    k->t_submit = gn_now();
    pthread_mutex_lock(&c->mu);
    k->state = CALL_QUEUED;
    k->gnext = g->all;
    g->all = k;
    g->submitted++;
    if (c->pend_tail) c->pend_tail->next = k;
    else c->pend_head = k;
    c->pend_tail = k;
    pthread_mutex_unlock(&c->mu);
    curl_multi_wakeup(c->multi);
    if (out) *out = k;
    return 0;
}

void llm_call_finish(llm_call *k)
{
    llm_client *c = k->cl;
    llm_group *g = k->g;
    pthread_mutex_lock(&c->mu);
    k->state = CALL_DONE;
    k->next = NULL;
    if (g->fin_tail) g->fin_tail->next = k;
    else g->fin_head = k;
    g->fin_tail = k;
    g->finished++;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

llm_call *llm_group_next(llm_group *g)
{
    llm_client *c = g->cl;
    pthread_mutex_lock(&c->mu);
    while (!g->fin_head && g->returned < g->submitted) pthread_cond_wait(&c->cv, &c->mu);
    llm_call *k = g->fin_head;
    if (k) {
        g->fin_head = k->next;
        if (!g->fin_head) g->fin_tail = NULL;
        k->next = NULL;
        g->returned++;
    }
    pthread_mutex_unlock(&c->mu);
    return k;
}

void llm_group_wait(llm_group *g)
{
    llm_client *c = g->cl;
    pthread_mutex_lock(&c->mu);
    while (g->finished < g->submitted) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
}

void llm_group_cancel(llm_group *g)
{
    llm_client *c = g->cl;
    pthread_mutex_lock(&c->mu);
    for (llm_call *k = g->all; k; k = k->gnext)
        if (k->state != CALL_DONE) atomic_store(&k->cancel, 1);
    pthread_mutex_unlock(&c->mu);
    curl_multi_wakeup(c->multi);
}

void llm_group_free(llm_group *g)
{
    if (!g) return;
    llm_group_cancel(g);
    llm_group_wait(g);
    for (llm_call *k = g->all, *n; k; k = n) {
        n = k->gnext;
        call_free(k);
    }
    pthread_mutex_lock(&g->cl->mu);
    g->cl->groups--;
    pthread_mutex_unlock(&g->cl->mu);
    free(g);
}

/* ---- calls ------------------------------------------------------------------ */

void llm_call_cancel(llm_call *k)
{
    atomic_store(&k->cancel, 1);
    curl_multi_wakeup(k->cl->multi);
}

int llm_call_done(llm_call *k)
{
    pthread_mutex_lock(&k->cl->mu);
    int d = k->state == CALL_DONE;
    pthread_mutex_unlock(&k->cl->mu);
    return d;
}

int llm_call_status(const llm_call *k, gn_err *e)
{
    if (k->status && e) *e = k->err;
    else if (e) gn_err_clear(e);
    return k->status;
}

const llm_result *llm_call_result(const llm_call *k)
{
    return &k->res;
}

const char *llm_call_text(const llm_call *k)
{
    if (k->res.nchoices < 1 || !k->res.choices[0].content.data) return "";
    return k->res.choices[0].content.data;
}

void *llm_call_tag(const llm_call *k)
{
    return k->tag;
}

void llm_call_info_get(const llm_call *k, llm_call_info *out)
{
    memset(out, 0, sizeof *out);
    out->stage = k->stage;
    out->cached = k->cached;
    out->sent = k->sent && !k->cached;
    memcpy(out->cache_key, k->key, sizeof out->cache_key);
    out->attempts = k->attempts;
    out->http_status = k->http;
    out->queued = k->t_first_send > 0 ? k->t_first_send - k->t_submit : k->t_done - k->t_submit;
    out->ttft = k->t_first_token > 0 && k->t_send > 0 ? k->t_first_token - k->t_send : -1;
    out->total = k->t_done - k->t_submit;
    if (k->res.usage.present) {
        out->prompt_tokens = k->res.usage.prompt_tokens;
        out->completion_tokens = k->res.usage.completion_tokens;
    } else {
        out->completion_tokens = k->deltas;
    }
    out->cost = k->cost;
    out->finish_reason = k->res.nchoices > 0 ? k->res.choices[0].finish_reason : NULL;
}

void llm_client_forget(llm_client *c, const char *key)
{
    gn_err e;
    if (c && c->cache) (void)llm_cache_forget(c->cache, key, &e);   /* a miss next time at worst */
}

int llm_complete(llm_client *c, const llm_call_opts *o, llm_result *out, llm_call_info *info,
                 gn_err *e)
{
    if (out) llm_result_init(out);
    llm_group *g = llm_group_new(c);
    llm_call *k;
    int rc = llm_group_submit(g, o, &k, e);
    if (!rc) {
        llm_group_wait(g);
        rc = llm_call_status(k, e);
        if (info) llm_call_info_get(k, info);
        if (out) {
            *out = k->res;
            llm_result_init(&k->res);
        }
    }
    llm_group_free(g);
    return rc;
}
