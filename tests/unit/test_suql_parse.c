/*
 * test_suql_parse.c — the SUQL front end: the golden cases of
 * tests/suql/parse.golden (one per construct, and the errors), printing
 * then parsing again, the 100 queries of the SUQL paper's restaurant
 * corpus, the tree built for the paper's query, error positions and
 * carets, the read-only rule, injection attempts and the limits.
 */
#include "corpus.h"
#include "golden.h"
#include "harness.h"
#include "suql/parse.h"

#include <stdlib.h>

static const char *code_name(int code)
{
    static const char *const names[] = {
        "OK", "EUSAGE", "EIO", "EPARSE", "EDB", "ECORRUPT", "ENOTFOUND",
        "ENET", "ESTALE", "ELIMIT", "ECANCEL"
    };
    return code >= 0 && code < (int)(sizeof names / sizeof *names) ? names[code] : "?";
}

/* The printed form of TEXT, or "ERROR <code> <line>:<col> <message>";
 * the caller frees. */
static char *outcome(const char *text)
{
    suql_query *q;
    gn_err e;
    gn_buf b;
    gn_buf_init(&b);
    if (suql_parse(text, &q, &e) == 0) {
        suql_print(q, &b);
        suql_query_free(q);
    } else {
        gn_buf_printf(&b, "ERROR %s %d:%d %s", code_name(e.code), e.line, e.col, e.msg);
    }
    return gn_buf_detach(&b);
}

/* Printing then parsing again gives the same text. */
static void check_reprint(const char *printed, const char *what)
{
    char *again = outcome(printed);
    if (strcmp(again, printed))
        th_fail(__FILE__, __LINE__, "%s: reprint differs:\n    %s\n    %s", what, printed, again);
    free(again);
}

/* ---- golden cases --------------------------------------------------- */


/* tests/suql/parse.golden: every case gives its recorded outcome.
 * GENIE_UPDATE_GOLDEN=1 rewrites the outcomes (then review the diff). */
TEST(suql_parse_golden)
{
    const char *path = th_path("tests/suql/parse.golden");
    /* The file's preamble comment is the head of the first case. */
    th_gcase *v;
    int n = th_golden_load(path, &v);
    CHECK(n >= 95);
    gn_buf regen;
    gn_buf_init(&regen);
    int ok = 0, errors = 0, update = getenv("GENIE_UPDATE_GOLDEN") != NULL;
    for (int i = 0; i < n; i++) {
        char *got = outcome(v[i].query);
        if (!update && strcmp(got, v[i].expect))
            th_fail(__FILE__, __LINE__,
                    "golden case %d (line %d):\n    %s\n  gave\n    %s\n  expected\n    %s",
                    i + 1, v[i].line, v[i].query, got, v[i].expect);
        if (!strncmp(got, "ERROR ", 6)) errors++;
        else ok++;
        if (update) th_golden_append(&regen, path, i, &v[i], got);
        free(got);
    }
    CHECK(ok >= 40);
    CHECK(errors >= 40);
    if (update && n >= 0) {
        FILE *f = fopen(path, "w");
        REQUIRE(f);
        fputs(regen.data, f);
        fclose(f);
    }
    gn_buf_release(&regen);
    th_golden_free(v, n);
}

/* Every golden query that parses prints text that parses to the same
 * printed text. */
TEST(suql_parse_golden_reprints)
{
    th_gcase *v;
    int n = th_golden_load(th_path("tests/suql/parse.golden"), &v);
    REQUIRE(n > 0);
    for (int i = 0; i < n; i++) {
        char *got = outcome(v[i].query);
        if (strncmp(got, "ERROR ", 6)) check_reprint(got, v[i].query);
        free(got);
    }
    th_golden_free(v, n);
}

/* ---- the SUQL paper's corpus ---------------------------------------- */


/* All 100 "Predicted SUQL" queries parse, and reprint stably. */
TEST(suql_parse_restaurant_corpus)
{
    th_corpus st;
    REQUIRE(th_corpus_load(&st) == 0);
    CHECK_INT(st.n, 100);
    int parsed = 0, answers = 0;
    for (int i = 0; i < st.n; i++) {
        suql_query *q;
        gn_err e;
        if (suql_parse(st.queries[i], &q, &e)) {
            th_fail(__FILE__, __LINE__, "corpus query %d: %d:%d %s\n    %s", i + 1,
                    e.line, e.col, e.msg, st.queries[i]);
            continue;
        }
        parsed++;
        gn_buf b;
        gn_buf_init(&b);
        suql_print(q, &b);
        answers += strstr(b.data, "answer(") != NULL;
        check_reprint(b.data, st.queries[i]);
        gn_buf_release(&b);
        suql_query_free(q);
    }
    CHECK_INT(parsed, 100);
    CHECK(answers > 50);
    th_corpus_free(&st);
}

/* ---- the tree ------------------------------------------------------- */

static const char *paper_query =
    "SELECT *, summary(reviews), answer(reviews, 'what is the best barbecue place?') "
    "FROM restaurants WHERE 'barbecue' = ANY (cuisines) AND location = 'San Francisco' "
    "AND answer(popular_dishes, 'does this restaurant serve pulled pork?') = 'Yes' "
    "ORDER BY rating DESC LIMIT 1;";

TEST(suql_parse_paper_query_tree)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse(paper_query, &q, &e) == 0);
    const suql_select *s = q->select;
    CHECK_STR(q->text, paper_query);
    CHECK_INT(s->pos, 0);
    REQUIRE(s->ntargets == 3);
    CHECK_INT(s->targets[0].expr->kind, SUQL_E_STAR);
    CHECK(s->targets[0].expr->qual == NULL);
    CHECK_INT(s->targets[1].expr->kind, SUQL_E_SUMMARY);
    REQUIRE(s->targets[2].expr->kind == SUQL_E_ANSWER);
    const suql_expr *a = s->targets[2].expr;
    REQUIRE(a->nargs == 2);
    CHECK_INT(a->args[0]->kind, SUQL_E_COLUMN);
    CHECK_STR(a->args[0]->name, "reviews");
    CHECK_INT(a->args[1]->kind, SUQL_E_STRING);
    CHECK_STR(a->args[1]->text, "what is the best barbecue place?");
    CHECK_INT(a->pos, (long long)(strstr(paper_query, "answer(") - paper_query));
    REQUIRE(s->nfrom == 1);
    CHECK_INT(s->from[0]->kind, SUQL_FROM_TABLE);
    CHECK_STR(s->from[0]->table, "restaurants");
    CHECK(s->from[0]->alias == NULL);
    const suql_expr *w = s->where;
    REQUIRE(w && w->kind == SUQL_E_AND && w->nargs == 3);
    CHECK_INT(w->args[0]->kind, SUQL_E_ANY);
    CHECK_INT(w->args[0]->op, SUQL_OP_EQ);
    CHECK_STR(w->args[0]->l->text, "barbecue");
    CHECK_STR(w->args[0]->r->name, "cuisines");
    CHECK(w->args[0]->sub == NULL);
    CHECK_INT(w->args[1]->kind, SUQL_E_CMP);
    CHECK_INT(w->args[2]->kind, SUQL_E_CMP);
    CHECK_INT(w->args[2]->l->kind, SUQL_E_ANSWER);
    CHECK_INT(w->args[2]->pos, (long long)(strstr(paper_query, "= 'Yes'") - paper_query));
    REQUIRE(s->norder == 1);
    CHECK_STR(s->order[0].expr->name, "rating");
    CHECK(s->order[0].desc);
    CHECK_INT(s->order[0].nulls, SUQL_NULLS_DEFAULT);
    REQUIRE(s->limit && s->limit->kind == SUQL_E_INT);
    CHECK_INT(s->limit->ival, 1);
    CHECK(!s->offset && !s->having && !s->ngroup && !s->nctes && !s->distinct);
    suql_query_free(q);
}

static suql_expr *first_target(suql_query *q)
{
    return q->select->targets[0].expr;
}

/* libpg_query's JSON drops the value of negative integers; it is read back
 * from the text, whatever the spelling. */
TEST(suql_parse_negative_integers)
{
    static const struct { const char *q; long long v; } cases[] = {
        { "SELECT -5", -5 }, { "SELECT - 5", -5 }, { "SELECT -(5)", -5 },
        { "SELECT -/*c*/ 5", -5 }, { "SELECT -(-(-7))", -7 }, { "SELECT 0", 0 },
        { "SELECT -0", 0 }, { "SELECT -2147483647", -2147483647 },
        { "SELECT -2147483648", -2147483648LL }, { "SELECT -9000000000", -9000000000LL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        suql_query *q;
        gn_err e;
        if (suql_parse(cases[i].q, &q, &e)) {
            th_fail(__FILE__, __LINE__, "%s: %s", cases[i].q, e.msg);
            continue;
        }
        const suql_expr *x = first_target(q);
        CHECK_INT(x->kind, SUQL_E_INT);
        if (x->ival != cases[i].v)
            th_fail(__FILE__, __LINE__, "%s gave %lld", cases[i].q, x->ival);
        suql_query_free(q);
    }
}

TEST(suql_parse_literal_values)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT 4.5, -0.25, 1e3, 12345678901, 99999999999999999999, "
                       "'a''b', TRUE, NULL", &q, &e) == 0);
    suql_target *t = q->select->targets;
    CHECK_INT(t[0].expr->kind, SUQL_E_FLOAT);
    CHECK(t[0].expr->fval == 4.5);
    CHECK_STR(t[0].expr->text, "4.5");
    CHECK(t[1].expr->fval == -0.25);
    CHECK(t[2].expr->fval == 1000.0);
    CHECK_STR(t[2].expr->text, "1e3");
    CHECK_INT(t[3].expr->kind, SUQL_E_INT);
    CHECK_INT(t[3].expr->ival, 12345678901LL);
    CHECK_INT(t[4].expr->kind, SUQL_E_FLOAT);
    CHECK_STR(t[4].expr->text, "99999999999999999999");
    CHECK_STR(t[5].expr->text, "a'b");
    CHECK_INT(t[6].expr->kind, SUQL_E_BOOL);
    CHECK_INT(t[6].expr->ival, 1);
    CHECK_INT(t[7].expr->kind, SUQL_E_NULL);
    suql_query_free(q);
}

TEST(suql_parse_flattens_and_or)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT 1 WHERE (a AND (b AND c)) AND d OR (e OR (f OR g))", &q, &e) == 0);
    const suql_expr *w = q->select->where;
    REQUIRE(w->kind == SUQL_E_OR);
    CHECK_INT(w->nargs, 4);
    CHECK_INT(w->args[0]->kind, SUQL_E_AND);
    CHECK_INT(w->args[0]->nargs, 4);
    for (int i = 1; i < w->nargs; i++) CHECK_INT(w->args[i]->kind, SUQL_E_COLUMN);
    suql_query_free(q);
}

TEST(suql_parse_from_items)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT single_review FROM restaurants AS r, "
                       "unnest(reviews) AS single_review, unnest(cuisines) c(cuisine), "
                       "(SELECT 1) AS s LEFT JOIN t USING (id)", &q, &e) == 0);
    suql_from **f = q->select->from;
    REQUIRE(q->select->nfrom == 4);
    CHECK_STR(f[0]->alias, "r");
    CHECK_INT(f[1]->kind, SUQL_FROM_FUNC);
    CHECK_STR(f[1]->func->name, "unnest");
    CHECK_STR(f[1]->alias, "single_review");
    CHECK_INT(f[1]->ncols, 0);
    REQUIRE(f[2]->ncols == 1);
    CHECK_STR(f[2]->cols[0], "cuisine");
    REQUIRE(f[3]->kind == SUQL_FROM_JOIN);
    CHECK_INT(f[3]->join, SUQL_JOIN_LEFT);
    CHECK_INT(f[3]->left->kind, SUQL_FROM_SUBQUERY);
    CHECK_STR(f[3]->left->alias, "s");
    REQUIRE(f[3]->nusing == 1);
    CHECK_STR(f[3]->using[0], "id");
    suql_query_free(q);
}

/* ---- errors --------------------------------------------------------- */

static int parse_err(const char *text, gn_err *e)
{
    suql_query *q = (suql_query *)1;
    int rc = suql_parse(text, &q, e);
    CHECK(q == NULL || rc == 0);
    if (!rc) suql_query_free(q);
    return rc;
}

static char *caret(const char *text)
{
    gn_err e;
    gn_buf b;
    gn_buf_init(&b);
    parse_err(text, &e);
    suql_error_caret(text, &e, &b);
    return gn_buf_detach(&b);
}

TEST(suql_parse_syntax_error_position)
{
    gn_err e;
    CHECK_INT(parse_err("SELECT * FORM restaurants", &e), GN_EPARSE);
    CHECK_STR(e.msg, "syntax error at or near \"FORM\"");
    CHECK_INT(e.line, 1);
    CHECK_INT(e.col, 10);
    CHECK_STR(e.file, "");
    char buf[1024];
    CHECK_STR(gn_err_str(&e, buf, sizeof buf), "1:10: syntax error at or near \"FORM\"");
    /* Columns count characters, not bytes. */
    CHECK_INT(parse_err("SELECT 'é—ü' FORM t", &e), GN_EPARSE);   /* FORM: an alias */
    CHECK_INT(e.col, 19);
    CHECK_STR(e.msg, "syntax error at or near \"t\"");
    CHECK_INT(parse_err("SELECT *\n  FROM restaurants\n WHERE rating >", &e), GN_EPARSE);
    CHECK_INT(e.line, 3);
    CHECK_INT(e.col, 16);
    CHECK_STR(e.msg, "syntax error at end of input");
}

TEST(suql_parse_error_caret)
{
    char *c = caret("SELECT * FORM restaurants");
    CHECK_STR(c, "SELECT * FORM restaurants\n         ^\n");
    free(c);
    c = caret("SELECT *\n\tFROM restaurants\n\tWHERE rating > > 4");
    CHECK_STR(c, "\tWHERE rating > > 4\n\t               ^\n");
    free(c);
    c = caret("SELECT 'ééé' + FROM t");
    CHECK_STR(c, "SELECT 'ééé' + FROM t\n               ^\n");
    free(c);
    c = caret("SELECT * FROM t\r\nWHERE x = = 1\r\n");
    CHECK_STR(c, "WHERE x = = 1\n          ^\n");
    free(c);
    /* At the end of the input, the caret goes one past the last character. */
    c = caret("SELECT * FROM t WHERE");
    CHECK_STR(c, "SELECT * FROM t WHERE\n                     ^\n");
    free(c);
    /* Nothing for an error without a position. */
    gn_err e;
    gn_err_set(&e, GN_EPARSE, "x");
    gn_buf b;
    gn_buf_init(&b);
    suql_error_caret("SELECT 1", &e, &b);
    CHECK_STR(b.data, "");
    gn_buf_release(&b);
}

TEST(suql_parse_error_caret_long_line)
{
    gn_buf q;
    gn_buf_init(&q);
    gn_buf_puts(&q, "SELECT * FROM restaurants WHERE ");
    for (int i = 0; i < 30; i++) gn_buf_printf(&q, "rating > %d AND ", i);
    gn_buf_puts(&q, "rating > > 4 AND x = 1 AND y = 2 AND z = 3 AND w = 4 AND v = 5 "
                    "AND u = 6 AND t = 7 AND s = 8");
    char *c = caret(q.data);
    /* "...", 100 characters, "..." / three spaces, the caret 60 in. */
    char *nl = strchr(c, '\n');
    REQUIRE(nl);
    CHECK_INT(nl - c, 3 + 100 + 3);
    CHECK(!strncmp(c, "...", 3) && !strncmp(nl - 3, "...", 3));
    CHECK_INT(strlen(nl + 1), 3 + 60 + 2);
    CHECK_STR(nl + 1 + 3 + 60, "^\n");
    CHECK(!strncmp(c + 3 + 60, "> 4 AND", 7));
    free(c);
    gn_buf_release(&q);
}

TEST(suql_parse_only_one_select)
{
    static const struct { const char *q, *msg; int col; } cases[] = {
        { "DELETE FROM restaurants", "(found DELETE)", 1 },
        { "  INSERT INTO restaurants (name) VALUES ('x')", "(found INSERT)", 3 },
        { "UPDATE restaurants SET rating = 5", "(found UPDATE)", 1 },
        { "DROP TABLE restaurants", "(found DROP)", 1 },
        { "CREATE TABLE t AS SELECT 1", "(found CREATE TABLE AS)", 1 },
        { "SET work_mem = '1GB'", "(found SET)", 1 },
        { "COPY restaurants TO PROGRAM 'rm -rf /'", "(found COPY)", 1 },
        { "SELECT 1; SELECT 2", "(found 2 statements)", 11 },
        { "SELECT 1;\n/* more */ -- and\n DROP TABLE restaurants;", "(found 2 statements)", 2 },
        { "SELECT * INTO t2 FROM restaurants", "(SELECT ... INTO creates a table)", 1 },
        { "SELECT * FROM restaurants FOR SHARE", "(FOR UPDATE and FOR SHARE lock rows)", 1 },
        { "WITH x AS (UPDATE restaurants SET rating = 0 RETURNING *) SELECT * FROM x",
          "(UPDATE inside WITH modifies data)", 6 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gn_err e;
        int rc = parse_err(cases[i].q, &e);
        if (rc != GN_EUSAGE || !strstr(e.msg, "only a single SELECT query is allowed") ||
            !strstr(e.msg, cases[i].msg) || e.col != cases[i].col)
            th_fail(__FILE__, __LINE__, "%s: %d %d:%d %s", cases[i].q, rc, e.line, e.col, e.msg);
    }
    gn_err e;
    CHECK_INT(parse_err("", &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "empty query");
    CHECK_INT(parse_err(" ; -- nothing", &e), GN_EPARSE);
    CHECK_INT(suql_parse(NULL, &(suql_query *){ NULL }, &e), GN_EUSAGE);
}

/* Quotes in string literals cannot end the literal or the statement. */
TEST(suql_parse_injection_in_strings)
{
    static const char *const literals[] = {
        "'x''; DROP TABLE restaurants; --'",
        "'\\''; DELETE FROM restaurants; --'",
        "$$'; DROP TABLE restaurants; --$$",
        "'x\"; DROP TABLE restaurants; --'",
        "'/* x */; DROP TABLE restaurants'",
    };
    static const char *const values[] = {
        "x'; DROP TABLE restaurants; --", "\\'; DELETE FROM restaurants; --",
        NULL, NULL, NULL,
    };
    for (size_t i = 0; i < sizeof literals / sizeof *literals; i++) {
        char text[256];
        snprintf(text, sizeof text, "SELECT * FROM restaurants WHERE name = %s", literals[i]);
        suql_query *q;
        gn_err e;
        if (suql_parse(text, &q, &e)) {
            th_fail(__FILE__, __LINE__, "%s: %s", text, e.msg);
            continue;
        }
        const suql_expr *w = q->select->where;
        REQUIRE(w->kind == SUQL_E_CMP);
        CHECK_INT(w->r->kind, SUQL_E_STRING);
        if (values[i]) CHECK_STR(w->r->text, values[i]);
        CHECK(strstr(w->r->text, "DROP") || strstr(w->r->text, "DELETE"));
        gn_buf b;
        gn_buf_init(&b);
        suql_print(q, &b);
        check_reprint(b.data, text);
        gn_buf_release(&b);
        suql_query_free(q);
    }
    gn_err e;
    CHECK_INT(parse_err("SELECT * FROM restaurants WHERE name = 'x'; "
                        "DROP TABLE restaurants; --'", &e), GN_EUSAGE);
    CHECK_INT(e.col, 45);
}

TEST(suql_parse_unsupported_constructs)
{
    static const struct { const char *q, *msg; int col; } cases[] = {
        { "SELECT sum(x) OVER (ROWS 2 PRECEDING) FROM t", "unsupported: window frame clauses", 20 },
        { "SELECT 1 FROM t WINDOW w AS (ORDER BY x GROUPS CURRENT ROW)",
          "unsupported: window frame clauses", 29 },
        { "SELECT x FROM t WHERE a[1][2] = 'a'", "unsupported: more than one subscript", 23 },
        { "SELECT x FROM t WHERE a SIMILAR TO 'b'", "unsupported: SIMILAR TO", 25 },
        { "SELECT x::time(3) FROM t", "unsupported: type modifiers other than", 11 },
        { "SELECT x FROM t WHERE a # b", "unsupported: operator #", 25 },
        { "SELECT x FROM s.t", "unsupported: schema-qualified table names", 15 },
        { "SELECT x FROM t ORDER BY x USING >", "unsupported: ORDER BY ... USING", 26 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gn_err e;
        int rc = parse_err(cases[i].q, &e);
        if (rc != GN_EPARSE || !strstr(e.msg, cases[i].msg) || e.line != 1 || e.col != cases[i].col)
            th_fail(__FILE__, __LINE__, "%s: %d %d:%d %s", cases[i].q, rc, e.line, e.col, e.msg);
    }
}

/* ---- limits --------------------------------------------------------- */

static char *nested(const char *open, const char *mid, const char *close, int n)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "SELECT ");
    for (int i = 0; i < n; i++) gn_buf_puts(&b, open);
    gn_buf_puts(&b, mid);
    for (int i = 0; i < n; i++) gn_buf_puts(&b, close);
    return gn_buf_detach(&b);
}

TEST(suql_parse_depth_limit)
{
    static const struct { const char *open, *mid, *close; } shapes[] = {
        { "f(", "1", ")" }, { "(SELECT ", "1", ")" }, { "NOT ", "x", "" },
        { "-(", "x", ")" }, { "ARRAY[", "1", "]" }, { "(1 + ", "1", ")" },
        { "CASE WHEN x THEN ", "1", " END" }, { "x IN (SELECT ", "1", ")" },
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        gn_err e;
        char *ok = nested(shapes[i].open, shapes[i].mid, shapes[i].close, SUQL_MAX_DEPTH / 3);
        if (parse_err(ok, &e)) th_fail(__FILE__, __LINE__, "%s...: %s", shapes[i].open, e.msg);
        free(ok);
        char *deep = nested(shapes[i].open, shapes[i].mid, shapes[i].close, SUQL_MAX_DEPTH + 5);
        int rc = parse_err(deep, &e);
        if (rc != GN_ELIMIT || !strstr(e.msg, "nested too deeply") || e.line != 1)
            th_fail(__FILE__, __LINE__, "%s...: %d %s", shapes[i].open, rc, e.msg);
        free(deep);
    }
    /* Far deeper than libpg_query's own stack could take. */
    char *huge = nested("f(", "1", ")", 200000);
    gn_err e;
    CHECK_INT(parse_err(huge, &e), GN_ELIMIT);
    free(huge);
}

TEST(suql_parse_size_limits)
{
    gn_err e;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "SELECT 1");
    for (int i = 0; i < 100000; i++) gn_buf_puts(&b, "+1");
    CHECK_INT(parse_err(b.data, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "too complex");
    CHECK_INT(e.col, 9 + 2 * SUQL_MAX_OPERATORS);
    /* Many conditions in flat lists are fine. */
    gn_buf_reset(&b);
    gn_buf_puts(&b, "SELECT * FROM t WHERE x IN (0");
    for (int i = 1; i < 20000; i++) gn_buf_printf(&b, ", %d", i);
    gn_buf_puts(&b, ") AND a = 1");
    for (int i = 0; i < 1000; i++) gn_buf_printf(&b, " AND b%d = 'x%d'", i, i);
    CHECK_INT(parse_err(b.data, &e), 0);
    /* Over 1 MiB, in a string literal so nothing else trips first. */
    gn_buf_reset(&b);
    gn_buf_puts(&b, "SELECT '");
    while (b.len <= SUQL_MAX_QUERY) gn_buf_puts(&b, "xxxxxxxxxxxxxxxx");
    gn_buf_puts(&b, "'");
    CHECK_INT(parse_err(b.data, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "too long");
    gn_buf_release(&b);
}

TEST(suql_parse_invalid_utf8)
{
    gn_err e;
    CHECK_INT(parse_err("SELECT 'a\xff' FROM t", &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "UTF-8");
    CHECK_INT(e.col, 10);
    CHECK_INT(parse_err("SELECT '\xc0\xaf'", &e), GN_EPARSE);     /* overlong */
    CHECK_INT(parse_err("SELECT '\xed\xa0\x80'", &e), GN_EPARSE);  /* surrogate */
    CHECK_INT(parse_err("SELECT 'é'", &e), 0);
    /* An escape that makes invalid UTF-8: libpg_query refuses it. */
    CHECK_INT(parse_err("SELECT E'\\xff'", &e), GN_EPARSE);
}

/* ---- printing and building ------------------------------------------ */

TEST(suql_print_built_tree)
{
    suql_query *q = suql_query_new("(built)");
    suql_expr *x = suql_expr_new(q, SUQL_E_COLUMN, 0);
    x->name = suql_strdup(q, "rating");
    suql_expr *neg = suql_expr_new(q, SUQL_E_NEG, 0);
    neg->l = x;
    suql_expr *negneg = suql_expr_new(q, SUQL_E_NEG, 0);
    negneg->l = neg;
    suql_expr *five = suql_expr_new(q, SUQL_E_INT, 0);
    five->text = "-5";
    five->ival = -5;
    suql_expr *sub = suql_expr_new(q, SUQL_E_ARITH, 0);
    sub->op = SUQL_OP_SUB;
    sub->l = negneg;
    sub->r = five;
    suql_expr *cast = suql_expr_new(q, SUQL_E_CAST, 0);
    cast->l = sub;
    cast->type = SUQL_T_REAL;
    cast->array = 1;
    gn_buf b;
    gn_buf_init(&b);
    suql_print_expr(cast, &b);
    CHECK_STR(b.data, "(-(-rating) - -5)::REAL[]");
    q->select = suql_select_new(q, 0);
    q->select->ntargets = 1;
    q->select->targets = suql_array_new(q, 1, sizeof *q->select->targets);
    q->select->targets[0].expr = cast;
    q->select->targets[0].alias = "order";
    gn_buf_reset(&b);
    suql_print(q, &b);
    CHECK_STR(b.data, "SELECT (-(-rating) - -5)::REAL[] AS \"order\"");
    CHECK_STR(suql_op_text(SUQL_OP_NOT_ILIKE), "NOT ILIKE");
    CHECK_STR(suql_cast_type_name(SUQL_T_BOOL), "BOOLEAN");
    CHECK_STR(suql_kind_name(SUQL_E_ANSWER), "ANSWER");
    CHECK_STR(suql_kind_name((suql_kind)999), "?");
    gn_buf_release(&b);
    suql_query_free(q);
    suql_query_free(NULL);
}

TEST(suql_error_at_positions)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT x\nFROM t WHERE ü = nope", &q, &e) == 0);
    int pos = q->select->where->r->pos;
    CHECK_INT(suql_error_at(&e, GN_ENOTFOUND, q, pos, "unknown column %s", "nope"), GN_ENOTFOUND);
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 18);
    CHECK_STR(e.msg, "unknown column nope");
    suql_error_at(&e, GN_EPARSE, q, -1, "no position");
    CHECK_INT(e.line, 0);
    int line, col;
    suql_linecol("ab\ncd", 100, &line, &col);
    CHECK_INT(line, 2);
    CHECK_INT(col, 3);
    suql_query_free(q);
}
