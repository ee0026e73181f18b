/*
 * test_store.c — the schema as CREATE TABLE text, and the read-only guard
 * on query connections.
 */
#include "harness.h"

#include "store/kb.h"

#include <stdio.h>
#include <unistd.h>

static const char *kb_sql =
    "CREATE TABLE places(_id INTEGER PRIMARY KEY, name TEXT, city TEXT, tags TEXT, reviews TEXT,"
    "  size TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES"
    " ('places','_id',0,'int',0,0,NULL,'Row id.'), ('places','name',1,'text',0,0,NULL,'Name.'),"
    " ('places','city',2,'enum',0,0,'[\"north\",\"it''s south\"]','Where.'),"
    " ('places','tags',3,'enum',1,0,'[\"a\",\"b\",\"c\",\"d\",\"e\"]',NULL),"
    " ('places','reviews',4,'text',1,1,NULL,'What people say.'),"
    " ('places','size',5,'real',0,0,NULL,NULL);"
    "INSERT INTO places VALUES (1,'A','north','[\"a\"]','[\"good\"]',1.5);";

static sqlite3 *open_kb(int writable)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/kb.db", th_tmpdir());
    unlink(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) || sqlite3_exec(db, kb_sql, NULL, NULL, NULL)) return NULL;
    sqlite3_close(db);
    gn_err e;
    return st_open(path, writable, &db, &e) ? NULL : db;
}

TEST(store_schema_sql)
{
    sqlite3 *db = open_kb(0);
    REQUIRE(db);
    st_schema *s;
    gn_err e;
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    gn_buf b;
    gn_buf_init(&b);
    st_schema_sql(s, 4, &b);
    CHECK_STR(b.data,
              "CREATE TABLE places (\n"
              "    _id INT,                             -- Row id.\n"
              "    name TEXT,                           -- Name.\n"
              "    city ENUM ('north', 'it''s south'),  -- Where.\n"
              "    tags TEXT[],                         -- one of 5 values, e.g. 'a', 'b', 'c'\n"
              "    reviews FREE_TEXT[],                 -- What people say.\n"
              "    size REAL\n"
              ");\n");
    gn_buf_release(&b);
    st_schema_free(s);
    sqlite3_close(db);
}

/* Does SQL fail on the guarded connection with "not authorized" (or the
 * read-only error)? */
static int denied(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    int ok = rc != SQLITE_OK;
    sqlite3_free(msg);
    return ok;
}

TEST(store_guard_allows_reads_only)
{
    sqlite3 *db = open_kb(1);      /* even through a read-write handle */
    REQUIRE(db);
    gn_err e;
    REQUIRE(st_guard(db, &e) == 0);
    CHECK(!denied(db, "SELECT name, json_array_length(tags) FROM places WHERE _id = 1"));
    CHECK(!denied(db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) "
                      "SELECT count(*) FROM n"));
    CHECK(!denied(db, "SELECT value FROM places, json_each(places.reviews)"));
    CHECK(!denied(db, "PRAGMA table_info"));
    static const char *const bad[] = {
        "INSERT INTO places(_id) VALUES (9)",
        "UPDATE places SET name = 'x'",
        "DELETE FROM places",
        "DROP TABLE places",
        "CREATE TABLE t(x)",
        "CREATE TEMP TABLE t(x)",
        "ALTER TABLE places ADD COLUMN y",
        "ATTACH DATABASE ':memory:' AS other",
        "PRAGMA writable_schema = 1",
        "PRAGMA query_only = 0",
        "PRAGMA journal_mode",
        "SELECT load_extension('x')",
        "BEGIN",
        "VACUUM",
        "REINDEX",
        "ANALYZE",
        "UPDATE sqlite_master SET sql = 'x'",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!denied(db, bad[i])) th_fail(__FILE__, __LINE__, "allowed: %s", bad[i]);
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM places", -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}
