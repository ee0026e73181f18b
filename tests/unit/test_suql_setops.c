/*
 * test_suql_setops.c — UNION, INTERSECT and EXCEPT (ALL too), window
 * functions, DISTINCT ON and aggregate FILTER through parse, analyze and
 * emit, run on a small SQLite database: the rows each query returns are
 * the ones PostgreSQL 15 returned for the same data (recorded below; a
 * REAL prints as SQLite prints it, 4.0 where PostgreSQL writes 4), and
 * PostgreSQL's errors for what it refuses, at its positions.
 */
#include "harness.h"
#include "suql_fixture.h"

#include "store/kb.h"
#include "suql/analyze.h"
#include "suql/emit.h"
#include "suql/engine.h"
#include "suql/parse.h"

#include <stdlib.h>
#include <string.h>

/* PostgreSQL 15's rows for each query on the fixture. */
static const struct { const char *q, *want; } pg_cases[] = {
    { "SELECT price FROM restaurants UNION ALL (SELECT price FROM restaurants INTERSECT SELECT 'cheap') ORDER BY 1",
      "cheap;cheap;cheap;cheap;moderate;expensive;luxury;NULL" },
    { "SELECT location FROM restaurants UNION SELECT name FROM dishes ORDER BY 1",
      "Cupertino;Green Curry;Margherita;Nigiri;Orphan;Pad Thai;Palo Alto;San Francisco;Sunnyvale" },
    { "SELECT location FROM restaurants UNION ALL SELECT location FROM restaurants WHERE rating > 4 ORDER BY 1 DESC LIMIT 3 OFFSET 1",
      "Sunnyvale;San Francisco;San Francisco" },
    { "SELECT location FROM restaurants INTERSECT SELECT location FROM restaurants WHERE price = 'cheap' ORDER BY location",
      "Cupertino;Palo Alto;San Francisco" },
    { "SELECT location FROM restaurants INTERSECT ALL SELECT location FROM restaurants WHERE _id <> 2 ORDER BY location",
      "Cupertino;Palo Alto;Palo Alto;San Francisco;Sunnyvale;Sunnyvale" },
    { "SELECT location FROM restaurants EXCEPT SELECT location FROM restaurants WHERE rating < 4 ORDER BY 1",
      "Cupertino;Palo Alto" },
    { "SELECT location FROM restaurants EXCEPT ALL SELECT location FROM restaurants WHERE rating >= 4 ORDER BY 1",
      "Cupertino;San Francisco;Sunnyvale;Sunnyvale" },
    { "SELECT price AS p FROM restaurants UNION SELECT price FROM restaurants WHERE _id = 1 ORDER BY p DESC",
      "NULL;luxury;expensive;moderate;cheap" },
    { "SELECT 1 AS n UNION SELECT 2 INTERSECT SELECT 2 ORDER BY n",
      "1;2" },
    { "(SELECT 1 AS n UNION SELECT 2) INTERSECT SELECT 2 ORDER BY n",
      "2" },
    { "(SELECT name, rating FROM restaurants ORDER BY rating DESC NULLS LAST LIMIT 2) UNION ALL (SELECT name, price FROM dishes ORDER BY price LIMIT 1) ORDER BY 2, 1",
      "Orphan|1.0;Thai Palace|4.5;sushi zen|4.8" },
    { "SELECT count(*) FROM (SELECT restaurant_id FROM dishes INTERSECT ALL SELECT _id FROM restaurants) AS s",
      "3" },
    { "WITH l AS (SELECT location FROM restaurants EXCEPT ALL SELECT 'Palo Alto') SELECT location, count(*) FROM l GROUP BY location ORDER BY 1",
      "Cupertino|1;Palo Alto|1;San Francisco|2;Sunnyvale|2" },
    { "SELECT name FROM restaurants WHERE _id IN (SELECT restaurant_id FROM dishes UNION SELECT 7) ORDER BY name",
      "Pizza Roma;Star*Bar [x];Thai Palace;sushi zen" },
    { "SELECT NULL::int AS x UNION SELECT 1 UNION SELECT NULL ORDER BY x DESC",
      "NULL;1" },
    { "SELECT _id, row_number() OVER (ORDER BY rating DESC, _id) FROM restaurants ORDER BY _id",
      "1|3;2|4;3|1;4|2;5|5;6|7;7|6" },
    { "SELECT _id, rank() OVER (ORDER BY rating), dense_rank() OVER (ORDER BY rating DESC) FROM restaurants ORDER BY _id",
      "1|5|3;2|4|4;3|7|1;4|6|2;5|3|5;6|1|7;7|2|6" },
    { "SELECT _id, location, count(*) OVER (PARTITION BY location), sum(num_reviews) OVER (PARTITION BY location ORDER BY _id) FROM restaurants ORDER BY _id",
      "1|Palo Alto|2|120;2|San Francisco|2|80;3|Cupertino|1|5;4|Palo Alto|2|320;5|San Francisco|2|80;6|Sunnyvale|2|10;7|Sunnyvale|2|13" },
    { "SELECT _id, sum(num_reviews) OVER (), min(rating) OVER (), max(rating) OVER () FROM restaurants WHERE rating IS NOT NULL ORDER BY _id LIMIT 2",
      "1|413|2.0|4.8;2|413|2.0|4.8" },
    { "SELECT _id, ntile(3) OVER (ORDER BY _id), lag(name) OVER (ORDER BY _id), lead(_id, 2, 0) OVER (ORDER BY _id) FROM restaurants ORDER BY _id",
      "1|1|NULL|3;2|1|Thai Palace|4;3|1|Pizza Roma|5;4|2|Cafe Blue|6;5|2|sushi zen|7;6|3|Golden Wok|0;7|3|It's 100% Thai_Food|0" },
    { "SELECT _id, rank() OVER (ORDER BY price) FROM restaurants ORDER BY 2, 1",
      "1|1;3|1;5|1;2|4;4|5;6|6;7|7" },
    { "SELECT _id, rank() OVER w, count(*) OVER (w ORDER BY _id) FROM restaurants WINDOW w AS (PARTITION BY location) ORDER BY _id",
      "1|1|1;2|1|1;3|1|1;4|1|2;5|1|2;6|1|1;7|1|2" },
    { "SELECT location, count(*), rank() OVER (ORDER BY count(*) DESC, location) FROM restaurants GROUP BY location ORDER BY 3",
      "Palo Alto|2|1;San Francisco|2|2;Sunnyvale|2|3;Cupertino|1|4" },
    { "SELECT _id FROM restaurants ORDER BY row_number() OVER (ORDER BY name DESC) LIMIT 3",
      "4;1;7" },
    { "SELECT DISTINCT ON (location) location, name FROM restaurants ORDER BY location, rating DESC NULLS LAST",
      "Cupertino|Cafe Blue;Palo Alto|sushi zen;San Francisco|Pizza Roma;Sunnyvale|Star*Bar [x]" },
    { "SELECT DISTINCT ON (price) price, name, rating FROM restaurants ORDER BY price DESC, rating",
      "NULL|Star*Bar [x]|3.0;luxury|It's 100% Thai_Food|2.0;expensive|sushi zen|4.8;moderate|Pizza Roma|4.0;cheap|Golden Wok|3.5" },
    { "SELECT DISTINCT ON (2) _id, location FROM restaurants ORDER BY 2, 1 DESC LIMIT 2 OFFSET 1",
      "4|Palo Alto;5|San Francisco" },
    { "SELECT DISTINCT ON (loc) location AS loc, count(*) FROM restaurants GROUP BY location, price ORDER BY loc, count(*) DESC",
      "Cupertino|1;Palo Alto|1;San Francisco|1;Sunnyvale|1" },
    { "SELECT count(*) FILTER (WHERE rating > 4), count(*), sum(num_reviews) FILTER (WHERE price = 'cheap') FROM restaurants",
      "2|7|125" },
    { "SELECT location, count(*) FILTER (WHERE rating >= 4) FROM restaurants GROUP BY location ORDER BY 1",
      "Cupertino|0;Palo Alto|2;San Francisco|1;Sunnyvale|0" },
    { "SELECT _id, count(*) FILTER (WHERE rating > 3) OVER (PARTITION BY location) FROM restaurants ORDER BY _id",
      "1|2;2|2;3|0;4|2;5|2;6|0;7|0" },
    { "SELECT max(rating ORDER BY name), count(*) FILTER (WHERE _id > 3) FROM restaurants",
      "4.8|4" },
};

TEST(suql_setops_rows_as_postgresql)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "setops.db", NULL, 0) == 0);
    for (size_t i = 0; i < sizeof pg_cases / sizeof *pg_cases; i++)
        TH_SUQL_ROWS(&f, pg_cases[i].q, NULL, pg_cases[i].want);
    th_suql_close(&f);
}

/* The output columns are named after the left operand's. */
TEST(suql_setops_names)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "setops.db", NULL, 0) == 0);
    const char *text = "SELECT name AS a, name FROM restaurants UNION SELECT location, 'x' "
                       "FROM restaurants ORDER BY 1 LIMIT 1";
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse(text, &q, &e) == 0);
    REQUIRE(suql_analyze(q, f.s, &e) == 0);
    REQUIRE(q->select->nrcols == 2);
    CHECK(!strcmp(q->select->rcols[0].name, "a"));
    CHECK(!strcmp(q->select->rcols[1].name, "name"));
    gn_buf sql;
    gn_buf_init(&sql);
    REQUIRE(suql_emit_select(q, NULL, NULL, &sql, &e) == 0);
    sqlite3_stmt *st;
    REQUIRE(sqlite3_prepare_v2(f.db, sql.data, -1, &st, NULL) == SQLITE_OK);
    CHECK(!strcmp(sqlite3_column_name(st, 0), "a"));
    CHECK(!strcmp(sqlite3_column_name(st, 1), "name"));
    sqlite3_finalize(st);
    gn_buf_release(&sql);
    CHECK(suql_rows_interact(q->select));
    suql_query_free(q);
    th_suql_close(&f);
}

/* What PostgreSQL refuses, with its message and position. */
TEST(suql_setops_errors)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "setops.db", NULL, 0) == 0);
    TH_SUQL_ROWS(&f, "SELECT name, location FROM restaurants UNION SELECT name FROM dishes", NULL,
                 "ERROR 1:53 each UNION query must have the same number of columns (2 and 1)");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants INTERSECT (SELECT name FROM dishes UNION SELECT 1, 2)", NULL,
                 "ERROR 1:78 each UNION query must have the same number of columns (1 and 2)");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants UNION SELECT name FROM dishes ORDER BY lower(name)", NULL,
                 "ERROR 1:69 invalid UNION/INTERSECT/EXCEPT ORDER BY clause: only result column names or "
                 "positions can be used, not expressions or functions (put the UNION in a subquery in "
                 "FROM to sort by more)");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants EXCEPT SELECT name FROM dishes ORDER BY rating", NULL,
                 "ERROR 1:70 unknown column 'rating' in the result of EXCEPT");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants UNION SELECT name FROM dishes ORDER BY 2", NULL,
                 "ERROR 1:69 ORDER BY position 2 is not in the select list (it has 1 column)");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants WHERE rank() OVER (ORDER BY rating) < 3", NULL,
                 "ERROR 1:36 window functions are not allowed in WHERE");
    TH_SUQL_ROWS(&f, "SELECT location FROM restaurants GROUP BY location HAVING row_number() OVER () > 1", NULL,
                 "ERROR 1:59 window functions are not allowed in HAVING");
    TH_SUQL_ROWS(&f, "SELECT row_number() FROM restaurants", NULL,
                 "ERROR 1:8 window function row_number requires an OVER clause");
    TH_SUQL_ROWS(&f, "SELECT lower(name) OVER () FROM restaurants", NULL,
                 "ERROR 1:8 OVER specified, but lower is not a window function nor an aggregate function");
    TH_SUQL_ROWS(&f, "SELECT sum(rank() OVER ()) FROM restaurants", NULL,
                 "ERROR 1:12 aggregate function calls cannot contain window function calls");
    TH_SUQL_ROWS(&f, "SELECT rank() OVER (ORDER BY row_number() OVER ()) FROM restaurants", NULL,
                 "ERROR 1:30 window functions are not allowed in window definitions");
    TH_SUQL_ROWS(&f, "SELECT count(DISTINCT name) OVER () FROM restaurants", NULL,
                 "ERROR 1:8 DISTINCT is not implemented for window functions");
    TH_SUQL_ROWS(&f, "SELECT sum(rating) OVER w FROM restaurants", NULL,
                 "ERROR 1:25 window \"w\" does not exist");
    TH_SUQL_ROWS(&f, "SELECT sum(rating) OVER (w PARTITION BY name) FROM restaurants WINDOW w AS (ORDER BY _id)", NULL,
                 "ERROR 1:25 cannot override PARTITION BY clause of window \"w\"");
    TH_SUQL_ROWS(&f, "SELECT count(*) FILTER (WHERE count(*) > 1) FROM restaurants", NULL,
                 "ERROR 1:31 aggregate functions are not allowed in FILTER (use HAVING, or a subquery)");
    TH_SUQL_ROWS(&f, "SELECT lower(name) FILTER (WHERE _id > 1) FROM restaurants", NULL,
                 "ERROR 1:8 FILTER specified, but lower is not an aggregate function");
    TH_SUQL_ROWS(&f, "SELECT DISTINCT ON (location) location, name FROM restaurants ORDER BY name, location", NULL,
                 "ERROR 1:21 SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
    TH_SUQL_ROWS(&f, "SELECT DISTINCT ON (location, price) name FROM restaurants ORDER BY location, name, price", NULL,
                 "ERROR 1:31 SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
    TH_SUQL_ROWS(&f, "SELECT sum(rating) OVER (ROWS 1 PRECEDING) FROM restaurants", NULL,
                 "ERROR 1:25 unsupported: window frame clauses (ROWS, RANGE, GROUPS)");
    /* Ordered string_agg/array_agg on every SQLite (test_suql_aggs.c). */
    TH_SUQL_ROWS(&f, "SELECT string_agg(name, ', ' ORDER BY _id DESC) FROM restaurants WHERE _id < 4", NULL,
                 "Cafe Blue, Pizza Roma, Thai Palace");
    th_suql_close(&f);
}

/* Every new form prints back to text that parses and prints the same. */
TEST(suql_setops_print_round_trip)
{
    static const char *const texts[] = {
        "SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v ORDER BY 1 DESC LIMIT 3",
        "(SELECT a FROM t UNION SELECT b FROM u) INTERSECT ALL SELECT c FROM v",
        "SELECT a FROM t EXCEPT (SELECT b FROM u EXCEPT SELECT c FROM v)",
        "(SELECT a FROM t ORDER BY a LIMIT 1) UNION SELECT 2 OFFSET 1",
        "SELECT rank() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST), count(*) OVER w, "
        "sum(x) OVER (w ORDER BY y) FROM t WINDOW w AS (PARTITION BY c), v AS ()",
        "SELECT count(*) FILTER (WHERE a > 1), string_agg(b, ',' ORDER BY c DESC) FROM t",
        "SELECT DISTINCT ON (a, b + 1) a, b FROM t ORDER BY a, b + 1, c",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        suql_query *q, *q2;
        gn_err e;
        REQUIRE(suql_parse(texts[i], &q, &e) == 0);
        gn_buf a, b;
        gn_buf_init(&a);
        gn_buf_init(&b);
        suql_print(q, &a);
        if (suql_parse(a.data, &q2, &e)) {
            th_fail(__FILE__, __LINE__, "%s\n    printed %s\n    does not parse: %s", texts[i],
                    a.data, e.msg);
        } else {
            suql_print(q2, &b);
            if (strcmp(a.data, b.data))
                th_fail(__FILE__, __LINE__, "%s\n    printed %s\n    then    %s", texts[i], a.data,
                        b.data);
            suql_query_free(q2);
        }
        if (strcmp(a.data, texts[i]))
            th_fail(__FILE__, __LINE__, "%s\n    printed %s", texts[i], a.data);
        gn_buf_release(&a);
        gn_buf_release(&b);
        suql_query_free(q);
    }
}
