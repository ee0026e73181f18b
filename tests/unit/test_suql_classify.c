/*
 * test_suql_classify.c — CLASSIFY: the reply parser, exact matches, the
 * offline similarity mapping on the sample restaurants' cuisines, and the
 * LLM mapping against the mock server (prompt content, reply numbers,
 * garbage, memo).
 */
#include "harness.h"
#include "mock.h"

#include "llm/prompt.h"
#include "suql/classify.h"

#include <stdlib.h>
#include <string.h>

TEST(suql_classify_reply_parser)
{
    int p[8];
    CHECK_INT(suql_classify_reply("none", 5, p), 0);
    CHECK_INT(suql_classify_reply(" None.\n", 5, p), 0);
    CHECK_INT(suql_classify_reply("4, 2", 5, p), 2);
    CHECK(p[0] == 3 && p[1] == 1);
    CHECK_INT(suql_classify_reply("1 1,3.", 5, p), 2);
    CHECK_INT(suql_classify_reply("5", 5, p), 1);
    /* what models write around it */
    CHECK_INT(suql_classify_reply("The term means cheap food, so the answer is:\n\n**1**", 5, p), 1);
    CHECK(p[0] == 0);
    CHECK_INT(suql_classify_reply("2. Winter 2027", 5, p), 1);
    CHECK(p[0] == 1);
    CHECK_INT(suql_classify_reply("1. Italian\n- 3) Pizza\n", 5, p), 2);
    CHECK(p[0] == 0 && p[1] == 2);
    CHECK_INT(suql_classify_reply("Matching values:\n`4, 2`", 5, p), 2);
    CHECK(p[0] == 3 && p[1] == 1);
    CHECK_INT(suql_classify_reply("The best match is:\n2. moderate", 5, p), 1);
    CHECK(p[0] == 1);
    /* "none" in a sentence, the term's own digits in it */
    CHECK_INT(suql_classify_reply("None of the allowed values match CS 999.", 5, p), 0);
    CHECK_INT(suql_classify_reply("**No match** for that term.", 5, p), 0);
    CHECK_INT(suql_classify_reply("None of them, except 3", 5, p), -1);
    CHECK_INT(suql_classify_reply("Nonetheless 2", 5, p), -1);
    static const char *const more_bad[] = { "Here you go\n2", "1. Italian\nand maybe 4", "7. x",
                                            "so:\n\nnone of them", NULL };
    for (int i = 0; more_bad[i]; i++)
        if (suql_classify_reply(more_bad[i], 5, p) != -1)
            th_fail(__FILE__, __LINE__, "accepted '%s'", more_bad[i]);
    static const char *const bad[] = { "6", "0", "", "1, x", "Italian", "1,,", "1 ,, 2", "-1", "1.5",
                                       "the answer is 2", "99999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (suql_classify_reply(bad[i], 5, p) != -1) th_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
}

typedef struct {
    sqlite3 *db;
    st_schema *s;
    rt_embedder *em;
    const st_table *t;
    const st_column *cuisines, *price;
} fx;

static int fx_open(fx *f)
{
    gn_err e;
    if (st_open(th_path("sample_db/restaurants.db"), 0, &f->db, &e) || st_guard(f->db, &e) ||
        st_schema_load(f->db, &f->s, &e) ||
        rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &f->em, &e)) {
        th_fail(__FILE__, __LINE__, "fixture: %s", e.msg);
        return -1;
    }
    f->t = st_schema_table(f->s, "restaurants");
    f->cuisines = st_table_column(f->t, "cuisines");
    f->price = st_table_column(f->t, "price");
    return f->cuisines && f->price ? 0 : -1;
}

static void fx_close(fx *f)
{
    st_schema_free(f->s);
    sqlite3_close(f->db);
    rt_embedder_free(f->em);
}

static int has(const suql_mapping *m, const char *v)
{
    for (int i = 0; i < m->nvalues; i++)
        if (!strcmp(m->values[i], v)) return 1;
    return 0;
}

TEST(suql_classify_offline_on_sample_cuisines)
{
    fx f;
    REQUIRE(fx_open(&f) == 0);
    suql_classifier *k = suql_classifier_new(f.db, f.em, NULL, NULL);
    const char *const *vals;
    int n;
    gn_err e;
    REQUIRE(suql_column_values(k, f.t, f.cuisines, &vals, &n, &e) == 0);
    CHECK(n >= 40);
    suql_mapping m;
    REQUIRE(suql_classify(k, f.t, f.cuisines, " Italian ", &m, &e) == 0);
    CHECK(m.exact && m.nvalues == 1 && !strcmp(m.values[0], "italian"));
    REQUIRE(suql_classify(k, f.t, f.cuisines, "coffee", &m, &e) == 0);
    CHECK(!m.exact && m.offline);
    CHECK(has(&m, "coffee & tea"));
    REQUIRE(suql_classify(k, f.t, f.cuisines, "burgers", &m, &e) == 0);
    CHECK(has(&m, "burgers") || has(&m, "burger") || has(&m, "american"));
    REQUIRE(suql_classify(k, f.t, f.price, "CHEAP", &m, &e) == 0);
    CHECK(m.exact && !strcmp(m.values[0], "cheap"));
    REQUIRE(suql_classify(k, f.t, f.cuisines, "xqzzy", &m, &e) == 0);
    CHECK_INT(m.nvalues, 0);
    CHECK(suql_classify_known(k, f.t, f.cuisines, "COFFEE", &m));
    CHECK(!suql_classify_known(k, f.t, f.cuisines, "tea", &m));
    suql_classifier_free(k);
    fx_close(&f);
}

/* An array column's values read from its side table are the ones its
 * rows' JSON holds. */
TEST(suql_classify_values_from_the_side_table)
{
    fx f;
    REQUIRE(fx_open(&f) == 0);
    REQUIRE(f.cuisines->side);
    st_column plain = *f.cuisines;
    plain.side = 0;
    suql_classifier *a = suql_classifier_new(f.db, f.em, NULL, NULL);
    suql_classifier *b = suql_classifier_new(f.db, f.em, NULL, NULL);
    const char *const *va, *const *vb;
    int na = 0, nb = -1;
    gn_err e;
    REQUIRE(suql_column_values(a, f.t, f.cuisines, &va, &na, &e) == 0);
    REQUIRE(suql_column_values(b, f.t, &plain, &vb, &nb, &e) == 0);
    CHECK(na >= 40);
    CHECK_INT(na, nb);
    for (int i = 0; i < na && i < nb; i++) CHECK_STR(va[i], vb[i]);
    suql_classifier_free(a);
    suql_classifier_free(b);
    fx_close(&f);
}

TEST(suql_classify_online_asks_by_number)
{
    fx f;
    REQUIRE(fx_open(&f) == 0);
    llm_config cfg = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = 2,
                       .connect_timeout = 2, .stall_timeout = 10 };
    llm_client *c;
    gn_err e;
    REQUIRE(cfg.url && llm_client_new(&cfg, &c, &e) == 0);
    llm_tpl *tpl;
    REQUIRE(llm_prompt_load(NULL, th_path("config/prompts"), "classify", &tpl, &e) == 0);
    suql_classifier *k = suql_classifier_new(f.db, f.em, c, tpl);
    /* The price vocabulary is small: every value is a choice, in order. */
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"classify\", \"contains\": \"budget\", "
                           "\"reply\": \"1\"}, {\"stage\": \"classify\", \"reply\": \"nonsense\"}]}") == 0);
    suql_mapping m;
    REQUIRE(suql_classify(k, f.t, f.price, "budget", &m, &e) == 0);
    CHECK(!m.offline && m.nvalues == 1 && !strcmp(m.values[0], "cheap"));
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 1);
    const char *user = th_mock_user(cJSON_GetArrayItem(req, 0));
    CHECK_CONTAINS(user, "Column: restaurants.price");
    CHECK_CONTAINS(user, "Search term: \"budget\"");
    CHECK_CONTAINS(user, "1. cheap\n2. moderate\n3. expensive\n4. luxury");
    cJSON_Delete(req);
    /* Known now: no second call. */
    REQUIRE(suql_classify(k, f.t, f.price, "Budget", &m, &e) == 0);
    CHECK_INT(th_mock_count(), 1);
    /* A reply that is not numbers: an error quoting it, not remembered. */
    CHECK_INT(suql_classify(k, f.t, f.price, "posh", &m, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "\"nonsense\"");
    CHECK(!suql_classify_known(k, f.t, f.price, "posh", &m));
    /* A large vocabulary: the shortlist, most similar first. */
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"classify\", \"reply\": \"1, 2\"}]}") == 0);
    REQUIRE(suql_classify(k, f.t, f.cuisines, "coffee", &m, &e) == 0);
    CHECK_INT(m.nvalues, 2);
    req = th_mock_requests();
    user = th_mock_user(cJSON_GetArrayItem(req, 0));
    CHECK_CONTAINS(user, "1. coffee & tea");
    CHECK(!strstr(user, "41. "));
    cJSON_Delete(req);
    suql_classifier_free(k);
    llm_tpl_free(tpl);
    llm_client_free(c);
    fx_close(&f);
}
