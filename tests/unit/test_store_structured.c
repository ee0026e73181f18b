/*
 * test_store_structured.c — indexes and array side tables: made once, kept
 * in sync by triggers through inserts, updates and deletes, marked in the
 * schema, refused on a read-only connection without harm.
 */
#include "harness.h"

#include "store/kb.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *kb_sql =
    "CREATE TABLE p(_id INTEGER PRIMARY KEY, name TEXT, tags TEXT, reviews TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES ('p','_id',0,'int',0,0,NULL,NULL),"
    " ('p','name',1,'text',0,0,NULL,NULL), ('p','tags',2,'text',1,0,NULL,NULL),"
    " ('p','reviews',3,'text',1,1,NULL,NULL);"
    "INSERT INTO p VALUES (1,'a','[\"x\",\"y\"]','[\"r\"]'), (2,'b','[\"y\"]','[]'), (3,'c','oops','[]');";

static long count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

TEST(store_structured_side_tables)
{
    char path[600];
    snprintf(path, sizeof path, "%s/kb.db", th_tmpdir());
    sqlite3 *db;
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, kb_sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    gn_err e;
    REQUIRE(st_open(path, 1, &db, &e) == 0);
    st_schema *s;
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    CHECK(!st_table_column(st_schema_table(s, "p"), "tags")->side);
    int made = -1;
    REQUIRE(st_structured_ensure(db, s, &made, &e) == 0);
    CHECK_INT(made, 2);                       /* name's index, tags' side table */
    CHECK(st_table_column(st_schema_table(s, "p"), "tags")->side);
    CHECK(!st_table_column(st_schema_table(s, "p"), "reviews")->side);
    CHECK_INT(count(db, "SELECT count(*) FROM genie_arr_p_tags"), 3);   /* 'oops' is no array */
    REQUIRE(st_structured_ensure(db, s, &made, &e) == 0);
    CHECK_INT(made, 0);                       /* idempotent */
    /* Triggers keep it in sync. */
    REQUIRE(sqlite3_exec(db, "INSERT INTO p VALUES (4,'d','[\"z\",\"z\",\"x\"]','[]');"
                         "UPDATE p SET tags = '[\"w\"]' WHERE _id = 1; DELETE FROM p WHERE _id = 2;",
                         NULL, NULL, NULL) == SQLITE_OK);
    CHECK_INT(count(db, "SELECT count(*) FROM genie_arr_p_tags"), 3);   /* w; z, x */
    CHECK_INT(count(db, "SELECT row FROM genie_arr_p_tags WHERE value = 'w'"), 1);
    CHECK_INT(count(db, "SELECT count(*) FROM genie_arr_p_tags WHERE row = 2"), 0);
    st_schema_free(s);
    sqlite3_close(db);
    /* A fresh load sees the side table. */
    REQUIRE(st_open(path, 0, &db, &e) == 0);
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    CHECK(st_table_column(st_schema_table(s, "p"), "tags")->side);
    st_schema_free(s);
    sqlite3_close(db);
}

#include "suql/analyze.h"
#include "suql/emit.h"
#include "suql/parse.h"

/* '<v>' = ANY (tags) through the side table gives the rows json_each gives. */
TEST(store_structured_any_uses_the_side_table)
{
    char path[600];
    snprintf(path, sizeof path, "%s/kb.db", th_tmpdir());
    sqlite3 *db;
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, kb_sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    gn_err e;
    REQUIRE(st_open(path, 1, &db, &e) == 0);
    st_schema *s;
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    /* json_each stops at malformed JSON; the side table skips it. */
    REQUIRE(sqlite3_exec(db, "UPDATE p SET tags = '[]' WHERE _id = 3", NULL, NULL, NULL) == SQLITE_OK);
    const char *q = "SELECT count(*) FROM p WHERE 'y' = ANY (tags)";
    long before = -1, after = -1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) REQUIRE(st_structured_ensure(db, s, NULL, &e) == 0);
        suql_query *t;
        REQUIRE(suql_parse(q, &t, &e) == 0);
        REQUIRE(suql_analyze(t, s, &e) == 0);
        gn_buf b;
        gn_buf_init(&b);
        REQUIRE(suql_emit_select(t, NULL, NULL, &b, &e) == 0);
        if (pass) CHECK_CONTAINS(b.data, "\"genie_arr_p_tags\"");
        else CHECK(!strstr(b.data, "genie_arr"));
        *(pass ? &after : &before) = count(db, b.data);
        gn_buf_release(&b);
        suql_query_free(t);
    }
    CHECK_INT(before, 2);
    CHECK_INT(after, 2);
    st_schema_free(s);
    sqlite3_close(db);
}
