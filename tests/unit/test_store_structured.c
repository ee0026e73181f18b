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

/* = ANY, @> and && through the side table give the rows json_each gives. */
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
    static const struct { const char *q; long rows; } cases[] = {
        { "SELECT count(*) FROM p WHERE 'y' = ANY (tags)", 2 },
        { "SELECT count(*) FROM p WHERE tags @> ARRAY['y']", 2 },
        { "SELECT count(*) FROM p WHERE tags @> ARRAY['x', 'y']", 1 },
        { "SELECT count(*) FROM p WHERE tags @> ARRAY['x', 'y', 'x']", 1 },
        { "SELECT count(*) FROM p WHERE tags && ARRAY['x', 'q']", 1 },
        { "SELECT count(*) FROM p WHERE NOT tags && ARRAY['x']", 2 },
        { "SELECT count(*) FROM p WHERE (tags @> ARRAY['y']) = (1 = 1)", 2 },
    };
    enum { NCASES = sizeof cases / sizeof cases[0] };
    long got[2][NCASES];
    for (int pass = 0; pass < 2; pass++) {
        if (pass) REQUIRE(st_structured_ensure(db, s, NULL, &e) == 0);
        for (size_t c = 0; c < NCASES; c++) {
            suql_query *t;
            REQUIRE(suql_parse(cases[c].q, &t, &e) == 0);
            REQUIRE(suql_analyze(t, s, &e) == 0);
            gn_buf b;
            gn_buf_init(&b);
            REQUIRE(suql_emit_select(t, NULL, NULL, &b, &e) == 0);
            if (pass) CHECK_CONTAINS(b.data, "\"genie_arr_p_tags\"");
            else CHECK(!strstr(b.data, "genie_arr"));
            got[pass][c] = count(db, b.data);
            gn_buf_release(&b);
            suql_query_free(t);
        }
    }
    for (size_t c = 0; c < NCASES; c++) {
        if (got[0][c] != cases[c].rows || got[1][c] != cases[c].rows)
            fprintf(stderr, "  %s: %ld rows with json_each, %ld with the side table\n", cases[c].q,
                    got[0][c], got[1][c]);
        CHECK_INT(got[0][c], cases[c].rows);
        CHECK_INT(got[1][c], cases[c].rows);
    }
    st_schema_free(s);
    sqlite3_close(db);
}

/* The plan SQLite makes for SQL, its detail lines joined. */
static void query_plan(sqlite3 *db, const char *sql, char *out, size_t n)
{
    gn_buf q, b;
    gn_buf_init(&q);
    gn_buf_init(&b);
    gn_buf_printf(&q, "EXPLAIN QUERY PLAN %s", sql);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, q.data, -1, &st, NULL) == SQLITE_OK)
        while (sqlite3_step(st) == SQLITE_ROW) gn_buf_printf(&b, "%s; ", sqlite3_column_text(st, 3));
    sqlite3_finalize(st);
    snprintf(out, n, "%s", b.data ? b.data : "");
    gn_buf_release(&q);
    gn_buf_release(&b);
}

/* In a table with free text, filters and sorts on the short columns are
 * answered from an index (never the long rows); an index made before with
 * other columns is made again, once. */
TEST(store_structured_indexes_carry_the_short_columns)
{
    char path[600];
    snprintf(path, sizeof path, "%s/kb.db", th_tmpdir());
    sqlite3 *db;
    REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
        "CREATE TABLE r(_id INTEGER PRIMARY KEY, name TEXT, price TEXT, rating REAL, city TEXT,"
        "  reviews TEXT);"
        "CREATE TABLE c(_id INTEGER PRIMARY KEY, title TEXT, units INTEGER);"
        "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
        "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
        "INSERT INTO genie_columns VALUES ('r','_id',0,'int',0,0,NULL,NULL),"
        " ('r','name',1,'text',0,0,NULL,NULL), ('r','price',2,'enum',0,0,'[\"cheap\",\"dear\"]',NULL),"
        " ('r','rating',3,'real',0,0,NULL,NULL), ('r','city',4,'text',0,0,NULL,NULL),"
        " ('r','reviews',5,'text',1,1,NULL,NULL),"
        " ('c','_id',0,'int',0,0,NULL,NULL), ('c','title',1,'text',0,0,NULL,NULL),"
        " ('c','units',2,'int',0,0,NULL,NULL);"
        "CREATE INDEX genie_ix_r_city ON r(city);"          /* as an older genie made it */
        "INSERT INTO r VALUES (1,'a','cheap',4.5,'x','[\"long\"]'), (2,'b','dear',3.0,'x','[]');",
        NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    gn_err e;
    REQUIRE(st_open(path, 1, &db, &e) == 0);
    st_schema *s;
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    int made = -1;
    REQUIRE(st_structured_ensure(db, s, &made, &e) == 0);
    CHECK_INT(made, 6);                       /* r: 4 (city's remade), c: 2 */
    char plan[1000];
    query_plan(db, "SELECT _id FROM r WHERE city = 'x' AND price = 'cheap' ORDER BY rating DESC",
               plan, sizeof plan);
    CHECK_CONTAINS(plan, "COVERING INDEX genie_ix_r_city");
    query_plan(db, "SELECT _id FROM r WHERE rating > 4 AND price = 'cheap'", plan, sizeof plan);
    CHECK_CONTAINS(plan, "COVERING INDEX");
    CHECK_INT(count(db, "SELECT count(*) FROM pragma_index_info('genie_ix_r_name')"), 3);
    CHECK_INT(count(db, "SELECT count(*) FROM pragma_index_info('genie_ix_c_title')"), 1);
    CHECK_INT(count(db, "SELECT _id FROM r WHERE city = 'x' AND price = 'cheap' ORDER BY rating"), 1);
    REQUIRE(st_structured_ensure(db, s, &made, &e) == 0);
    CHECK_INT(made, 0);                       /* idempotent */
    st_schema_free(s);
    sqlite3_close(db);
}
