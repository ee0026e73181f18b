/*
 * test_suql_result.c — result tables: the fitted text table (widths,
 * ellipsis, UTF-8, control characters), JSON and CSV.
 */
#include "harness.h"

#include "suql/result.h"

#include <cjson/cJSON.h>

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
