/*
 * test_llm_client.c — the LLM client against the mock server: streaming,
 * whole replies, headers, retries and their events, faults, stall and
 * connect timeouts, cancellation, concurrency and completion order, the
 * cache, the JSONL log, accounting.
 */
#include "harness.h"
#include "mock.h"

#include "llm/client.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const llm_msg hello[] = {
    { "system", "You are terse." },
    { "user", "hello there" },
};

/* A client on the mock server with test-friendly timings. */
static llm_client *client(const char *extra_spec, int retries, double stall, const char *cache,
                          const char *log)
{
    const char *url = th_mock_url();
    if (!url) return NULL;
    llm_config cfg = {
        .url = url, .api_key = "sk-test-secret-123",
        .defaults = { .model = "mock-model", .temperature = 0, .max_tokens = 0, .stream = 1 },
        .stage_spec = extra_spec, .concurrency = 4, .connect_timeout = 2,
        .stall_timeout = stall > 0 ? stall : 10, .retries = retries, .retry_max_wait = 0.05,
        .cache_path = cache, .log_path = log,
    };
    llm_client *c = NULL;
    gn_err e;
    if (llm_client_new(&cfg, &c, &e)) th_fail(__FILE__, __LINE__, "client: %s", e.msg);
    return c;
}

static llm_call_opts opts(int stage, const llm_msg *m, int n)
{
    llm_call_opts o = { .stage = stage, .msgs = m, .nmsgs = n };
    return o;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Events seen by a callback. */
typedef struct {
    pthread_mutex_t mu;
    gn_buf content, reasoning;
    int retries;
    double last_wait;
    char reason[80];
} seen;

static void on_event(llm_call *k, const llm_event *ev, void *ud)
{
    (void)k;
    seen *s = ud;
    pthread_mutex_lock(&s->mu);
    if (ev->kind == LLM_EV_DELTA && ev->delta->kind == LLM_DELTA_CONTENT)
        gn_buf_add(&s->content, ev->delta->text, ev->delta->len);
    else if (ev->kind == LLM_EV_DELTA && ev->delta->kind == LLM_DELTA_REASONING)
        gn_buf_add(&s->reasoning, ev->delta->text, ev->delta->len);
    else if (ev->kind == LLM_EV_RETRY) {
        s->retries++;
        s->last_wait = ev->wait;
        snprintf(s->reason, sizeof s->reason, "%s", ev->reason);
    }
    pthread_mutex_unlock(&s->mu);
}

static void seen_init(seen *s)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    gn_buf_init(&s->content);
    gn_buf_init(&s->reasoning);
}

static void seen_release(seen *s)
{
    gn_buf_release(&s->content);
    gn_buf_release(&s->reasoning);
    pthread_mutex_destroy(&s->mu);
}

/* Options for HELLO at STAGE whose events go to S. */
static llm_call_opts watched(int stage, seen *s)
{
    llm_call_opts o = opts(stage, hello, 2);
    o.cb = on_event;
    o.ud = s;
    return o;
}

/* A model that echoes the API key: masked in what streams to the caller,
 * whole or split across deltas, and a held tail that was not the key
 * after all still arrives. */
TEST(llm_client_masks_an_echoed_key_in_the_stream)
{
    static const char *const chunks[] = { "1", "3", "7" };
    for (int i = 0; i < 3; i++) {
        char script[512];
        snprintf(script, sizeof script,
                 "{\"chat\": [{\"stage\": \"answer\", \"reply\": \"key sk-test-secret-123, "
                 "twice sk-test-secret-123; not sk-test-secr, end sk-te\", \"think\": "
                 "\"sk-test-secret-123\", \"chunk\": %s}]}", chunks[i]);
        REQUIRE(th_mock_script(script) == 0);
        llm_client *c = client(NULL, 0, 0, NULL, NULL);
        REQUIRE(c);
        seen s;
        seen_init(&s);
        llm_call_opts o = watched(LLM_STAGE_ANSWER, &s);
        llm_result r;
        gn_err e;
        CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
        CHECK_STR(s.content.data, "key ***, twice ***; not sk-test-secr, end sk-te");
        CHECK(!strstr(s.reasoning.data, "secret"));
        CHECK_STR(r.nchoices ? r.choices[0].content.data : "", s.content.data);
        llm_result_release(&r);
        seen_release(&s);
        llm_client_free(c);
    }
}

TEST(llm_client_streams_with_headers_and_usage)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"answer\", \"reply\": \"Kaito is romantic.\", "
                           "\"think\": \"look at reviews\", \"chunk\": 3}]}") == 0);
    llm_client *c = client(NULL, 0, 0, NULL, NULL);
    REQUIRE(c);
    seen s;
    seen_init(&s);
    llm_call_opts o = watched(LLM_STAGE_ANSWER, &s);
    llm_result r;
    llm_call_info info;
    gn_err e;
    CHECK_INT(llm_complete(c, &o, &r, &info, &e), 0);
    REQUIRE(r.nchoices == 1);
    CHECK_STR(r.choices[0].content.data, "Kaito is romantic.");
    CHECK_CONTAINS(r.choices[0].reasoning.data, "look at reviews");
    CHECK(!strstr(r.choices[0].content.data, "look at"));
    CHECK_STR(s.content.data, "Kaito is romantic.");
    CHECK_STR(info.finish_reason, "stop");
    CHECK(r.usage.present);
    CHECK(info.prompt_tokens > 0 && info.completion_tokens > 0);
    CHECK_INT(info.attempts, 1);
    CHECK_INT(info.http_status, 200);
    CHECK(info.ttft >= 0);
    llm_result_release(&r);
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 1);
    const cJSON *r0 = cJSON_GetArrayItem(req, 0);
    CHECK_STR(th_mock_header(r0, "X-Genie-Stage"), "answer");
    CHECK_STR(th_mock_header(r0, "Authorization"), "Bearer sk-test-secret-123");
    const cJSON *body = cJSON_GetObjectItem(r0, "json");
    CHECK_STR(cJSON_GetObjectItem(body, "model")->valuestring, "mock-model");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(body, "stream")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(body, "stream_options"), "include_usage")));
    CHECK_INT(cJSON_GetObjectItem(body, "max_tokens")->valueint, llm_stage_default_max_tokens(LLM_STAGE_ANSWER));
    CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(body, "messages")), 2);
    cJSON_Delete(req);
    seen_release(&s);
    llm_client_free(c);
}

TEST(llm_client_whole_reply_when_not_streaming)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"Yes\"}]}") == 0);
    llm_client *c = client("verify.stream=false,verify.max_tokens=5,verify.model=m2", 0, 0, NULL, NULL);
    REQUIRE(c);
    llm_call_opts o = opts(LLM_STAGE_VERIFY, hello, 2);
    llm_result r;
    gn_err e;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "Yes");
    llm_result_release(&r);
    cJSON *req = th_mock_requests();
    const cJSON *body = cJSON_GetObjectItem(cJSON_GetArrayItem(req, 0), "json");
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(body, "stream")));
    CHECK(!cJSON_GetObjectItem(body, "stream_options"));
    CHECK_INT(cJSON_GetObjectItem(body, "max_tokens")->valueint, 5);
    CHECK_STR(cJSON_GetObjectItem(body, "model")->valuestring, "m2");
    cJSON_Delete(req);
    llm_client_free(c);
}

TEST(llm_client_retries_500_then_succeeds_with_event)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"times\": 2, \"status\": 500}, {\"reply\": \"ok\"}]}") == 0);
    llm_client *c = client(NULL, 3, 0, NULL, NULL);
    REQUIRE(c);
    seen s;
    seen_init(&s);
    llm_call_opts o = watched(LLM_STAGE_PARSE, &s);
    llm_call_info info;
    gn_err e;
    llm_result r;
    CHECK_INT(llm_complete(c, &o, &r, &info, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "ok");
    llm_result_release(&r);
    CHECK_INT(info.attempts, 3);
    CHECK_INT(s.retries, 2);
    CHECK_STR(s.reason, "HTTP 500");
    llm_stats st[LLM_STAGE__COUNT];
    llm_client_stats(c, st);
    CHECK_INT(st[LLM_STAGE_PARSE].retries, 2);
    CHECK_INT(st[LLM_STAGE_PARSE].calls, 1);
    seen_release(&s);
    llm_client_free(c);
}

TEST(llm_client_honours_retry_after_ms_and_caps_it)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"times\": 1, \"status\": 429, \"retry_after\": 30, "
                           "\"retry_after_ms\": 300}, {\"reply\": \"ok\"}]}") == 0);
    const char *url = th_mock_url();
    llm_config cfg = { .url = url, .defaults = { "m", 0, 0, 1 }, .concurrency = 2,
                       .connect_timeout = 2, .stall_timeout = 10, .retries = 2,
                       .retry_max_wait = 5 };
    llm_client *c = NULL;
    gn_err e;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    seen s;
    seen_init(&s);
    llm_call_opts o = watched(LLM_STAGE_PARSE, &s);
    double t0 = now();
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), 0);
    double dt = now() - t0;
    CHECK(s.last_wait > 0.29 && s.last_wait < 0.31);     /* ms beats seconds */
    CHECK(dt >= 0.29);
    CHECK_STR(s.reason, "HTTP 429");
    llm_client_free(c);
    /* Retry-After alone, above the cap: the cap wins. */
    REQUIRE(th_mock_script("{\"chat\": [{\"times\": 1, \"status\": 503, \"retry_after\": 30}, "
                           "{\"reply\": \"ok\"}]}") == 0);
    cfg.retry_max_wait = 0.1;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    s.retries = 0;
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), 0);
    CHECK_INT(s.retries, 1);
    CHECK(s.last_wait <= 0.1 + 1e-9);
    seen_release(&s);
    llm_client_free(c);
}

TEST(llm_client_no_retry_after_output_was_streamed)
{
    /* Dropped after 3 events.  With a callback that got text: no retry. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"a long answer that is cut\", \"chunk\": 4, "
                           "\"drop_after\": 3}]}") == 0);
    llm_client *c = client(NULL, 3, 0, NULL, NULL);
    REQUIRE(c);
    seen s;
    seen_init(&s);
    llm_call_opts o = watched(LLM_STAGE_RESPOND, &s);
    llm_result r;
    gn_err e;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "respond");
    CHECK_INT(s.retries, 0);
    CHECK(s.content.len > 0);
    CHECK(r.nchoices == 1 && r.choices[0].content.len == s.content.len);   /* partial kept */
    llm_result_release(&r);
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 1);
    cJSON_Delete(req);
    /* Without a callback nothing reached anyone: retried (3 retries, all cut). */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"a long answer that is cut\", \"chunk\": 4, "
                           "\"drop_after\": 3}]}") == 0);
    o.cb = NULL;
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 4);
    cJSON_Delete(req);
    seen_release(&s);
    llm_client_free(c);
}

TEST(llm_client_faults_give_clear_errors)
{
    llm_client *c = client(NULL, 1, 0, NULL, NULL);
    REQUIRE(c);
    gn_err e;
    llm_call_opts o = opts(LLM_STAGE_KB_PARSE, hello, 2);
    /* Garbage JSON: a parse error, not retried. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"SELECT 1\", \"garbage_after\": 1}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "kb_parse");
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 1);
    cJSON_Delete(req);
    /* An error object mid-stream: retried, then reported with its text. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"x\", \"error_after\": 1, "
                           "\"error_message\": \"model overloaded\"}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "model overloaded");
    req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 2);
    cJSON_Delete(req);
    /* The same as an `event: error`. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"x\", \"error_after\": 1, \"error_event\": true, "
                           "\"error_message\": \"boom\"}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "boom");
    /* HTTP 200 with an error body. */
    REQUIRE(th_mock_script("{\"chat\": [{\"error_200\": true, \"error_message\": \"quota\"}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "quota");
    /* Missing [DONE] and finish reason: truncated. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"abc\", \"drop_after\": 2, "
                           "\"framing\": \"close\"}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "truncated");
    /* Missing [DONE] but finished: fine.  CRLF: fine. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"done\", \"no_done\": true, \"crlf\": true}]}") == 0);
    llm_result r;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "done");
    llm_result_release(&r);
    /* 401 is not retried; the key never shows in the message. */
    REQUIRE(th_mock_script("{\"chat\": [{\"status\": 401, \"error_message\": "
                           "\"Incorrect API key provided: sk-test-secret-123\"}]}") == 0);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "HTTP 401");
    CHECK_CONTAINS(e.msg, "Incorrect API key provided: ***");
    CHECK(!strstr(e.msg, "secret"));
    req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 1);
    cJSON_Delete(req);
    llm_client_free(c);
}

TEST(llm_client_stall_timeout_and_keepalive)
{
    llm_client *c = client(NULL, 0, 0.6, NULL, NULL);
    REQUIRE(c);
    gn_err e;
    llm_call_opts o = opts(LLM_STAGE_ANSWER, hello, 2);
    /* Silent for 3 s: the stall timeout (0.6 s) ends it. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"late\", \"stall\": 3}]}") == 0);
    double t0 = now();
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "stall timeout");
    CHECK(now() - t0 < 2.5);
    /* Silent for 0.7 s but pinging every 0.1 s: alive past the stall
     * timeout, and the answer comes. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"patience\", \"stall\": 0.7, \"ping\": 0.1}]}") == 0);
    llm_result r;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "patience");
    llm_result_release(&r);
    /* Pings (or empty deltas) and no content for twice the stall timeout:
     * ended, however lively the connection. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"never\", \"stall\": 5, \"ping\": 0.1, "
                           "\"keepalive\": \"empty\"}]}") == 0);
    t0 = now();
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "only keep-alives");
    CHECK(now() - t0 < 4.0);
    /* A slow but steady answer longer than the stall timeout in total. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"one two three four five six\", \"chunk\": 2, "
                           "\"chunk_delay\": 0.08}]}") == 0);
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "one two three four five six");
    llm_result_release(&r);
    llm_client_free(c);
}

TEST(llm_client_connection_refused_is_retried_then_reported)
{
    /* A port nobody listens on: bind one, note it, close it. */
    llm_config cfg = { .url = "http://127.0.0.1:9/v1", .defaults = { "m", 0, 0, 1 },
                       .concurrency = 1, .connect_timeout = 1, .stall_timeout = 5,
                       .retries = 2, .retry_max_wait = 0.01 };
    llm_client *c = NULL;
    gn_err e;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    seen s;
    seen_init(&s);
    llm_call_opts o = watched(LLM_STAGE_PARSE, &s);
    llm_call_info info;
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "127.0.0.1:9");
    CHECK_INT(info.attempts, 3);
    CHECK_INT(s.retries, 2);
    seen_release(&s);
    llm_client_free(c);
    /* Not a URL at all: refused at start. */
    cfg.url = "ftp://example.com";
    CHECK_INT(llm_client_new(&cfg, &c, &e), GN_EUSAGE);
    cfg.url = "http://127.0.0.1:9/v1";
    cfg.stage_spec = "pasre.model=x";
    CHECK_INT(llm_client_new(&cfg, &c, &e), GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "did you mean 'parse'");
}

struct canceller { llm_call *k; double after; };

static void *cancel_later(void *arg)
{
    struct canceller *cn = arg;
    nanosleep(&(struct timespec){ 0, (long)(cn->after * 1e9) }, NULL);
    llm_call_cancel(cn->k);
    return NULL;
}

TEST(llm_client_cancel_from_another_thread)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"a slow reply that goes on and on\", "
                           "\"chunk\": 1, \"chunk_delay\": 0.2}]}") == 0);
    llm_client *c = client(NULL, 3, 0, NULL, NULL);
    REQUIRE(c);
    llm_group *g = llm_group_new(c);
    llm_call_opts o = opts(LLM_STAGE_RESPOND, hello, 2);
    llm_call *k;
    gn_err e;
    REQUIRE(llm_group_submit(g, &o, &k, &e) == 0);
    struct canceller cn = { k, 0.3 };
    pthread_t t;
    double t0 = now();
    pthread_create(&t, NULL, cancel_later, &cn);
    llm_call *done = llm_group_next(g);
    double dt = now() - t0;
    pthread_join(t, NULL);
    CHECK(done == k);
    CHECK_INT(llm_call_status(k, &e), GN_ECANCEL);
    CHECK(dt < 3.0);          /* the whole reply would take ~6 s */
    CHECK(llm_group_next(g) == NULL);
    llm_group_free(g);
    llm_stats st[LLM_STAGE__COUNT];
    llm_client_stats(c, st);
    CHECK_INT(st[LLM_STAGE_RESPOND].cancelled, 1);
    llm_client_free(c);
}

TEST(llm_client_pool_bounds_concurrency_and_returns_in_completion_order)
{
    /* 8 calls, each answered after 0.5 s, at concurrency 4: the server sees
     * two waves of exactly 4. */
    REQUIRE(th_mock_script("{\"defaults\": {\"delay\": 0.5}, \"chat\": [{\"reply\": \"Yes\"}]}") == 0);
    llm_client *c = client(NULL, 0, 0, NULL, NULL);
    REQUIRE(c);
    llm_group *g = llm_group_new(c);
    char texts[8][32];
    llm_msg m[8][1];
    gn_err e;
    for (int i = 0; i < 8; i++) {
        snprintf(texts[i], sizeof texts[i], "row %d", i);
        m[i][0] = (llm_msg){ "user", texts[i] };
        llm_call_opts o = opts(LLM_STAGE_VERIFY, m[i], 1);
        o.tag = (void *)(long)(i + 1);
        REQUIRE(llm_group_submit(g, &o, NULL, &e) == 0);
    }
    int n = 0;
    long tags = 0;
    for (llm_call *k; (k = llm_group_next(g)); n++) {
        CHECK_INT(llm_call_status(k, &e), 0);
        CHECK_STR(llm_call_text(k), "Yes");
        tags += (long)llm_call_tag(k);
    }
    CHECK_INT(n, 8);
    CHECK_INT(tags, 36);
    llm_group_free(g);
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 8);
    double first = cJSON_GetObjectItem(cJSON_GetArrayItem(req, 0), "time")->valuedouble;
    int wave1 = 0;
    for (int i = 0; i < 8; i++)
        if (cJSON_GetObjectItem(cJSON_GetArrayItem(req, i), "time")->valuedouble - first < 0.25) wave1++;
    CHECK_INT(wave1, 4);
    cJSON_Delete(req);
    /* Completion order: the slow call submitted first comes back last. */
    REQUIRE(th_mock_script("{\"chat\": [{\"contains\": \"slow\", \"stall\": 0.6, \"reply\": \"s\"}, "
                           "{\"reply\": \"f\"}]}") == 0);
    g = llm_group_new(c);
    llm_msg slow = { "user", "slow one" }, fast = { "user", "fast one" };
    llm_call_opts o1 = opts(LLM_STAGE_VERIFY, &slow, 1), o2 = opts(LLM_STAGE_VERIFY, &fast, 1);
    llm_call *ks, *kf;
    REQUIRE(llm_group_submit(g, &o1, &ks, &e) == 0);
    REQUIRE(llm_group_submit(g, &o2, &kf, &e) == 0);
    CHECK(llm_group_next(g) == kf);
    CHECK(llm_group_next(g) == ks);
    CHECK(llm_group_next(g) == NULL);
    llm_group_free(g);
    llm_client_free(c);
}

TEST(llm_client_early_stop_cancels_the_rest)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"contains\": \"row 0\", \"reply\": \"Yes\"}, "
                           "{\"contains\": \"row 1\", \"reply\": \"Yes\"}, "
                           "{\"stall\": 5, \"reply\": \"No\"}]}") == 0);
    llm_client *c = client(NULL, 0, 0, NULL, NULL);
    REQUIRE(c);
    llm_group *g = llm_group_new(c);
    char texts[10][32];
    llm_msg m[10];
    gn_err e;
    for (int i = 0; i < 10; i++) {
        snprintf(texts[i], sizeof texts[i], "row %d", i);
        m[i] = (llm_msg){ "user", texts[i] };
        llm_call_opts o = opts(LLM_STAGE_VERIFY, &m[i], 1);
        REQUIRE(llm_group_submit(g, &o, NULL, &e) == 0);
    }
    double t0 = now();
    int yes = 0;
    for (llm_call *k; yes < 2 && (k = llm_group_next(g));)
        if (!llm_call_status(k, &e) && !strcmp(llm_call_text(k), "Yes")) yes++;
    CHECK_INT(yes, 2);
    llm_group_cancel(g);
    int cancelled = 0;
    for (llm_call *k; (k = llm_group_next(g));)
        if (llm_call_status(k, &e) == GN_ECANCEL) cancelled++;
    CHECK_INT(cancelled, 8);
    CHECK(now() - t0 < 4.0);
    llm_group_free(g);
    llm_client_free(c);
}

TEST(llm_client_cache_serves_deterministic_calls)
{
    char cache[1100];
    snprintf(cache, sizeof cache, "%s/cache/llm-cache.db", th_tmpdir());
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"cached answer\", \"reasoning\": \"r\"}]}") == 0);
    llm_client *c = client(NULL, 0, 0, cache, NULL);
    REQUIRE(c);
    CHECK_STR(llm_client_warnings(c), "");
    llm_call_opts o = opts(LLM_STAGE_ANSWER, hello, 2);
    llm_call_info info;
    gn_err e;
    llm_result r;
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK_INT(info.cached, 0);
    seen s;
    seen_init(&s);
    o.cb = on_event;
    o.ud = &s;
    CHECK_INT(llm_complete(c, &o, &r, &info, &e), 0);
    CHECK_INT(info.cached, 1);
    CHECK_INT(info.attempts, 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "cached answer");
    CHECK_STR(s.content.data, "cached answer");     /* replayed to the callback */
    llm_result_release(&r);
    /* Bypassed on request. */
    o.no_cache = 1;
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK_INT(info.cached, 0);
    o.no_cache = 0;
    llm_stats st[LLM_STAGE__COUNT];
    llm_client_stats(c, st);
    CHECK_INT(st[LLM_STAGE_ANSWER].cache_hits, 1);
    CHECK_INT(st[LLM_STAGE_ANSWER].calls, 2);   /* requests sent: the cache hit is not one */
    llm_client_free(c);
    /* A new process (client) sees it too; another temperature does not use it. */
    c = client(NULL, 0, 0, cache, NULL);
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK_INT(info.cached, 1);
    llm_client_free(c);
    c = client("answer.temperature=0.7", 0, 0, cache, NULL);
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK_INT(info.cached, 0);
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK_INT(info.cached, 0);
    llm_client_free(c);
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 4);
    cJSON_Delete(req);
    /* An unusable cache file: a warning, and the client still works. */
    char bad[1100];
    snprintf(bad, sizeof bad, "%s/bad.db", th_tmpdir());
    FILE *f = fopen(bad, "w");
    REQUIRE(f);
    fputs("this is not a database, not at all, no sir; padding padding padding padding\n", f);
    fclose(f);
    c = client(NULL, 0, 0, bad, NULL);
    REQUIRE(c);
    CHECK_CONTAINS(llm_client_warnings(c), "LLM cache disabled");
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    llm_client_free(c);
    seen_release(&s);
}

TEST(llm_client_retries_without_stream_options_when_rejected)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"times\": 1, \"status\": 400, \"error_message\": "
                           "\"Unrecognized request argument supplied: stream_options\"}, "
                           "{\"reply\": \"fine\"}]}") == 0);
    llm_client *c = client(NULL, 0, 0, NULL, NULL);
    REQUIRE(c);
    llm_call_opts o = opts(LLM_STAGE_RESPOND, hello, 2);
    gn_err e;
    llm_result r;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "fine");
    llm_result_release(&r);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), 0);
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 3);
    CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(req, 0), "json"), "stream_options"));
    CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(req, 1), "json"), "stream_options"));
    CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(req, 2), "json"), "stream_options"));
    cJSON_Delete(req);
    llm_client_free(c);
}

TEST(llm_client_log_has_one_line_per_call_without_the_key)
{
    char log[1100];
    snprintf(log, sizeof log, "%s/llm.jsonl", th_tmpdir());
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"summary\", \"reply\": \"short\"}, "
                           "{\"status\": 404, \"error_message\": \"no such model\"}]}") == 0);
    llm_client *c = client(NULL, 0, 0, NULL, log);
    REQUIRE(c);
    gn_err e;
    llm_call_opts o = opts(LLM_STAGE_SUMMARY, hello, 2);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), 0);
    o.stage = LLM_STAGE_CLASSIFY;
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    llm_client_free(c);
    FILE *f = fopen(log, "r");
    REQUIRE(f);
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        CHECK(!strstr(line, "sk-test"));
        cJSON *o2 = cJSON_Parse(line);
        REQUIRE(o2);
        if (n == 0) {
            CHECK_STR(cJSON_GetObjectItem(o2, "stage")->valuestring, "summary");
            CHECK_STR(cJSON_GetObjectItem(o2, "response")->valuestring, "short");
            CHECK_STR(cJSON_GetObjectItem(o2, "status")->valuestring, "ok");
            const cJSON *msgs = cJSON_GetObjectItem(cJSON_GetObjectItem(o2, "request"), "messages");
            CHECK_INT(cJSON_GetArraySize(msgs), 2);
            CHECK(cJSON_GetObjectItem(o2, "usage"));
            CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(o2, "timings_ms"), "total"));
        } else {
            CHECK_STR(cJSON_GetObjectItem(o2, "stage")->valuestring, "classify");
            CHECK_STR(cJSON_GetObjectItem(o2, "status")->valuestring, "error");
            CHECK_CONTAINS(cJSON_GetObjectItem(o2, "error")->valuestring, "no such model");
        }
        cJSON_Delete(o2);
        n++;
    }
    fclose(f);
    CHECK_INT(n, 2);
}

TEST(llm_client_accounts_tokens_and_cost)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"one two three\", "
                           "\"usage\": {\"prompt_tokens\": 1000, \"completion_tokens\": 500}}]}") == 0);
    const char *url = th_mock_url();
    llm_config cfg = { .url = url, .defaults = { "priced", 0, 0, 1 }, .concurrency = 2,
                       .connect_timeout = 2, .stall_timeout = 10, .prices = "priced=2/10,other=1/1" };
    llm_client *c = NULL;
    gn_err e;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    llm_call_opts o = opts(LLM_STAGE_RESPOND, hello, 2);
    llm_call_info info;
    CHECK_INT(llm_complete(c, &o, NULL, &info, &e), 0);
    CHECK(info.cost > 0.006999 && info.cost < 0.007001);   /* 1000*2/1e6 + 500*10/1e6 */
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), 0);
    llm_stats st[LLM_STAGE__COUNT];
    llm_client_stats(c, st);
    CHECK_INT(st[LLM_STAGE_RESPOND].calls, 2);
    CHECK_INT(st[LLM_STAGE_RESPOND].prompt_tokens, 2000);
    CHECK_INT(st[LLM_STAGE_RESPOND].completion_tokens, 1000);
    CHECK_INT(st[LLM_STAGE_RESPOND].ttft_n, 2);
    gn_buf b;
    gn_buf_init(&b);
    llm_stats_format(&st[LLM_STAGE_RESPOND], &b);
    CHECK_CONTAINS(b.data, "2 LLM calls, 2000 tokens in, 1000 out");
    CHECK_CONTAINS(b.data, "$0.0140");
    gn_buf_release(&b);
    llm_client_free(c);
    cfg.prices = "priced=2";
    CHECK_INT(llm_client_new(&cfg, &c, &e), GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "--prices");
}

TEST(llm_client_complete_reply_does_not_wait_for_the_close)
{
    llm_client *c = client(NULL, 2, 0.4, NULL, NULL);
    REQUIRE(c);
    gn_err e;
    llm_call_opts o = opts(LLM_STAGE_ANSWER, hello, 2);
    llm_result r;
    llm_call_info info;
    /* [DONE], then 5 s of keep-alive comments before the close. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"whole\", \"linger\": 5, \"ping\": 0.1}]}") == 0);
    double t0 = now();
    CHECK_INT(llm_complete(c, &o, &r, &info, &e), 0);
    CHECK(now() - t0 < 3.0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "whole");
    CHECK_INT(info.attempts, 1);
    llm_result_release(&r);
    /* [DONE], then silence longer than the stall timeout: not a stall. */
    REQUIRE(th_mock_script("{\"chat\": [{\"reply\": \"quiet\", \"linger\": 5}]}") == 0);
    t0 = now();
    CHECK_INT(llm_complete(c, &o, &r, &info, &e), 0);
    CHECK(now() - t0 < 3.0);
    CHECK_STR(r.nchoices ? r.choices[0].content.data : "", "quiet");
    CHECK_INT(info.attempts, 1);
    llm_result_release(&r);
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 1);
    cJSON_Delete(req);
    llm_client_free(c);
}

TEST(llm_client_cancel_of_queued_calls_does_not_wait_for_a_slot)
{
    /* Concurrency 1 and a slow call holding the slot: a second group's
     * queued calls are cancelled at once. */
    REQUIRE(th_mock_script("{\"chat\": [{\"contains\": \"hold\", \"stall\": 3, \"reply\": \"x\"}, "
                           "{\"reply\": \"y\"}]}") == 0);
    const char *url = th_mock_url();
    llm_config cfg = { .url = url, .defaults = { "m", 0, 0, 1 }, .concurrency = 1,
                       .connect_timeout = 2, .stall_timeout = 10 };
    llm_client *c = NULL;
    gn_err e;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    llm_group *a = llm_group_new(c), *b = llm_group_new(c);
    llm_msg hold = { "user", "hold the slot" }, other = { "user", "other" };
    llm_call_opts oa = opts(LLM_STAGE_VERIFY, &hold, 1), ob = opts(LLM_STAGE_VERIFY, &other, 1);
    REQUIRE(llm_group_submit(a, &oa, NULL, &e) == 0);
    nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
    for (int i = 0; i < 3; i++) REQUIRE(llm_group_submit(b, &ob, NULL, &e) == 0);
    double t0 = now();
    llm_group_free(b);
    CHECK(now() - t0 < 1.0);
    llm_group_free(a);
    llm_client_free(c);
}

TEST(llm_client_messages_hide_url_credentials)
{
    llm_config cfg = { .url = "http://user:pw-in-url@127.0.0.1:9/v1?api-key=qk", .defaults = { "m", 0, 0, 1 },
                       .concurrency = 1, .connect_timeout = 1, .stall_timeout = 5 };
    llm_client *c = NULL;
    gn_err e;
    REQUIRE(llm_client_new(&cfg, &c, &e) == 0);
    llm_call_opts o = opts(LLM_STAGE_PARSE, hello, 2);
    CHECK_INT(llm_complete(c, &o, NULL, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "http://127.0.0.1:9/v1/chat/completions");
    CHECK(!strstr(e.msg, "pw-in-url"));
    CHECK(!strstr(e.msg, "qk"));
    llm_client_free(c);
}

/* A whole (not streamed) reply has its one delta at its end: a body of
 * over 1 MiB is no stream of keep-alives, and arrives. */
TEST(llm_client_large_whole_reply_is_not_idle)
{
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"answer\", \"huge\": 1500000}]}") == 0);
    llm_client *c = client("answer.stream=false,answer.max_tokens=100000", 0, 0, NULL, NULL);
    REQUIRE(c);
    llm_call_opts o = opts(LLM_STAGE_ANSWER, hello, 2);
    llm_result r;
    gn_err e;
    CHECK_INT(llm_complete(c, &o, &r, NULL, &e), 0);
    CHECK(r.nchoices && r.choices[0].content.len >= 1500000);
    llm_result_release(&r);
    llm_client_free(c);
}
