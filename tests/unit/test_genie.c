/*
 * test_genie.c — the engine's public header (genie.h) used the way a
 * second front end would use it, with nothing else of the engine: a
 * knowledge base opened from a configuration of flags (SUQL run and
 * explained, a search, the schema), and a conversation with the
 * restaurants agent against the mock LLM server (a turn with its events,
 * saved, resumed in a new opening), the engine's notes reaching the hooks
 * and never the terminal.
 */
#include "harness.h"
#include "mock.h"

#include "genie.h"

#include <stdlib.h>

/* A copy of the sample restaurants knowledge base (and its index) in the
 * test's directory; returns its path. */
static const char *sample_copy(const char *dir)
{
    static char db[1024];
    snprintf(db, sizeof db, "%s/r.db", dir);
    static const char *const ext[] = { "", ".faiss", ".vec", ".lex" };
    for (int i = 0; i < 4; i++) {
        char cmd[3000];
        snprintf(cmd, sizeof cmd, "cp '%s%s' '%s%s'", th_path("sample_db/restaurants.db"), ext[i],
                 db, ext[i]);
        if (system(cmd) != 0) return NULL;
    }
    return db;
}

/* A configuration from ARGS (NULL-terminated), in an environment holding
 * only HOME=DIR: no config file or prompt overrides of the machine's. */
static cfg_t *configure(const char *dir, const char **args)
{
    static char home[1100];
    static const char *env[2];
    snprintf(home, sizeof home, "HOME=%s", dir);
    env[0] = home;
    env[1] = NULL;
    cfg_t *c = cfg_new();
    cfg_set_environ(c, env);
    const char *argv[40] = { "genie" };
    int n = 1;
    while (args[n - 1] && n < 39) {
        argv[n] = args[n - 1];
        n++;
    }
    gn_err e;
    if (cfg_load(c, n, (char **)argv, &e)) {
        th_fail(__FILE__, __LINE__, "cfg_load: %s", e.msg);
        cfg_free(c);
        return NULL;
    }
    return c;
}

/* The notes the hooks received, one a line, warnings marked "!". */
typedef struct heard {
    gn_buf notes;
    long progress;
} heard;

static void on_note(void *ud, int warning, const char *msg)
{
    heard *h = ud;
    gn_buf_printf(&h->notes, "%s%s\n", warning ? "!" : "", msg);
}

static void on_progress(void *ud, const char *stage, const char *unit, long done, long total)
{
    (void)stage; (void)unit; (void)done; (void)total;
    ((heard *)ud)->progress++;
}

/* The knowledge base DB opened offline at LEVEL, its notes and progress
 * going to H; the configuration in *C (caller frees). */
static int open_offline(const char *dir, const char *db, enum genie_kb_level level, heard *h,
                        cfg_t **c, genie_kb *k, gn_err *e)
{
    const char *args[] = { "--db", db, "--offline", NULL };
    gn_buf_init(&h->notes);
    h->progress = 0;
    gn_err_clear(e);
    *c = configure(dir, args);
    if (!*c) {
        memset(k, 0, sizeof *k);
        return -1;
    }
    genie_hooks hooks = { on_note, on_progress, h };
    return genie_kb_open(k, *c, NULL, level, 0, &hooks, e);
}

TEST(genie_kb_runs_suql_search_and_schema_from_a_configuration)
{
    const char *dir = th_tmpdir(), *db = sample_copy(dir);
    REQUIRE(db);
    heard h;
    cfg_t *c;
    genie_kb k;
    gn_err e;
    CHECK_INT(open_offline(dir, db, GENIE_KB_SUQL, &h, &c, &k, &e), 0);
    CHECK(k.cl == NULL);                          /* offline */
    CHECK(k.ix != NULL);
    suql_result r;
    suql_run_stats st;
    if (!th_failed_now() &&
        genie_suql_run(&k, "SELECT name FROM restaurants WHERE location = 'Cupertino' "
                       "ORDER BY rating DESC LIMIT 2", &r, &st, &e) == 0) {
        CHECK_INT(r.nrows, 2);
        CHECK_INT(r.ncols, 1);
        suql_result_release(&r);
    } else {
        th_fail(__FILE__, __LINE__, "genie_suql_run: %s", e.msg);
    }
    /* An error keeps its position for the caret. */
    CHECK(genie_suql_run(&k, "SELECT name FROM WHERE rating > 3", &r, &st, &e) != 0);
    CHECK(e.line == 1 && e.col > 0);
    gn_buf out;
    gn_buf_init(&out);
    CHECK_INT(genie_suql_explain(&k, "SELECT name FROM restaurants WHERE answer(reviews, "
                                 "'is it romantic?') = 'Yes' LIMIT 1", &out, &e), 0);
    /* The plan, not the query echoed: its mode, the free-text check and
     * the budget it buys. */
    CHECK_CONTAINS(out.data, "mode:   optimized");
    CHECK_CONTAINS(out.data, "-> verify prompt, 1 evaluation per candidate");
    CHECK_CONTAINS(out.data, "budget: 40 free-text evaluations");
    gn_buf_reset(&out);
    genie_kb_schema(&k, GENIE_SCHEMA_MAX_ENUM, &out);
    CHECK_CONTAINS(out.data, "CREATE TABLE restaurants");
    CHECK_CONTAINS(out.data, "CREATE TABLE restaurant_hours");
    genie_hit *hit = NULL;
    int n = 0;
    CHECK_INT(genie_search(&k, "romantic candle-lit dinner", 3, &hit, &n, &e), 0);
    CHECK_INT(n, 3);
    for (int i = 0; i < n; i++) {
        CHECK_STR(hit[i].table, "restaurants");
        CHECK(hit[i].label && hit[i].label[0] && strncmp(hit[i].label, "row ", 4));
        CHECK(hit[i].passage && hit[i].column);
        CHECK(i == 0 || hit[i].score <= hit[i - 1].score);
    }
    genie_hits_free(hit, n);
    CHECK_INT(genie_kb_loading(&k), 0);
    genie_kb_close(&k);
    /* Nothing was rebuilt: nothing to tell. */
    CHECK_INT(h.progress, 0);
    CHECK_INT((long)h.notes.len, 0);
    gn_buf_release(&out);
    gn_buf_release(&h.notes);
    cfg_free(c);
}

TEST(genie_kb_tells_through_the_hooks_when_the_index_is_stale)
{
    const char *dir = th_tmpdir(), *db = sample_copy(dir);
    REQUIRE(db);
    /* A row added behind the index's back: the index is stale. */
    REQUIRE(th_sql_exec(db, "UPDATE restaurants SET reviews = json_array('new words') "
                            "WHERE _id = (SELECT min(_id) FROM restaurants)") == 0);
    heard h;
    cfg_t *c;
    genie_kb k;
    gn_err e;
    CHECK_INT(open_offline(dir, db, GENIE_KB_INDEX, &h, &c, &k, &e), 0);
    CHECK(k.ix != NULL);
    CHECK_CONTAINS(h.notes.data ? h.notes.data : "", "; rebuilding\n");
    CHECK_CONTAINS(h.notes.data ? h.notes.data : "", "index built in");
    CHECK(h.progress > 0);
    genie_kb_close(&k);
    gn_buf_release(&h.notes);
    cfg_free(c);
}

/* What a turn's event callback saw. */
typedef struct seen {
    int stages, tokens, responses;
    gn_buf reply;
} seen;

static void on_event(const ag_event *ev, void *ud)
{
    seen *s = ud;
    if (ev->kind == AG_EV_STAGE) s->stages++;
    if (ev->kind == AG_EV_TOKEN) {
        s->tokens++;
        gn_buf_puts(&s->reply, ev->text ? ev->text : "");
    }
    if (ev->kind == AG_EV_RESPONSE) s->responses++;
}

static void count_turn(const st_turn *t, void *ud)
{
    (void)t;
    ++*(int *)ud;
}

TEST(genie_chat_runs_saves_and_resumes_a_turn)
{
    const char *url = th_mock_url();
    REQUIRE(url);
    REQUIRE(th_mock_script(
        "{\"chat\": {\"rules\": ["
        "{\"stage\": \"parse\", \"times\": 1, \"reply\": "
        "\"answer(\\\"Which are the best rated restaurants in Cupertino?\\\")\"},"
        "{\"stage\": \"kb_parse\", \"times\": 1, \"reply\": \"SELECT name, rating FROM restaurants "
        "WHERE location = 'Cupertino' ORDER BY rating DESC LIMIT 2;\"},"
        "{\"stage\": \"respond\", \"times\": 1, \"reply\": \"Here are the two best rated.\"}],"
        "\"default\": {\"reply\": \"mock reply\"}}}") == 0);
    const char *dir = th_tmpdir(), *db = sample_copy(dir);
    REQUIRE(db);
    char sessions[1100];
    snprintf(sessions, sizeof sessions, "%s/sessions.db", dir);
    const char *args[] = { "--agent", "restaurants", "--db", db, "--llm-url", url, "--model", "mock",
                           "--no-cache", "--retries", "0", "--today", "2026-11-21",
                           "--sessions", sessions, NULL };
    cfg_t *c = configure(dir, args);
    REQUIRE(c);
    heard h = { 0 };
    gn_buf_init(&h.notes);
    genie_hooks hooks = { on_note, on_progress, &h };
    genie_chat ch;
    gn_err e;
    gn_err_clear(&e);
    REQUIRE(genie_chat_open(&ch, c, &hooks, &e) == 0 || (genie_chat_close(&ch), 0));
    CHECK(ch.kb.cl != NULL);
    CHECK_STR(ch.agent->name, "restaurants");
    seen s = { 0 };
    gn_buf_init(&s.reply);
    ag_turn_out o;
    CHECK_INT(genie_turn(&ch, "what are the best places in Cupertino?", on_event, &s, &o, &e), 0);
    if (!th_failed_now()) {
        CHECK_STR(o.response, "Here are the two best rated.");
        CHECK_CONTAINS(o.suql_json, "Cupertino");
        CHECK(s.stages >= 3);                   /* parse, kb_parse, respond */
        CHECK(s.tokens > 0);
        CHECK_STR(s.reply.data, "Here are the two best rated.");
        CHECK_INT(s.responses, 1);
        CHECK_INT(genie_chat_save_turn(&ch, "what are the best places in Cupertino?", &o, &e), 0);
        CHECK(ch.sid > 0);
        ag_turn_out_release(&o);
    }
    CHECK_INT(th_mock_count(), 3);
    genie_chat_close(&ch);
    /* A new opening continues it. */
    REQUIRE(genie_chat_open(&ch, c, &hooks, &e) == 0 || (genie_chat_close(&ch), 0));
    int each = 0, turns = 0;
    CHECK_INT(genie_chat_resume(&ch, "latest", count_turn, &each, &turns, &e), 0);
    CHECK_INT(turns, 1);
    CHECK_INT(each, 1);
    CHECK_STR(ag_conv_last_reply(ch.cv), "Here are the two best rated.");
    genie_chat_close(&ch);
    CHECK_INT(th_sql_int(sessions, "SELECT count(*) FROM turns"), 1);
    gn_buf_release(&s.reply);
    gn_buf_release(&h.notes);
    cfg_free(c);
}

TEST(genie_chat_gives_the_apis_their_network_settings)
{
    const char *dir = th_tmpdir(), *db = sample_copy(dir);
    REQUIRE(db);
    char sessions[1100];
    snprintf(sessions, sizeof sessions, "%s/sessions.db", dir);
    const char *args[] = { "--agent", "restaurants", "--db", db, "--offline", "--sessions", sessions,
                           "--connect-timeout", "3.5", "--api-retries", "5",
                           "--api-retry-max-wait", "1.5", NULL };
    cfg_t *c = configure(dir, args);
    REQUIRE(c);
    genie_chat ch;
    gn_err e;
    gn_err_clear(&e);
    REQUIRE(genie_chat_open(&ch, c, NULL, &e) == 0 || (genie_chat_close(&ch), 0));
    for (int round = 0; round < 2; round++) {     /* and again after a reset */
        const ag_api_host *h = ag_conv_api_host(ch.cv);
        CHECK(h->http_connect_timeout == 3.5);
        CHECK_INT(h->http_retries, 5);
        CHECK(h->http_retry_max_wait == 1.5);
        genie_chat_reset(&ch);
    }
    genie_chat_close(&ch);
    cfg_free(c);
    /* The defaults: two retries, waits of at most 10 s, connecting for 10 s. */
    const char *plain[] = { "--agent", "restaurants", "--db", db, "--offline", "--sessions", sessions,
                            NULL };
    c = configure(dir, plain);
    REQUIRE(c);
    REQUIRE(genie_chat_open(&ch, c, NULL, &e) == 0 || (genie_chat_close(&ch), 0));
    const ag_api_host *h = ag_conv_api_host(ch.cv);
    CHECK(h->http_connect_timeout == 10);
    CHECK_INT(h->http_retries, 2);
    CHECK(h->http_retry_max_wait == 10);
    genie_chat_close(&ch);
    cfg_free(c);
}
