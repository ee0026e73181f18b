/*
 * test_suql_aggs.c — string_agg and array_agg with ORDER BY, DISTINCT and
 * FILTER inside the call (pgagg.c through emit_window.c), run on a small
 * SQLite database: the rows each query returns are the ones PostgreSQL 15
 * returned for the same data (collation C; an array prints as genie's JSON
 * where PostgreSQL writes {...}, a REAL as SQLite prints it, 4.0 where
 * PostgreSQL writes 4), and PostgreSQL's errors at its positions.
 */
#include "harness.h"
#include "suql_fixture.h"

#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PostgreSQL 15's rows for each query on the fixture. */
static const struct { const char *q, *want; } pg_cases[] = {
    { "SELECT string_agg(name, ', ' ORDER BY _id DESC) FROM restaurants WHERE _id < 4",
      "Cafe Blue, Pizza Roma, Thai Palace" },
    { "SELECT location, string_agg(name, '; ' ORDER BY rating DESC, name) FROM restaurants GROUP BY location ORDER BY location",
      "Cupertino|Cafe Blue;Palo Alto|sushi zen; Thai Palace;San Francisco|Pizza Roma; Golden Wok;"
      "Sunnyvale|Star*Bar [x]; It's 100% Thai_Food" },
    { "SELECT string_agg(name, ',' ORDER BY rating NULLS FIRST), string_agg(name, ',' ORDER BY rating DESC NULLS LAST) FROM restaurants",
      "Cafe Blue,It's 100% Thai_Food,Star*Bar [x],Golden Wok,Pizza Roma,Thai Palace,sushi zen|"
      "sushi zen,Thai Palace,Pizza Roma,Golden Wok,Star*Bar [x],It's 100% Thai_Food,Cafe Blue" },
    /* An enum key sorts in its declared order, NULL last ascending. */
    { "SELECT string_agg(name, ',' ORDER BY price, _id), string_agg(name, ',' ORDER BY price DESC, name) FROM restaurants",
      "Thai Palace,Cafe Blue,Golden Wok,Pizza Roma,sushi zen,It's 100% Thai_Food,Star*Bar [x]|"
      "Star*Bar [x],It's 100% Thai_Food,sushi zen,Pizza Roma,Cafe Blue,Golden Wok,Thai Palace" },
    { "SELECT string_agg(DISTINCT location, ', '), string_agg(DISTINCT location, ', ' ORDER BY location DESC) FROM restaurants",
      "Cupertino, Palo Alto, San Francisco, Sunnyvale|Sunnyvale, San Francisco, Palo Alto, Cupertino" },
    { "SELECT string_agg(DISTINCT location, ' | ') FILTER (WHERE rating > 3), count(*) FILTER (WHERE rating > 3) FROM restaurants",
      "Palo Alto | San Francisco|4" },
    { "SELECT array_agg(rating ORDER BY rating), array_agg(rating ORDER BY rating DESC) FROM restaurants",
      "[2.0,3.0,3.5,4.0,4.5,4.8,null]|[null,4.8,4.5,4.0,3.5,3.0,2.0]" },
    { "SELECT array_agg(DISTINCT price), array_agg(DISTINCT price ORDER BY price DESC) FROM restaurants",
      "[\"cheap\",\"moderate\",\"expensive\",\"luxury\",null]|[null,\"luxury\",\"expensive\",\"moderate\",\"cheap\"]" },
    { "SELECT array_agg(name ORDER BY num_reviews DESC) FILTER (WHERE location <> 'Cupertino') FROM restaurants",
      "[\"Golden Wok\",\"sushi zen\",\"Thai Palace\",\"Pizza Roma\",\"It's 100% Thai_Food\",\"Star*Bar [x]\"]" },
    /* Each value's own separator goes before it, except the first's. */
    { "SELECT string_agg(name, CASE WHEN _id % 2 = 0 THEN ' & ' ELSE ', ' END ORDER BY _id) FROM restaurants WHERE _id < 5",
      "Thai Palace & Pizza Roma, Cafe Blue & sushi zen" },
    { "SELECT string_agg(CASE WHEN _id > 2 THEN name END, ',' ORDER BY _id DESC) FROM restaurants WHERE _id < 6",
      "Golden Wok,sushi zen,Cafe Blue" },
    { "SELECT string_agg(name, ',' ORDER BY _id) FILTER (WHERE _id > 100), array_agg(name ORDER BY _id) FILTER (WHERE _id > 100), array_agg(DISTINCT name) FILTER (WHERE _id > 100) FROM restaurants",
      "NULL|NULL|NULL" },
    /* DISTINCT sorts and compares (value, separator) pairs. */
    { "SELECT string_agg(DISTINCT location, CASE WHEN rating > 4 THEN '+' ELSE '-' END) FROM restaurants",
      "Cupertino+Palo Alto-San Francisco-Sunnyvale" },
    { "SELECT price, array_agg(name ORDER BY name DESC) FROM restaurants GROUP BY price ORDER BY price",
      "cheap|[\"Thai Palace\",\"Golden Wok\",\"Cafe Blue\"];moderate|[\"Pizza Roma\"];expensive|[\"sushi zen\"];"
      "luxury|[\"It's 100% Thai_Food\"];NULL|[\"Star*Bar [x]\"]" },
    { "SELECT array_agg(price ORDER BY price DESC), string_agg(name, ', ' ORDER BY price) FROM dishes",
      "[20.0,14.0,12.5,11.0,1.0]|Orphan, Margherita, Pad Thai, Green Curry, Nigiri" },
    /* Text byte by byte (collation C), integers as numbers. */
    { "SELECT string_agg(name, ',' ORDER BY name), array_agg(num_reviews ORDER BY num_reviews) FROM restaurants",
      "Cafe Blue,Golden Wok,It's 100% Thai_Food,Pizza Roma,Star*Bar [x],Thai Palace,sushi zen|[3,5,10,80,120,200,null]" },
    { "SELECT string_agg(name, ',' ORDER BY length(name), name DESC) FROM restaurants",
      "sushi zen,Cafe Blue,Pizza Roma,Golden Wok,Thai Palace,Star*Bar [x],It's 100% Thai_Food" },
    { "SELECT array_agg(DISTINCT location ORDER BY location) FILTER (WHERE _id > 1), array_agg(DISTINCT rating ORDER BY rating DESC NULLS LAST) FROM restaurants",
      "[\"Cupertino\",\"Palo Alto\",\"San Francisco\",\"Sunnyvale\"]|[4.8,4.5,4.0,3.5,3.0,2.0,null]" },
    { "SELECT location, count(DISTINCT price), string_agg(DISTINCT name, '/' ORDER BY name) FROM restaurants GROUP BY location HAVING string_agg(name, ',' ORDER BY _id) LIKE '%a%' ORDER BY 1",
      "Cupertino|1|Cafe Blue;Palo Alto|2|Thai Palace/sushi zen;San Francisco|2|Golden Wok/Pizza Roma;"
      "Sunnyvale|1|It's 100% Thai_Food/Star*Bar [x]" },
    { "SELECT r.name, (SELECT string_agg(d.name, ', ' ORDER BY d.price DESC) FROM dishes d WHERE d.restaurant_id = r._id) FROM restaurants r WHERE r._id < 4 ORDER BY r._id",
      "Thai Palace|Green Curry, Pad Thai;Pizza Roma|Margherita;Cafe Blue|NULL" },
    /* Without ORDER BY or DISTINCT, and as a window function: SQLite's own. */
    { "SELECT string_agg(name, ',') OVER (ORDER BY _id) FROM restaurants WHERE _id < 4",
      "Thai Palace;Thai Palace,Pizza Roma;Thai Palace,Pizza Roma,Cafe Blue" },
};

TEST(suql_aggs_rows_as_postgresql)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "aggs.db", NULL, 0) == 0);
    for (size_t i = 0; i < sizeof pg_cases / sizeof *pg_cases; i++)
        TH_SUQL_ROWS(&f, pg_cases[i].q, NULL, pg_cases[i].want);
    th_suql_close(&f);
}

/* What PostgreSQL refuses, with its message and position. */
TEST(suql_aggs_errors)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "aggs.db", NULL, 0) == 0);
    TH_SUQL_ROWS(&f, "SELECT string_agg(DISTINCT name, ',' ORDER BY _id) FROM restaurants", NULL,
                 "ERROR 1:47 in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
    TH_SUQL_ROWS(&f, "SELECT array_agg(DISTINCT location ORDER BY upper(location)) FROM restaurants", NULL,
                 "ERROR 1:45 in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
    TH_SUQL_ROWS(&f, "SELECT string_agg(name, ',' ORDER BY _id) OVER () FROM restaurants", NULL,
                 "ERROR 1:8 aggregate ORDER BY is not implemented for window functions");
    TH_SUQL_ROWS(&f, "SELECT string_agg(DISTINCT name, ',') OVER () FROM restaurants", NULL,
                 "ERROR 1:8 DISTINCT is not implemented for window functions");
    th_suql_close(&f);
}

/* TEXT's one row on F's database, SQL as written ("a|b", or "ERROR msg"). */
static char *sql_row(th_suql_fx *f, const char *text)
{
    gn_buf b;
    gn_buf_init(&b);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(f->db, text, -1, &st, NULL) != SQLITE_OK) {
        gn_buf_printf(&b, "ERROR %s", sqlite3_errmsg(f->db));
        return gn_buf_detach(&b);
    }
    int rc = sqlite3_step(st);
    for (int i = 0; rc == SQLITE_ROW && i < sqlite3_column_count(st); i++) {
        if (i) gn_buf_putc(&b, '|');
        const char *t = (const char *)sqlite3_column_text(st, i);
        gn_buf_puts(&b, t ? t : "NULL");
    }
    if (rc != SQLITE_ROW) gn_buf_printf(&b, "ERROR %s", sqlite3_errmsg(f->db));
    sqlite3_finalize(st);
    return gn_buf_detach(&b);
}

#define SQL_ROW(f, text, want) do { char *r_ = sql_row(f, text); \
    if (strcmp(r_, want)) th_fail(__FILE__, __LINE__, "%s\n    gave     %s\n    expected %s", \
                                  text, r_, want); \
    free(r_); } while (0)

/* The aggregates themselves: SQLite's order across types, stable ties,
 * an empty string that is still a value, bad arguments. */
TEST(suql_aggs_functions)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "aggs.db", NULL, 0) == 0);
    const char *vals = "(VALUES ('a', 2), ('b', 1.5), ('c', 'x'), ('d', NULL), ('e', 2.0), "
                       "('f', X'00'), ('g', 10), ('h', 'X'))";
    char q[512];
    snprintf(q, sizeof q, "SELECT suql_string_agg(column1, '', 0, '+l', column2), "
             "suql_string_agg(column1, '', 0, '-f', column2) FROM %s", vals);
    SQL_ROW(&f, q, "baeghcfd|dfchgaeb");
    snprintf(q, sizeof q, "SELECT suql_string_agg(column1, '', 0, '+f', column2) FROM %s", vals);
    SQL_ROW(&f, q, "dbaeghcf");
    SQL_ROW(&f, "SELECT suql_string_agg(column1, '-', 1, '+l+l', column1, '-') FROM (VALUES ('b'), "
            "('a'), ('b'), (NULL), (''))", "-a-b");
    SQL_ROW(&f, "SELECT suql_string_agg(column1, ',', 0, '') FROM (VALUES (''))", "");
    SQL_ROW(&f, "SELECT suql_array_agg(json_quote(column1), 1, '-l', column1) FROM (VALUES (1), "
            "(NULL), (1), (NULL), (2))", "[2,1,null]");
    SQL_ROW(&f, "SELECT suql_array_agg(json(column1), 0, '') FROM (VALUES ('[1, 2]'), (NULL))",
            "[[1,2],null]");
    SQL_ROW(&f, "SELECT suql_string_agg('a', ',', 0, '+l') FROM restaurants",
            "ERROR internal error: bad arguments to an ordered aggregate");
    SQL_ROW(&f, "SELECT suql_array_agg(1, 0) FROM restaurants",
            "ERROR internal error: suql_array_agg takes at least 3 arguments");
    th_suql_close(&f);
}

/* sum, avg, min and max of intervals (pgstat.c's) and ARRAY(subquery):
 * PostgreSQL 15's rows for the same data. */
static const struct { const char *q, *want; } pg_iv_cases[] = {
    { "SELECT sum(opens - TIME '10:00'), avg(opens - TIME '10:00'), min(opens - TIME '10:00'), max(opens - TIME '10:00') FROM restaurants",
      "21:30:00|03:35:00|-03:00:00|10:00:00" },
    { "SELECT location, sum(opens - '09:00'::time), avg(opens - '09:00'::time), min(opens - '09:00'::time), max(opens - '09:00'::time) FROM restaurants GROUP BY location ORDER BY location",
      "Cupertino|-02:00:00|-02:00:00|-02:00:00|-02:00:00;Palo Alto|10:00:00|05:00:00|02:00:00|08:00:00;"
      "San Francisco|03:30:00|03:30:00|03:30:00|03:30:00;Sunnyvale|16:00:00|08:00:00|05:00:00|11:00:00" },
    { "SELECT sum(opens - TIME '10:00') FILTER (WHERE rating > 4), avg(opens - TIME '10:00') FILTER (WHERE _id > 100), max(opens - TIME '10:00') FILTER (WHERE _id > 100) FROM restaurants",
      "08:00:00|NULL|NULL" },
    { "SELECT _id, sum(opens - TIME '10:00') OVER (PARTITION BY location ORDER BY _id), avg(opens - TIME '10:00') OVER (ORDER BY _id), min(opens - TIME '10:00') OVER (PARTITION BY location) FROM restaurants ORDER BY _id",
      "1|01:00:00|01:00:00|01:00:00;2|02:30:00|01:45:00|02:30:00;3|-03:00:00|00:10:00|-03:00:00;"
      "4|08:00:00|01:52:30|01:00:00;5|02:30:00|01:52:30|02:30:00;6|04:00:00|02:18:00|04:00:00;"
      "7|14:00:00|03:35:00|04:00:00" },
    /* Fields add apart; avg spills a month's fraction into days of 30 and
     * a day's into hours. */
    { "SELECT avg(x), sum(x) FROM (SELECT CASE WHEN _id < 3 THEN INTERVAL '1 mon 1 day' ELSE INTERVAL '0' END AS x FROM restaurants) t",
      "8 days 20:34:17.179886|2 mons 2 days" },
    { "SELECT avg(x) FROM (SELECT CASE WHEN _id = 1 THEN INTERVAL '-1 mon 5 days -03:00' WHEN _id = 2 THEN INTERVAL '2 mons -40 days 01:00:00.5' ELSE INTERVAL '7 minutes' END AS x FROM restaurants WHERE _id < 4) t",
      "-1 days -16:37:39.833333" },
    /* Lengths compare (a month as 30 days); of equal ones the later wins. */
    { "SELECT min(x), max(x) FROM (SELECT CASE WHEN _id = 1 THEN INTERVAL '1 day' WHEN _id = 2 THEN INTERVAL '24:00:00' WHEN _id = 3 THEN INTERVAL '1 mon' ELSE INTERVAL '30 days' END AS x FROM restaurants WHERE _id < 5) t",
      "24:00:00|30 days" },
    { "SELECT sum(opens - TIME '10:00'), avg(opens - TIME '10:00'), min(opens - TIME '10:00') FROM restaurants WHERE _id > 100",
      "NULL|NULL|NULL" },
    { "SELECT ARRAY(SELECT name FROM restaurants ORDER BY name LIMIT 3)",
      "[\"Cafe Blue\",\"Golden Wok\",\"It's 100% Thai_Food\"]" },
    { "SELECT ARRAY(SELECT rating FROM restaurants ORDER BY _id), ARRAY(SELECT _id FROM restaurants WHERE _id > 100), ARRAY(SELECT opens FROM restaurants ORDER BY opens DESC NULLS LAST LIMIT 2)",
      "[4.5,4.0,null,4.8,3.5,2.0,3.0]|[]|[\"20:00\",\"17:00\"]" },
    { "SELECT r.name, ARRAY(SELECT d.name FROM dishes d WHERE d.restaurant_id = r._id ORDER BY d.price DESC) FROM restaurants r WHERE r._id < 4 ORDER BY r._id",
      "Thai Palace|[\"Green Curry\",\"Pad Thai\"];Pizza Roma|[\"Margherita\"];Cafe Blue|[]" },
    { "SELECT count(*) FROM restaurants WHERE _id = ANY (ARRAY(SELECT restaurant_id FROM dishes))", "3" },
    { "SELECT ARRAY(SELECT name, _id FROM restaurants)", "ERROR 1:8 subquery must return only one column (it returns 2)" },
};

TEST(suql_aggs_intervals_and_array_subquery)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "aggs.db", NULL, 0) == 0);
    for (size_t i = 0; i < sizeof pg_iv_cases / sizeof *pg_iv_cases; i++)
        TH_SUQL_ROWS(&f, pg_iv_cases[i].q, NULL, pg_iv_cases[i].want);
    /* Refused: a column of arrays (PostgreSQL's multidimensional array). */
    char *r = th_suql_rows(&f, "SELECT ARRAY(SELECT cuisines FROM restaurants)", NULL);
    CHECK(strstr(r, "ERROR 1:8 unsupported: ARRAY(subquery) of an array column") == r);
    free(r);
    SQL_ROW(&f, "SELECT suql_iv_sum(x) FROM (SELECT 'soon' AS x)",
            "ERROR invalid input syntax for type interval: \"soon\"");
    SQL_ROW(&f, "SELECT suql_iv_sum(x) FROM (SELECT '2147483647 days' AS x UNION ALL SELECT '1 day')",
            "ERROR interval out of range");
    th_suql_close(&f);
}
