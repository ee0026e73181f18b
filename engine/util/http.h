/*
 * http.h — genie's policy for an HTTP transfer, and one blocking request
 * that keeps it.
 *
 * Every request genie makes goes out with the same policy: http and https
 * only (redirects too), the user agent "genie/VERSION", no signals, a
 * connect timeout, TCP keep-alive and curl's error buffer.  The LLM
 * client sets it on the easy handles of its multi loop (gn_http_policy);
 * the remote embedder and the agent's HTTP APIs make one blocking request
 * each (gn_http_request), retried by the policy of retry.h when a retry
 * is safe for that request (gn_http_retry).
 */
#ifndef GENIE_UTIL_HTTP_H
#define GENIE_UTIL_HTTP_H

#include "util/buf.h"
#include "util/err.h"

#include <curl/curl.h>
#include <stdatomic.h>
#include <stddef.h>

/* Set genie's policy on easy handle C: protocols http,https (for redirects
 * too), user agent, CURLOPT_NOSIGNAL, TCP keep-alive, the connect timeout
 * CONNECT_TIMEOUT seconds (<= 0: curl's default), and ERRBUF (NULL: none;
 * else CURL_ERROR_SIZE bytes, emptied here) as the error buffer. */
void gn_http_policy(CURL *c, char *errbuf, double connect_timeout);

/* Is CC a failure another attempt cannot mend (a malformed URL, a refused
 * protocol or certificate, no memory, too many redirects, cancelled)? */
int gn_http_curl_final(CURLcode cc);

/* When the header line P[LEN] is Retry-After or retry-after-ms, its value
 * (at most 63 bytes, without the line end) into AFTER or AFTER_MS. */
void gn_http_retry_header(const char *p, size_t len, char after[64], char after_ms[64]);

/* When a failed request may be sent again. */
enum gn_http_retry {
    /* The request may be repeated (a GET, an embedding): connection
     * failures, timeouts, a dropped reply, and HTTP 408, 409, 429, 5xx. */
    GN_HTTP_IDEMPOTENT,
    /* The request may have an effect (a POST that books): only when it
     * cannot have been acted on — the connection was never made (the name
     * did not resolve, the connection was refused or timed out before it
     * was made, TLS failed), or the server refused it for now: HTTP 429,
     * or 503 with a Retry-After header.  Never after a timeout, a reset or
     * another status once the request was sent: the server may have
     * acted on it. */
    GN_HTTP_UNSENT_ONLY,
};

typedef struct gn_http_req {
    const char *what;           /* names the request in messages, e.g.
                                   "embeddings", "API book" */
    const char *method;         /* "GET" or "POST" */
    const char *url;            /* http:// or https:// only */
    const char *const *headers; /* "Name: value" lines */
    int nheaders;
    const char *body;           /* POST: the body (NULL: empty) */
    double connect_timeout;     /* seconds; <= 0: curl's default */
    double timeout;             /* seconds for one attempt; <= 0: none */
    double stall_timeout;       /* seconds without a byte before an attempt
                                   is given up; <= 0: none */
    size_t max_body;            /* most reply bytes kept; 0: 16 MiB */
    int retries;                /* retries after the first attempt */
    double retry_max_wait;      /* cap of one wait, seconds (also of a
                                   server's Retry-After) */
    enum gn_http_retry retry;
    const atomic_int *cancel;   /* may be NULL: when it becomes nonzero the
                                   transfer or the wait stops */
} gn_http_req;

typedef struct gn_http_res {
    long status;                /* of the last attempt; 0: no reply */
    gn_buf body;                /* its body, NUL-terminated */
    int attempts;               /* requests sent, 1 + retries made */
} gn_http_res;

void gn_http_res_init(gn_http_res *r);
void gn_http_res_release(gn_http_res *r);

/* Send RQ, retrying as rq->retry allows.  Returns 0 when the reply is 2xx
 * (status and body in *RES, which the caller initialized and releases);
 * else GN_EUSAGE (a URL that is not http:// or https://), GN_ELIMIT (a
 * reply larger than max_body), GN_ECANCEL, or GN_ENET: no reply ("WHAT:
 * request to URL failed: curl's reason") or a status other than 2xx
 * ("WHAT: HTTP 503 from URL: the body's error message or first 200
 * bytes"), with that reply's status and body left in *RES.  URL in a
 * message is shown without user name, password, query or fragment. */
int gn_http_request(const gn_http_req *rq, gn_http_res *res, gn_err *e);

/* The gist of an error reply BODY (LEN bytes) in DST (N bytes), on one
 * line: a JSON body's error.message, error, message or detail, else its
 * first 200 bytes cut at a character. */
void gn_http_snippet(const char *body, size_t len, char *dst, size_t n);

#endif
