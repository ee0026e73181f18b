/*
 * test_suql_freetext.c — answer(), summary() and free-text filters on
 * values: offline fallbacks, the LLM through the mock server (prompts,
 * strict Yes/No reading, concurrency), the memo, NULL values.
 */
#include "harness.h"
#include "mock.h"

#include "llm/offline.h"
#include "llm/prompt.h"
#include "suql/freetext.h"

#include <string.h>

static const char *reviews =
    "[\"Perfect spot for a date night, candlelit and intimate.\","
    " \"The pasta was decent.\", \"Parking is easy, there is a big lot.\","
    " \"Service was slow on Friday.\", \"Desserts are great, try the tiramisu.\","
    " \"Loud music made it hard to talk.\", \"Prices are fair for the quality.\"]";

static rt_embedder *glove(void)
{
    rt_embedder *em;
    gn_err e;
    return rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &em, &e) ? NULL : em;
}

TEST(suql_freetext_offline)
{
    rt_embedder *em = glove();
    REQUIRE(em);
    suql_ft_config cfg = { .em = em };
    suql_ft *ft = suql_ft_new(&cfg);
    CHECK(suql_ft_offline(ft));
    suql_ft_req r[5] = {
        { .kind = SUQL_FT_ANSWER, .field = "reviews", .value = reviews, .question = "is parking easy?" },
        { .kind = SUQL_FT_SUMMARY, .field = "reviews", .value = reviews },
        { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews, .question = "is parking easy?",
          .op = "=", .rhs = "'Yes'" },
        { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews, .question = "is parking easy?",
          .op = "<>", .rhs = "'Yes'" },
        { .kind = SUQL_FT_ANSWER, .field = "reviews", .value = NULL, .question = "x?" },
    };
    gn_err e;
    REQUIRE(suql_ft_run(ft, r, 5, &e) == 0);
    for (int i = 0; i < 5; i++) CHECK_INT(r[i].status, 0);
    CHECK_CONTAINS(r[0].text, "Parking is easy");
    CHECK(r[0].offline);
    CHECK(r[1].text && strlen(r[1].text) > 20 && strlen(r[1].text) <= LLM_OFFLINE_SUMMARY_MAX);
    CHECK_INT(r[2].yes, 1);
    CHECK_INT(r[3].yes, 0);
    CHECK(r[4].text == NULL);
    /* Again: from the memo. */
    REQUIRE(suql_ft_run(ft, r, 2, &e) == 0);
    CHECK(r[0].memo && r[1].memo);
    suql_ft_stats st;
    suql_ft_get_stats(ft, &st);
    CHECK_INT(st.memo_hits, 2);
    CHECK_INT(st.llm_calls, 0);
    /* A malformed request. */
    suql_ft_req bad = { .kind = SUQL_FT_VERIFY, .value = reviews, .question = "q", .op = ">",
                        .rhs = "'Yes'" };
    CHECK_INT(suql_ft_run(ft, &bad, 1, &e), GN_EUSAGE);
    suql_ft_free(ft);
    rt_embedder_free(em);
    CHECK(suql_ft_verifiable("=", "'yes'") && suql_ft_verifiable("<>", "'No'"));
    CHECK(!suql_ft_verifiable("=", "'maybe'") && !suql_ft_verifiable("<", "'Yes'"));
}

TEST(suql_freetext_online)
{
    rt_embedder *em = glove();
    REQUIRE(em);
    llm_config lc = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = 4,
                      .connect_timeout = 2, .stall_timeout = 10 };
    llm_client *c;
    gn_err e;
    REQUIRE(lc.url && llm_client_new(&lc, &c, &e) == 0);
    llm_tpl *ta, *tv, *ts;
    const char *dir = th_path("config/prompts");
    REQUIRE(llm_prompt_load(NULL, dir, "answer", &ta, &e) == 0);
    REQUIRE(llm_prompt_load(NULL, dir, "verify", &tv, &e) == 0);
    REQUIRE(llm_prompt_load(NULL, dir, "summary", &ts, &e) == 0);
    suql_ft_config cfg = { .em = em, .client = c, .answer_tpl = ta, .verify_tpl = tv, .summary_tpl = ts };
    suql_ft *ft = suql_ft_new(&cfg);
    REQUIRE(th_mock_script("{\"chat\": ["
                           "{\"stage\": \"verify\", \"contains\": \"parking\", \"reply\": \"Yes.\"},"
                           "{\"stage\": \"verify\", \"contains\": \"romantic\", \"reply\": \"no\"},"
                           "{\"stage\": \"verify\", \"reply\": \"Perhaps\"},"
                           "{\"stage\": \"answer\", \"reply\": \" A big lot. \"},"
                           "{\"stage\": \"summary\", \"reply\": \"Cozy, slow service.\"}]}") == 0);
    suql_ft_req r[5] = {
        { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews, .question = "is parking easy?",
          .op = "=", .rhs = "'Yes'" },
        { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews, .question = "is it romantic?",
          .op = "=", .rhs = "'Yes'" },
        { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews, .question = "is it vegan?",
          .op = "=", .rhs = "'Yes'" },
        { .kind = SUQL_FT_ANSWER, .field = "reviews", .value = reviews, .question = "where to park?" },
        { .kind = SUQL_FT_SUMMARY, .field = "reviews", .value = reviews },
    };
    REQUIRE(suql_ft_run(ft, r, 5, &e) == 0);
    CHECK_INT(r[0].status, 0);
    CHECK_INT(r[0].yes, 1);
    CHECK_INT(r[1].yes, 0);
    CHECK_INT(r[2].status, GN_EPARSE);
    CHECK_CONTAINS(r[2].err.msg, "\"Perhaps\"");
    CHECK_STR(r[3].text, "A big lot.");
    CHECK_STR(r[4].text, "Cozy, slow service.");
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 5);
    /* The verify prompt shows the condition and the 5 nearest passages. */
    const cJSON *it;
    int saw = 0;
    cJSON_ArrayForEach(it, req) {
        const cJSON *msgs = cJSON_GetObjectItem(cJSON_GetObjectItem(it, "json"), "messages");
        const char *user = cJSON_GetObjectItem(cJSON_GetArrayItem(msgs, 1), "content")->valuestring;
        if (!strstr(user, "is parking easy?")) continue;
        saw = 1;
        CHECK_CONTAINS(user, "Condition: answer(reviews, 'is parking easy?') = 'Yes'");
        CHECK_CONTAINS(user, "- Parking is easy, there is a big lot.");
        int docs = 0;
        for (const char *p = user; (p = strstr(p, "\n- ")); p++) docs++;
        CHECK_INT(docs, SUQL_FT_DOCS);
    }
    CHECK(saw);
    cJSON_Delete(req);
    /* The failure is not memoized; the others are. */
    REQUIRE(suql_ft_run(ft, r, 5, &e) == 0);
    req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 6);
    cJSON_Delete(req);
    suql_ft_free(ft);
    llm_tpl_free(ta);
    llm_tpl_free(tv);
    llm_tpl_free(ts);
    llm_client_free(c);
    rt_embedder_free(em);
}
