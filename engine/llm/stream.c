/*
 * stream.c — the Chat Completions response decoder (stream.h).
 *
 * What: raw body bytes go through the SSE parser (sse.c); each event's data
 * is parsed with cJSON and merged into the llm_result: every choice and
 * tool call lives at its `index`, text fields are appended, scalar fields
 * (finish reason, tool-call id, model) replaced.  A body whose first
 * significant byte is '{' is a plain JSON response instead, collected whole
 * and merged by the same code (a message is treated as one big delta).
 *
 * Invariant: the result only ever grows by appending what the server sent,
 * in order, and every byte appended to a text buffer is reported once to
 * the delta callback, so the concatenated deltas equal the final texts.
 * The one exception is the <think> splitter: up to 7 bytes that might begin
 * a tag ("<thi") are held back per choice until the next fragment or the end
 * tells what they are, which makes the split independent of where the
 * server cut its chunks.  Errors are sticky: after one, every call returns it.
 *
 * Rejected: keeping the cJSON trees of all chunks (memory grows with the
 * answer, and merging would happen at the end, not while streaming);
 * reporting "[DONE]" as the only sign of success (several servers omit it, and
 * finish reasons say the same); treating a missing [DONE] after finish
 * reasons as an error; guessing at reasoning that starts without a <think>
 * tag (text already shown cannot be taken back; servers that strip the
 * opening tag send `reasoning_content` instead).
 */
#include "llm/stream.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

enum mode { M_SNIFF, M_SSE, M_BODY };

/* Per-choice decoding state that is not part of the result. */
typedef struct {
    int seen;           /* the server sent this choice */
    int in_think;       /* inside a <think> block */
    int trim;           /* drop whitespace right after a think tag */
    char hold[8];       /* tail that may be the start of a tag */
    size_t nhold;
} choice_state;

struct llm_stream {
    llm_sse *sse;
    llm_delta_cb cb;
    void *ud;
    llm_result res;
    choice_state *cst;          /* res.nchoices entries */
    enum mode mode;
    enum llm_stream_status status;
    gn_buf body;                /* M_BODY: the JSON body */
    gn_buf scratch;             /* <think> splitting */
    size_t max_event, max_text, text_total;
    int text_limited;         /* the text limit is what stopped it */
    uint64_t ignored;           /* bytes fed after the end */
    int finishing;              /* inside llm_sse_finish */
    gn_err err;                 /* detail of an error or truncation */
};

static const char OPEN_TAG[] = "<think>", CLOSE_TAG[] = "</think>";

/* ---- result lifecycle ---------------------------------------------------- */

void llm_result_init(llm_result *r)
{
    memset(r, 0, sizeof *r);
}

static void choice_release(llm_choice *c)
{
    gn_buf_release(&c->content);
    gn_buf_release(&c->reasoning);
    gn_buf_release(&c->refusal);
    free(c->finish_reason);
    for (int i = 0; i < c->ntools; i++) {
        free(c->tools[i].id);
        gn_buf_release(&c->tools[i].name);
        gn_buf_release(&c->tools[i].arguments);
    }
    free(c->tools);
}

void llm_result_release(llm_result *r)
{
    for (int i = 0; i < r->nchoices; i++) choice_release(&r->choices[i]);
    free(r->choices);
    free(r->id);
    free(r->model);
    llm_result_init(r);
}

static void ensure_choice(llm_stream *s, int ci)
{
    if (ci < s->res.nchoices) return;
    s->res.choices = xrealloc(s->res.choices, (size_t)(ci + 1) * sizeof *s->res.choices);
    s->cst = xrealloc(s->cst, (size_t)(ci + 1) * sizeof *s->cst);
    for (int i = s->res.nchoices; i <= ci; i++) {
        llm_choice *c = &s->res.choices[i];
        memset(c, 0, sizeof *c);
        gn_buf_init(&c->content);
        gn_buf_init(&c->reasoning);
        gn_buf_init(&c->refusal);
        memset(&s->cst[i], 0, sizeof s->cst[i]);
    }
    s->res.nchoices = ci + 1;
}

static llm_tool_call *ensure_tool(llm_choice *c, int ti)
{
    if (ti >= c->ntools) {
        c->tools = xrealloc(c->tools, (size_t)(ti + 1) * sizeof *c->tools);
        for (int i = c->ntools; i <= ti; i++) {
            c->tools[i].id = NULL;
            gn_buf_init(&c->tools[i].name);
            gn_buf_init(&c->tools[i].arguments);
        }
        c->ntools = ti + 1;
    }
    return &c->tools[ti];
}

/* ---- decoder lifecycle and errors ---------------------------------------- */

llm_stream *llm_stream_new(llm_delta_cb cb, void *ud)
{
    llm_stream *s = xcalloc(1, sizeof *s);
    s->sse = llm_sse_new();
    s->cb = cb;
    s->ud = ud;
    llm_result_init(&s->res);
    gn_buf_init(&s->body);
    gn_buf_init(&s->scratch);
    s->max_event = LLM_SSE_MAX_EVENT;
    s->max_text = LLM_STREAM_MAX_TEXT;
    gn_err_clear(&s->err);
    return s;
}

void llm_stream_free(llm_stream *s)
{
    if (!s) return;
    llm_sse_free(s->sse);
    llm_result_release(&s->res);
    free(s->cst);
    gn_buf_release(&s->body);
    gn_buf_release(&s->scratch);
    free(s);
}

void llm_stream_set_limits(llm_stream *s, size_t max_event, size_t max_text)
{
    if (max_event) s->max_event = max_event;
    if (max_text) s->max_text = max_text;
    llm_sse_set_max(s->sse, s->max_event);
}

enum llm_stream_status llm_stream_status(const llm_stream *s) { return s->status; }
int llm_stream_text_limited(const llm_stream *s) { return s->text_limited; }

const char *llm_stream_status_name(enum llm_stream_status st)
{
    static const char *const names[] = { "open", "complete", "truncated", "error" };
    return (unsigned)st < sizeof names / sizeof *names ? names[st] : "?";
}

const llm_result *llm_stream_result(const llm_stream *s) { return &s->res; }

void llm_stream_take_result(llm_stream *s, llm_result *out)
{
    *out = s->res;
    llm_result_init(&s->res);
    free(s->cst);
    s->cst = NULL;
}

void llm_stream_get_stats(const llm_stream *s, llm_sse_stats *out)
{
    llm_sse_get_stats(s->sse, out);
    out->bytes += s->body.len + s->ignored;
}

static int set_error(llm_stream *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int set_error(llm_stream *s, int code, const char *fmt, ...)
{
    char msg[sizeof s->err.msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gn_err_set(&s->err, code, "%s", msg);
    s->status = LLM_STREAM_ERROR;
    return code;
}

/* Copy the sticky detail out; returns its code (0 when there is none). */
static int report(const llm_stream *s, gn_err *e)
{
    if (e) *e = s->err;
    return s->err.code;
}

/* ---- appending text and reporting deltas --------------------------------- */

/* UTF-16 halves.  A server that cuts its stream between the two halves
 * of a surrogate pair (an emoji) sends a lone "\ud83d" in one event and
 * "\ude00" in the next; neither decodes alone.  parse_exact turns each lone
 * half into its 3-byte CESU form (ED A0..BF xx), which valid UTF-8 never
 * contains; append holds a high half that ends a fragment back, in the
 * buffer but not reported, and joins it with a low half that starts the
 * next fragment; every other half becomes U+FFFD (3 bytes as well). */
static int half_at(const char *p, int low)
{
    const unsigned char *u = (const unsigned char *)p;
    return u[0] == 0xED && u[1] >= (low ? 0xB0 : 0xA0) && u[1] <= (low ? 0xBF : 0xAF);
}

static unsigned half_value(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return 0xD000u | (unsigned)(u[1] & 0x3F) << 6 | (unsigned)(u[2] & 0x3F);
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD";

/* Bytes [from, len) of B just added: each half becomes U+FFFD but a high
 * one ending B.  Returns where the bytes to report end. */
static size_t halves_settle(gn_buf *b, size_t from)
{
    for (size_t i = from; i + 3 <= b->len; i++) {
        if (!half_at(b->data + i, 0) && !half_at(b->data + i, 1)) continue;
        if (half_at(b->data + i, 0) && i + 3 == b->len) return i;
        memcpy(b->data + i, REPLACEMENT, 3);
        i += 2;
    }
    return b->len;
}

static int report_delta(llm_stream *s, enum llm_delta_kind kind, int ci, int ti, const char *p,
                        size_t n)
{
    if (!s->cb || !n) return 0;
    llm_delta d = { kind, ci, ti, p, n };
    if (s->cb(&d, s->ud)) return set_error(s, GN_ECANCEL, "cancelled by the delta callback");
    return 0;
}

static int append(llm_stream *s, gn_buf *b, enum llm_delta_kind kind, int ci, int ti,
                  const char *p, size_t n)
{
    if (!n) return 0;
    if (n > s->max_text - s->text_total) {
        s->text_limited = 1;
        return set_error(s, GN_ELIMIT, "response text larger than the %zu-byte limit",
                         s->max_text);
    }
    s->text_total += n;
    size_t at = b->len;
    if (at >= 3 && half_at(b->data + at - 3, 0)) {         /* a high half held back */
        at -= 3;
        if (n >= 3 && half_at(p, 1)) {
            unsigned cp = 0x10000u + ((half_value(b->data + at) - 0xD800u) << 10) +
                          (half_value(p) - 0xDC00u);
            char u[4] = { (char)(0xF0 | cp >> 18), (char)(0x80 | (cp >> 12 & 0x3F)),
                          (char)(0x80 | (cp >> 6 & 0x3F)), (char)(0x80 | (cp & 0x3F)) };
            b->len = at;
            gn_buf_add(b, u, 4);
            p += 3, n -= 3;
        } else {
            memcpy(b->data + at, REPLACEMENT, 3);
        }
    }
    size_t from = b->len;
    gn_buf_add(b, p, n);
    size_t end = halves_settle(b, from);
    return report_delta(s, kind, ci, ti, b->data + at, end - at);
}

/* At the end, a high half still held back is U+FFFD. */
static int halves_flush(llm_stream *s, gn_buf *b, enum llm_delta_kind kind, int ci, int ti)
{
    if (b->len < 3 || !half_at(b->data + b->len - 3, 0)) return 0;
    memcpy(b->data + b->len - 3, REPLACEMENT, 3);
    return report_delta(s, kind, ci, ti, b->data + b->len - 3, 3);
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Content text outside or inside a think block. */
static int route(llm_stream *s, int ci, const char *p, size_t n)
{
    choice_state *cs = &s->cst[ci];
    if (cs->trim) {
        while (n && is_ws(*p)) p++, n--;
        if (n) cs->trim = 0;
    }
    llm_choice *c = &s->res.choices[ci];
    if (cs->in_think) return append(s, &c->reasoning, LLM_DELTA_REASONING, ci, -1, p, n);
    return append(s, &c->content, LLM_DELTA_CONTENT, ci, -1, p, n);
}

/* Length of the longest proper prefix of TAG that ends P[0..n). */
static size_t tag_tail(const char *p, size_t n, const char *tag, size_t tl)
{
    for (size_t k = tl - 1 < n ? tl - 1 : n; k > 0; k--)
        if (!memcmp(p + n - k, tag, k)) return k;
    return 0;
}

/* The first occurrence of TAG in P[0..n), or NULL (memmem is not C11). */
static const char *find_tag(const char *p, size_t n, const char *tag, size_t tl)
{
    const char *end = p + n;
    while ((p = memchr(p, '<', (size_t)(end - p)))) {
        if ((size_t)(end - p) >= tl && !memcmp(p, tag, tl)) return p;
        p++;
    }
    return NULL;
}

/* Split content into answer and <think> reasoning, whatever the chunking. */
static int think_feed(llm_stream *s, int ci, const char *text, size_t n)
{
    choice_state *cs = &s->cst[ci];
    gn_buf *sc = &s->scratch;
    gn_buf_reset(sc);
    gn_buf_add(sc, cs->hold, cs->nhold);
    gn_buf_add(sc, text, n);
    cs->nhold = 0;
    const char *p = sc->data, *end = p + sc->len;
    while (p < end) {
        const char *tag = cs->in_think ? CLOSE_TAG : OPEN_TAG;
        size_t tl = strlen(tag);
        const char *hit = find_tag(p, (size_t)(end - p), tag, tl);
        if (!hit) {
            size_t keep = tag_tail(p, (size_t)(end - p), tag, tl);
            memcpy(cs->hold, end - keep, keep);
            cs->nhold = keep;
            return route(s, ci, p, (size_t)(end - p) - keep);
        }
        int rc = route(s, ci, p, (size_t)(hit - p));
        if (rc) return rc;
        cs->in_think = !cs->in_think;
        cs->trim = 1;
        p = hit + tl;
    }
    return 0;
}

/* The held-back bytes were not a tag after all: release them as text. */
static int think_flush(llm_stream *s, int ci)
{
    choice_state *cs = &s->cst[ci];
    char hold[sizeof cs->hold];
    size_t n = cs->nhold;
    memcpy(hold, cs->hold, n);
    cs->nhold = 0;
    return route(s, ci, hold, n);
}

static int flush_all(llm_stream *s)
{
    for (int i = 0; i < s->res.nchoices; i++) {
        llm_choice *c = &s->res.choices[i];
        int rc = think_flush(s, i);
        if (!rc) rc = halves_flush(s, &c->content, LLM_DELTA_CONTENT, i, -1);
        if (!rc) rc = halves_flush(s, &c->reasoning, LLM_DELTA_REASONING, i, -1);
        if (!rc) rc = halves_flush(s, &c->refusal, LLM_DELTA_REFUSAL, i, -1);
        for (int t = 0; !rc && t < c->ntools; t++) {
            rc = halves_flush(s, &c->tools[t].name, LLM_DELTA_TOOL_NAME, i, t);
            if (!rc) rc = halves_flush(s, &c->tools[t].arguments, LLM_DELTA_TOOL_ARGS, i, t);
        }
        if (rc) return rc;
    }
    return 0;
}

/* ---- JSON helpers ---------------------------------------------------------- */

static const cJSON *jget(const cJSON *o, const char *k)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = jget(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A non-negative integer field, 0 when absent or absurd (no UB on casts). */
static long jlong(const cJSON *o, const char *k)
{
    const cJSON *v = jget(o, k);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1e15)) return 0;
    return (long)v->valuedouble;
}

/* The "index" field in [0, max), DFLT (the array position) when absent, -1
 * when out of range. */
static int jindex(const cJSON *o, int dflt, int max)
{
    const cJSON *v = jget(o, "index");
    if (!cJSON_IsNumber(v)) return dflt < max ? dflt : -1;
    double d = v->valuedouble;
    return d >= 0 && d < max ? (int)d : -1;
}

static void replace_str(char **dst, const char *v)
{
    free(*dst);
    *dst = xstrdup(v);
}

/* Human-readable text of an error value: its message plus type and code. */
static void error_text(const cJSON *err, gn_buf *out)
{
    const char *msg = cJSON_IsString(err) ? err->valuestring : jstr(err, "message");
    if (msg) {
        gn_buf_puts(out, msg);
    } else {
        char *j = cJSON_PrintUnformatted(err);
        gn_buf_puts(out, j ? j : "(unprintable error)");
        cJSON_free(j);
    }
    const char *type = jstr(err, "type");
    const cJSON *code = jget(err, "code");
    if (type) gn_buf_printf(out, " (type %s)", type);
    if (cJSON_IsString(code)) gn_buf_printf(out, " (code %s)", code->valuestring);
    if (cJSON_IsNumber(code)) gn_buf_printf(out, " (code %.0f)", code->valuedouble);
}

static int server_error(llm_stream *s, const char *prefix, const cJSON *err)
{
    gn_buf t;
    gn_buf_init(&t);
    error_text(err, &t);
    set_error(s, GN_ENET, "%s: %s", prefix, t.data);
    gn_buf_release(&t);
    return GN_ENET;
}

/* Up to 24 bytes at P as printable ASCII, for error messages. */
static void excerpt(const char *p, size_t n, char out[32])
{
    size_t i;
    for (i = 0; i < n && i < 24; i++)
        out[i] = p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '?';
    out[i] = 0;
}

/* The JSON value spanning exactly D[0..n) (surrounding whitespace allowed),
 * or NULL with *pos at the offending byte.  The caller deletes it. */
/* The value of the 4 hex digits at P, or -1. */
static long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* D[0..n) with the escapes cJSON cannot take made decodable, or NULL when
 * there are none.  A \u0000 would end the decoded C string there, and the
 * rest of the text would be lost without a word: it becomes U+FFFD.  A
 * lone surrogate half (which cJSON refuses, losing the whole event)
 * becomes its CESU bytes, for append to join or replace. */
static char *escapes_fixed(const char *d, size_t n, size_t *len)
{
    if (!memmem(d, n, "\\u", 2)) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    int changed = 0;
    size_t i = 0, copied = 0;
    while (i < n) {
        if (d[i] != '\\' || i + 1 >= n) { i++; continue; }
        if (d[i + 1] != 'u' || i + 6 > n) { i += 2; continue; }   /* \x: skip both */
        long v = hex4(d + i + 2);
        int high = v >= 0xD800 && v <= 0xDBFF, low = v >= 0xDC00 && v <= 0xDFFF;
        if (high && i + 12 <= n && d[i + 6] == '\\' && d[i + 7] == 'u') {
            long w = hex4(d + i + 8);
            if (w >= 0xDC00 && w <= 0xDFFF) { i += 12; continue; }  /* a whole pair */
        }
        if (v != 0 && !high && !low) { i += 6; continue; }
        gn_buf_add(&b, d + copied, i - copied);
        if (v == 0) {
            gn_buf_puts(&b, "\\ufffd");
        } else {
            char u[3] = { (char)0xED, (char)(0x80 | (v >> 6 & 0x3F)), (char)(0x80 | (v & 0x3F)) };
            gn_buf_add(&b, u, 3);
        }
        changed = 1;
        i += 6;
        copied = i;
    }
    if (!changed) {
        gn_buf_release(&b);
        return NULL;
    }
    gn_buf_add(&b, d + copied, n - copied);
    *len = b.len;
    return gn_buf_detach(&b);
}

static cJSON *parse_as_is(const char *d, size_t n, size_t *pos)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(d, n, &end, 0);
    *pos = end && end >= d && end <= d + n ? (size_t)(end - d) : 0;
    if (j) {
        while (*pos < n && is_ws(d[*pos])) (*pos)++;
        if (*pos != n) {
            cJSON_Delete(j);
            j = NULL;
        }
    }
    return j;
}

static cJSON *parse_exact(const char *d, size_t n, size_t *pos)
{
    size_t fn = 0;
    char *fixed = escapes_fixed(d, n, &fn);
    if (!fixed) return parse_as_is(d, n, pos);
    cJSON *j = parse_as_is(fixed, fn, pos);
    free(fixed);
    if (!j) cJSON_Delete(parse_as_is(d, n, pos));     /* the position in what was sent */
    return j;
}

/* Parse D[0..n) as JSON into *out: the data of the event at stream byte
 * EV_OFF, or the whole body when EV_OFF is NO_EVENT. */
#define NO_EVENT UINT64_MAX
static int parse_json(llm_stream *s, const char *d, size_t n, uint64_t ev_off, cJSON **out)
{
    size_t pos;
    *out = parse_exact(d, n, &pos);
    if (*out) return 0;
    char near[32];
    excerpt(d + pos, n - pos, near);
    if (ev_off == NO_EVENT)
        return set_error(s, GN_EPARSE, "invalid JSON in the response body at byte %zu: near \"%s\"",
                         pos, near);
    return set_error(s, GN_EPARSE, "invalid JSON in stream data at byte %zu of the event "
                     "starting at stream byte %llu: near \"%s\"", pos,
                     (unsigned long long)ev_off, near);
}

/* ---- merging one chunk (or a whole response) ----------------------------- */

static int apply_tool(llm_stream *s, int ci, const cJSON *tc, int k)
{
    if (!cJSON_IsObject(tc)) return 0;
    int ti = jindex(tc, k, LLM_MAX_TOOLS);
    if (ti < 0) return set_error(s, GN_ELIMIT, "tool-call index out of range (limit %d)",
                                 LLM_MAX_TOOLS);
    llm_tool_call *t = ensure_tool(&s->res.choices[ci], ti);
    const char *id = jstr(tc, "id");
    if (id && *id && (!t->id || strcmp(t->id, id))) replace_str(&t->id, id);
    const cJSON *fn = jget(tc, "function");
    const char *name = jstr(fn, "name");
    int rc = 0;
    /* Servers that repeat the full name in every chunk must not double it. */
    if (name && strcmp(name, t->name.data))
        rc = append(s, &t->name, LLM_DELTA_TOOL_NAME, ci, ti, name, strlen(name));
    const cJSON *args = jget(fn, "arguments");
    if (!rc && cJSON_IsString(args))
        rc = append(s, &t->arguments, LLM_DELTA_TOOL_ARGS, ci, ti, args->valuestring,
                    strlen(args->valuestring));
    else if (!rc && (cJSON_IsObject(args) || cJSON_IsArray(args))) {
        char *j = cJSON_PrintUnformatted(args);
        if (j) rc = append(s, &t->arguments, LLM_DELTA_TOOL_ARGS, ci, ti, j, strlen(j));
        cJSON_free(j);
    }
    return rc;
}

/* Text fields of a delta (or message), besides content. */
static const struct { const char *key; enum llm_delta_kind kind; } text_fields[] = {
    { "refusal", LLM_DELTA_REFUSAL },
    { "reasoning_content", LLM_DELTA_REASONING },
    { "reasoning", LLM_DELTA_REASONING },   /* only if reasoning_content is absent */
};

static int apply_texts(llm_stream *s, int ci, const cJSON *d)
{
    llm_choice *c = &s->res.choices[ci];
    const char *v = jstr(d, "content");
    int rc = v ? think_feed(s, ci, v, strlen(v)) : 0;
    int had_reasoning = 0;
    for (size_t i = 0; !rc && i < sizeof text_fields / sizeof *text_fields; i++) {
        v = jstr(d, text_fields[i].key);
        if (!v) continue;
        int reasoning = text_fields[i].kind == LLM_DELTA_REASONING;
        if (reasoning && had_reasoning++) continue;
        gn_buf *b = reasoning ? &c->reasoning : &c->refusal;
        rc = append(s, b, text_fields[i].kind, ci, -1, v, strlen(v));
    }
    return rc;
}

static int apply_delta(llm_stream *s, int ci, const cJSON *d)
{
    int rc = apply_texts(s, ci, d);
    const cJSON *tcs = jget(d, "tool_calls");
    if (rc || !cJSON_IsArray(tcs)) return rc;
    int k = 0;
    for (const cJSON *tc = tcs->child; tc && !rc; tc = tc->next, k++)
        rc = apply_tool(s, ci, tc, k);
    return rc;
}

static int apply_choice(llm_stream *s, const cJSON *c, int k)
{
    if (!cJSON_IsObject(c)) return 0;
    int ci = jindex(c, k, LLM_MAX_CHOICES);
    if (ci < 0) return set_error(s, GN_ELIMIT, "choice index out of range (limit %d)",
                                 LLM_MAX_CHOICES);
    ensure_choice(s, ci);
    s->cst[ci].seen = 1;
    const cJSON *d = jget(c, "delta");
    if (!cJSON_IsObject(d)) d = jget(c, "message");
    int rc = cJSON_IsObject(d) ? apply_delta(s, ci, d) : 0;
    const char *fr = jstr(c, "finish_reason");
    if (rc || !fr || !*fr) return rc;
    rc = think_flush(s, ci);
    replace_str(&s->res.choices[ci].finish_reason, fr);
    return rc;
}

static void apply_usage(llm_usage *u, const cJSON *o)
{
    if (!cJSON_IsObject(o)) return;
    u->present = 1;
    u->prompt_tokens = jlong(o, "prompt_tokens");
    u->completion_tokens = jlong(o, "completion_tokens");
    u->total_tokens = jlong(o, "total_tokens");
    u->reasoning_tokens = jlong(jget(o, "completion_tokens_details"), "reasoning_tokens");
}

static int is_error_value(const cJSON *v)
{
    return cJSON_IsObject(v) || (cJSON_IsString(v) && *v->valuestring);
}

/* Merge a chunk or a whole response; PREFIX starts server error messages. */
static int apply_object(llm_stream *s, const cJSON *root, const char *prefix)
{
    if (!cJSON_IsObject(root))
        return set_error(s, GN_EPARSE, "response data is not a JSON object");
    const cJSON *err = jget(root, "error");
    if (is_error_value(err)) return server_error(s, prefix, err);
    const char *obj = jstr(root, "object");
    if (obj && !strcmp(obj, "error")) return server_error(s, prefix, root);
    const char *v = jstr(root, "id");
    if (v && *v && !s->res.id) s->res.id = xstrdup(v);
    v = jstr(root, "model");
    if (v && *v && (!s->res.model || strcmp(s->res.model, v))) replace_str(&s->res.model, v);
    const cJSON *choices = jget(root, "choices");
    int rc = 0, k = 0;
    if (cJSON_IsArray(choices))
        for (const cJSON *c = choices->child; c && !rc; c = c->next, k++)
            rc = apply_choice(s, c, k);
    if (!rc) apply_usage(&s->res.usage, jget(root, "usage"));
    return rc;
}

/* ---- SSE events -------------------------------------------------------------- */

static int event_error(llm_stream *s, const llm_sse_event *ev)
{
    const char *prefix = "server error mid-stream";
    size_t pos;
    cJSON *j = parse_exact(ev->data, ev->data_len, &pos);
    if (j) {
        const cJSON *inner = jget(j, "error");
        server_error(s, prefix, is_error_value(inner) ? inner : j);
        cJSON_Delete(j);
        return GN_ENET;
    }
    return set_error(s, GN_ENET, "%s: %.*s", prefix,
                     ev->data_len > 500 ? 500 : (int)ev->data_len, ev->data);
}

static int on_done(llm_stream *s)
{
    int rc = flush_all(s);
    if (!rc) s->status = LLM_STREAM_COMPLETE;
    return rc;
}

static int handle_event(llm_stream *s, const llm_sse_event *ev)
{
    if (s->status != LLM_STREAM_OPEN) return s->status == LLM_STREAM_ERROR ? s->err.code : 0;
    if (!strcmp(ev->event, "error")) return event_error(s, ev);
    if (strcmp(ev->event, "message")) return 0;     /* not a Chat Completions chunk */
    const char *d = ev->data;
    size_t n = ev->data_len;
    while (n && is_ws(*d)) d++, n--;
    while (n && is_ws(d[n - 1])) n--;
    if (!n) return 0;
    if (n == 6 && !memcmp(d, "[DONE]", 6)) return on_done(s);
    cJSON *root;
    size_t pos;
    /* An event cut off by the end of input is a sign of truncation, not
     * malformed data: it is dropped and the end decides the status. */
    if (s->finishing && !(root = parse_exact(ev->data, ev->data_len, &pos))) return 0;
    int rc = s->finishing ? 0 : parse_json(s, ev->data, ev->data_len, ev->offset, &root);
    if (rc) return rc;
    rc = apply_object(s, root, "server error mid-stream");
    cJSON_Delete(root);
    return rc;
}

int llm_stream_event(llm_stream *s, const llm_sse_event *ev, gn_err *e)
{
    int rc = handle_event(s, ev);
    return rc ? report(s, e) : 0;
}

static int on_sse(const llm_sse_event *ev, void *ud, gn_err *e)
{
    llm_stream *s = ud;
    int rc = handle_event(s, ev);
    if (rc) *e = s->err;
    return rc;
}

/* ---- raw bytes ------------------------------------------------------------------ */

static int feed_sse(llm_stream *s, const void *b, size_t n)
{
    gn_err tmp;
    int rc = llm_sse_feed(s->sse, b, n, on_sse, s, &tmp);
    if (rc && s->status != LLM_STREAM_ERROR) {
        s->err = tmp;                   /* the SSE layer's own error (a limit) */
        s->status = LLM_STREAM_ERROR;
    }
    return rc;
}

static int body_add(llm_stream *s, const void *b, size_t n)
{
    if (n > s->max_event - s->body.len)
        return set_error(s, GN_ELIMIT, "response body larger than the %zu-byte limit",
                         s->max_event);
    gn_buf_add(&s->body, b, n);
    return 0;
}

/* Leading bytes that decide nothing: whitespace and a byte-order mark. */
static size_t sniff(llm_stream *s, const unsigned char *b, size_t n)
{
    size_t i = 0;
    while (i < n && (is_ws((char)b[i]) || b[i] == 0xEF || b[i] == 0xBB || b[i] == 0xBF)) i++;
    if (i < n) s->mode = b[i] == '{' ? M_BODY : M_SSE;
    return i;
}

int llm_stream_feed(llm_stream *s, const void *bytes, size_t len, gn_err *e)
{
    if (s->status == LLM_STREAM_ERROR) return report(s, e);
    if (s->status != LLM_STREAM_OPEN) {
        s->ignored += len;
        return 0;
    }
    const unsigned char *b = bytes;
    int rc = 0;
    if (s->mode == M_SNIFF) {
        size_t skip = sniff(s, b, len);
        if (s->mode == M_BODY) {
            /* The skipped bytes are whitespace, meaningless to JSON. */
            b += skip;
            len -= skip;
        }
    }
    if (s->mode == M_BODY) rc = body_add(s, b, len);
    else rc = feed_sse(s, b, len);
    return rc ? report(s, e) : 0;
}

static int finish_body(llm_stream *s)
{
    const char *d = s->body.data;
    size_t n = s->body.len;
    if (n >= 3 && !memcmp(d, "\xEF\xBB\xBF", 3)) d += 3, n -= 3;
    cJSON *root;
    int rc = parse_json(s, d, n, NO_EVENT, &root);
    if (rc) return rc;
    rc = apply_object(s, root, "server error");
    if (!rc && !cJSON_IsArray(jget(root, "choices")))
        rc = set_error(s, GN_EPARSE, "response body has neither choices nor an error");
    cJSON_Delete(root);
    if (!rc) rc = on_done(s);
    return rc;
}

static int all_finished(const llm_stream *s)
{
    int any = 0;
    for (int i = 0; i < s->res.nchoices; i++) {
        if (!s->cst[i].seen) continue;
        if (!s->res.choices[i].finish_reason) return 0;
        any = 1;
    }
    return any;
}

int llm_stream_finish(llm_stream *s, gn_err *e)
{
    if (s->status != LLM_STREAM_OPEN) return report(s, e);
    int rc;
    if (s->mode == M_BODY) {
        rc = finish_body(s);
    } else {
        gn_err tmp;
        s->finishing = 1;
        rc = llm_sse_finish(s->sse, on_sse, s, &tmp);
        s->finishing = 0;
        if (rc && s->status != LLM_STREAM_ERROR) set_error(s, tmp.code, "%s", tmp.msg);
    }
    if (!rc && s->status == LLM_STREAM_OPEN) rc = flush_all(s);
    if (rc) return report(s, e);
    if (s->status == LLM_STREAM_OPEN && all_finished(s)) s->status = LLM_STREAM_COMPLETE;
    if (s->status == LLM_STREAM_OPEN) {
        gn_err_set(&s->err, GN_ENET, "stream ended without [DONE] or finish reason (truncated)");
        s->status = LLM_STREAM_TRUNCATED;
    }
    return report(s, e);
}

int llm_decode_body(const char *body, size_t len, llm_result *out, gn_err *e)
{
    llm_stream *s = llm_stream_new(NULL, NULL);
    s->mode = M_BODY;
    int rc = body_add(s, body, len);
    rc = rc ? report(s, e) : llm_stream_finish(s, e);
    llm_stream_take_result(s, out);
    llm_stream_free(s);
    return rc;
}
