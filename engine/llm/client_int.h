/*
 * client_int.h — internals shared by client.c (the public side: groups,
 * submission, results) and transfer.c (the client's thread: curl, retries,
 * cache, accounting, log).  Not a public header.
 *
 * Ownership and locking.  A call belongs to its group; the group frees it.
 * Fields marked [mu] are read and written under client->mu; fields marked
 * [io] are touched only by the client's thread, until the call is done,
 * after which the thread never touches the call again and the submitter may
 * read them (the done flag is set under mu, which orders the writes).
 */
#ifndef GENIE_LLM_CLIENT_INT_H
#define GENIE_LLM_CLIENT_INT_H

#include "llm/cache.h"
#include "llm/client.h"
#include "util/buf.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

/* Choices whose streamed text is checked for the API key (n > 4 is not
 * something genie asks for). */
#define LLM_HELD_CHOICES 4

enum call_state { CALL_QUEUED, CALL_DONE };

struct llm_call {
    llm_client *cl;
    llm_group *g;
    /* what to send, fixed at submission */
    int stage;
    char model[128];
    double temperature;
    int max_tokens, stream, no_cache, no_retry_refused;
    size_t max_text;            /* most bytes of reply text */
    char key[65];               /* cache key; "" when not cacheable
                                   (temperature > 0, or bypassed) */
    llm_msg *msgs;              /* copies */
    int nmsgs;
    char **stop;
    int nstop;
    llm_event_cb cb;
    void *ud, *tag;
    atomic_int cancel;          /* set by llm_call_cancel, any thread */
    /* [mu] */
    enum call_state state;
    llm_call *next;             /* in the pending queue or the group's
                                   finished queue */
    llm_call *gnext;            /* all calls of the group, for freeing */
    /* [io] the transfer */
    CURL *easy;
    struct curl_slist *headers;
    char *body;                 /* of the last attempt; kept for the log */
    llm_stream *dec;
    gn_buf errbody;             /* body of a non-2xx reply (bounded) */
    long http;
    int feed_rc;                /* decoder error during the transfer */
    gn_err feed_err;
    char retry_after[64], retry_after_ms[64];
    int attempts, delivered, deltas, usage_opt;
    int free_retries;           /* attempts that do not count as retries */
    double t_submit, t_first_send, t_send, t_first_token, t_complete, t_done;
    double last_activity, retry_at;
    int typed;                  /* the 2xx reply's content type was checked */
    double last_progress;       /* the last delta (or the send) */
    size_t idle_bytes;          /* body bytes since then */
    gn_buf held[LLM_HELD_CHOICES][3];  /* text held back from the callback
                                   while it may end in the start of the
                                   API key (content, reasoning, refusal) */
    int fd;                     /* the connection's socket, or -1 (socks.c) */
    int sent;                   /* an attempt connected and sent its request */
    llm_call *anext;            /* in the thread's active or waiting list */
    /* [io] then read-only: the outcome */
    int status;
    gn_err err;
    llm_result res;
    int cached;
    double cost;
};

struct llm_group {
    llm_client *cl;
    llm_call *all;              /* [mu] every call, by gnext */
    llm_call *fin_head, *fin_tail;   /* [mu] finished, not yet returned */
    int submitted, finished, returned;   /* [mu] */
};

struct llm_client {
    char *url, *key, *endpoint, *warnings;
    char *shown;                /* endpoint for messages: no userinfo, query */
    int azure;
    llm_stage_cfg stages[LLM_STAGE__COUNT];
    char model[128];            /* the global model (--model) */
    llm_price *prices;
    int nprices;
    int concurrency, retries;
    double connect_timeout, stall_timeout, retry_max_wait;
    llm_cache *cache;
    FILE *log;
    pthread_mutex_t log_mu;
    /* shared with the thread */
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* a call finished */
    llm_call *pend_head, *pend_tail;   /* [mu] submitted, not yet taken;
                                          linked by next, which the thread
                                          rewrites once it has detached the
                                          list */
    int stop;                   /* [mu] llm_client_free was called */
    int groups;                 /* [mu] groups alive */
    int no_usage_opt;           /* [io] the server rejects stream_options */
    llm_stats stats[LLM_STAGE__COUNT];  /* [mu] */
    /* [io] */
    CURLM *multi;
    pthread_t thread;
    llm_call *queue_head, *queue_tail; /* taken from pending, not started */
    llm_call *active;           /* transfers in the multi handle */
    llm_call *waiting;          /* waiting for a retry */
    int nactive;
    unsigned seed;
    curl_socket_t *socks;       /* every socket curl has open (socks.c) */
    int nsocks, capsocks;
};

/* The client's sockets (socks.c): set K's easy handle to open and close
 * its sockets through C's table and to learn which one is its own. */
void llm_socks_setup(llm_client *c, llm_call *k);
/* Seconds since K's socket last received data, from the kernel; -1 when
 * unknown (no socket yet, or a system without TCP_INFO). */
double llm_socks_quiet(const llm_call *k);
/* Free the table, after curl_multi_cleanup closed the sockets. */
void llm_socks_free(llm_client *c);

/* The client's thread (transfer.c). */
void *llm_thread_main(void *arg);

/* Mark CALL finished (status and err already set) and queue it in its
 * group; takes and releases mu.  Called by the thread only, as the last
 * thing it does with the call. */
void llm_call_finish(llm_call *call);


/* Replace every occurrence of the API key in S (NUL-terminated, in place)
 * with "***"; no-op when the client has no key. */
void llm_scrub_key(const llm_client *c, char *s);

#endif
