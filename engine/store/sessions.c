/*
 * sessions.c — the sessions file: sessions and their turns in SQLite.
 *
 * One connection per st_sessions, in WAL mode with a 5 s busy timeout, so
 * several genie processes can share the file (readers never block, writers
 * wait their turn).  The invariant: a turn row and its session's
 * updated/turns columns change together, in one BEGIN IMMEDIATE
 * transaction, or not at all; a crash or a full disk before COMMIT leaves
 * the file as it was after the previous turn.
 *
 * Opening never modifies a file it does not recognise: it is classified
 * read-only first (PRAGMA user_version and sqlite_master) and only an empty
 * file or one of ours (user_version 1, tables sessions and turns) goes on
 * to PRAGMA journal_mode=WAL, which rewrites the header.  The schema is
 * created inside a write transaction that classifies again, so two
 * processes creating the file at once end with one schema.
 *
 * Rejected: AUTOINCREMENT ids (sessions are never deleted, so rowids are
 * never reused anyway) and statements cached across calls (a turn costs a
 * commit and an fsync; preparing four statements is noise beside it, and
 * per-call statements keep error paths free of reset/cleanup state).
 * Rejected too: migrating older or newer schemas in place — a newer file
 * is refused untouched so an older genie cannot damage it.  The one
 * exception keeps schema 1: the turns' cache_hits and cost columns, added
 * later, are added to a file that lacks them when it is opened for
 * writing (older genies name their columns, so they read and write it as
 * before), and read as NULL from a read-only file that lacks them.
 */
#include "sessions.h"

#include "store/kb.h"
#include "util/fs.h"
#include "util/utf8.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define SCHEMA_VERSION 1

struct st_sessions {
    sqlite3 *db;
    char *path;
    int passing;              /* the last failed write may succeed later */
    int readonly;             /* opened for reading only (st_sessions_readonly) */
    int has_cost;             /* turns has cache_hits and cost (a file of
                                 schema 1 made before them may not) */
    int has_title;            /* sessions has title (the same) */
};

/* Whether SQLite's error RC may go away by itself: another process's lock,
 * a file made read-only, a full disk, an I/O error. */
static int passing(int rc)
{
    rc &= 0xff;
    return rc == SQLITE_BUSY || rc == SQLITE_LOCKED || rc == SQLITE_READONLY ||
           rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN;
}

int st_sessions_passing(const st_sessions *s) { return s->passing; }

static const char schema_sql[] =
    "CREATE TABLE sessions("
    " id INTEGER PRIMARY KEY,"
    " agent TEXT NOT NULL,"
    " created REAL NOT NULL,"
    " updated REAL NOT NULL,"
    " turns INTEGER NOT NULL DEFAULT 0, title TEXT);"
    "CREATE INDEX sessions_updated ON sessions(updated);"
    "CREATE TABLE turns("
    " session INTEGER NOT NULL REFERENCES sessions(id),"
    " n INTEGER NOT NULL,"
    " user TEXT, parse TEXT, suql TEXT, acts TEXT, response TEXT, state TEXT, error TEXT,"
    " tokens_in INTEGER, tokens_out INTEGER, llm_calls INTEGER,"
    " ms_total REAL, ms_llm REAL, started REAL, cache_hits INTEGER, cost REAL,"
    " PRIMARY KEY(session, n));"
    "PRAGMA user_version = 1;";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- opening ------------------------------------------------------------ */

enum { FILE_EMPTY, FILE_OURS };

/* An error while reading a file being opened: a foreign or damaged file is
 * GN_ECORRUPT, anything else (locked, I/O) GN_EDB. */
static int open_err(sqlite3 *db, const char *path, gn_err *e)
{
    int rc = sqlite3_errcode(db);
    if (rc == SQLITE_NOTADB)
        return gn_err_set(e, GN_ECORRUPT, "%s: not a sessions database (%s)", path,
                          sqlite3_errmsg(db));
    if (rc == SQLITE_CORRUPT)
        return gn_err_set(e, GN_ECORRUPT, "%s: damaged: %s", path, sqlite3_errmsg(db));
    if (rc == SQLITE_FULL) return gn_err_set(e, GN_EDB, "%s: the disk is full", path);
    return gn_err_set(e, GN_EDB, "%s: %s", path, sqlite3_errmsg(db));
}

/* Read-only: FILE_EMPTY, FILE_OURS, or an error for anything else.  Reading
 * the header here is also what detects a file that is not SQLite. */
static int classify(sqlite3 *db, const char *path, int *kind, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
            "SELECT (SELECT user_version FROM pragma_user_version),"
            " (SELECT count(*) FROM sqlite_master WHERE type='table'"
            "   AND name IN ('sessions','turns')),"
            " (SELECT count(*) FROM sqlite_master)", -1, &st, NULL) != SQLITE_OK)
        return open_err(db, path, e);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return open_err(db, path, e);
    }
    int version = sqlite3_column_int(st, 0);
    int ours = sqlite3_column_int(st, 1), all = sqlite3_column_int(st, 2);
    sqlite3_finalize(st);
    if (version > SCHEMA_VERSION)
        return gn_err_set(e, GN_ECORRUPT, "%s: written by a newer genie (sessions schema %d; "
                          "this one reads %d): left untouched", path, version, SCHEMA_VERSION);
    if (version == 0 && all == 0) {
        *kind = FILE_EMPTY;
        return 0;
    }
    if (version == SCHEMA_VERSION && ours == 2) {
        *kind = FILE_OURS;
        return 0;
    }
    return gn_err_set(e, GN_ECORRUPT, "%s: not a sessions database (a SQLite file with "
                      "other tables): left untouched", path);
}

static int create_schema(sqlite3 *db, const char *path, gn_err *e)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return open_err(db, path, e);
    int kind, rc = classify(db, path, &kind, e);
    if (!rc && kind == FILE_EMPTY && sqlite3_exec(db, schema_sql, NULL, NULL, NULL) != SQLITE_OK)
        rc = open_err(db, path, e);
    if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = open_err(db, path, e);
    if (rc && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* Whether the turns table of DB has the column NAME. */
static int has_column(sqlite3 *db, const char *table, const char *name)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?2) WHERE name = ?1", -1, &st,
                           NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, table, -1, SQLITE_STATIC);
    int yes = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return yes;
}

/* Add the columns later genies keep to a writable file of schema 1: a
 * turn's cache hits and cost, a session's title. */
static int add_columns(sqlite3 *db, const char *path, gn_err *e)
{
    if (has_column(db, "turns", "cost") && has_column(db, "sessions", "title")) return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return open_err(db, path, e);
    int rc = 0;
    if (!has_column(db, "turns", "cost") &&         /* another process may have been first */
        sqlite3_exec(db, "ALTER TABLE turns ADD COLUMN cache_hits INTEGER;"
                         "ALTER TABLE turns ADD COLUMN cost REAL;", NULL, NULL, NULL) != SQLITE_OK)
        rc = open_err(db, path, e);
    if (!rc && !has_column(db, "sessions", "title") &&
        sqlite3_exec(db, "ALTER TABLE sessions ADD COLUMN title TEXT", NULL, NULL, NULL) != SQLITE_OK)
        rc = open_err(db, path, e);
    if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = open_err(db, path, e);
    if (rc && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

static int configure(sqlite3 *db, const char *path, gn_err *e)
{
    /* WAL may be refused (some network file systems): the rollback journal
     * keeps the same all-or-nothing turns, only with less concurrency, so
     * whatever mode results is accepted. */
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL) != SQLITE_OK)
        return open_err(db, path, e);
    return 0;
}

/* PATH as a SQLite URI with the query QUERY: '%', '?' and '#' escaped. */
static char *file_uri(const char *path, const char *query)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "file:");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#') gn_buf_printf(&b, "%%%02X", (unsigned char)*p);
        else gn_buf_putc(&b, *p);
    }
    gn_buf_printf(&b, "?%s", query);
    return gn_buf_detach(&b);
}

/* A sessions file this process may read but not write (mode 0444, a
 * read-only directory or mount): opened for reading, so listing, exporting
 * and resuming still work.  A file in WAL mode needs its -shm beside it,
 * which a read-only directory cannot get; the last resort is immutable=1,
 * where SQLite takes no locks and assumes nobody writes the file while it
 * is read.  That holds for anyone who, like us, cannot write it. */
static int open_readonly(const char *path, sqlite3 **out, gn_err *e)
{
    static const char *const queries[] = { "mode=ro", "mode=ro&immutable=1" };
    int rc = 0;
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        char *uri = file_uri(path, queries[i]);
        sqlite3 *db = NULL;
        int kind = FILE_EMPTY;
        gn_err_clear(e);
        rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
        free(uri);
        if (rc != SQLITE_OK) rc = open_err(db, path, e);
        else {
            sqlite3_busy_timeout(db, 5000);
            rc = classify(db, path, &kind, e);
        }
        if (!rc && kind == FILE_EMPTY)
            rc = gn_err_set(e, GN_EIO, "%s: read-only, and not yet a sessions file", path);
        if (!rc) {
            *out = db;
            return 0;
        }
        sqlite3_close(db);
        if (e->code == GN_ECORRUPT) break;      /* reading it again cannot help */
    }
    return rc;
}

/* Whether the open connection DB cannot write PATH: the file is read-only
 * for us (SQLite then opens it read-only without a word), or reading it
 * already needed a write we may not make (a WAL file's -shm). */
static int cannot_write(sqlite3 *db, int rc)
{
    return sqlite3_db_readonly(db, "main") == 1 ||
           (rc && (sqlite3_errcode(db) & 0xff) == SQLITE_READONLY);
}

int st_sessions_open(const char *path, st_sessions **out, gn_err *e)
{
    *out = NULL;
    if (gn_mkprivate(path, e)) return GN_EIO;
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        rc = gn_err_set(e, GN_EIO, "cannot open %s: %s", path,
                        db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return rc;
    }
    sqlite3_busy_timeout(db, 5000);
    int kind, readonly = 0;
    rc = classify(db, path, &kind, e);
    if (cannot_write(db, rc)) {
        sqlite3_close(db);
        db = NULL;
        if ((rc = open_readonly(path, &db, e))) return rc;
        readonly = 1;
    } else {
        if (!rc) rc = configure(db, path, e);
        if (!rc && kind == FILE_EMPTY) rc = create_schema(db, path, e);
        if (!rc) rc = add_columns(db, path, e);
        if (rc) {
            sqlite3_close(db);
            return rc;
        }
    }
    st_sessions *s = xcalloc(1, sizeof *s);
    s->db = db;
    s->path = xstrdup(path);
    s->readonly = readonly;
    s->has_cost = has_column(db, "turns", "cost");
    s->has_title = has_column(db, "sessions", "title");
    *out = s;
    return 0;
}

int st_sessions_readonly(const st_sessions *s) { return s->readonly; }

void st_sessions_close(st_sessions *s)
{
    if (!s) return;
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

/* ---- writing ------------------------------------------------------------ */

void st_sessions_patience(st_sessions *s, int ms)
{
    sqlite3_busy_timeout(s->db, ms);
}

int st_session_new(st_sessions *s, const char *agent, long *id, gn_err *e)
{
    if (!agent) return gn_err_set(e, GN_EUSAGE, "a session needs an agent name");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO sessions(agent, created, updated, turns)"
                           " VALUES (?1, ?2, ?2, 0)", -1, &st, NULL) != SQLITE_OK)
        return st_dberr(s->db, e, "creating a session");
    sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 2, now());
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        s->passing = passing(sqlite3_errcode(s->db));
        if ((sqlite3_errcode(s->db) & 0xff) == SQLITE_FULL)
            return gn_err_set(e, GN_EIO, "creating a session: the disk is full");
        return st_dberr(s->db, e, "creating a session");
    }
    *id = (long)sqlite3_last_insert_rowid(s->db);
    return 0;
}

static void bind_turn(sqlite3_stmt *st, long id, const st_turn *t)
{
    const char *text[] = { t->user, t->parse, t->suql_json, t->acts_json, t->response,
                           t->state_json, t->error };
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, t->n);
    for (int i = 0; i < 7; i++) {
        /* The file keeps UTF-8: a bad byte is stored as U+FFFD. */
        if (text[i] && !gn_utf8_valid(text[i], strlen(text[i]))) {
            char *fixed = gn_utf8_fix(text[i], strlen(text[i]), NULL);
            sqlite3_bind_text(st, 3 + i, fixed, -1, free);
            continue;
        }
        sqlite3_bind_text(st, 3 + i, text[i], -1, SQLITE_STATIC);   /* NULL binds NULL */
    }
    sqlite3_bind_int64(st, 10, t->tokens_in);
    sqlite3_bind_int64(st, 11, t->tokens_out);
    sqlite3_bind_int64(st, 12, t->llm_calls);
    sqlite3_bind_double(st, 13, t->ms_total);
    sqlite3_bind_double(st, 14, t->ms_llm);
    sqlite3_bind_double(st, 15, t->started);
    sqlite3_bind_int64(st, 16, t->cache_hits);
    if (t->cost >= 0) sqlite3_bind_double(st, 17, t->cost);   /* else NULL: no price */
}

/* One statement of the turn's transaction, run to completion.  Returns the
 * SQLite code; *changes gets the rows it changed. */
static int run(sqlite3 *db, const char *sql, long id, const st_turn *t, int *changes)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    if (t) bind_turn(st, id, t);
    else {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_double(st, 2, now());
    }
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (changes) *changes = sqlite3_changes(db);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int st_session_add_turn(st_sessions *s, long id, const st_turn *t, gn_err *e)
{
    sqlite3 *db = s->db;
    int changes = 0;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = run(db, "UPDATE sessions SET updated = ?2, turns = turns + 1 WHERE id = ?1",
                 id, NULL, &changes);
    if (rc == SQLITE_OK && changes == 0) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        s->passing = 0;
        return gn_err_set(e, GN_ENOTFOUND, "no session %ld", id);
    }
    if (rc == SQLITE_OK)
        rc = run(db, "INSERT INTO turns(session, n, user, parse, suql, acts, response, state,"
                 " error, tokens_in, tokens_out, llm_calls, ms_total, ms_llm, started,"
                 " cache_hits, cost)"
                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
                 id, t, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK) return 0;
    /* The message first: ROLLBACK resets the connection's error. */
    int code;
    s->passing = passing(sqlite3_errcode(db));
    if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_PRIMARYKEY)
        code = gn_err_set(e, GN_ESTALE, "turn %d of session %ld was saved by another genie "
                          "continuing the same conversation", t->n, id);
    else if ((sqlite3_errcode(db) & 0xff) == SQLITE_FULL)
        code = gn_err_set(e, GN_EIO, "saving turn %d of session %ld: the disk is full", t->n, id);
    else
        code = gn_err_set(e, GN_EDB, "saving turn %d of session %ld: %s", t->n, id,
                          sqlite3_errmsg(db));
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return code;
}

int st_session_fork(st_sessions *s, long id, int upto, long *out, gn_err *e)
{
    sqlite3 *db = s->db;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "INSERT INTO sessions(agent, created, updated, turns)"
                                               " SELECT agent, ?2, ?2, 0 FROM sessions WHERE id = ?1",
                                               -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_double(st, 2, now());
        rc = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    st = NULL;
    sqlite3_int64 nid = sqlite3_last_insert_rowid(db);
    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db,
        "INSERT INTO turns(session, n, user, parse, suql, acts, response, state, error, tokens_in,"
        " tokens_out, llm_calls, ms_total, ms_llm, started, cache_hits, cost)"
        " SELECT ?1, n, user, parse, suql, acts, response, state, error, tokens_in, tokens_out,"
        " llm_calls, ms_total, ms_llm, started, cache_hits, cost FROM turns"
        " WHERE session = ?2 AND n < ?3", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, nid);
        sqlite3_bind_int64(st, 2, id);
        sqlite3_bind_int(st, 3, upto);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_OK) {
        char sql[160];
        snprintf(sql, sizeof sql, "UPDATE sessions SET turns = (SELECT count(*) FROM turns WHERE "
                 "session = %lld) WHERE id = %lld", (long long)nid, (long long)nid);
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        *out = (long)nid;
        return 0;
    }
    s->passing = passing(sqlite3_errcode(db));
    int code = st_dberr(db, e, "continuing the conversation as a new session");
    if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return code;
}

/* Run the statement SQL with ID bound to ?1 (and TITLE to ?2): the rows it
 * changed, or -1 with E set. */
static long change(st_sessions *s, const char *sql, long id, const char *title, const char *what,
                   gn_err *e)
{
    if (s->readonly) {
        gn_err_set(e, GN_EDB, "%s: %s: the file is read-only", s->path, what);
        return -1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        st_dberr(s->db, e, what);
        return -1;
    }
    sqlite3_bind_int64(st, 1, id);
    if (title) sqlite3_bind_text(st, 2, title, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        s->passing = passing(sqlite3_errcode(s->db));
        st_dberr(s->db, e, what);
        return -1;
    }
    return (long)sqlite3_changes(s->db);
}

int st_session_rename(st_sessions *s, long id, const char *title, gn_err *e)
{
    if (s->readonly) return gn_err_set(e, GN_EDB, "%s: renaming a session: the file is read-only", s->path);
    if (!s->has_title) return gn_err_set(e, GN_EDB, "%s: this sessions file keeps no titles", s->path);
    long n = change(s, "UPDATE sessions SET title = NULLIF(trim(?2), '') WHERE id = ?1", id, title,
                    "renaming a session", e);
    if (n < 0) return e->code;
    return n ? 0 : gn_err_set(e, GN_ENOTFOUND, "no session %ld", id);
}

int st_session_delete(st_sessions *s, long id, gn_err *e)
{
    sqlite3 *db = s->db;
    if (s->readonly) return gn_err_set(e, GN_EDB, "%s: deleting a session: the file is read-only", s->path);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        s->passing = passing(sqlite3_errcode(db));
        return st_dberr(db, e, "deleting a session");
    }
    long n = change(s, "DELETE FROM turns WHERE session = ?1", id, NULL, "deleting a session", e);
    if (n >= 0) n = change(s, "DELETE FROM sessions WHERE id = ?1", id, NULL, "deleting a session", e);
    if (n > 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        s->passing = passing(sqlite3_errcode(db));
        st_dberr(db, e, "deleting a session");
        n = -1;
    }
    if (n <= 0 && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    if (n < 0) return e->code;
    return n ? 0 : gn_err_set(e, GN_ENOTFOUND, "no session %ld", id);
}

/* ---- reading ------------------------------------------------------------ */

/* Copy S into DST (size N) whole, or cut at a code point boundary with "…"
 * appended; line breaks and tabs become spaces so a listing stays one line
 * per session. */
static void cut_copy(char *dst, size_t n, const char *s)
{
    static const char ell[] = "\xe2\x80\xa6";
    size_t len = s ? strlen(s) : 0, keep = len;
    if (len >= n) {
        keep = n - sizeof ell;      /* room for "…" and the NUL */
        while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80) keep--;
    }
    for (size_t i = 0; i < keep; i++)
        dst[i] = (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') ? ' ' : s[i];
    dst[keep] = 0;
    if (keep < len) memcpy(dst + keep, ell, sizeof ell);
}

/* The facts of a session, and its title where the file keeps titles (a
 * read-only file of an older genie may not). */
#define INFO_SELECT(s) \
    ((s)->has_title ? INFO_COLUMNS ", title FROM sessions " : INFO_COLUMNS ", NULL FROM sessions ")
#define INFO_COLUMNS \
    "SELECT id, agent, created, updated, turns," \
    " (SELECT user FROM turns WHERE session = sessions.id ORDER BY n LIMIT 1)"

/* The statement of INFO_SELECT followed by REST (a WHERE ...): SQLite's
 * code. */
static int prepare_info(st_sessions *s, const char *rest, sqlite3_stmt **st)
{
    char *q = sqlite3_mprintf("%s%s", INFO_SELECT(s), rest);
    int rc = q ? sqlite3_prepare_v2(s->db, q, -1, st, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    return rc;
}

static void info_row(sqlite3_stmt *st, st_session_info *out)
{
    memset(out, 0, sizeof *out);
    out->id = (long)sqlite3_column_int64(st, 0);
    cut_copy(out->agent, sizeof out->agent, (const char *)sqlite3_column_text(st, 1));
    out->created = sqlite3_column_double(st, 2);
    out->updated = sqlite3_column_double(st, 3);
    out->turns = sqlite3_column_int(st, 4);
    cut_copy(out->first_user, sizeof out->first_user, (const char *)sqlite3_column_text(st, 5));
    cut_copy(out->title, sizeof out->title, (const char *)sqlite3_column_text(st, 6));
}

int st_session_latest(st_sessions *s, const char *agent, long *id, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id FROM sessions WHERE ?1 IS NULL OR agent = ?1"
                           " ORDER BY updated DESC, id DESC LIMIT 1", -1, &st, NULL) != SQLITE_OK)
        return st_dberr(s->db, e, "finding the latest session");
    sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *id = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return st_dberr(s->db, e, "finding the latest session");
    if (agent) return gn_err_set(e, GN_ENOTFOUND, "no session of agent '%s'", agent);
    return gn_err_set(e, GN_ENOTFOUND, "no sessions yet");
}

int st_session_list(st_sessions *s, const char *agent, st_session_cb cb, void *ud, gn_err *e)
{
    sqlite3_stmt *st;
    if (prepare_info(s, "WHERE ?1 IS NULL OR agent = ?1 ORDER BY updated DESC, id DESC", &st))
        return st_dberr(s->db, e, "listing sessions");
    sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
    int rc;
    st_session_info info;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        info_row(st, &info);
        if (cb(&info, ud)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : st_dberr(s->db, e, "listing sessions");
}

int st_session_info_get(st_sessions *s, long id, st_session_info *out, gn_err *e)
{
    sqlite3_stmt *st;
    if (prepare_info(s, "WHERE id = ?1", &st)) return st_dberr(s->db, e, "reading a session");
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) info_row(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return st_dberr(s->db, e, "reading a session");
    return gn_err_set(e, GN_ENOTFOUND, "no session %ld", id);
}

static void turn_row(sqlite3_stmt *st, st_turn *t)
{
    const char **text[] = { &t->user, &t->parse, &t->suql_json, &t->acts_json, &t->response,
                            &t->state_json, &t->error };
    memset(t, 0, sizeof *t);
    t->n = sqlite3_column_int(st, 0);
    for (int i = 0; i < 7; i++)
        *text[i] = (const char *)sqlite3_column_text(st, 1 + i);
    t->tokens_in = (long)sqlite3_column_int64(st, 8);
    t->tokens_out = (long)sqlite3_column_int64(st, 9);
    t->llm_calls = (long)sqlite3_column_int64(st, 10);
    t->ms_total = sqlite3_column_double(st, 11);
    t->ms_llm = sqlite3_column_double(st, 12);
    t->started = sqlite3_column_double(st, 13);
    t->cache_hits = (long)sqlite3_column_int64(st, 14);
    t->cost = sqlite3_column_type(st, 15) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 15);
}

int st_session_turns(st_sessions *s, long id, st_turn_cb cb, void *ud, gn_err *e)
{
    st_session_info info;
    int rc = st_session_info_get(s, id, &info, e);
    if (rc) return rc;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, s->has_cost
                           ? "SELECT n, user, parse, suql, acts, response, state, error, tokens_in,"
                             " tokens_out, llm_calls, ms_total, ms_llm, started, cache_hits, cost"
                             " FROM turns WHERE session = ?1 ORDER BY n"
                           : "SELECT n, user, parse, suql, acts, response, state, error, tokens_in,"
                             " tokens_out, llm_calls, ms_total, ms_llm, started, NULL, NULL"
                             " FROM turns WHERE session = ?1 ORDER BY n", -1, &st, NULL) != SQLITE_OK)
        return st_dberr(s->db, e, "reading turns");
    sqlite3_bind_int64(st, 1, id);
    st_turn t;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        turn_row(st, &t);
        if (cb(&t, ud)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : st_dberr(s->db, e, "reading turns");
}
