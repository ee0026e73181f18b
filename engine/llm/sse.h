/*
 * sse.h — an incremental Server-Sent Events parser (WHATWG HTML, section
 * "Server-sent events", event stream interpretation).
 *
 * Pure code: bytes in, complete events out through a callback.  The bytes may
 * be split anywhere (inside a line, a UTF-8 sequence, a CR LF pair, the BOM);
 * the events delivered are the same for every split.  Lines end with LF, CR
 * or CR LF.  Only the `data` and `event` fields are used; `id`, `retry` and
 * unknown fields are ignored, comment lines (": ping") are counted as
 * activity.  One event (its pending line plus its data) may not exceed a
 * maximum size, LLM_SSE_MAX_EVENT by default: a longer one is an error
 * (GN_ELIMIT), never unbounded growth.
 */
#ifndef GENIE_SSE_H
#define GENIE_SSE_H

#include "util/err.h"

#include <stddef.h>
#include <stdint.h>

/* Default maximum size of one event in bytes (16 MiB). */
#define LLM_SSE_MAX_EVENT ((size_t)16 << 20)

typedef struct llm_sse llm_sse;

/* One dispatched event.  All pointers are owned by the parser and valid only
 * during the callback. */
typedef struct llm_sse_event {
    const char *event;   /* event type: "message" when the stream named none */
    const char *data;    /* data lines joined with '\n', NUL-terminated (may
                            also contain NUL bytes: use data_len) */
    size_t data_len;
    uint64_t offset;     /* stream byte offset where the event's first field
                            line began (after a BOM, if any) */
} llm_sse_event;

/* Called once per complete event.  Return 0 to go on; any other value stops
 * the parser: llm_sse_feed / llm_sse_finish return that value, and E (the
 * parser's own error object, never NULL) may be filled with the detail,
 * which is then copied to the caller's gn_err. */
typedef int (*llm_sse_cb)(const llm_sse_event *ev, void *ud, gn_err *e);

/* Activity counters, for progress display and stall timers: a caller resets
 * its stall timer whenever `bytes` (or `lines`) grows — comments count. */
typedef struct llm_sse_stats {
    uint64_t bytes;      /* bytes fed so far */
    uint64_t lines;      /* complete lines (blank and comment lines included) */
    uint64_t comments;   /* comment lines, such as ": ping" keep-alives */
    uint64_t events;     /* events dispatched to the callback */
} llm_sse_stats;

/* A fresh parser at the start of a stream; free with llm_sse_free. */
llm_sse *llm_sse_new(void);

/* Free the parser and everything it holds; NULL is a no-op. */
void llm_sse_free(llm_sse *p);

/* Change the maximum event size (bytes, > 0; default LLM_SSE_MAX_EVENT).
 * Meant to be called before the first feed. */
void llm_sse_set_max(llm_sse *p, size_t max_event);

/* Parse LEN more bytes of the stream, calling CB (may be NULL) for every
 * event they complete.  Returns 0, the callback's nonzero value, GN_ELIMIT
 * when an event outgrows the maximum, or GN_EUSAGE after llm_sse_finish.
 * Errors are sticky: once a feed failed, every later call returns the same
 * status and detail without parsing. */
int llm_sse_feed(llm_sse *p, const void *bytes, size_t len, llm_sse_cb cb, void *ud,
                 gn_err *e);

/* End of input: a final line lacking its line ending is processed, and a
 * pending event lacking its final blank line is dispatched.  Returns as
 * llm_sse_feed.  Further feeds are errors (GN_EUSAGE). */
int llm_sse_finish(llm_sse *p, llm_sse_cb cb, void *ud, gn_err *e);

/* Copy the activity counters into *out. */
void llm_sse_get_stats(const llm_sse *p, llm_sse_stats *out);

#endif
