/*
 * test_suql_result.c — result tables: the fitted text table (widths,
 * ellipsis, UTF-8, control characters), JSON and CSV; typed columns
 * (booleans, arrays) and numbers written as PostgreSQL's row_to_json.
 */
#include "harness.h"

#include "suql/result.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void sample(suql_result *r)
{
    const char *names[] = { "name", "rating", "n", "reviews" };
    suql_result_init(r, names, 4);
    suql_cell *c = suql_result_add_row(r);
    suql_cell_set_text(&c[0], "Kaito");
    suql_cell_set_real(&c[1], 4.5);
    suql_cell_set_int(&c[2], 12);
    suql_cell_set_text(&c[3], "Great sushi, \"fresh\".\nWould go again, definitely, many times over.");
    c = suql_result_add_row(r);
    suql_cell_set_text(&c[0], "寿司 Bar");
    suql_cell_set_real(&c[1], 4);
    suql_cell_set_text(&c[3], NULL);
}

/* Display columns of a UTF-8 line (the test's own count: wide CJK = 2, … = 1). */
static int cols(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n;) {
        unsigned char u = (unsigned char)s[i];
        if (u < 0x80) { w++; i++; }
        else if ((u & 0xf0) == 0xe0) { w += (u == 0xe2) ? 1 : 2; i += 3; }
        else { w++; i += (u & 0xe0) == 0xc0 ? 2 : 4; }
    }
    return w;
}

TEST(suql_result_table_fits_the_width)
{
    suql_result r;
    sample(&r);
    gn_buf b;
    gn_buf_init(&b);
    suql_result_table(&r, 40, &b);
    int lines = 0;
    for (const char *p = b.data; *p;) {
        size_t n = strcspn(p, "\n");
        CHECK(cols(p, n) <= 40);
        lines++;
        p += n + (p[n] == '\n');
    }
    CHECK_INT(lines, 5);
    CHECK_CONTAINS(b.data, "name");
    CHECK_CONTAINS(b.data, "Kaito");
    CHECK_CONTAINS(b.data, "4.5");
    CHECK_CONTAINS(b.data, "4.0");
    CHECK_CONTAINS(b.data, "寿司 Bar");
    CHECK_CONTAINS(b.data, "\xe2\x80\xa6");          /* the long review is cut */
    CHECK(!strstr(b.data, "sushi, \"fresh\".\n"));    /* its newline became a space */
    CHECK_CONTAINS(b.data, "(2 rows)\n");
    gn_buf_reset(&b);
    /* Wide enough: nothing cut. */
    suql_result_table(&r, 200, &b);
    CHECK(!strstr(b.data, "\xe2\x80\xa6"));
    CHECK_CONTAINS(b.data, "many times over.");
    gn_buf_release(&b);
    suql_result_release(&r);
}

TEST(suql_result_json_and_csv)
{
    suql_result r;
    sample(&r);
    gn_buf b;
    gn_buf_init(&b);
    suql_result_json(&r, &b);
    cJSON *j = cJSON_Parse(b.data);
    REQUIRE(j && cJSON_GetArraySize(j) == 2);
    cJSON *o = cJSON_GetArrayItem(j, 0);
    CHECK(cJSON_GetObjectItem(o, "rating")->valuedouble == 4.5);
    CHECK_INT(cJSON_GetObjectItem(o, "n")->valueint, 12);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(j, 1), "reviews")));
    cJSON_Delete(j);
    gn_buf_reset(&b);
    suql_result_csv(&r, &b);
    CHECK_STR(b.data, "name,rating,n,reviews\r\n"
                      "Kaito,4.5,12,\"Great sushi, \"\"fresh\"\".\nWould go again, definitely, many times over.\"\r\n"
                      "寿司 Bar,4.0,,\r\n");
    gn_buf_release(&b);
    suql_result_release(&r);
    /* Repeated names get a suffix in JSON. */
    const char *names[] = { "x", "x" };
    suql_result_init(&r, names, 2);
    suql_cell *c = suql_result_add_row(&r);
    suql_cell_set_int(&c[0], 1);
    suql_cell_set_int(&c[1], 2);
    gn_buf_init(&b);
    suql_result_json(&r, &b);
    CHECK_CONTAINS(b.data, "\"x:2\":\t2");
    gn_buf_release(&b);
    suql_result_release(&r);
}

/* One row of the values row_to_json must write exactly, the columns typed
 * as the engine types them. */
static void typed(suql_result *r)
{
    const char *names[] = { "big", "lo", "r", "e", "f", "arr", "none", "b", "nb", "n", "nan", "inf", "neg",
                            "nums", "txt" };
    suql_result_init(r, names, 15);
    r->types[2] = r->types[3] = r->types[4] = (suql_coltype){ SUQL_VT_REAL, 0 };
    r->types[5] = r->types[6] = r->types[13] = (suql_coltype){ SUQL_VT_TEXT, 1 };
    r->types[7] = r->types[8] = r->types[9] = (suql_coltype){ SUQL_VT_BOOL, 0 };
    suql_cell *c = suql_result_add_row(r);
    suql_cell_set_int(&c[0], 9007199254740993LL);
    suql_cell_set_int(&c[1], -9223372036854775807LL - 1);
    suql_cell_set_real(&c[2], 0.1 + 0.2);
    suql_cell_set_real(&c[3], 1e300);
    suql_cell_set_real(&c[4], 4.0);
    suql_cell_set_text(&c[5], "[\"a\", \"b \\\"1\\\"\"]");
    suql_cell_set_text(&c[6], "[]");
    suql_cell_set_int(&c[7], 1);
    suql_cell_set_int(&c[8], 0);
    /* c[9]: a NULL boolean */
    suql_cell_set_real(&c[10], NAN);
    suql_cell_set_real(&c[11], INFINITY);
    suql_cell_set_real(&c[12], -INFINITY);
    suql_cell_set_text(&c[13], "[9007199254740993, 0.30000000000000004, 4.0, -1e-05, [2], \"7\", "
                               "{\"k\\\"1\": 2.50, \"n\": -9007199254740993}]");
    suql_cell_set_text(&c[14], "[1]");         /* type unknown: the text, as a string */
}

TEST(suql_result_json_writes_values_as_row_to_json)
{
    suql_result r;
    typed(&r);
    cJSON *j = suql_result_cjson(&r, -1);
    char *s = cJSON_PrintUnformatted(j);
    CHECK_STR(s, "[{\"big\":9007199254740993,\"lo\":-9223372036854775808,\"r\":0.30000000000000004,"
                 "\"e\":1e+300,\"f\":4,\"arr\":[\"a\",\"b \\\"1\\\"\"],\"none\":[],\"b\":true,"
                 "\"nb\":false,\"n\":null,\"nan\":\"NaN\",\"inf\":\"Infinity\",\"neg\":\"-Infinity\","
                 "\"nums\":[9007199254740993,0.30000000000000004,4,-1e-05,[2],\"7\","
                 "{\"k\\\"1\":2.5,\"n\":-9007199254740993}],\"txt\":\"[1]\"}]");
    /* Numbers are raw items with their exact text. */
    cJSON *o = cJSON_GetArrayItem(j, 0);
    CHECK(cJSON_IsRaw(cJSON_GetObjectItem(o, "big")));
    CHECK(cJSON_IsBool(cJSON_GetObjectItem(o, "b")));
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(o, "arr")));
    free(s);
    cJSON_Delete(j);
    /* --format json prints the same values in cJSON's layout, and it parses. */
    gn_buf b;
    gn_buf_init(&b);
    suql_result_json(&r, &b);
    CHECK_CONTAINS(b.data, "\"big\":\t9007199254740993,");
    CHECK_CONTAINS(b.data, "\"r\":\t0.30000000000000004,");
    CHECK_CONTAINS(b.data, "\"f\":\t4,");
    CHECK_CONTAINS(b.data, "\"b\":\ttrue,");
    j = cJSON_Parse(b.data);
    REQUIRE(j);
    CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(j, 0), "none")), 0);
    cJSON_Delete(j);
    gn_buf_release(&b);
    suql_result_release(&r);
}

TEST(suql_result_reals_in_postgres_float8_form)
{
    static const struct { double d; const char *want; } cases[] = {
        { 4.0, "4" }, { -0.5, "-0.5" }, { 0.1, "0.1" }, { 1.0 / 3, "0.3333333333333333" },
        { 1e15, "1e+15" }, { 123456789012345.0, "123456789012345" }, { 1e14, "100000000000000" },
        { 0.0001, "0.0001" }, { 0.00001, "1e-05" }, { 1.5e-300, "1.5e-300" }, { 2.5e20, "2.5e+20" },
        { 1.7976931348623157e308, "1.7976931348623157e+308" }, { 5e-324, "5e-324" }, { 0.0, "0" },
        { -0.0, "-0" }, { 100.0, "100" }, { 9007199254740993.0, "9.007199254740992e+15" },
    };
    const char *names[] = { "x" };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        suql_result r;
        suql_result_init(&r, names, 1);
        suql_cell_set_real(&suql_result_add_row(&r)[0], cases[k].d);
        cJSON *j = suql_result_cjson(&r, -1);
        const cJSON *v = cJSON_GetObjectItem(cJSON_GetArrayItem(j, 0), "x");
        CHECK(cJSON_IsRaw(v));
        if (cJSON_IsRaw(v)) {
            CHECK_STR(v->valuestring, cases[k].want);
            CHECK(strtod(v->valuestring, NULL) == cases[k].d);
        }
        cJSON_Delete(j);
        suql_result_release(&r);
    }
}

TEST(suql_result_table_and_csv_show_types)
{
    suql_result r;
    typed(&r);
    gn_buf b;
    gn_buf_init(&b);
    suql_result_csv(&r, &b);
    CHECK_CONTAINS(b.data, "\r\n9007199254740993,-9223372036854775808,0.30000000000000004,1e+300,4.0,"
                           "\"[\"\"a\"\", \"\"b \\\"\"1\\\"\"\"\"]\",[],true,false,,");
    gn_buf_reset(&b);
    suql_result_table(&r, 400, &b);
    CHECK_CONTAINS(b.data, "9007199254740993  -9223372036854775808");
    CHECK_CONTAINS(b.data, "true  false");
    gn_buf_release(&b);
    suql_result_release(&r);
    /* Without types (unknown), 1/0 stay numbers. */
    const char *names[] = { "b" };
    suql_result_init(&r, names, 1);
    suql_cell_set_int(&suql_result_add_row(&r)[0], 1);
    gn_buf_init(&b);
    suql_result_csv(&r, &b);
    CHECK_STR(b.data, "b\r\n1\r\n");
    gn_buf_reset(&b);
    suql_result_json(&r, &b);
    CHECK_CONTAINS(b.data, "\"b\":\t1\n");
    gn_buf_release(&b);
    suql_result_release(&r);
}
