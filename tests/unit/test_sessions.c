/*
 * test_sessions.c — the sessions store: create and reopen, turns read back,
 * latest/list/info, the Markdown export, refusal of foreign, non-SQLite and
 * newer files (left byte for byte as they were), all-or-nothing turns (a
 * failing insert, a full disk, a process killed before COMMIT) and two
 * connections sharing the file.
 */
#include "harness.h"

#include "store/sessions.h"
#include "util/xmem.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tmp_path(const char *name)
{
    static char bufs[4][600];
    static int i;
    char *b = bufs[i++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", th_tmpdir(), name);
    return b;
}

static st_sessions *open_ok(const char *path)
{
    st_sessions *s = NULL;
    gn_err e;
    if (st_sessions_open(path, &s, &e)) {
        th_fail(__FILE__, __LINE__, "open %s: %s", path, e.msg);
        return NULL;
    }
    return s;
}

static st_turn turn_n(int n, const char *user)
{
    st_turn t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.user = user;
    t.response = "ok";
    return t;
}

static int add(st_sessions *s, long id, int n, const char *user)
{
    st_turn t = turn_n(n, user);
    gn_err e;
    int rc = st_session_add_turn(s, id, &t, &e);
    if (rc) th_fail(__FILE__, __LINE__, "add turn %d: %s", n, e.msg);
    return rc;
}

static int count_cb(const st_turn *t, void *ud)
{
    (void)t;
    ++*(int *)ud;
    return 0;
}

static int count_turns(st_sessions *s, long id)
{
    int n = 0;
    gn_err e;
    if (st_session_turns(s, id, count_cb, &n, &e)) return -1;
    return n;
}

/* The whole file as bytes (caller frees); *len its size. */
static char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = xmalloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

TEST(sessions_create_reopen)
{
    const char *path = tmp_path("a/b/sessions.db");
    st_sessions *s = open_ok(path);
    REQUIRE(s);
    long id = 0;
    gn_err e;
    CHECK_INT(st_session_new(s, "restaurants", &id, &e), 0);
    CHECK(id > 0);
    st_sessions_close(s);
    st_sessions_close(NULL);

    s = open_ok(path);
    REQUIRE(s);
    st_session_info info;
    CHECK_INT(st_session_info_get(s, id, &info, &e), 0);
    CHECK_STR(info.agent, "restaurants");
    CHECK_INT(info.turns, 0);
    CHECK_STR(info.first_user, "");
    CHECK(info.created > 1e9 && info.updated >= info.created);
    long id2 = 0;
    CHECK_INT(st_session_new(s, "courses", &id2, &e), 0);
    CHECK(id2 > id);
    CHECK_INT(st_session_new(s, NULL, &id2, &e), GN_EUSAGE);
    st_sessions_close(s);

    CHECK_INT(th_sql_int(path, "PRAGMA user_version"), 1);
    CHECK_INT(th_sql_int(path, "SELECT count(*) FROM sessions"), 2);
    sqlite3 *db;
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
    sqlite3_stmt *st;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

TEST(sessions_open_bad_dir)
{
    const char *file = tmp_path("plain");
    FILE *f = fopen(file, "w");
    REQUIRE(f);
    fclose(f);
    st_sessions *s = NULL;
    gn_err e;
    CHECK_INT(st_sessions_open(tmp_path("plain/sub/sessions.db"), &s, &e), GN_EIO);
    CHECK(s == NULL);
}

struct got { st_turn t[4]; char *str[4][7]; int n, stop_after; };

static int keep_cb(const st_turn *t, void *ud)
{
    struct got *g = ud;
    const char *src[7] = { t->user, t->parse, t->suql_json, t->acts_json, t->response,
                           t->state_json, t->error };
    if (g->n < 4) {
        g->t[g->n] = *t;
        for (int i = 0; i < 7; i++) g->str[g->n][i] = xstrdup(src[i]);
    }
    g->n++;
    return g->stop_after && g->n >= g->stop_after;
}

static void got_free(struct got *g)
{
    for (int i = 0; i < 4 && i < g->n; i++)
        for (int j = 0; j < 7; j++) free(g->str[i][j]);
}

TEST(sessions_turns_roundtrip)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    long id;
    gn_err e;
    REQUIRE(st_session_new(s, "restaurants", &id, &e) == 0);
    st_turn t = {
        .n = 1, .user = "cheap thai places?", .parse = "r = restaurants.filter(cuisine='thai')",
        .suql_json = "[{\"question\":\"q\",\"suql\":\"SELECT 1;\",\"error\":null,\"rows\":1}]",
        .acts_json = "[\"Report(r)\"]", .response = "Here are 3.", .state_json = "{\"a\":1}",
        .error = NULL, .tokens_in = 1200, .tokens_out = 80, .llm_calls = 2,
        .ms_total = 1534.5, .ms_llm = 1200.25, .started = 1700000000.5,
    };
    CHECK_INT(st_session_add_turn(s, id, &t, &e), 0);
    st_turn t2 = turn_n(2, NULL);
    t2.response = NULL;
    t2.error = "LLM timed out";
    CHECK_INT(st_session_add_turn(s, id, &t2, &e), 0);

    struct got g = { .n = 0 };
    CHECK_INT(st_session_turns(s, id, keep_cb, &g, &e), 0);
    REQUIRE(g.n == 2);
    CHECK_INT(g.t[0].n, 1);
    CHECK_STR(g.str[0][0], "cheap thai places?");
    CHECK_STR(g.str[0][1], t.parse);
    CHECK_STR(g.str[0][2], t.suql_json);
    CHECK_STR(g.str[0][3], "[\"Report(r)\"]");
    CHECK_STR(g.str[0][4], "Here are 3.");
    CHECK_STR(g.str[0][5], "{\"a\":1}");
    CHECK(g.str[0][6] == NULL);
    CHECK_INT(g.t[0].tokens_in, 1200);
    CHECK_INT(g.t[0].tokens_out, 80);
    CHECK_INT(g.t[0].llm_calls, 2);
    CHECK(g.t[0].ms_total == 1534.5 && g.t[0].ms_llm == 1200.25);
    CHECK(g.t[0].started == 1700000000.5);
    CHECK_INT(g.t[1].n, 2);
    CHECK(g.str[1][0] == NULL && g.str[1][4] == NULL);
    CHECK_STR(g.str[1][6], "LLM timed out");
    got_free(&g);

    struct got g1 = { .stop_after = 1 };
    CHECK_INT(st_session_turns(s, id, keep_cb, &g1, &e), 0);
    CHECK_INT(g1.n, 1);
    got_free(&g1);

    st_session_info info;
    REQUIRE(st_session_info_get(s, id, &info, &e) == 0);
    CHECK_INT(info.turns, 2);
    CHECK_STR(info.first_user, "cheap thai places?");
    CHECK(info.updated >= info.created);
    st_sessions_close(s);
}

TEST(sessions_latest)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long a1, b1, a2, got = 0;
    CHECK_INT(st_session_latest(s, NULL, &got, &e), GN_ENOTFOUND);
    REQUIRE(st_session_new(s, "A", &a1, &e) == 0);
    REQUIRE(st_session_new(s, "B", &b1, &e) == 0);
    REQUIRE(st_session_new(s, "A", &a2, &e) == 0);
    CHECK_INT(st_session_latest(s, "A", &got, &e), 0);
    CHECK_INT(got, a2);
    CHECK_INT(st_session_latest(s, NULL, &got, &e), 0);
    CHECK_INT(got, a2);
    add(s, a1, 1, "hi");                 /* a1 becomes the most recently used */
    CHECK_INT(st_session_latest(s, "A", &got, &e), 0);
    CHECK_INT(got, a1);
    CHECK_INT(st_session_latest(s, "B", &got, &e), 0);
    CHECK_INT(got, b1);
    CHECK_INT(st_session_latest(s, "C", &got, &e), GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "'C'");
    st_sessions_close(s);
}

struct ids { long id[8]; int n, stop; };

static int ids_cb(const st_session_info *info, void *ud)
{
    struct ids *x = ud;
    if (x->n < 8) x->id[x->n] = info->id;
    x->n++;
    return x->stop && x->n >= x->stop;
}

TEST(sessions_list_order)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long s1, s2, s3;
    REQUIRE(st_session_new(s, "A", &s1, &e) == 0);
    REQUIRE(st_session_new(s, "B", &s2, &e) == 0);
    REQUIRE(st_session_new(s, "A", &s3, &e) == 0);
    add(s, s1, 1, "first");

    struct ids all = { .n = 0 };
    CHECK_INT(st_session_list(s, NULL, ids_cb, &all, &e), 0);
    REQUIRE(all.n == 3);
    CHECK_INT(all.id[0], s1);
    CHECK_INT(all.id[1], s3);
    CHECK_INT(all.id[2], s2);

    struct ids a = { .n = 0 };
    CHECK_INT(st_session_list(s, "A", ids_cb, &a, &e), 0);
    REQUIRE(a.n == 2);
    CHECK_INT(a.id[0], s1);
    CHECK_INT(a.id[1], s3);

    struct ids one = { .stop = 1 };
    CHECK_INT(st_session_list(s, NULL, ids_cb, &one, &e), 0);
    CHECK_INT(one.n, 1);

    struct ids none = { .n = 0 };
    CHECK_INT(st_session_list(s, "nobody", ids_cb, &none, &e), 0);
    CHECK_INT(none.n, 0);
    st_sessions_close(s);
}

/* Every byte sequence in S is a whole UTF-8 code point. */
static int utf8_whole(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int k = *p < 0x80 ? 0 : *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : -1;
        if (k < 0) return 0;
        p++;
        while (k--)
            if ((*p++ & 0xc0) != 0x80) return 0;
    }
    return 1;
}

TEST(sessions_info)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long id, id2;
    REQUIRE(st_session_new(s, "A", &id, &e) == 0);
    REQUIRE(st_session_new(s, "A", &id2, &e) == 0);
    /* 300 bytes of two-byte code points, one ASCII byte first so that the
     * cut falls inside a code point whatever the limit's parity. */
    gn_buf long_user;
    gn_buf_init(&long_user);
    gn_buf_putc(&long_user, 'x');
    for (int i = 0; i < 150; i++) gn_buf_puts(&long_user, "\xc3\xa9");
    add(s, id, 1, long_user.data);
    add(s, id, 2, "second");
    add(s, id2, 1, "line one\nline two");

    st_session_info info;
    REQUIRE(st_session_info_get(s, id, &info, &e) == 0);
    CHECK_INT(info.id, id);
    CHECK_INT(info.turns, 2);
    size_t len = strlen(info.first_user);
    CHECK(len < sizeof info.first_user && len > sizeof info.first_user - 8);
    CHECK(len >= 3 && !strcmp(info.first_user + len - 3, "\xe2\x80\xa6"));
    CHECK(utf8_whole(info.first_user));
    CHECK(!strncmp(info.first_user, long_user.data, len - 3));
    gn_buf_release(&long_user);

    REQUIRE(st_session_info_get(s, id2, &info, &e) == 0);
    CHECK_STR(info.first_user, "line one line two");

    CHECK_INT(st_session_info_get(s, 999, &info, &e), GN_ENOTFOUND);
    int n = 0;
    CHECK_INT(st_session_turns(s, 999, count_cb, &n, &e), GN_ENOTFOUND);
    CHECK_INT(n, 0);
    st_sessions_close(s);
}

TEST(sessions_export_md)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long id;
    REQUIRE(st_session_new(s, "restaurants", &id, &e) == 0);
    st_turn t = {
        .n = 1, .user = "cheap *thai* places?",
        .parse = "r = restaurants.filter(cuisine == 'thai')\nreport(r)",
        .suql_json = "[{\"question\":\"thai places\",\"suql\":\"SELECT * FROM restaurants "
                     "WHERE cuisine = 'thai';\",\"error\":null,\"rows\":3},"
                     "{\"question\":\"bad\",\"suql\":\"SELEC x;\",\"error\":\"syntax error\","
                     "\"rows\":0}]",
        .acts_json = "[\"Report(r)\", \"AskField(price)\"]",
        .response = "I found 3 places.",
    };
    REQUIRE(st_session_add_turn(s, id, &t, &e) == 0);
    st_turn t2 = turn_n(2, "thanks");
    t2.response = "You're welcome.";
    t2.acts_json = "[]";
    REQUIRE(st_session_add_turn(s, id, &t2, &e) == 0);

    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "KEEP");
    CHECK_INT(st_session_export_md(s, id, &b, &e), 0);
    char title[64];
    snprintf(title, sizeof title, "KEEP# Session %ld \xe2\x80\x94 restaurants\n", id);
    CHECK(!strncmp(b.data, title, strlen(title)));
    CHECK_CONTAINS(b.data, "Started 20");
    CHECK_CONTAINS(b.data, "Z, 2 turns.");
    CHECK_CONTAINS(b.data, "**You:** cheap \\*thai\\* places?\n");
    CHECK_CONTAINS(b.data, "**Agent:** I found 3 places.\n");
    CHECK_CONTAINS(b.data, "```python\nr = restaurants.filter(cuisine == 'thai')\nreport(r)\n```\n");
    CHECK_CONTAINS(b.data, "```sql\n-- thai places\nSELECT * FROM restaurants WHERE cuisine = "
                   "'thai';\n```\n\n(3 rows)\n");
    CHECK_CONTAINS(b.data, "```sql\n-- bad\nSELEC x;\n```\n\nError: syntax error\n");
    CHECK_CONTAINS(b.data, "- `Report(r)`\n- `AskField(price)`\n");
    CHECK_CONTAINS(b.data, "**You:** thanks\n\n**Agent:** You're welcome.\n");
    /* Turn 2 has nothing to detail: one details block in all. */
    const char *d = strstr(b.data, "<details>");
    CHECK(d && !strstr(d + 1, "<details>"));
    CHECK(!strstr(b.data, "(0 rows)"));
    gn_buf_release(&b);

    gn_buf_init(&b);
    CHECK_INT(st_session_export_md(s, 999, &b, &e), GN_ENOTFOUND);
    CHECK_INT(b.len, 0);
    gn_buf_release(&b);
    st_sessions_close(s);
}

TEST(sessions_export_fences)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long id;
    REQUIRE(st_session_new(s, "a`b", &id, &e) == 0);
    st_turn t = {
        .n = 1, .user = "# not a title\n- not a list\n1. nor this",
        .parse = "x = '```'\n```\n# still code",
        .suql_json = "not json at all",
        .acts_json = "[\"Say(`x`)\", 7]",
        .response = "<b>hi</b> [link](x)",
    };
    REQUIRE(st_session_add_turn(s, id, &t, &e) == 0);
    gn_buf b;
    gn_buf_init(&b);
    REQUIRE(st_session_export_md(s, id, &b, &e) == 0);
    CHECK_CONTAINS(b.data, "\xe2\x80\x94 a\\`b\n");
    CHECK_CONTAINS(b.data, "**You:** \\# not a title  \n\\- not a list  \n1\\. nor this\n");
    CHECK_CONTAINS(b.data, "**Agent:** \\<b\\>hi\\</b\\> \\[link\\](x)\n");
    /* Content with ``` gets a four-backtick fence, content verbatim. */
    CHECK_CONTAINS(b.data, "````python\nx = '```'\n```\n# still code\n````\n");
    CHECK_CONTAINS(b.data, "```json\nnot json at all\n```\n");
    CHECK_CONTAINS(b.data, "- ``Say(`x`)``\n- `7`\n");
    gn_buf_release(&b);
    st_sessions_close(s);
}

TEST(sessions_refuse_foreign)
{
    const char *path = tmp_path("other.db");
    REQUIRE(th_sql_exec(path, "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('keep');") == 0);
    size_t n0, n1;
    char *before = read_bytes(path, &n0);
    REQUIRE(before);
    st_sessions *s = NULL;
    gn_err e;
    CHECK_INT(st_sessions_open(path, &s, &e), GN_ECORRUPT);
    CHECK(s == NULL);
    CHECK_CONTAINS(e.msg, "not a sessions database");
    char *after = read_bytes(path, &n1);
    REQUIRE(after);
    CHECK(n0 == n1 && !memcmp(before, after, n0));
    CHECK(access(tmp_path("other.db-wal"), F_OK) != 0);
    free(before);
    free(after);

    /* Our table names are not enough without our version. */
    const char *p2 = tmp_path("lookalike.db");
    REQUIRE(th_sql_exec(p2, "CREATE TABLE sessions(id INTEGER PRIMARY KEY);"
                            "CREATE TABLE turns(x);") == 0);
    CHECK_INT(st_sessions_open(p2, &s, &e), GN_ECORRUPT);
}

TEST(sessions_refuse_not_sqlite)
{
    const char *path = tmp_path("notes.txt");
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fputs("these are my notes, not a database\n", f);
    fclose(f);
    st_sessions *s = NULL;
    gn_err e;
    CHECK_INT(st_sessions_open(path, &s, &e), GN_ECORRUPT);
    CHECK(s == NULL);
    CHECK_CONTAINS(e.msg, "not a sessions database");
    char *after = th_read(path);
    CHECK_STR(after, "these are my notes, not a database\n");
    free(after);

    /* Longer than one page, to be past SQLite's header checks. */
    const char *p2 = tmp_path("big.bin");
    f = fopen(p2, "w");
    REQUIRE(f);
    for (int i = 0; i < 10000; i++) fputc('A' + i % 26, f);
    fclose(f);
    CHECK_INT(st_sessions_open(p2, &s, &e), GN_ECORRUPT);
}

TEST(sessions_refuse_newer)
{
    const char *path = tmp_path("s.db");
    st_sessions *s = open_ok(path);
    REQUIRE(s);
    long id;
    gn_err e;
    REQUIRE(st_session_new(s, "A", &id, &e) == 0);
    st_sessions_close(s);
    REQUIRE(th_sql_exec(path, "PRAGMA user_version = 2") == 0);
    size_t n0, n1;
    char *before = read_bytes(path, &n0);
    REQUIRE(before);
    s = NULL;
    CHECK_INT(st_sessions_open(path, &s, &e), GN_ECORRUPT);
    CHECK(s == NULL);
    CHECK_CONTAINS(e.msg, "newer");
    char *after = read_bytes(path, &n1);
    REQUIRE(after);
    CHECK(n0 == n1 && !memcmp(before, after, n0));
    free(before);
    free(after);
    CHECK_INT(th_sql_int(path, "PRAGMA user_version"), 2);
}

TEST(sessions_failed_turn_leaves_nothing)
{
    st_sessions *s = open_ok(tmp_path("s.db"));
    REQUIRE(s);
    gn_err e;
    long id;
    REQUIRE(st_session_new(s, "A", &id, &e) == 0);
    add(s, id, 1, "one");
    st_session_info before, after;
    REQUIRE(st_session_info_get(s, id, &before, &e) == 0);

    st_turn dup = turn_n(1, "again");
    /* A turn number already there: another genie continued the
     * conversation (GN_ESTALE, the caller forks; sessions.h). */
    CHECK_INT(st_session_add_turn(s, id, &dup, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "was saved by another genie");
    REQUIRE(st_session_info_get(s, id, &after, &e) == 0);
    CHECK_INT(after.turns, 1);
    CHECK(after.updated == before.updated);
    CHECK_INT(count_turns(s, id), 1);

    st_turn t = turn_n(1, "nobody");
    CHECK_INT(st_session_add_turn(s, 12345, &t, &e), GN_ENOTFOUND);

    /* The connection is usable afterwards (no transaction left open). */
    add(s, id, 2, "two");
    CHECK_INT(count_turns(s, id), 2);
    st_sessions_close(s);
}

/* Test-only: an automatic extension caps every new connection's database
 * size, so a big turn hits SQLITE_FULL as on a full disk. */
static int page_cap;

static int cap_pages(sqlite3 *db, const char **err, const void *api)
{
    (void)err;
    (void)api;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %d", page_cap);
    if (page_cap) sqlite3_exec(db, sql, NULL, NULL, NULL);
    return SQLITE_OK;
}

TEST(sessions_disk_full)
{
    const char *path = tmp_path("s.db");
    st_sessions *s = open_ok(path);
    REQUIRE(s);
    gn_err e;
    long id;
    REQUIRE(st_session_new(s, "A", &id, &e) == 0);
    add(s, id, 1, "one");
    st_sessions_close(s);

    page_cap = (int)th_sql_int(path, "PRAGMA page_count") + 2;
    REQUIRE(sqlite3_auto_extension((void (*)(void))cap_pages) == SQLITE_OK);
    s = open_ok(path);
    if (s) {
        char *big = xmalloc(200000);
        memset(big, 'x', 199999);
        big[199999] = 0;
        st_turn t = turn_n(2, big);
        CHECK_INT(st_session_add_turn(s, id, &t, &e), GN_EIO);
        CHECK_STR(e.msg, "saving turn 2 of session 1: the disk is full");
        free(big);
        CHECK_INT(count_turns(s, id), 1);
        add(s, id, 2, "small");       /* fits: the failed one left nothing */
        st_sessions_close(s);
    }
    sqlite3_cancel_auto_extension((void (*)(void))cap_pages);
    page_cap = 0;
    CHECK_INT(th_sql_int(path, "SELECT turns FROM sessions"), 2);
}

TEST(sessions_two_connections)
{
    const char *path = tmp_path("s.db");
    st_sessions *a = open_ok(path), *b = open_ok(path);
    REQUIRE(a && b);
    gn_err e;
    long ida, idb;
    REQUIRE(st_session_new(a, "A", &ida, &e) == 0);
    REQUIRE(st_session_new(b, "B", &idb, &e) == 0);
    CHECK(ida != idb);
    for (int n = 1; n <= 6; n++) {
        st_sessions *w = n % 2 ? a : b;
        REQUIRE(add(w, ida, n, "shared") == 0);
        REQUIRE(add(w == a ? b : a, idb, n, "other") == 0);
    }
    CHECK_INT(count_turns(a, ida), 6);
    CHECK_INT(count_turns(b, ida), 6);
    CHECK_INT(count_turns(a, idb), 6);
    st_session_info info;
    REQUIRE(st_session_info_get(b, ida, &info, &e) == 0);
    CHECK_INT(info.turns, 6);
    long latest;
    REQUIRE(st_session_latest(a, NULL, &latest, &e) == 0);
    CHECK_INT(latest, idb);
    st_sessions_close(a);
    st_sessions_close(b);
}

/* The child: two turns through the store, then a third written by hand in
 * a transaction big enough to spill pages into the WAL, and an exit before
 * COMMIT.  Exit status 0 means it got that far. */
static void crash_child(const char *path)
{
    st_sessions *s = NULL;
    gn_err e;
    long id;
    if (st_sessions_open(path, &s, &e) || st_session_new(s, "A", &id, &e)) _exit(2);
    for (int n = 1; n <= 2; n++) {
        st_turn t = turn_n(n, "turn");
        if (st_session_add_turn(s, id, &t, &e)) _exit(3);
    }
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA cache_size = 10; BEGIN IMMEDIATE;"
                         "INSERT INTO turns(session, n, user) VALUES (1, 3, zeroblob(2000000));"
                         "UPDATE sessions SET turns = 3;", NULL, NULL, NULL) != SQLITE_OK)
        _exit(4);
    _exit(0);
}

TEST(sessions_crash_before_commit)
{
    const char *path = tmp_path("s.db");
    fflush(stdout);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) crash_child(path);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK_INT(WEXITSTATUS(status), 0);

    st_sessions *s = open_ok(path);
    REQUIRE(s);
    gn_err e;
    st_session_info info;
    REQUIRE(st_session_info_get(s, 1, &info, &e) == 0);
    CHECK_INT(info.turns, 2);
    CHECK_INT(count_turns(s, 1), 2);
    add(s, 1, 3, "after the crash");
    CHECK_INT(count_turns(s, 1), 3);
    st_sessions_close(s);
}

/* A session's name, set, shown, taken away; a deletion takes its turns
 * with it and leaves the others; a file of schema 1 made before titles
 * gains the column when opened for writing. */
TEST(sessions_rename_delete)
{
    const char *path = tmp_path("names.db");
    st_sessions *s = open_ok(path);
    REQUIRE(s);
    gn_err e;
    long a, b;
    REQUIRE(st_session_new(s, "A", &a, &e) == 0);
    REQUIRE(st_session_new(s, "A", &b, &e) == 0);
    add(s, a, 1, "first words");
    add(s, b, 1, "other");
    st_session_info info;
    REQUIRE(st_session_rename(s, a, "Dinner on Friday", &e) == 0);
    REQUIRE(st_session_info_get(s, a, &info, &e) == 0);
    CHECK_STR(info.title, "Dinner on Friday");
    CHECK_STR(info.first_user, "first words");
    REQUIRE(st_session_rename(s, a, "   ", &e) == 0);     /* blank: no name */
    REQUIRE(st_session_info_get(s, a, &info, &e) == 0);
    CHECK_STR(info.title, "");
    CHECK_INT(st_session_rename(s, 999, "x", &e), GN_ENOTFOUND);
    REQUIRE(st_session_delete(s, b, &e) == 0);
    CHECK_INT(st_session_info_get(s, b, &info, &e), GN_ENOTFOUND);
    CHECK_INT(count_turns(s, a), 1);
    CHECK_INT(st_session_delete(s, b, &e), GN_ENOTFOUND);
    st_sessions_close(s);

    /* Schema 1 as genie wrote it before titles. */
    const char *old = tmp_path("old.db");
    sqlite3 *db;
    REQUIRE(sqlite3_open(old, &db) == SQLITE_OK);
    CHECK_INT(sqlite3_exec(db,
        "CREATE TABLE sessions(id INTEGER PRIMARY KEY, agent TEXT NOT NULL, created REAL NOT NULL,"
        " updated REAL NOT NULL, turns INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE turns(session INTEGER NOT NULL REFERENCES sessions(id), n INTEGER NOT NULL,"
        " user TEXT, parse TEXT, suql TEXT, acts TEXT, response TEXT, state TEXT, error TEXT,"
        " tokens_in INTEGER, tokens_out INTEGER, llm_calls INTEGER, ms_total REAL, ms_llm REAL,"
        " started REAL, cache_hits INTEGER, cost REAL, PRIMARY KEY(session, n));"
        "INSERT INTO sessions VALUES(1, 'A', 1, 1, 0); PRAGMA user_version = 1;",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_ok(old);
    REQUIRE(s);
    REQUIRE(st_session_rename(s, 1, "kept", &e) == 0);
    REQUIRE(st_session_info_get(s, 1, &info, &e) == 0);
    CHECK_STR(info.title, "kept");
    st_sessions_close(s);
}
