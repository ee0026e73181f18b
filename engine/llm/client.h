/*
 * client.h — the LLM client: every LLM call of genie goes through here.
 *
 * One llm_client per process talks to one OpenAI-compatible endpoint
 * (POST BASE/chat/completions).  It owns one long-lived curl multi handle,
 * driven by a thread of its own, so connections are reused and many calls
 * are in flight at once, up to a concurrency limit; the rest wait in line.
 *
 * Calls are submitted into a group; the submitter then takes finished calls
 * from the group in completion order (llm_group_next) or waits for all
 * (llm_group_wait), and may stop early: llm_group_cancel cancels every call
 * still queued or running (the SUQL optimizer does this once LIMIT is met).
 * Any call can also be cancelled alone, from any thread; a running transfer
 * is then removed at once, which closes its connection.
 *
 * Per call, in order: the cache (SQLite, temperature 0 only, unless
 * bypassed); else the request, streamed (SSE) or whole, with the header
 * X-Genie-Stage; retries with backoff (retry.h) on connection errors, 408,
 * 409, 429 and 5xx, and on a stream that drops or reports a server error,
 * but never once output has been passed to the caller's callback; a stall
 * timeout reset by every byte received (keep-alive comments too) and a
 * connect timeout, never a total one.  A server that rejects
 * "stream_options" (400 naming it) is asked again without it, and never
 * again for the life of the client.  Every finished call is added to the
 * per-stage accounting and, when configured, appended to the JSONL log.
 *
 * Threads: the client's functions may be called from any thread.  Event
 * callbacks run on the client's own thread: they must be quick, must not
 * block, and must not call llm_group_next/llm_group_wait/llm_group_free or
 * llm_client_free (llm_call_cancel is fine).
 *
 * The API key travels only in the Authorization header (and Azure's api-key
 * header on *.azure.com); it is scrubbed from every error message, and never
 * logged.
 */
#ifndef GENIE_LLM_CLIENT_H
#define GENIE_LLM_CLIENT_H

#include "llm/account.h"
#include "llm/request.h"
#include "llm/stage.h"
#include "llm/stream.h"
#include "util/err.h"

/* The most reply text a call takes: bytes per token of its max_tokens,
 * and a floor for small budgets. */
#define LLM_BYTES_PER_TOKEN 32
#define LLM_MIN_TEXT (64 * 1024)

typedef struct llm_client llm_client;
typedef struct llm_group llm_group;
typedef struct llm_call llm_call;

typedef struct llm_config {
    const char *url;            /* base URL ending in the API version, e.g.
                                   http://127.0.0.1:8080/v1 (required) */
    const char *api_key;        /* NULL or "": no Authorization header */
    llm_stage_defaults defaults;
    const char *stage_spec;     /* per-stage overrides (stage.h), may be NULL */
    const char *prices;         /* "MODEL=IN/OUT,...", may be NULL */
    int concurrency;            /* calls in flight at once, >= 1 */
    double connect_timeout;     /* seconds */
    double stall_timeout;       /* seconds without a received byte */
    int retries;                /* retries after the first attempt */
    double retry_max_wait;      /* cap of one wait, seconds */
    const char *cache_path;     /* NULL or "": no cache */
    const char *log_path;       /* NULL or "": no log */
} llm_config;

/* Start a client (and its thread).  Returns 0 and sets *out, or GN_EUSAGE
 * (bad URL, stage spec or prices).  A cache or log that cannot be opened
 * does not fail the start: the client runs without it and says why in
 * llm_client_warnings.  Free with llm_client_free. */
int llm_client_new(const llm_config *cfg, llm_client **out, gn_err *e);

/* Stop the thread, cancelling whatever is still running, and free the
 * client.  Every group must have been freed before.  NULL is a no-op. */
void llm_client_free(llm_client *c);

/* Problems met while starting, one per line ("" when none); owned by C. */
const char *llm_client_warnings(const llm_client *c);

/* The effective settings of STAGE (owned by C). */
const llm_stage_cfg *llm_client_stage(const llm_client *c, int stage);

/* Use MODEL from now on for every stage that uses the global model (a
 * stage given its own model by the stage spec keeps it).  Call it between
 * calls, not while a call of C is being submitted.  Returns 0 or
 * GN_EUSAGE (empty or too long). */
int llm_client_set_model(llm_client *c, const char *model, gn_err *e);

/* The chat completions endpoint as messages show it: without userinfo or
 * query, where a secret may hide (owned by C). */
const char *llm_client_endpoint(const llm_client *c);

/* Copy the accounting so far, one entry per stage, into OUT. */
void llm_client_stats(llm_client *c, llm_stats out[LLM_STAGE__COUNT]);

/* ---- calls ---------------------------------------------------------- */

enum llm_event_kind {
    LLM_EV_DELTA,     /* a fragment of the reply (delta) */
    LLM_EV_RETRY      /* the attempt failed; another follows in `wait` s */
};

typedef struct llm_event {
    enum llm_event_kind kind;
    const llm_delta *delta;     /* LLM_EV_DELTA */
    int attempt;                /* LLM_EV_RETRY: 1 for the first retry */
    double wait;                /* LLM_EV_RETRY: seconds until it */
    const char *reason;         /* LLM_EV_RETRY: why, e.g. "HTTP 429" */
} llm_event;

/* Called on the client's thread with events of one call; see Threads. */
typedef void (*llm_event_cb)(llm_call *call, const llm_event *ev, void *ud);

typedef struct llm_call_opts {
    int stage;                  /* enum llm_stage_id */
    const llm_msg *msgs;        /* copied at submission */
    int nmsgs;
    const char *const *stop;    /* copied; may be NULL */
    int nstop;
    int max_tokens;             /* 0: the stage's; the reply's text may be
                                   LLM_BYTES_PER_TOKEN bytes a token (at
                                   least LLM_MIN_TEXT), more is an error */
    int no_cache;               /* neither read nor write the cache */
    int no_retry_refused;       /* a refused connection ends the call at
                                   once (a check: nothing listens there) */
    llm_event_cb cb;            /* may be NULL */
    void *ud;
    void *tag;                  /* returned by llm_call_tag */
} llm_call_opts;

/* A new empty group of calls on C.  Free with llm_group_free. */
llm_group *llm_group_new(llm_client *c);

/* Submit a call into G.  Returns 0 and sets *out (owned by G, valid until
 * llm_group_free; OUT may be NULL), or GN_EUSAGE (bad stage, no messages). */
int llm_group_submit(llm_group *g, const llm_call_opts *o, llm_call **out, gn_err *e);

/* The next finished call of G not returned before, waiting for one if
 * needed; NULL once every submitted call has been returned. */
llm_call *llm_group_next(llm_group *g);

/* Wait until every call of G has finished. */
void llm_group_wait(llm_group *g);

/* Cancel every call of G that has not finished (they finish with
 * GN_ECANCEL); returns at once. */
void llm_group_cancel(llm_group *g);

/* Cancel what is left, wait for it, free G and its calls.  NULL: no-op. */
void llm_group_free(llm_group *g);

/* Cancel CALL from any thread; no effect once it has finished. */
void llm_call_cancel(llm_call *call);

/* 1 once CALL has finished. */
int llm_call_done(llm_call *call);

/* The outcome of a finished call: 0, or GN_ENET (endpoint unreachable,
 * HTTP error, server error, truncated stream, stall), GN_EPARSE (malformed
 * reply), GN_ELIMIT (reply too large) or GN_ECANCEL, with detail in E. */
int llm_call_status(const llm_call *call, gn_err *e);

/* The decoded reply of a finished call (partial after an error). */
const llm_result *llm_call_result(const llm_call *call);

/* The answer text of choice 0 of a finished call ("" when none). */
const char *llm_call_text(const llm_call *call);

/* The tag given at submission. */
void *llm_call_tag(const llm_call *call);

typedef struct llm_call_info {
    int stage;
    int cached;                 /* answered from the cache */
    int attempts;               /* requests tried (0 when cached) */
    int sent;                   /* one connected and was sent: an LLM call
                                   in account.h's words */
    char cache_key[65];         /* its key in the cache, "" when not cacheable */
    long http_status;           /* of the last attempt, 0 when none */
    double queued;              /* seconds from submission to first send */
    double ttft;                /* seconds from send to first token, -1 */
    double total;               /* seconds from submission to finish */
    long prompt_tokens, completion_tokens;
    double cost;                /* dollars, -1 when the model has no price */
    const char *finish_reason;  /* NULL when none (owned by the call) */
} llm_call_info;

/* Facts about a finished call. */
void llm_call_info_get(const llm_call *call, llm_call_info *out);

/* One call, waited for: submits O to a group of its own and returns its
 * status (as llm_call_status); *OUT (may be NULL) receives the result
 * (caller releases with llm_result_release) and *INFO (may be NULL) the
 * facts. */
int llm_complete(llm_client *c, const llm_call_opts *o, llm_result *out,
                 llm_call_info *info, gn_err *e);

/* Drop the cached reply under KEY (llm_call_info's cache_key), so the
 * same request is sent again: for a reply that turned out unusable (the
 * caller's parser refused it).  No cache or an empty KEY: nothing. */
void llm_client_forget(llm_client *c, const char *key);

#endif
