/*
 * test_suql_emit.c — SUQL compiled to SQLite SQL: the golden cases of
 * tests/suql/emit.golden (SUQL -> SQL, each also prepared on a fixture
 * database), then the SQL run on that database and its rows compared with
 * what PostgreSQL returns for the query (arrays, LIKE and ILIKE, casts,
 * NULL ordering, LIMIT/OFFSET, unnest, grouping, subqueries, CTEs, joins,
 * the map_literal and freetext hooks, injection attempts), and the SUQL
 * paper's 100 restaurant queries through parse, analyze, emit and prepare
 * on sample_db/restaurants.db.
 */
#include "corpus.h"
#include "golden.h"
#include "harness.h"
#include "suql_fixture.h"

#include "store/kb.h"
#include "suql/analyze.h"
#include "suql/emit.h"
#include "suql/parse.h"

#include <stdlib.h>

/* ---- fixture -------------------------------------------------------- */

/* suql_answer stub: 'Yes' when the value contains the question, else
 * 'No'; a question starting with '#' gives the value's length. */
static void stub_answer(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    const char *val = (const char *)sqlite3_value_text(v[0]);
    const char *q = (const char *)sqlite3_value_text(v[1]);
    if (!val || !q) {
        sqlite3_result_null(c);
        return;
    }
    if (q[0] == '#') {
        char buf[32];
        snprintf(buf, sizeof buf, "%d tables", (int)strlen(val));
        sqlite3_result_text(c, buf, -1, SQLITE_TRANSIENT);
        return;
    }
    sqlite3_result_text(c, strstr(val, q) ? "Yes" : "No", -1, SQLITE_STATIC);
}

static void stub_summary(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    const char *val = (const char *)sqlite3_value_text(v[0]);
    if (!val) sqlite3_result_null(c);
    else sqlite3_result_text(c, "a summary", -1, SQLITE_STATIC);
}

static void register_stubs(sqlite3 *db)
{
    sqlite3_create_function(db, "suql_answer", 2, SQLITE_UTF8, NULL, stub_answer, NULL, NULL);
    sqlite3_create_function(db, "suql_summary", 1, SQLITE_UTF8, NULL, stub_summary, NULL, NULL);
}

/* The shared schema and rows (suql_fixture.h) plus a genie_meta row, the
 * connection guarded, with the stubs. */
static int fx_open(th_suql_fx *f)
{
    if (th_suql_open(f, "emit.db", "INSERT INTO genie_meta VALUES ('k','v');", TH_SUQL_GUARD))
        return -1;
    register_stubs(f->db);
    return 0;
}

/* ---- hooks used by the tests ---------------------------------------- */

typedef struct hook_log {
    int calls;
    gn_buf seen;             /* "col:literal;" per map_literal call */
} hook_log;

static int test_map(const suql_expr *col, const char *lit, void *ud, const char *const **vals,
                    int *n, gn_err *e)
{
    static const char *const coffee[] = { "coffee & tea", "cafe" };
    static const char *const asian[] = { "thai", "japanese", "chinese" };
    static const char *const cheap[] = { "cheap" };
    hook_log *log = ud;
    if (log) {
        log->calls++;
        gn_buf_printf(&log->seen, "%s:%s;", col->rcol ? col->rcol->name : "?", lit);
    }
    if (!col->rcol || !col->rcol->nenum) return 0;
    if (!strcmp(lit, "coffee")) { *vals = coffee; *n = 2; return 1; }
    if (!strcmp(lit, "asian")) { *vals = asian; *n = 3; return 1; }
    if (!strcmp(lit, "inexpensive")) { *vals = cheap; *n = 1; return 1; }
    if (!strcmp(lit, "nothing")) { *vals = NULL; *n = 0; return 1; }
    if (!strcmp(lit, "offline")) {
        gn_err_set(e, GN_ENET, "classifier offline");
        return -GN_ENET;
    }
    return 0;
}

/* answer() and summary() as the literals a planner would have computed. */
static int test_freetext(const suql_expr *x, void *ud, gn_buf *out, gn_err *e)
{
    (void)ud;
    (void)e;
    gn_buf b;
    gn_buf_init(&b);
    if (x->kind == SUQL_E_ANSWER) gn_buf_printf(&b, "A:%s", x->args[1]->text);
    else gn_buf_puts(&b, "S");
    suql_emit_string(b.data, out);
    gn_buf_release(&b);
    return 0;
}

static const suql_emit_hooks map_hooks = { NULL, test_map, NULL };

/* ---- running queries ------------------------------------------------ */

static const char *code_name(int code)
{
    static const char *const names[] = {
        "OK", "EUSAGE", "EIO", "EPARSE", "EDB", "ECORRUPT", "ENOTFOUND",
        "ENET", "ESTALE", "ELIMIT", "ECANCEL"
    };
    return code >= 0 && code < (int)(sizeof names / sizeof *names) ? names[code] : "?";
}

/* The SQL for TEXT (0), or the error as "ERROR <code> <l>:<c> <msg>" in
 * OUT (the code returned). */
static int compile(const st_schema *s, const char *text, const suql_emit_hooks *h, gn_buf *out)
{
    suql_query *q;
    gn_err e;
    int rc = suql_parse(text, &q, &e);
    if (!rc) {
        rc = suql_analyze(q, s, &e);
        if (!rc) rc = suql_emit_select(q, NULL, h, out, &e);
        suql_query_free(q);
    }
    if (rc) {
        gn_buf_reset(out);
        gn_buf_printf(out, "ERROR %s %d:%d %s", code_name(rc), e.line, e.col, e.msg);
    }
    return rc;
}

/* Prepare SQL: NULL when it is one statement that prepares, else why. */
static char *prepare_error(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    const char *tail = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK)
        return strdup(sqlite3_errmsg(db));
    sqlite3_finalize(st);
    if (tail && *tail) return strdup("more than one statement");
    return NULL;
}


/* ---- golden cases --------------------------------------------------- */


/* tests/suql/emit.golden: each case gives its recorded SQL (or error),
 * and the SQL prepares on the fixture as one statement.  A comment line
 * "# hooks: map freetext" turns the test hooks on for its case.
 * GENIE_UPDATE_GOLDEN=1 rewrites the outcomes (then review the diff). */
TEST(suql_emit_golden)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    const char *path = th_path("tests/suql/emit.golden");
    th_gcase *v;
    int n = th_golden_load(path, &v);
    CHECK(n >= 80);
    gn_buf regen;
    gn_buf_init(&regen);
    int ok = 0, errors = 0, update = getenv("GENIE_UPDATE_GOLDEN") != NULL;
    for (int i = 0; i < n; i++) {
        suql_emit_hooks h = { NULL, NULL, NULL };
        const char *hooks = strstr(v[i].head, "\n# hooks:");
        if (!hooks && !strncmp(v[i].head, "# hooks:", 8)) hooks = v[i].head;
        if (hooks) {
            size_t n_ = strcspn(hooks + 1, "\n");
            if (memmem(hooks, n_ + 1, "map", 3)) h.map_literal = test_map;
            if (memmem(hooks, n_ + 1, "freetext", 8)) h.freetext = test_freetext;
        }
        gn_buf sql;
        gn_buf_init(&sql);
        int rc = compile(f.s, v[i].query, &h, &sql);
        if (!update && strcmp(sql.data, v[i].expect))
            th_fail(__FILE__, __LINE__,
                    "golden case %d (line %d):\n    %s\n  gave\n    %s\n  expected\n    %s",
                    i + 1, v[i].line, v[i].query, sql.data, v[i].expect);
        if (rc) {
            errors++;
        } else {
            ok++;
            char *why = prepare_error(f.db, sql.data);
            if (why) th_fail(__FILE__, __LINE__, "golden case %d (line %d) does not prepare: %s\n    %s",
                             i + 1, v[i].line, why, sql.data);
            free(why);
        }
        if (update) th_golden_append(&regen, path, i, &v[i], sql.data);
        gn_buf_release(&sql);
    }
    CHECK(ok >= 60);
    CHECK(errors >= 10);
    if (update && n >= 0) {
        FILE *out = fopen(path, "w");
        REQUIRE(out);
        fputs(regen.data, out);
        fclose(out);
    }
    gn_buf_release(&regen);
    th_golden_free(v, n);
    th_suql_close(&f);
}

/* ---- execution: PostgreSQL's answers on the fixture ------------------ */

TEST(suql_emit_run_any_over_arrays)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    const char *sel = "SELECT _id FROM restaurants WHERE ";
    char q[512];
#define W(cond, want) do { snprintf(q, sizeof q, "%s%s ORDER BY _id", sel, cond); \
                           TH_SUQL_ROWS(&f, q, NULL, want); } while (0)
    W("'thai' = ANY (cuisines)", "1;6");
    W("'sushi' = ANY (cuisines)", "4");
    W("NOT 'thai' = ANY (cuisines)", "2;3;4;5;7");   /* NULL array: false, not NULL */
    W("'thai' <> ALL (cuisines)", "2;3;4;7");         /* PostgreSQL drops the NULL array */
    W("'sushi' <> ANY (cuisines)", "1;2;3;4;6;7");
    W("'sushi' = ALL (ARRAY['sushi', 'sushi'])", "1;2;3;4;5;6;7");
    W("'m' < ANY (cuisines)", "1;2;4;6");
    W("'%u%' LIKE ANY (cuisines)", "");
    W("name = ANY (ARRAY['Cafe Blue', 'Pizza Roma'])", "2;3");
    W("name <> ALL (ARRAY['Cafe Blue', 'Pizza Roma'])", "1;4;5;6;7");
    W("name ILIKE ANY (ARRAY['%thai%', '%wok%'])", "1;5;6");
    W("name LIKE ANY (ARRAY['%thai%', '%Wok%'])", "5");
    W("rating > ALL (SELECT rating FROM restaurants WHERE location = 'Palo Alto')", "");
    W("rating >= ALL (SELECT rating FROM restaurants WHERE location = 'Palo Alto')", "4");
    W("rating > ANY (SELECT rating FROM restaurants WHERE location = 'San Francisco')", "1;2;4");
    W("_id = ANY (SELECT restaurant_id FROM dishes)", "1;2;4");
    W("_id <> ALL (SELECT restaurant_id FROM dishes)", "3;5;6;7");
    W("EXISTS (SELECT 1 FROM dishes d WHERE d.restaurant_id = restaurants._id "
      "AND 'spicy' = ANY (d.tags))", "1");
    /* Through map_literal: 'asian' stands for thai, japanese, chinese. */
    snprintf(q, sizeof q, "%s'asian' = ANY (cuisines) ORDER BY _id", sel);
    TH_SUQL_ROWS(&f, q, &map_hooks, "1;4;6");
    snprintf(q, sizeof q, "%s'asian' <> ALL (cuisines) ORDER BY _id", sel);
    TH_SUQL_ROWS(&f, q, &map_hooks, "2;3;7");
    snprintf(q, sizeof q, "%s'nothing' = ANY (cuisines) ORDER BY _id", sel);
    TH_SUQL_ROWS(&f, q, &map_hooks, "");
    snprintf(q, sizeof q, "%s'nothing' <> ALL (cuisines) ORDER BY _id", sel);
    TH_SUQL_ROWS(&f, q, &map_hooks, "1;2;3;4;6;7");
    snprintf(q, sizeof q, "%s'thai' = ANY (cuisines) ORDER BY _id", sel);
    TH_SUQL_ROWS(&f, q, &map_hooks, "1;6");   /* kept as written */
#undef W
    th_suql_close(&f);
}

TEST(suql_emit_run_array_operators)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    const char *sel = "SELECT _id FROM restaurants WHERE ";
    char q[512];
#define W(cond, h, want) do { snprintf(q, sizeof q, "%s%s ORDER BY _id", sel, cond); \
                              TH_SUQL_ROWS(&f, q, h, want); } while (0)
    W("cuisines @> ARRAY['sushi']", NULL, "4");
    W("cuisines @> ARRAY['japanese', 'sushi']", NULL, "4");
    W("cuisines @> ARRAY['sushi', 'sushi', 'japanese']", NULL, "4");   /* duplicates on both sides */
    W("cuisines @> ARRAY['thai', 'noodles']", NULL, "1");
    W("cuisines @> ARRAY['thai', 'pizza']", NULL, "");
    W("cuisines @> ARRAY[]::text[]", NULL, "1;2;3;4;6;7");
    W("ARRAY['thai'] <@ cuisines", NULL, "1;6");
    W("cuisines && ARRAY['pizza', 'sushi']", NULL, "2;4");
    W("cuisines && ARRAY['burgers']", NULL, "");
    W("cuisines <@ ARRAY['thai', 'noodles']", NULL, "1;6");
    W("cuisines <@ ARRAY['sushi', 'japanese', 'bar']", NULL, "4;7");
    W("ARRAY['thai', 'noodles', 'bar'] @> cuisines", NULL, "1;6;7");
    W("cuisines && reviews", NULL, "");
    W("cuisines = ARRAY['thai']", NULL, "6");
    W("cuisines <> ARRAY['thai']", NULL, "1;2;3;4;7");
    W("cuisines @> ARRAY['coffee']", &map_hooks, "3");
    W("cuisines @> ARRAY['coffee', 'cafe']", &map_hooks, "3");
    W("cuisines && ARRAY['coffee', 'pizza']", &map_hooks, "2;3");
    W("cuisines && ARRAY['nothing']", &map_hooks, "");
    W("cuisines @> ARRAY['nothing', 'thai']", &map_hooks, "");
    W("cuisines <@ ARRAY['asian', 'noodles']", &map_hooks, "1;6");
    W("array_length(reviews, 1) = 2", NULL, "1;4");
    W("array_length(reviews, 1) IS NULL", NULL, "3;5");   /* PostgreSQL: NULL for '{}' */
    W("cardinality(reviews) = 0", NULL, "3");
#undef W
    TH_SUQL_ROWS(&f, "SELECT cuisines, ARRAY['a', 'b'], array_to_string(cuisines, '+') FROM restaurants "
                     "WHERE _id = 1", NULL, "[\"thai\",\"noodles\"]|[\"a\",\"b\"]|thai+noodles");
    TH_SUQL_ROWS(&f, "SELECT array_agg(name) FROM dishes WHERE price > 13", NULL,
                 "[\"Green Curry\",\"Nigiri\"]");
    th_suql_close(&f);
}

TEST(suql_emit_run_like)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    const char *sel = "SELECT _id FROM restaurants WHERE ";
    char q[512];
#define W(cond, want) do { snprintf(q, sizeof q, "%s%s ORDER BY _id", sel, cond); \
                           TH_SUQL_ROWS(&f, q, NULL, want); } while (0)
    W("name LIKE 'sushi%'", "4");
    W("name LIKE 'Sushi%'", "");              /* case-sensitive, as in PostgreSQL */
    W("name ILIKE 'SUSHI%'", "4");
    W("name NOT LIKE '%a%'", "4;5");
    W("name NOT ILIKE '%A%'", "4;5");
    W("name LIKE '%100\\%%'", "6");          /* \% is a literal percent sign */
    W("name LIKE '%Thai\\_Food'", "6");
    W("name LIKE '%Thai_Food'", "6");
    W("name LIKE 'Thai%'", "1");
    W("name LIKE 'Star*%'", "7");             /* GLOB's own specials are literal */
    W("name LIKE '%[x]'", "7");
    W("name LIKE 'Star?Bar%'", "");
    W("name LIKE '_ushi zen'", "4");
    W("name ILIKE '%thai\\_food'", "6");
    W("name LIKE lower('SUSHI') || '%'", "4");   /* not a literal: suql_like() */
    W("name LIKE upper('s') || '%'", "7");
    W("name NOT LIKE (SELECT '%a%')", "4;5");
    W("name LIKE name", "1;2;3;4;5;6;7");
    W("location LIKE 'San%' AND name ILIKE '%o%'", "2;5");
#undef W
    th_suql_close(&f);
}

TEST(suql_emit_run_casts)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    TH_SUQL_ROWS(&f, "SELECT '42'::int + 1, 4.6::int, 4.4::integer, 7 / 2, 7::real / 2, '2.5'::numeric * 2",
                 NULL, "43|5|4|3|3.5|5.0");
    TH_SUQL_ROWS(&f, "SELECT 't'::boolean, 'No'::boolean, ' yes '::boolean, 0::boolean, "
                     "TRUE, FALSE, TRUE::text", NULL, "1|0|1|0|1|0|true");
    TH_SUQL_ROWS(&f, "SELECT '2024-01-05'::date, '09:30'::time, '2024-01-05 10:00'::timestamp, 5::text || 'x'",
                 NULL, "2024-01-05|09:30:00|2024-01-05 10:00:00|5x");
    /* A double rounds half to even (PostgreSQL's rint): 4.5 is 4. */
    TH_SUQL_ROWS(&f, "SELECT rating::int, num_reviews::real FROM restaurants WHERE _id = 1", NULL, "4|120.0");
    /* TIME columns compare as times: '11:00' = '11:00:00'. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE opens = '11:00:00'", NULL, "1");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE opens >= '12:30:00' ORDER BY _id", NULL, "2;4;6;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE opens BETWEEN '07:00' AND '11:00:00' ORDER BY _id",
                 NULL, "1;3");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE opens IN ('07:00:00', '20:00') ORDER BY _id", NULL,
                 "3;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE opens > '14:00'::time ORDER BY _id", NULL, "4;7");
    /* Untyped string literals take the other side's type, as in PostgreSQL. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE rating + 0 > '4.2' AND num_reviews * 1 >= '100' "
                     "ORDER BY _id", NULL, "1;4");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE (rating > 4) = 'true' AND num_reviews + 0 IN ('120', 7) "
                     "AND rating * 1 BETWEEN '4' AND '5'", NULL, "1");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE name = '1' OR location < '9'", NULL, "");
    /* A typed answer: the cast applies to what answer() gives. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE answer(reviews, '#')::int > 15 ORDER BY _id", NULL,
                 "1;2;4");
    th_suql_close(&f);
}

TEST(suql_emit_run_order_and_limit)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    /* PostgreSQL: NULLs last ascending, first descending. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY rating", NULL, "6;7;5;2;1;4;3");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY rating DESC", NULL, "3;4;1;2;5;7;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY rating NULLS FIRST", NULL, "3;6;7;5;2;1;4");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY rating DESC NULLS LAST", NULL, "4;1;2;5;7;6;3");
    /* An enum sorts and compares in its declared order (cheap, moderate,
     * expensive, luxury), as PostgreSQL's enums do, not as text. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY price, _id DESC", NULL, "5;3;1;2;4;6;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY price DESC, _id", NULL, "7;6;4;2;1;3;5");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price > 'moderate' ORDER BY _id", NULL, "4;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price BETWEEN 'cheap' AND 'moderate' ORDER BY _id", NULL,
                 "1;2;3;5");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price NOT BETWEEN 'cheap' AND 'moderate' ORDER BY _id", NULL,
                 "4;6");
    TH_SUQL_ROWS(&f, "SELECT _id, price AS p FROM restaurants ORDER BY p DESC, 1 LIMIT 3", NULL,
                 "7|NULL;6|luxury;4|expensive");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE 'moderate' >= price ORDER BY _id", NULL, "1;2;3;5");
    TH_SUQL_ROWS(&f, "SELECT _id, rating AS r FROM restaurants ORDER BY r DESC LIMIT 2", NULL, "3|NULL;4|4.8");
    TH_SUQL_ROWS(&f, "SELECT location, count(*) AS n FROM restaurants GROUP BY location "
                     "ORDER BY n DESC, location LIMIT 3", NULL, "Palo Alto|2;San Francisco|2;Sunnyvale|2");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY 1 DESC LIMIT 2", NULL, "7;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT ALL", NULL, "1;2;3;4;5;6;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT NULL OFFSET 5", NULL, "6;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id OFFSET 5", NULL, "6;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT 2 OFFSET 1", NULL, "2;3");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT 0", NULL, "");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT 1.6", NULL, "1;2");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants ORDER BY _id LIMIT (SELECT count(*) FROM dishes) - 3",
                 NULL, "1;2");
    /* ORDER BY an output name that is also an input column: the output. */
    TH_SUQL_ROWS(&f, "SELECT _id, -rating AS rating FROM restaurants WHERE rating > 3.6 ORDER BY rating", NULL,
                 "4|-4.8;1|-4.5;2|-4.0");
    th_suql_close(&f);
}

TEST(suql_emit_run_unnest)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    TH_SUQL_ROWS(&f, "SELECT r.name, c FROM restaurants r, unnest(r.cuisines) AS c WHERE c = 'pizza'", NULL,
                 "Pizza Roma|pizza");
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM restaurants, unnest(reviews) AS rv", NULL, "7");
    TH_SUQL_ROWS(&f, "SELECT u.cuisine, count(*) FROM restaurants, unnest(cuisines) AS u(cuisine) "
                     "GROUP BY cuisine HAVING count(*) > 1 ORDER BY 1", NULL, "thai|2;sushi|2");
    /* (an element of an enum array sorts in the declared order, thai first,
     * by name or by position, as PostgreSQL sorts an enum[]'s elements) */
    TH_SUQL_ROWS(&f, "SELECT x FROM unnest(ARRAY['b', 'a']) AS x ORDER BY x", NULL, "a;b");
    TH_SUQL_ROWS(&f, "SELECT unnest FROM unnest(ARRAY[3, 1, 2]) ORDER BY 1 DESC LIMIT 1", NULL, "3");
    TH_SUQL_ROWS(&f, "SELECT single_review FROM restaurants AS r, unnest(reviews) AS single_review "
                     "WHERE answer(single_review, 'pizza') = 'Yes'", NULL, "best pizza in town");
    TH_SUQL_ROWS(&f, "SELECT DISTINCT t FROM dishes, unnest(tags) AS t ORDER BY t", NULL,
                 "noodles;spicy;vegetarian");
    /* map_literal sees the element's array column. */
    hook_log log = { 0 };
    gn_buf_init(&log.seen);
    suql_emit_hooks h = { NULL, test_map, &log };
    /* An element of an enum array sorts in the enum's declared order. */
    TH_SUQL_ROWS(&f, "SELECT DISTINCT c FROM restaurants, unnest(cuisines) AS c WHERE c = 'coffee' "
                     "ORDER BY c", &h, "coffee & tea;cafe");
    CHECK_STR(log.seen.data, "cuisines:coffee;");
    gn_buf_release(&log.seen);
    th_suql_close(&f);
}

TEST(suql_emit_run_grouping_subqueries_ctes)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    TH_SUQL_ROWS(&f, "SELECT location, count(*) AS n, max(rating), round(avg(num_reviews), 1) "
                     "FROM restaurants GROUP BY location HAVING count(*) > 1 ORDER BY location", NULL,
                 "Palo Alto|2|4.8|160.0;San Francisco|2|4.0|80.0;Sunnyvale|2|3.0|6.5");
    TH_SUQL_ROWS(&f, "SELECT lower(location) AS l, count(*) FROM restaurants GROUP BY l ORDER BY l LIMIT 1",
                 NULL, "cupertino|1");
    TH_SUQL_ROWS(&f, "SELECT price, string_agg(name, ', ') FROM restaurants WHERE price = 'cheap' "
                     "GROUP BY 1", NULL, "cheap|Thai Palace, Cafe Blue, Golden Wok");
    TH_SUQL_ROWS(&f, "SELECT count(DISTINCT location), count(rating), count(*), sum(num_reviews) "
                     "FROM restaurants", NULL, "4|6|7|418");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants WHERE rating > (SELECT avg(rating) FROM restaurants) "
                     "ORDER BY name", NULL, "Pizza Roma;Thai Palace;sushi zen");
    TH_SUQL_ROWS(&f, "SELECT r.name FROM restaurants r WHERE EXISTS (SELECT 1 FROM dishes d "
                     "WHERE d.restaurant_id = r._id AND d.price > 13) ORDER BY 1", NULL,
                 "Thai Palace;sushi zen");
    TH_SUQL_ROWS(&f, "SELECT name FROM restaurants WHERE _id NOT IN (SELECT restaurant_id FROM dishes) "
                     "AND NOT EXISTS (SELECT 1 FROM dishes WHERE dishes.name = restaurants.name) ORDER BY 1",
                 NULL, "Cafe Blue;Golden Wok;It's 100% Thai_Food;Star*Bar [x]");
    TH_SUQL_ROWS(&f, "SELECT name, (SELECT count(*) FROM dishes d WHERE d.restaurant_id = r._id) AS n "
                     "FROM restaurants r WHERE _id < 3 ORDER BY n DESC", NULL, "Thai Palace|2;Pizza Roma|1");
    /* PostgreSQL puts the NULL rating first: Cafe Blue is in the top 2. */
    TH_SUQL_ROWS(&f, "WITH top(n, r) AS (SELECT name, rating FROM restaurants ORDER BY rating DESC LIMIT 2) "
                     "SELECT n FROM top WHERE r > 4", NULL, "sushi zen");
    TH_SUQL_ROWS(&f, "WITH a AS (SELECT _id, cuisines FROM restaurants), b AS (SELECT * FROM a "
                     "WHERE 'thai' = ANY (cuisines)) SELECT count(*) FROM b", NULL, "2");
    TH_SUQL_ROWS(&f, "SELECT s.n, s.c FROM (SELECT location, count(*) FROM restaurants GROUP BY location) "
                     "AS s(n, c) WHERE s.c = 1", NULL, "Cupertino|1");
    TH_SUQL_ROWS(&f, "SELECT * FROM (SELECT 1 AS a, 2) AS t(x)", NULL, "1|2");
    TH_SUQL_ROWS(&f, "SELECT CASE WHEN rating >= 4.5 THEN 'great' WHEN rating >= 4 THEN 'good' ELSE 'ok' END, "
                     "CASE price WHEN 'cheap' THEN 1 END, COALESCE(rating, 0), NULLIF(price, 'cheap') "
                     "FROM restaurants WHERE _id IN (1, 3)", NULL, "great|1|4.5|NULL;ok|1|0|NULL");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE rating BETWEEN 3.5 AND 4.5 AND num_reviews NOT BETWEEN "
                     "100 AND 150 ORDER BY 1", NULL, "2");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price IN ('cheap', 'luxury') AND location NOT IN "
                     "('Palo Alto') ORDER BY 1", NULL, "3;5;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE num_reviews IS NULL OR price IS NULL ORDER BY 1",
                 NULL, "5;7");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE cuisines IS NOT NULL AND reviews IS NULL", NULL, "");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE NOT (rating > 4 OR rating IS NULL) AND "
                     "(location = 'Sunnyvale' OR price = 'cheap') ORDER BY 1", NULL, "5;6;7");
    th_suql_close(&f);
}

TEST(suql_emit_run_joins)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    TH_SUQL_ROWS(&f, "SELECT r.name, d.name FROM restaurants r JOIN dishes d ON d.restaurant_id = r._id "
                     "WHERE d.price > 12 ORDER BY d.price", NULL,
                 "Thai Palace|Pad Thai;Thai Palace|Green Curry;sushi zen|Nigiri");
    TH_SUQL_ROWS(&f, "SELECT r.name, count(d._id) FROM restaurants r LEFT JOIN dishes d "
                     "ON d.restaurant_id = r._id GROUP BY r.name ORDER BY 2 DESC, 1 LIMIT 3", NULL,
                 "Thai Palace|2;Pizza Roma|1;sushi zen|1");
    TH_SUQL_ROWS(&f, "SELECT _id, r.name, d.name FROM restaurants r JOIN dishes d USING (_id) "
                     "WHERE _id <= 2 ORDER BY _id", NULL, "1|Thai Palace|Pad Thai;2|Pizza Roma|Green Curry");
    /* FULL JOIN USING: the merged column is whichever side has a row. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM (SELECT _id FROM restaurants WHERE _id < 3) AS a FULL JOIN "
                     "(SELECT _id FROM dishes WHERE _id > 3) AS b USING (_id) ORDER BY _id", NULL, "1;2;4;5");
    TH_SUQL_ROWS(&f, "SELECT _id FROM (SELECT _id FROM restaurants WHERE _id < 3) AS a RIGHT JOIN "
                     "(SELECT _id FROM dishes WHERE _id > 3) AS b USING (_id) ORDER BY _id", NULL, "4;5");
    /* NATURAL joins on the schema's common columns (_id, name, price). */
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM restaurants NATURAL JOIN dishes", NULL, "0");
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM (SELECT _id, name FROM restaurants) AS a NATURAL JOIN "
                     "(SELECT _id, name AS n FROM dishes) AS b", NULL, "5");
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM restaurants r CROSS JOIN dishes d", NULL, "35");
    TH_SUQL_ROWS(&f, "SELECT r1.name FROM restaurants r1 JOIN restaurants r2 ON r1.location = r2.location "
                     "AND r1.name <> r2.name WHERE r1.rating > (SELECT avg(r3.rating) FROM restaurants r3 "
                     "WHERE r3.location = r1.location) ORDER BY 1", NULL, "Pizza Roma;Star*Bar [x];sushi zen");
    th_suql_close(&f);
}

/* SELECT * is the schema's columns: never a column the schema hides. */
TEST(suql_emit_run_star)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    gn_buf sql;
    gn_buf_init(&sql);
    REQUIRE(compile(f.s, "SELECT *, summary(reviews) FROM restaurants r WHERE _id = 2", NULL, &sql) == 0);
    sqlite3_stmt *st;
    REQUIRE(sqlite3_prepare_v2(f.db, sql.data, -1, &st, NULL) == SQLITE_OK);
    CHECK_INT(sqlite3_column_count(st), 10);
    gn_buf names;
    gn_buf_init(&names);
    for (int i = 0; i < sqlite3_column_count(st); i++)
        gn_buf_printf(&names, "%s%s", i ? "," : "", sqlite3_column_name(st, i));
    CHECK_STR(names.data, "_id,name,cuisines,price,rating,num_reviews,location,reviews,opens,summary");
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 2), "[\"italian\",\"pizza\"]");
    CHECK_STR((const char *)sqlite3_column_text(st, 9), "a summary");
    sqlite3_finalize(st);
    gn_buf_release(&names);
    gn_buf_release(&sql);
    /* Output names are PostgreSQL's. */
    gn_buf_init(&sql);
    REQUIRE(compile(f.s, "SELECT count(*), max(rating), rating::int, answer(reviews, 'q'), 1 + 1, "
                         "r.name AS n, c FROM restaurants r, unnest(cuisines) AS c GROUP BY 3, 4, 6, 7",
                    NULL, &sql) == 0);
    REQUIRE(sqlite3_prepare_v2(f.db, sql.data, -1, &st, NULL) == SQLITE_OK);
    gn_buf_init(&names);
    for (int i = 0; i < sqlite3_column_count(st); i++)
        gn_buf_printf(&names, "%s%s", i ? "," : "", sqlite3_column_name(st, i));
    CHECK_STR(names.data, "count,max,rating,answer,?column?,n,c");
    sqlite3_finalize(st);
    gn_buf_release(&names);
    gn_buf_release(&sql);
    th_suql_close(&f);
}

TEST(suql_emit_run_functions)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    TH_SUQL_ROWS(&f, "SELECT greatest(1, NULL, 3), least(NULL, 2), greatest(NULL, NULL), least(5), "
                     "greatest('a', 'b')", NULL, "3|2|NULL|5|b");
    TH_SUQL_ROWS(&f, "SELECT concat('a', NULL, 1), char_length('héllo'), length('abc'), strpos('hello', 'l'), "
                     "left('hello', 2), right('hello', 2), right('abc', 5), right('abc', 0)", NULL,
                 "a1|5|3|3|he|lo|abc|");
    TH_SUQL_ROWS(&f, "SELECT mod(7, 3), abs(-2), round(2.567, 1), upper('x'), lower('Y'), "
                     "replace('aXa', 'X', 'b'), substr('hello', 2, 3), substring('hello', 2), btrim('  x ')",
                 NULL, "1|2|2.6|X|y|aba|ell|ello|x");
    TH_SUQL_ROWS(&f, "SELECT date_part('year', '2024-03-05'), date_part('month', '2024-03-05'::date), "
                     "starts_with('hello', 'he'), starts_with('hello', 'lo'), ceil(1.2), floor(1.8)", NULL,
                 "2024.0|3.0|1|0|2.0|1.0");
    TH_SUQL_ROWS(&f, "SELECT random() >= 0 AND random() < 1, now() IS NOT NULL, bool_and(rating > 1), "
                     "bool_or(rating > 4.6) FROM restaurants", NULL, "1|1|1|1");
    th_suql_close(&f);
}

TEST(suql_emit_run_map_literal_scalars)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    hook_log log = { 0 };
    gn_buf_init(&log.seen);
    suql_emit_hooks h = { NULL, test_map, &log };
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price = 'inexpensive' ORDER BY 1", &h, "1;3;5");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE 'inexpensive' <> price ORDER BY 1", &h, "2;4;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price IN ('inexpensive', 'luxury') ORDER BY 1", &h,
                 "1;3;5;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price NOT IN ('inexpensive', 'nothing') ORDER BY 1",
                 &h, "2;4;6");
    /* Mapped to nothing: false, and NULL for a NULL price (row 7 stays out under NOT). */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price = 'nothing'", &h, "");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE NOT (price = 'nothing') ORDER BY 1", &h,
                 "1;2;3;4;5;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price <> 'nothing' ORDER BY 1", &h, "1;2;3;4;5;6");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price IN ('nothing') ORDER BY 1", &h, "");
    /* Kept literals, and text columns without a vocabulary. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE price = 'luxury' AND location = 'Sunnyvale'", &h, "6");
    CHECK_STR(log.seen.data, "price:inexpensive;price:inexpensive;price:inexpensive;price:luxury;"
                             "price:inexpensive;price:nothing;price:nothing;price:nothing;"
                             "price:nothing;price:nothing;price:luxury;location:Sunnyvale;");
    /* The hook's error comes back with its code. */
    gn_buf sql;
    gn_buf_init(&sql);
    CHECK_INT(compile(f.s, "SELECT _id FROM restaurants WHERE price = 'offline'", &h, &sql), GN_ENET);
    CHECK_CONTAINS(sql.data, "classifier offline");
    gn_buf_release(&sql);
    gn_buf_release(&log.seen);
    th_suql_close(&f);
}

/* Quotes in literals and questions stay inside one literal. */
TEST(suql_emit_injection)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    static const char *const attempts[] = {
        "SELECT _id FROM restaurants WHERE name = 'x''); DROP TABLE restaurants; --'",
        "SELECT _id FROM restaurants WHERE name = 'x''; DELETE FROM dishes; --'",
        "SELECT _id FROM restaurants WHERE answer(reviews, 'q''); DROP TABLE dishes; --') = 'Yes'",
        "SELECT _id FROM restaurants WHERE name LIKE '%''; DROP TABLE t; --%'",
        "SELECT _id FROM restaurants WHERE 'x''); DROP TABLE t; --' = ANY (cuisines)",
        "SELECT _id FROM restaurants WHERE cuisines @> ARRAY['x''); DROP TABLE t; --', 'y']",
        "SELECT \"a\"\"; DROP TABLE t; --\" FROM restaurants",
        "SELECT _id FROM restaurants WHERE name = $$'); DROP TABLE restaurants; --$$",
        "SELECT _id FROM restaurants WHERE name = E'\\x27); DROP TABLE restaurants; --'",
    };
    for (size_t i = 0; i < sizeof attempts / sizeof *attempts; i++) {
        gn_buf sql;
        gn_buf_init(&sql);
        int rc = compile(f.s, attempts[i], NULL, &sql);
        if (i == 6) {
            CHECK_INT(rc, GN_ENOTFOUND);   /* an identifier, and an unknown one */
        } else if (rc) {
            th_fail(__FILE__, __LINE__, "%s: %s", attempts[i], sql.data);
        } else {
            char *why = prepare_error(f.db, sql.data);
            if (why) th_fail(__FILE__, __LINE__, "%s: %s\n    %s", attempts[i], why, sql.data);
            free(why);
            char *r = th_suql_sql_rows(f.db, sql.data);
            CHECK_STR(r, "");
            free(r);
        }
        gn_buf_release(&sql);
    }
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM restaurants", NULL, "7");
    TH_SUQL_ROWS(&f, "SELECT count(*) FROM dishes", NULL, "5");
    th_suql_close(&f);
}

TEST(suql_emit_freetext_hook)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    suql_emit_hooks h = { test_freetext, NULL, NULL };
    TH_SUQL_ROWS(&f, "SELECT summary(reviews), answer(reviews, 'q') FROM restaurants WHERE _id = 1", &h,
                 "S|A:q");
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE answer(reviews, 'q') = 'A:q' AND _id < 3", &h, "1;2");
    TH_SUQL_ROWS(&f, "SELECT answer(reviews, '12')::int + 1 FROM restaurants WHERE _id = 1", NULL, "1");
    /* Without the hook: the executor's SQL functions. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE answer(reviews, 'pizza') = 'Yes'", NULL, "2");
    TH_SUQL_ROWS(&f, "SELECT summary(reviews) FROM restaurants WHERE _id = 5", NULL, "NULL");
    th_suql_close(&f);
}

/* suql_emit_expr qualifies columns as the statement does; an output name
 * (ORDER BY alias) outside its SELECT is the expression it names. */
TEST(suql_emit_expr_alone)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT location AS l FROM restaurants r WHERE 'thai' = ANY (r.cuisines) "
                       "AND rating > 4 ORDER BY l", &q, &e) == 0);
    REQUIRE(suql_analyze(q, f.s, &e) == 0);
    gn_buf b;
    gn_buf_init(&b);
    CHECK_INT(suql_emit_expr(q, q->select->where->args[0], NULL, &b, &e), 0);
    CHECK_STR(b.data, "EXISTS (SELECT 1 FROM json_each(\"r\".\"cuisines\") WHERE value = 'thai')");
    gn_buf_reset(&b);
    CHECK_INT(suql_emit_expr(NULL, q->select->where->args[1], NULL, &b, &e), 0);
    CHECK_STR(b.data, "\"r\".\"rating\" > 4");
    gn_buf_reset(&b);
    /* An output name alone stands for the expression it names. */
    CHECK_INT(suql_emit_expr(q, q->select->order[0].expr, NULL, &b, &e), 0);
    CHECK_STR(b.data, "\"r\".\"location\"");
    gn_buf_reset(&b);
    suql_emit_string("it's", &b);
    suql_emit_ident("a\"b", &b);
    CHECK_STR(b.data, "'it''s'\"a\"\"b\"");
    gn_buf_release(&b);
    suql_query_free(q);
    th_suql_close(&f);
}

/* A later pass may rebuild a SELECT with other targets: an ORDER BY on an
 * output name then orders by the expression it named. */
TEST(suql_emit_rebuilt_select)
{
    th_suql_fx f;
    REQUIRE(fx_open(&f) == 0);
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT name, -rating AS score FROM restaurants r WHERE rating > 3.6 "
                       "ORDER BY score, name", &q, &e) == 0);
    REQUIRE(suql_analyze(q, f.s, &e) == 0);
    suql_select ids = *q->select;
    suql_target t = { suql_expr_new(q, SUQL_E_COLUMN, 0), NULL };
    t.expr->name = "_id";
    t.expr->qual = "r";
    ids.targets = &t;
    ids.ntargets = 1;
    gn_buf b;
    gn_buf_init(&b);
    REQUIRE(suql_emit_select(q, &ids, NULL, &b, &e) == 0);
    CHECK_STR(b.data, "SELECT \"r\".\"_id\" FROM \"restaurants\" AS \"r\" WHERE \"r\".\"rating\" > 3.6 "
                      "ORDER BY (-\"r\".\"rating\") ASC NULLS LAST, \"r\".\"name\" ASC NULLS LAST");
    char *r = th_suql_sql_rows(f.db, b.data);
    CHECK_STR(r, "4;1;2");
    free(r);
    gn_buf_release(&b);
    suql_query_free(q);
    th_suql_close(&f);
}

/* suql_like: PostgreSQL's LIKE, case-sensitive, over UTF-8 characters. */
TEST(suql_emit_like_function)
{
    sqlite3 *db;
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    REQUIRE(suql_register_functions(db) == SQLITE_OK);
    static const struct { const char *s, *p; int want; } cases[] = {
        { "abc", "abc", 1 }, { "abc", "ABC", 0 }, { "abc", "a%", 1 }, { "abc", "%c", 1 },
        { "abc", "%b%", 1 }, { "abc", "a_c", 1 }, { "abc", "a__c", 0 }, { "", "%", 1 },
        { "", "_", 0 }, { "ééé", "_é_", 1 }, { "ééé", "___", 1 }, { "ééé", "__", 0 },
        { "100%", "100\\%", 1 }, { "1000", "100\\%", 0 }, { "a_b", "a\\_b", 1 },
        { "axb", "a\\_b", 0 }, { "a\\b", "a\\\\b", 1 }, { "aaab", "%a%ab", 1 },
        { "mississippi", "%iss%ppi", 1 }, { "mississippi", "%iss%pi%x", 0 }, { "abc", "%%%", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sqlite3_stmt *st;
        REQUIRE(sqlite3_prepare_v2(db, "SELECT suql_like(?, ?)", -1, &st, NULL) == SQLITE_OK);
        sqlite3_bind_text(st, 1, cases[i].s, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, cases[i].p, -1, SQLITE_STATIC);
        REQUIRE(sqlite3_step(st) == SQLITE_ROW);
        if (sqlite3_column_int(st, 0) != cases[i].want)
            th_fail(__FILE__, __LINE__, "'%s' LIKE '%s' gave %d", cases[i].s, cases[i].p,
                    sqlite3_column_int(st, 0));
        sqlite3_finalize(st);
    }
    char *r = th_suql_sql_rows(db, "SELECT suql_like(NULL, 'a'), suql_like('a', NULL)");
    CHECK_STR(r, "NULL|NULL");
    free(r);
    sqlite3_close(db);
}

/* ---- the SUQL paper's corpus ---------------------------------------- */


/* All 100 queries through parse, analyze, emit, prepare and run (stub
 * answer() and summary()) on the sample restaurants database: all but the
 * one calling ST_Distance_Sphere, which fails cleanly at its position.
 * GENIE_VERBOSE=1 prints each outcome. */
TEST(suql_emit_restaurant_corpus)
{
    th_corpus cs;
    REQUIRE(th_corpus_load(&cs) == 0);
    CHECK_INT(cs.n, 100);
    sqlite3 *db;
    gn_err e;
    st_schema *s;
    REQUIRE(st_open(th_path("sample_db/restaurants.db"), 0, &db, &e) == 0);
    REQUIRE(st_guard(db, &e) == 0);
    REQUIRE(st_schema_load(db, &s, &e) == 0);
    register_stubs(db);
    suql_register_functions(db);
    int parsed = 0, analyzed = 0, emitted = 0, prepared = 0, ran = 0, verbose = getenv("GENIE_VERBOSE") != NULL;
    for (int i = 0; i < cs.n; i++) {
        suql_query *q;
        gn_buf sql;
        gn_buf_init(&sql);
        const char *stage = "parse";
        if (!suql_parse(cs.queries[i], &q, &e)) {
            parsed++;
            stage = "analyze";
            if (!suql_analyze(q, s, &e)) {
                analyzed++;
                stage = "emit";
                if (!suql_emit_select(q, NULL, NULL, &sql, &e)) {
                    emitted++;
                    char *why = prepare_error(db, sql.data);
                    if (!why) prepared++;
                    else gn_err_set(&e, GN_EDB, "%s", why);
                    stage = why ? "prepare" : NULL;
                    free(why);
                    char *r = why ? NULL : th_suql_sql_rows(db, sql.data);
                    if (r && strncmp(r, "ERROR ", 6)) ran++;
                    else if (r) {
                        gn_err_set(&e, GN_EDB, "%s", r);
                        stage = "run";
                    }
                    free(r);
                }
            }
            suql_query_free(q);
        }
        if (verbose || (stage && !strstr(cs.queries[i], "ST_Distance_Sphere")))
            printf("  corpus %d: %s%s%d:%d %s\n    %s\n", i + 1, stage ? stage : "ok",
                   stage ? " failed: " : " ", e.line, e.col, stage ? e.msg : "", sql.data);
        if (stage && strstr(cs.queries[i], "ST_Distance_Sphere")) {
            CHECK_STR(stage, "analyze");
            CHECK_STR(e.msg, "unknown function 'st_distance_sphere'");
            CHECK_INT(e.line, 1);
            CHECK_INT(e.col, 148);
        }
        gn_buf_release(&sql);
    }
    printf("  corpus: %d parsed, %d analyzed, %d emitted, %d prepared, %d ran of %d\n", parsed,
           analyzed, emitted, prepared, ran, cs.n);
    CHECK_INT(parsed, 100);
    CHECK_INT(analyzed, 99);
    CHECK_INT(emitted, 99);
    CHECK_INT(prepared, 99);
    CHECK_INT(ran, 99);
    th_corpus_free(&cs);
    st_schema_free(s);
    sqlite3_close(db);
}
