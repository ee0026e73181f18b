/*
 * test_gen.c — the sample database generator (build/genie-gen), black box.
 *
 * Runs the built binary into the test's scratch directory and checks the
 * databases with SQL: determinism (same seed and scale, same table contents;
 * another seed, other contents), the exposed schema in genie_columns, the
 * shape of the data, and that the ground truth agrees with the reviews.
 */
#include "harness.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* $GENIE_TOP/$B/genie-gen, else $GENIE_TOP/build/genie-gen. */
static const char *gen_bin(void)
{
    static char path[1024];
    struct stat st;
    const char *b = getenv("B");
    snprintf(path, sizeof path, "%s", th_path(b && *b ? b : "build"));
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "/genie-gen");
    if (stat(path, &st) != 0) snprintf(path, sizeof path, "%s", th_path("build/genie-gen"));
    return path;
}

/* Exit status of genie-gen with the given arguments (stderr silenced). */
static int run_gen(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null >/dev/null", gen_bin(), args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Generate dataset into the scratch dir as name; returns the path or NULL. */
static const char *make_db(const char *dataset, const char *scale, const char *seed, const char *name)
{
    static char paths[4][1024];
    static int k;
    char *p = paths[k++ % 4];
    char args[1500];
    snprintf(p, sizeof paths[0], "%s/%s", th_tmpdir(), name);
    snprintf(args, sizeof args, "%s --scale %s --seed %s -q -o '%s'", dataset, scale, seed, p);
    return run_gen(args) == 0 ? p : NULL;
}

static sqlite3 *open_db(const char *path)
{
    sqlite3 *db = NULL;
    if (!path || sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* First column of the first row as an integer (-999999 on error). */
static long long q_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -999999;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        th_fail(__FILE__, __LINE__, "SQL error: %s in %s", sqlite3_errmsg(db), sql);
        return v;
    }
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* FNV-1a over every column of every row a query returns. */
static unsigned long long digest(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    unsigned long long h = 0xcbf29ce484222325ull;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            for (; t && *t; t++) h = (h ^ *t) * 0x100000001b3ull;
            h = (h ^ 0x1f) * 0x100000001b3ull;
        }
        h = (h ^ 0x1e) * 0x100000001b3ull;
    }
    sqlite3_finalize(st);
    return h;
}

static const char *const REST_TABLES[] = {
    "SELECT * FROM restaurants ORDER BY _id",
    "SELECT * FROM _truth_restaurant_attrs ORDER BY restaurant_id, attr",
    "SELECT * FROM _truth_review_attrs ORDER BY restaurant_id, review_idx, attr",
    "SELECT * FROM genie_columns ORDER BY tbl, pos",
    "SELECT * FROM genie_meta ORDER BY key",
    NULL};

static const char *const COURSE_TABLES[] = {
    "SELECT * FROM courses ORDER BY _id",
    "SELECT * FROM offerings ORDER BY _id",
    "SELECT * FROM ratings ORDER BY _id",
    "SELECT * FROM programs ORDER BY _id",
    "SELECT * FROM _truth_course_attrs ORDER BY course_id, attr",
    "SELECT * FROM _truth_course_review_attrs ORDER BY course_id, review_idx, attr",
    NULL};

static void check_same(const char *a, const char *b, const char *const *queries, int want_same)
{
    sqlite3 *x = open_db(a), *y = open_db(b);
    if (!x || !y) {
        th_fail(__FILE__, __LINE__, "cannot open %s or %s", a ? a : "(null)", b ? b : "(null)");
    } else if (want_same) {
        for (const char *const *q = queries; *q; q++)
            if (digest(x, *q) != digest(y, *q)) th_fail(__FILE__, __LINE__, "differs: %s", *q);
    } else {
        CHECK(digest(x, queries[0]) != digest(y, queries[0]));
    }
    sqlite3_close(x);
    sqlite3_close(y);
}

TEST(gen_restaurants_deterministic)
{
    const char *a = make_db("restaurants", "0.05", "7", "a.db");
    const char *b = make_db("restaurants", "0.05", "7", "b.db");
    const char *c = make_db("restaurants", "0.05", "8", "c.db");
    REQUIRE(a && b && c);
    check_same(a, b, REST_TABLES, 1);
    check_same(a, c, REST_TABLES, 0);
    sqlite3 *db = open_db(a);
    REQUIRE(db);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants"), 90);
    sqlite3_close(db);
}

TEST(gen_restaurants_schema)
{
    sqlite3 *db = open_db(make_db("restaurants", "0.05", "1", "r.db"));
    REQUIRE(db);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE tbl='restaurants'"), 12);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE tbl='restaurants' AND col='_id' "
                        "AND pos=0 AND type='int'"), 1);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE tbl='restaurants' "
                        "AND col IN ('popular_dishes','reviews') AND is_array=1 AND free_text=1"), 2);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE col='cuisines' AND type='text' "
                        "AND is_array=1 AND free_text=0"), 1);
    CHECK_INT(q_int(db, "SELECT json_array_length(enum_values) FROM genie_columns WHERE col='price' "
                        "AND type='enum'"), 4);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE (col='rating' AND type='real') "
                        "OR (col='num_reviews' AND type='int')"), 2);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE free_text=1 AND is_array=0 "
                        "AND tbl='restaurants'"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE tbl LIKE '\\_truth\\_%' ESCAPE '\\'"), 0);
    /* every column of the table is described, in order */
    CHECK_INT(q_int(db, "SELECT count(*) FROM pragma_table_info('restaurants') p JOIN genie_columns g "
                        "ON g.tbl='restaurants' AND g.col=p.name AND g.pos=p.cid"), 12);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_meta WHERE (key='generator' AND value='genie-gen') "
                        "OR (key='dataset' AND value='restaurants') OR (key='seed' AND value='1') "
                        "OR (key='scale' AND value='0.05') OR (key='version' AND value='1')"), 5);
    sqlite3_close(db);
}

TEST(gen_restaurants_content)
{
    sqlite3 *db = open_db(make_db("restaurants", "1", "1", "r1.db"));
    REQUIRE(db);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants"), 1800);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE NOT (json_valid(cuisines) AND "
                        "json_valid(popular_dishes) AND json_valid(reviews))"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE json_array_length(reviews) != 20"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE json_array_length(popular_dishes) < 10"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE json_array_length(cuisines) NOT BETWEEN 1 AND 3"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE rating < 1 OR rating > 5 "
                        "OR abs(rating * 10 - round(rating * 10)) > 1e-6"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE price NOT IN "
                        "('cheap','moderate','expensive','luxury')"), 0);
    CHECK_INT(q_int(db, "SELECT count(DISTINCT location) FROM restaurants WHERE location IN "
                        "('San Francisco','Palo Alto','Sunnyvale','Cupertino')"), 4);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE location NOT IN "
                        "('San Francisco','Palo Alto','Sunnyvale','Cupertino')"), 0);
    CHECK(q_int(db, "SELECT count(*) FROM restaurants WHERE location='San Francisco'") >
          q_int(db, "SELECT max(n) FROM (SELECT count(*) n FROM restaurants WHERE location!='San Francisco' "
                    "GROUP BY location)"));
    CHECK_INT(q_int(db, "WITH need(c) AS (VALUES ('coffee & tea'),('cafe'),('italian'),('chinese'),"
                        "('japanese'),('pizza'),('barbecue'),('greek'),('thai'),('mexican'),('vegan')) "
                        "SELECT count(*) FROM need WHERE c IN (SELECT j.value FROM restaurants, "
                        "json_each(cuisines) j)"), 11);
    CHECK(q_int(db, "SELECT count(DISTINCT j.value) FROM restaurants, json_each(cuisines) j") >= 40);
    CHECK_INT(q_int(db, "SELECT count(*) FROM (SELECT 1 FROM restaurants GROUP BY location, name "
                        "HAVING count(*) > 1)"), 0);
    CHECK(q_int(db, "SELECT count(*) FROM restaurants WHERE num_reviews > 1000") > 0);
    CHECK(q_int(db, "SELECT count(*) FROM restaurants WHERE popular_dishes LIKE '%pulled pork%'") > 0);
    CHECK(q_int(db, "SELECT count(*) FROM restaurants WHERE popular_dishes LIKE '%afternoon tea%'") > 0);
    CHECK(q_int(db, "SELECT count(*) FROM restaurants WHERE popular_dishes LIKE '%kids %'") > 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE phone_number NOT GLOB "
                        "'([0-9][0-9][0-9]) [0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]'"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants WHERE address NOT LIKE '%, ' || location || ', CA 9____'"), 0);
    sqlite3_close(db);
}

TEST(gen_restaurants_truth_consistent)
{
    sqlite3 *db = open_db(make_db("restaurants", "0.2", "3", "t.db"));
    REQUIRE(db);
    CHECK(q_int(db, "SELECT count(*) FROM _truth_restaurant_attrs") > 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_restaurant_attrs WHERE value NOT IN (1,-1)"), 0);
    /* each mention points at an existing review of an existing restaurant */
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_review_attrs t LEFT JOIN restaurants r "
                        "ON r._id=t.restaurant_id WHERE r._id IS NULL OR t.review_idx < 0 "
                        "OR t.review_idx >= json_array_length(r.reviews)"), 0);
    /* mentions only of non-zero attributes, with the restaurant's value */
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_review_attrs t WHERE NOT EXISTS (SELECT 1 FROM "
                        "_truth_restaurant_attrs a WHERE a.restaurant_id=t.restaurant_id AND a.attr=t.attr "
                        "AND a.value=t.value)"), 0);
    /* every non-zero attribute is expressed by at least two reviews */
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_restaurant_attrs a WHERE (SELECT count(*) FROM "
                        "_truth_review_attrs t WHERE t.restaurant_id=a.restaurant_id AND t.attr=a.attr) < 2"), 0);
    /* a sample phrase: parking complaints only where parking is known hard */
    CHECK_INT(q_int(db, "SELECT count(*) FROM restaurants r WHERE reviews LIKE '%parking is a nightmare%' "
                        "AND NOT EXISTS (SELECT 1 FROM _truth_restaurant_attrs a WHERE a.restaurant_id=r._id "
                        "AND a.attr='parking_easy' AND a.value=-1)"), 0);
    CHECK_INT(q_int(db, "SELECT count(DISTINCT attr) FROM _truth_restaurant_attrs"), 13);
    sqlite3_close(db);
}

TEST(gen_courses_tables)
{
    const char *a = make_db("courses", "0.1", "5", "c1.db");
    const char *b = make_db("courses", "0.1", "5", "c2.db");
    REQUIRE(a && b);
    check_same(a, b, COURSE_TABLES, 1);
    sqlite3 *db = open_db(a);
    REQUIRE(db);
    CHECK_INT(q_int(db, "SELECT count(*) FROM courses"), 30);
    CHECK(q_int(db, "SELECT count(*) FROM offerings") >= 30);
    CHECK(q_int(db, "SELECT count(*) FROM ratings") > 20);
    CHECK(q_int(db, "SELECT count(*) FROM programs") >= 3);
    CHECK_INT(q_int(db, "SELECT count(DISTINCT tbl) FROM genie_columns"), 4);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE free_text=1 AND ((tbl='courses' AND "
                        "col='description') OR (tbl='ratings' AND col='reviews') OR (tbl='programs' AND "
                        "col='requirements'))"), 3);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE is_array=1 AND col IN "
                        "('course_codes','grading_options','instructors','reviews')"), 4);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_columns WHERE col='_id' AND pos=0 AND type='int'"), 4);
    CHECK_INT(q_int(db, "SELECT count(*) FROM courses WHERE NOT (json_valid(course_codes) AND "
                        "json_valid(grading_options)) OR json_array_length(course_codes) < 1 "
                        "OR units_min > units_max"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM offerings o WHERE NOT json_valid(instructors) OR NOT EXISTS "
                        "(SELECT 1 FROM courses c WHERE c.course_id=o.course_id)"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM ratings r WHERE json_array_length(r.reviews) NOT BETWEEN 5 AND 15 "
                        "OR NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id=r.course_id)"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_course_review_attrs t LEFT JOIN ratings r "
                        "ON r.course_id=t.course_id WHERE r.course_id IS NULL OR t.review_idx < 0 "
                        "OR t.review_idx >= json_array_length(r.reviews)"), 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM _truth_course_review_attrs t WHERE NOT EXISTS (SELECT 1 FROM "
                        "_truth_course_attrs a WHERE a.course_id=t.course_id AND a.attr=t.attr "
                        "AND a.value=t.value)"), 0);
    /* heavy workload shows in the hours */
    CHECK(q_int(db, "SELECT min(r.average_hours_per_week) >= 15 FROM ratings r JOIN _truth_course_attrs a "
                    "ON a.course_id=r.course_id AND a.attr='heavy_workload' AND a.value=1") != 0);
    CHECK_INT(q_int(db, "SELECT count(*) FROM genie_meta WHERE key='dataset' AND value='courses'"), 1);
    sqlite3_close(db);
}

TEST(gen_cli_errors)
{
    char args[1200];
    struct stat st;
    snprintf(args, sizeof args, "restaurants --scale 0.01 -o '%s/no/such/dir/x.db'", th_tmpdir());
    CHECK_INT(run_gen(args), 1);
    CHECK_INT(run_gen("restaurants --scale 0.01"), 2);
    CHECK_INT(run_gen("pancakes -o /dev/null"), 2);
    CHECK_INT(run_gen("restaurants --scale -1 -o /dev/null"), 2);
    CHECK_INT(run_gen("restaurants --scale abc -o /dev/null"), 2);
    CHECK_INT(run_gen("--help"), 0);
    /* success leaves the file and no temporary */
    const char *p = make_db("courses", "0.05", "1", "ok.db");
    REQUIRE(p);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    CHECK(stat(p, &st) == 0);
    CHECK(stat(tmp, &st) != 0);
}
