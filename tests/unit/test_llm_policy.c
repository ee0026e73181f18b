/*
 * test_llm_policy.c — the pure parts of the LLM client's policy: retry
 * statuses, Retry-After parsing, backoff bounds, per-stage settings and
 * prices.
 */
#include "harness.h"

#include "llm/request.h"
#include "util/retry.h"
#include "llm/stage.h"

#include <stdlib.h>
#include <string.h>

TEST(gn_retry_statuses)
{
    static const long yes[] = { 408, 409, 429, 500, 502, 503, 504, 599 };
    static const long no[] = { 200, 400, 401, 403, 404, 413, 422, 600 };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) CHECK(gn_retry_status(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) CHECK(!gn_retry_status(no[i]));
}

TEST(gn_retry_after_values)
{
    time_t now = 784111777;   /* Sun, 06 Nov 1994 08:49:37 GMT */
    CHECK(gn_retry_after(NULL, "4", now) == 4);
    CHECK(gn_retry_after(NULL, " 2.5 ", now) == 2.5);
    CHECK(gn_retry_after("250", "30", now) == 0.25);      /* ms wins */
    CHECK(gn_retry_after("soon", "3", now) == 3);          /* bad ms ignored */
    CHECK(gn_retry_after(NULL, "Sun, 06 Nov 1994 08:49:47 GMT", now) == 10);
    CHECK(gn_retry_after(NULL, "Sunday, 06-Nov-94 08:49:40 GMT", now) == 3);
    CHECK(gn_retry_after(NULL, "Sun Nov  6 08:49:39 1994", now) == 2);
    CHECK(gn_retry_after(NULL, "Sat, 05 Nov 1994 08:49:37 GMT", now) == 0);   /* past */
    CHECK(gn_retry_after(NULL, "-3", now) == -1);
    CHECK(gn_retry_after(NULL, "tomorrow", now) == -1);
    CHECK(gn_retry_after(NULL, "", now) == -1);
    CHECK(gn_retry_after(NULL, NULL, now) == -1);
}

TEST(gn_retry_delay_backoff_jitter_and_cap)
{
    unsigned seed = 42;
    for (int a = 1; a <= 6; a++) {
        double full = 0.5 * (1 << (a - 1));
        double lo = 1e9, hi = 0;
        for (int i = 0; i < 200; i++) {
            double d = gn_retry_delay(a, -1, 100, &seed);
            if (d < lo) lo = d;
            if (d > hi) hi = d;
        }
        CHECK(lo >= full * 0.5 - 1e-9 && hi <= full + 1e-9);
        CHECK(hi - lo > full * 0.2);          /* jittered, not constant */
    }
    CHECK(gn_retry_delay(20, -1, 3, &seed) <= 3);
    CHECK(gn_retry_delay(1, 7, 60, &seed) == 7);       /* the server's word */
    CHECK(gn_retry_delay(1, 700, 60, &seed) == 60);    /* capped */
}

TEST(llm_stage_table_and_spec)
{
    CHECK_INT(llm_stage_find("kb_parse"), LLM_STAGE_KB_PARSE);
    CHECK_INT(llm_stage_find("nope"), -1);
    for (int i = 0; i < LLM_STAGE__COUNT; i++) {
        CHECK_INT(llm_stage_find(llm_stage_name(i)), i);
        CHECK(llm_stage_default_max_tokens(i) > 0);
    }
    llm_stage_defaults d = { "base", 0.0, 0, 1 };
    llm_stage_cfg s[LLM_STAGE__COUNT];
    gn_err e;
    REQUIRE(llm_stages_resolve(&d, NULL, s, &e) == 0);
    CHECK_STR(s[LLM_STAGE_PARSE].model, "base");
    CHECK_INT(s[LLM_STAGE_VERIFY].max_tokens, llm_stage_default_max_tokens(LLM_STAGE_VERIFY));
    d.max_tokens = 300;
    REQUIRE(llm_stages_resolve(&d, " parse.model = big , verify.stream=false,answer.max_tokens=9,"
                               "*.temperature=0.5, summary.temperature=0", s, &e) == 0);
    CHECK_STR(s[LLM_STAGE_PARSE].model, "big");
    CHECK_STR(s[LLM_STAGE_ANSWER].model, "base");
    CHECK_INT(s[LLM_STAGE_VERIFY].stream, 0);
    CHECK_INT(s[LLM_STAGE_PARSE].stream, 1);
    CHECK_INT(s[LLM_STAGE_ANSWER].max_tokens, 9);
    CHECK_INT(s[LLM_STAGE_PARSE].max_tokens, 300);      /* the global one */
    CHECK(s[LLM_STAGE_RESPOND].temperature == 0.5);
    CHECK(s[LLM_STAGE_SUMMARY].temperature == 0);       /* later items win */
    static const struct { const char *spec, *msg; } bad[] = {
        { "pars.model=x", "unknown stage 'pars' in 'pars.model=x' (did you mean 'parse'?)" },
        { "parse.modle=x", "unknown key 'modle' in 'parse.modle=x' (did you mean 'model'?)" },
        { "parse=x", "'parse=x' is not STAGE.KEY=VALUE" },
        { "parse.temperature=3", "temperature in 'parse.temperature=3' must be a number in 0..2" },
        { "parse.max_tokens=0", "max_tokens in 'parse.max_tokens=0'" },
        { "parse.stream=maybe", "stream in 'parse.stream=maybe' must be true or false" },
        { "parse.model=", "bad model name" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(llm_stages_resolve(&d, bad[i].spec, s, &e), GN_EUSAGE);
        CHECK_CONTAINS(e.msg, bad[i].msg);
    }
}

TEST(llm_prices)
{
    llm_price *p;
    int n;
    gn_err e;
    REQUIRE(llm_prices_parse("gpt-4o=2.5/10, gpt-4o-mini=0.15/0.6", &p, &n, &e) == 0);
    CHECK_INT(n, 2);
    CHECK(llm_price_find(p, n, "gpt-4o")->out == 10);
    CHECK(llm_price_find(p, n, "gpt-4o-mini")->in == 0.15);
    CHECK(llm_price_find(p, n, "gpt-4o-2024") == NULL);
    free(p);
    REQUIRE(llm_prices_parse("", &p, &n, &e) == 0);
    CHECK_INT(n, 0);
    static const char *const bad[] = { "x=1", "x=1/", "=1/2", "x=a/b", "x=-1/2", "x=1/2/3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(llm_prices_parse(bad[i], &p, &n, &e), GN_EUSAGE);
        CHECK_CONTAINS(e.msg, bad[i]);
    }
}

TEST(llm_request_body_and_key)
{
    llm_msg m[] = { { "system", "S" }, { "user", "U \"q\"" } };
    const char *stop[] = { "\n\n" };
    llm_request r = { m, 2, "mod", 0, 64, 1, stop, 1 };
    char *b = llm_request_body(&r, 1);
    CHECK_STR(b, "{\"model\":\"mod\",\"messages\":[{\"role\":\"system\",\"content\":\"S\"},"
                 "{\"role\":\"user\",\"content\":\"U \\\"q\\\"\"}],\"temperature\":0,"
                 "\"max_tokens\":64,\"stop\":[\"\\n\\n\"],\"stream\":true,"
                 "\"stream_options\":{\"include_usage\":true}}");
    free(b);
    char k1[65], k2[65];
    const char *url = "http://127.0.0.1:8080/v1/chat/completions";
    llm_request_key(&r, url, k1);
    CHECK_INT(strlen(k1), 64);
    r.stream = 0;                       /* streaming does not change the key */
    llm_request_key(&r, url, k2);
    CHECK_STR(k1, k2);
    r.max_tokens = 65;                  /* everything else does */
    llm_request_key(&r, url, k2);
    CHECK(strcmp(k1, k2) != 0);
    r.max_tokens = 64;
    llm_request_key(&r, "http://127.0.0.1:8081/v1/chat/completions", k2);   /* another server */
    CHECK(strcmp(k1, k2) != 0);
    m[1].content = "U \"r\"";
    llm_request_key(&r, url, k2);
    CHECK(strcmp(k1, k2) != 0);
}
