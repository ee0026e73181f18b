/*
 * test_sse.c — the SSE parser on its edge cases, and the recorded OpenAI
 * streams (tests/data/sse-recordings) replayed through the whole decoder:
 * whole, split at every byte offset, one byte at a time, with CR LF and CR
 * line endings, with ": ping" comments, without the final blank line or the
 * [DONE] line, and truncated.  Every variant must decode to the same result
 * as the whole file, and the deltas reported must add up to that result.
 */
#include "harness.h"
#include "llm/sse.h"
#include "llm/stream.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>

/* ---- SSE layer --------------------------------------------------------------- */

typedef struct {
    int n;
    char ev[8][32];
    gn_buf data[8];
    uint64_t off[8];
    int stop_at;          /* return 7 from this event (1-based), 0 = never */
} events;

static void ev_init(events *v)
{
    memset(v, 0, sizeof *v);
    for (int i = 0; i < 8; i++) gn_buf_init(&v->data[i]);
}

static void ev_release(events *v)
{
    for (int i = 0; i < 8; i++) gn_buf_release(&v->data[i]);
}

static int on_event(const llm_sse_event *ev, void *ud, gn_err *e)
{
    events *v = ud;
    if (v->n < 8) {
        snprintf(v->ev[v->n], sizeof v->ev[0], "%s", ev->event);
        gn_buf_add(&v->data[v->n], ev->data, ev->data_len);
        v->off[v->n] = ev->offset;
    }
    v->n++;
    if (v->stop_at && v->n == v->stop_at) return gn_err_set(e, 7, "stopped by test");
    return 0;
}

/* Parse S fed in pieces of STEP bytes (0 = whole); returns the status. */
static int sse_run(const char *s, size_t len, size_t step, events *v, llm_sse_stats *st)
{
    llm_sse *p = llm_sse_new();
    gn_err e;
    int rc = 0;
    for (size_t i = 0; i < len && !rc; i += step ? step : len) {
        size_t n = step && len - i > step ? step : len - i;
        rc = llm_sse_feed(p, s + i, n, on_event, v, &e);
    }
    if (!rc) rc = llm_sse_finish(p, on_event, v, &e);
    if (st) llm_sse_get_stats(p, st);
    llm_sse_free(p);
    return rc;
}

/* One event expected from S under every split into two feeds. */
static void expect_one(const char *s, const char *event, const char *data)
{
    size_t len = strlen(s);
    for (size_t cut = 0; cut <= len; cut++) {
        events v;
        ev_init(&v);
        llm_sse *p = llm_sse_new();
        gn_err e;
        CHECK_INT(llm_sse_feed(p, s, cut, on_event, &v, &e), 0);
        CHECK_INT(llm_sse_feed(p, s + cut, len - cut, on_event, &v, &e), 0);
        CHECK_INT(llm_sse_finish(p, on_event, &v, &e), 0);
        CHECK_INT(v.n, 1);
        CHECK_STR(v.ev[0], event);
        CHECK_STR(v.data[0].data, data);
        llm_sse_free(p);
        ev_release(&v);
        if (th_failed_now()) {
            printf("  (split at %zu of \"%s\")\n", cut, s);
            return;
        }
    }
}

TEST(sse_basic_and_line_endings)
{
    expect_one("data: hello\n\n", "message", "hello");
    expect_one("data: hello\r\n\r\n", "message", "hello");
    expect_one("data: hello\r\r", "message", "hello");
    expect_one("data: a\ndata: b\n\n", "message", "a\nb");
    expect_one("data: a\rdata: b\r\r", "message", "a\nb");
    expect_one("data: a\r\ndata: b\r\n\r\n", "message", "a\nb");
    expect_one("data: a\r\ndata: b\rdata: c\n\n", "message", "a\nb\nc");
}

TEST(sse_cr_split_across_feeds)
{
    /* A CR ending one feed and an LF starting the next are one line end. */
    events v;
    ev_init(&v);
    llm_sse *p = llm_sse_new();
    CHECK_INT(llm_sse_feed(p, "data: a\r", 8, on_event, &v, NULL), 0);
    CHECK_INT(llm_sse_feed(p, "\ndata: b\r", 9, on_event, &v, NULL), 0);
    CHECK_INT(llm_sse_feed(p, "\n", 1, on_event, &v, NULL), 0);
    CHECK_INT(v.n, 0);
    CHECK_INT(llm_sse_feed(p, "\r", 1, on_event, &v, NULL), 0);
    CHECK_INT(v.n, 1);      /* dispatched at the CR, not waiting for the LF */
    CHECK_INT(llm_sse_feed(p, "\n", 1, on_event, &v, NULL), 0);
    CHECK_INT(llm_sse_finish(p, on_event, &v, NULL), 0);
    CHECK_INT(v.n, 1);
    CHECK_STR(v.data[0].data, "a\nb");
    llm_sse_stats st;
    llm_sse_get_stats(p, &st);
    CHECK_INT(st.lines, 3);
    CHECK_INT(st.bytes, 20);
    llm_sse_free(p);
    ev_release(&v);
}

TEST(sse_bom)
{
    expect_one("\xEF\xBB\xBF" "data: x\n\n", "message", "x");
    expect_one("\xEF\xBB\xBF" "data: x", "message", "x");
    /* Only at the start of the stream: later it is part of a field name. */
    events v;
    ev_init(&v);
    const char *s = "data: a\n\n\xEF\xBB\xBF" "data: b\n\n";
    CHECK_INT(sse_run(s, strlen(s), 1, &v, NULL), 0);
    CHECK_INT(v.n, 1);
    CHECK_STR(v.data[0].data, "a");
    ev_release(&v);
}

TEST(sse_data_without_space_and_empty_data)
{
    expect_one("data:x\n\n", "message", "x");
    expect_one("data:  x\n\n", "message", " x");         /* one space removed */
    expect_one("data:\n\n", "message", "");
    expect_one("data\n\n", "message", "");
    expect_one("data: a\ndata:\ndata: b\n\n", "message", "a\n\nb");
    expect_one("data: a:b: c\n\n", "message", "a:b: c");
    expect_one("data: \xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\n\n", "message",
               "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");   /* UTF-8 split */
}

TEST(sse_comments_and_ignored_fields)
{
    expect_one(": ping\nid: 7\nretry: 100\nfoo: bar\ndata: x\n: more\n\n", "message", "x");
    expect_one("dataX: no\ndata : no\nDATA: no\ndata: yes\n\n", "message", "yes");
    events v;
    ev_init(&v);
    llm_sse_stats st;
    const char *s = ": ping\n\n:\n\n: ping\r\n";
    CHECK_INT(sse_run(s, strlen(s), 3, &v, &st), 0);
    CHECK_INT(v.n, 0);
    CHECK_INT(st.comments, 3);
    CHECK_INT(st.lines, 5);
    CHECK_INT(st.events, 0);
    ev_release(&v);
}

TEST(sse_event_names)
{
    expect_one("event: error\ndata: boom\n\n", "error", "boom");
    expect_one("event:error\ndata: boom\n\n", "error", "boom");
    events v;
    ev_init(&v);
    /* The type resets after each event; a type without data dispatches
     * nothing and is forgotten too. */
    const char *s = "event: a\ndata: 1\n\ndata: 2\n\nevent: b\n\ndata: 3\n\n";
    CHECK_INT(sse_run(s, strlen(s), 0, &v, NULL), 0);
    CHECK_INT(v.n, 3);
    CHECK_STR(v.ev[0], "a");
    CHECK_STR(v.ev[1], "message");
    CHECK_STR(v.ev[2], "message");
    CHECK_STR(v.data[2].data, "3");
    ev_release(&v);
}

TEST(sse_finish_flushes_pending_event)
{
    expect_one("data: [DONE]\n", "message", "[DONE]");
    expect_one("data: [DONE]", "message", "[DONE]");
    expect_one("data: a\ndata: b", "message", "a\nb");
    events v;
    ev_init(&v);
    CHECK_INT(sse_run("", 0, 0, &v, NULL), 0);
    CHECK_INT(sse_run("\n\n\r\n", 4, 0, &v, NULL), 0);
    CHECK_INT(v.n, 0);
    ev_release(&v);
}

TEST(sse_offsets_and_stop)
{
    events v;
    ev_init(&v);
    const char *s = "\xEF\xBB\xBF" "data: a\n\n: c\r\ndata: b\r\n\r\ndata: c\n\n";
    v.stop_at = 2;
    gn_err e;
    llm_sse *p = llm_sse_new();
    CHECK_INT(llm_sse_feed(p, s, strlen(s), on_event, &v, &e), 7);
    CHECK_STR(e.msg, "stopped by test");
    CHECK_INT(v.n, 2);
    CHECK_INT(v.off[0], 3);
    CHECK_INT(v.off[1], 17);
    /* Sticky: nothing more is parsed. */
    CHECK_INT(llm_sse_feed(p, "data: z\n\n", 9, on_event, &v, &e), 7);
    CHECK_INT(llm_sse_finish(p, on_event, &v, &e), 7);
    CHECK_INT(v.n, 2);
    llm_sse_free(p);
    p = llm_sse_new();
    CHECK_INT(llm_sse_finish(p, NULL, NULL, &e), 0);
    CHECK_INT(llm_sse_feed(p, "x", 1, NULL, NULL, &e), GN_EUSAGE);
    llm_sse_free(p);
    ev_release(&v);
}

TEST(sse_long_line_100k)
{
    size_t n = 100 * 1024;
    char *s = xmalloc(n + 16);
    memcpy(s, "data: ", 6);
    for (size_t i = 0; i < n; i++) s[6 + i] = (char)('a' + i % 26);
    memcpy(s + 6 + n, "\n\n", 3);
    size_t steps[] = { 0, 1000, 4096, 65536 };
    for (int k = 0; k < 4; k++) {
        events v;
        ev_init(&v);
        CHECK_INT(sse_run(s, n + 8, steps[k], &v, NULL), 0);
        CHECK_INT(v.n, 1);
        CHECK_INT(v.data[0].len, n);
        CHECK(!memcmp(v.data[0].data, s + 6, n));
        ev_release(&v);
    }
    free(s);
}

static int feed_big(llm_sse *p, size_t total, gn_err *e)
{
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    int rc = llm_sse_feed(p, "data: ", 6, NULL, NULL, e);
    for (size_t i = 0; i < total && !rc; i += sizeof chunk)
        rc = llm_sse_feed(p, chunk, sizeof chunk, NULL, NULL, e);
    return rc;
}

TEST(sse_over_limit_line)
{
    gn_err e;
    llm_sse *p = llm_sse_new();
    llm_sse_set_max(p, 1 << 20);
    CHECK_INT(feed_big(p, 2 << 20, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "1048576-byte limit");
    CHECK_INT(llm_sse_feed(p, "\n\n", 2, NULL, NULL, &e), GN_ELIMIT);
    llm_sse_free(p);
    /* Many data lines add up to the same limit. */
    p = llm_sse_new();
    llm_sse_set_max(p, 1000);
    int rc = 0;
    for (int i = 0; i < 200 && !rc; i++) rc = llm_sse_feed(p, "data: 0123456789\n", 17, NULL, NULL, &e);
    CHECK_INT(rc, GN_ELIMIT);
    llm_sse_free(p);
    /* The default limit, 16 MiB. */
    p = llm_sse_new();
    CHECK_INT(feed_big(p, 17 << 20, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "16777216-byte limit");
    llm_sse_free(p);
}

/* ---- recordings ---------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    char tmp[8192];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) gn_buf_add(&b, tmp, n);
    fclose(f);
    *len = b.len;
    return gn_buf_detach(&b);
}

/* Deltas as reported, to compare with the final result. */
typedef struct {
    gn_buf text[3][4];          /* [content, reasoning, refusal][choice] */
    gn_buf tool[4][4][2];       /* [choice][tool][name, args] */
    int bad;                    /* a delta out of the expected ranges */
} deltas;

static void deltas_init(deltas *d)
{
    d->bad = 0;
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) gn_buf_init(&d->text[k][i]);
        for (int t = 0; t < 4; t++) gn_buf_init(&d->tool[i][t][0]), gn_buf_init(&d->tool[i][t][1]);
    }
}

static void deltas_release(deltas *d)
{
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) gn_buf_release(&d->text[k][i]);
        for (int t = 0; t < 4; t++) gn_buf_release(&d->tool[i][t][0]), gn_buf_release(&d->tool[i][t][1]);
    }
}

static int on_delta(const llm_delta *dl, void *ud)
{
    deltas *d = ud;
    if (dl->choice < 0 || dl->choice >= 4 || dl->len != strlen(dl->text)) return d->bad = 1, 0;
    if (dl->kind <= LLM_DELTA_REFUSAL) {
        gn_buf_add(&d->text[dl->kind][dl->choice], dl->text, dl->len);
    } else if (dl->tool >= 0 && dl->tool < 4) {
        gn_buf_add(&d->tool[dl->choice][dl->tool][dl->kind == LLM_DELTA_TOOL_ARGS], dl->text, dl->len);
    } else {
        d->bad = 1;
    }
    return 0;
}

/* A canonical text of everything decoded, for comparing variants. */
static char *summarize(const llm_stream *s)
{
    const llm_result *r = llm_stream_result(s);
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "status=%s id=%s model=%s\n", llm_stream_status_name(llm_stream_status(s)),
                  r->id ? r->id : "-", r->model ? r->model : "-");
    const llm_usage *u = &r->usage;
    gn_buf_printf(&b, "usage=%d %ld %ld %ld %ld\n", u->present, u->prompt_tokens,
                  u->completion_tokens, u->total_tokens, u->reasoning_tokens);
    for (int i = 0; i < r->nchoices; i++) {
        const llm_choice *c = &r->choices[i];
        gn_buf_printf(&b, "choice %d finish=%s\ncontent=%s\nreasoning=%s\nrefusal=%s\n", i,
                      c->finish_reason ? c->finish_reason : "-", c->content.data,
                      c->reasoning.data, c->refusal.data);
        for (int t = 0; t < c->ntools; t++)
            gn_buf_printf(&b, "tool %d id=%s name=%s args=%s\n", t, c->tools[t].id ? c->tools[t].id : "-",
                          c->tools[t].name.data, c->tools[t].arguments.data);
    }
    return gn_buf_detach(&b);
}

/* The deltas must add up to the result exactly. */
static int deltas_match(const deltas *d, const llm_result *r)
{
    if (d->bad || r->nchoices > 4) return 0;
    for (int i = 0; i < r->nchoices; i++) {
        const llm_choice *c = &r->choices[i];
        if (strcmp(d->text[0][i].data, c->content.data) ||
            strcmp(d->text[1][i].data, c->reasoning.data) ||
            strcmp(d->text[2][i].data, c->refusal.data) || c->ntools > 4)
            return 0;
        for (int t = 0; t < c->ntools; t++)
            if (strcmp(d->tool[i][t][0].data, c->tools[t].name.data) ||
                strcmp(d->tool[i][t][1].data, c->tools[t].arguments.data))
                return 0;
    }
    return 1;
}

/* Decode BUF: the first SPLIT bytes in one feed, the rest in pieces of STEP
 * bytes (0 = one piece).  Returns the summary (caller frees); *rc gets the
 * status of finish, *stats the activity counters when not NULL. */
static char *decode(const char *buf, size_t len, size_t split, size_t step, int *rc,
                    llm_sse_stats *stats)
{
    deltas d;
    deltas_init(&d);
    llm_stream *s = llm_stream_new(on_delta, &d);
    gn_err e;
    int r = llm_stream_feed(s, buf, split, &e);
    for (size_t i = split; i < len && !r; i += step ? step : len) {
        size_t n = step && len - i > step ? step : len - i;
        r = llm_stream_feed(s, buf + i, n, &e);
    }
    if (!r) r = llm_stream_finish(s, &e);
    *rc = r;
    if (stats) llm_stream_get_stats(s, stats);
    char *sum = deltas_match(&d, llm_stream_result(s)) ? summarize(s) : xstrdup("deltas differ");
    llm_stream_free(s);
    deltas_release(&d);
    return sum;
}

/* BUF with every LF replaced by EOL. */
static char *relf(const char *buf, size_t len, const char *eol, size_t *out)
{
    gn_buf b;
    gn_buf_init(&b);
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\n') gn_buf_puts(&b, eol);
        else gn_buf_putc(&b, buf[i]);
    *out = b.len;
    return gn_buf_detach(&b);
}

/* BUF with ": ping" after every blank line; *count gets how many. */
static char *pinged(const char *buf, size_t len, size_t *out, int *count)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, ": ping\n");
    *count = 1;
    for (size_t i = 0; i < len; i++) {
        gn_buf_putc(&b, buf[i]);
        if (i > 0 && buf[i] == '\n' && buf[i - 1] == '\n') gn_buf_puts(&b, ": ping\n"), ++*count;
    }
    *out = b.len;
    return gn_buf_detach(&b);
}

/* The events of a stream, in order, for replay comparisons. */
typedef struct {
    int n, at, bad;
    char **ev, **data;
} ev_list;

static int collect(const llm_sse_event *ev, void *ud, gn_err *e)
{
    ev_list *l = ud;
    (void)e;
    l->ev = xrealloc(l->ev, (size_t)(l->n + 1) * sizeof *l->ev);
    l->data = xrealloc(l->data, (size_t)(l->n + 1) * sizeof *l->data);
    l->ev[l->n] = xstrdup(ev->event);
    l->data[l->n++] = xstrndup(ev->data, ev->data_len);
    return 0;
}

static int compare(const llm_sse_event *ev, void *ud, gn_err *e)
{
    ev_list *l = ud;
    (void)e;
    if (l->at >= l->n || strcmp(l->ev[l->at], ev->event) || strlen(l->data[l->at]) != ev->data_len ||
        memcmp(l->data[l->at], ev->data, ev->data_len))
        l->bad = 1;
    l->at++;
    return 0;
}

static void ev_list_free(ev_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->ev[i]), free(l->data[i]);
    free(l->ev);
    free(l->data);
}

/* The SSE layer yields the events of WANT for BUF split at every offset. */
static void sse_every_split(const char *name, const char *what, const char *buf, size_t len,
                            ev_list *want)
{
    for (size_t cut = 0; cut <= len; cut++) {
        llm_sse *p = llm_sse_new();
        want->at = want->bad = 0;
        llm_sse_feed(p, buf, cut, compare, want, NULL);
        llm_sse_feed(p, buf + cut, len - cut, compare, want, NULL);
        llm_sse_finish(p, compare, want, NULL);
        llm_sse_free(p);
        if (want->bad || want->at != want->n) {
            th_fail(__FILE__, __LINE__, "%s: %s: events differ when split at %zu", name, what, cut);
            return;
        }
    }
}

/* Replays of one recording under every variant; returns the whole-file
 * summary (caller frees). */
static char *replay_all(const char *name, const char *buf, size_t len)
{
    int rc;
    char *whole = decode(buf, len, len, 0, &rc, NULL);
    CHECK_INT(rc, 0);
    CHECK_CONTAINS(whole, "status=complete");
#define SAME(expr, what) do { char *v_ = (expr); \
        if (strcmp(v_, whole)) th_fail(__FILE__, __LINE__, "%s: %s differs:\n%s\n---\n%s", name, what, v_, whole); \
        free(v_); } while (0)
    /* The decoder at every split of files up to 6 KB, and of larger ones
     * within 256 bytes of either end plus about 500 spread between (a
     * decode costs about 6 ns a byte, so every split of the 47 KB recording
     * would take 15 s); the SSE layer, whose events are all the decoder sees
     * once the first byte is read, at every split of every file (with CR LF
     * and CR endings too, for all but the 47 KB one). */
    size_t stride = 1 + len / 500;
    for (size_t cut = 0; cut <= len && !th_failed_now(); cut++) {
        if (len > 6144 && cut > 256 && cut < len - 256 && cut % stride) continue;
        char what[64];
        snprintf(what, sizeof what, "split at %zu", cut);
        SAME(decode(buf, len, cut, 0, &rc, NULL), what);
    }
    ev_list want = { 0 };
    llm_sse *p = llm_sse_new();
    llm_sse_feed(p, buf, len, collect, &want, NULL);
    llm_sse_finish(p, collect, &want, NULL);
    llm_sse_free(p);
    CHECK(want.n > 2);
    sse_every_split(name, "LF", buf, len, &want);
    SAME(decode(buf, len, 0, 1, &rc, NULL), "one byte at a time");
    SAME(decode(buf, len, 0, 7, &rc, NULL), "7 bytes at a time");
    const char *eols[] = { "\r\n", "\r" };
    for (int k = 0; k < 2; k++) {
        size_t n;
        char *v = relf(buf, len, eols[k], &n);
        SAME(decode(v, n, n, 0, &rc, NULL), k ? "CR" : "CRLF");
        SAME(decode(v, n, 0, 1, &rc, NULL), k ? "CR byte by byte" : "CRLF byte by byte");
        if (len < 16384) sse_every_split(name, k ? "CR" : "CRLF", v, n, &want);
        free(v);
    }
    ev_list_free(&want);
    size_t n;
    int npings;
    llm_sse_stats st;
    char *v = pinged(buf, len, &n, &npings);
    SAME(decode(v, n, 0, 3, &rc, &st), "with pings");
    CHECK_INT(st.comments, npings - 1);     /* the last one follows [DONE] */
    CHECK_INT(st.bytes, n);
    free(v);
    CHECK(len > 14 && !memcmp(buf + len - 14, "data: [DONE]\n\n", 14));
    SAME(decode(buf, len - 1, len - 1, 0, &rc, NULL), "without the final blank line");
    SAME(decode(buf, len - 2, 0, 1, &rc, NULL), "without any final line end");
    SAME(decode(buf, len - 14, len - 14, 0, &rc, NULL), "without [DONE]");
    CHECK_INT(rc, 0);
#undef SAME
    return whole;
}

/* Cut in the middle: truncated, each text a prefix of the whole one's. */
static void check_truncated(const char *name, const char *buf, size_t len)
{
    llm_stream *full = llm_stream_new(NULL, NULL), *half = llm_stream_new(NULL, NULL);
    gn_err e;
    llm_stream_feed(full, buf, len, NULL);
    CHECK_INT(llm_stream_finish(full, NULL), 0);
    CHECK_INT(llm_stream_feed(half, buf, len / 2, NULL), 0);
    CHECK_INT(llm_stream_finish(half, &e), GN_ENET);
    CHECK_INT(llm_stream_status(half), LLM_STREAM_TRUNCATED);
    CHECK_STR(e.msg, "stream ended without [DONE] or finish reason (truncated)");
    const llm_result *a = llm_stream_result(full), *b = llm_stream_result(half);
    CHECK(b->nchoices <= a->nchoices);
    for (int i = 0; i < b->nchoices && i < a->nchoices; i++) {
        const gn_buf *x = &b->choices[i].content, *y = &a->choices[i].content;
        if (x->len > y->len || memcmp(x->data, y->data, x->len))
            th_fail(__FILE__, __LINE__, "%s: truncated content is not a prefix", name);
    }
    llm_stream_free(full);
    llm_stream_free(half);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .sse files of the recordings directory, sorted; caller frees. */
static int list_recordings(char ***out)
{
    DIR *d = opendir(th_path("tests/data/sse-recordings"));
    int n = 0;
    char **names = NULL;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".sse")) continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xstrdup(de->d_name);
    }
    if (d) closedir(d);
    if (n) qsort(names, (size_t)n, sizeof *names, cmp_names);
    *out = names;
    return n;
}

/* Known facts about particular recordings. */
static void check_facts(const char *name, const char *sum)
{
    if (strstr(name, "4cc50a6135d2")) {
        CHECK_CONTAINS(sum, "finish=length");
        CHECK_CONTAINS(sum, "usage=1 79 1 80 0");
    }
    if (strstr(name, "a491adda08c3")) {
        CHECK_CONTAINS(sum, "choice 2 finish=stop");
        CHECK(!strstr(sum, "choice 3"));
    }
    if (strstr(name, "173417d55340")) {
        CHECK_CONTAINS(sum, "refusal=I'm");
        CHECK_CONTAINS(sum, "content=\nreasoning=");
    }
    if (strstr(name, "2018feb66ae1") || strstr(name, "a247c49c5fcd"))
        CHECK_CONTAINS(sum, "name=get_weather args={\"");
    if (strstr(name, "c6aa7e397b71")) CHECK_CONTAINS(sum, "name=GetWeatherArgs args={\"");
    if (strstr(name, "f82268f2fefd")) {
        CHECK_CONTAINS(sum, "tool 0 id=call_");
        CHECK_CONTAINS(sum, "tool 1 id=call_");
        CHECK_CONTAINS(sum, "name=get_stock_price");
    }
    if (strstr(name, "d61558011839")) CHECK_CONTAINS(sum, "usage=1 19 177 196 0");
    if (!strstr(sum, "tool 0") && !strstr(sum, "refusal=I")) CHECK(!strstr(sum, "content=\nreasoning="));
}

/* Every tool call's reassembled arguments are valid JSON. */
static void check_tool_json(const char *name, const char *buf, size_t len)
{
    llm_stream *s = llm_stream_new(NULL, NULL);
    llm_stream_feed(s, buf, len, NULL);
    CHECK_INT(llm_stream_finish(s, NULL), 0);
    const llm_result *r = llm_stream_result(s);
    for (int i = 0; i < r->nchoices; i++)
        for (int t = 0; t < r->choices[i].ntools; t++) {
            const llm_tool_call *tc = &r->choices[i].tools[t];
            cJSON *j = cJSON_Parse(tc->arguments.data);
            if (!cJSON_IsObject(j)) th_fail(__FILE__, __LINE__, "%s: tool %d args not JSON", name, t);
            cJSON_Delete(j);
            CHECK(tc->name.len > 0 && tc->id && !strncmp(tc->id, "call_", 5));
            CHECK_STR(r->choices[i].finish_reason, "tool_calls");
        }
    llm_stream_free(s);
}

TEST(sse_stream_recordings_replayed)
{
    char **names;
    int n = list_recordings(&names);
    CHECK_INT(n, 12);
    for (int i = 0; i < n; i++) {
        char rel[300];
        snprintf(rel, sizeof rel, "tests/data/sse-recordings/%s", names[i]);
        size_t len;
        char *buf = slurp(th_path(rel), &len);
        CHECK(buf != NULL);
        if (buf) {
            char *sum = replay_all(names[i], buf, len);
            check_facts(names[i], sum);
            check_tool_json(names[i], buf, len);
            check_truncated(names[i], buf, len);
            free(sum);
        }
        free(buf);
        free(names[i]);
    }
    free(names);
}
