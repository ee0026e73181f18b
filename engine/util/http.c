/*
 * http.c — genie's HTTP policy and the blocking request (see http.h).
 *
 * One attempt is one curl easy transfer with the policy set; its outcome
 * (curl's code, the status, the Retry-After headers, whether a connection
 * was ever made) decides whether another follows.  The waits come from
 * retry.h, the same backoff with jitter and the same reading of
 * Retry-After as the LLM client's, and are slept in short slices so a
 * cancel flag is seen within 50 ms.
 *
 * The invariant for requests with effects (GN_HTTP_UNSENT_ONLY): a
 * request is sent again only when the first cannot have reached the
 * server's application.  curl's "could not resolve", "could not connect"
 * and a connect timeout (no connection time recorded) mean no byte left;
 * a TLS handshake failure means none was readable.  429 and 503 with
 * Retry-After are the server's own "not now", said before acting.  A
 * timeout after the connection, a reset, a 500 or a 504 may each come
 * after the booking was made, so they end the call.
 *
 * Rejected: curl's own --retry logic (it is in the tool, not libcurl);
 * a retry on any connection-level code for POSTs (a reset after the body
 * was sent would book twice); following redirects (a POST turned into a
 * GET, and a redirect to another scheme is refused by the allow-list
 * anyway).
 *
 * Messages read as the LLM client's do: "WHAT: request to URL failed:
 * why" and "WHAT: HTTP 503 from URL: what the body says".
 */
#include "util/http.h"

#include "util/retry.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#ifndef GENIE_VERSION
#define GENIE_VERSION "dev"
#endif

#define DEFAULT_MAX_BODY (16u << 20)

void gn_http_policy(CURL *c, char *errbuf, double connect_timeout)
{
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_USERAGENT, "genie/" GENIE_VERSION);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    if (connect_timeout > 0)
        curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)(connect_timeout * 1000));
    if (errbuf) {
        errbuf[0] = 0;
        curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    }
}

void gn_http_res_init(gn_http_res *r)
{
    memset(r, 0, sizeof *r);
    gn_buf_init(&r->body);
}

void gn_http_res_release(gn_http_res *r)
{
    gn_buf_release(&r->body);
}

void gn_http_snippet(const char *body, size_t len, char *dst, size_t n)
{
    dst[0] = 0;
    if (!len || !n) return;
    cJSON *j = cJSON_ParseWithLength(body, len);
    const cJSON *m = NULL;
    if (j) {
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
        m = cJSON_IsString(err) ? err : cJSON_GetObjectItemCaseSensitive(err, "message");
        if (!cJSON_IsString(m)) m = cJSON_GetObjectItemCaseSensitive(j, "message");
        if (!cJSON_IsString(m)) m = cJSON_GetObjectItemCaseSensitive(j, "detail");
    }
    const char *s = cJSON_IsString(m) ? m->valuestring : body;
    size_t k = cJSON_IsString(m) ? strlen(s) : len;
    if (k > 200) {
        k = 200;
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    }
    size_t o = 0;
    for (size_t i = 0; i < k && s[i] && o + 1 < n; i++) {
        char ch = s[i];
        dst[o++] = ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : ch;
    }
    while (o > 0 && dst[o - 1] == ' ') o--;
    dst[o] = 0;
    cJSON_Delete(j);
}

/* ---- one attempt ------------------------------------------------------- */

typedef struct attempt {
    gn_buf *body;
    size_t max;
    int toobig;
    const atomic_int *cancel;
    char retry_after[64], retry_after_ms[64];
} attempt;

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
    attempt *a = ud;
    size_t len = sz * n;
    if (a->body->len + len > a->max) {
        a->toobig = 1;
        return 0;                       /* curl stops with a write error */
    }
    gn_buf_add(a->body, p, len);
    return len;
}

void gn_http_retry_header(const char *p, size_t len, char after[64], char after_ms[64])
{
    const struct { const char *name; char *dst; } keep[] = {
        { "retry-after:", after }, { "retry-after-ms:", after_ms },
    };
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        size_t nl = strlen(keep[i].name);
        if (len <= nl || strncasecmp(p, keep[i].name, nl)) continue;
        size_t vl = len - nl;
        if (vl > 63) vl = 63;
        memcpy(keep[i].dst, p + nl, vl);
        keep[i].dst[vl] = 0;
        keep[i].dst[strcspn(keep[i].dst, "\r\n")] = 0;
    }
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
    attempt *a = ud;
    gn_http_retry_header(p, sz * n, a->retry_after, a->retry_after_ms);
    return sz * n;
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)dt, (void)dn, (void)ut, (void)un;
    const attempt *a = ud;
    return a->cancel && atomic_load(a->cancel);
}

typedef struct outcome {
    CURLcode cc;
    long status;
    int connected;              /* a connection was made at some point */
    double server_wait;         /* Retry-After, seconds; -1: none */
    int toobig;
    char errbuf[CURL_ERROR_SIZE];
} outcome;

static void one_attempt(const gn_http_req *rq, struct curl_slist *hl, gn_http_res *res,
                        outcome *o)
{
    memset(o, 0, sizeof *o);
    o->server_wait = -1;
    gn_buf_reset(&res->body);
    res->status = 0;
    CURL *c = curl_easy_init();
    if (!c) {
        o->cc = CURLE_FAILED_INIT;
        return;
    }
    attempt a = { .body = &res->body, .max = rq->max_body ? rq->max_body : DEFAULT_MAX_BODY,
                  .cancel = rq->cancel };
    gn_http_policy(c, o->errbuf, rq->connect_timeout);
    curl_easy_setopt(c, CURLOPT_URL, rq->url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    if (rq->method && !strcasecmp(rq->method, "POST"))
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
    else
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    if (rq->timeout > 0) curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(rq->timeout * 1000));
    if (rq->stall_timeout > 0) {
        /* A blocking request has no keep-alives to fool the average. */
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)ceil(rq->stall_timeout));
    }
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &a);
    if (rq->cancel) {
        curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(c, CURLOPT_XFERINFODATA, &a);
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    }
    o->cc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &o->status);
    curl_off_t connect_us = 0;
    curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connect_us);
    o->connected = connect_us > 0 || o->status > 0;
    o->toobig = a.toobig;
    o->server_wait = gn_retry_after(a.retry_after_ms[0] ? a.retry_after_ms : NULL,
                                    a.retry_after[0] ? a.retry_after : NULL, time(NULL));
    res->status = o->status;
    gn_buf_putc(&res->body, 0);         /* NUL-terminated, not counted */
    res->body.len--;
    curl_easy_cleanup(c);
}

/* ---- when to try again ------------------------------------------------- */

int gn_http_curl_final(CURLcode cc)
{
    switch (cc) {
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_OUT_OF_MEMORY:
    case CURLE_TOO_MANY_REDIRECTS:
    case CURLE_FAILED_INIT:
    case CURLE_ABORTED_BY_CALLBACK:
        return 1;
    default:
        return 0;
    }
}

/* Could the request not have reached the server's application? */
static int never_sent(const outcome *o)
{
    switch (o->cc) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
        return 1;
    case CURLE_OPERATION_TIMEDOUT:
        return !o->connected;           /* timed out while connecting */
    default:
        return 0;
    }
}

static int retryable(const gn_http_req *rq, const outcome *o)
{
    if (o->toobig) return 0;
    if (o->cc != CURLE_OK) {
        if (gn_http_curl_final(o->cc)) return 0;
        return rq->retry == GN_HTTP_IDEMPOTENT || never_sent(o);
    }
    if (rq->retry == GN_HTTP_IDEMPOTENT) return gn_retry_status(o->status);
    return o->status == 429 || (o->status == 503 && o->server_wait >= 0);
}

/* Sleep SECONDS unless RQ's cancel flag rises; 1 when it did. */
static int wait_or_cancel(const gn_http_req *rq, double seconds)
{
    while (seconds > 0) {
        if (rq->cancel && atomic_load(rq->cancel)) return 1;
        double step = seconds < 0.05 ? seconds : 0.05;
        struct timespec ts = { 0, (long)(step * 1e9) };
        nanosleep(&ts, NULL);
        seconds -= step;
    }
    return rq->cancel && atomic_load(rq->cancel);
}

/* URL as shown in messages: no user, password, query or fragment (a key
 * may travel in any of them). */
static char *shown_url(const char *url)
{
    CURLU *u = curl_url();
    char *out = NULL;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK) {
        curl_url_set(u, CURLUPART_USER, NULL, 0);
        curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
        curl_url_set(u, CURLUPART_QUERY, NULL, 0);
        curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
        char *s = NULL;
        if (curl_url_get(u, CURLUPART_URL, &s, 0) == CURLUE_OK) {
            out = xstrdup(s);
            curl_free(s);
        }
    }
    curl_url_cleanup(u);
    if (!out) out = xstrndup(url, strcspn(url, "?#"));
    return out;
}

static int fail(const gn_http_req *rq, const outcome *o, const gn_http_res *res, gn_err *e)
{
    const char *what = rq->what ? rq->what : "HTTP";
    if (o->cc == CURLE_ABORTED_BY_CALLBACK && rq->cancel && atomic_load(rq->cancel))
        return gn_err_set(e, GN_ECANCEL, "%s: cancelled", what);
    if (o->toobig)
        return gn_err_set(e, GN_ELIMIT, "%s: response larger than %zu bytes", what,
                          rq->max_body ? rq->max_body : (size_t)DEFAULT_MAX_BODY);
    char *url = shown_url(rq->url);
    int rc;
    if (o->cc != CURLE_OK) {
        rc = gn_err_set(e, GN_ENET, "%s: request to %s failed: %s", what, url,
                        o->errbuf[0] ? o->errbuf : curl_easy_strerror(o->cc));
    } else {
        char snip[256];
        gn_http_snippet(res->body.data, res->body.len, snip, sizeof snip);
        rc = gn_err_set(e, GN_ENET, "%s: HTTP %ld from %s%s%s", what, o->status, url,
                        *snip ? ": " : "", snip);
    }
    free(url);
    return rc;
}

static int scheme_ok(const char *url)
{
    return !strncasecmp(url, "http://", 7) || !strncasecmp(url, "https://", 8);
}

int gn_http_request(const gn_http_req *rq, gn_http_res *res, gn_err *e)
{
    const char *what = rq->what ? rq->what : "HTTP";
    res->attempts = 0;
    res->status = 0;
    if (!rq->url || !scheme_ok(rq->url)) {
        char *url = rq->url ? shown_url(rq->url) : xstrdup("");
        int rc = gn_err_set(e, GN_EUSAGE, "%s: URL '%s' is not http:// or https://", what, url);
        free(url);
        return rc;
    }
    struct curl_slist *hl = NULL;
    for (int i = 0; i < rq->nheaders; i++) hl = curl_slist_append(hl, rq->headers[i]);
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid() ^ (unsigned)(uintptr_t)res;
    outcome o;
    int rc = 0;
    for (;;) {
        res->attempts++;
        one_attempt(rq, hl, res, &o);
        if (o.cc == CURLE_OK && !o.toobig && o.status >= 200 && o.status <= 299) break;
        if (res->attempts > rq->retries || !retryable(rq, &o) ||
            (rq->cancel && atomic_load(rq->cancel))) {
            rc = fail(rq, &o, res, e);
            break;
        }
        double wait = gn_retry_delay(res->attempts, o.server_wait, rq->retry_max_wait, &seed);
        if (wait_or_cancel(rq, wait)) {
            rc = gn_err_set(e, GN_ECANCEL, "%s: cancelled", what);
            break;
        }
    }
    curl_slist_free_all(hl);
    return rc;
}
