/*
 * suql_fixture.c — the shared SUQL test schema, rows and fixture database
 * (see suql_fixture.h).
 */
#include "suql_fixture.h"

#include "suql/analyze.h"
#include "suql/parse.h"
#include "util/buf.h"

#include <stdio.h>
#include <unistd.h>

const char th_suql_schema_sql[] =
    "CREATE TABLE restaurants(_id INTEGER PRIMARY KEY, name TEXT, cuisines TEXT, price TEXT,"
    "  rating REAL, num_reviews INTEGER, location TEXT, reviews TEXT, opens TEXT, secret TEXT);"
    "CREATE TABLE dishes(_id INTEGER PRIMARY KEY, restaurant_id INTEGER, name TEXT, price REAL,"
    "  tags TEXT);"
    "CREATE TABLE genie_meta(k TEXT, v TEXT);"
    "CREATE TABLE _truth_answers(q TEXT, a TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES"
    " ('restaurants','_id',0,'int',0,0,NULL,NULL),"
    " ('restaurants','name',1,'text',0,0,NULL,NULL),"
    " ('restaurants','cuisines',2,'enum',1,0,'[\"thai\",\"noodles\",\"italian\",\"pizza\","
    "\"coffee & tea\",\"cafe\",\"japanese\",\"sushi\",\"bar\"]',NULL),"
    " ('restaurants','price',3,'enum',0,0,'[\"cheap\",\"moderate\",\"expensive\",\"luxury\"]',NULL),"
    " ('restaurants','rating',4,'real',0,0,NULL,NULL),"
    " ('restaurants','num_reviews',5,'int',0,0,NULL,NULL),"
    " ('restaurants','location',6,'text',0,0,NULL,NULL),"
    " ('restaurants','reviews',7,'text',1,1,NULL,NULL),"
    " ('restaurants','opens',8,'time',0,0,NULL,NULL),"
    " ('dishes','_id',0,'int',0,0,NULL,NULL),"
    " ('dishes','restaurant_id',1,'int',0,0,NULL,NULL),"
    " ('dishes','name',2,'text',0,0,NULL,NULL),"
    " ('dishes','price',3,'real',0,0,NULL,NULL),"
    " ('dishes','tags',4,'text',1,0,NULL,NULL);";

const char th_suql_rows_sql[] =
    "INSERT INTO restaurants VALUES"
    " (1,'Thai Palace','[\"thai\",\"noodles\"]','cheap',4.5,120,'Palo Alto',"
    "   '[\"great curry\",\"slow service\"]','11:00','s'),"
    " (2,'Pizza Roma','[\"italian\",\"pizza\"]','moderate',4.0,80,'San Francisco',"
    "   '[\"best pizza in town\"]','12:30','s'),"
    " (3,'Cafe Blue','[\"coffee & tea\",\"cafe\"]','cheap',NULL,5,'Cupertino','[]','07:00','s'),"
    " (4,'sushi zen','[\"japanese\",\"sushi\",\"sushi\"]','expensive',4.8,200,'Palo Alto',"
    "   '[\"fresh fish\",\"pricey\"]','17:00','s'),"
    " (5,'Golden Wok',NULL,'cheap',3.5,NULL,'San Francisco',NULL,NULL,'s'),"
    " (6,'It''s 100% Thai_Food','[\"thai\"]','luxury',2.0,10,'Sunnyvale','[\"hmm\"]','14:00','s'),"
    " (7,'Star*Bar [x]','[\"bar\"]',NULL,3.0,3,'Sunnyvale','[\"ok\"]','20:00','s');"
    "INSERT INTO dishes VALUES (1,1,'Pad Thai',12.5,'[\"noodles\",\"spicy\"]'),"
    " (2,1,'Green Curry',14.0,'[\"spicy\"]'), (3,2,'Margherita',11.0,'[\"vegetarian\"]'),"
    " (4,4,'Nigiri',20.0,NULL), (5,99,'Orphan',1.0,'[]');";

int th_suql_open(th_suql_fx *f, const char *dbname, const char *extra_sql, int flags)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", th_tmpdir(), dbname);
    unlink(path);
    f->s = NULL;
    f->flags = flags;
    gn_err e;
    if (sqlite3_open(path, &f->db) || sqlite3_exec(f->db, th_suql_schema_sql, NULL, NULL, NULL) ||
        sqlite3_exec(f->db, th_suql_rows_sql, NULL, NULL, NULL) ||
        (extra_sql && sqlite3_exec(f->db, extra_sql, NULL, NULL, NULL))) {
        th_fail(__FILE__, __LINE__, "fixture: %s", sqlite3_errmsg(f->db));
        return -1;
    }
    if (st_schema_load(f->db, &f->s, &e) || ((flags & TH_SUQL_GUARD) && st_guard(f->db, &e))) {
        th_fail(__FILE__, __LINE__, "fixture: %s", e.msg);
        return -1;
    }
    if (suql_register_functions(f->db) != SQLITE_OK) {
        th_fail(__FILE__, __LINE__, "register: %s", sqlite3_errmsg(f->db));
        return -1;
    }
    return 0;
}

void th_suql_close(th_suql_fx *f)
{
    st_schema_free(f->s);
    sqlite3_close(f->db);
}

/* The rows of SQL on DB; a prepare error ends with ": SQL" when SHOW_SQL. */
static char *run(sqlite3 *db, const char *sql, int show_sql)
{
    gn_buf b;
    gn_buf_init(&b);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        gn_buf_printf(&b, "ERROR %s", sqlite3_errmsg(db));
        if (show_sql) gn_buf_printf(&b, ": %s", sql);
        return gn_buf_detach(&b);
    }
    int rc, row = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (row++) gn_buf_putc(&b, ';');
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            if (i) gn_buf_putc(&b, '|');
            const char *t = (const char *)sqlite3_column_text(st, i);
            gn_buf_puts(&b, t ? t : "NULL");
        }
    }
    if (rc != SQLITE_DONE) {
        gn_buf_reset(&b);
        gn_buf_printf(&b, "ERROR %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return gn_buf_detach(&b);
}

char *th_suql_sql_rows(sqlite3 *db, const char *sql)
{
    return run(db, sql, 0);
}

char *th_suql_rows(th_suql_fx *f, const char *text, const suql_emit_hooks *hooks)
{
    gn_buf b;
    gn_buf_init(&b);
    suql_query *q;
    gn_err e;
    int rc = suql_parse(text, &q, &e);
    if (!rc) {
        rc = suql_analyze(q, f->s, &e);
        if (!rc) rc = suql_emit_select(q, NULL, hooks, &b, &e);
        suql_query_free(q);
    }
    if (rc) {
        gn_buf_reset(&b);
        if (f->flags & TH_SUQL_NO_POSITION) gn_buf_printf(&b, "ERROR %s", e.msg);
        else gn_buf_printf(&b, "ERROR %d:%d %s", e.line, e.col, e.msg);
        return gn_buf_detach(&b);
    }
    char *r = run(f->db, b.data, 1);
    gn_buf_release(&b);
    return r;
}
