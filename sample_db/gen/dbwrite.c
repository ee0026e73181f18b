/*
 * dbwrite.c — SQLite plumbing for genie-gen.
 *
 * The database is written once, start to finish, into a temporary file that
 * the caller renames into place; a crash leaves only the temporary behind.
 * That is why durability is switched off (journal_mode=OFF, synchronous=OFF):
 * it makes scale 100 several times faster and costs nothing here.  Rejected:
 * an in-memory database copied out with the backup API (needs RAM for the
 * whole file, about 1 GB at scale 100).
 */
#include "dbwrite.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/util/buf.h"

static int db_fail(sqlite3 *db, gn_err *e, const char *what)
{
    return gn_err_set(e, GN_EDB, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

int gen_db_exec(sqlite3 *db, const char *sql, gn_err *e)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    gn_err_set(e, GN_EDB, "%s", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return GN_EDB;
}

int gen_db_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql, gn_err *e)
{
    if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK) return 0;
    *st = NULL;
    return db_fail(db, e, "preparing statement");
}

int gen_db_run(sqlite3 *db, sqlite3_stmt *st, gn_err *e)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) return 0;
    return db_fail(db, e, "writing row");
}

void gen_db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s) sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else sqlite3_bind_null(st, i);
}

void gen_db_bind_int(sqlite3_stmt *st, int i, int64_t v) { sqlite3_bind_int64(st, i, v); }

void gen_db_bind_real(sqlite3_stmt *st, int i, double v) { sqlite3_bind_double(st, i, v); }

static const char SCHEMA_COMMON[] =
    "CREATE TABLE genie_columns(tbl TEXT NOT NULL, col TEXT NOT NULL, pos INTEGER NOT NULL,"
    " type TEXT NOT NULL, is_array INTEGER NOT NULL DEFAULT 0,"
    " free_text INTEGER NOT NULL DEFAULT 0, enum_values TEXT, description TEXT,"
    " PRIMARY KEY(tbl,col));"
    "CREATE TABLE genie_meta(key TEXT PRIMARY KEY, value TEXT);";

/* Probe with stdio first: its errno says why ("No such file or directory",
 * "Permission denied"), where SQLite would only say "unable to open". */
static int probe_writable(const char *path, gn_err *e)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return gn_err_set(e, GN_EIO, "cannot replace '%s': %s", path, strerror(errno));
    FILE *f = fopen(path, "wb");
    if (!f) return gn_err_set(e, GN_EIO, "cannot create '%s': %s", path, strerror(errno));
    if (fclose(f) != 0) {
        int err = errno;
        unlink(path);
        return gn_err_set(e, GN_EIO, "cannot write '%s': %s", path, strerror(err));
    }
    return 0;
}

int gen_db_create(sqlite3 **db, const char *path, gn_err *e)
{
    *db = NULL;
    int rc = probe_writable(path, e);
    if (rc) return rc;
    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        rc = gn_err_set(e, GN_EDB, "cannot open '%s': %s", path,
                        *db ? sqlite3_errmsg(*db) : "out of memory");
        sqlite3_close(*db);
        *db = NULL;
        return rc;
    }
    rc = gen_db_exec(*db,
                     "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY;"
                     "PRAGMA cache_size=-65536;", e);
    if (!rc) rc = gen_db_exec(*db, SCHEMA_COMMON, e);
    if (rc) {
        gn_err_prefix(e, "initializing '%s': ", path);
        sqlite3_close(*db);
        *db = NULL;
    }
    return rc;
}

int gen_db_close(sqlite3 *db, gn_err *e)
{
    if (!db) return 0;
    if (sqlite3_close(db) != SQLITE_OK) return gn_err_set(e, GN_EDB, "closing database: busy");
    return 0;
}

static const char *sql_type(const char *type)
{
    if (!strcmp(type, "int") || !strcmp(type, "bool")) return "INTEGER";
    if (!strcmp(type, "real")) return "REAL";
    return "TEXT";
}

static int describe(sqlite3 *db, const char *tbl, const gen_column *cols, size_t n, gn_err *e)
{
    sqlite3_stmt *st;
    int rc = gen_db_prepare(db, &st,
                            "INSERT INTO genie_columns(tbl,col,pos,type,is_array,free_text,"
                            "enum_values,description) VALUES(?,?,?,?,?,?,?,?)", e);
    for (size_t i = 0; !rc && i < n; i++) {
        gen_db_bind_text(st, 1, tbl);
        gen_db_bind_text(st, 2, cols[i].name);
        gen_db_bind_int(st, 3, (int64_t)i);
        gen_db_bind_text(st, 4, cols[i].type);
        gen_db_bind_int(st, 5, cols[i].is_array);
        gen_db_bind_int(st, 6, cols[i].free_text);
        gen_db_bind_text(st, 7, cols[i].enum_values);
        gen_db_bind_text(st, 8, cols[i].description);
        rc = gen_db_run(db, st, e);
    }
    sqlite3_finalize(st);
    return rc;
}

int gen_db_define_table(sqlite3 *db, const char *tbl, const gen_column *cols, size_t n,
                        int exposed, gn_err *e)
{
    gn_buf sql;
    gn_buf_init(&sql);
    gn_buf_printf(&sql, "CREATE TABLE %s(", tbl);
    for (size_t i = 0; i < n; i++) {
        int is_id = !strcmp(cols[i].name, "_id");
        gn_buf_printf(&sql, "%s%s %s%s%s%s", i ? ", " : "", cols[i].name,
                      is_id ? "INTEGER" : sql_type(cols[i].type),
                      is_id ? " PRIMARY KEY" : "", cols[i].sql_extra ? " " : "",
                      cols[i].sql_extra ? cols[i].sql_extra : "");
    }
    gn_buf_puts(&sql, ")");
    int rc = gen_db_exec(db, sql.data, e);
    gn_buf_release(&sql);
    if (!rc && exposed) rc = describe(db, tbl, cols, n, e);
    if (rc) gn_err_prefix(e, "creating table %s: ", tbl);
    return rc;
}

int gen_db_write_meta(sqlite3 *db, const char *dataset, uint64_t seed, double scale, gn_err *e)
{
    char seed_s[32], scale_s[32];
    snprintf(seed_s, sizeof seed_s, "%llu", (unsigned long long)seed);
    snprintf(scale_s, sizeof scale_s, "%g", scale);
    const char *rows[][2] = {
        {"generator", "genie-gen"}, {"dataset", dataset}, {"seed", seed_s},
        {"scale", scale_s}, {"version", "1"},
    };
    sqlite3_stmt *st;
    int rc = gen_db_prepare(db, &st, "INSERT INTO genie_meta(key,value) VALUES(?,?)", e);
    for (size_t i = 0; !rc && i < sizeof rows / sizeof rows[0]; i++) {
        gen_db_bind_text(st, 1, rows[i][0]);
        gen_db_bind_text(st, 2, rows[i][1]);
        rc = gen_db_run(db, st, e);
    }
    sqlite3_finalize(st);
    return rc;
}
