/*
 * test_stream.c — the Chat Completions decoder on hand-made streams: server
 * errors (mid-stream, `event: error`, as the whole body with HTTP 200),
 * malformed JSON, null or empty choices, usage placement, <think> blocks
 * split anywhere, reasoning fields, tool calls, limits, end-of-stream status,
 * and non-streamed bodies.
 */
#include "harness.h"
#include "llm/stream.h"
#include "util/buf.h"
#include "util/xmem.h"
#include "util/utf8.h"

#include <stdlib.h>

#define CHUNK(delta) "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":" delta ",\"finish_reason\":null}]}\n\n"
#define FINISH(i, why) "data: {\"choices\":[{\"index\":" #i ",\"delta\":{},\"finish_reason\":\"" why "\"}]}\n\n"

typedef struct {
    gn_buf content, reasoning;
    int ncontent, cancel_after;
} sink;

static int on_delta(const llm_delta *d, void *ud)
{
    sink *k = ud;
    if (d->kind == LLM_DELTA_CONTENT) gn_buf_add(&k->content, d->text, d->len), k->ncontent++;
    if (d->kind == LLM_DELTA_REASONING) gn_buf_add(&k->reasoning, d->text, d->len);
    return k->cancel_after && k->ncontent >= k->cancel_after;
}

/* Feed the NULL-terminated PIECES and finish.  Returns the first nonzero
 * status; *out gets the decoder (caller frees). */
static int run(const char *const *pieces, sink *k, llm_stream **out, gn_err *e)
{
    if (k) gn_buf_init(&k->content), gn_buf_init(&k->reasoning);
    llm_stream *s = llm_stream_new(k ? on_delta : NULL, k);
    int rc = 0;
    for (int i = 0; pieces[i] && !rc; i++) rc = llm_stream_feed(s, pieces[i], strlen(pieces[i]), e);
    if (!rc) rc = llm_stream_finish(s, e);
    *out = s;
    return rc;
}

static void sink_release(sink *k)
{
    gn_buf_release(&k->content);
    gn_buf_release(&k->reasoning);
}

/* The first choice; when there is none, a failure and an empty choice
 * (the checks that read it then fail instead of crashing the run). */
static const llm_choice *choice0(const llm_stream *s)
{
    static const llm_choice none;
    const llm_result *r = llm_stream_result(s);
    if (r->nchoices > 0) return &r->choices[0];
    th_fail(__FILE__, __LINE__, "the stream has no choice");
    return &none;
}

TEST(stream_complete_with_and_without_done)
{
    const char *with_done[] = { CHUNK("{\"content\":\"Hi\"}"), FINISH(0, "stop"), "data: [DONE]", NULL };
    const char *no_done[] = { CHUNK("{\"content\":\"Hi\"}"), FINISH(0, "stop"), NULL };
    const char *done_only[] = { CHUNK("{\"content\":\"Hi\"}"), "data: [DONE]\n", NULL };
    const char *const *cases[] = { with_done, no_done, done_only };
    for (int i = 0; i < 3; i++) {
        llm_stream *s;
        gn_err e;
        CHECK_INT(run(cases[i], NULL, &s, &e), 0);
        CHECK_INT(llm_stream_status(s), LLM_STREAM_COMPLETE);
        CHECK_STR(choice0(s)->content.data, "Hi");
        CHECK_STR(llm_stream_result(s)->id, "c1");
        CHECK_STR(llm_stream_result(s)->model, "m");
        llm_stream_free(s);
    }
}

TEST(stream_truncated)
{
    const char *cut[] = { CHUNK("{\"content\":\"Hel\"}"), "data: {\"choices\":[{\"index\":0,\"del", NULL };
    const char *empty[] = { NULL };
    const char *one_unfinished[] = { FINISH(0, "stop"), CHUNK("{}"),
                                     "data: {\"choices\":[{\"index\":1,\"delta\":{}}]}\n\n", NULL };
    const char *const *cases[] = { cut, empty, one_unfinished };
    for (int i = 0; i < 3; i++) {
        llm_stream *s;
        gn_err e;
        CHECK_INT(run(cases[i], NULL, &s, &e), GN_ENET);
        CHECK_INT(llm_stream_status(s), LLM_STREAM_TRUNCATED);
        CHECK_STR(e.msg, "stream ended without [DONE] or finish reason (truncated)");
        CHECK_INT(llm_stream_finish(s, &e), GN_ENET);      /* stays so */
        llm_stream_free(s);
    }
}

TEST(stream_error_object_mid_stream)
{
    const char *in[] = { CHUNK("{\"content\":\"Par\"}"),
                         "data: {\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\",\"code\":503}}\n\n",
                         CHUNK("{\"content\":\"tial\"}"), NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(in, NULL, &s, &e), GN_ENET);
    CHECK_INT(llm_stream_status(s), LLM_STREAM_ERROR);
    CHECK_STR(e.msg, "server error mid-stream: The server is overloaded (type server_error) (code 503)");
    CHECK_STR(choice0(s)->content.data, "Par");
    /* Sticky. */
    CHECK_INT(llm_stream_feed(s, "data: {}\n\n", 10, &e), GN_ENET);
    CHECK_INT(llm_stream_finish(s, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "overloaded");
    llm_stream_free(s);
    const char *str_err[] = { "data: {\"error\":\"quota exceeded\"}\n\n", NULL };
    CHECK_INT(run(str_err, NULL, &s, &e), GN_ENET);
    CHECK_STR(e.msg, "server error mid-stream: quota exceeded");
    llm_stream_free(s);
    const char *null_err[] = { "data: {\"error\":null,\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n", NULL };
    CHECK_INT(run(null_err, NULL, &s, &e), 0);
    llm_stream_free(s);
}

TEST(stream_event_error)
{
    const char *json[] = { CHUNK("{\"content\":\"a\"}"),
                           "event: error\ndata: {\"error\":{\"message\":\"rate limited\"}}\n\n", NULL };
    const char *flat[] = { "event: error\ndata: {\"message\":\"bad gateway\",\"code\":\"502\"}\n\n", NULL };
    const char *plain[] = { "event: error\r\ndata: upstream timed out\r\n\r\n", NULL };
    const char *number[] = { "event: error\ndata: 404 Not Found\n\n", NULL };
    const char *const *cases[] = { json, flat, plain, number };
    const char *want[] = { "server error mid-stream: rate limited",
                           "server error mid-stream: bad gateway (code 502)",
                           "server error mid-stream: upstream timed out",
                           "server error mid-stream: 404 Not Found" };
    for (int i = 0; i < 4; i++) {
        llm_stream *s;
        gn_err e;
        CHECK_INT(run(cases[i], NULL, &s, &e), GN_ENET);
        CHECK_STR(e.msg, want[i]);
        CHECK_INT(llm_stream_status(s), LLM_STREAM_ERROR);
        llm_stream_free(s);
    }
}

TEST(stream_garbage_json)
{
    const char *in[] = { CHUNK("{\"content\":\"x\"}"), "data: {\"choices\": [nope]}\n\n", NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(in, NULL, &s, &e), GN_EPARSE);
    CHECK_INT(llm_stream_status(s), LLM_STREAM_ERROR);
    char want[128];
    snprintf(want, sizeof want, "invalid JSON in stream data at byte 13 of the event starting at stream byte %zu",
             strlen(in[0]));
    CHECK_CONTAINS(e.msg, want);
    CHECK_CONTAINS(e.msg, "near \"nope]}\"");
    llm_stream_free(s);
    const char *trailing[] = { "data: {} {}\n\n", NULL };
    CHECK_INT(run(trailing, NULL, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "at byte 3");
    llm_stream_free(s);
    const char *scalar[] = { "data: 42\n\n", NULL };
    CHECK_INT(run(scalar, NULL, &s, &e), GN_EPARSE);
    CHECK_STR(e.msg, "response data is not a JSON object");
    llm_stream_free(s);
    const char *binary[] = { "data: \x01\xff\n\n", NULL };
    CHECK_INT(run(binary, NULL, &s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "near \"?");
    llm_stream_free(s);
}

TEST(stream_null_and_empty_choices)
{
    const char *in[] = { "data: {\"choices\":null}\n\n", "data: {\"choices\":[]}\n\n", "data: {}\n\n",
                         "data: {\"choices\":[null, 3, {\"index\":0,\"delta\":null}]}\n\n",
                         CHUNK("{\"content\":null,\"refusal\":null,\"tool_calls\":null}"),
                         CHUNK("{\"content\":\"ok\"}"), "data:\n\n", FINISH(0, "stop"), NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(in, NULL, &s, &e), 0);
    CHECK_INT(llm_stream_result(s)->nchoices, 1);
    CHECK_STR(choice0(s)->content.data, "ok");
    CHECK_INT(choice0(s)->ntools, 0);
    llm_stream_free(s);
}

TEST(stream_usage_placement)
{
    const char *with_choices[] = {
        CHUNK("{\"content\":\"a\"}"),
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
        "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}\n\n",
        "data: {\"choices\":[],\"usage\":null}\n\n", "data: [DONE]\n\n", NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(with_choices, NULL, &s, &e), 0);
    const llm_usage *u = &llm_stream_result(s)->usage;
    CHECK_INT(u->present, 1);
    CHECK_INT(u->prompt_tokens, 5);
    CHECK_INT(u->completion_tokens, 2);
    CHECK_INT(u->total_tokens, 7);
    llm_stream_free(s);
    const char *none[] = { CHUNK("{\"content\":\"a\"}"), "data: {\"usage\":{\"prompt_tokens\":-3,\"total_tokens\":1e300}}\n\n",
                           FINISH(0, "stop"), NULL };
    CHECK_INT(run(none, NULL, &s, &e), 0);
    u = &llm_stream_result(s)->usage;
    CHECK_INT(u->present, 1);
    CHECK_INT(u->prompt_tokens, 0);
    CHECK_INT(u->total_tokens, 0);
    llm_stream_free(s);
}

TEST(stream_reasoning_fields)
{
    const char *in[] = { CHUNK("{\"reasoning_content\":\"Let me \"}"), CHUNK("{\"reasoning\":\"think. \"}"),
                         CHUNK("{\"reasoning_content\":\"Done.\",\"reasoning\":\"Done.\"}"),
                         CHUNK("{\"content\":\"42\"}"), FINISH(0, "stop"), NULL };
    llm_stream *s;
    sink k = { 0 };
    gn_err e;
    CHECK_INT(run(in, &k, &s, &e), 0);
    CHECK_STR(choice0(s)->reasoning.data, "Let me think. Done.");
    CHECK_STR(choice0(s)->content.data, "42");
    CHECK_STR(k.reasoning.data, "Let me think. Done.");
    CHECK_STR(k.content.data, "42");
    llm_stream_free(s);
    sink_release(&k);
}

/* CONTENT sent as one content delta per piece, cut at A and B. */
static void think_case(const char *content, size_t a, size_t b, const char *want_c, const char *want_r)
{
    size_t n = strlen(content);
    const char *cuts[] = { content, content + a, content + b, content + n };
    gn_buf in;
    gn_buf_init(&in);
    for (int i = 0; i < 3; i++) {
        gn_buf_puts(&in, "data: {\"choices\":[{\"delta\":{\"content\":\"");
        gn_buf_add(&in, cuts[i], (size_t)(cuts[i + 1] - cuts[i]));
        gn_buf_puts(&in, "\"}}]}\n\n");
    }
    gn_buf_puts(&in, FINISH(0, "stop"));
    const char *pieces[] = { in.data, NULL };
    llm_stream *s;
    sink k = { 0 };
    gn_err e;
    CHECK_INT(run(pieces, &k, &s, &e), 0);
    CHECK_STR(choice0(s)->content.data, want_c);
    CHECK_STR(choice0(s)->reasoning.data, want_r);
    CHECK_STR(k.content.data, want_c);
    CHECK_STR(k.reasoning.data, want_r);
    if (th_failed_now()) printf("  (think case cut at %zu, %zu)\n", a, b);
    llm_stream_free(s);
    sink_release(&k);
    gn_buf_release(&in);
}

TEST(stream_think_blocks_split_anywhere)
{
    const char *c = "<think>\\nPlan: be brief.\\n</think>\\n\\nHello <b>!";
    size_t n = strlen(c);
    for (size_t a = 0; a <= n && !th_failed_now(); a++)
        for (size_t b = a; b <= n && !th_failed_now(); b++) {
            /* A cut inside a JSON escape would make invalid JSON. */
            if ((a && c[a - 1] == '\\') || (b && c[b - 1] == '\\')) continue;
            think_case(c, a, b, "Hello <b>!", "Plan: be brief.\n");
        }
    think_case("<thi" "nk>r</think>x", 4, 6, "x", "r");
    think_case("a <thin", 3, 5, "a <thin", "");          /* not a tag: flushed at finish */
    think_case("x</think>y", 2, 5, "x</think>y", "");    /* a stray close tag is text */
    think_case("<think>unclosed", 3, 9, "", "unclosed");
    think_case("1<think>a</think>2<think>b</think>3", 5, 20, "123", "ab");
}

TEST(stream_think_pending_at_truncation)
{
    const char *in[] = { CHUNK("{\"content\":\"ok <thi\"}"), NULL };
    llm_stream *s;
    sink k = { 0 };
    gn_err e;
    CHECK_INT(run(in, &k, &s, &e), GN_ENET);
    CHECK_STR(choice0(s)->content.data, "ok <thi");
    CHECK_STR(k.content.data, "ok <thi");
    llm_stream_free(s);
    sink_release(&k);
}

TEST(stream_tool_calls)
{
    const char *in[] = {
        CHUNK("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}"),
        CHUNK("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"x\\\":\"}}]}"),
        CHUNK("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]}"),
        /* A server repeating the full name in every chunk. */
        CHUNK("{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"1}\"}}]}"),
        FINISH(0, "tool_calls"), NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(in, NULL, &s, &e), 0);
    const llm_choice *c = choice0(s);
    REQUIRE(c && c->ntools == 2);
    CHECK_STR(c->tools[0].id, "call_a");
    CHECK_STR(c->tools[0].name.data, "f");
    CHECK_STR(c->tools[0].arguments.data, "{\"x\":1}");
    CHECK_STR(c->tools[1].id, "call_b");
    CHECK_STR(c->tools[1].name.data, "g");
    CHECK_STR(c->finish_reason, "tool_calls");
    llm_stream_free(s);
}

TEST(stream_index_limits)
{
    const char *bad[] = { "data: {\"choices\":[{\"index\":1000,\"delta\":{}}]}\n\n",
                          "data: {\"choices\":[{\"index\":-1,\"delta\":{}}]}\n\n",
                          "data: {\"choices\":[{\"index\":1e300,\"delta\":{}}]}\n\n",
                          CHUNK("{\"tool_calls\":[{\"index\":99999}]}") };
    for (int i = 0; i < 4; i++) {
        const char *in[] = { bad[i], NULL };
        llm_stream *s;
        gn_err e;
        CHECK_INT(run(in, NULL, &s, &e), GN_ELIMIT);
        CHECK_CONTAINS(e.msg, "index out of range");
        llm_stream_free(s);
    }
}

TEST(stream_limits_and_cancel)
{
    llm_stream *s = llm_stream_new(NULL, NULL);
    llm_stream_set_limits(s, 0, 10);
    gn_err e;
    const char *in = CHUNK("{\"content\":\"0123456789ABC\"}");
    CHECK_INT(llm_stream_feed(s, in, strlen(in), &e), GN_ELIMIT);
    CHECK_STR(e.msg, "response text larger than the 10-byte limit");
    llm_stream_free(s);
    s = llm_stream_new(NULL, NULL);
    llm_stream_set_limits(s, 64, 0);
    CHECK_INT(llm_stream_feed(s, in, strlen(in), &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "64-byte limit");
    llm_stream_free(s);
    const char *many[] = { CHUNK("{\"content\":\"a\"}"), CHUNK("{\"content\":\"b\"}"),
                           CHUNK("{\"content\":\"c\"}"), NULL };
    sink k = { .cancel_after = 2 };
    CHECK_INT(run(many, &k, &s, &e), GN_ECANCEL);
    CHECK_STR(k.content.data, "ab");
    llm_stream_free(s);
    sink_release(&k);
}

TEST(stream_after_done_and_other_events)
{
    const char *in[] = { ": keep-alive\n\n", "event: ping\ndata: not json\n\n", CHUNK("{\"content\":\"x\"}"),
                         "data:[DONE]\n\n", "data: {\"error\":{\"message\":\"late\"}}\n\n", "garbage", NULL };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(in, NULL, &s, &e), 0);
    CHECK_INT(llm_stream_status(s), LLM_STREAM_COMPLETE);
    CHECK_STR(choice0(s)->content.data, "x");
    llm_sse_stats st;
    llm_stream_get_stats(s, &st);
    CHECK_INT(st.comments, 1);
    llm_stream_free(s);
}

TEST(stream_own_sse_events)
{
    llm_stream *s = llm_stream_new(NULL, NULL);
    llm_sse_event ev = { "message", "{\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}", 0, 0 };
    ev.data_len = strlen(ev.data);
    gn_err e;
    CHECK_INT(llm_stream_event(s, &ev, &e), 0);
    ev.data = "[DONE]";
    ev.data_len = 6;
    CHECK_INT(llm_stream_event(s, &ev, &e), 0);
    CHECK_INT(llm_stream_finish(s, &e), 0);
    CHECK_STR(choice0(s)->content.data, "hi");
    llm_stream_free(s);
}

static const char *completion_body =
    "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-x\",\"choices\":["
    "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"<think>hmm</think>Paris.\","
    "\"refusal\":null},\"finish_reason\":\"stop\"},"
    "{\"index\":1,\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
    "{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":1}\"}},"
    "{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"other\",\"arguments\":{\"k\":[1,2]}}}]},"
    "\"finish_reason\":\"tool_calls\"}],"
    "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":4,\"total_tokens\":14,"
    "\"completion_tokens_details\":{\"reasoning_tokens\":2}}}";

static void check_completion(const llm_result *r)
{
    CHECK_STR(r->id, "chatcmpl-1");
    CHECK_STR(r->model, "gpt-x");
    REQUIRE(r->nchoices == 2);
    CHECK_STR(r->choices[0].content.data, "Paris.");
    CHECK_STR(r->choices[0].reasoning.data, "hmm");
    CHECK_STR(r->choices[0].finish_reason, "stop");
    REQUIRE(r->choices[1].ntools == 2);
    CHECK_STR(r->choices[1].tools[0].name.data, "lookup");
    CHECK_STR(r->choices[1].tools[0].arguments.data, "{\"q\":1}");
    CHECK_STR(r->choices[1].tools[1].id, "call_2");
    CHECK_STR(r->choices[1].tools[1].arguments.data, "{\"k\":[1,2]}");
    CHECK_INT(r->usage.total_tokens, 14);
    CHECK_INT(r->usage.reasoning_tokens, 2);
}

TEST(stream_nonstream_body_decode)
{
    llm_result r;
    gn_err e;
    CHECK_INT(llm_decode_body(completion_body, strlen(completion_body), &r, &e), 0);
    check_completion(&r);
    llm_result_release(&r);
    /* The same body through the streaming decoder (a server that ignored
     * "stream": true), in small pieces after a BOM and blank lines. */
    llm_stream *s = llm_stream_new(NULL, NULL);
    CHECK_INT(llm_stream_feed(s, "\xEF\xBB", 2, &e), 0);
    CHECK_INT(llm_stream_feed(s, "\xBF\r\n ", 3, &e), 0);
    for (size_t i = 0; i < strlen(completion_body); i += 5)
        CHECK_INT(llm_stream_feed(s, completion_body + i, strlen(completion_body + i) < 5 ? strlen(completion_body + i) : 5, &e), 0);
    CHECK_INT(llm_stream_finish(s, &e), 0);
    CHECK_INT(llm_stream_status(s), LLM_STREAM_COMPLETE);
    llm_stream_take_result(s, &r);
    llm_stream_free(s);
    check_completion(&r);
    llm_result_release(&r);
}

TEST(stream_error_body_with_http_200)
{
    const char *bodies[] = {
        "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}",
        "  {\"object\":\"error\",\"message\":\"model not found\",\"type\":\"NotFoundError\",\"code\":404}\n",
        "{\"error\":\"busy\"}" };
    const char *want[] = {
        "server error: Incorrect API key provided (type invalid_request_error) (code invalid_api_key)",
        "server error: model not found (type NotFoundError) (code 404)", "server error: busy" };
    for (int i = 0; i < 3; i++) {
        llm_result r;
        gn_err e;
        CHECK_INT(llm_decode_body(bodies[i], strlen(bodies[i]), &r, &e), GN_ENET);
        CHECK_STR(e.msg, want[i]);
        llm_result_release(&r);
        const char *in[] = { bodies[i], NULL };
        llm_stream *s;
        CHECK_INT(run(in, NULL, &s, &e), GN_ENET);
        CHECK_STR(e.msg, want[i]);
        CHECK_INT(llm_stream_status(s), LLM_STREAM_ERROR);
        llm_stream_free(s);
    }
}

TEST(stream_bad_bodies)
{
    const char *bodies[] = { "", "{", "{\"foo\":1}", "{\"choices\":[]} x", "[1,2]" };
    int want[] = { GN_EPARSE, GN_EPARSE, GN_EPARSE, GN_EPARSE, GN_EPARSE };
    for (int i = 0; i < 5; i++) {
        llm_result r;
        gn_err e;
        CHECK_INT(llm_decode_body(bodies[i], strlen(bodies[i]), &r, &e), want[i]);
        CHECK(e.msg[0] != 0);
        llm_result_release(&r);
    }
    llm_result r;
    gn_err e;
    CHECK_INT(llm_decode_body("{\"choices\":[]}", 14, &r, &e), 0);
    CHECK_INT(r.nchoices, 0);
    llm_result_release(&r);
}

/* A \u0000 escape in a reply would end the decoded text there: it becomes
 * U+FFFD and the rest of the text arrives; an escaped backslash before
 * "u0000" is text, left alone. */
TEST(stream_nul_escape_keeps_the_rest)
{
    const char *pieces[] = { CHUNK("{\"content\":\"before\\u0000after\"}"),
                             CHUNK("{\"content\":\" \\\\u0000 \\\\\\u0000!\"}"), FINISH(0, "stop"),
                             "data: [DONE]\n", NULL };
    sink k = { 0 };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(pieces, &k, &s, &e), 0);
    CHECK_STR(choice0(s)->content.data, "before\xEF\xBF\xBD" "after \\u0000 \\\xEF\xBF\xBD!");
    CHECK_STR(k.content.data, choice0(s)->content.data);
    llm_stream_free(s);
    sink_release(&k);
}

/* A surrogate pair cut between two events (a lone \ud83d, then \ude00)
 * is joined into the one emoji, reported once, complete; a half left
 * alone (a low half first, a high half before text or at the end)
 * becomes U+FFFD, and the rest of the reply arrives. */
TEST(stream_surrogate_pair_across_events)
{
    const char *pieces[] = { CHUNK("{\"content\":\"smile \\ud83d\"}"),
                             CHUNK("{\"content\":\"\\ude00 ok\"}"),
                             CHUNK("{\"content\":\" \\uDE00 \\uD83D\"}"),
                             CHUNK("{\"content\":\"x \\ud83d\\ude00 \\ud83d\"}"),
                             FINISH(0, "stop"), "data: [DONE]\n", NULL };
    sink k = { 0 };
    llm_stream *s;
    gn_err e;
    CHECK_INT(run(pieces, &k, &s, &e), 0);
    CHECK_STR(choice0(s)->content.data, "smile \xF0\x9F\x98\x80 ok \xEF\xBF\xBD \xEF\xBF\xBD"
              "x \xF0\x9F\x98\x80 \xEF\xBF\xBD");
    CHECK_STR(k.content.data, choice0(s)->content.data);
    CHECK(gn_utf8_valid(k.content.data, k.content.len));
    llm_stream_free(s);
    sink_release(&k);

    /* a whole body (not a stream) with a lone half keeps its text too */
    const char *body = "{\"choices\":[{\"message\":{\"content\":\"a \\udc00 b\"},"
                       "\"finish_reason\":\"stop\"}]}";
    llm_result r;
    CHECK_INT(llm_decode_body(body, strlen(body), &r, &e), 0);
    CHECK_STR(r.choices[0].content.data, "a \xEF\xBF\xBD b");
    llm_result_release(&r);
}
