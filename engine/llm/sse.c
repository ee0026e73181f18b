/*
 * sse.c — the incremental Server-Sent Events parser (sse.h).
 *
 * What: bytes are cut into lines (LF, CR or CR LF), each complete line is
 * interpreted as the WHATWG spec says (blank = dispatch, ':' = comment,
 * "field: value" with one optional space removed), and `data` lines are
 * collected into the pending event.
 *
 * Invariant: the parser state between two feeds is exactly (the bytes of the
 * current incomplete line, whether the last byte fed was a CR that ended a
 * line, the pending event's type and data, the first-line flag).  Nothing
 * else depends on where the input was split, so every split of a stream
 * yields the same events.  A CR at the end of a chunk ends its line at once
 * and only remembers to swallow one LF at the start of the next chunk, so no
 * spurious blank line appears when a CR LF pair is split.  The incomplete
 * line and the pending data together never exceed p->max bytes.
 *
 * Rejected: buffering the whole response and splitting at the end (no
 * streaming, unbounded memory); decoding UTF-8 (the syntax is ASCII and the
 * values are passed through as bytes, so a split inside a multi-byte
 * sequence is harmless by construction); holding a final CR back until the
 * next byte arrives (delays the event for no gain, and the "skip one LF"
 * flag is simpler); a fixed line buffer (provider chunks with tool
 * arguments or logprobs can exceed 64 KiB).
 */
#include "llm/sse.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <string.h>

struct llm_sse {
    gn_buf line;          /* the current, incomplete line */
    gn_buf data;          /* pending event data, each line followed by '\n' */
    gn_buf event;         /* pending event type ("" = "message") */
    int has_data;         /* a data field arrived since the last dispatch */
    int has_fields;       /* a field line arrived since the last dispatch */
    int skip_lf;          /* the last byte was a CR ending a line */
    int first_line;       /* no line ended yet: a leading BOM is stripped */
    int finished;         /* llm_sse_finish was called */
    int status;           /* sticky nonzero status after an error */
    size_t max;
    uint64_t line_off;    /* stream offset of the current line's first byte */
    uint64_t event_off;   /* stream offset of the pending event's first field */
    llm_sse_stats st;
    gn_err err;           /* detail of the sticky status */
};

static const char BOM[] = "\xEF\xBB\xBF";

llm_sse *llm_sse_new(void)
{
    llm_sse *p = xcalloc(1, sizeof *p);
    gn_buf_init(&p->line);
    gn_buf_init(&p->data);
    gn_buf_init(&p->event);
    p->first_line = 1;
    p->max = LLM_SSE_MAX_EVENT;
    gn_err_clear(&p->err);
    return p;
}

void llm_sse_free(llm_sse *p)
{
    if (!p) return;
    gn_buf_release(&p->line);
    gn_buf_release(&p->data);
    gn_buf_release(&p->event);
    free(p);
}

void llm_sse_set_max(llm_sse *p, size_t max_event)
{
    if (max_event) p->max = max_event;
}

void llm_sse_get_stats(const llm_sse *p, llm_sse_stats *out)
{
    *out = p->st;
}

/* Make the error sticky and hand its detail to the caller. */
static int fail(llm_sse *p, int code, gn_err *e)
{
    p->status = code;
    if (!p->err.code) gn_err_set(&p->err, code, "SSE parser stopped (status %d)", code);
    if (e) *e = p->err;
    return code;
}

static int over_limit(llm_sse *p, size_t extra)
{
    return p->line.len + p->data.len + p->event.len + extra > p->max;
}

static int limit_error(llm_sse *p)
{
    gn_err_set(&p->err, GN_ELIMIT,
               "SSE event larger than the %zu-byte limit (event starting at stream byte %llu)",
               p->max, (unsigned long long)(p->has_fields ? p->event_off : p->line_off));
    return GN_ELIMIT;
}

static int dispatch(llm_sse *p, llm_sse_cb cb, void *ud)
{
    int rc = 0;
    if (p->has_data) {
        p->data.data[--p->data.len] = 0;          /* the last line's '\n' */
        llm_sse_event ev = { p->event.len ? p->event.data : "message",
                             p->data.data, p->data.len, p->event_off };
        p->st.events++;
        gn_err_clear(&p->err);
        if (cb) rc = cb(&ev, ud, &p->err);
    }
    gn_buf_reset(&p->data);
    gn_buf_reset(&p->event);
    p->has_data = p->has_fields = 0;
    return rc;
}

/* A field line: NAME is the part before the first ':', VALUE after it. */
static int field(llm_sse *p, const char *name, size_t nn, const char *v, size_t vn)
{
    if (!p->has_fields) p->event_off = p->line_off;
    p->has_fields = 1;
    if (nn == 4 && !memcmp(name, "data", 4)) {
        gn_buf_add(&p->data, v, vn);
        gn_buf_putc(&p->data, '\n');
        p->has_data = 1;
    } else if (nn == 5 && !memcmp(name, "event", 5)) {
        gn_buf_reset(&p->event);
        gn_buf_add(&p->event, v, vn);
    }
    return 0;
}

static int interpret(llm_sse *p, const char *l, size_t n, llm_sse_cb cb, void *ud)
{
    if (n == 0) return dispatch(p, cb, ud);
    if (l[0] == ':') {
        p->st.comments++;
        return 0;
    }
    const char *colon = memchr(l, ':', n);
    size_t nn = colon ? (size_t)(colon - l) : n;
    const char *v = colon ? colon + 1 : l + n;
    size_t vn = (size_t)(l + n - v);
    if (vn && *v == ' ') v++, vn--;
    /* The data copy is what the line already counted for, minus the name. */
    if (over_limit(p, 1)) return limit_error(p);
    return field(p, l, nn, v, vn);
}

/* The current line is complete: interpret it and start the next one. */
static int end_line(llm_sse *p, uint64_t next_off, llm_sse_cb cb, void *ud)
{
    const char *l = p->line.data;
    size_t n = p->line.len;
    p->st.lines++;
    if (p->first_line) {
        p->first_line = 0;
        if (n >= 3 && !memcmp(l, BOM, 3)) l += 3, n -= 3, p->line_off += 3;
    }
    int rc = interpret(p, l, n, cb, ud);
    gn_buf_reset(&p->line);
    p->line_off = next_off;
    return rc;
}

/* The next C at or after S, or END; *at caches the last answer so a chunk
 * is scanned once per character whatever its line endings. */
static const char *next_of(const char *s, const char *end, int c, const char **at)
{
    if (!*at || (*at < s && *at != end)) {
        const char *r = memchr(s, c, (size_t)(end - s));
        *at = r ? r : end;
    }
    return *at;
}

int llm_sse_feed(llm_sse *p, const void *bytes, size_t len, llm_sse_cb cb, void *ud,
                 gn_err *e)
{
    if (p->status) return fail(p, p->status, e);
    if (p->finished) {
        gn_err_set(&p->err, GN_EUSAGE, "SSE data fed after the end of the stream");
        return fail(p, GN_EUSAGE, e);
    }
    const char *s = bytes, *end = s + len, *lf = NULL, *cr = NULL;
    uint64_t base = p->st.bytes;
    p->st.bytes += len;
    while (s < end) {
        if (p->skip_lf) {
            p->skip_lf = 0;
            if (*s == '\n') {
                s++;
                p->line_off++;
                continue;
            }
        }
        const char *t = next_of(s, end, '\n', &lf), *t2 = next_of(s, end, '\r', &cr);
        if (t2 < t) t = t2;
        if (over_limit(p, (size_t)(t - s))) return fail(p, limit_error(p), e);
        gn_buf_add(&p->line, s, (size_t)(t - s));
        if (t == end) break;
        p->skip_lf = *t == '\r';
        s = t + 1;
        int rc = end_line(p, base + (uint64_t)(s - (const char *)bytes), cb, ud);
        if (rc) return fail(p, rc, e);
    }
    return 0;
}

int llm_sse_finish(llm_sse *p, llm_sse_cb cb, void *ud, gn_err *e)
{
    if (p->status) return fail(p, p->status, e);
    if (p->finished) return 0;
    p->finished = 1;
    int rc = 0;
    if (p->line.len) rc = end_line(p, p->st.bytes, cb, ud);
    if (!rc) rc = dispatch(p, cb, ud);
    return rc ? fail(p, rc, e) : 0;
}
