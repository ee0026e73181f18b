/*
 * transfer.c — the client's thread: runs every call from queue to finish.
 *
 * One loop owns the curl multi handle.  Each turn it takes newly submitted
 * calls, answers from the cache what it can, starts transfers while fewer
 * than `concurrency` run, lets curl move bytes, finishes transfers curl
 * reports done, and enforces cancellation, stall timeouts and retry timers.
 * It sleeps in curl_multi_poll until a socket is ready, the nearest timer is
 * due, or another thread calls curl_multi_wakeup (submit, cancel, free).
 *
 * A transfer's bytes go straight into the SSE/JSON decoder (stream.h) when
 * the status is 2xx; a non-2xx body is kept (bounded) for the error
 * message.  Every byte, header bytes included, resets the stall clock,
 * and the head (status line and headers) counts as progress: curl tells
 * of header bytes only by the whole line, so before a call is declared
 * stalled the kernel is asked when its socket last received data
 * (socks.c), and a status line or header trickled
 * slower than the stall timeout is not taken for silence.
 * Keep-alives alone do not keep a streamed call alive for ever: it must
 * make progress (a delta of text, reasoning or a tool call) within twice
 * the stall timeout of the send or of the last delta, and within
 * MAX_IDLE_BYTES of body (empty deltas, unknown fields, comments).  A
 * whole reply's one delta comes at its end, so only the stall timeout
 * bounds it.
 *
 * Each easy handle gets genie's HTTP policy (util/http.h: http and https
 * only, user agent, keep-alive, connect timeout), the same as every other
 * request genie makes.
 *
 * Why a call failed decides whether it is retried (retry.h): connection
 * errors, stalls, retryable statuses, a dropped stream and a server error
 * mid-stream are; a malformed reply, a too-large reply, another 4xx and
 * anything after output reached the caller's callback are not.
 *
 * Rejected: one thread per call (a pool of 32 verifications would be 32
 * threads and 32 connections with no reuse); curl's own low-speed limit as
 * the stall timeout (it averages over a window, so a trickle of keep-alive
 * comments still trips it).
 */
#include "client_int.h"
#include "util/clock.h"

#include "util/http.h"
#include "util/retry.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_ERRBODY 65536
/* Body bytes a reply may send without a delta. */
#define MAX_IDLE_BYTES (1u << 20)
/* Seconds a server may keep the connection of a complete reply open
 * before the call is finished without waiting for the close. */
#define COMPLETE_GRACE 1.0

/* The request K sends, streamed or not. */
static llm_request request_of(const llm_call *k, int stream)
{
    llm_request rq = { k->msgs, k->nmsgs, k->model, k->temperature, k->max_tokens, stream,
                       (const char *const *)k->stop, k->nstop };
    return rq;
}

/* ---- accounting and log ----------------------------------------------- */

/* Tokens of a finished call: the server's usage, else estimated.  The
 * estimate counts a token per LLM_EST_BYTES_PER_TOKEN bytes of text (about
 * what tokenizers of English give) plus a few a message for the roles, and
 * the reply's as the larger of that and its deltas (a stream sends about
 * a token a delta): 25,000 characters of prompt are about 6,250 tokens,
 * not 0. */
#define LLM_EST_BYTES_PER_TOKEN 4
#define LLM_EST_TOKENS_PER_MSG 4

static long est_tokens(size_t bytes) { return (long)((bytes + LLM_EST_BYTES_PER_TOKEN - 1) / LLM_EST_BYTES_PER_TOKEN); }

static void tokens(const llm_call *k, long *in, long *out, int *estimated)
{
    if (k->res.usage.present) {
        *in = k->res.usage.prompt_tokens;
        *out = k->res.usage.completion_tokens;
        *estimated = 0;
        return;
    }
    *in = 0;
    for (int i = 0; i < k->nmsgs; i++)
        *in += LLM_EST_TOKENS_PER_MSG + est_tokens(k->msgs[i].content ? strlen(k->msgs[i].content) : 0);
    size_t bytes = 0;
    for (int i = 0; i < k->res.nchoices; i++)
        bytes += k->res.choices[i].content.len + k->res.choices[i].reasoning.len;
    *out = est_tokens(bytes);
    if (*out < k->deltas) *out = k->deltas;
    *estimated = 1;
}

static void account(llm_call *k)
{
    llm_client *c = k->cl;
    long in, out;
    int est;
    tokens(k, &in, &out, &est);
    const llm_price *p = llm_price_find(c->prices, c->nprices, k->model);
    k->cost = -1;
    if (p && !k->cached) k->cost = ((double)in * p->in + (double)out * p->out) / 1e6;
    llm_stats d = { 0 };
    d.calls = !k->cached && k->sent;             /* a request reached the server */
    if (k->status == GN_ECANCEL) d.cancelled = 1;
    else if (k->status) d.errors = 1;
    d.cache_hits = k->cached;
    d.retries = k->attempts > 1 ? k->attempts - 1 : 0;
    if (!k->cached) {
        d.prompt_tokens = in;
        d.completion_tokens = out;
        d.usage_missing = est && k->attempts > 0 && !k->status;
    }
    if (k->t_first_token > 0 && !k->cached) {
        d.ttft_sum = k->t_first_token - k->t_send;
        d.ttft_n = 1;
        if (k->t_done > k->t_first_token && out > 0) {
            d.gen_seconds = k->t_done - k->t_first_token;
            d.gen_tokens = out;
        }
    }
    if (k->cost >= 0) {
        d.cost = k->cost;
        d.priced_calls = 1;
    }
    pthread_mutex_lock(&c->mu);
    llm_stats_add(&c->stats[k->stage], &d);
    pthread_mutex_unlock(&c->mu);
}

static double ms(double from, double to)
{
    return from > 0 && to >= from ? round((to - from) * 1e4) / 10 : -1;
}

/* One JSON line per finished call; the request is the body of the last
 * attempt (no key: the key is only ever in a header). */
static void log_call(llm_call *k)
{
    llm_client *c = k->cl;
    if (!c->log) return;
    cJSON *o = cJSON_CreateObject();
    char ts[40];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(o, "time", ts);
    cJSON_AddStringToObject(o, "stage", llm_stage_name(k->stage));
    cJSON_AddStringToObject(o, "model", k->model);
    cJSON_AddStringToObject(o, "endpoint", c->shown);
    /* The body of the last attempt; a cached call never sent one. */
    llm_request rq = request_of(k, k->stream);
    char *built = k->body ? NULL : llm_request_body(&rq, 0);
    cJSON *req = cJSON_Parse(k->body ? k->body : built);
    free(built);
    cJSON_AddItemToObject(o, "request", req ? req : cJSON_CreateNull());
    const llm_choice *ch = k->res.nchoices > 0 ? &k->res.choices[0] : NULL;
    cJSON_AddStringToObject(o, "response", ch && ch->content.data ? ch->content.data : "");
    if (ch && ch->reasoning.len) cJSON_AddStringToObject(o, "reasoning", ch->reasoning.data);
    if (ch && ch->finish_reason) cJSON_AddStringToObject(o, "finish_reason", ch->finish_reason);
    if (k->res.model) cJSON_AddStringToObject(o, "response_model", k->res.model);
    long in, out;
    int est;
    tokens(k, &in, &out, &est);
    cJSON *u = cJSON_AddObjectToObject(o, "usage");
    cJSON_AddNumberToObject(u, "prompt_tokens", (double)in);
    cJSON_AddNumberToObject(u, "completion_tokens", (double)out);
    if (est) cJSON_AddBoolToObject(u, "estimated", 1);
    cJSON *t = cJSON_AddObjectToObject(o, "timings_ms");
    cJSON_AddNumberToObject(t, "queued", ms(k->t_submit, k->t_first_send > 0 ? k->t_first_send : k->t_done));
    cJSON_AddNumberToObject(t, "first_token", ms(k->t_send, k->t_first_token));
    cJSON_AddNumberToObject(t, "total", ms(k->t_submit, k->t_done));
    cJSON_AddNumberToObject(o, "attempts", k->attempts);
    cJSON_AddBoolToObject(o, "cached", k->cached);
    if (k->http) cJSON_AddNumberToObject(o, "http_status", (double)k->http);
    if (k->cost >= 0) cJSON_AddNumberToObject(o, "cost", k->cost);
    cJSON_AddStringToObject(o, "status", k->status == 0 ? "ok"
                                       : k->status == GN_ECANCEL ? "cancelled" : "error");
    if (k->status) cJSON_AddStringToObject(o, "error", k->err.msg);
    char *line = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (line) {
        llm_scrub_key(c, line);
        pthread_mutex_lock(&c->log_mu);
        fprintf(c->log, "%s\n", line);
        fflush(c->log);
        pthread_mutex_unlock(&c->log_mu);
        free(line);
    }
}

/* ---- finishing ----------------------------------------------------------- */

static void release_transfer(llm_call *k)
{
    if (k->easy) {
        curl_multi_remove_handle(k->cl->multi, k->easy);
        curl_easy_cleanup(k->easy);
        k->easy = NULL;
    }
    curl_slist_free_all(k->headers);
    k->headers = NULL;
    gn_buf_release(&k->errbody);
}

static void flush_held(llm_call *k, int deliver_it);

/* The end of a call: take the decoder's result, cache, account, log,
 * hand it to the group. */
static void finish(llm_call *k, int status)
{
    flush_held(k, !status && !atomic_load(&k->cancel));
    release_transfer(k);
    k->status = status;
    if (!status) gn_err_clear(&k->err);
    llm_scrub_key(k->cl, k->err.msg);
    if (k->dec) {
        llm_result_release(&k->res);
        llm_stream_take_result(k->dec, &k->res);
        llm_stream_free(k->dec);
        k->dec = NULL;
        /* A server echoing the key back must not get it saved anywhere. */
        for (int i = 0; i < k->res.nchoices; i++) {
            gn_buf *b[] = { &k->res.choices[i].content, &k->res.choices[i].reasoning };
            for (int j = 0; j < 2; j++)
                if (b[j]->data && k->cl->key && strstr(b[j]->data, k->cl->key)) {
                    llm_scrub_key(k->cl, b[j]->data);
                    b[j]->len = strlen(b[j]->data);
                }
        }
    }
    k->t_done = gn_now();
    llm_client *c = k->cl;
    if (!status && !k->cached && c->cache && k->key[0]) {
        gn_err ce;
        /* A cache that fails to store is not the call's failure. */
        (void)llm_cache_put(c->cache, k->key, llm_stage_name(k->stage), k->model, &k->res, &ce);
    }
    account(k);
    log_call(k);
    llm_call_finish(k);
}

/* ---- callbacks of one transfer ------------------------------------------- */

static void deliver(llm_call *k, const llm_delta *d)
{
    if (d->kind != LLM_DELTA_REASONING) k->delivered = 1;
    llm_event ev = { .kind = LLM_EV_DELTA, .delta = d };
    k->cb(k, &ev, k->ud);
}

/* The held text of D's kind and choice, or NULL when it is not watched. */
static gn_buf *held_of(llm_call *k, int kind, int choice)
{
    const char *key = k->cl->key;
    if (!key || strlen(key) < 4 || choice < 0 || choice >= LLM_HELD_CHOICES ||
        kind > LLM_DELTA_REFUSAL)
        return NULL;
    return &k->held[choice][kind];
}

/* A server that echoes the API key must not put it on anyone's screen,
 * whole or split across deltas: the text goes to the callback with the
 * key masked, less a tail that may be the start of the key, held until
 * the next delta shows it is not (or the reply ends: flush_held). */
static void on_delta_event(llm_call *k, const llm_delta *d)
{
    if (!k->t_first_token) k->t_first_token = gn_now();
    k->deltas++;
    k->last_progress = gn_now();
    k->idle_bytes = 0;
    if (!k->cb) return;
    gn_buf *h = held_of(k, d->kind, d->choice);
    if (!h) {
        deliver(k, d);
        return;
    }
    const char *key = k->cl->key;
    size_t kl = strlen(key);
    if (!h->data) gn_buf_init(h);
    gn_buf_add(h, d->text, d->len);
    if (strstr(h->data, key)) {
        llm_scrub_key(k->cl, h->data);
        h->len = strlen(h->data);
    }
    size_t keep = 0;
    for (size_t n = kl - 1 < h->len ? kl - 1 : h->len; n > 0 && !keep; n--)
        if (!memcmp(h->data + h->len - n, key, n)) keep = n;
    size_t cut = h->len - keep;
    if (cut) {
        char saved = h->data[cut];
        h->data[cut] = 0;
        llm_delta out = *d;
        out.text = h->data;
        out.len = cut;
        deliver(k, &out);
        h->data[cut] = saved;
        memmove(h->data, h->data + cut, keep + 1);
        h->len = keep;
    }
}

/* The end of a reply: what was held back was not the key after all. */
static void flush_held(llm_call *k, int deliver_it)
{
    for (int c = 0; c < LLM_HELD_CHOICES; c++)
        for (int kind = 0; kind < 3; kind++) {
            gn_buf *h = &k->held[c][kind];
            if (h->len && deliver_it && k->cb) {
                llm_delta out = { .kind = (enum llm_delta_kind)kind, .choice = c, .tool = -1,
                                  .text = h->data, .len = h->len };
                deliver(k, &out);
            }
            gn_buf_release(h);
        }
}

static int on_delta(const llm_delta *d, void *ud)
{
    llm_call *k = ud;
    if (atomic_load(&k->cancel)) return 1;
    on_delta_event(k, d);
    return 0;
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
    llm_call *k = ud;
    size_t len = sz * n;
    /* The head is progress too: curl bounds its size, so it cannot keep a
     * call alive for ever as keep-alives in the body could. */
    k->last_activity = k->last_progress = gn_now();
    gn_http_retry_header(p, len, k->retry_after, k->retry_after_ms);
    return len;
}

/* A 2xx reply that is an HTML page (a captive portal, a proxy's sign-in,
 * a wrong URL served by a web server) is no API reply: said so, with its
 * title, rather than read as a stream that never ends properly. */
static int html_page(llm_call *k, const char *p, size_t len)
{
    char *ct = NULL;
    curl_easy_getinfo(k->easy, CURLINFO_CONTENT_TYPE, &ct);
    if (!ct || strncasecmp(ct, "text/html", 9)) return 0;
    char title[96] = "";
    const char *t = memmem(p, len, "<title>", 7);
    if (t) {
        t += 7;
        size_t m = 0;
        while (t + m < p + len && t[m] != '<' && m < sizeof title - 1) m++;
        for (size_t i = 0; i < m; i++) title[i] = (unsigned char)t[i] < 0x20 ? ' ' : t[i];
        title[m] = 0;
    }
    gn_err_set(&k->feed_err, GN_EPARSE, "HTTP %ld with an HTML page%s%s%s, not the API's "
               "JSON: is the URL the API's (e.g. ending in /v1), or is a proxy asking to sign in?",
               k->http, *title ? " (\"" : "", title, *title ? "\")" : "");
    return 1;
}

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
    llm_call *k = ud;
    size_t len = sz * n;
    k->last_activity = gn_now();
    if (atomic_load(&k->cancel)) return 0;
    if (!k->http) curl_easy_getinfo(k->easy, CURLINFO_RESPONSE_CODE, &k->http);
    if (k->t_complete > 0) return 0;
    if (k->http < 200 || k->http > 299) {
        if (k->errbody.len < MAX_ERRBODY)
            gn_buf_add(&k->errbody, p, len < MAX_ERRBODY - k->errbody.len ? len
                                                                        : MAX_ERRBODY - k->errbody.len);
        return len;
    }
    if (!k->typed && (k->typed = 1) && html_page(k, p, len)) {
        k->feed_rc = GN_EPARSE;
        return 0;
    }
    k->idle_bytes += len;
    int rc = llm_stream_feed(k->dec, p, len, &k->feed_err);
    if (!rc && k->stream && k->idle_bytes > MAX_IDLE_BYTES)
        rc = gn_err_set(&k->feed_err, GN_ENET, "%zu bytes from the server without any content",
                        k->idle_bytes);
    if (rc) {
        k->feed_rc = rc;
        return 0;            /* aborts the transfer: CURLE_WRITE_ERROR */
    }
    /* Bytes after a complete reply ([DONE]) are not needed: the next write
     * stops the transfer rather than let keep-alives hold the call open. */
    if (llm_stream_status(k->dec) == LLM_STREAM_COMPLETE) k->t_complete = gn_now();
    return len;
}

/* Name the stage in the decoder's error RC (in k->err); a reply whose text
 * outgrew the limit says what the limit is and the likely cause. */
static void decoder_error(llm_call *k, int rc)
{
    if (rc == GN_ELIMIT && k->dec && llm_stream_text_limited(k->dec))
        gn_err_set(&k->err, GN_ELIMIT, "the reply passed %zu bytes, far more than %d tokens "
                   "(does the server ignore max_tokens?)%s", k->max_text, k->max_tokens,
                   k->stream ? "; the rest was not read" : "");
    gn_err_prefix(&k->err, "%s: ", llm_stage_name(k->stage));
}

/* ---- starting ---------------------------------------------------------------- */

static int start(llm_call *k)
{
    llm_client *c = k->cl;
    k->attempts++;
    k->http = 0;
    k->feed_rc = 0;
    k->retry_after[0] = k->retry_after_ms[0] = 0;
    gn_buf_init(&k->errbody);
    llm_stream_free(k->dec);
    k->dec = llm_stream_new(on_delta, k);
    llm_stream_set_limits(k->dec, 0, k->max_text);
    k->usage_opt = k->stream && !c->no_usage_opt;
    llm_request rq = request_of(k, k->stream);
    free(k->body);
    k->body = llm_request_body(&rq, k->usage_opt);
    k->headers = curl_slist_append(NULL, "Content-Type: application/json");
    k->headers = curl_slist_append(k->headers, k->stream ? "Accept: text/event-stream"
                                                         : "Accept: application/json");
    char *h = xasprintf("X-Genie-Stage: %s", llm_stage_name(k->stage));
    k->headers = curl_slist_append(k->headers, h);
    free(h);
    if (c->key) {
        h = xasprintf("Authorization: Bearer %s", c->key);
        k->headers = curl_slist_append(k->headers, h);
        free(h);
        if (c->azure) {
            h = xasprintf("api-key: %s", c->key);
            k->headers = curl_slist_append(k->headers, h);
            free(h);
        }
    }
    CURL *e = k->easy = curl_easy_init();
    if (!e) return -1;
    curl_easy_setopt(e, CURLOPT_URL, c->endpoint);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, k->headers);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, k->body);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, k);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, k);
    curl_easy_setopt(e, CURLOPT_PRIVATE, k);
    llm_socks_setup(c, k);
    gn_http_policy(e, NULL, c->connect_timeout);  /* the messages use curl_easy_strerror */
    k->t_send = gn_now();
    if (!k->t_first_send) k->t_first_send = k->t_send;
    k->t_complete = 0;
    k->t_first_token = 0;
    k->deltas = 0;
    k->last_activity = k->last_progress = k->t_send;
    k->idle_bytes = 0;
    k->typed = 0;
    flush_held(k, 0);                  /* a retry starts the text again */
    if (curl_multi_add_handle(c->multi, e) != CURLM_OK) return -1;
    k->anext = c->active;
    c->active = k;
    c->nactive++;
    return 0;
}

/* Answer K from the cache when allowed.  1 when it was, 0 when not. */
static int from_cache(llm_call *k)
{
    llm_client *c = k->cl;
    if (!c->cache || !k->key[0]) return 0;
    gn_err ce;
    llm_result_release(&k->res);
    if (llm_cache_get(c->cache, k->key, &k->res, &ce) != 1) return 0;
    k->cached = 1;
    const llm_choice *ch = k->res.nchoices ? &k->res.choices[0] : NULL;
    if (ch && k->cb) {
        if (ch->reasoning.len) {
            llm_delta d = { LLM_DELTA_REASONING, 0, -1, ch->reasoning.data, ch->reasoning.len };
            on_delta_event(k, &d);
        }
        if (ch->content.len) {
            llm_delta d = { LLM_DELTA_CONTENT, 0, -1, ch->content.data, ch->content.len };
            on_delta_event(k, &d);
        }
    }
    return 1;
}

/* ---- judging a finished transfer ------------------------------------------- */

/* Retry K after a failure described by REASON, or finish it with STATUS.
 * SERVER_WAIT is the wait the server asked for (-1: none). */
static void fail_or_retry(llm_call *k, int status, int retryable, double server_wait,
                          const char *reason)
{
    llm_client *c = k->cl;
    if (retryable && !k->delivered && !atomic_load(&k->cancel) &&
        k->attempts <= c->retries + k->free_retries) {
        double wait = gn_retry_delay(k->attempts, server_wait, c->retry_max_wait, &c->seed);
        release_transfer(k);
        k->retry_at = gn_now() + wait;
        k->anext = c->waiting;
        c->waiting = k;
        if (k->cb) {
            llm_event ev = { .kind = LLM_EV_RETRY, .attempt = k->attempts, .wait = wait,
                             .reason = reason };
            k->cb(k, &ev, k->ud);
        }
        return;
    }
    finish(k, status);
}

/* Does a 400 or 422 body complain about stream_options? */
static int rejects_usage_option(const llm_call *k)
{
    if ((k->http != 400 && k->http != 422) || !k->usage_opt || !k->errbody.len) return 0;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_add(&b, k->errbody.data, k->errbody.len);
    int yes = strstr(b.data, "stream_options") || strstr(b.data, "include_usage");
    gn_buf_release(&b);
    return yes;
}

static void judge(llm_call *k, CURLcode cc)
{
    llm_client *c = k->cl;
    char msg[512], reason[128];
    if (atomic_load(&k->cancel)) {
        gn_err_set(&k->err, GN_ECANCEL, "cancelled");
        finish(k, GN_ECANCEL);
        return;
    }
    if (k->feed_rc) {
        /* The decoder refused the reply: a server error mid-stream is worth
         * another try, malformed or oversized data is not. */
        k->err = k->feed_err;
        decoder_error(k, k->feed_rc);
        fail_or_retry(k, k->feed_rc, k->feed_rc == GN_ENET, -1, "server error mid-stream");
        return;
    }
    if (!k->http) curl_easy_getinfo(k->easy, CURLINFO_RESPONSE_CODE, &k->http);
    if (k->t_complete > 0) {
        /* The reply is whole; whatever the connection did afterwards
         * (reset, bytes after [DONE]) does not matter. */
        finish(k, llm_stream_finish(k->dec, &k->err));
        return;
    }
    if (cc != CURLE_OK && !(k->http >= 200 && k->http <= 299 && cc == CURLE_PARTIAL_FILE)) {
        /* curl says "Out of memory" when it refuses a response head that is
         * too large, and gives no detail: before any body, that is what it
         * was. */
        if (cc == CURLE_OUT_OF_MEMORY && !k->typed && !k->errbody.len)
            snprintf(reason, sizeof reason, "the response's header is larger than curl "
                     "accepts (100 KB a line, 300 KB in all)");
        else
            snprintf(reason, sizeof reason, "%s", curl_easy_strerror(cc));
        gn_err_set(&k->err, GN_ENET, "%s: request to %s failed: %s", llm_stage_name(k->stage),
                   c->shown, reason);
        int refused = cc == CURLE_COULDNT_CONNECT && k->no_retry_refused;
        fail_or_retry(k, GN_ENET, !gn_http_curl_final(cc) && !refused, -1, reason);
        return;
    }
    if (k->http < 200 || k->http > 299) {
        if (rejects_usage_option(k)) {
            c->no_usage_opt = 1;
            k->free_retries++;        /* our field, not the server's fault */
            release_transfer(k);
            k->retry_at = 0;
            k->anext = c->waiting;
            c->waiting = k;
            return;
        }
        gn_buf_putc(&k->errbody, 0);       /* NUL-terminate for the scrub */
        k->errbody.len--;
        llm_scrub_key(c, k->errbody.data);
        k->errbody.len = strlen(k->errbody.data);
        gn_http_snippet(k->errbody.data, k->errbody.len, msg, sizeof msg);
        /* The two a person fixes themselves get a hint. */
        const char *hint = k->http == 401 || k->http == 403
            ? " (check the API key: GENIE_API_KEY, OPENAI_API_KEY, or api_key or api_key_cmd in the config file)"
            : k->http == 404 ? " (check the model name, -m, and that the endpoint URL ends in /v1)"
            : "";
        gn_err_set(&k->err, GN_ENET, "%s: HTTP %ld from %s%s%s%s", llm_stage_name(k->stage),
                   k->http, c->shown, *msg ? ": " : "", msg, hint);
        snprintf(reason, sizeof reason, "HTTP %ld", k->http);
        double wait = gn_retry_after(k->retry_after_ms[0] ? k->retry_after_ms : NULL,
                                      k->retry_after[0] ? k->retry_after : NULL, time(NULL));
        fail_or_retry(k, GN_ENET, gn_retry_status(k->http), wait, reason);
        return;
    }
    /* 2xx, transfer complete (or cut: CURLE_PARTIAL_FILE) — did the reply end
     * properly? */
    int rc = llm_stream_finish(k->dec, &k->err);
    if (rc) {
        decoder_error(k, rc);
        int truncated = llm_stream_status(k->dec) == LLM_STREAM_TRUNCATED;
        fail_or_retry(k, rc, rc == GN_ENET, -1, truncated ? "reply cut off" : "server error");
        return;
    }
    finish(k, 0);
}

/* ---- the loop ---------------------------------------------------------------- */

static void unlink_from(llm_call **list, llm_call *k)
{
    for (llm_call **p = list; *p; p = &(*p)->anext)
        if (*p == k) {
            *p = k->anext;
            k->anext = NULL;
            return;
        }
}

static void queue_push(llm_client *c, llm_call *k, int front)
{
    k->anext = NULL;
    if (front) {
        k->anext = c->queue_head;
        c->queue_head = k;
        if (!c->queue_tail) c->queue_tail = k;
    } else {
        if (c->queue_tail) c->queue_tail->anext = k;
        else c->queue_head = k;
        c->queue_tail = k;
    }
}

static llm_call *queue_pop(llm_client *c)
{
    llm_call *k = c->queue_head;
    if (k) {
        c->queue_head = k->anext;
        if (!c->queue_head) c->queue_tail = NULL;
        k->anext = NULL;
    }
    return k;
}

/* Move newly submitted calls into the thread's queue; returns the stop
 * flag. */
static int take_pending(llm_client *c)
{
    pthread_mutex_lock(&c->mu);
    llm_call *k = c->pend_head;
    c->pend_head = c->pend_tail = NULL;
    int stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    while (k) {
        llm_call *next = k->next;
        k->next = NULL;
        queue_push(c, k, 0);
        k = next;
    }
    return stop;
}

static void cancel_everything(llm_client *c)
{
    llm_call *k;
    while ((k = c->active)) {
        c->active = k->anext;
        gn_err_set(&k->err, GN_ECANCEL, "cancelled: the client is shutting down");
        finish(k, GN_ECANCEL);
    }
    while ((k = c->waiting)) {
        c->waiting = k->anext;
        gn_err_set(&k->err, GN_ECANCEL, "cancelled: the client is shutting down");
        finish(k, GN_ECANCEL);
    }
    while ((k = queue_pop(c))) {
        gn_err_set(&k->err, GN_ECANCEL, "cancelled: the client is shutting down");
        finish(k, GN_ECANCEL);
    }
    c->nactive = 0;
}

/* One pass over timers and cancel flags; returns the milliseconds until
 * the nearest timer. */
static long sweep(llm_client *c)
{
    double now = gn_now(), next = now + 1.0;
    for (llm_call *k = c->active, *n; k; k = n) {
        n = k->anext;
        int cancelled = atomic_load(&k->cancel);
        double idle = now - k->last_activity;
        if (!cancelled && k->t_complete > 0) {
            /* Whole reply, connection left open: done (after a grace period
             * for the close, which keeps the connection reusable), never
             * stalled. */
            if (now - k->t_complete < COMPLETE_GRACE) {
                if (k->t_complete + COMPLETE_GRACE < next) next = k->t_complete + COMPLETE_GRACE;
                continue;
            }
            unlink_from(&c->active, k);
            c->nactive--;
            finish(k, llm_stream_finish(k->dec, &k->err));
            continue;
        }
        /* A whole (not streamed) reply has its one delta at the end: only
         * the stall timeout applies to it. */
        double quiet = k->stream ? now - k->last_progress : 0, limit = 2 * c->stall_timeout;
        if (!cancelled && (idle >= c->stall_timeout || (quiet >= limit && !k->http))) {
            double q = llm_socks_quiet(k);      /* part of a header line? */
            if (q >= 0 && q < idle) {
                idle = q;
                k->last_activity = now - q;
            }
            if (q >= 0 && !k->http && q < quiet) {   /* the head is progress */
                quiet = q;
                k->last_progress = now - q;
            }
        }
        if (!cancelled && idle < c->stall_timeout && quiet < limit) {
            if (k->last_activity + c->stall_timeout < next) next = k->last_activity + c->stall_timeout;
            if (k->stream && k->last_progress + limit < next) next = k->last_progress + limit;
            continue;
        }
        unlink_from(&c->active, k);
        c->nactive--;
        if (cancelled) {
            gn_err_set(&k->err, GN_ECANCEL, "cancelled");
            finish(k, GN_ECANCEL);
        } else if (idle < c->stall_timeout) {
            gn_err_set(&k->err, GN_ENET, "%s: only keep-alives from %s for %.3g s, no content "
                       "(twice the stall timeout)", llm_stage_name(k->stage), c->shown, limit);
            fail_or_retry(k, GN_ENET, 1, -1, "no progress");
        } else {
            gn_err_set(&k->err, GN_ENET, "%s: no data from %s for %.3g s (stall timeout)",
                       llm_stage_name(k->stage), c->shown, c->stall_timeout);
            fail_or_retry(k, GN_ENET, 1, -1, "stalled");
        }
    }
    for (llm_call *k = c->waiting, *n; k; k = n) {
        n = k->anext;
        if (atomic_load(&k->cancel)) {
            unlink_from(&c->waiting, k);
            gn_err_set(&k->err, GN_ECANCEL, "cancelled");
            finish(k, GN_ECANCEL);
        } else if (k->retry_at <= now) {
            unlink_from(&c->waiting, k);
            queue_push(c, k, 1);
        } else if (k->retry_at < next) {
            next = k->retry_at;
        }
    }
    long wait = (long)ceil((next - now) * 1000);
    return wait < 0 ? 0 : wait;
}

/* Finish queued calls that need no slot (cancelled, or answered from the
 * cache), wherever they are in the queue; then start calls in order while
 * there is room. */
static void launch(llm_client *c)
{
    llm_call **pp = &c->queue_head, *prev = NULL;
    while (*pp) {
        llm_call *k = *pp;
        int cancelled = atomic_load(&k->cancel);
        if (cancelled || (k->attempts == 0 && !k->cached && from_cache(k))) {
            *pp = k->anext;
            if (c->queue_tail == k) c->queue_tail = prev;
            k->anext = NULL;
            if (cancelled) gn_err_set(&k->err, GN_ECANCEL, "cancelled");
            finish(k, cancelled ? GN_ECANCEL : 0);
            continue;
        }
        prev = k;
        pp = &k->anext;
    }
    while (c->queue_head && c->nactive < c->concurrency) {
        llm_call *k = queue_pop(c);
        if (start(k)) {
            gn_err_set(&k->err, GN_ENET, "%s: cannot start a transfer", llm_stage_name(k->stage));
            finish(k, GN_ENET);
        }
    }
}

static void reap(llm_client *c)
{
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(c->multi, &left))) {
        if (m->msg != CURLMSG_DONE) continue;
        void *priv = NULL;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
        llm_call *k = priv;
        CURLcode cc = m->data.result;
        unlink_from(&c->active, k);
        c->nactive--;
        judge(k, cc);
    }
}

void *llm_thread_main(void *arg)
{
    llm_client *c = arg;
    int running = 0;
    for (;;) {
        if (take_pending(c)) break;
        launch(c);
        curl_multi_perform(c->multi, &running);
        reap(c);
        /* After reap, so failures it turned into retries set the timer. */
        long wait = sweep(c);
        if (c->queue_head && c->nactive < c->concurrency) continue;  /* room, or a retry due */
        if (wait > 1000) wait = 1000;
        curl_multi_poll(c->multi, NULL, 0, (int)wait, NULL);
    }
    cancel_everything(c);
    return NULL;
}
