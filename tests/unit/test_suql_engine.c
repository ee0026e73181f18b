/*
 * test_suql_engine.c — SUQL queries end to end on the sample restaurants
 * (read-only, guarded), online against the mock LLM server and offline:
 * the three modes, early stop at LIMIT, ORDER BY honoured, the budget and
 * its note, the select list computed for returned rows only, memoization,
 * an LLM failing mid-query, errors with positions, the paper's corpus.
 */
#include "corpus.h"
#include "harness.h"
#include "mock.h"

#include "llm/prompt.h"
#include "retrieval/index.h"
#include "retrieval/index_int.h"
#include "suql/engine.h"
#include "suql/engine_int.h"
#include "util/xmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    sqlite3 *db;
    st_schema *s;
    rt_embedder *em;
    rt_index *ix;
    llm_client *cl;
    llm_tpl *tpl[5];
    suql_engine *en;
} fx;

/* F's engine over index IX (may be NULL) with BUDGET (0: the default). */
static int fx_engine_over(fx *f, rt_index *ix, int budget, gn_err *e)
{
    suql_engine_config ec = { .db = f->db, .schema = f->s, .ix = ix, .em = f->em, .client = f->cl,
                              .answer_tpl = f->tpl[0], .verify_tpl = f->tpl[1],
                              .summary_tpl = f->tpl[2], .classify_tpl = f->tpl[3],
                              .verify_rows_tpl = f->tpl[4], .budget = budget };
    return suql_engine_new(&ec, &f->en, e);
}

static int fx_open(fx *f, int online, int budget)
{
    memset(f, 0, sizeof *f);
    gn_err e;
    const char *db = th_path("sample_db/restaurants.db");
    rt_opts o;
    rt_opts_default(&o);
    if (st_open(db, 0, &f->db, &e) || st_schema_load(f->db, &f->s, &e) ||
        rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &f->em, &e))
        goto fail;
    if (rt_index_open(f->db, db, f->em, &o, &f->ix, &e)) f->ix = NULL;   /* ranking optional */
    if (st_guard(f->db, &e)) goto fail;
    if (online) {
        llm_config lc = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = 8,
                          .connect_timeout = 2, .stall_timeout = 10, .retries = 0 };
        if (!lc.url || llm_client_new(&lc, &f->cl, &e)) goto fail;
        const char *names[5] = { "answer", "verify", "summary", "classify", "verify_rows" };
        for (int i = 0; i < 5; i++)
            if (llm_prompt_load(NULL, th_path("config/prompts"), names[i], &f->tpl[i], &e)) goto fail;
    }
    if (fx_engine_over(f, f->ix, budget, &e)) goto fail;
    return 0;
fail:
    th_fail(__FILE__, __LINE__, "fixture: %s", e.msg);
    return -1;
}

static void fx_close(fx *f)
{
    suql_engine_free(f->en);
    for (int i = 0; i < 5; i++) llm_tpl_free(f->tpl[i]);
    llm_client_free(f->cl);
    rt_index_close(f->ix);
    rt_embedder_free(f->em);
    st_schema_free(f->s);
    sqlite3_close(f->db);
}

static int requests_for(const char *stage)
{
    cJSON *req = th_mock_requests();
    int n = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, req) {
        const cJSON *h = cJSON_GetObjectItem(it, "headers");
        const cJSON *v;
        cJSON_ArrayForEach(v, h)
            if (!strcasecmp(v->string, "X-Genie-Stage") && !strcmp(v->valuestring, stage)) n++;
    }
    cJSON_Delete(req);
    return n;
}

/* Script the mock so that every verification gets REPLY. */
static int verify_says(const char *reply)
{
    char js[160];
    snprintf(js, sizeof js, "{\"chat\": [{\"stage\": \"verify\", \"reply\": \"%s\"}]}", reply);
    return th_mock_script(js);
}

static const char *script =
    "{\"chat\": [{\"stage\": \"verify\", \"contains\": \"Sunny\", \"reply\": \"No\"},"
    " {\"stage\": \"verify\", \"reply\": \"Yes\"},"
    " {\"stage\": \"answer\", \"reply\": \"12\"},"
    " {\"stage\": \"summary\", \"reply\": \"A fine place.\"},"
    " {\"stage\": \"classify\", \"reply\": \"1\"}]}";

TEST(suql_engine_optimized_stops_at_limit)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(th_mock_script(script) == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name, summary(reviews) FROM restaurants WHERE location = "
                         "'Palo Alto' AND answer(reviews, 'is it romantic?') = 'Yes' LIMIT 2",
                         &r, &st, &e) == 0);
    CHECK_STR(st.mode, "optimized");
    CHECK_INT(r.nrows, 2);
    CHECK(st.candidates > 100);
    CHECK(st.checked <= 40);                     /* one window, not every candidate: */
    CHECK(requests_for("verify") <= 5);          /* the budget of 40 fits one round of calls */
    CHECK_INT(requests_for("summary"), 2);       /* the returned rows only */
    CHECK_STR(r.cells[1].text, "A fine place.");
    CHECK(!r.note);
    suql_result_release(&r);
    /* The same again: all from the memo. */
    REQUIRE(th_mock_script(script) == 0);
    REQUIRE(suql_execute(f.en, "SELECT name, summary(reviews) FROM restaurants WHERE location = "
                         "'Palo Alto' AND answer(reviews, 'is it romantic?') = 'Yes' LIMIT 2",
                         &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 2);
    CHECK_INT(st.llm_calls, 0);
    CHECK_INT(th_mock_count(), 0);
    suql_result_release(&r);
    fx_close(&f);
}

/* Where the plan fixes the evaluations, they are counted exactly: the
 * first window is the LIMIT's rows in whole calls of 8 (at least 8; the
 * whole budget when it fits one round of 8 calls: 40 for LIMIT 1, 50 for
 * LIMIT 5), and the checks stop at the window that fills the LIMIT (a
 * window more past it once went unnoticed: 24 checks became 32). */
TEST(suql_engine_checks_stop_at_the_window_that_fills_the_limit)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    static const struct { int limit; long checked; } v[] = { { 1, 40 }, { 5, 50 }, { 8, 8 }, { 9, 16 }, { 17, 24 } };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        REQUIRE(verify_says("Yes") == 0);
        char q[200];
        snprintf(q, sizeof q, "SELECT name FROM restaurants WHERE location = 'Palo Alto' AND "
                 "answer(reviews, 'does it serve brunch on day %zu?') = 'Yes' LIMIT %d", i, v[i].limit);
        suql_result r;
        suql_run_stats st;
        gn_err e;
        REQUIRE(suql_execute(f.en, q, &r, &st, &e) == 0);
        CHECK_INT(r.nrows, v[i].limit);
        CHECK_INT(st.checked, v[i].checked);
        CHECK_INT(requests_for("verify"), (v[i].checked + 7) / 8);   /* 8 rows a call */
        suql_result_release(&r);
    }
    fx_close(&f);
}

/* A filter that matches nothing spends its budget in few rounds: LIMIT
 * 3's budget of 40 fits one round of calls (8 calls of 8 rows) and goes
 * out in it, not in 5 rounds of one call, in as many calls (5) as the
 * fixed window of 8 made.  LIMIT 10's budget of 100 does not: after a
 * first window of the LIMIT's rows (10 -> 16) finds none, the window
 * grows to what the pass rate says LIMIT needs, a round at most (64),
 * then the 20 left: 3 rounds. */
TEST(suql_engine_no_match_spends_the_budget_in_few_rounds)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    static const struct { int limit; long checked, rounds, calls; } v[] = {
        { 3, 40, 1, 5 }, { 10, 100, 3, 13 } };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        REQUIRE(verify_says("No") == 0);
        char q[200];
        snprintf(q, sizeof q, "SELECT name FROM restaurants WHERE answer(reviews, 'does it serve "
                 "brunch on day %zu?') = 'Yes' LIMIT %d", i, v[i].limit);
        suql_result r;
        suql_run_stats st;
        gn_err e;
        REQUIRE(suql_execute(f.en, q, &r, &st, &e) == 0);
        CHECK_INT(r.nrows, 0);
        CHECK_INT(st.checked, v[i].checked);
        CHECK_INT(st.rounds, v[i].rounds);
        CHECK_INT(requests_for("verify"), v[i].calls);
        CHECK(st.budget_hit);
        suql_result_release(&r);
    }
    fx_close(&f);
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out)) ok = 0;
    return ok ? 0 : -1;
}

/* An index that cannot rank (its vectors damaged, found as it is read in
 * the background) is an error said in words: the candidates are checked
 * in SQL order, and when the budget does not reach them all the note
 * says they were not the likeliest first. */
TEST(suql_engine_unranked_candidates_are_said)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 8) == 0);
    char db[800], from[900], to[900];
    snprintf(db, sizeof db, "%s/r.db", th_tmpdir());
    REQUIRE(copy_file(th_path("sample_db/restaurants.db"), db) == 0);
    static const char *const ext[] = { "faiss", "vec", "lex" };
    for (int i = 0; i < 3; i++) {
        snprintf(from, sizeof from, "%s.%s", th_path("sample_db/restaurants.db"), ext[i]);
        snprintf(to, sizeof to, "%s.%s", db, ext[i]);
        REQUIRE(copy_file(from, to) == 0);
    }
    char *fp = rt_faiss_path(db);
    FILE *w = fopen(fp, "r+b");
    REQUIRE(w);
    fseek(w, (long)sizeof(faiss_header), SEEK_SET);
    for (int i = 0; i < 64; i++) fputc(0xff, w);
    fclose(w);
    free(fp);
    rt_opts o;
    rt_opts_default(&o);
    o.background_from = 1;
    rt_index *bad = NULL;
    gn_err e;
    REQUIRE(rt_index_open(f.db, db, f.em, &o, &bad, &e) == 0);
    suql_engine_free(f.en);
    REQUIRE(fx_engine_over(&f, bad, 8, &e) == 0);
    REQUIRE(verify_says("No") == 0);
    suql_result r;
    suql_run_stats st;
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE location = 'Palo Alto' AND "
                         "answer(reviews, 'is there a rooftop terrace?') = 'Yes' LIMIT 1", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);
    CHECK(st.budget_hit);
    CHECK_CONTAINS(r.note, "the retrieval index could not rank the candidates");
    CHECK_CONTAINS(r.note, "not the likeliest first");
    suql_result_release(&r);
    fx_close(&f);
    rt_index_close(bad);
}

TEST(suql_engine_order_by_and_negation)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(th_mock_script(script) == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    /* ORDER BY rating DESC, and the budget (40) can check every candidate
     * (11): the rows are exactly the best-rated that pass. */
    REQUIRE(suql_execute(f.en, "SELECT name, rating FROM restaurants WHERE location = 'Cupertino' "
                         "AND rating >= 4.7 AND answer(reviews, 'good for kids?') = 'Yes' ORDER BY "
                         "rating DESC, name LIMIT 3", &r, &st, &e) == 0);
    REQUIRE(r.nrows == 3);
    CHECK(!st.relevance_first);
    suql_result best;
    REQUIRE(suql_execute(f.en, "SELECT name, rating FROM restaurants WHERE location = 'Cupertino' "
                         "AND rating >= 4.7 ORDER BY rating DESC, name LIMIT 3", &best, NULL, &e) == 0);
    for (int i = 0; i < 3; i++) CHECK_STR(r.cells[i * 2].text, best.cells[i * 2].text);
    suql_result_release(&best);
    suql_result_release(&r);
    /* 274 candidates, more than the budget checks; but in ORDER BY order
     * the first window has 3 that pass: exact, the best-rated 3. */
    REQUIRE(suql_execute(f.en, "SELECT name, rating FROM restaurants WHERE location = 'Cupertino' "
                         "AND answer(reviews, 'good for kids?') = 'Yes' ORDER BY rating DESC, name "
                         "LIMIT 3", &r, &st, &e) == 0);
    REQUIRE(r.nrows == 3);
    CHECK(!st.relevance_first);
    CHECK(!st.inexact && !st.budget_hit && !r.note);
    REQUIRE(suql_execute(f.en, "SELECT name, rating FROM restaurants WHERE location = 'Cupertino' "
                         "ORDER BY rating DESC, name LIMIT 3", &best, NULL, &e) == 0);
    for (int i = 0; i < 3; i++) CHECK_STR(r.cells[i * 2].text, best.cells[i * 2].text);
    suql_result_release(&best);
    suql_result_release(&r);
    /* NOT answer(...) = 'Yes' is asked as the condition answer(...) <> 'Yes':
     * the verify reply says whether that holds. */
    REQUIRE(verify_says("No") == 0);
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE location = 'Sunnyvale' AND NOT "
                         "answer(reviews, 'is it loud?') = 'Yes' LIMIT 2", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);     /* the condition never holds */
    suql_result_release(&r);
    cJSON *req = th_mock_requests();
    char *first = cJSON_PrintUnformatted(cJSON_GetArrayItem(req, 0));
    CHECK_CONTAINS(first, "answer(reviews, 'is it loud?') <> 'Yes'");
    free(first);
    cJSON_Delete(req);
    REQUIRE(verify_says("Yes") == 0);
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE location = 'Sunnyvale' AND NOT "
                         "answer(reviews, 'is it noisy?') = 'Yes' LIMIT 2", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 2);     /* it always holds (a new question: not memoized) */
    suql_result_release(&r);
    fx_close(&f);
}

TEST(suql_engine_budget_is_never_exceeded)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 5) == 0);
    REQUIRE(verify_says("No") == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE answer(reviews, 'has a pool?') "
                         "= 'Yes'", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);
    CHECK(st.budget_hit);
    CHECK(st.evaluations <= 5);
    CHECK(requests_for("verify") <= 5);
    CHECK_CONTAINS(r.note, "budget of 5 evaluations ran out");
    suql_result_release(&r);
    fx_close(&f);
}

/* When no candidate passes, the final statement selects no row: the
 * filters' free text is not computed again row by row (it used to be, up
 * to the rest of the budget, through the original WHERE). */
TEST(suql_engine_nothing_passes_costs_the_checks_only)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(verify_says("No") == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name, summary(reviews) FROM restaurants WHERE location = "
                         "'Cupertino' AND 'greek' = ANY (cuisines) AND answer(reviews, 'has a "
                         "helipad?') = 'Yes' LIMIT 1", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);
    CHECK(st.checked > 0);
    CHECK_INT(st.evaluations, st.checked);
    CHECK_INT(st.llm_calls, 1 + st.classify_calls);    /* the candidates in one call */
    CHECK_INT(requests_for("answer"), 0);
    suql_result_release(&r);
    fx_close(&f);
}

/* With ORDER BY and a budget that cannot check every candidate, the
 * first checks go in ORDER BY order (and past the first ones when
 * memoized checks cost nothing); the figures still count every candidate,
 * and the note says better-placed matches may be unchecked. */
TEST(suql_engine_order_by_past_the_budget_says_it_is_not_exact)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 5) == 0);
    REQUIRE(verify_says("No") == 0);
    const char *q = "SELECT name FROM restaurants WHERE location = 'Cupertino' AND "
                    "answer(reviews, 'has a pool?') = 'Yes' ORDER BY rating DESC LIMIT 1";
    suql_result r, all;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT count(*) FROM restaurants WHERE location = 'Cupertino'", &all,
                         NULL, &e) == 0);
    long total = all.cells[0].i;
    suql_result_release(&all);
    REQUIRE(total > 10);
    REQUIRE(suql_execute(f.en, q, &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);
    CHECK(st.budget_hit);
    CHECK(st.inexact);
    CHECK_INT(st.checked, 5);
    CHECK_INT(st.candidates, total);
    CHECK(r.note && strstr(r.note, "better-placed"));
    suql_result_release(&r);
    /* Now every check says Yes, but the first five are memoized No: a
     * window past them finds the answer. */
    REQUIRE(verify_says("Yes") == 0);
    REQUIRE(suql_execute(f.en, q, &r, &st, &e) == 0);
    REQUIRE(r.nrows == 1);
    CHECK_INT(st.memo_hits, 5);
    CHECK(st.evaluations >= 1 && st.evaluations <= 5);      /* a window past the memoized */
    /* the pass rate seen (none of 5) sends the rest most relevant first:
     * the match found is not known to be the best, and the note says so */
    CHECK(st.inexact == (r.note != NULL));
    suql_result_release(&r);
    fx_close(&f);
}

/* ---- ORDER BY ... LIMIT: exact, or said not to be ------------------------------------------ */

/* Verdicts by a pure function (as the fuzzer's): a hash of the row's text
 * and the question; UD points at the Yes rate's divisor. */
static int hashed_verdict(void *ud, const char *value, const char *question)
{
    uint32_t h = 2166136261u;
    for (const char *p = value; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    for (const char *p = question; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    return (h >> 8) % (unsigned)*(const int *)ud == 0;
}

static int fx_engine(fx *f, int budget, int *rate)
{
    suql_engine_free(f->en);
    f->en = NULL;
    gn_err e;
    suql_engine_config ec = { .db = f->db, .schema = f->s, .ix = f->ix, .em = f->em,
                              .budget = budget, .verdict = hashed_verdict, .verdict_ud = rate };
    return suql_engine_new(&ec, &f->en, &e);
}

/* Over filters, orders, LIMITs, Yes rates and budgets: a run without the
 * inexact flag returns exactly the rows of a run whose budget checks every
 * candidate; the budget holds; the flag comes with a note.  And the
 * order of checking makes most of them exact (counted). */
TEST(suql_engine_order_by_limit_exact_or_said)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    static const char *const where[] = { "location = 'Cupertino'", "location = 'Palo Alto' AND "
                                         "rating >= 4", "price = 'cheap'", "'bars' = ANY (cuisines)" };
    static const char *const order[] = { "rating DESC, _id", "num_reviews DESC, _id", "name, _id",
                                         "rating, num_reviews DESC, _id" };
    static const int rates[] = { 2, 4, 12, 40 }, budgets[] = { 8, 20, 40, 120 };
    int runs = 0, exact = 0, flagged_right = 0;
    uint32_t seed = 12345;
    for (int trial = 0; trial < 48; trial++) {
        seed = seed * 1103515245u + 12345u;
        int wi = (int)(seed >> 8) % 4, oi = (int)(seed >> 12) % 4, ri = (int)(seed >> 16) % 4;
        int bi = (int)(seed >> 20) % 4, limit = 1 + (int)(seed >> 24) % 5;
        int rate = rates[ri];
        char sql[512];
        snprintf(sql, sizeof sql, "SELECT _id, name FROM restaurants WHERE %s AND answer(reviews, "
                 "'is it romantic?') = 'Yes' ORDER BY %s LIMIT %d", where[wi], order[oi], limit);
        suql_result r, all;
        suql_run_stats st, ast;
        gn_err e;
        REQUIRE(fx_engine(&f, budgets[bi], &rate) == 0);
        REQUIRE(suql_execute(f.en, sql, &r, &st, &e) == 0);
        REQUIRE(fx_engine(&f, 1000000, &rate) == 0);
        REQUIRE(suql_execute(f.en, sql, &all, &ast, &e) == 0);
        CHECK(!ast.inexact);
        CHECK(st.evaluations <= budgets[bi]);
        runs++;
        if (st.inexact) {
            CHECK(r.note && strstr(r.note, "better-placed"));
        } else {
            exact++;
            int same = r.nrows == all.nrows;
            for (int i = 0; same && i < r.nrows; i++) same = r.cells[i * 2].i == all.cells[i * 2].i;
            if (!same) th_fail(__FILE__, __LINE__, "not exact: %s (budget %d, 1 in %d)", sql,
                               budgets[bi], rate);
            flagged_right += same;
        }
        suql_result_release(&r);
        suql_result_release(&all);
    }
    CHECK_INT(flagged_right, exact);
    printf("  ORDER BY ... LIMIT: %d of %d runs exact\n", exact, runs);
    CHECK(exact * 2 > runs);
    fx_close(&f);
}

/* ANDed free-text filters short-circuit: the second is asked only of the
 * rows that passed the first, so rows that fail the first cost it nothing. */
TEST(suql_engine_anded_filters_short_circuit)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": [\"verify\", \"verify_rows\"], \"contains\": "
                           "\"has a helipad\", \"reply\": \"No\"}, {\"stage\": [\"verify\", \"verify_rows\"], "
                           "\"reply\": \"Yes\"}]}") == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE location = 'Cupertino' AND "
                         "answer(reviews, 'has a helipad?') = 'Yes' AND answer(reviews, 'is it "
                         "quiet?') = 'Yes' LIMIT 2", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 0);
    CHECK(st.checked > 0);
    CHECK_INT(st.evaluations, st.checked);      /* one filter's worth: the second never asked */
    cJSON *req = th_mock_requests();
    char *all = cJSON_PrintUnformatted(req);
    CHECK(all && !strstr(all, "is it quiet?"));
    free(all);
    cJSON_Delete(req);
    suql_result_release(&r);
    fx_close(&f);
}

TEST(suql_engine_llm_failure_is_a_clear_error)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"status\": 500, "
                           "\"error_message\": \"backend down\"}]}") == 0);
    suql_result r;
    gn_err e;
    CHECK_INT(suql_execute(f.en, "SELECT name FROM restaurants WHERE location = 'Palo Alto' AND "
                           "answer(reviews, 'quiet?') = 'Yes' LIMIT 1", &r, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "backend down");
    /* Per-row mode: the error comes out of the SQLite function. */
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"answer\", \"status\": 500, "
                           "\"error_message\": \"still down\"}]}") == 0);
    CHECK_INT(suql_execute(f.en, "SELECT count(*) FROM restaurants AS a JOIN restaurants AS b ON "
                           "a._id = b._id WHERE a._id < 3 AND answer(a.reviews, 'x?') = 'maybe'",
                           &r, NULL, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "still down");
    fx_close(&f);
}

TEST(suql_engine_offline_and_errors)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name, answer(reviews, 'is there parking?') FROM restaurants "
                         "WHERE answer(reviews, 'is it romantic?') = 'Yes' LIMIT 3", &r, &st, &e) == 0);
    CHECK_INT(r.nrows, 3);
    CHECK(st.offline > 0);
    CHECK_INT(st.llm_calls, 0);
    suql_result_release(&r);
    CHECK_INT(suql_execute(f.en, "SELECT name FROM restaurant", &r, NULL, &e), GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "did you mean 'restaurants'");
    CHECK_INT(e.line, 1);
    CHECK_INT(suql_execute(f.en, "DELETE FROM restaurants", &r, NULL, &e), GN_EUSAGE);
    CHECK_INT(suql_execute(f.en, "SELECT name FROM restaurants WHERE name = 'x''); DROP TABLE "
                           "restaurants; --'", &r, NULL, &e), 0);
    CHECK_INT(r.nrows, 0);
    suql_result_release(&r);
    CHECK_INT(suql_execute(f.en, "SELECT count(*) FROM restaurants", &r, NULL, &e), 0);
    CHECK(r.nrows == 1 && r.cells[0].i > 1000);    /* nothing was dropped */
    suql_result_release(&r);
    gn_buf b;
    gn_buf_init(&b);
    REQUIRE(suql_explain(f.en, "SELECT name FROM restaurants WHERE location = 'Palo Alto' AND "
                         "answer(reviews, 'q?') = 'Yes' LIMIT 2", &b, &e) == 0);
    CHECK_CONTAINS(b.data, "mode:   optimized");
    CHECK_CONTAINS(b.data, "candidates: ");
    CHECK_CONTAINS(b.data, "budget: 40");
    gn_buf_release(&b);
    fx_close(&f);
}

/* The result's column types come from the analyzed select list, a star
 * expanded as the emitter expands it, whatever mode runs the query. */
TEST(suql_engine_result_column_types)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    suql_result r;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT name, cuisines, rating > 4 AS good, 0.1::float8 + 0.2::float8 "
                         "AS r, 9007199254740993 AS big FROM restaurants WHERE name = 'Acropolis Souvlaki'",
                         &r, NULL, &e) == 0);
    REQUIRE(r.ncols == 5 && r.nrows == 1);
    CHECK_INT(r.types[0].vtype, SUQL_VT_TEXT);
    CHECK_INT(r.types[1].varray, 1);
    CHECK_INT(r.types[2].vtype, SUQL_VT_BOOL);
    CHECK_INT(r.types[3].vtype, SUQL_VT_REAL);
    CHECK_INT(r.types[4].vtype, SUQL_VT_INT);
    cJSON *j = suql_result_cjson(&r, -1);
    char *s = cJSON_PrintUnformatted(j);
    CHECK_STR(s, "[{\"name\":\"Acropolis Souvlaki\",\"cuisines\":[\"greek\"],\"good\":false,"
                 "\"r\":0.30000000000000004,\"big\":9007199254740993}]");
    free(s);
    cJSON_Delete(j);
    suql_result_release(&r);
    /* A star: every column typed, in the emitter's order. */
    REQUIRE(suql_execute(f.en, "SELECT r.*, r.rating >= 4 AS good FROM restaurants r LIMIT 1", &r, NULL,
                         &e) == 0);
    int seen = 0;
    for (int k = 0; k < r.ncols; k++) {
        if (!strcmp(r.names[k], "cuisines") || !strcmp(r.names[k], "reviews")) {
            CHECK_INT(r.types[k].varray, 1);
            seen++;
        }
        if (!strcmp(r.names[k], "rating")) CHECK_INT(r.types[k].vtype, SUQL_VT_REAL);
        if (!strcmp(r.names[k], "name")) CHECK_INT(r.types[k].varray, 0);
    }
    CHECK_INT(seen, 2);
    CHECK_INT(r.types[r.ncols - 1].vtype, SUQL_VT_BOOL);
    suql_result_release(&r);
    /* Free text in WHERE (optimized) types its columns too. */
    REQUIRE(suql_execute(f.en, "SELECT cuisines, answer(reviews, 'is it romantic?') AS a FROM restaurants "
                         "WHERE answer(reviews, 'is it romantic?') = 'Yes' LIMIT 1", &r, NULL, &e) == 0);
    CHECK_INT(r.types[0].varray, 1);
    CHECK_INT(r.types[1].vtype, SUQL_VT_TEXT);
    suql_result_release(&r);
    /* A set operation: the types its arms agree on. */
    REQUIRE(suql_execute(f.en, "SELECT 1 > 0 AS b, cuisines FROM restaurants WHERE name = 'Acropolis Souvlaki' "
                         "UNION ALL SELECT 1 < 0, ARRAY['x']", &r, NULL, &e) == 0);
    REQUIRE(r.ncols == 2);
    CHECK_INT(r.types[0].vtype, SUQL_VT_BOOL);
    CHECK_INT(r.types[1].varray, 1);
    gn_buf b;
    gn_buf_init(&b);
    suql_result_csv(&r, &b);
    CHECK_STR(b.data, "b,cuisines\r\ntrue,\"[\"\"greek\"\"]\"\r\nfalse,\"[\"\"x\"\"]\"\r\n");
    gn_buf_release(&b);
    suql_result_release(&r);
    fx_close(&f);
}

/* ---- the paper's corpus: every query runs (mock LLM) ------------------ */

TEST(suql_engine_runs_the_paper_corpus)
{
    th_corpus c;
    REQUIRE(th_corpus_load(&c) == 0 && c.n == 100);
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(th_mock_script(script) == 0);
    int ok = 0, rows = 0, errs = 0, over = 0;
    for (int i = 0; i < c.n; i++) {
        suql_result r;
        suql_run_stats st;
        gn_err e;
        if (suql_execute(f.en, c.queries[i], &r, &st, &e) == 0) {
            ok++;
            rows += r.nrows > 0;
            over += st.evaluations > st.budget;
            suql_result_release(&r);
        } else {
            errs++;
            if (getenv("GENIE_VERBOSE")) printf("  corpus %d: %s\n", i + 1, e.msg);
        }
    }
    th_corpus_free(&c);
    printf("  corpus: %d of 100 run, %d return rows, %d errors\n", ok, rows, errs);
    CHECK(ok >= 95);
    CHECK_INT(over, 0);
    fx_close(&f);
}

/* Shapes a review found broken: aggregates ordered by an aggregate, ORDER
 * BY position, free text only inside a subquery (must stop at the budget),
 * a WHERE too large for DNF (per-row instead), reals printed as written. */
TEST(suql_engine_review_regressions)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 20) == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT price, count(*) AS n FROM restaurants WHERE location = 'Cupertino' "
                         "AND answer(reviews, 'is there parking?') = 'Yes' GROUP BY price "
                         "ORDER BY count(*) DESC", &r, &st, &e) == 0);
    CHECK_STR(st.mode, "optimized");
    suql_result_release(&r);
    REQUIRE(suql_execute(f.en, "SELECT name, rating FROM restaurants WHERE rating > 4 AND "
                         "answer(reviews, 'is it romantic?') = 'Yes' ORDER BY 2 DESC, 1 LIMIT 2",
                         &r, &st, &e) == 0);
    CHECK(r.nrows <= 2);
    for (int i = 1; i < r.nrows; i++) CHECK(r.cells[2 * i + 1].d <= r.cells[2 * (i - 1) + 1].d);
    suql_result_release(&r);
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE _id IN (SELECT _id FROM restaurants "
                         "WHERE answer(reviews, 'is there live jazz?') = 'Yes') LIMIT 2", &r, &st, &e) == 0);
    CHECK(st.evaluations <= 20);
    suql_result_release(&r);
    REQUIRE(suql_execute(f.en, "SELECT name FROM restaurants WHERE (rating=1 OR rating=2) AND (rating=1 OR "
                         "rating=2) AND (rating=1 OR rating=2) AND (rating=1 OR rating=2) AND (rating=1 OR "
                         "rating=2) AND (rating=1 OR rating=2) AND (rating=1 OR answer(reviews, 'q?') = "
                         "'Yes') LIMIT 1", &r, &st, &e) == 0);
    CHECK_STR(st.mode, "per-row");
    suql_result_release(&r);
    REQUIRE(suql_execute(f.en, "SELECT 10.0 AS x", &r, NULL, &e) == 0);
    char buf[32];
    CHECK_STR(suql_cell_text(&r.cells[0], buf), "10.0");
    suql_result_release(&r);
    fx_close(&f);
}

/* A join whose filter is pushed down, sorted and limited, with summary()
 * in its select list: the filters leave the select list its share of the
 * budget, and only the rows returned are summarized (SQLite computes a
 * sorted statement's select list for every row before LIMIT).  Found in
 * a relayed conversation: every summary came back NULL. */
TEST(suql_engine_join_select_list_within_budget)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 16) == 0);
    REQUIRE(th_mock_script("{\"chat\": [{\"stage\": \"verify\", \"reply\": \"Yes\"},"
                           " {\"stage\": \"summary\", \"reply\": \"A fine place.\"}]}") == 0);
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT a.name, summary(a.reviews) AS s FROM restaurants AS a JOIN "
                         "restaurants AS b ON a._id = b._id WHERE answer(a.reviews, 'quiet?') = 'Yes' "
                         "AND a.location = 'Palo Alto' ORDER BY b.rating DESC, a._id LIMIT 2 OFFSET 1",
                         &r, &st, &e) == 0);
    CHECK_STR(st.mode, "optimized");
    CHECK_INT(r.nrows, 2);
    for (int i = 0; i < r.nrows; i++) CHECK_STR(r.cells[2 * i + 1].text, "A fine place.");
    CHECK(st.evaluations <= 16);
    suql_result_release(&r);
    fx_close(&f);
}

/* QUERY, whose free-text filter reads one table of a join or a CTE, runs
 * optimized: batched checks, not a call a row, and the rows of the same
 * filter asked of that table alone (in name order, first column). */
static void pushed_down(fx *f, const char *query)
{
    suql_result r, one;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f->en, query, &r, &st, &e) == 0);
    CHECK_STR(st.mode, "optimized");
    CHECK(r.nrows > 2);
    CHECK(st.llm_calls > 0 && st.llm_calls < r.nrows);
    REQUIRE(suql_execute(f->en, "SELECT name FROM restaurants WHERE answer(reviews, 'quiet?') = 'Yes' "
                         "AND location = 'Palo Alto' AND price = 'luxury' ORDER BY name, _id", &one, NULL, &e) == 0);
    CHECK_INT(r.nrows, one.nrows);
    for (int i = 0; i < r.nrows && i < one.nrows; i++) CHECK_STR(r.cells[i].text, one.cells[i].text);
    suql_result_release(&one);
    suql_result_release(&r);
}

/* A join whose free-text filter reads one table: that table's rows are
 * decided by the optimizer (batched, ranked), then the join runs in
 * SQLite; the rows are those the filter as written gives.  Likewise a CTE
 * of one table. */
TEST(suql_engine_join_free_text_runs_optimized)
{
    fx f;
    REQUIRE(fx_open(&f, 1, 0) == 0);
    REQUIRE(verify_says("Yes") == 0);
    pushed_down(&f, "SELECT a.name FROM restaurants AS a JOIN restaurants AS b ON a._id = b._id "
                    "WHERE answer(a.reviews, 'quiet?') = 'Yes' AND a.location = 'Palo Alto' "
                    "AND a.price = 'luxury' AND b.name IS NOT NULL ORDER BY a.name, a._id");
    fx_close(&f);
    REQUIRE(fx_open(&f, 1, 0) == 0);           /* nothing memoized */
    REQUIRE(verify_says("Yes") == 0);
    pushed_down(&f, "WITH q AS (SELECT _id AS id, name FROM restaurants WHERE "
                    "answer(reviews, 'quiet?') = 'Yes' AND location = 'Palo Alto' AND price = 'luxury') "
                    "SELECT q.name FROM q JOIN restaurants AS b ON b._id = q.id ORDER BY q.name, q.id");
    /* Free text under OR with another table: row by row, as written. */
    suql_result r;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, "SELECT a.name FROM restaurants AS a JOIN restaurants AS b ON a._id = b._id "
                         "WHERE answer(a.reviews, 'quiet?') = 'Yes' OR b.location = 'Palo Alto'",
                         &r, &st, &e) == 0);
    CHECK_STR(st.mode, "per-row");
    suql_result_release(&r);
    fx_close(&f);
}

/* The ranking of candidates (suql_rank_first) is a permutation of them,
 * whatever the ranking holds (ids anywhere in the list, ids ranked twice,
 * ids that are not candidates): the ranked ones first in the ranking's
 * order, the others in their order after them.  The in-place version
 * before it wrote positions it had not read yet (duplicates in place of
 * lost rows, and past the array's end). */
TEST(suql_rank_first_is_a_permutation)
{
    unsigned seed = 12345;
    for (int round = 0; round < 500; round++) {
        long n = 1 + (long)((seed = seed * 1103515245u + 12345u) >> 16) % 60;
        int64_t *v = xcalloc((size_t)n, sizeof *v), *orig = xcalloc((size_t)n, sizeof *orig);
        for (long i = 0; i < n; i++) v[i] = orig[i] = 1 + i * 3;        /* distinct ids */
        for (long i = n - 1; i > 0; i--) {                               /* in any order */
            long j = (long)((seed = seed * 1103515245u + 12345u) >> 16) % (i + 1);
            int64_t t = v[i];
            v[i] = v[j];
            v[j] = t;
            orig[i] = v[i];
            orig[j] = v[j];
        }
        long nf = (long)((seed = seed * 1103515245u + 12345u) >> 16) % (n + 5);
        int64_t *first = xcalloc((size_t)nf + 1, sizeof *first);
        for (long i = 0; i < nf; i++) {
            long k = (long)((seed = seed * 1103515245u + 12345u) >> 16) % (n + 3);
            first[i] = k < n ? orig[k] : 100000 + k;        /* some are not candidates */
        }
        suql_rank_first(v, n, first, nf);
        /* the same multiset */
        long same = 0;
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++) same += v[i] == orig[j];
        CHECK_INT(same, n);
        /* the ranked candidates first, in the ranking's order, each once */
        long k = 0;
        for (long i = 0; i < nf; i++) {
            int cand = 0, seen = 0;
            for (long j = 0; j < n; j++) cand |= orig[j] == first[i];
            for (long j = 0; j < i; j++) seen |= first[j] == first[i];
            if (cand && !seen) {
                CHECK(k < n && v[k] == first[i]);
                k++;
            }
        }
        /* then the others in their order */
        long prev = -1;
        for (long i = k; i < n; i++) {
            long pos = 0;
            while (orig[pos] != v[i]) pos++;
            CHECK(pos > prev);
            prev = pos;
        }
        free(v);
        free(orig);
        free(first);
    }
}

/* Everyday filters with everyday questions, offline with the index (the
 * ranking runs): the query the heap overflow was found with, and rows
 * that pass. */
TEST(suql_engine_ranked_everyday_filters)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    static const char *const filters[] = { "price = 'cheap'", "'bars' = ANY (cuisines)", "rating >= 4",
                                           "location = 'Cupertino'" };
    static const char *const qs[] = { "is it romantic?", "good for kids?", "does it have a patio?" };
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++)
        for (size_t j = 0; j < sizeof qs / sizeof *qs; j++) {
            char sql[256];
            snprintf(sql, sizeof sql, "SELECT name FROM restaurants WHERE %s AND answer(reviews, '%s') "
                     "= 'Yes' LIMIT 4", filters[i], qs[j]);
            suql_result r;
            suql_run_stats st;
            gn_err e;
            REQUIRE(suql_execute(f.en, sql, &r, &st, &e) == 0);
            CHECK_STR(st.mode, "optimized");
            CHECK(r.nrows <= 4);
            suql_result_release(&r);
        }
    fx_close(&f);
}

/* count(*) over a free-text filter the budget cannot check whole: the
 * count is of the confirmed matches, the note says so with the estimate,
 * and the 95% interval covers the true count (an unlimited budget's) in
 * most runs over Yes rates and filters (counted; a simulation on the
 * sample data covered 93-99%). */
TEST(suql_engine_count_estimate_covers)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    static const char *const where[] = { "", "location = 'Cupertino' AND ", "price = 'cheap' AND ",
                                         "rating >= 4 AND " };
    static const char *const qs[] = { "is it romantic?", "good for kids?", "does it have a patio?" };
    static const int rates[] = { 3, 6, 12, 25 };
    int runs = 0, covered = 0;
    for (int wi = 0; wi < 4; wi++)
        for (int qi = 0; qi < 3; qi++)
            for (int ri = 0; ri < 4; ri++) {
                int rate = rates[ri];
                char sql[512];
                snprintf(sql, sizeof sql, "SELECT count(*) FROM restaurants WHERE %sanswer(reviews, "
                         "'%s') = 'Yes'", where[wi], qs[qi]);
                suql_result r, all;
                suql_run_stats st, ast;
                gn_err e;
                REQUIRE(fx_engine(&f, 0, &rate) == 0);
                REQUIRE(suql_execute(f.en, sql, &r, &st, &e) == 0);
                REQUIRE(fx_engine(&f, 1000000, &rate) == 0);
                REQUIRE(suql_execute(f.en, sql, &all, &ast, &e) == 0);
                long truth = all.cells[0].i, got = r.cells[0].i;
                CHECK(!ast.sampled && !ast.budget_hit);
                CHECK(got <= truth);
                if (st.sampled) {
                    runs++;
                    CHECK_INT(got, st.confirmed);
                    CHECK(st.est_lo <= st.est_total && st.est_total <= st.est_hi);
                    CHECK(st.est_lo >= st.confirmed);
                    CHECK(st.evaluations <= st.budget);
                    CHECK(r.note && strstr(r.note, "confirmed") && strstr(r.note, "95% interval"));
                    covered += st.est_lo <= truth && truth <= st.est_hi;
                } else {
                    CHECK_INT(got, truth);            /* the budget checked every candidate */
                }
                suql_result_release(&r);
                suql_result_release(&all);
            }
    printf("  count estimate: the 95%% interval covered the true count in %d of %d runs\n", covered,
           runs);
    CHECK(runs >= 20);
    CHECK(covered * 10 >= runs * 8);
    /* per group: each count at most its group's true count, and said to be
     * of its confirmed matches */
    {
        int rate = 6;
        const char *g = "SELECT location, count(*) FROM restaurants WHERE answer(reviews, "
                        "'is it romantic?') = 'Yes' GROUP BY location ORDER BY location";
        suql_result r, all;
        suql_run_stats st, ast;
        gn_err e;
        REQUIRE(fx_engine(&f, 0, &rate) == 0);
        REQUIRE(suql_execute(f.en, g, &r, &st, &e) == 0);
        REQUIRE(fx_engine(&f, 1000000, &rate) == 0);
        REQUIRE(suql_execute(f.en, g, &all, &ast, &e) == 0);
        CHECK(st.sampled && r.note && strstr(r.note, "each group's count is of its confirmed matches"));
        for (int i = 0; i < r.nrows; i++)
            for (int j = 0; j < all.nrows; j++)
                if (!strcmp(r.cells[2 * i].text, all.cells[2 * j].text))
                    CHECK(r.cells[2 * i + 1].i <= all.cells[2 * j + 1].i);
        suql_result_release(&r);
        suql_result_release(&all);
    }
    fx_close(&f);
}

/* A join pushed down: the other table's structured conditions narrow the
 * candidates (a semi-join), and without ORDER BY the checks stop once the
 * join's LIMIT rows have passed (with every verdict Yes, one window). */
TEST(suql_engine_pushdown_semijoin_and_limit)
{
    fx f;
    REQUIRE(fx_open(&f, 0, 0) == 0);
    int rate = 1;                                   /* every check passes */
    REQUIRE(fx_engine(&f, 0, &rate) == 0);
    const char *q = "SELECT r.name, h.closes FROM restaurants r JOIN restaurant_hours h ON "
                    "h.restaurant_id = r._id WHERE h.day = 'Fri' AND h.closes >= '23:00' AND "
                    "answer(r.reviews, 'does it have live music?') = 'Yes' LIMIT 2";
    suql_result r, late;
    suql_run_stats st;
    gn_err e;
    REQUIRE(suql_execute(f.en, q, &r, &st, &e) == 0);
    REQUIRE(suql_execute(f.en, "SELECT count(DISTINCT r._id) FROM restaurants r JOIN restaurant_hours h "
                         "ON h.restaurant_id = r._id WHERE h.day = 'Fri' AND h.closes >= '23:00'",
                         &late, NULL, &e) == 0);
    CHECK_STR(st.mode, "optimized");
    CHECK_INT(st.candidates, late.cells[0].i);       /* not every restaurant */
    CHECK(st.candidates < 1800);
    CHECK_INT(r.nrows, 2);
    CHECK(st.checked <= 8);                          /* stopped at LIMIT */
    CHECK(!st.budget_hit && !r.note);
    suql_result_release(&late);
    suql_result_release(&r);
    fx_close(&f);
}
