/*
 * fuzz_sse.c — libFuzzer target for the SSE parser (engine/llm/sse.c) and
 * the Chat Completions decoder on top of it (engine/llm/stream.c).
 *
 * The input is the response body itself, so the recorded streams in
 * tests/data/sse-recordings make a good seed corpus.  It is decoded four
 * ways: whole; in pseudo-random pieces of 1..64 bytes (sizes drawn from a
 * hash of the input, so a run is reproducible); through a bare llm_sse in the
 * same pieces; and as a non-streamed body.  Beyond the sanitizers' checks,
 * the target aborts when the whole and the piecewise decodes disagree, when
 * the deltas reported do not add up to the result, or when an event's data
 * is not NUL-terminated.  A third decoder with tiny limits exercises the
 * limit errors.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address -I. -Iengine tests/fuzz/fuzz_sse.c \
 *       engine/llm/sse.c engine/llm/stream.c engine/util/{buf,err,xmem}.c -lcjson -o /tmp/fuzz_sse
 *   /tmp/fuzz_sse -max_total_time=60 CORPUS_DIR tests/data/sse-recordings
 */
#include "llm/sse.h"
#include "llm/stream.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    size_t bytes[5];      /* delta bytes by kind */
} tally;

static int on_delta(const llm_delta *d, void *ud)
{
    tally *t = ud;
    if ((unsigned)d->kind > LLM_DELTA_TOOL_ARGS || d->text[d->len] != 0 || d->len == 0) abort();
    t->bytes[d->kind] += d->len;
    return 0;
}

static int on_event(const llm_sse_event *ev, void *ud, gn_err *e)
{
    (void)e;
    if (!ev->event || ev->data[ev->data_len] != 0) abort();
    ++*(size_t *)ud;
    return 0;
}

static uint64_t hash(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h | 1;
}

static size_t next_piece(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return 1 + (size_t)(*x % 64);
}

/* A canonical text of the outcome, and a check of the delta tally. */
static void summarize(llm_stream *s, int rc, const tally *t, gn_buf *out)
{
    const llm_result *r = llm_stream_result(s);
    size_t sums[5] = { 0 };
    gn_buf_printf(out, "rc=%d st=%d n=%d u=%ld\n", rc, llm_stream_status(s), r->nchoices,
                  r->usage.total_tokens);
    for (int i = 0; i < r->nchoices; i++) {
        const llm_choice *c = &r->choices[i];
        gn_buf_printf(out, "%s|%s|%s|%s|%d\n", c->content.data, c->reasoning.data,
                      c->refusal.data, c->finish_reason ? c->finish_reason : "-", c->ntools);
        sums[0] += c->content.len, sums[1] += c->reasoning.len, sums[2] += c->refusal.len;
        for (int k = 0; k < c->ntools; k++) {
            gn_buf_printf(out, "%s|%s|%s\n", c->tools[k].id ? c->tools[k].id : "-",
                          c->tools[k].name.data, c->tools[k].arguments.data);
            sums[3] += c->tools[k].name.len, sums[4] += c->tools[k].arguments.len;
        }
    }
    if (t && memcmp(sums, t->bytes, sizeof sums)) abort();
}

/* Decode in pieces (or whole when SEED is 0); the summary goes to OUT. */
static void decode(const uint8_t *data, size_t size, uint64_t seed, gn_buf *out)
{
    tally t = { { 0 } };
    llm_stream *s = llm_stream_new(on_delta, &t);
    gn_err e;
    int rc = 0;
    for (size_t i = 0; i < size && !rc;) {
        size_t n = seed ? next_piece(&seed) : size;
        if (n > size - i) n = size - i;
        rc = llm_stream_feed(s, data + i, n, &e);
        i += n;
    }
    if (!rc) rc = llm_stream_finish(s, &e);
    if (rc && !e.msg[0]) abort();       /* every failure explains itself */
    summarize(s, rc, &t, out);
    llm_stream_free(s);
}

static void bare_sse(const uint8_t *data, size_t size, uint64_t seed)
{
    llm_sse *p = llm_sse_new();
    llm_sse_set_max(p, 256);
    size_t events = 0;
    int rc = 0;
    for (size_t i = 0; i < size && !rc;) {
        size_t n = next_piece(&seed);
        if (n > size - i) n = size - i;
        rc = llm_sse_feed(p, data + i, n, on_event, &events, NULL);
        i += n;
    }
    if (!rc) llm_sse_finish(p, on_event, &events, NULL);
    llm_sse_stats st;
    llm_sse_get_stats(p, &st);
    if (st.events != events) abort();
    llm_sse_free(p);
}

static void tiny_limits(const uint8_t *data, size_t size)
{
    llm_stream *s = llm_stream_new(NULL, NULL);
    llm_stream_set_limits(s, 200, 100);
    if (!llm_stream_feed(s, data, size, NULL)) llm_stream_finish(s, NULL);
    llm_stream_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gn_buf whole, pieces;
    gn_buf_init(&whole);
    gn_buf_init(&pieces);
    decode(data, size, 0, &whole);
    decode(data, size, hash(data, size), &pieces);
    if (strcmp(whole.data, pieces.data)) {
        fprintf(stderr, "whole:\n%s\npieces:\n%s\n", whole.data, pieces.data);
        abort();
    }
    gn_buf_release(&whole);
    gn_buf_release(&pieces);
    bare_sse(data, size, hash(data, size));
    tiny_limits(data, size);
    llm_result r;
    llm_decode_body((const char *)data, size, &r, NULL);
    llm_result_release(&r);
    return 0;
}
