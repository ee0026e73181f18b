/*
 * test_suql_funcs.c — the PostgreSQL functions of pgfunc.c and pgstat.c
 * through parse, analyze, emit and SQLite on a fixture database: text
 * (lpad, rpad, repeat, reverse, octet_length, ascii, chr, md5,
 * translate), arrays (string_to_array, array_position, array_remove,
 * array_append, array_prepend, array_cat), math (the trigonometric
 * functions, degrees, radians, log10, cbrt, div, gcd, lcm), dates
 * (make_date, make_time, date_trunc) and the statistical aggregates.
 * Every expected value is what PostgreSQL 15 returns for the same query
 * on the same rows, written as genie writes it: an array as its JSON, a
 * double as SQLite's text of it (or, cast to text, PostgreSQL's float8
 * text), an error as PostgreSQL's message.
 */
#include "harness.h"
#include "suql_fixture.h"

#include <stdlib.h>

/* ---- text ----------------------------------------------------------- */

TEST(suql_funcs_text)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    TH_SUQL_ROWS(&f, "SELECT lpad('hi', 5, 'xy'), lpad('hello', 2), rpad('hi', 5, 'xy'), rpad('hello', 2), "
                     "lpad('hi', 5, ''), lpad('hi', -1), lpad('héllo', 7, 'é'), rpad('ab', 6) || '.'", NULL,
                 "xyxhi|he|hixyx|he|hi||ééhéllo|ab    .");
    TH_SUQL_ROWS(&f, "SELECT lpad(name, 12, '.') FROM restaurants WHERE _id <= 2 ORDER BY _id", NULL,
                 ".Thai Palace;..Pizza Roma");
    TH_SUQL_ROWS(&f, "SELECT repeat('ab', 3), repeat('ab', 0), repeat('ab', -2), reverse('héllo'), "
                     "octet_length('héllo'), ascii('é'), ascii(''), chr(233), chr(65)", NULL,
                 "ababab|||olléh|6|233|0|é|A");
    TH_SUQL_ROWS(&f, "SELECT md5(''), md5('abc'), md5('héllo')", NULL,
                 "d41d8cd98f00b204e9800998ecf8427e|900150983cd24fb0d6963f7d28e17f72|"
                 "be50e8478cf24ff3595bc7307fb91b50");
    /* Padding into one and two final blocks, and many blocks. */
    TH_SUQL_ROWS(&f, "SELECT md5(repeat('a', 1000)), md5(repeat('x', 55)), md5(repeat('x', 56)), "
                     "md5(repeat('x', 64))", NULL,
                 "cabe45dcc9ae5b66ba86600cca6b8ba8|04364420e25c512fd958a70738aa8f72|"
                 "668a72d5ba17f08e62dabcafad6db14b|c1bb4f81d892b2d57947682aeb252456");
    TH_SUQL_ROWS(&f, "SELECT translate('12345', '143', 'ax'), translate('héllo', 'é', 'e'), "
                     "translate('abc', '', 'x'), translate('aaa', 'aa', 'xy')", NULL,
                 "a2x5|hello|abc|xxx");
    TH_SUQL_ROWS(&f, "SELECT lpad(NULL, 3), rpad('a', NULL), repeat(NULL, 2), reverse(NULL), md5(NULL), "
                     "chr(NULL), translate('a', NULL, 'b'), octet_length(NULL), ascii(NULL)", NULL,
                 "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL");
    TH_SUQL_ROWS(&f, "SELECT chr(0)", NULL, "ERROR null character not permitted");
    TH_SUQL_ROWS(&f, "SELECT chr(-1)", NULL, "ERROR character number must be positive");
    TH_SUQL_ROWS(&f, "SELECT chr(1114112)", NULL, "ERROR requested character too large for encoding: 1114112");
    TH_SUQL_ROWS(&f, "SELECT chr(55296)", NULL, "ERROR requested character not valid for encoding: 55296");
    TH_SUQL_ROWS(&f, "SELECT repeat('x', 2000000000)", NULL, "ERROR requested length too large (a text value may hold at most 953 MB, a sixteenth of --query-memory)");
    TH_SUQL_ROWS(&f, "SELECT lpad('x', 2000000000)", NULL, "ERROR requested length too large (a text value may hold at most 953 MB, a sixteenth of --query-memory)");
    /* Text functions of a number are PostgreSQL's "does not exist". */
    TH_SUQL_ROWS(&f, "SELECT md5(num_reviews) FROM restaurants", NULL,
                 "ERROR function md5(integer) does not exist: cast the argument, md5(num_reviews::text)");
    th_suql_close(&f);
}

/* ---- arrays --------------------------------------------------------- */

TEST(suql_funcs_arrays)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    TH_SUQL_ROWS(&f, "SELECT string_to_array('a,b,,c', ','), string_to_array('', ','), "
                     "string_to_array('abc', NULL), string_to_array('abc', ''), string_to_array('', ''), "
                     "string_to_array('a,*,b', ',', '*'), string_to_array('a,,b', ',', ''), "
                     "string_to_array('a,b,', ','), string_to_array(NULL, ',')", NULL,
                 "[\"a\",\"b\",\"\",\"c\"]|[]|[\"a\",\"b\",\"c\"]|[\"abc\"]|[]|[\"a\",null,\"b\"]|"
                 "[\"a\",null,\"b\"]|[\"a\",\"b\",\"\"]|NULL");
    TH_SUQL_ROWS(&f, "SELECT cardinality(string_to_array('a b c', ' '))", NULL, "3");
    TH_SUQL_ROWS(&f, "SELECT array_position(ARRAY['a', NULL, 'b'], NULL), array_position(ARRAY['a', 'b'], 'b'), "
                     "array_position(ARRAY['a', 'b'], 'c'), array_position(ARRAY[1, 2, 3, 2], 2), "
                     "array_position(ARRAY[1, 2, 3, 2], 2, 3)", NULL,
                 "2|2|NULL|2|4");
    TH_SUQL_ROWS(&f, "SELECT _id, array_position(cuisines, 'sushi') FROM restaurants WHERE _id IN (1, 4, 5) "
                     "ORDER BY _id", NULL,
                 "1|NULL;4|2;5|NULL");
    TH_SUQL_ROWS(&f, "SELECT array_remove(ARRAY['a', NULL, 'b', 'a'], 'a'), array_remove(ARRAY['a', NULL], NULL), "
                     "array_remove(ARRAY['a'], 'a')", NULL,
                 "[null,\"b\"]|[\"a\"]|[]");
    TH_SUQL_ROWS(&f, "SELECT array_remove(cuisines, 'sushi') FROM restaurants WHERE _id = 4", NULL, "[\"japanese\"]");
    TH_SUQL_ROWS(&f, "SELECT array_append(ARRAY['a'], 'b'), array_append(ARRAY['a'], NULL), "
                     "array_prepend('x', ARRAY['a']), array_cat(ARRAY['a'], ARRAY['b', 'c']), "
                     "array_cat(ARRAY[1], ARRAY[2.5])", NULL,
                 "[\"a\",\"b\"]|[\"a\",null]|[\"x\",\"a\"]|[\"a\",\"b\",\"c\"]|[1,2.5]");
    /* A NULL array: empty for append, prepend and one side of cat. */
    TH_SUQL_ROWS(&f, "SELECT array_append(cuisines, 'x'), array_prepend('x', cuisines), "
                     "array_cat(cuisines, cuisines), array_cat(cuisines, ARRAY['y']), "
                     "array_remove(cuisines, 'x'), array_position(cuisines, 'x') FROM restaurants WHERE _id = 5", NULL,
                 "[\"x\"]|[\"x\"]|NULL|[\"y\"]|NULL|NULL");
    /* The results are arrays to the analyzer: ANY, array_length. */
    TH_SUQL_ROWS(&f, "SELECT _id FROM restaurants WHERE 'x' = ANY (array_append(cuisines, 'x')) ORDER BY _id", NULL,
                 "1;2;3;4;5;6;7");
    TH_SUQL_ROWS(&f, "SELECT array_length(array_cat(cuisines, ARRAY['y']), 1) FROM restaurants WHERE _id = 4", NULL,
                 "4");
    th_suql_close(&f);
}

/* ---- math ----------------------------------------------------------- */

TEST(suql_funcs_math)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    /* PostgreSQL's float8 text of each, as ::text prints it. */
    TH_SUQL_ROWS(&f, "SELECT cos(0)::text, sin(0)::text, tan(0)::text, acos(1)::text, asin(1)::text, "
                     "atan(1)::text, atan2(1, 1)::text, degrees(pi())::text, radians(180)::text, "
                     "log10(100)::text, cbrt(27)::text, cbrt(-8)::text", NULL,
                 "1|0|0|0|1.5707963267948966|0.7853981633974483|0.7853981633974483|180|3.141592653589793|2|"
                 "3.0000000000000004|-2");
    TH_SUQL_ROWS(&f, "SELECT degrees(-1)::text, radians(-90)::text, atan(-1)::text, log10(0.001)::text", NULL,
                 "-57.29577951308232|-1.5707963267948966|-0.7853981633974483|-3");
    TH_SUQL_ROWS(&f, "SELECT cos(NULL), atan2(NULL, 1), log10(NULL), cbrt(NULL)", NULL, "NULL|NULL|NULL|NULL");
    TH_SUQL_ROWS(&f, "SELECT acos(2)", NULL, "ERROR input is out of range");
    TH_SUQL_ROWS(&f, "SELECT asin(-1.5)", NULL, "ERROR input is out of range");
    TH_SUQL_ROWS(&f, "SELECT log10(0)", NULL, "ERROR cannot take logarithm of zero");
    TH_SUQL_ROWS(&f, "SELECT log10(-1)", NULL, "ERROR cannot take logarithm of a negative number");
    TH_SUQL_ROWS(&f, "SELECT degrees(1e308)", NULL, "ERROR value out of range: overflow");
    TH_SUQL_ROWS(&f, "SELECT div(7, 2), div(-7, 2), div(7.5, 2), div(0.3, 0.1), div(9, -4), div(-9.5, 2), "
                     "div(NULL, 2)", NULL,
                 "3|-3|3|3|-2|-4|NULL");
    TH_SUQL_ROWS(&f, "SELECT div(1, 0)", NULL, "ERROR division by zero");
    TH_SUQL_ROWS(&f, "SELECT div(1.5, 0)", NULL, "ERROR division by zero");
    TH_SUQL_ROWS(&f, "SELECT gcd(12, 18), gcd(-12, 18), gcd(0, 0), gcd(7, 0), lcm(4, 6), lcm(0, 5), lcm(-4, 6), "
                     "lcm(3, 3), gcd(NULL, 1)", NULL,
                 "6|6|0|7|12|0|12|3|NULL");
    TH_SUQL_ROWS(&f, "SELECT lcm(9223372036854775807, 2)", NULL, "ERROR bigint out of range");
    TH_SUQL_ROWS(&f, "SELECT gcd(num_reviews, 15) FROM restaurants WHERE _id <= 3 ORDER BY _id", NULL, "15;5;5");
    th_suql_close(&f);
}

/* ---- dates ---------------------------------------------------------- */

TEST(suql_funcs_dates)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    TH_SUQL_ROWS(&f, "SELECT make_date(2024, 2, 29), make_time(8, 15, 23.5), make_time(8, 15, 0), "
                     "make_time(24, 0, 0), make_time(8, 0, 60), make_time(8, 0, 59.999)", NULL,
                 "2024-02-29|08:15:23.5|08:15:00|24:00:00|08:01:00|08:00:59.999");
    TH_SUQL_ROWS(&f, "SELECT make_date(2024, 2, 30)", NULL, "ERROR date field value out of range: 2024-02-30");
    TH_SUQL_ROWS(&f, "SELECT make_date(0, 1, 1)", NULL, "ERROR date field value out of range: 0-01-01");
    TH_SUQL_ROWS(&f, "SELECT make_date(2024, 13, 1)", NULL, "ERROR date field value out of range: 2024-13-01");
    TH_SUQL_ROWS(&f, "SELECT make_time(25, 0, 0)", NULL, "ERROR time field value out of range: 25:00:00");
    TH_SUQL_ROWS(&f, "SELECT make_time(8, 60, 0)", NULL, "ERROR time field value out of range: 8:60:00");
    TH_SUQL_ROWS(&f, "SELECT make_time(24, 0, 0.5)", NULL, "ERROR time field value out of range: 24:00:0.5");
    TH_SUQL_ROWS(&f, "SELECT make_time(8, 0, -1)", NULL, "ERROR time field value out of range: 8:00:-1");
    TH_SUQL_ROWS(&f, "SELECT make_date(NULL, 1, 1), make_time(1, NULL, 0), date_trunc('day', NULL)", NULL,
                 "NULL|NULL|NULL");
    /* The results are a date and a timestamp to the analyzer. */
    TH_SUQL_ROWS(&f, "SELECT make_date(2024, 1, 31) + 1, "
                     "date_trunc('month', '2024-05-10 12:00'::timestamp) + interval '1 month'", NULL,
                 "2024-02-01|2024-06-01 00:00:00");
    TH_SUQL_ROWS(&f, "SELECT date_trunc('week', '2024-01-10 10:11:12'::timestamp), "
                     "date_trunc('quarter', '2024-05-10 10:11:12'::timestamp), "
                     "date_trunc('hour', '2024-05-10 10:11:12.5'::timestamp), "
                     "date_trunc('second', '2024-05-10 10:11:12.5'::timestamp), "
                     "date_trunc('decade', '2024-05-10'::timestamp), "
                     "date_trunc('century', '2024-05-10'::timestamp), "
                     "date_trunc('millennium', '2024-05-10'::timestamp), "
                     "date_trunc('MONTH', '2024-05-10'::timestamp), "
                     "date_trunc('milliseconds', '2024-05-10 01:02:03.123456'::timestamp), "
                     "date_trunc('week', '2024-01-01 00:00'::timestamp)", NULL,
                 "2024-01-08 00:00:00|2024-04-01 00:00:00|2024-05-10 10:00:00|2024-05-10 10:11:12|"
                 "2020-01-01 00:00:00|2001-01-01 00:00:00|2001-01-01 00:00:00|2024-05-01 00:00:00|"
                 "2024-05-10 01:02:03.123|2024-01-01 00:00:00");
    /* A date: PostgreSQL casts it to timestamptz; here a timestamp. */
    TH_SUQL_ROWS(&f, "SELECT date_trunc('month', '2024-05-10'::date)", NULL, "2024-05-01 00:00:00");
    TH_SUQL_ROWS(&f, "SELECT date_trunc('fortnight', '2024-01-01'::timestamp)", NULL,
                 "ERROR unit \"fortnight\" not recognized for type timestamp without time zone");
    th_suql_close(&f);
}

/* ---- aggregates ----------------------------------------------------- */

TEST(suql_funcs_stats)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    /* Integers: numeric in PostgreSQL (79.76632539277880..., 72.81635957820346...,
     * 6362.666666666667, 5302.222222222222); 15 significant digits here. */
    TH_SUQL_ROWS(&f, "SELECT stddev(num_reviews), stddev_samp(num_reviews), stddev_pop(num_reviews), "
                     "variance(num_reviews), var_samp(num_reviews), var_pop(num_reviews) FROM restaurants", NULL,
                 "79.7663253927788|79.7663253927788|72.8163595782035|6362.66666666667|6362.66666666667|"
                 "5302.22222222222");
    /* Doubles: PostgreSQL's float8 digits exactly. */
    TH_SUQL_ROWS(&f, "SELECT stddev(rating)::text, stddev_samp(rating)::text, stddev_pop(rating)::text, "
                     "variance(rating)::text, var_samp(rating)::text, var_pop(rating)::text FROM restaurants", NULL,
                 "1.0327955589886446|1.0327955589886446|0.9428090415820634|1.0666666666666669|"
                 "1.0666666666666669|0.888888888888889");
    TH_SUQL_ROWS(&f, "SELECT location, stddev_samp(rating)::text, var_pop(rating)::text FROM restaurants "
                     "GROUP BY location ORDER BY location", NULL,
                 "Cupertino|NULL|NULL;Palo Alto|0.2121320343559635|0.02249999999999984;"
                 "San Francisco|0.3535533905932738|0.0625;Sunnyvale|0.7071067811865476|0.25");
    /* One row: no sample statistic, a population one of 0; no rows: NULL. */
    TH_SUQL_ROWS(&f, "SELECT stddev_samp(price), var_pop(price), stddev_pop(price) FROM dishes WHERE _id = 1", NULL,
                 "NULL|0.0|0.0");
    TH_SUQL_ROWS(&f, "SELECT stddev_samp(price), var_pop(price) FROM dishes WHERE _id > 99", NULL, "NULL|NULL");
    /* Windows, DISTINCT, FILTER. */
    TH_SUQL_ROWS(&f, "SELECT _id, var_samp(price) OVER (ORDER BY _id)::text, "
                     "stddev_pop(price) OVER (PARTITION BY restaurant_id)::text FROM dishes ORDER BY _id", NULL,
                 "1|NULL|0.75;2|1.125|0.75;3|2.25|0;4|15.5625|0;5|47.45|0");
    TH_SUQL_ROWS(&f, "SELECT stddev(DISTINCT restaurant_id), var_pop(price) FILTER (WHERE price > 5)::text "
                     "FROM dishes", NULL,
                 "48.3494226094445|11.671875");
    th_suql_close(&f);
}

/* Frames whose start moves on take values out again (xInverse): SQL
 * straight to SQLite, as SUQL has no frame clause. */
TEST(suql_funcs_stats_sliding_frame)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "funcs.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    char *r = th_suql_sql_rows(f.db, "SELECT _id, suql_text(suql_var_samp(price) OVER (ORDER BY _id "
                                     "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)), "
                                     "suql_text(suql_stddev_pop(price) OVER (ORDER BY _id ROWS BETWEEN "
                                     "2 PRECEDING AND CURRENT ROW)) FROM dishes ORDER BY _id");
    CHECK_STR(r, "1|NULL|0;2|1.125|0.75;3|4.5|1.224744871391589;4|40.5|3.7416573867739413;"
                 "5|180.5|7.760297817881877");
    free(r);
    th_suql_close(&f);
}

/* What a review of the PostgreSQL semantics found: an interval cast's
 * output name, the same expression qualified two ways in GROUP BY and
 * DISTINCT, an untyped literal minus a date, arithmetic at the calendar's
 * and the interval's ends, epoch of an interval with months. */
TEST(suql_funcs_review_cases)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "review.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    TH_SUQL_ROWS(&f, "SELECT (SELECT '1 day'::interval), '2 hours'::interval, name FROM restaurants "
                     "WHERE _id = 1 ORDER BY name", NULL, "1 day|02:00:00|Thai Palace");
    TH_SUQL_ROWS(&f, "SELECT lower(name), count(*) FROM restaurants r GROUP BY lower(r.name) "
                     "ORDER BY lower(r.name) LIMIT 2", NULL, "cafe blue|1;golden wok|1");
    TH_SUQL_ROWS(&f, "SELECT DISTINCT upper(location) FROM restaurants r WHERE location IS NOT NULL "
                     "ORDER BY upper(r.location) LIMIT 1", NULL, "CUPERTINO");
    TH_SUQL_ROWS(&f, "SELECT '2024-01-01' - DATE '2023-12-25', '12:00' - TIME '10:00'", NULL, "7|02:00:00");
    TH_SUQL_ROWS(&f, "SELECT DATE '2024-01-01' + 9223372036854775807", NULL, "ERROR date out of range");
    TH_SUQL_ROWS(&f, "SELECT TIMESTAMP '2024-01-31' + INTERVAL '100000000 years'", NULL,
                 "ERROR timestamp out of range");
    TH_SUQL_ROWS(&f, "SELECT INTERVAL '1 day' * 1e300", NULL, "ERROR interval out of range");
    TH_SUQL_ROWS(&f, "SELECT TIMESTAMP '2026-12-26 00:00' - TIMESTAMP '2026-12-24 12:00', "
                     "TIMESTAMP '2024-12-24 12:00' - TIMESTAMP '2026-12-26 00:00'", NULL,
                 "1 day 12:00:00|-731 days -12:00:00");
    TH_SUQL_ROWS(&f, "SELECT extract(epoch FROM INTERVAL '1 year 1 month'), extract(epoch FROM INTERVAL '1 month')",
                 NULL, "34149600.0|2592000.0");
    TH_SUQL_ROWS(&f, "SELECT date_part('years', DATE '2026-11-26'), date_part('mon', DATE '2026-11-26'), "
                     "extract(hours FROM TIME '09:30')", NULL, "2026.0|11.0|9.0");
    TH_SUQL_ROWS(&f, "SELECT TIME '12:00:00.1234567', TIME '12:00:00.1234565', TIME '12:00:00.9999996'", NULL,
                 "12:00:00.123457|12:00:00.123456|12:00:01");
    th_suql_close(&f);
}
