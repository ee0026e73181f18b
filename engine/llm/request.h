/*
 * request.h — one Chat Completions request: messages, body, cache key.
 *
 * The body is built here and nowhere else, so what is sent, what is logged
 * and what keys the cache cannot drift apart.  The cache key is a SHA-256
 * over a canonical JSON of everything that determines the reply: model,
 * messages (role and content), temperature, max tokens and stop sequences.
 * Not in the key: whether the reply is streamed, the stage name (the same
 * messages get the same reply whichever stage sends them), usage options.
 */
#ifndef GENIE_LLM_REQUEST_H
#define GENIE_LLM_REQUEST_H

#include "util/err.h"

/* One chat message; the strings belong to the caller. */
typedef struct llm_msg {
    const char *role;      /* "system", "user" or "assistant" */
    const char *content;
} llm_msg;

typedef struct llm_request {
    const llm_msg *msgs;
    int nmsgs;
    const char *model;
    double temperature;
    int max_tokens;        /* 0: not sent */
    int stream;
    const char *const *stop;   /* nstop stop sequences (may be NULL) */
    int nstop;
} llm_request;

/* The JSON body of R (caller frees).  With stream and INCLUDE_USAGE it asks
 * for "stream_options": {"include_usage": true}. */
char *llm_request_body(const llm_request *r, int include_usage);

/* The cache key of R sent to ENDPOINT (the server's URL: the same model
 * name means another model on another server): 64 lowercase hex digits
 * and a NUL in OUT. */
void llm_request_key(const llm_request *r, const char *endpoint, char out[65]);

#endif
