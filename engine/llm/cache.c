/*
 * cache.c — the LLM response cache (cache.h): one table in a SQLite file.
 *
 * Schema: the table `responses` (columns in COLS below) with an index on
 * `created` for pruning, and PRAGMA user_version = SCHEMA_VERSION.  Usage
 * columns are NULL when the response had no usage object.
 *
 * Invariants: a file is only ever given our table when it is empty (no
 * schema objects, user_version 0), inside one BEGIN IMMEDIATE transaction
 * that re-checks emptiness, so two processes creating the same file at once
 * create it once, and a user's unrelated database is refused, never altered.
 * The journal mode becomes WAL only after the file is known to be ours.
 * Every statement is reset as soon as its row has been copied out, so no
 * handle keeps a read snapshot open (which would stall WAL checkpoints).
 * Every write is one autocommit statement, so it takes the write lock when
 * it starts and the busy timeout applies (a read transaction upgraded to
 * write in WAL mode would fail at once with SQLITE_BUSY_SNAPSHOT).
 *
 * Threads: the handle's prepared statements are shared, and a bind-step-
 * column-reset sequence (and sqlite3_errmsg after it) must not interleave
 * with another thread's, so every public call holds the handle's mutex.
 * The connection is also opened FULLMUTEX, which is redundant under that
 * mutex but keeps SQLite safe should a future caller reach the connection
 * some other way.
 *
 * Rejected: one connection per call (the open, schema check and WAL setup
 * cost more than the query); deleting and recreating a file that is not a
 * valid cache (it may be the user's data at a mistyped path); migrating an
 * unknown newer schema down (a newer genie owns it; an older one reports
 * an error, which callers treat as "no cache"); storing the whole result
 * as JSON (the columns keep the file inspectable with the sqlite3 shell).
 */
#include "llm/cache.h"
#include "util/clock.h"
#include "util/buf.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define SCHEMA_VERSION 1
#define BUSY_TIMEOUT_MS 5000

/* The table's columns, in order: CREATE TABLE is built from this and an
 * existing table must have exactly these names. */
static const struct { const char *name, *decl; } COLS[] = {
    { "key", "TEXT PRIMARY KEY NOT NULL" },
    { "created", "INTEGER NOT NULL" },         /* unix seconds */
    { "stage", "TEXT" },                       /* who asked; free text */
    { "model", "TEXT" },                       /* the model asked for */
    { "resp_model", "TEXT" },                  /* the model the server named */
    { "content", "TEXT NOT NULL" },
    { "reasoning", "TEXT NOT NULL" },
    { "finish_reason", "TEXT" },
    { "prompt_tokens", "INTEGER" },            /* usage: all NULL or none */
    { "completion_tokens", "INTEGER" },
    { "total_tokens", "INTEGER" },
    { "reasoning_tokens", "INTEGER" },
};
#define NCOLS ((int)(sizeof COLS / sizeof COLS[0]))

/* Column positions in the rows SQL_GET returns. */
enum { G_CONTENT, G_REASONING, G_FINISH, G_PROMPT, G_COMPLETION, G_TOTAL,
       G_RTOKENS, G_MODEL, G_RESP_MODEL };

static const char SQL_GET[] =
    "SELECT content, reasoning, finish_reason, prompt_tokens, completion_tokens, "
    "total_tokens, reasoning_tokens, model, resp_model FROM responses WHERE key = ?1";
static const char SQL_PUT[] =
    "INSERT OR REPLACE INTO responses (key, created, stage, model, resp_model, "
    "content, reasoning, finish_reason, prompt_tokens, completion_tokens, "
    "total_tokens, reasoning_tokens) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
static const char SQL_COUNT[] = "SELECT count(*) FROM responses";
static const char SQL_FORGET[] = "DELETE FROM responses WHERE key = ?1";
/* A replaced entry gets a new rowid, so rowid orders writes within a second. */
static const char SQL_PRUNE[] =
    "DELETE FROM responses WHERE rowid NOT IN (SELECT rowid FROM responses "
    "ORDER BY created DESC, rowid DESC LIMIT ?1)";

struct llm_cache {
    sqlite3 *db;
    char *path;
    pthread_mutex_t mu;
    sqlite3_stmt *get, *put, *count, *prune, *forget;
};

/* The GN_E* code for a SQLite result code. */
static int gn_code(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_CORRUPT: case SQLITE_NOTADB: return GN_ECORRUPT;
    case SQLITE_CANTOPEN: return GN_EIO;
    default: return GN_EDB;
    }
}

/* Report the connection's last error as "PATH: WHAT: message". */
static int dberr(const llm_cache *c, const char *what, gn_err *e)
{
    int rc = sqlite3_extended_errcode(c->db);
    if ((rc & 0xff) == SQLITE_NOTADB)
        return gn_err_set(e, GN_ECORRUPT, "%s: not a SQLite database, or damaged (%s)",
                          c->path, sqlite3_errmsg(c->db));
    return gn_err_set(e, gn_code(rc), "%s: %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

/* ---- opening ------------------------------------------------------------ */

/* The schema version and the number of schema objects of the file, read in
 * one statement and so from one snapshot: read apart, another process could
 * create the table in between, and the file would look foreign. */
static int read_header(llm_cache *c, long *version, long *nobjects, gn_err *e)
{
    sqlite3_stmt *st;
    *version = *nobjects = 0;
    if (sqlite3_prepare_v2(c->db, "SELECT (SELECT user_version FROM pragma_user_version), "
                           "(SELECT count(*) FROM sqlite_master)", -1, &st, NULL))
        return dberr(c, "reading the schema", e);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *version = (long)sqlite3_column_int64(st, 0);
        *nobjects = (long)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : dberr(c, "reading the schema", e);
}

static int exec(llm_cache *c, const char *sql, const char *what, gn_err *e)
{
    if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK) return dberr(c, what, e);
    return 0;
}

static int foreign(const llm_cache *c, gn_err *e)
{
    return gn_err_set(e, GN_ECORRUPT, "%s: a SQLite database but not a genie response "
                      "cache (it has other tables); not touching it", c->path);
}

static void create_sql(gn_buf *b)
{
    gn_buf_puts(b, "CREATE TABLE responses (");
    for (int i = 0; i < NCOLS; i++)
        gn_buf_printf(b, "%s%s %s", i ? ", " : "", COLS[i].name, COLS[i].decl);
    gn_buf_printf(b, "); CREATE INDEX responses_created ON responses (created); "
                  "PRAGMA user_version = %d;", SCHEMA_VERSION);
}

/* Give an empty file our table, unless another process did it first. */
static int create_schema(llm_cache *c, gn_err *e)
{
    int rc = exec(c, "BEGIN IMMEDIATE", "creating the table", e);
    if (rc) return rc;
    long version, nobjects;
    rc = read_header(c, &version, &nobjects, e);
    if (!rc && version == 0 && nobjects > 0) rc = foreign(c, e);
    if (!rc && version == 0) {
        gn_buf sql;
        gn_buf_init(&sql);
        create_sql(&sql);
        rc = exec(c, sql.data, "creating the table", e);
        gn_buf_release(&sql);
    }
    if (!rc) return exec(c, "COMMIT", "creating the table", e);
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* The table must have exactly the columns of COLS, in order. */
static int check_columns(llm_cache *c, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, "PRAGMA table_info(responses)", -1, &st, NULL))
        return dberr(c, "reading the schema", e);
    int n = 0, bad = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        if (n >= NCOLS || !name || strcmp(name, COLS[n].name)) bad = 1;
        n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return dberr(c, "reading the schema", e);
    if (n == 0)
        return gn_err_set(e, GN_ECORRUPT, "%s: not a genie response cache (schema version "
                          "%d but no table 'responses')", c->path, SCHEMA_VERSION);
    if (bad || n != NCOLS)
        return gn_err_set(e, GN_ECORRUPT, "%s: the table 'responses' does not have the "
                          "columns of schema version %d", c->path, SCHEMA_VERSION);
    return 0;
}

static int check_schema(llm_cache *c, gn_err *e)
{
    long version, nobjects;
    int rc = read_header(c, &version, &nobjects, e);
    if (rc) return rc;
    if (version == 0 && nobjects > 0) return foreign(c, e);
    if (version == 0) rc = create_schema(c, e);
    else if (version > SCHEMA_VERSION)
        return gn_err_set(e, GN_ECORRUPT, "%s: response cache written by a newer genie "
                          "(schema version %ld; this one knows %d)", c->path, version,
                          SCHEMA_VERSION);
    else if (version != SCHEMA_VERSION)
        return gn_err_set(e, GN_ECORRUPT, "%s: not a genie response cache (user_version "
                          "%ld)", c->path, version);
    return rc ? rc : check_columns(c, e);
}

/* Journal mode and durability: WAL lets readers run beside a writer;
 * synchronous=NORMAL may lose the last commits on power loss (never on a
 * crash of the process), which costs a cache nothing.  Switching to WAL
 * needs the file to itself, and SQLite reports SQLITE_BUSY at once, without
 * the busy handler, when another connection is reading or switching it too
 * (as when two processes open a new cache together): retry here for as long
 * as the busy timeout would wait.  WAL is a property of the file, so once
 * one process has switched, the others find it done. */
static int set_wal(llm_cache *c, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, "PRAGMA journal_mode=WAL", -1, &st, NULL))
        return dberr(c, "setting WAL mode", e);
    /* By the clock, not by counting sleeps: a step may itself have waited. */
    long deadline = (long)(gn_now() * 1e3) + BUSY_TIMEOUT_MS;
    int rc;
    while (((rc = sqlite3_step(st)) & 0xff) == SQLITE_BUSY) {
        sqlite3_reset(st);
        if ((long)(gn_now() * 1e3) >= deadline) break;
        sqlite3_sleep(10);
    }
    /* A file system without shared memory leaves the old mode: still usable. */
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        rc = dberr(c, "setting WAL mode", e);
        sqlite3_finalize(st);
        return rc;
    }
    sqlite3_finalize(st);
    return exec(c, "PRAGMA synchronous=NORMAL", "setting synchronous mode", e);
}

static int prepare_all(llm_cache *c, gn_err *e)
{
    struct { const char *sql; sqlite3_stmt **st; } p[] = {
        { SQL_GET, &c->get }, { SQL_PUT, &c->put },
        { SQL_COUNT, &c->count }, { SQL_PRUNE, &c->prune }, { SQL_FORGET, &c->forget },
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (sqlite3_prepare_v3(c->db, p[i].sql, -1, SQLITE_PREPARE_PERSISTENT, p[i].st, NULL))
            return dberr(c, "preparing statements", e);
    return 0;
}

int llm_cache_open(const char *path, llm_cache **out, gn_err *e)
{
    *out = NULL;
    if (!path || !*path) return gn_err_set(e, GN_EUSAGE, "response cache: empty path");
    if (!sqlite3_threadsafe())
        return gn_err_set(e, GN_EDB, "%s: SQLite was built without thread support", path);
    int rc = gn_mkprivate(path, e);
    if (rc) return gn_err_prefix(e, "%s: ", path);
    llm_cache *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    pthread_mutex_init(&c->mu, NULL);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    int src = sqlite3_open_v2(path, &c->db, flags, NULL);
    if (src != SQLITE_OK)
        rc = gn_err_set(e, gn_code(src), "%s: cannot open: %s", path,
                        c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(src));
    if (!rc) {
        sqlite3_extended_result_codes(c->db, 1);
        sqlite3_busy_timeout(c->db, BUSY_TIMEOUT_MS);
        rc = check_schema(c, e);
    }
    if (!rc) rc = set_wal(c, e);
    if (!rc) rc = prepare_all(c, e);
    if (rc) {
        llm_cache_close(c);
        return rc;
    }
    *out = c;
    return 0;
}

void llm_cache_close(llm_cache *c)
{
    if (!c) return;
    sqlite3_finalize(c->get);
    sqlite3_finalize(c->put);
    sqlite3_finalize(c->count);
    sqlite3_finalize(c->prune);
    sqlite3_finalize(c->forget);
    sqlite3_close(c->db);
    pthread_mutex_destroy(&c->mu);
    free(c->path);
    free(c);
}

/* ---- reading and writing ------------------------------------------------- */

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? xstrndup((const char *)s, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

static void col_buf(gn_buf *b, sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    if (s) gn_buf_add(b, s, (size_t)sqlite3_column_bytes(st, i));
}

/* Copy the row at ST into OUT (empty, initialized). */
static void fill_result(sqlite3_stmt *st, llm_result *out)
{
    out->choices = xcalloc(1, sizeof *out->choices);
    out->nchoices = 1;
    llm_choice *ch = &out->choices[0];
    gn_buf_init(&ch->content);
    gn_buf_init(&ch->reasoning);
    gn_buf_init(&ch->refusal);
    col_buf(&ch->content, st, G_CONTENT);
    col_buf(&ch->reasoning, st, G_REASONING);
    ch->finish_reason = col_dup(st, G_FINISH);
    if (sqlite3_column_type(st, G_PROMPT) != SQLITE_NULL) {
        out->usage.present = 1;
        out->usage.prompt_tokens = (long)sqlite3_column_int64(st, G_PROMPT);
        out->usage.completion_tokens = (long)sqlite3_column_int64(st, G_COMPLETION);
        out->usage.total_tokens = (long)sqlite3_column_int64(st, G_TOTAL);
        out->usage.reasoning_tokens = (long)sqlite3_column_int64(st, G_RTOKENS);
    }
    out->model = col_dup(st, G_RESP_MODEL);
    if (!out->model) out->model = col_dup(st, G_MODEL);
}

int llm_cache_get(llm_cache *c, const char *key, llm_result *out, gn_err *e)
{
    llm_result_init(out);
    if (!key || !*key) return -gn_err_set(e, GN_EUSAGE, "response cache: empty key");
    pthread_mutex_lock(&c->mu);
    sqlite3_bind_text(c->get, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(c->get), ret = 0;
    if (rc == SQLITE_ROW) {
        fill_result(c->get, out);
        ret = 1;
    } else if (rc != SQLITE_DONE) {
        ret = -dberr(c, "reading an entry", e);
    }
    sqlite3_reset(c->get);
    sqlite3_clear_bindings(c->get);
    pthread_mutex_unlock(&c->mu);
    return ret;
}

/* Bind text S (may be NULL: SQL NULL) of length N. */
static void bind_str(sqlite3_stmt *st, int i, const char *s, size_t n)
{
    if (s) sqlite3_bind_text64(st, i, s, n, SQLITE_STATIC, SQLITE_UTF8);
    else sqlite3_bind_null(st, i);
}

static void bind_put(sqlite3_stmt *st, const char *key, const char *stage, const char *model,
                     const llm_result *r)
{
    const llm_choice *ch = &r->choices[0];
    bind_str(st, 1, key, strlen(key));
    sqlite3_bind_int64(st, 2, (sqlite3_int64)time(NULL));
    bind_str(st, 3, stage, stage ? strlen(stage) : 0);
    bind_str(st, 4, model, model ? strlen(model) : 0);
    bind_str(st, 5, r->model, r->model ? strlen(r->model) : 0);
    /* A released or never-initialized gn_buf has data NULL: store "". */
    bind_str(st, 6, ch->content.data ? ch->content.data : "", ch->content.len);
    bind_str(st, 7, ch->reasoning.data ? ch->reasoning.data : "", ch->reasoning.len);
    bind_str(st, 8, ch->finish_reason, ch->finish_reason ? strlen(ch->finish_reason) : 0);
    const llm_usage *u = &r->usage;
    const long v[4] = { u->prompt_tokens, u->completion_tokens, u->total_tokens,
                        u->reasoning_tokens };
    for (int i = 0; i < 4; i++) {
        if (u->present) sqlite3_bind_int64(st, 9 + i, v[i]);
        else sqlite3_bind_null(st, 9 + i);
    }
}

int llm_cache_put(llm_cache *c, const char *key, const char *stage, const char *model,
                  const llm_result *r, gn_err *e)
{
    if (!key || !*key) return gn_err_set(e, GN_EUSAGE, "response cache: empty key");
    if (r->nchoices < 1)
        return gn_err_set(e, GN_EUSAGE, "response cache: a result without choices");
    const llm_choice *ch = &r->choices[0];
    if (ch->ntools > 0 || ch->refusal.len > 0)
        return gn_err_set(e, GN_EUSAGE, "response cache: a result with %s cannot be "
                          "stored", ch->ntools > 0 ? "tool calls" : "a refusal");
    pthread_mutex_lock(&c->mu);
    bind_put(c->put, key, stage, model, r);
    int rc = sqlite3_step(c->put), ret = 0;
    if (rc != SQLITE_DONE) ret = dberr(c, "writing an entry", e);
    sqlite3_reset(c->put);
    sqlite3_clear_bindings(c->put);
    pthread_mutex_unlock(&c->mu);
    return ret;
}

int llm_cache_forget(llm_cache *c, const char *key, gn_err *e)
{
    if (!key || !*key) return 0;
    pthread_mutex_lock(&c->mu);
    sqlite3_bind_text(c->forget, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(c->forget), ret = 0;
    if (rc != SQLITE_DONE) ret = dberr(c, "deleting an entry", e);
    sqlite3_reset(c->forget);
    sqlite3_clear_bindings(c->forget);
    pthread_mutex_unlock(&c->mu);
    return ret;
}

int llm_cache_stats(llm_cache *c, long *rows, gn_err *e)
{
    *rows = 0;
    pthread_mutex_lock(&c->mu);
    int rc = sqlite3_step(c->count), ret = 0;
    if (rc == SQLITE_ROW) *rows = (long)sqlite3_column_int64(c->count, 0);
    else ret = dberr(c, "counting entries", e);
    sqlite3_reset(c->count);
    pthread_mutex_unlock(&c->mu);
    return ret;
}

int llm_cache_prune(llm_cache *c, long max_rows, gn_err *e)
{
    if (max_rows < 0)
        return gn_err_set(e, GN_EUSAGE, "response cache: negative row limit %ld", max_rows);
    pthread_mutex_lock(&c->mu);
    sqlite3_bind_int64(c->prune, 1, max_rows);
    int rc = sqlite3_step(c->prune), ret = 0;
    if (rc != SQLITE_DONE) ret = dberr(c, "pruning", e);
    sqlite3_reset(c->prune);
    pthread_mutex_unlock(&c->mu);
    return ret;
}
