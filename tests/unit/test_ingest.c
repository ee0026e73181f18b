/*
 * test_ingest.c — the cell classifiers of `genie --init` (ingest/infer.c),
 * the SQL names it makes (ig_ident), its UTF-8 check (source.c), and a few
 * whole-column decisions through ig_open + ig_infer on small files: each
 * value and boundary the contract (ingest.h, ingest_int.h, genie(1))
 * promises, with the exact converted value.  tests/cli/init.sh tests the
 * command end to end.
 */
#include "harness.h"
#include "ingest/ingest_int.h"
#include "util/utf8.h"
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- integers ------------------------------------------------------------ */

static void int_is(const char *s, long long want, int line)
{
    long long v = -4242;
    if (!ig_is_int(s, &v)) th_fail(__FILE__, line, "ig_is_int(\"%s\") == 0, expected 1", s);
    else if (v != want) th_fail(__FILE__, line, "ig_is_int(\"%s\") gave %lld, expected %lld", s, v, want);
}
static void not_int(const char *s, int line)
{
    if (ig_is_int(s, NULL)) th_fail(__FILE__, line, "ig_is_int(\"%s\") == 1, expected 0", s);
}
#define INT_IS(s, v) int_is(s, v, __LINE__)
#define NOT_INT(s) not_int(s, __LINE__)

TEST(ingest_is_int_values)
{
    INT_IS("0", 0);
    INT_IS("7", 7);
    INT_IS("-12", -12);
    INT_IS("+3", 3);
    INT_IS("-0", 0);
    INT_IS("2019", 2019);
    INT_IS("123456789012345678", 123456789012345678LL);      /* 18 digits */
    INT_IS("-123456789012345678", -123456789012345678LL);
}

TEST(ingest_is_int_refuses_codes_and_non_integers)
{
    NOT_INT("02139");       /* a zip code stays text */
    NOT_INT("00");
    NOT_INT("007");
    NOT_INT("-01");
    NOT_INT("");
    NOT_INT("-");
    NOT_INT("+");
    NOT_INT("1.0");
    NOT_INT("1e3");
    NOT_INT("12a");
    NOT_INT("1 000");
    NOT_INT("1,000");
    NOT_INT("0x10");
    NOT_INT("--1");
    NOT_INT("99999999999999999999");    /* 20 digits: beyond 64 bits */
}

/* Every whole number a 64-bit integer holds is an integer: a 19-digit id
 * that is refused here falls through to real and loses its last digits
 * (1234567890123456789 is stored as 1.2345678901234568e+18). */
TEST(ingest_is_int_takes_all_64_bit_values)
{
    INT_IS("1234567890123456789", 1234567890123456789LL);
    INT_IS("9223372036854775807", 9223372036854775807LL);
    INT_IS("-9223372036854775807", -9223372036854775807LL);
    NOT_INT("9223372036854775808");     /* one past the largest */
}

/* ---- reals ---------------------------------------------------------------- */

static void real_is(const char *s, double want, int line)
{
    double v = -4242;
    if (!ig_is_real(s, &v)) th_fail(__FILE__, line, "ig_is_real(\"%s\") == 0, expected 1", s);
    else if (v != want) th_fail(__FILE__, line, "ig_is_real(\"%s\") gave %.17g, expected %.17g", s, v, want);
}
static void not_real(const char *s, int line)
{
    if (ig_is_real(s, NULL)) th_fail(__FILE__, line, "ig_is_real(\"%s\") == 1, expected 0", s);
}
#define REAL_IS(s, v) real_is(s, v, __LINE__)
#define NOT_REAL(s) not_real(s, __LINE__)

TEST(ingest_is_real_values)
{
    REAL_IS("1.5", 1.5);
    REAL_IS("-0.25", -0.25);
    REAL_IS("+2.5", 2.5);
    REAL_IS("0.5", 0.5);
    REAL_IS(".5", 0.5);
    REAL_IS("-.5", -0.5);
    REAL_IS("5.", 5.0);
    REAL_IS("12", 12.0);             /* whole numbers are numbers too */
    REAL_IS("0", 0.0);
    REAL_IS("1e3", 1000.0);
    REAL_IS("2.5E-1", 0.25);
    REAL_IS("1e+2", 100.0);
    REAL_IS("33.25", 33.25);
}

TEST(ingest_is_real_refuses)
{
    NOT_REAL("");
    NOT_REAL(".");
    NOT_REAL("-");
    NOT_REAL("1e");
    NOT_REAL("1e+");
    NOT_REAL("e5");
    NOT_REAL("02.5");       /* a leading zero: a code */
    NOT_REAL("02139");
    NOT_REAL("1.2.3");
    NOT_REAL("1,5");
    NOT_REAL("$5");
    NOT_REAL("5%");
    NOT_REAL("inf");
    NOT_REAL("nan");
    NOT_REAL("NaN");
    NOT_REAL("1e400");      /* not finite */
    NOT_REAL("0x1p3");
    NOT_REAL("call us");
}

/* ---- booleans --------------------------------------------------------------- */

static void bool_is(const char *s, int want, int line)
{
    int v = -1;
    if (!ig_is_bool(s, &v)) th_fail(__FILE__, line, "ig_is_bool(\"%s\") == 0, expected 1", s);
    else if (v != want) th_fail(__FILE__, line, "ig_is_bool(\"%s\") gave %d, expected %d", s, v, want);
}
#define BOOL_IS(s, v) bool_is(s, v, __LINE__)

TEST(ingest_is_bool)
{
    BOOL_IS("yes", 1); BOOL_IS("YES", 1); BOOL_IS("Yes", 1);
    BOOL_IS("no", 0); BOOL_IS("No", 0);
    BOOL_IS("true", 1); BOOL_IS("TRUE", 1); BOOL_IS("False", 0);
    BOOL_IS("y", 1); BOOL_IS("N", 0);
    BOOL_IS("t", 1); BOOL_IS("F", 0);
    BOOL_IS("1", 1); BOOL_IS("0", 0);
    static const char *const nots[] = { "", "2", "-1", "01", "on", "off", "yess", "truee",
                                        "nope", "ja", "oui", "10", "1.0", "tru", NULL };
    for (int i = 0; nots[i]; i++)
        if (ig_is_bool(nots[i], NULL)) th_fail(__FILE__, __LINE__, "ig_is_bool(\"%s\") == 1", nots[i]);
}

/* ---- dates ---------------------------------------------------------------- */

static void date_is(const char *s, const char *want, int line)
{
    char out[11] = "unset";
    if (!ig_is_date(s, out)) th_fail(__FILE__, line, "ig_is_date(\"%s\") == 0, expected 1", s);
    else if (strcmp(out, want)) th_fail(__FILE__, line, "ig_is_date(\"%s\") gave \"%s\", expected \"%s\"", s, out, want);
}
static void not_date(const char *s, int line)
{
    char out[11];
    if (ig_is_date(s, out)) th_fail(__FILE__, line, "ig_is_date(\"%s\") == 1 (\"%s\"), expected 0", s, out);
}
#define DATE_IS(s, v) date_is(s, v, __LINE__)
#define NOT_DATE(s) not_date(s, __LINE__)

TEST(ingest_is_date_values)
{
    DATE_IS("2023-01-05", "2023-01-05");
    DATE_IS("2023-12-31", "2023-12-31");
    DATE_IS("2024-02-29", "2024-02-29");     /* a leap year */
    DATE_IS("2000-02-29", "2000-02-29");     /* divisible by 400 */
    DATE_IS("0001-01-01", "0001-01-01");
    DATE_IS("9999-12-31", "9999-12-31");
    DATE_IS("2024/03/01", "2024-03-01");     /* slashes are read, ISO is written */
    DATE_IS("2024/02/29", "2024-02-29");
    CHECK_INT(ig_is_date("2024-06-30", NULL), 1);
    /* a named month leaves no doubt about the day (vega's films: "Jun 12 1998") */
    DATE_IS("Jun 12 1998", "1998-06-12");
    DATE_IS("June 12, 1998", "1998-06-12");
    DATE_IS("12 Jun 1998", "1998-06-12");
    DATE_IS("3 September 2006", "2006-09-03");
    DATE_IS("Sept. 30, 2006", "2006-09-30");
    DATE_IS("feb 29 2024", "2024-02-29");
}

TEST(ingest_is_date_refuses_impossible_days)
{
    NOT_DATE("2023-02-30");
    NOT_DATE("2023-02-29");     /* not a leap year */
    NOT_DATE("1900-02-29");     /* divisible by 100, not by 400 */
    NOT_DATE("2023-04-31");
    NOT_DATE("2023-06-31");
    NOT_DATE("2023-09-31");
    NOT_DATE("2023-11-31");
    NOT_DATE("2023-01-32");
    NOT_DATE("2023-13-01");
    NOT_DATE("2023-00-10");
    NOT_DATE("2023-01-00");
    NOT_DATE("0000-01-01");
}

TEST(ingest_is_date_refuses_other_shapes)
{
    NOT_DATE("");
    NOT_DATE("2024-3-01");
    NOT_DATE("2024-03-1");
    NOT_DATE("20240301");
    NOT_DATE("2024-03/01");     /* mixed separators */
    NOT_DATE("2024/03-01");
    NOT_DATE("2024.03.01");
    NOT_DATE("03/01/2024");
    NOT_DATE("01-03-2024");
    NOT_DATE("2024-03-01T10:00");
    NOT_DATE("2024-03-01 ");
    NOT_DATE("2024-0a-01");
    NOT_DATE("+024-03-01");
    NOT_DATE("soon");
    NOT_DATE("Jun 31 1998");    /* June has 30 days */
    NOT_DATE("Feb 29 2023");
    NOT_DATE("Jun 12");
    NOT_DATE("Jun 1998");
    NOT_DATE("Junk 12 1998");
    NOT_DATE("Jun 12 98");
    NOT_DATE("Jun 123 1998");
    NOT_DATE("May the 4th 2020");
    NOT_DATE("Jun 12 1998 extra");
}

/* ---- times ---------------------------------------------------------------- */

static void time_is(const char *s, const char *want, int line)
{
    char out[9] = "unset";
    if (!ig_is_time(s, out)) th_fail(__FILE__, line, "ig_is_time(\"%s\") == 0, expected 1", s);
    else if (strcmp(out, want)) th_fail(__FILE__, line, "ig_is_time(\"%s\") gave \"%s\", expected \"%s\"", s, out, want);
}
static void not_time(const char *s, int line)
{
    char out[9];
    if (ig_is_time(s, out)) th_fail(__FILE__, line, "ig_is_time(\"%s\") == 1 (\"%s\"), expected 0", s, out);
}
#define TIME_IS(s, v) time_is(s, v, __LINE__)
#define NOT_TIME(s) not_time(s, __LINE__)

TEST(ingest_is_time_values)
{
    TIME_IS("9:30", "09:30");
    TIME_IS("09:30", "09:30");
    TIME_IS("19:05:30", "19:05:30");
    TIME_IS("23:59:59", "23:59:59");
    TIME_IS("0:00", "00:00");
    TIME_IS("12:00", "12:00");
    TIME_IS("7pm", "19:00");
    TIME_IS("7PM", "19:00");
    TIME_IS("7 pm", "19:00");
    TIME_IS("7am", "07:00");
    TIME_IS("7:30 PM", "19:30");
    TIME_IS("7:30 p.m.", "19:30");
    TIME_IS("9:30 a.m.", "09:30");
    TIME_IS("12am", "00:00");       /* midnight */
    TIME_IS("12pm", "12:00");       /* noon */
    TIME_IS("12:15 AM", "00:15");
    TIME_IS("11:59pm", "23:59");
    TIME_IS("1pm", "13:00");
    CHECK_INT(ig_is_time("10:45", NULL), 1);
}

TEST(ingest_is_time_refuses)
{
    NOT_TIME("");
    NOT_TIME("7");              /* a bare number is a number */
    NOT_TIME("930");
    NOT_TIME("24:00");
    NOT_TIME("12:60");
    NOT_TIME("19:05:60");
    NOT_TIME("13pm");
    NOT_TIME("0am");
    NOT_TIME("0pm");
    NOT_TIME("9:5");
    NOT_TIME("9:305");
    NOT_TIME("9.30");
    NOT_TIME(":30");
    NOT_TIME("123:00");
    NOT_TIME("9:30 pmx");
    NOT_TIME("9:30:");
    NOT_TIME("7 o'clock");
    NOT_TIME("noon");
    NOT_TIME("pm");
    NOT_TIME("2024-01-05");
}

/* ---- null markers --------------------------------------------------------- */

TEST(ingest_is_null)
{
    static const char *const nulls[] = { "", "NULL", "null", "NA", "N/A", "n/a", NULL };
    static const char *const values[] = { "0", "none", "None", "nil", "-", "Null", "nan", "NAN",
                                          "NA ", "n.a.", "NULLS", "nullable", NULL };
    for (int i = 0; nulls[i]; i++)
        if (!ig_is_null(nulls[i])) th_fail(__FILE__, __LINE__, "ig_is_null(\"%s\") == 0", nulls[i]);
    for (int i = 0; values[i]; i++)
        if (ig_is_null(values[i])) th_fail(__FILE__, __LINE__, "ig_is_null(\"%s\") == 1", values[i]);
}

/* ---- SQL names ------------------------------------------------------------ */

static void ident_is(const char *in, const char *want, int line)
{
    char *got = ig_ident(in, "col_1");
    if (!got || strcmp(got, want))
        th_fail(__FILE__, line, "ig_ident(\"%s\") == \"%s\", expected \"%s\"", in ? in : "(null)",
                got ? got : "(null)", want);
    free(got);
}
#define IDENT_IS(in, want) ident_is(in, want, __LINE__)

TEST(ingest_ident_sanitizes)
{
    IDENT_IS("Tasting Notes", "tasting_notes");
    IDENT_IS("Année", "annee");
    IDENT_IS("café crème", "cafe_creme");
    IDENT_IS("ÀÉÎÕÜÇÑ", "aeioucn");
    IDENT_IS("In Stock", "in_stock");
    IDENT_IS("  Price ($)  ", "price");
    IDENT_IS("a--b", "a_b");
    IDENT_IS("a  -  b", "a_b");
    IDENT_IS("__x__", "x");
    IDENT_IS("camelCase", "camelcase");
    IDENT_IS("x×y", "x_y");          /* × is not a letter */
    IDENT_IS("wines.csv", "wines_csv");
    IDENT_IS("Ünïcödé_2", "unicode_2");
}

TEST(ingest_ident_keywords_digits_prefix)
{
    IDENT_IS("order", "order_");
    IDENT_IS("ORDER", "order_");
    IDENT_IS("bigint", "bigint_");             /* a name SUQL must quote (suql_is_keyword) */
    IDENT_IS("rowid", "rowid_");
    IDENT_IS("Select", "select_");
    IDENT_IS("from", "from_");
    IDENT_IS("when", "when_");
    IDENT_IS("rows", "rows");          /* PostgreSQL's reserved words only */
    IDENT_IS("key", "key");
    IDENT_IS("answer", "answer");      /* SUQL's functions stay column names */
    IDENT_IS("summary", "summary");
    IDENT_IS("null", "null_");
    IDENT_IS("table", "table_");
    IDENT_IS("rowid", "rowid_");
    IDENT_IS("orders", "orders");      /* only whole words */
    IDENT_IS("2024", "c_2024");
    IDENT_IS("9 lives", "c_9_lives");
    IDENT_IS("genie_columns", "my_genie_columns");
    IDENT_IS("Genie", "my_genie");
    IDENT_IS("genies", "genies");
    IDENT_IS("_id", "id");
}

TEST(ingest_ident_fallback)
{
    IDENT_IS("", "col_1");
    IDENT_IS(NULL, "col_1");
    IDENT_IS("列", "col_1");
    IDENT_IS("$%&", "col_1");
    IDENT_IS("   ", "col_1");
    char *s = ig_ident("", "agent");
    CHECK_STR(s, "agent");
    free(s);
}

/* ---- UTF-8 ---------------------------------------------------------------- */

#define UTF8_OK(s) CHECK_INT(gn_utf8_valid(s, sizeof s - 1), 1)
#define UTF8_BAD(s) CHECK_INT(gn_utf8_valid(s, sizeof s - 1), 0)

TEST(ingest_utf8_valid)
{
    CHECK_INT(gn_utf8_valid("", 0), 1);
    UTF8_OK("plain ascii text, long enough for the eight-byte fast path");
    UTF8_OK("Ann\xc3\xa9" "e");                     /* é */
    UTF8_OK("\xe2\x82\xac 5");                      /* € */
    UTF8_OK("\xf0\x9f\x98\x80");                    /* an emoji */
    UTF8_OK("\xef\xbf\xbf");                        /* U+FFFF */
    UTF8_OK("\xf4\x8f\xbf\xbf");                    /* U+10FFFF, the last */
    UTF8_OK("\xed\x9f\xbf");                        /* U+D7FF, before the surrogates */
    UTF8_OK("12345678\xc3\xa9" "12345678");         /* multibyte between fast runs */
    UTF8_BAD("\x80");                               /* a lone continuation byte */
    UTF8_BAD("abc\xc3");                            /* cut short */
    UTF8_BAD("\xe2\x82");
    UTF8_BAD("\xc3\x28");                           /* bad continuation */
    UTF8_BAD("\xc0\x80");                           /* overlong NUL */
    UTF8_BAD("\xc1\xbf");
    UTF8_BAD("\xe0\x80\x80");                       /* overlong */
    UTF8_BAD("\xf0\x80\x80\x80");
    UTF8_BAD("\xed\xa0\x80");                       /* a surrogate */
    UTF8_BAD("\xf4\x90\x80\x80");                   /* past U+10FFFF */
    UTF8_BAD("\xf5\x80\x80\x80");
    UTF8_BAD("\xff");
    UTF8_BAD("\xfe\xff");                           /* a UTF-16 byte order mark */
    UTF8_BAD("abcdefgh\xff" "abcdefgh");
}

TEST(ingest_utf8_refuses_nul)
{
    CHECK_INT(gn_utf8_valid("a\0b", 3), 0);
    CHECK_INT(gn_utf8_valid("abcdefghijk\0mnopqrstuvwxyz", 26), 0);    /* in the fast path */
    CHECK_INT(gn_utf8_valid("abcdefg\0", 8), 0);                         /* the last of eight */
    CHECK_INT(gn_utf8_valid("\xc3\xa9\0", 3), 0);
    CHECK_INT(gn_utf8_valid("a\0b", 1), 1);                              /* only N bytes count */
}

/* ---- whole columns: ig_open + ig_infer on a small file ---------------------- */

/* Infer the columns of CONTENT written to NAME in the test's directory;
 * *T gets the table (free with ig_tables_free).  0 or the error code. */
static int infer_file(const char *name, const char *content, ig_table **t, int *n, gn_err *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", th_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fputs(content, f);
    fclose(f);
    *t = NULL;
    *n = 0;
    gn_err_clear(e);
    int rc = ig_open(path, t, n, e);
    for (int i = 0; !rc && i < *n; i++) rc = ig_infer(&(*t)[i], NULL, NULL, e);
    return rc;
}

static const ig_column *col_named(const ig_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].name, name)) return &t->cols[i];
    return NULL;
}

static const char *type_of(const ig_table *t, const char *name)
{
    static char buf[64];
    const ig_column *c = col_named(t, name);
    if (!c) return "(no such column)";
    ig_column_type_str(c, buf, sizeof buf);
    return buf;
}

TEST(ingest_infer_types_of_a_csv)
{
    ig_table *t;
    int n;
    gn_err e;
    int rc = infer_file("kinds.csv",
        "Name,flag,ones,zip,qty,ratio,day,bad day,opens,tags,grapes,color,notes\n"
        "Ann,0,1,02139,1,1.5,2024-02-29,2023-02-30,9:30,\"[\"\"a\"\",\"\"b\"\"]\",red;green,red,"
        "The quick brown fox jumps over the lazy dog near the river\n"
        "Bob,1,1,10001,-2,2,2023-12-31,2023-02-28,7pm,\"[\"\"b\"\"]\",green;blue,white,"
        "A slow green turtle walks across the long dusty road every morning\n"
        "Cy,1,1,94301,+3,-0.25,2000-02-29,2023-01-01,19:05:30,[],red,red,"
        "Seven small birds sing sweet songs from the top of the old oak\n"
        "Di,0,1,00501,40,0,1999-01-01,2023-01-02,12am,\"[\"\"a\"\",\"\"c\"\"]\",blue;red,white,"
        "Every winter the village children build a giant snowman in the square\n",
        &t, &n, &e);
    REQUIRE(rc == 0);
    REQUIRE(n == 1);
    CHECK_STR(t[0].name, "kinds");
    CHECK_INT(t[0].rows, 4);
    CHECK_INT(t[0].ncols, 13);
    CHECK_STR(type_of(&t[0], "name"), "text");
    CHECK_STR(type_of(&t[0], "flag"), "boolean");
    CHECK_STR(type_of(&t[0], "ones"), "integer");
    CHECK_STR(type_of(&t[0], "zip"), "text");
    CHECK_STR(type_of(&t[0], "qty"), "integer");
    CHECK_STR(type_of(&t[0], "ratio"), "real");
    CHECK_STR(type_of(&t[0], "day"), "date");
    CHECK_STR(type_of(&t[0], "bad_day"), "text");
    CHECK_STR(type_of(&t[0], "opens"), "time");
    CHECK_STR(type_of(&t[0], "tags"), "list of text");
    CHECK_STR(type_of(&t[0], "grapes"), "list of enum");
    CHECK_STR(type_of(&t[0], "color"), "enum (2)");
    CHECK_STR(type_of(&t[0], "notes"), "free text");
    const ig_column *g = col_named(&t[0], "grapes");
    REQUIRE(g && g->nvals == 3);
    CHECK_INT(g->sep, ';');
    CHECK_STR(g->vals[0], "blue");
    CHECK_STR(g->vals[1], "green");
    CHECK_STR(g->vals[2], "red");
    ig_tables_free(t, n);
}

/* From 50 values on, 1 in 50 may not fit; below, every value must. */
TEST(ingest_infer_misfit_tolerance_boundary)
{
    char buf[4096];
    for (int total = 49; total <= 50; total++) {
        size_t k = (size_t)snprintf(buf, sizeof buf, "item,price\n");
        for (int i = 0; i < total; i++) {
            char price[16];
            snprintf(price, sizeof price, "%d.25", i + 1);
            k += (size_t)snprintf(buf + k, sizeof buf - k, "i%d,%s\n", i, i == 20 ? "call us" : price);
        }
        ig_table *t;
        int n;
        gn_err e;
        REQUIRE(infer_file("tol.csv", buf, &t, &n, &e) == 0);
        CHECK_STR(type_of(&t[0], "price"), total == 50 ? "real" : "text");
        ig_tables_free(t, n);
    }
}

/* The tolerance is 1 in 50, exactly: 2 misfits in 100 values keep the
 * type, 3 do not; 5 in 250 keep it, 6 do not. */
TEST(ingest_infer_misfit_tolerance_is_one_in_fifty)
{
    static const struct { int total, misfits; const char *type; } v[] = {
        { 100, 2, "real" }, { 100, 3, "text" }, { 250, 5, "real" }, { 250, 6, "text" },
    };
    static char buf[16384];
    for (size_t c = 0; c < sizeof v / sizeof *v; c++) {
        size_t k = (size_t)snprintf(buf, sizeof buf, "item,price\n");
        for (int i = 0; i < v[c].total; i++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, i < v[c].misfits ? "i%d,ask us\n" : "i%d,%d.5\n",
                                  i, i + 1);
        ig_table *t;
        int n;
        gn_err e;
        REQUIRE(infer_file("tol50.csv", buf, &t, &n, &e) == 0);
        CHECK_STR(type_of(&t[0], "price"), v[c].type);
        ig_tables_free(t, n);
    }
}

/* All values are numbers, one with a fraction: the column is real, not an
 * integer column with "9.99" as its misfit. */
TEST(ingest_infer_one_fraction_makes_real)
{
    char buf[4096];
    size_t k = (size_t)snprintf(buf, sizeof buf, "item,price\n");
    for (int i = 0; i < 60; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "i%d,%s\n", i, i == 30 ? "9.99" : "12");
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("frac.csv", buf, &t, &n, &e) == 0);
    CHECK_STR(type_of(&t[0], "price"), "real");
    ig_tables_free(t, n);
}

TEST(ingest_infer_enum_cap)
{
    char buf[8192];
    for (int nv = 24; nv <= 25; nv++) {
        size_t k = (size_t)snprintf(buf, sizeof buf, "id,kind\n");
        for (int i = 0; i < 2 * nv; i++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "r%d,kind %c\n", i, 'a' + i % nv);
        ig_table *t;
        int n;
        gn_err e;
        REQUIRE(infer_file("enum.csv", buf, &t, &n, &e) == 0);
        CHECK_STR(type_of(&t[0], "kind"), nv == 24 ? "enum (24)" : "text");
        ig_tables_free(t, n);
    }
}

/* A header cell that reads like a null marker is still a name. */
TEST(ingest_header_null_markers_are_names)
{
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("regions.csv", "NA,EU,null\n1,2,3\n4,5,6\n", &t, &n, &e) == 0);
    REQUIRE(t[0].ncols == 3);
    CHECK_STR(t[0].cols[0].name, "na");
    CHECK_STR(t[0].cols[0].src, "NA");
    CHECK_STR(t[0].cols[1].name, "eu");
    CHECK_STR(t[0].cols[2].name, "null_");
    ig_tables_free(t, n);
}

TEST(ingest_duplicate_and_empty_header_names)
{
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("dups.csv", "Color,color,,COLOR,_id\nred,blue,x,green,1\n", &t, &n, &e) == 0);
    REQUIRE(t[0].ncols == 5);
    CHECK_STR(t[0].cols[0].name, "color");
    CHECK_STR(t[0].cols[1].name, "color_2");
    CHECK_STR(t[0].cols[2].name, "col_3");
    CHECK_STR(t[0].cols[3].name, "color_3");
    CHECK_STR(t[0].cols[4].name, "id");
    ig_tables_free(t, n);
}

TEST(ingest_errors_name_file_and_line)
{
    ig_table *t;
    int n;
    gn_err e;
    char m[1024];
    CHECK(infer_file("rag.csv", "a,b\n1,2\n\n3\n", &t, &n, &e) == GN_EPARSE);
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "rag.csv:4:");
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "this row has 1 field, the header 2");
    ig_tables_free(t, n);
    CHECK(infer_file("q.csv", "a,b\n1,\"x\ny\"\n2,\"open\n3,4\n", &t, &n, &e) == GN_EPARSE);
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "q.csv:4:");
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "a quoted field is never closed");
    ig_tables_free(t, n);
    CHECK(infer_file("u.csv", "a,b\n1,2\n3,\xff\n", &t, &n, &e) == GN_EPARSE);
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "u.csv:3:");
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "invalid UTF-8 in column b");
    ig_tables_free(t, n);
    /* in the header too, naming the column it is in */
    CHECK(infer_file("h.csv", "a,b,c\xff\n1,2,3\n", &t, &n, &e) == GN_EPARSE);
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "h.csv:1:");
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "invalid UTF-8 in column 3");
    ig_tables_free(t, n);
    CHECK(infer_file("j.jsonl", "{\"a\":1}\n{\"a\":2,}\n", &t, &n, &e) == GN_EPARSE);
    CHECK_CONTAINS(gn_err_str(&e, m, sizeof m), "j.jsonl:2:");
    ig_tables_free(t, n);
}

/* ---- the LLM's drafts (draft.c) ------------------------------------------- */

TEST(ingest_drafts_parse_reads_lines_leniently)
{
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("wines.csv", "name,price,zip,color\nA,1.5,02139,red\nB,2,10001,red\n", &t, &n, &e) == 0);
    ig_drafts d;
    ig_drafts_parse(t, n,
                    "Sure, here they are:\n"
                    "**agent**: You help people pick a wine.\n"
                    "greeting:   \"Hello there!\"  \n"
                    "- wines: One wine.\n"
                    "1. wines.price: Price\tin dollars.\n"
                    "`wines.zip`: A ZIP code.\n"
                    "WINES.COLOR: The colour.\n"
                    "wines.nosuch: not a column\n"
                    "no colon on this line\n"
                    "name: the bare column, one table\n"
                    "other.price: another table\n"
                    "agent:\n",
                    &d);
    CHECK_STR(d.agent, "You help people pick a wine.");
    CHECK_STR(d.greeting, "Hello there!");
    REQUIRE(d.ntables == 1);
    CHECK_STR(d.table[0], "One wine.");
    REQUIRE(d.ncols[0] == 4);
    CHECK_STR(d.column[0][0], "the bare column, one table");
    CHECK_STR(d.column[0][1], "Price in dollars.");       /* a tab made a space */
    CHECK_STR(d.column[0][2], "A ZIP code.");
    CHECK_STR(d.column[0][3], "The colour.");
    CHECK_INT(d.found, 7);
    ig_drafts_free(&d);
    ig_drafts_parse(t, n, "nothing useful here\n", &d);
    CHECK_INT(d.found, 0);
    CHECK(d.agent == NULL);
    ig_drafts_free(&d);
    /* a model's near miss of a column's name (a chatty model wrote these) */
    ig_drafts_parse(t, n, "wines.prices: Price per bottle.\nwines.colors: Red or white.\n", &d);
    CHECK_STR(d.column[0][1], "Price per bottle.");
    CHECK_STR(d.column[0][3], "Red or white.");
    ig_drafts_free(&d);
    ig_tables_free(t, n);
}

TEST(ingest_drafts_parse_two_tables)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", th_tmpdir());
    char p1[1100], p2[1100];
    snprintf(p1, sizeof p1, "%s/books.csv", dir);
    snprintf(p2, sizeof p2, "%s/authors.csv", dir);
    FILE *f = fopen(p1, "w");
    REQUIRE(f);
    fputs("title,year\nDune,1965\nEmma,1815\n", f);
    fclose(f);
    f = fopen(p2, "w");
    REQUIRE(f);
    fputs("name,year\nHerbert,1920\nAusten,1775\n", f);
    fclose(f);
    ig_table *t = NULL;
    int n = 0;
    gn_err e;
    gn_err_clear(&e);
    REQUIRE(ig_open(p1, &t, &n, &e) == 0);
    REQUIRE(ig_open(p2, &t, &n, &e) == 0);
    for (int i = 0; i < n; i++) REQUIRE(ig_infer(&t[i], NULL, NULL, &e) == 0);
    ig_drafts d;
    ig_drafts_parse(t, n, "books: A book.\nauthors.year: Year of birth.\nyear: which table?\n"
                    "books.year: Year published.\n", &d);
    CHECK_STR(d.table[0], "A book.");
    CHECK(d.table[1] == NULL);
    CHECK_STR(d.column[0][1], "Year published.");
    CHECK_STR(d.column[1][1], "Year of birth.");
    CHECK(d.column[0][0] == NULL);
    CHECK_INT(d.found, 3);
    ig_drafts_free(&d);
    ig_tables_free(t, n);
}

TEST(ingest_drafts_parse_cuts_at_300_bytes_on_a_character)
{
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("w.csv", "name,v\nA,1\nB,2\n", &t, &n, &e) == 0);
    char reply[1200];
    char long_a[301];
    memset(long_a, 'a', 299);
    long_a[299] = '\0';
    /* 299 bytes, then "é" (2 bytes) across the limit */
    snprintf(reply, sizeof reply, "agent: %s\xc3\xa9 and more\ngreeting: %s%s\n", long_a, long_a, "b");
    ig_drafts d;
    ig_drafts_parse(t, n, reply, &d);
    REQUIRE(d.agent && d.greeting);
    CHECK(strlen(d.agent) <= 300);
    CHECK_INT(gn_utf8_valid(d.agent, strlen(d.agent)), 1);
    CHECK_INT(strncmp(d.agent, long_a, 299), 0);
    CHECK_INT(strlen(d.greeting), 300);                   /* exactly 300: kept whole */
    ig_drafts_free(&d);
    ig_tables_free(t, n);
}

TEST(ingest_draft_agent_ini_is_one_line_per_key)
{
    ig_table *t;
    int n;
    gn_err e;
    REQUIRE(infer_file("w.csv", "name,v\nA,1\nB,2\n", &t, &n, &e) == 0);
    ig_drafts d;
    ig_drafts_parse(t, n, "agent: You help; with # wines.\ngreeting: Hi = there\n", &d);
    gn_buf b;
    gn_buf_init(&b);
    ig_draft_agent_ini(t, n, "w", "w.db", &d, &b);
    REQUIRE(b.data);
    CHECK_CONTAINS(b.data, "\n[agent]\nname = w\n");
    CHECK_CONTAINS(b.data, "\ndatabase = w.db\nspec = worksheet.csv\n");
    CHECK_CONTAINS(b.data, "\ngreeting = Hi = there\n");
    /* no comment marker left in a value: inih would cut it there */
    const char *desc = strstr(b.data, "\ndescription = ");
    REQUIRE(desc);
    const char *end = strchr(desc + 1, '\n');
    REQUIRE(end);
    CHECK(!memchr(desc, ';', (size_t)(end - desc)) && !memchr(desc, '#', (size_t)(end - desc)));
    CHECK(strncmp(desc, "\ndescription = You help", 23) == 0);
    gn_buf_release(&b);
    ig_drafts_free(&d);
    ig_tables_free(t, n);
}
