/*
 * fuzz_suql.c — libFuzzer target for the SUQL front end: suql_parse
 * (libpg_query, the JSON walkers, the limits), suql_print and
 * suql_error_caret.
 *
 * The input is query text.  Beyond the sanitizers' checks, the target
 * aborts when a parsed query prints text that does not parse again, or
 * that prints differently the second time (the printer's contract), and
 * when an error leaves a query behind or has a position past the text, and
 * when emitted SQL holds a ';' or a comment outside its string literals
 * and quoted identifiers (it must always be one statement).
 * Seeds: tests/suql/seeds (one query per file, from the golden cases).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iengine tests/fuzz/fuzz_suql.c \
 *       engine/suql/{arena,ast,print,scan,parse,parse_expr,parse_stmt}.c \
 *       engine/util/{buf,err,xmem}.c -lcjson -lpg_query -lm -o /tmp/fuzz_suql
 *   /tmp/fuzz_suql -max_total_time=60 CORPUS_DIR tests/suql/seeds
 */
#include "store/kb.h"
#include "suql/analyze.h"
#include "suql/emit.h"
#include "suql/parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const char *text, const gn_err *e, const suql_query *q)
{
    if (q) abort();
    int lines = 1;
    for (const char *s = text; *s; s++) lines += *s == '\n';
    if (e->line < 0 || e->line > lines) abort();
    gn_buf b;
    gn_buf_init(&b);
    suql_error_caret(text, e, &b);
    if (e->line > 0 && !strstr(b.data, "^\n")) abort();
    gn_buf_release(&b);
}

/* The sample restaurants' schema (the literals are never written: S() only
 * satisfies the char * members under -Wwrite-strings). */
#define S(lit) ((char *)(lit))
static st_schema *schema(void)
{
    static st_schema s;
    static st_table t;
    static char *prices[] = { S("cheap"), S("moderate"), S("expensive"), S("luxury") };
    static st_column cols[] = {
        { S("_id"), S("int"), 0, 0, NULL, 0, NULL, 0 },
        { S("name"), S("text"), 0, 0, NULL, 0, NULL, 0 },
        { S("cuisines"), S("text"), 1, 0, NULL, 0, NULL, 1 },
        { S("price"), S("enum"), 0, 0, prices, 4, NULL, 0 },
        { S("rating"), S("real"), 0, 0, NULL, 0, NULL, 0 },
        { S("num_reviews"), S("int"), 0, 0, NULL, 0, NULL, 0 },
        { S("location"), S("text"), 0, 0, NULL, 0, NULL, 0 },
        { S("opening_hours"), S("text"), 0, 0, NULL, 0, NULL, 0 },
        { S("popular_dishes"), S("text"), 1, 1, NULL, 0, NULL, 0 },
        { S("reviews"), S("text"), 1, 1, NULL, 0, NULL, 0 },
    };
    t.name = S("restaurants");
    t.cols = cols;
    t.ncols = (int)(sizeof cols / sizeof cols[0]);
    s.tables = &t;
    s.ntables = 1;
    return &s;
}

/* One statement: no ';' and no comment outside '...' and "...". */
static void check_sql(const char *sql)
{
    for (const char *p = sql; *p; p++) {
        if (*p == '\'' || *p == '"') {
            char q = *p;
            for (p++; *p && !(*p == q && p[1] != q); p++)
                if (*p == q) p++;
            if (!*p) abort();
            continue;
        }
        if (*p == ';' || (*p == '-' && p[1] == '-') || (*p == '/' && p[1] == '*')) {
            fprintf(stderr, "emitted SQL is not one statement: %s\n", sql);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    suql_query *q = NULL;
    gn_err e;
    if (suql_parse(text, &q, &e)) {
        check_error(text, &e, q);
        free(text);
        return 0;
    }
    gn_buf once, twice;
    gn_buf_init(&once);
    gn_buf_init(&twice);
    suql_print(q, &once);
    suql_query *q2 = NULL;
    if (suql_parse(once.data, &q2, &e)) {
        fprintf(stderr, "reprint does not parse: %s\n  %s\n", e.msg, once.data);
        abort();
    }
    suql_print(q2, &twice);
    if (strcmp(once.data, twice.data)) {
        fprintf(stderr, "reprint differs:\n  %s\n  %s\n", once.data, twice.data);
        abort();
    }
    suql_query_free(q2);
    if (suql_analyze(q, schema(), &e) == 0) {
        gn_buf sql;
        gn_buf_init(&sql);
        if (suql_emit_select(q, NULL, NULL, &sql, &e) == 0) check_sql(sql.data);
        gn_buf_release(&sql);
    }
    suql_query_free(q);
    gn_buf_release(&once);
    gn_buf_release(&twice);
    free(text);
    return 0;
}
