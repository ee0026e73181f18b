/*
 * test_suql_analyze.c — name resolution and checks of SUQL queries
 * against a knowledge base's schema: unknown tables and columns with
 * suggestions and positions, hidden tables and columns, ambiguity, JOIN
 * USING, aliases in ORDER BY and GROUP BY, unnest, CTE and subquery
 * columns, correlated subqueries, the checks on answer() and summary(),
 * arrays compared with scalars, and the helpers suql_is_freetext,
 * suql_single_table and suql_target_name.
 */
#include "harness.h"
#include "suql_fixture.h"

#include "store/kb.h"
#include "suql/analyze.h"
#include "suql/parse.h"

#include <stdlib.h>
#include <unistd.h>

static st_schema *schema;

static const st_schema *fixture(void)
{
    if (schema) return schema;
    char path[600];
    snprintf(path, sizeof path, "%s/analyze.db", th_tmpdir());
    unlink(path);
    sqlite3 *db;
    gn_err e;
    if (sqlite3_open(path, &db) || sqlite3_exec(db, th_suql_schema_sql, NULL, NULL, NULL)) {
        sqlite3_close(db);
        return NULL;
    }
    if (st_schema_load(db, &schema, &e)) schema = NULL;
    sqlite3_close(db);
    return schema;
}

__attribute__((destructor)) static void fixture_free(void)
{
    st_schema_free(schema);
}

static const char *code_name(int code)
{
    static const char *const names[] = {
        "OK", "EUSAGE", "EIO", "EPARSE", "EDB", "ECORRUPT", "ENOTFOUND",
        "ENET", "ESTALE", "ELIMIT", "ECANCEL"
    };
    return code >= 0 && code < (int)(sizeof names / sizeof *names) ? names[code] : "?";
}

/* Parse and analyze TEXT: the query (caller frees) or NULL with the
 * error as "<code> <line>:<col> <message>" in MSG. */
static suql_query *analyzed(const char *text, char *msg, size_t size)
{
    suql_query *q;
    gn_err e;
    msg[0] = 0;
    const st_schema *s = fixture();
    if (!s) {
        snprintf(msg, size, "no fixture");
        return NULL;
    }
    int rc = suql_parse(text, &q, &e);
    if (!rc && (rc = suql_analyze(q, s, &e))) suql_query_free(q);
    if (rc) {
        snprintf(msg, size, "%s %d:%d %s", code_name(rc), e.line, e.col, e.msg);
        return NULL;
    }
    return q;
}

/* The query analyzes cleanly. */
#define OK(text) do { char m_[900]; suql_query *q_ = analyzed(text, m_, sizeof m_); \
    if (!q_) th_fail(__FILE__, __LINE__, "%s\n    gave %s", text, m_); \
    suql_query_free(q_); } while (0)

/* The query fails with exactly WANT ("<code> <line>:<col> <message>"). */
#define FAILS(text, want) do { char m_[900]; suql_query *q_ = analyzed(text, m_, sizeof m_); \
    if (q_) { th_fail(__FILE__, __LINE__, "%s\n    analyzed; expected %s", text, want); \
              suql_query_free(q_); } \
    else if (strcmp(m_, want)) th_fail(__FILE__, __LINE__, "%s\n    gave     %s\n    expected %s", \
                                       text, m_, want); } while (0)

TEST(suql_analyze_unknown_tables)
{
    FAILS("SELECT * FROM restaurant",
          "ENOTFOUND 1:15 unknown table 'restaurant' (did you mean 'restaurants'?)");
    FAILS("SELECT *\n  FROM dishs d",
          "ENOTFOUND 2:8 unknown table 'dishs' (did you mean 'dishes'?)");
    FAILS("SELECT * FROM hotels", "ENOTFOUND 1:15 unknown table 'hotels'");
    FAILS("SELECT r.name FROM restaurants r JOIN menus m ON m.rid = r._id",
          "ENOTFOUND 1:39 unknown table 'menus'");
    /* A CTE name is a candidate too. */
    FAILS("WITH cheap AS (SELECT * FROM restaurants) SELECT * FROM chaep",
          "ENOTFOUND 1:57 unknown table 'chaep' (did you mean 'cheap'?)");
}

/* Bookkeeping and ground-truth tables exist in the file, not for queries;
 * neither do columns the schema does not list. */
TEST(suql_analyze_hidden_tables_and_columns)
{
    FAILS("SELECT * FROM genie_columns", "ENOTFOUND 1:15 unknown table 'genie_columns'");
    FAILS("SELECT * FROM genie_meta", "ENOTFOUND 1:15 unknown table 'genie_meta'");
    FAILS("SELECT a FROM _truth_answers", "ENOTFOUND 1:15 unknown table '_truth_answers'");
    FAILS("SELECT name FROM restaurants WHERE _id IN (SELECT rowid FROM genie_meta)",
          "ENOTFOUND 1:62 unknown table 'genie_meta'");
    FAILS("SELECT * FROM sqlite_master", "ENOTFOUND 1:15 unknown table 'sqlite_master'");
    FAILS("SELECT secret FROM restaurants",
          "ENOTFOUND 1:8 unknown column 'secret' in restaurants");
    FAILS("SELECT rowid FROM restaurants", "ENOTFOUND 1:8 unknown column 'rowid' in restaurants");
    /* A CTE may take a hidden table's name: it is then the CTE. */
    OK("WITH genie_columns AS (SELECT name FROM restaurants) SELECT name FROM genie_columns");
}

TEST(suql_analyze_unknown_columns)
{
    FAILS("SELECT ratings FROM restaurants",
          "ENOTFOUND 1:8 unknown column 'ratings' in restaurants (did you mean 'rating'?)");
    FAILS("SELECT * FROM restaurants WHERE locaton = 'Palo Alto'",
          "ENOTFOUND 1:33 unknown column 'locaton' in restaurants (did you mean 'location'?)");
    FAILS("SELECT r.ratings FROM restaurants AS r",
          "ENOTFOUND 1:8 unknown column 'ratings' in restaurants AS r (did you mean 'rating'?)");
    FAILS("SELECT stars FROM restaurants", "ENOTFOUND 1:8 unknown column 'stars' in restaurants");
    FAILS("SELECT r.name FROM restaurants r JOIN dishes d ON d.restaurant = r._id",
          "ENOTFOUND 1:51 unknown column 'restaurant' in dishes AS d (did you mean 'restaurant_id'?)");
    FAILS("SELECT x.name FROM restaurants r",
          "ENOTFOUND 1:8 unknown table or alias 'x' in x.name");
    FAILS("SELECT rr.name FROM restaurants r",
          "ENOTFOUND 1:8 unknown table or alias 'rr' in rr.name (did you mean 'r'?)");
    FAILS("SELECT restaurants.name FROM restaurants r",
          "EPARSE 1:8 table restaurants is called r in this query: write r.name");
    FAILS("SELECT r FROM restaurants r", "EPARSE 1:8 'r' is a table, not a column: write r.<column>");
    FAILS("SELECT name", "ENOTFOUND 1:8 unknown column 'name'");
    /* Positions on later lines, in UTF-8 characters. */
    FAILS("SELECT 'é', name\nFROM restaurants\nWHERE ratng > 4",
          "ENOTFOUND 3:7 unknown column 'ratng' in restaurants (did you mean 'rating'?)");
    /* Columns match case-insensitively, as SQLite does. */
    OK("SELECT \"Name\" FROM restaurants");
}

TEST(suql_analyze_ambiguous_columns)
{
    FAILS("SELECT name FROM restaurants r JOIN dishes d ON d.restaurant_id = r._id",
          "EPARSE 1:8 column 'name' is ambiguous: it is in restaurants AS r and dishes AS d "
          "(qualify it, e.g. r.name)");
    FAILS("SELECT r.name FROM restaurants r, dishes d WHERE price > 3",
          "EPARSE 1:50 column 'price' is ambiguous: it is in restaurants AS r and dishes AS d "
          "(qualify it, e.g. r.price)");
    FAILS("SELECT 1 FROM restaurants, restaurants",
          "EPARSE 1:28 table name 'restaurants' is used twice in FROM (give one an alias)");
    OK("SELECT r1.name FROM restaurants r1 JOIN restaurants r2 ON r1.location = r2.location");
    /* USING and NATURAL merge the column: no longer ambiguous. */
    OK("SELECT _id, r.name FROM restaurants r JOIN dishes d USING (_id)");
    OK("SELECT _id, name, price FROM restaurants NATURAL JOIN dishes");
    FAILS("SELECT 1 FROM restaurants r JOIN dishes d USING (tags)",
          "EPARSE 1:15 column 'tags' of the join must appear exactly once on its left side");
}

static const suql_expr *target(const suql_query *q, int i)
{
    return q->select->targets[i].expr;
}

TEST(suql_analyze_annotations)
{
    char m[900];
    suql_query *q = analyzed("SELECT r.name, rating, d.tags, _id FROM restaurants r "
                             "LEFT JOIN dishes d USING (_id)", m, sizeof m);
    REQUIRE(q);
    const suql_from *j = q->select->from[0];
    REQUIRE(j->kind == SUQL_FROM_JOIN);
    CHECK_STR(j->left->rname, "r");
    CHECK_STR(j->left->rtab->name, "restaurants");
    CHECK_INT(j->left->nrcols, 9);
    CHECK_STR(j->right->rname, "d");
    CHECK_INT(j->nrusing, 1);
    const suql_expr *x = target(q, 0);
    CHECK_INT(x->rkind, SUQL_R_BASE);
    CHECK_STR(x->rtab->name, "restaurants");
    CHECK_STR(x->rcol->name, "name");
    CHECK(x->rfrom == j->left);
    CHECK_INT(x->vtype, SUQL_VT_TEXT);
    x = target(q, 1);
    CHECK_INT(x->vtype, SUQL_VT_REAL);
    CHECK(x->rfrom == j->left);
    x = target(q, 2);
    CHECK(x->varray);
    CHECK_STR(x->rtab->name, "dishes");
    x = target(q, 3);
    CHECK(x->rjoin == j);
    CHECK(x->rfrom == j->left);
    suql_query_free(q);

    q = analyzed("SELECT price FROM restaurants WHERE 'thai' = ANY (cuisines)", m, sizeof m);
    REQUIRE(q);
    x = q->select->where;
    CHECK_INT(x->vtype, SUQL_VT_BOOL);
    CHECK(x->r->varray);
    CHECK_INT(x->r->vtype, SUQL_VT_TEXT);
    CHECK_INT(x->r->rcol->nenum, 9);
    CHECK_STR(q->select->from[0]->rname, "restaurants");
    suql_query_free(q);
}

TEST(suql_analyze_select_aliases)
{
    char m[900];
    suql_query *q = analyzed("SELECT location AS city, count(*) AS n FROM restaurants "
                             "GROUP BY city ORDER BY n DESC, city, 2", m, sizeof m);
    REQUIRE(q);
    const suql_select *s = q->select;
    CHECK_INT(s->group[0]->rkind, SUQL_R_ALIAS);
    CHECK_INT(s->group[0]->rindex, 0);
    CHECK_INT(s->order[0].expr->rkind, SUQL_R_ALIAS);
    CHECK_INT(s->order[0].expr->rindex, 1);
    CHECK_INT(s->order[0].expr->vtype, SUQL_VT_INT);
    CHECK_INT(s->order[1].expr->rindex, 0);
    suql_query_free(q);
    /* GROUP BY prefers an input column; ORDER BY an output name. */
    q = analyzed("SELECT max(rating) AS price FROM restaurants GROUP BY price ORDER BY price", m, sizeof m);
    REQUIRE(q);
    CHECK_INT(q->select->group[0]->rkind, SUQL_R_BASE);
    CHECK_INT(q->select->order[0].expr->rkind, SUQL_R_ALIAS);
    suql_query_free(q);
    /* Derived names: count(*) is "count". */
    OK("SELECT location, count(*) FROM restaurants GROUP BY location ORDER BY count DESC");
    /* Aliases are not visible in WHERE, as in PostgreSQL. */
    /* PostgreSQL's grouping rules: what a grouped query reads outside
     * aggregates is grouped, also from inside a subquery. */
    FAILS("SELECT name, count(*) FROM restaurants GROUP BY location",
          "EPARSE 1:8 column \"name\" must appear in the GROUP BY clause or be used in an aggregate function");
    FAILS("SELECT r.location, (SELECT count(*) FROM dishes d WHERE d.restaurant_id = r._id) "
          "FROM restaurants r GROUP BY r.location",
          "EPARSE 1:75 subquery uses ungrouped column \"r._id\" from outer query");
    OK("SELECT r._id, r.name, (SELECT count(*) FROM dishes d WHERE d.restaurant_id = r._id) "
       "FROM restaurants r GROUP BY r._id");
    OK("SELECT lower(name), count(*) FROM restaurants r GROUP BY lower(r.name)");
    FAILS("SELECT DISTINCT name FROM restaurants ORDER BY rating",
          "EPARSE 1:48 for SELECT DISTINCT, ORDER BY expressions must appear in select list");
    FAILS("SELECT rating * 2 AS double FROM restaurants WHERE double > 8",
          "ENOTFOUND 1:52 unknown column 'double' in restaurants");
    FAILS("SELECT rating AS x, num_reviews AS x FROM restaurants ORDER BY x",
          "EPARSE 1:64 'x' is ambiguous: several select-list columns have that name");
    OK("SELECT name, name FROM restaurants ORDER BY name");
    FAILS("SELECT name FROM restaurants ORDER BY 2",
          "EPARSE 1:39 ORDER BY position 2 is not in the select list (it has 1 column)");
    OK("SELECT * FROM restaurants ORDER BY 9");
    FAILS("SELECT * FROM restaurants ORDER BY 10",
          "EPARSE 1:36 ORDER BY position 10 is not in the select list (it has 9 columns)");
    FAILS("SELECT location FROM restaurants GROUP BY 0",
          "EPARSE 1:43 GROUP BY position 0 is not in the select list (it has 1 column)");
}

TEST(suql_analyze_unnest)
{
    char m[900];
    suql_query *q = analyzed("SELECT single_review FROM restaurants AS r, unnest(reviews) AS single_review "
                             "WHERE answer(single_review, 'does it mention pork?') = 'Yes'", m, sizeof m);
    REQUIRE(q);
    const suql_expr *x = target(q, 0);
    CHECK_INT(x->rkind, SUQL_R_UNNEST);
    CHECK(!x->varray);
    CHECK_INT(x->vtype, SUQL_VT_TEXT);
    CHECK_STR(x->rcol->name, "reviews");
    CHECK_STR(x->rfrom->rname, "single_review");
    suql_query_free(q);
    OK("SELECT c.cuisine, cuisine FROM restaurants r, unnest(r.cuisines) AS c(cuisine)");
    OK("SELECT u FROM restaurants, unnest(cuisines) AS u WHERE u = 'thai'");
    OK("SELECT unnest FROM unnest(ARRAY['a', 'b'])");
    OK("SELECT t FROM restaurants r JOIN dishes d ON d.restaurant_id = r._id, unnest(d.tags) AS t");
    /* In the select list, as a whole target: FROM ..., unnest(x) AS unnest. */
    OK("SELECT unnest(cuisines) FROM restaurants");
    OK("SELECT * FROM restaurants WHERE 'thai' IN (SELECT unnest(cuisines))");
    FAILS("SELECT unnest(cuisines), unnest(cuisines) FROM restaurants",
          "EPARSE 1:26 unsupported: more than one unnest() in a select list (write FROM t, unnest(a) "
          "AS x, unnest(b) AS y)");
    FAILS("SELECT upper(unnest(cuisines)) FROM restaurants",
          "EPARSE 1:14 unnest() is only supported in FROM: write FROM t, unnest(cuisines) AS x");
    FAILS("SELECT x FROM restaurants, unnest(name) AS x",
          "EPARSE 1:35 unnest() needs an array; 'name' is TEXT");
    FAILS("SELECT x FROM restaurants, generate_series(1, 3) AS x",
          "EPARSE 1:28 unsupported in FROM: generate_series() (only unnest(array) AS x is)");
    FAILS("SELECT x FROM restaurants, unnest(cuisines) AS x(a, b)",
          "EPARSE 1:28 unnest() has 1 column but 2 names are given");
    /* unnest sees the items before it, not after. */
    FAILS("SELECT x FROM unnest(r.cuisines) AS x, restaurants r",
          "ENOTFOUND 1:22 unknown table or alias 'r' in r.cuisines");
}

TEST(suql_analyze_derived_columns)
{
    char m[900];
    suql_query *q = analyzed("WITH t AS (SELECT name AS n, cuisines, rating * 2 FROM restaurants) "
                             "SELECT n, \"?column?\" FROM t WHERE 'thai' = ANY (cuisines)", m, sizeof m);
    REQUIRE(q);
    const suql_expr *x = target(q, 0);
    CHECK_INT(x->rkind, SUQL_R_DERIVED);
    CHECK_STR(x->rcol->name, "name");     /* traced to the base column */
    CHECK_INT(x->rindex, 0);
    CHECK(q->select->from[0]->rcte == &q->select->ctes[0]);
    CHECK(q->select->from[0]->rtab == NULL);
    x = q->select->where->r;
    CHECK(x->varray);
    CHECK_STR(x->rcol->name, "cuisines");
    CHECK(target(q, 1)->rcol == NULL);
    CHECK_INT(target(q, 1)->vtype, SUQL_VT_REAL);
    suql_query_free(q);
    OK("WITH top(n, r) AS (SELECT name, rating FROM restaurants ORDER BY rating DESC LIMIT 10) "
       "SELECT n FROM top WHERE r > 4");
    OK("SELECT s.n, s.c FROM (SELECT name, count(*) FROM restaurants GROUP BY name) AS s(n, c)");
    OK("SELECT s.count FROM (SELECT count(*) FROM restaurants) AS s");
    OK("WITH a AS (SELECT _id FROM restaurants), b AS (SELECT _id FROM a) SELECT * FROM b");
    FAILS("WITH top(n, r) AS (SELECT name, rating FROM restaurants) SELECT rating FROM top",
          "ENOTFOUND 1:65 unknown column 'rating' in top");
    FAILS("SELECT n FROM (SELECT name FROM restaurants)",
          "EPARSE 1:15 subquery in FROM must have an alias");
    FAILS("SELECT * FROM (SELECT name FROM restaurants) AS s(a, b)",
          "EPARSE 1:16 the subquery has 1 column but 2 names are given");
    FAILS("WITH t(a, b) AS (SELECT name FROM restaurants) SELECT * FROM t",
          "EPARSE 1:6 WITH query 't' has 1 columns but 2 names are given");
    FAILS("WITH t AS (SELECT 1), t AS (SELECT 2) SELECT * FROM t",
          "EPARSE 1:23 WITH query name 't' is used twice");
    /* A CTE sees earlier CTEs only. */
    FAILS("WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a",
          "ENOTFOUND 1:26 unknown table 'b'");
    /* A subquery in FROM does not see its siblings (no LATERAL). */
    FAILS("SELECT 1 FROM restaurants r, (SELECT r.name) AS s",
          "ENOTFOUND 1:38 unknown table or alias 'r' in r.name");
}

TEST(suql_analyze_correlated_subqueries)
{
    char m[900];
    suql_query *q = analyzed(
        "SELECT r1.name FROM restaurants r1 WHERE r1.rating > (SELECT avg(r3.rating) "
        "FROM restaurants r3 WHERE r3.location = r1.location) AND EXISTS (SELECT 1 FROM dishes "
        "WHERE restaurant_id = _id)", m, sizeof m);
    REQUIRE(q);
    const suql_expr *w = q->select->where;
    const suql_expr *inner = w->args[0]->r->sub->where;
    CHECK_INT(inner->l->rdepth, 0);
    CHECK_INT(inner->r->rdepth, 1);
    CHECK_STR(inner->r->rfrom->rname, "r1");
    /* Unqualified _id: the innermost table that has one (dishes). */
    const suql_expr *e2 = w->args[1]->sub->where;
    CHECK_INT(e2->r->rdepth, 0);
    CHECK_STR(e2->r->rfrom->rname, "dishes");
    CHECK_INT(w->args[0]->r->vtype, SUQL_VT_REAL);
    suql_query_free(q);
    FAILS("SELECT name FROM restaurants WHERE rating > (SELECT rating, name FROM restaurants)",
          "EPARSE 1:46 subquery must return only one column (it returns 2)");
    FAILS("SELECT name FROM restaurants WHERE _id IN (SELECT * FROM dishes)",
          "EPARSE 1:44 subquery must return only one column (it returns 5)");
    OK("SELECT name FROM restaurants WHERE EXISTS (SELECT * FROM dishes)");
}

TEST(suql_analyze_freetext_arguments)
{
    OK("SELECT answer(reviews, 'q'), summary(reviews), answer(name || location, 'q'), "
       "summary(rating::text), answer(opens, 'q') FROM restaurants");
    FAILS("SELECT answer(rating, 'is it good?') FROM restaurants",
          "EPARSE 1:15 answer() reads text; 'rating' is REAL");
    FAILS("SELECT summary(num_reviews) FROM restaurants",
          "EPARSE 1:16 summary() reads text; 'num_reviews' is INT");
    FAILS("SELECT name FROM restaurants WHERE answer(rating + 1, 'q') = 'Yes'",
          "EPARSE 1:50 answer() reads text; rating + 1 is REAL");
    FAILS("SELECT answer(reviews, name) FROM restaurants",
          "EPARSE 1:24 the question of answer() must be a string literal");
    FAILS("SELECT answer(reviews, 'a' || 'b') FROM restaurants",
          "EPARSE 1:28 the question of answer() must be a string literal");
    FAILS("SELECT answer(revews, 'q') FROM restaurants",
          "ENOTFOUND 1:15 unknown column 'revews' in restaurants (did you mean 'reviews'?)");
}

TEST(suql_analyze_arrays_and_scalars)
{
    FAILS("SELECT * FROM restaurants WHERE cuisines = 'thai'",
          "EPARSE 1:42 cuisines is an array: write 'thai' = ANY (cuisines)");
    FAILS("SELECT * FROM restaurants WHERE 'thai' <> cuisines",
          "EPARSE 1:40 cuisines is an array: write 'thai' <> ALL (cuisines)");
    FAILS("SELECT * FROM restaurants WHERE cuisines > 'a'",
          "EPARSE 1:42 cuisines is an array: compare its elements, e.g. 'a' > ANY (cuisines)");
    FAILS("SELECT * FROM restaurants WHERE 'thai' = ANY (location)",
          "EPARSE 1:47 ANY (location) needs an array; 'location' is TEXT");
    FAILS("SELECT * FROM restaurants WHERE 5 <> ALL (num_reviews)",
          "EPARSE 1:43 ALL (num_reviews) needs an array; 'num_reviews' is INT");
    FAILS("SELECT * FROM restaurants WHERE cuisines = ANY (reviews)",
          "EPARSE 1:33 = ANY (...) compares one value with each element; 'cuisines' is an array");
    FAILS("SELECT * FROM restaurants WHERE cuisines @> 'thai'",
          "EPARSE 1:45 @> compares two arrays; 'thai' is TEXT (write ARRAY['thai'])");
    FAILS("SELECT * FROM restaurants WHERE cuisines ILIKE '%thai%'",
          "EPARSE 1:42 cuisines is an array: ILIKE does not apply to arrays (compare its "
          "elements with ANY (cuisines))");
    FAILS("SELECT * FROM restaurants WHERE cuisines IN ('thai')",
          "EPARSE 1:42 cuisines is an array: IN does not apply to arrays (compare its elements "
          "with ANY (cuisines))");
    /* Arrays order element by element, as in PostgreSQL. */
    OK("SELECT * FROM restaurants WHERE cuisines < ARRAY['a']");
    OK("SELECT * FROM restaurants WHERE cuisines <> ARRAY['american'] AND cuisines = reviews "
       "AND cuisines IS NOT NULL AND cuisines::text ILIKE '%thai%' AND cuisines @> ARRAY['thai'] "
       "AND ARRAY['a'] <@ cuisines AND cuisines && reviews AND name = ANY (ARRAY['a', 'b']) "
       "AND 'x' LIKE ANY (cuisines) AND rating > ANY (SELECT rating FROM restaurants)");
}

TEST(suql_analyze_other_checks)
{
    FAILS("SELECT name FROM restaurants WHERE count(*) > 2",
          "EPARSE 1:36 aggregate functions are not allowed in WHERE (use HAVING, or a subquery)");
    FAILS("SELECT location FROM restaurants GROUP BY count(*)",
          "EPARSE 1:43 aggregate functions are not allowed in GROUP BY (use HAVING, or a subquery)");
    FAILS("SELECT max(count(*)) FROM restaurants",
          "EPARSE 1:12 aggregate function calls cannot be nested");
    FAILS("SELECT st_distance_sphere(location, 'x') FROM restaurants",
          "EPARSE 1:8 unknown function 'st_distance_sphere'");
    FAILS("SELECT lowr(name) FROM restaurants",
          "EPARSE 1:8 unknown function 'lowr' (did you mean 'lower'?)");
    FAILS("SELECT load_extension('evil.so')", "EPARSE 1:8 unknown function 'load_extension'");
    FAILS("SELECT round(rating, 1, 2) FROM restaurants",
          "EPARSE 1:8 round() takes 1 or 2 arguments (got 3)");
    FAILS("SELECT upper() FROM restaurants", "EPARSE 1:8 upper() takes 1 argument (got 0)");
    FAILS("SELECT lower(DISTINCT name) FROM restaurants",
          "EPARSE 1:8 lower(DISTINCT ...) is not supported: not an aggregate");
    FAILS("SELECT sum(*) FROM restaurants",
          "EPARSE 1:8 sum(*) is not a function call: only count(*) is");
    FAILS("SELECT date_part('fortnight', opens) FROM restaurants",
          "EPARSE 1:18 date_part takes a field name: year, quarter, month, week, day, hour, "
          "minute, second, dow, isodow, doy, epoch, ...");
    FAILS("SELECT name FROM restaurants LIMIT -1", "EPARSE 1:36 LIMIT must not be negative");
    FAILS("SELECT name FROM restaurants LIMIT name", "ENOTFOUND 1:36 unknown column 'name'");
    FAILS("SELECT *", "EPARSE 1:8 SELECT * needs a FROM clause");
    FAILS("SELECT x.* FROM restaurants", "ENOTFOUND 1:8 unknown table or alias 'x' in x.*");
    OK("SELECT 1 + 2, 'a' || 'b', NULL, TRUE");
    OK("SELECT count(*), count(DISTINCT location), string_agg(name, ', '), array_agg(name) "
       "FROM restaurants");
    OK("SELECT name FROM restaurants LIMIT ALL OFFSET 2");
}

TEST(suql_analyze_reanalyze)
{
    char m[900];
    suql_query *q = analyzed("SELECT name FROM restaurants ORDER BY name", m, sizeof m);
    REQUIRE(q);
    gn_err e;
    CHECK_INT(suql_analyze(q, fixture(), &e), 0);
    CHECK_INT(q->select->order[0].expr->rkind, SUQL_R_ALIAS);
    CHECK_INT(target(q, 0)->rkind, SUQL_R_BASE);
    CHECK_INT(suql_analyze(NULL, fixture(), &e), GN_EUSAGE);
    suql_query_free(q);
}

TEST(suql_analyze_helpers)
{
    char m[900];
    suql_query *q = analyzed("SELECT name, summary(reviews) FROM restaurants r WHERE rating > 4 "
                             "AND EXISTS (SELECT 1 FROM dishes WHERE answer(name, 'q') = 'Yes')",
                             m, sizeof m);
    REQUIRE(q);
    const char *alias = NULL;
    const st_table *t = suql_single_table(q->select, &alias);
    REQUIRE(t);
    CHECK_STR(t->name, "restaurants");
    CHECK_STR(alias, "r");
    CHECK(!suql_is_freetext(target(q, 0)));
    CHECK(suql_is_freetext(target(q, 1)));
    CHECK(!suql_is_freetext(q->select->where->args[0]));
    CHECK(suql_is_freetext(q->select->where->args[1]));   /* inside a subquery */
    CHECK(suql_is_freetext(q->select->where));
    CHECK(!suql_is_freetext(NULL));
    suql_query_free(q);
    static const char *const multi[] = {
        "SELECT 1 FROM restaurants r JOIN dishes d ON d.restaurant_id = r._id",
        "SELECT 1 FROM restaurants, dishes",
        "SELECT 1 FROM restaurants, unnest(cuisines) AS c",
        "SELECT 1 FROM (SELECT * FROM restaurants) AS s",
        "WITH c AS (SELECT * FROM restaurants) SELECT 1 FROM c",
        "SELECT 1",
    };
    for (size_t i = 0; i < sizeof multi / sizeof *multi; i++) {
        q = analyzed(multi[i], m, sizeof m);
        if (!q) {
            th_fail(__FILE__, __LINE__, "%s: %s", multi[i], m);
            continue;
        }
        if (suql_single_table(q->select, &alias)) th_fail(__FILE__, __LINE__, "single: %s", multi[i]);
        suql_query_free(q);
    }
    q = analyzed("SELECT 1 FROM restaurants", m, sizeof m);
    REQUIRE(q);
    CHECK(suql_single_table(q->select, NULL) != NULL);
    suql_query_free(q);
}

TEST(suql_analyze_target_names)
{
    static const struct { const char *q, *names; } cases[] = {
        { "SELECT name, r.rating AS stars, (SELECT count(*) FROM restaurants), summary(reviews), answer(reviews, 'q'), "
          "rating::int, '5'::int, 1 + 2, CASE WHEN TRUE THEN 1 END, COALESCE(name, ''), "
          "EXISTS (SELECT 1), (SELECT max(rating) FROM restaurants), ARRAY[1], TRUE, *"
          " FROM restaurants r",
          "name,stars,count,summary,answer,rating,int4,?column?,case,coalesce,exists,max,array,"
          "bool,*" },
    };
    char m[900];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        suql_query *q = analyzed(cases[i].q, m, sizeof m);
        if (!q) {
            th_fail(__FILE__, __LINE__, "%s: %s", cases[i].q, m);
            continue;
        }
        gn_buf b;
        gn_buf_init(&b);
        for (int j = 0; j < q->select->ntargets; j++)
            gn_buf_printf(&b, "%s%s", j ? "," : "", suql_target_name(&q->select->targets[j]));
        CHECK_STR(b.data, cases[i].names);
        gn_buf_release(&b);
        suql_query_free(q);
    }
}

typedef struct { gn_buf names; } walk_acc;

static void walk_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    walk_acc *w = ud;
    gn_buf_printf(&w->names, "%s%s.%s%s", w->names.len ? "," : "", item->rname,
                  item->rcols[index].name, join ? "(merged)" : "");
}

/* SELECT * over a USING join lists the merged column once, first. */
TEST(suql_analyze_star_walk)
{
    char m[900];
    suql_query *q = analyzed("SELECT * FROM (SELECT _id, name FROM restaurants) AS a "
                             "JOIN (SELECT _id, price FROM dishes) AS b USING (_id), "
                             "unnest(ARRAY['x']) AS u", m, sizeof m);
    REQUIRE(q);
    walk_acc w;
    gn_buf_init(&w.names);
    suql_star_walk(q->select, target(q, 0), walk_fn, &w);
    CHECK_STR(w.names.data, "a._id(merged),a.name,b.price,u.u");
    gn_buf_release(&w.names);
    suql_query_free(q);
}

/* The sample knowledge bases: their real schemas resolve. */
TEST(suql_analyze_sample_courses)
{
    sqlite3 *db;
    gn_err e;
    st_schema *s;
    if (st_open(th_path("sample_db/courses.db"), 0, &db, &e)) {
        th_fail(__FILE__, __LINE__, "courses.db: %s", e.msg);
        return;
    }
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    static const char *const ok[] = {
        "SELECT c.title, o.quarter, r.average_rating FROM courses c JOIN offerings o "
        "ON o.course_id = c.course_id JOIN ratings r ON r.course_id = c.course_id "
        "WHERE 'Letter' = ANY (c.grading_options) AND o.start_time >= '10:00' "
        "AND answer(r.reviews, 'is it easy?') = 'Yes' ORDER BY r.average_rating DESC LIMIT 3",
        "SELECT title, summary(description) FROM courses WHERE course_id IN "
        "(SELECT course_id FROM offerings WHERE 'Mark Petrov' = ANY (instructors))",
        "SELECT name FROM programs WHERE answer(requirements, 'does it need CS 229?') = 'Yes'",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        suql_query *q;
        if (suql_parse(ok[i], &q, &e) || suql_analyze(q, s, &e))
            th_fail(__FILE__, __LINE__, "%s: %d:%d %s", ok[i], e.line, e.col, e.msg);
        else suql_query_free(q);
    }
    suql_query *q;
    REQUIRE(suql_parse("SELECT course_id FROM courses c JOIN ratings r ON r.course_id = c.course_id",
                       &q, &e) == 0);
    CHECK_INT(suql_analyze(q, s, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "column 'course_id' is ambiguous: it is in courses AS c and ratings AS r");
    suql_query_free(q);
    REQUIRE(suql_parse("SELECT * FROM _truth_course_attrs", &q, &e) == 0);
    CHECK_INT(suql_analyze(q, s, &e), GN_ENOTFOUND);
    suql_query_free(q);
    st_schema_free(s);
    sqlite3_close(db);
}
