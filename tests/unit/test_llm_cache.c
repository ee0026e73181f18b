/*
 * test_llm_cache.c — the LLM response cache: round trips (UTF-8, empty
 * fields, an embedded NUL, usage present or not, which model comes back),
 * miss, overwrite, persistence across reopen, two handles on one file,
 * concurrent writers (threads on one handle, threads with a handle each,
 * two processes), files that are not ours (not SQLite, someone else's
 * database, wrong columns, a newer schema) refused without being touched,
 * directories that cannot be created, and pruning to the newest N.
 */
#include "harness.h"
#include "llm/cache.h"
#include "util/xmem.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* PATH under this test's scratch directory (static buffer rotation). */
static const char *tmp(const char *name)
{
    static char bufs[4][600];
    static int i;
    char *b = bufs[i++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", th_tmpdir(), name);
    return b;
}

/* A one-choice result; NULL strings stay unset. */
static void mk(llm_result *r, const char *content, const char *reasoning,
               const char *finish, const char *model)
{
    llm_result_init(r);
    r->choices = xcalloc(1, sizeof *r->choices);
    r->nchoices = 1;
    llm_choice *ch = &r->choices[0];
    gn_buf_init(&ch->content);
    gn_buf_init(&ch->reasoning);
    gn_buf_init(&ch->refusal);
    if (content) gn_buf_puts(&ch->content, content);
    if (reasoning) gn_buf_puts(&ch->reasoning, reasoning);
    ch->finish_reason = xstrdup(finish);
    r->model = xstrdup(model);
}

static void set_usage(llm_result *r, long p, long c, long t, long rt)
{
    r->usage.present = 1;
    r->usage.prompt_tokens = p;
    r->usage.completion_tokens = c;
    r->usage.total_tokens = t;
    r->usage.reasoning_tokens = rt;
}

static int put_text(llm_cache *c, const char *key, const char *content, gn_err *e)
{
    llm_result r;
    mk(&r, content, NULL, "stop", NULL);
    int rc = llm_cache_put(c, key, "test", "m", &r, e);
    llm_result_release(&r);
    return rc;
}

/* The content stored under KEY, or "(miss)" / "(error ...)"; a buffer per
 * thread, valid until the next call. */
static const char *get_text(llm_cache *c, const char *key)
{
    static _Thread_local char buf[256];
    llm_result r;
    gn_err e;
    int rc = llm_cache_get(c, key, &r, &e);
    if (rc == 1) snprintf(buf, sizeof buf, "%s", r.choices[0].content.data);
    else snprintf(buf, sizeof buf, rc == 0 ? "(miss)" : "(error %s)", e.msg);
    llm_result_release(&r);
    return buf;
}

static long rows_of(llm_cache *c)
{
    long n = -1;
    gn_err e;
    if (llm_cache_stats(c, &n, &e)) return -1;
    return n;
}

TEST(llm_cache_round_trip)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    const char *utf8 = "Grüße — 日本語 🎉 \"quoted\" 'single' \\ back";
    llm_result r, got;
    mk(&r, utf8, "first I think… then 答え", "stop", "server-model");
    set_usage(&r, 11, 22, 33, 4);
    CHECK_INT(llm_cache_put(c, "k1", "answer", "asked-model", &r, &e), 0);
    llm_result_release(&r);

    REQUIRE(llm_cache_get(c, "k1", &got, &e) == 1);
    REQUIRE(got.nchoices == 1);
    CHECK_STR(got.choices[0].content.data, utf8);
    CHECK_INT(got.choices[0].content.len, strlen(utf8));
    CHECK_STR(got.choices[0].reasoning.data, "first I think… then 答え");
    CHECK_STR(got.choices[0].refusal.data, "");
    CHECK_STR(got.choices[0].finish_reason, "stop");
    CHECK_INT(got.choices[0].ntools, 0);
    CHECK_INT(got.usage.present, 1);
    CHECK_INT(got.usage.prompt_tokens, 11);
    CHECK_INT(got.usage.completion_tokens, 22);
    CHECK_INT(got.usage.total_tokens, 33);
    CHECK_INT(got.usage.reasoning_tokens, 4);
    CHECK_STR(got.model, "server-model");
    CHECK(got.id == NULL);
    llm_result_release(&got);

    /* No model from the server: the one asked for comes back. */
    mk(&r, "x", NULL, "stop", NULL);
    CHECK_INT(llm_cache_put(c, "k2", NULL, "asked-model", &r, &e), 0);
    llm_result_release(&r);
    REQUIRE(llm_cache_get(c, "k2", &got, &e) == 1);
    CHECK_STR(got.model, "asked-model");
    llm_result_release(&got);
    llm_cache_close(c);
}

TEST(llm_cache_empty_and_missing_fields)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    llm_result r, got;
    mk(&r, NULL, NULL, NULL, NULL);   /* empty content, no reasoning, no usage */
    CHECK_INT(llm_cache_put(c, "empty", NULL, NULL, &r, &e), 0);
    llm_result_release(&r);
    REQUIRE(llm_cache_get(c, "empty", &got, &e) == 1);
    REQUIRE(got.nchoices == 1);
    CHECK_STR(got.choices[0].content.data, "");
    CHECK_INT(got.choices[0].content.len, 0);
    CHECK_STR(got.choices[0].reasoning.data, "");
    CHECK(got.choices[0].finish_reason == NULL);
    CHECK_INT(got.usage.present, 0);
    CHECK(got.model == NULL);
    llm_result_release(&got);

    /* The length is kept, so even an embedded NUL survives. */
    mk(&r, NULL, NULL, "length", NULL);
    gn_buf_add(&r.choices[0].content, "a\0b", 3);
    CHECK_INT(llm_cache_put(c, "nul", NULL, NULL, &r, &e), 0);
    llm_result_release(&r);
    REQUIRE(llm_cache_get(c, "nul", &got, &e) == 1);
    CHECK_INT(got.choices[0].content.len, 3);
    CHECK(memcmp(got.choices[0].content.data, "a\0b", 4) == 0);
    CHECK_STR(got.choices[0].finish_reason, "length");
    llm_result_release(&got);
    llm_cache_close(c);
}

TEST(llm_cache_miss_and_bad_arguments)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    llm_result got;
    CHECK_INT(llm_cache_get(c, "nope", &got, &e), 0);
    CHECK_INT(got.nchoices, 0);
    CHECK(got.choices == NULL && got.model == NULL);
    llm_result_release(&got);

    CHECK_INT(llm_cache_get(c, "", &got, &e), -GN_EUSAGE);
    CHECK_INT(e.code, GN_EUSAGE);
    CHECK_INT(got.nchoices, 0);
    llm_result_release(&got);

    llm_result r;
    llm_result_init(&r);   /* no choices */
    CHECK_INT(llm_cache_put(c, "k", NULL, NULL, &r, &e), GN_EUSAGE);
    mk(&r, "calling", NULL, "tool_calls", NULL);
    r.choices[0].tools = xcalloc(1, sizeof *r.choices[0].tools);
    r.choices[0].ntools = 1;
    gn_buf_init(&r.choices[0].tools[0].name);
    gn_buf_init(&r.choices[0].tools[0].arguments);
    CHECK_INT(llm_cache_put(c, "k", NULL, NULL, &r, &e), GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "tool calls");
    CHECK_INT(llm_cache_put(c, NULL, NULL, NULL, &r, &e), GN_EUSAGE);
    llm_result_release(&r);
    CHECK_INT(rows_of(c), 0);
    CHECK_INT(llm_cache_prune(c, -1, &e), GN_EUSAGE);
    llm_cache_close(c);
    llm_cache_close(NULL);

    CHECK_INT(llm_cache_open("", &c, &e), GN_EUSAGE);
    CHECK(c == NULL);
}

TEST(llm_cache_overwrite)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    CHECK_INT(put_text(c, "k", "old", &e), 0);
    CHECK_INT(put_text(c, "k", "new", &e), 0);
    CHECK_STR(get_text(c, "k"), "new");
    CHECK_INT(rows_of(c), 1);
    llm_cache_close(c);
}

TEST(llm_cache_forget)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("f.db"), &c, &e) == 0);
    CHECK_INT(put_text(c, "k", "refused reply", &e), 0);
    CHECK_INT(put_text(c, "other", "kept", &e), 0);
    CHECK_INT(llm_cache_forget(c, "k", &e), 0);
    llm_result r;
    CHECK_INT(llm_cache_get(c, "k", &r, &e), 0);          /* a miss now */
    llm_result_release(&r);
    CHECK_STR(get_text(c, "other"), "kept");
    CHECK_INT(llm_cache_forget(c, "absent", &e), 0);
    CHECK_INT(llm_cache_forget(c, "", &e), 0);
    CHECK_INT(rows_of(c), 1);
    llm_cache_close(c);
}

TEST(llm_cache_reopen_persists_wal_and_version)
{
    const char *path = tmp("c.db");
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(path, &c, &e) == 0);
    CHECK_INT(put_text(c, "k", "kept", &e), 0);
    llm_cache_close(c);
    REQUIRE(llm_cache_open(path, &c, &e) == 0);
    CHECK_STR(get_text(c, "k"), "kept");
    CHECK_INT(rows_of(c), 1);
    llm_cache_close(c);

    sqlite3 *db;
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
    sqlite3_stmt *st;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK_INT(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

TEST(llm_cache_two_handles_one_file)
{
    const char *path = tmp("c.db");
    llm_cache *a, *b;
    gn_err e;
    REQUIRE(llm_cache_open(path, &a, &e) == 0);
    REQUIRE(llm_cache_open(path, &b, &e) == 0);
    CHECK_STR(get_text(b, "k"), "(miss)");
    CHECK_INT(put_text(a, "k", "from a", &e), 0);
    CHECK_STR(get_text(b, "k"), "from a");
    CHECK_INT(put_text(b, "k", "from b", &e), 0);
    CHECK_STR(get_text(a, "k"), "from b");
    CHECK_INT(put_text(b, "k2", "two", &e), 0);
    CHECK_INT(rows_of(a), 2);
    CHECK_INT(llm_cache_prune(a, 1, &e), 0);
    CHECK_INT(rows_of(b), 1);
    CHECK_STR(get_text(b, "k2"), "two");
    llm_cache_close(a);
    llm_cache_close(b);
}

/* ---- concurrency -------------------------------------------------------- */

#define NTHREADS 4
#define NPUTS 200

typedef struct {
    llm_cache *shared;     /* NULL: open a handle of its own on path */
    const char *path;
    int id, errors;
    char msg[800];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    gn_err e;
    llm_cache *c = w->shared;
    if (!c && llm_cache_open(w->path, &c, &e)) {
        w->errors++;
        snprintf(w->msg, sizeof w->msg, "%s", e.msg);
        return NULL;
    }
    for (int i = 0; i < NPUTS; i++) {
        char key[64], text[64];
        snprintf(key, sizeof key, "t%d-%d", w->id, i);
        snprintf(text, sizeof text, "value %d of %d", i, w->id);
        if (put_text(c, key, text, &e)) {
            w->errors++;
            snprintf(w->msg, sizeof w->msg, "%s", e.msg);
        }
        /* Read back now and then, from this handle. */
        if (i % 20 == 0 && strcmp(get_text(c, key), text)) w->errors++;
    }
    if (!w->shared) llm_cache_close(c);
    return NULL;
}

static void run_workers(llm_cache *shared, const char *path)
{
    pthread_t th[NTHREADS];
    worker w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].shared = shared;
        w[i].path = path;
        w[i].id = i;
        REQUIRE(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    }
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK_INT(w[i].errors, 0);
        if (w[i].errors) printf("  worker %d: %s\n", i, w[i].msg);
    }
}

TEST(llm_cache_threads_share_a_handle)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    run_workers(c, NULL);
    CHECK_INT(rows_of(c), NTHREADS * NPUTS);
    CHECK_STR(get_text(c, "t3-199"), "value 199 of 3");
    llm_cache_close(c);
}

TEST(llm_cache_threads_with_own_handles)
{
    /* The file does not exist yet: the four opens race to create it. */
    const char *path = tmp("sub/c.db");
    run_workers(NULL, path);
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(path, &c, &e) == 0);
    CHECK_INT(rows_of(c), NTHREADS * NPUTS);
    CHECK_STR(get_text(c, "t0-0"), "value 0 of 0");
    llm_cache_close(c);
}

TEST(llm_cache_two_processes)
{
    const char *path = tmp("c.db");
    fflush(stdout);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    worker w;
    memset(&w, 0, sizeof w);
    w.path = path;
    w.id = pid == 0 ? 1 : 0;
    work(&w);
    if (pid == 0) {
        if (w.errors) printf("  child: %s\n", w.msg);
        fflush(stdout);
        _exit(w.errors ? 1 : 0);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_INT(w.errors, 0);
    if (w.errors) printf("  parent: %s\n", w.msg);
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(path, &c, &e) == 0);
    CHECK_INT(rows_of(c), 2 * NPUTS);
    CHECK_STR(get_text(c, "t1-7"), "value 7 of 1");
    llm_cache_close(c);
}

/* ---- files that are not ours -------------------------------------------- */

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = xmalloc(1 << 16);
    *n = fread(s, 1, 1 << 16, f);
    fclose(f);
    return s;
}

TEST(llm_cache_not_a_database)
{
    const char *path = tmp("notes.txt");
    const char text[] = "These are my notes, not a SQLite database.\n"
        "Long enough to have a header's worth of bytes: "
        "0123456789012345678901234567890123456789012345678901234567890123456789\n";
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fputs(text, f);
    fclose(f);
    llm_cache *c = (llm_cache *)1;
    gn_err e;
    CHECK_INT(llm_cache_open(path, &c, &e), GN_ECORRUPT);
    CHECK(c == NULL);
    CHECK_CONTAINS(e.msg, path);
    size_t n = 0;
    char *s = slurp(path, &n);
    REQUIRE(s);
    CHECK_INT(n, strlen(text));
    CHECK(memcmp(s, text, n) == 0);
    free(s);
}

TEST(llm_cache_someone_elses_database)
{
    const char *path = tmp("people.db");
    REQUIRE(th_sql_exec(path, "CREATE TABLE people (name TEXT); "
                              "INSERT INTO people VALUES ('ada')") == SQLITE_OK);
    llm_cache *c;
    gn_err e;
    CHECK_INT(llm_cache_open(path, &c, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, path);
    CHECK_CONTAINS(e.msg, "not a genie response cache");
    CHECK_INT(th_sql_int(path, "SELECT count(*) FROM people"), 1);
    CHECK_INT(th_sql_int(path, "SELECT count(*) FROM sqlite_master"), 1);
    /* Journal mode untouched: 0 is not WAL in the header's version bytes. */
    CHECK_INT(th_sql_int(path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 0);
}

TEST(llm_cache_wrong_columns_or_newer_schema)
{
    const char *p1 = tmp("cols.db"), *p2 = tmp("newer.db"), *p3 = tmp("notable.db");
    REQUIRE(th_sql_exec(p1, "CREATE TABLE responses (key TEXT PRIMARY KEY, blob BLOB); "
                            "PRAGMA user_version = 1") == SQLITE_OK);
    REQUIRE(th_sql_exec(p2, "CREATE TABLE responses (key TEXT PRIMARY KEY, v2 TEXT); "
                            "PRAGMA user_version = 7") == SQLITE_OK);
    REQUIRE(th_sql_exec(p3, "CREATE TABLE other (x); PRAGMA user_version = 1") == SQLITE_OK);
    llm_cache *c;
    gn_err e;
    CHECK_INT(llm_cache_open(p1, &c, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, p1);
    CHECK_CONTAINS(e.msg, "columns");
    CHECK_INT(llm_cache_open(p2, &c, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, p2);
    CHECK_CONTAINS(e.msg, "newer");
    CHECK_INT(llm_cache_open(p3, &c, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, p3);
    CHECK_INT(th_sql_int(p1, "SELECT count(*) FROM sqlite_master"), 2);   /* + autoindex */
}

TEST(llm_cache_directories)
{
    llm_cache *c;
    gn_err e;
    /* Missing parents are created, mode 0700. */
    const char *path = tmp("a/b/c.db");
    REQUIRE(llm_cache_open(path, &c, &e) == 0);
    llm_cache_close(c);
    struct stat st;
    REQUIRE(stat(tmp("a/b"), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK_INT(st.st_mode & 0777, 0700);
    REQUIRE(stat(tmp("a"), &st) == 0);
    CHECK_INT(st.st_mode & 0777, 0700);

    /* A parent that is a regular file cannot become a directory. */
    FILE *f = fopen(tmp("plain"), "w");
    REQUIRE(f);
    fclose(f);
    const char *bad = tmp("plain/sub/c.db");
    CHECK_INT(llm_cache_open(bad, &c, &e), GN_EIO);
    CHECK(c == NULL);
    CHECK_CONTAINS(e.msg, bad);
    CHECK_CONTAINS(e.msg, "plain");

    /* The path itself is a directory. */
    const char *dir = tmp("a/b");
    int rc = llm_cache_open(dir, &c, &e);
    CHECK(rc != 0);
    CHECK(c == NULL);
    CHECK_CONTAINS(e.msg, dir);
}

TEST(llm_cache_prune_keeps_newest)
{
    llm_cache *c;
    gn_err e;
    REQUIRE(llm_cache_open(tmp("c.db"), &c, &e) == 0);
    char key[16];
    for (int i = 0; i < 10; i++) {
        snprintf(key, sizeof key, "k%d", i);
        CHECK_INT(put_text(c, key, key, &e), 0);
    }
    CHECK_INT(llm_cache_prune(c, 20, &e), 0);
    CHECK_INT(rows_of(c), 10);
    CHECK_INT(llm_cache_prune(c, 3, &e), 0);
    CHECK_INT(rows_of(c), 3);
    CHECK_STR(get_text(c, "k6"), "(miss)");
    CHECK_STR(get_text(c, "k7"), "k7");
    CHECK_STR(get_text(c, "k9"), "k9");
    /* Rewriting an entry makes it the newest. */
    CHECK_INT(put_text(c, "k7", "again", &e), 0);
    CHECK_INT(llm_cache_prune(c, 2, &e), 0);
    CHECK_STR(get_text(c, "k8"), "(miss)");
    CHECK_STR(get_text(c, "k7"), "again");
    CHECK_STR(get_text(c, "k9"), "k9");

    /* Age comes first: an entry written earlier goes first whatever its rowid. */
    sqlite3 *db;
    REQUIRE(sqlite3_open(tmp("c.db"), &db) == SQLITE_OK);
    CHECK_INT(sqlite3_exec(db, "UPDATE responses SET created = created - 100 "
                               "WHERE key = 'k7'", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    CHECK_INT(llm_cache_prune(c, 1, &e), 0);
    CHECK_STR(get_text(c, "k7"), "(miss)");
    CHECK_STR(get_text(c, "k9"), "k9");
    CHECK_INT(llm_cache_prune(c, 0, &e), 0);
    CHECK_INT(rows_of(c), 0);
    llm_cache_close(c);
}
