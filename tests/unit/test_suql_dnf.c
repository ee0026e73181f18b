/*
 * test_suql_dnf.c — WHERE clauses in disjunctive normal form.
 */
#include "harness.h"

#include "suql/dnf.h"
#include "suql/parse.h"

static void dnf_is(const char *where, const char *expect, int line)
{
    char text[512];
    snprintf(text, sizeof text, "SELECT * FROM t WHERE %s", where);
    suql_query *q;
    gn_err e;
    if (suql_parse(text, &q, &e)) {
        th_fail(__FILE__, line, "parse: %s", e.msg);
        return;
    }
    suql_dnf d;
    gn_buf b;
    gn_buf_init(&b);
    if (suql_dnf_build(q, q->select->where, 0, &d, &e)) gn_buf_printf(&b, "ERROR %s", e.msg);
    else suql_dnf_print(&d, &b);
    if (strcmp(b.data, expect))
        th_fail(__FILE__, line, "DNF of %s:\n%s\nexpected:\n%s", where, b.data, expect);
    gn_buf_release(&b);
    suql_query_free(q);
}

TEST(suql_dnf_forms)
{
    dnf_is("a = 1", "  [1] a = 1\n", __LINE__);
    dnf_is("a = 1 AND b = 2 AND c = 3", "  [1] a = 1 AND b = 2 AND c = 3\n", __LINE__);
    dnf_is("a = 1 OR b = 2", "  [1] a = 1\n  [2] b = 2\n", __LINE__);
    dnf_is("(a = 1 OR b = 2) AND c = 3", "  [1] a = 1 AND c = 3\n  [2] b = 2 AND c = 3\n", __LINE__);
    dnf_is("(a = 1 OR b = 2) AND (c = 3 OR d = 4)",
           "  [1] a = 1 AND c = 3\n  [2] a = 1 AND d = 4\n  [3] b = 2 AND c = 3\n  [4] b = 2 AND d = 4\n",
           __LINE__);
    dnf_is("NOT (a = 1 AND b = 2)", "  [1] NOT a = 1\n  [2] NOT b = 2\n", __LINE__);
    dnf_is("NOT (a = 1 OR answer(r, 'q?') = 'Yes')",
           "  [1] NOT a = 1 AND NOT answer(r, 'q?') = 'Yes'\n", __LINE__);
    dnf_is("NOT NOT a = 1", "  [1] a = 1\n", __LINE__);
    /* 2^7 = 128 conjuncts: over the bound. */
    dnf_is("(a=1 OR b=1) AND (a=2 OR b=2) AND (a=3 OR b=3) AND (a=4 OR b=4) AND (a=5 OR b=5) "
           "AND (a=6 OR b=6) AND (a=7 OR b=7)",
           "ERROR the WHERE clause needs more than 64 conjuncts in disjunctive normal form", __LINE__);
}

TEST(suql_dnf_empty_where_is_true)
{
    suql_query *q;
    gn_err e;
    REQUIRE(suql_parse("SELECT * FROM t", &q, &e) == 0);
    suql_dnf d;
    REQUIRE(suql_dnf_build(q, NULL, 0, &d, &e) == 0);
    CHECK_INT(d.n, 1);
    CHECK_INT(d.c[0].n, 0);
    suql_query_free(q);
}
