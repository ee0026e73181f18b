/*
 * stream.h — decoding an OpenAI-compatible Chat Completions response.
 *
 * A streamed response (SSE events whose data are `chat.completion.chunk`
 * JSON objects, ended by `data: [DONE]`) is decoded incrementally into an
 * llm_result: per choice the answer text, the reasoning text (from
 * `reasoning_content` / `reasoning` fields and from inline <think>...</think>
 * blocks, which never reach the answer), the refusal, the tool calls with
 * their argument fragments concatenated, and the finish reason; plus usage,
 * model and id.  Every fragment is also reported to a delta callback as it
 * arrives, so a front end can stream it.
 *
 * A response that is one JSON object instead of a stream (a server that
 * ignored "stream": true, or an error object sent with HTTP 200) is
 * recognised by its first significant byte '{' and decoded whole.
 *
 * Ends: [DONE], or end of input once every choice has a finish reason, is
 * LLM_STREAM_COMPLETE; end of input otherwise is LLM_STREAM_TRUNCATED (a
 * last event cut off before its blank line and not parseable is taken as a
 * sign of that, not as malformed data); a server error object (mid-stream,
 * `event: error`, or as the whole body), malformed JSON or an exceeded limit
 * is LLM_STREAM_ERROR.  Events with a type other than "message" and "error"
 * are ignored, as is everything after [DONE].
 *
 * <think> blocks: the tags may be split across chunks anywhere; whitespace
 * right after a tag is dropped ("<think>\nplan</think>\n\nAnswer" gives the
 * reasoning "plan" and the answer "Answer"); a block still open at the end
 * stays reasoning.  Only `reasoning_content` is read when a delta carries
 * both it and `reasoning` (servers that send both send the same text).
 */
#ifndef GENIE_STREAM_H
#define GENIE_STREAM_H

#include "llm/sse.h"
#include "util/buf.h"
#include "util/err.h"

/* Highest accepted choice index and tool-call index, plus one. */
#define LLM_MAX_CHOICES 128
#define LLM_MAX_TOOLS 128
/* Default limit on the accumulated text of one response (64 MiB). */
#define LLM_STREAM_MAX_TEXT ((size_t)64 << 20)

typedef struct llm_tool_call {
    char *id;          /* "call_..." or NULL when the server sent none */
    gn_buf name;       /* function name ("" until sent); fragments are
                          concatenated, but a fragment equal to the whole
                          name so far is a server repeating it: ignored */
    gn_buf arguments;  /* JSON text, fragments concatenated */
} llm_tool_call;

typedef struct llm_choice {
    gn_buf content;        /* the answer, without <think> blocks */
    gn_buf reasoning;      /* reasoning fields and <think> blocks */
    gn_buf refusal;
    char *finish_reason;   /* "stop", "length", "tool_calls", ...; NULL if none */
    llm_tool_call *tools;  /* ntools entries, by tool-call index */
    int ntools;
} llm_choice;

typedef struct llm_usage {
    int present;               /* 1 once a usage object arrived */
    long prompt_tokens, completion_tokens, total_tokens;
    long reasoning_tokens;     /* completion_tokens_details.reasoning_tokens */
} llm_usage;

/* A decoded response.  Embedded struct: llm_result_init / llm_result_release;
 * it owns every string and array it points to. */
typedef struct llm_result {
    char *id, *model;          /* NULL when the server sent none */
    llm_choice *choices;       /* nchoices entries, by choice index */
    int nchoices;
    llm_usage usage;
} llm_result;

/* Make R an empty result (no choices, no usage). */
void llm_result_init(llm_result *r);

/* Free everything R owns and leave it empty, as after llm_result_init. */
void llm_result_release(llm_result *r);

enum llm_delta_kind {
    LLM_DELTA_CONTENT,     /* answer text */
    LLM_DELTA_REASONING,   /* reasoning text */
    LLM_DELTA_REFUSAL,     /* refusal text */
    LLM_DELTA_TOOL_NAME,   /* tool-call function name (or a part of it) */
    LLM_DELTA_TOOL_ARGS    /* a fragment of a tool call's arguments */
};

/* One fragment, as it arrives.  text is NUL-terminated, owned by the decoder,
 * valid only during the callback. */
typedef struct llm_delta {
    enum llm_delta_kind kind;
    int choice;            /* choice index */
    int tool;              /* tool-call index for the TOOL kinds, else -1 */
    const char *text;
    size_t len;
} llm_delta;

/* Return 0 to go on; nonzero cancels the decoding (status GN_ECANCEL).
 * The callback must not call back into the decoder that reports to it. */
typedef int (*llm_delta_cb)(const llm_delta *d, void *ud);

enum llm_stream_status {
    LLM_STREAM_OPEN,        /* more input expected */
    LLM_STREAM_COMPLETE,    /* [DONE], or every choice finished */
    LLM_STREAM_TRUNCATED,   /* input ended without [DONE] or finish reason */
    LLM_STREAM_ERROR        /* server error, malformed data, limit, cancel */
};

typedef struct llm_stream llm_stream;

/* A decoder for one response; CB (may be NULL) gets every fragment with UD.
 * Free with llm_stream_free. */
llm_stream *llm_stream_new(llm_delta_cb cb, void *ud);

/* Free the decoder and its result; NULL is a no-op. */
void llm_stream_free(llm_stream *s);

/* Change the limits (0 keeps a default): the size of one SSE event or of a
 * whole JSON body, and the total text accumulated.  Call before feeding. */
void llm_stream_set_limits(llm_stream *s, size_t max_event, size_t max_text);

/* 1 when the decoder stopped (GN_ELIMIT) because the text outgrew
 * max_text, rather than another limit. */
int llm_stream_text_limited(const llm_stream *s);

/* Feed LEN raw bytes of the HTTP response body.  Returns 0, or the sticky
 * error status: GN_ENET (server error: "server error mid-stream: <message>"),
 * GN_EPARSE (malformed JSON, with its byte offset), GN_ELIMIT, GN_ECANCEL.
 * Bytes after [DONE] are ignored. */
int llm_stream_feed(llm_stream *s, const void *bytes, size_t len, gn_err *e);

/* Feed one event from an SSE parser the caller runs itself (instead of
 * llm_stream_feed; do not mix the two on one decoder).  Returns as
 * llm_stream_feed. */
int llm_stream_event(llm_stream *s, const llm_sse_event *ev, gn_err *e);

/* End of the response.  Returns 0 when complete; GN_ENET with "stream ended
 * without [DONE] or finish reason (truncated)" and status
 * LLM_STREAM_TRUNCATED; or the sticky error.  The result stays readable. */
int llm_stream_finish(llm_stream *s, gn_err *e);

/* Current status. */
enum llm_stream_status llm_stream_status(const llm_stream *s);

/* "open", "complete", "truncated" or "error" (static string). */
const char *llm_stream_status_name(enum llm_stream_status st);

/* The result so far, owned by the decoder (valid until llm_stream_free or
 * llm_stream_take_result). */
const llm_result *llm_stream_result(const llm_stream *s);

/* Move the result into *out (uninitialized storage; the caller then owns it
 * and calls llm_result_release); the decoder's result becomes empty. */
void llm_stream_take_result(llm_stream *s, llm_result *out);

/* Activity counters of the SSE layer (bytes, lines, comments, events). */
void llm_stream_get_stats(const llm_stream *s, llm_sse_stats *out);

/* Decode a whole non-streamed body: a chat completion ({"choices":[{"message":
 * {...}}], "usage":...}) or an error object ({"error":...}).  *out is
 * initialized here and must be released by the caller whatever the return.
 * Returns 0, GN_ENET for an error object ("server error: <message>"),
 * GN_EPARSE for malformed JSON or an object with neither, GN_ELIMIT. */
int llm_decode_body(const char *body, size_t len, llm_result *out, gn_err *e);

#endif
