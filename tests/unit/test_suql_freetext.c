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
#include "suql/passrank.h"

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

/* An evaluator online against the mock server, with the answer, verify
 * and summary prompts. */
typedef struct {
    rt_embedder *em;
    llm_client *c;
    llm_tpl *tpl[3];
    suql_ft *ft;
} online;

static int online_open(online *o, int concurrency)
{
    memset(o, 0, sizeof *o);
    llm_config lc = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = concurrency,
                      .connect_timeout = 2, .stall_timeout = 10 };
    gn_err e;
    const char *dir = th_path("config/prompts"), *names[3] = { "answer", "verify", "summary" };
    if (!(o->em = glove()) || !lc.url || llm_client_new(&lc, &o->c, &e)) return -1;
    for (int i = 0; i < 3; i++)
        if (llm_prompt_load(NULL, dir, names[i], &o->tpl[i], &e)) return -1;
    suql_ft_config cfg = { .em = o->em, .client = o->c, .answer_tpl = o->tpl[0], .verify_tpl = o->tpl[1],
                           .summary_tpl = o->tpl[2] };
    o->ft = suql_ft_new(&cfg);
    return 0;
}

static void online_close(online *o)
{
    suql_ft_free(o->ft);
    for (int i = 0; i < 3; i++) llm_tpl_free(o->tpl[i]);
    llm_client_free(o->c);
    rt_embedder_free(o->em);
}

TEST(suql_freetext_online)
{
    online o;
    REQUIRE(online_open(&o, 4) == 0);
    suql_ft *ft = o.ft;
    gn_err e;
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
        const char *user = th_mock_user(it);
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
    CHECK_INT(th_mock_count(), 6);
    online_close(&o);
}

/* The passages a verify prompt shows are the ones about the question
 * (its words, not only vector similarity: reviews of the atmosphere sit
 * near "is it dog-friendly?" in word-vector space), and the prompt says it
 * shows part of the row. */
TEST(suql_freetext_shows_the_passages_about_the_question)
{
    online o;
    REQUIRE(online_open(&o, 2) == 0);
    suql_ft *ft = o.ft;
    gn_err e;
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"reply\": \"Yes\"}]}") == 0);
    const char *many =
        "[\"A cozy friendly atmosphere with warm lighting and soft music.\","
        " \"The atmosphere is lively and friendly, great for a night out.\","
        " \"Friendly staff, relaxed vibe, nice decor.\", \"Lovely ambience, friendly and warm.\","
        " \"The food was fresh and the service friendly.\", \"Great coffee and pastries.\","
        " \"Friendly faces, a homey feel.\", \"Kid friendly and family friendly.\","
        " \"Very friendly bartenders and a fun crowd.\","
        " \"We brought our dog and they gave him a bowl of water.\","
        " \"Dogs are welcome on the patio.\"]";
    suql_ft_req r = { .kind = SUQL_FT_VERIFY, .field = "reviews", .value = many,
                      .question = "is it dog-friendly?", .op = "=", .rhs = "'Yes'" };
    REQUIRE(suql_ft_run(ft, &r, 1, &e) == 0);
    CHECK_INT(r.yes, 1);
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 1);
    const char *user = th_mock_user(cJSON_GetArrayItem(req, 0));
    CHECK_CONTAINS(user, "- We brought our dog and they gave him a bowl of water.");
    CHECK_CONTAINS(user, "- Dogs are welcome on the patio.");
    CHECK_CONTAINS(user, "(5 of this row's 11 passages, the ones most relevant to the question; the "
                         "others are not shown)");
    cJSON_Delete(req);
    CHECK(suql_term_share("is it dog-friendly?", "Dogs are welcome.") > 0.49);
    CHECK(suql_term_share("is it dog-friendly?", "A friendly dog.") > 0.99);
    CHECK(suql_term_share("is it dog-friendly?", "Great coffee.") < 0.01);
    online_close(&o);
}

/* A verdict a chattier model wraps (a label, a preamble line, a fence,
 * bold) is read; prose that merely starts with "No" on a later line is
 * not; an answer's "no info" with markup is made plain, and says how
 * many of the passages it read. */
TEST(suql_freetext_reads_wrapped_verdicts)
{
    online o;
    REQUIRE(online_open(&o, 4) == 0);
    suql_ft *ft = o.ft;
    gn_err e;
    REQUIRE(th_mock_script("{\"chat\": ["
        "{\"stage\": \"verify\", \"contains\": \"q1?\", \"reply\": \"Answer: No\"},"
        "{\"stage\": \"verify\", \"contains\": \"q2?\", \"reply\": \"Sure! Based on the reviews, the answer is:\\nYes\\n(they have a patio)\"},"
        "{\"stage\": \"verify\", \"contains\": \"q3?\", \"reply\": \"Looking closer:\\nNo review mentions a patio, so Yes.\"},"
        "{\"stage\": \"verify\", \"contains\": \"q4?\", \"reply\": \"```\\nYes\\n```\"},"
        "{\"stage\": \"verify\", \"contains\": \"q5?\", \"reply\": \"**No** - it is all indoors\"},"
        "{\"stage\": \"answer\", \"reply\": \"**No info.**\"}]}") == 0);
    suql_ft_req r[6];
    const char *qs[5] = { "q1?", "q2?", "q3?", "q4?", "q5?" };
    for (int i = 0; i < 5; i++)
        r[i] = (suql_ft_req){ .kind = SUQL_FT_VERIFY, .field = "reviews", .value = reviews,
                              .question = qs[i], .op = "=", .rhs = "'Yes'" };
    r[5] = (suql_ft_req){ .kind = SUQL_FT_ANSWER, .field = "reviews", .value = reviews, .question = "q6?" };
    REQUIRE(suql_ft_run(ft, r, 6, &e) == 0);
    CHECK_INT(r[0].status, 0);
    CHECK_INT(r[0].yes, 0);
    CHECK_INT(r[1].status, 0);
    CHECK_INT(r[1].yes, 1);
    CHECK_INT(r[2].status, GN_EPARSE);        /* prose, not a verdict: never guessed */
    CHECK_INT(r[3].status, 0);
    CHECK_INT(r[3].yes, 1);
    CHECK_INT(r[4].status, 0);
    CHECK_INT(r[4].yes, 0);
    /* plain, and saying it read 5 of the row's 7 passages */
    CHECK_STR(r[5].text, "no info in the 5 of 7 passages read");
    online_close(&o);
}

/* An answer() to a list question written as bullets, with or without a
 * lead-in, is one comma-separated line (bold around an item dropped); a
 * list with prose after it is left as the model wrote it. */
TEST(suql_freetext_list_answers)
{
    online o;
    REQUIRE(online_open(&o, 4) == 0);
    gn_err e;
    REQUIRE(th_mock_script("{\"chat\": ["
        "{\"stage\": \"answer\", \"contains\": \"l1?\", \"reply\": \"- CS 106B\\n- CS 109\\n- MATH 51\"},"
        "{\"stage\": \"answer\", \"contains\": \"l2?\", \"reply\": \"The required courses are:\\n\\n1. **CS 221**\\n2) CS 229\"},"
        "{\"stage\": \"answer\", \"contains\": \"l3?\", \"reply\": \"\\u2022 tiramisu\\n\\u2022 pasta\"},"
        "{\"stage\": \"answer\", \"contains\": \"l4?\", \"reply\": \"- tiramisu\\nand more besides\"},"
        "{\"stage\": \"answer\", \"contains\": \"l5?\", \"reply\": \"tiramisu, pasta\"}]}") == 0);
    const char *qs[5] = { "l1?", "l2?", "l3?", "l4?", "l5?" };
    suql_ft_req r[5];
    for (int i = 0; i < 5; i++)
        r[i] = (suql_ft_req){ .kind = SUQL_FT_ANSWER, .field = "reviews", .value = reviews, .question = qs[i] };
    REQUIRE(suql_ft_run(o.ft, r, 5, &e) == 0);
    CHECK_STR(r[0].text, "CS 106B, CS 109, MATH 51");
    CHECK_STR(r[1].text, "CS 221, CS 229");
    CHECK_STR(r[2].text, "tiramisu, pasta");
    CHECK_STR(r[3].text, "- tiramisu\nand more besides");
    CHECK_STR(r[4].text, "tiramisu, pasta");
    online_close(&o);
}

TEST(suql_freetext_verdicts_of_several_rows)
{
    int v[4];
    CHECK_INT(suql_ft_verdicts("1: Yes\n2: no\n**3.** Yes, clearly\nRow 4 - No", 4, v), 4);
    CHECK(v[0] == 1 && v[1] == 0 && v[2] == 1 && v[3] == 0);
    /* Preamble skipped; a row given two verdicts, an unclear one, one out
     * of range: undecided. */
    CHECK_INT(suql_ft_verdicts("Here you go:\n1: Yes\n1: No\n3: Maybe\n9: Yes\n- 2) yes", 3, v), 1);
    CHECK(v[0] == -1 && v[1] == 1 && v[2] == -1);
    CHECK_INT(suql_ft_verdicts("1: Yes\n1: yes\n2: Yesterday\n", 2, v), 1);
    CHECK(v[0] == 1 && v[1] == -1);
    /* as models also write it: JSON, or one verdict a line without numbers */
    CHECK_INT(suql_ft_verdicts("```json\n{\"1\": \"Yes\", \"2\": \"no\", \"3\": true}\n```", 3, v), 3);
    CHECK(v[0] == 1 && v[1] == 0 && v[2] == 1);
    CHECK_INT(suql_ft_verdicts("[\"No\", \"Yes\"]", 2, v), 2);
    CHECK(v[0] == 0 && v[1] == 1);
    CHECK_INT(suql_ft_verdicts("[{\"row\": 2, \"answer\": \"Yes\"}, {\"row\": 1, \"answer\": \"No\"}]", 2, v), 2);
    CHECK(v[0] == 0 && v[1] == 1);
    CHECK_INT(suql_ft_verdicts("Here are the verdicts:\nYes\nNo\nYes", 3, v), 3);
    CHECK(v[0] == 1 && v[1] == 0 && v[2] == 1);
    CHECK_INT(suql_ft_verdicts("Yes\nNo", 3, v), 0);   /* not one a row: nothing */
    CHECK_INT(suql_ft_verdicts("Yes", 2, v), 0);       /* a bare word decides nothing */
    CHECK_INT(suql_ft_verdicts("", 1, v), 0);
    CHECK_INT(v[0], -1);
}

/* Rows of one filter share calls (the verify_rows prompt); a row the reply
 * leaves undecided is asked alone; a failed call fails its rows; every
 * verdict is memoized on its own. */
TEST(suql_freetext_batched_verify)
{
    rt_embedder *em = glove();
    REQUIRE(em);
    llm_config lc = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = 4,
                      .connect_timeout = 2, .stall_timeout = 10, .retries = 0 };
    llm_client *c;
    gn_err e;
    REQUIRE(lc.url && llm_client_new(&lc, &c, &e) == 0);
    llm_tpl *tv, *tr;
    const char *dir = th_path("config/prompts");
    REQUIRE(llm_prompt_load(NULL, dir, "verify", &tv, &e) == 0);
    REQUIRE(llm_prompt_load(NULL, dir, "verify_rows", &tr, &e) == 0);
    suql_ft_config cfg = { .em = em, .client = c, .verify_tpl = tv, .verify_rows_tpl = tr,
                           .verify_batch = 4 };
    suql_ft *ft = suql_ft_new(&cfg);
    static const char *vals[6] = {
        "[\"A big lot behind the building.\"]", "[\"Street parking only, good luck.\"]",
        "[\"Valet and a big lot.\"]", "[\"Sunny patio, no parking at all.\"]",
        "[\"We parked in the big lot.\"]", "[\"Tiny street, no spaces.\"]",
    };
    suql_ft_req r[6];
    for (int i = 0; i < 6; i++)
        r[i] = (suql_ft_req){ .kind = SUQL_FT_VERIFY, .field = "reviews", .value = vals[i],
                              .question = "is parking easy?", .op = "=", .rhs = "'Yes'" };
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"contains\": \"big lot\", "
                           "\"reply\": \"Yes\"}, {\"stage\": \"verify\", \"reply\": \"No\"}]}") == 0);
    REQUIRE(suql_ft_run(ft, r, 6, &e) == 0);
    for (int i = 0; i < 6; i++) {
        CHECK_INT(r[i].status, 0);
        CHECK_INT(r[i].yes, i == 0 || i == 2 || i == 4);
    }
    cJSON *req = th_mock_requests();
    CHECK_INT(cJSON_GetArraySize(req), 2);                 /* 4 rows, and 2 */
    /* The two calls run concurrently: the mock may log either first. */
    const char *user = th_mock_user(cJSON_GetArrayItem(req, 0));
    if (user && !strstr(user, "Row 4,")) user = th_mock_user(cJSON_GetArrayItem(req, 1));
    CHECK_CONTAINS(user, "Condition: answer(reviews, 'is parking easy?') = 'Yes'");
    CHECK_CONTAINS(user, "Row 4, text of reviews:\n- ");
    CHECK_CONTAINS(user, "each of these 4 rows");
    cJSON_Delete(req);
    suql_ft_stats st;
    suql_ft_get_stats(ft, &st);
    CHECK_INT(st.llm_calls, 2);
    CHECK_INT(st.batched, 6);
    /* Memoized row by row: asked alone now, each is known. */
    for (int i = 0; i < 6; i++) CHECK(suql_ft_known(ft, &r[i]));
    /* An unclear verdict for one row: that row alone again, then a failure. */
    for (int i = 0; i < 6; i++) r[i].question = "is parking easy at night?";
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"contains\": \"Sunny\", "
                           "\"reply\": \"Maybe\"}, {\"stage\": \"verify\", \"reply\": \"No\"}]}") == 0);
    REQUIRE(suql_ft_run(ft, r, 4, &e) == 0);
    CHECK_INT(r[3].status, GN_EPARSE);
    for (int i = 0; i < 3; i++) CHECK(r[i].status == 0 && !r[i].yes);
    CHECK_INT(th_mock_count(), 2);                 /* the batch, then row 4 alone */
    /* A failed call fails every row it carried, without retries. */
    for (int i = 0; i < 6; i++) r[i].question = "is parking free?";
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"status\": 500, "
                           "\"error_message\": \"down\"}]}") == 0);
    REQUIRE(suql_ft_run(ft, r, 3, &e) == 0);
    for (int i = 0; i < 3; i++) CHECK_INT(r[i].status, GN_ENET);
    CHECK_INT(th_mock_count(), 1);
    suql_ft_free(ft);
    llm_tpl_free(tv);
    llm_tpl_free(tr);
    llm_client_free(c);
    rt_embedder_free(em);
}
