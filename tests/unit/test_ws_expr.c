/*
 * test_ws_expr.c — the worksheet expression language (expr.h): parsing
 * then printing gives the canonical text, the trees built for the forms
 * the semantic parser writes, precedence and parentheses, the tokenizer's
 * literals, the spreadsheet markers, and errors with their exact position
 * and message.
 */
#include "harness.h"
#include "worksheet/expr.h"

#include <stdlib.h>

/* The program SRC printed back, one statement a line, or
 * "ERROR line:col message"; the caller frees. */
static char *prog_at(const char *src, int line0, int col0)
{
    ws_prog *p = NULL;
    gn_err e;
    gn_buf b;
    gn_err_clear(&e);
    gn_buf_init(&b);
    if (ws_prog_parse(src, line0, col0, &p, &e)) {
        gn_buf_printf(&b, "ERROR %d:%d %s", e.line, e.col, e.msg);
        if (e.code != GN_EPARSE || p) gn_buf_puts(&b, " (bad code or output)");
        return gn_buf_detach(&b);
    }
    for (int i = 0; i < p->n; i++) {
        if (i) gn_buf_putc(&b, '\n');
        ws_stmt_print(&p->stmts[i], &b);
    }
    ws_prog_free(p);
    return gn_buf_detach(&b);
}

static char *prog(const char *src)
{
    return prog_at(src, 1, 1);
}

/* The expression SRC printed back, or "ERROR line:col message". */
static char *expr(const char *src)
{
    ws_node *n = NULL;
    gn_err e;
    gn_buf b;
    gn_err_clear(&e);
    gn_buf_init(&b);
    if (ws_expr_parse(src, 1, 1, &n, &e)) {
        gn_buf_printf(&b, "ERROR %d:%d %s", e.line, e.col, e.msg);
        if (e.code != GN_EPARSE || n) gn_buf_puts(&b, " (bad code or output)");
    } else {
        ws_node_print(n, &b);
        ws_node_free(n);
    }
    return gn_buf_detach(&b);
}

#define CHECK_PROG(src, want) do { char *s_ = prog(src); CHECK_STR(s_, want); free(s_); } while (0)
#define CHECK_EXPR(src, want) do { char *s_ = expr(src); CHECK_STR(s_, want); free(s_); } while (0)
/* Canonical text prints as itself, and so does its reprint. */
#define CHECK_SAME(src) CHECK_PROG(src, src)

/* The first statement's value (or NULL) of a parsed program. */
static ws_prog *parse_ok(const char *src)
{
    ws_prog *p = NULL;
    gn_err e;
    if (ws_prog_parse(src, 1, 1, &p, &e)) {
        th_fail(__FILE__, __LINE__, "parse of '%s' failed: %d:%d %s", src, e.line, e.col, e.msg);
        return NULL;
    }
    return p;
}

/* ---- round trips ------------------------------------------------------ */

TEST(ws_expr_round_trip_canonical)
{
    CHECK_SAME("x");
    CHECK_SAME("pass");
    CHECK_SAME("x = 1");
    CHECK_SAME("Book_Restaurant(restaurant=\"Kaito\", num_people=2)");
    CHECK_SAME("answer(\"What time?\")");
    CHECK_SAME("confirm(book.field)");
    CHECK_SAME("self.x is not None and len(self.y) >= 2");
    CHECK_SAME("x in [\"a\", \"b\"]");
    CHECK_SAME("x not in y");
    CHECK_SAME("not x in y");
    CHECK_SAME("{\"a\": 1, \"b\": [1, 2.5, None, True, False]}");
    CHECK_SAME("{}");
    CHECK_SAME("[]");
    CHECK_SAME("f()");
    CHECK_SAME("a if b else c");
    CHECK_SAME("a.b.c[0][\"k\"](1)(2).d");
    CHECK_SAME("self.booking.date = \"2026-03-14\"");
    CHECK_SAME("x[0] = y.z");
    CHECK_SAME("-x + +y - -1");
    CHECK_SAME("not not x");
    CHECK_SAME("a // b % c * d / e");
    CHECK_SAME("x is y");
    CHECK_PROG("a == b != c", "a == b and b != c");
}

TEST(ws_expr_round_trip_normalizes)
{
    CHECK_PROG("x=1", "x = 1");
    CHECK_PROG("  f( a ,b, )  ", "f(a, b)");
    CHECK_PROG("[1,2,]", "[1, 2]");
    CHECK_PROG("{'a':1,}", "{\"a\": 1}");
    CHECK_PROG("'single'", "\"single\"");
    CHECK_PROG("(((x)))", "x");
    CHECK_PROG("(a + b)", "a + b");
    CHECK_PROG("x = (1)", "x = 1");
    CHECK_PROG("a<b", "a < b");
    CHECK_PROG("1_000", "1000");
    CHECK_PROG("0x1F + 0o17 + 0b101", "31 + 15 + 5");
    CHECK_PROG("1.5e3", "1500.0");
    CHECK_PROG(".5", "0.5");
    CHECK_PROG("1.", "1.0");
    CHECK_PROG("1_0.2_5", "10.25");
    CHECK_PROG("\"a\" 'b' \"\"\"c\"\"\"", "\"abc\"");
    CHECK_PROG("f(\n  a,\n  b\n)", "f(a, b)");
    CHECK_PROG("x = 1 # comment", "x = 1");
    CHECK_PROG("# only a comment", "");
    CHECK_PROG("", "");
    CHECK_PROG("\n\n  \n", "");
    CHECK_PROG("x = 1 + \\\n 2", "x = 1 + 2");
}

TEST(ws_expr_reprint_is_stable)
{
    static const char *const srcs[] = {
        "(a or b) and (c or d)", "a - (b - c)", "(a - b) - c", "-(a + b) * c",
        "(a < b) < c", "a < (b < c)", "not (a and b)", "(not a) == b",
        "(a if b else c) if d else e", "a if (b if c else d) else e",
        "a if b else c if d else e", "(a + b).c", "(-1).x", "(1).real",
        "x[a if b else c]", "f(x=a or b)", "[a and b, not c]", "(a or b)[0]",
        "a * (b + c) % d", "a or b and c", "(a or b) and c", "-a.b",
        "(-a).b", "not -a < b", "a in (b in c)", "x not in (y == z)",
        NULL
    };
    for (int i = 0; srcs[i]; i++) {
        char *once = prog(srcs[i]);
        char *twice = prog(once);
        CHECK_STR(twice, once);
        CHECK(strncmp(once, "ERROR", 5));
        free(once);
        free(twice);
    }
}

/* ---- precedence ------------------------------------------------------- */

TEST(ws_expr_precedence)
{
    CHECK_PROG("a + b * c", "a + b * c");
    CHECK_PROG("(a + b) * c", "(a + b) * c");
    CHECK_PROG("a - (b - c)", "a - (b - c)");
    CHECK_PROG("(a - b) - c", "a - b - c");
    CHECK_PROG("a or (b and c)", "a or b and c");
    CHECK_PROG("(a or b) and c", "(a or b) and c");
    CHECK_PROG("not (a == b)", "not a == b");
    CHECK_PROG("(not a) == b", "(not a) == b");
    CHECK_PROG("-(a.b)", "-a.b");
    CHECK_PROG("(-a).b", "(-a).b");
    CHECK_PROG("-(a * b)", "-(a * b)");
    CHECK_PROG("(-a) * b", "-a * b");
    CHECK_PROG("a if (b or c) else d", "a if b or c else d");
    CHECK_PROG("(a if b else c) + 1", "(a if b else c) + 1");
    CHECK_PROG("x = (a if b else c)", "x = a if b else c");
    CHECK_PROG("(a and b) or c", "a and b or c");
    CHECK_PROG("a and (b or c)", "a and (b or c)");

    /* the tree, not just the text */
    ws_prog *p = parse_ok("a + b * c - d");
    REQUIRE(p && p->n == 1);
    const ws_node *n = p->stmts[0].value;
    CHECK_INT(n->kind, WN_BINARY);
    CHECK_STR(n->op, "-");
    CHECK_STR(n->a->op, "+");
    CHECK_STR(n->a->b->op, "*");
    CHECK_STR(n->b->name, "d");
    ws_prog_free(p);
}

TEST(ws_expr_not_in_vs_not)
{
    ws_prog *p = parse_ok("not x in y; x not in y; x is not None; not x is None");
    REQUIRE(p && p->n == 4);
    const ws_node *a = p->stmts[0].value, *b = p->stmts[1].value;
    CHECK_INT(a->kind, WN_UNARY);
    CHECK_STR(a->op, "not");
    CHECK_INT(a->a->kind, WN_CMP);
    CHECK_STR(a->a->op, "in");
    CHECK_INT(b->kind, WN_CMP);
    CHECK_STR(b->op, "not in");
    CHECK_INT(p->stmts[2].value->kind, WN_CMP);
    CHECK_STR(p->stmts[2].value->op, "is not");
    CHECK_INT(p->stmts[2].value->b->lit->kind, WV_NONE);
    CHECK_STR(p->stmts[3].value->op, "not");
    CHECK_STR(p->stmts[3].value->a->op, "is");
    ws_prog_free(p);
}

TEST(ws_expr_comparison_chain)
{
    CHECK_PROG("a < b < c", "a < b and b < c");
    CHECK_PROG("0 <= x.n < len(y) == 3", "0 <= x.n and x.n < len(y) and len(y) == 3");
    CHECK_PROG("(a < b) < c", "(a < b) < c");
    ws_prog *p = parse_ok("a < f(b) <= c");
    REQUIRE(p && p->n == 1);
    const ws_node *n = p->stmts[0].value;
    CHECK_INT(n->kind, WN_BINARY);
    CHECK_STR(n->op, "and");
    CHECK_STR(n->a->op, "<");
    CHECK_STR(n->b->op, "<=");
    CHECK(n->a->b != n->b->a);       /* a copy, not shared */
    CHECK_INT(n->b->a->kind, WN_CALL);
    CHECK_STR(n->b->a->a->name, "f");
    ws_prog_free(p);
}

/* ---- the forms the semantic parser writes ----------------------------- */

TEST(ws_expr_call_kwargs)
{
    ws_prog *p = parse_ok("Book_Restaurant(restaurant=\"Kaito\", num_people=2)");
    REQUIRE(p && p->n == 1);
    CHECK_INT(p->stmts[0].kind, WS_EXPR);
    const ws_node *n = p->stmts[0].value;
    CHECK_INT(n->kind, WN_CALL);
    CHECK_STR(n->a->name, "Book_Restaurant");
    REQUIRE(n->nargs == 2);
    CHECK_STR(n->kw[0], "restaurant");
    CHECK_INT(n->args[0]->kind, WN_LIT);
    CHECK_STR(n->args[0]->lit->u.s, "Kaito");
    CHECK_STR(n->kw[1], "num_people");
    CHECK_INT(n->args[1]->lit->u.i, 2);
    ws_prog_free(p);

    p = parse_ok("f(a, b=1)");
    REQUIRE(p);
    n = p->stmts[0].value;
    REQUIRE(n->nargs == 2);
    CHECK(n->kw[0] == NULL);
    CHECK_STR(n->kw[1], "b");
    ws_prog_free(p);
}

TEST(ws_expr_answer_confirm)
{
    ws_prog *p = parse_ok("answer(\"Is there parking?\")\nconfirm(book.field)");
    REQUIRE(p && p->n == 2);
    const ws_node *a = p->stmts[0].value, *c = p->stmts[1].value;
    CHECK_STR(a->a->name, "answer");
    CHECK_STR(a->args[0]->lit->u.s, "Is there parking?");
    CHECK_INT(c->args[0]->kind, WN_ATTR);
    CHECK_STR(c->args[0]->name, "field");
    CHECK_STR(c->args[0]->a->name, "book");
    CHECK_INT(p->stmts[1].line, 2);
    CHECK_INT(p->stmts[1].col, 1);
    ws_prog_free(p);
}

TEST(ws_expr_predicate)
{
    ws_node *n = NULL;
    gn_err e;
    REQUIRE(ws_expr_parse("self.x is not None and len(self.y) >= 2", 1, 1, &n, &e) == 0);
    CHECK_INT(n->kind, WN_BINARY);
    CHECK_STR(n->op, "and");
    CHECK_INT(n->a->kind, WN_CMP);
    CHECK_STR(n->a->op, "is not");
    CHECK_INT(n->a->a->kind, WN_ATTR);
    CHECK_STR(n->a->a->a->name, "self");
    CHECK_STR(n->b->op, ">=");
    CHECK_INT(n->b->a->kind, WN_CALL);
    CHECK_INT(n->b->b->lit->u.i, 2);
    ws_node_free(n);

    CHECK_EXPR("\n  x in [\"a\", \"b\"]  # trailing comment\n", "x in [\"a\", \"b\"]");
    CHECK_EXPR("x == 1 if y else z", "x == 1 if y else z");
}

TEST(ws_expr_list_dict_cond_trees)
{
    ws_prog *p = parse_ok("x in [\"a\", \"b\"]; {\"k\": 1, 'v': [2]}; a if c else b");
    REQUIRE(p && p->n == 3);
    const ws_node *l = p->stmts[0].value->b, *d = p->stmts[1].value, *c = p->stmts[2].value;
    CHECK_INT(l->kind, WN_LIST);
    CHECK_INT(l->nargs, 2);
    CHECK_STR(l->args[1]->lit->u.s, "b");
    CHECK_INT(d->kind, WN_DICT);
    REQUIRE(d->nargs == 2);
    CHECK_STR(d->kw[0], "k");
    CHECK_STR(d->kw[1], "v");
    CHECK_INT(d->args[1]->kind, WN_LIST);
    CHECK_INT(c->kind, WN_COND);
    CHECK_STR(c->a->name, "c");
    CHECK_STR(c->b->name, "a");
    CHECK_STR(c->c->name, "b");
    ws_prog_free(p);
}

TEST(ws_expr_markers)
{
    CHECK_PROG(">say(\"hi\")", "say(\"hi\")");
    CHECK_PROG("> x = 1", "x = 1");
    CHECK_PROG("@book_restaurant(x=1)", "book_restaurant(x=1)");
    CHECK_PROG("r = @api(a, b=2).result", "r = api(a, b=2).result");
    CHECK_PROG(">@book(x=1)", "book(x=1)");
    ws_prog *p = parse_ok(">say(\"hi\")");
    REQUIRE(p && p->n == 1);
    CHECK_INT(p->stmts[0].col, 2);
    CHECK_INT(p->stmts[0].value->kind, WN_CALL);
    ws_prog_free(p);
}

TEST(ws_expr_statements)
{
    ws_prog *p = parse_ok("pass\nx = 1; y.z = \"a\"\n\n;a[0] = b  ;\nf(x)\n");
    REQUIRE(p && p->n == 5);
    CHECK_INT(p->stmts[0].kind, WS_PASS);
    CHECK_INT(p->stmts[1].kind, WS_ASSIGN);
    CHECK_INT(p->stmts[1].target->kind, WN_NAME);
    CHECK_INT(p->stmts[2].kind, WS_ASSIGN);
    CHECK_INT(p->stmts[2].target->kind, WN_ATTR);
    CHECK_INT(p->stmts[2].line, 2);
    CHECK_INT(p->stmts[2].col, 8);
    CHECK_INT(p->stmts[3].target->kind, WN_INDEX);
    CHECK_INT(p->stmts[3].line, 4);
    CHECK_INT(p->stmts[3].col, 2);
    CHECK_INT(p->stmts[4].kind, WS_EXPR);
    ws_prog_free(p);
    CHECK_PROG("pass\nx = 1; y.z = \"a\"", "pass\nx = 1\ny.z = \"a\"");
    CHECK_PROG("  x = 1\n    y = 2", "x = 1\ny = 2");   /* no indentation blocks */
}

/* ---- literals --------------------------------------------------------- */

TEST(ws_expr_string_escapes)
{
    ws_prog *p = parse_ok("'a\\n\\t\\\\\\'\\\"\\u00e9\\x41\\101\\U0001F600\\ud83d\\ude00\\d'");
    REQUIRE(p && p->n == 1);
    CHECK_STR(p->stmts[0].value->lit->u.s,
              "a\n\t\\'\"\xc3\xa9" "AA\xf0\x9f\x98\x80\xf0\x9f\x98\x80\\d");
    ws_prog_free(p);
    p = parse_ok("r'\\n\\'' + \"\"\"two\nlines \"quoted\" \"\"\" + u'x' + 'caf\xc3\xa9'");
    REQUIRE(p && p->n == 1);
    const ws_node *n = p->stmts[0].value;
    CHECK_STR(n->a->a->a->lit->u.s, "\\n\\'");
    CHECK_STR(n->a->a->b->lit->u.s, "two\nlines \"quoted\" ");
    CHECK_STR(n->a->b->lit->u.s, "x");
    CHECK_STR(n->b->lit->u.s, "caf\xc3\xa9");
    ws_prog_free(p);
    CHECK_PROG("'a\\\nb'", "\"ab\"");
    CHECK_PROG("\"tab\\there\"", "\"tab\\there\"");
}

TEST(ws_expr_numbers)
{
    ws_prog *p = parse_ok("9223372036854775807; 2.5; 1e-3; 0; 00; 1_2_3");
    REQUIRE(p && p->n == 6);
    CHECK_INT(p->stmts[0].value->lit->kind, WV_INT);
    CHECK(p->stmts[0].value->lit->u.i == 9223372036854775807LL);
    CHECK_INT(p->stmts[1].value->lit->kind, WV_FLOAT);
    CHECK(p->stmts[1].value->lit->u.f == 2.5);
    CHECK(p->stmts[2].value->lit->u.f == 1e-3);
    CHECK_INT(p->stmts[4].value->lit->u.i, 0);
    CHECK_INT(p->stmts[5].value->lit->u.i, 123);
    ws_prog_free(p);
    CHECK_PROG("-1", "-1");
    p = parse_ok("-1");
    REQUIRE(p);
    CHECK_INT(p->stmts[0].value->kind, WN_UNARY);   /* no constant folding */
    ws_prog_free(p);
}

/* ---- positions -------------------------------------------------------- */

TEST(ws_expr_node_positions)
{
    ws_prog *p = parse_ok("x = a +\\\n  f(b, c=\"d\")");
    REQUIRE(p && p->n == 1);
    const ws_node *v = p->stmts[0].value;
    CHECK_INT(v->line, 1);
    CHECK_INT(v->col, 5);
    CHECK_INT(v->b->line, 2);
    CHECK_INT(v->b->col, 3);
    CHECK_INT(v->b->args[1]->col, 10);
    ws_prog_free(p);

    /* offsets: col0 applies to the first line only */
    gn_err e;
    REQUIRE(ws_prog_parse("a = 1\nb = 2", 10, 7, &p, &e) == 0);
    CHECK_INT(p->stmts[0].line, 10);
    CHECK_INT(p->stmts[0].col, 7);
    CHECK_INT(p->stmts[0].value->col, 11);
    CHECK_INT(p->stmts[1].line, 11);
    CHECK_INT(p->stmts[1].col, 1);
    ws_prog_free(p);

    /* columns count characters, not bytes */
    REQUIRE(ws_prog_parse("x = '\xc3\xa9\xc3\xa9' + y", 1, 1, &p, &e) == 0);
    CHECK_INT(p->stmts[0].value->b->col, 12);
    ws_prog_free(p);
}

/* ---- errors ----------------------------------------------------------- */

TEST(ws_expr_errors_refused_keywords)
{
    CHECK_PROG("import os", "ERROR 1:1 'import' is not allowed");
    CHECK_PROG("x = 1\nfrom a import b", "ERROR 2:1 'from' is not allowed");
    CHECK_PROG("f = lambda: 1", "ERROR 1:5 'lambda' is not allowed");
    CHECK_PROG("lambda: 1", "ERROR 1:1 'lambda' is not allowed");
    CHECK_PROG("for x in y: pass", "ERROR 1:1 'for' is not allowed");
    CHECK_PROG("while x:\n    pass", "ERROR 1:1 'while' is not allowed");
    CHECK_PROG("def f(): pass", "ERROR 1:1 'def' is not allowed");
    CHECK_PROG("class A: pass", "ERROR 1:1 'class' is not allowed");
    CHECK_PROG("with x as y: pass", "ERROR 1:1 'with' is not allowed");
    CHECK_PROG("global x", "ERROR 1:1 'global' is not allowed");
    CHECK_PROG("del x", "ERROR 1:1 'del' is not allowed");
    CHECK_PROG("return 1", "ERROR 1:1 'return' is not allowed");
    CHECK_PROG("[x for x in y]", "ERROR 1:4 'for' is not allowed");
    CHECK_PROG("await f()", "ERROR 1:1 'await' is not allowed");
    CHECK_PROG("if x: y = 1",
               "ERROR 1:1 'if' statements are not allowed; write 'A if CONDITION else B'");
    CHECK_PROG("x = pass", "ERROR 1:5 'pass' must be a statement by itself");
    CHECK_PROG("try:\n  x", "ERROR 1:1 'try' is not allowed");
    CHECK_PROG("a.import", "ERROR 1:3 'import' is not allowed");
    CHECK_PROG("imports = 1", "imports = 1");          /* a prefix is just a name */
}

TEST(ws_expr_errors_syntax)
{
    CHECK_PROG("a = = 1", "ERROR 1:5 expected an expression, found '='");
    CHECK_PROG("1 = a", "ERROR 1:1 cannot assign to a literal");
    CHECK_PROG("f(x) = 1", "ERROR 1:1 cannot assign to a function call");
    CHECK_PROG("f().y = 1", "ERROR 1:1 cannot assign to a function call");
    CHECK_PROG("a + b = 1", "ERROR 1:1 cannot assign to an operator expression");
    CHECK_PROG("x == 1 = 2", "ERROR 1:1 cannot assign to a comparison (to compare, use '==')");
    CHECK_PROG("[a] = 1", "ERROR 1:1 cannot assign to a list");
    CHECK_PROG("a = b = 1", "ERROR 1:7 chained assignment is not allowed");
    CHECK_PROG("x = 1 y = 2",
               "ERROR 1:7 expected a new line or ';' after the statement, found 'y'");
    CHECK_PROG("f(a, b", "ERROR 1:7 expected ',' or ')' after the argument, found end of text");
    CHECK_PROG("f(a b)", "ERROR 1:5 expected ',' or ')' after the argument, found 'b'");
    CHECK_PROG("(a", "ERROR 1:3 expected ')' to close the parenthesis, found end of text");
    CHECK_PROG("[1, 2", "ERROR 1:6 expected ',' or ']' in the list, found end of text");
    CHECK_PROG("x[1", "ERROR 1:4 expected ']' to close the index, found end of text");
    CHECK_PROG("x[1:2]", "ERROR 1:4 slices are not supported");
    CHECK_PROG("{1: 2}", "ERROR 1:2 expected a string key in the dict (keys are string literals), found '1'");
    CHECK_PROG("{\"a\" 2}", "ERROR 1:6 expected ':' after the dict key, found '2'");
    CHECK_PROG("a +", "ERROR 1:4 expected an expression, found end of text");
    CHECK_PROG("a +\nb", "ERROR 1:4 expected an expression, found end of line");
    CHECK_PROG("x.", "ERROR 1:3 expected a name after '.', found end of text");
    CHECK_PROG("x.None", "ERROR 1:3 expected a name after '.', found 'None'");
    CHECK_PROG("a if b", "ERROR 1:7 expected 'else' in the conditional expression, found end of text");
    CHECK_PROG("a not b", "ERROR 1:7 expected 'in' after 'not', found 'b'");
    CHECK_PROG("f(a=1, b)", "ERROR 1:8 positional argument follows keyword argument");
    CHECK_PROG("f(a=1, a=2)", "ERROR 1:8 keyword argument 'a' repeated");
    CHECK_PROG("f(a.b=1)", "ERROR 1:3 a keyword argument must be a plain name");
    CHECK_PROG("f(*args)", "ERROR 1:3 star-arguments are not allowed");
    CHECK_PROG("f(**kw)", "ERROR 1:3 star-arguments are not allowed");
    CHECK_PROG("(x := 1)", "ERROR 1:4 ':=' (assignment expression) is not allowed");
    CHECK_PROG("x += 1", "ERROR 1:3 augmented assignment '+=' is not allowed; write 'x = x + y'");
    CHECK_PROG("2 ** 3", "ERROR 1:3 '**' is not supported");
    CHECK_PROG("a | b", "ERROR 1:3 bitwise '|' is not supported; use 'or'");
    CHECK_PROG("@x", "ERROR 1:2 '@' must be followed by a call, as in @x(...)");
    CHECK_PROG("@ 1", "ERROR 1:3 expected a name after '@', found '1'");
    CHECK_PROG("a @ b", "ERROR 1:3 expected a new line or ';' after the statement, found '@'");
    CHECK_PROG("(a, b)", "ERROR 1:3 expected ')' to close the parenthesis, found ','");
    CHECK_PROG("and", "ERROR 1:1 expected an expression, found 'and'");
    CHECK_PROG("x = 1\n  y = )", "ERROR 2:7 expected an expression, found ')'");
    CHECK_PROG("a $ b", "ERROR 1:3 unexpected character '$'");
    CHECK_PROG("caf\xc3\xa9 = 1", "ERROR 1:4 non-ASCII character '\xc3\xa9' outside a string");
    CHECK_EXPR("x = 1", "ERROR 1:3 assignment is not allowed in an expression; to compare, use '=='");
    CHECK_EXPR("a; b", "ERROR 1:2 expected the end of the expression, found ';'");
    CHECK_EXPR("", "ERROR 1:1 expected an expression, found end of text");
    CHECK_EXPR("a\nb", "ERROR 2:1 expected the end of the expression, found 'b'");
}

TEST(ws_expr_errors_lexical)
{
    CHECK_PROG("x = \"abc", "ERROR 1:5 unterminated string");
    CHECK_PROG("x = 'abc\ny'", "ERROR 1:5 unterminated string");
    CHECK_PROG("x = 1\ny = \"\"\"abc\n", "ERROR 2:5 unterminated triple-quoted string");
    CHECK_PROG("f\"x\"", "ERROR 1:1 f-strings are not allowed; join text with '+'");
    CHECK_PROG("say(F'{x}')", "ERROR 1:5 f-strings are not allowed; join text with '+'");
    CHECK_PROG("x = rf'a'", "ERROR 1:5 f-strings are not allowed; join text with '+'");
    CHECK_PROG("b'x'", "ERROR 1:1 byte strings are not allowed");
    CHECK_PROG("'\\u12'", "ERROR 1:2 invalid '\\u' escape: expected 4 hex digits");
    CHECK_PROG("'\\xZZ'", "ERROR 1:2 invalid '\\x' escape: expected 2 hex digits");
    CHECK_PROG("'ab\\ud800'", "ERROR 1:4 invalid '\\u' escape: lone surrogate");
    CHECK_PROG("'\\U00110000'", "ERROR 1:2 invalid '\\U' escape: beyond U+10FFFF");
    CHECK_PROG("'\\0'", "ERROR 1:2 NUL characters are not allowed in strings");
    CHECK_PROG("'\\N{DASH}'", "ERROR 1:2 '\\N{...}' escapes are not supported; use '\\u'");
    CHECK_PROG("'a\xff'", "ERROR 1:3 invalid UTF-8 in string");
    CHECK_PROG("x = 99999999999999999999", "ERROR 1:5 integer literal too large");
    CHECK_PROG("x = 1e999", "ERROR 1:5 float literal out of range");
    CHECK_PROG("x = 012", "ERROR 1:5 leading zeros are not allowed in '012' (write 0o... for octal)");
    CHECK_PROG("x = 1__0", "ERROR 1:5 invalid '_' in number '1__0'");
    CHECK_PROG("x = 1_", "ERROR 1:5 invalid '_' in number '1_'");
    CHECK_PROG("x = 12abc", "ERROR 1:5 invalid number '12abc'");
    CHECK_PROG("x = 0x", "ERROR 1:5 invalid number '0x'");
    CHECK_PROG("x = 1.x", "ERROR 1:5 invalid number '1.x'");
    CHECK_PROG("x = \\ y", "ERROR 1:5 unexpected character '\\'");
}

TEST(ws_expr_errors_offset)
{
    ws_prog *p = NULL;
    gn_err e;
    CHECK_INT(ws_prog_parse("x = 'abc", 5, 20, &p, &e), GN_EPARSE);
    CHECK(p == NULL);
    CHECK_INT(e.line, 5);
    CHECK_INT(e.col, 24);
    CHECK_STR(e.msg, "unterminated string");
    CHECK_INT(ws_prog_parse("x = 1\nimport os", 5, 20, &p, &e), GN_EPARSE);
    CHECK_INT(e.line, 6);
    CHECK_INT(e.col, 1);
    CHECK_STR(e.msg, "'import' is not allowed");
    ws_node *n = (ws_node *)&e;   /* must be reset to NULL */
    CHECK_INT(ws_expr_parse("a +", 3, 4, &n, &e), GN_EPARSE);
    CHECK(n == NULL);
    CHECK_INT(e.line, 3);
    CHECK_INT(e.col, 7);
    /* a NULL error object is allowed */
    CHECK_INT(ws_prog_parse("import os", 1, 1, &p, NULL), GN_EPARSE);
}

/* ---- limits ----------------------------------------------------------- */

static char *repeat3(const char *a, int n, const char *mid, const char *b)
{
    gn_buf s;
    gn_buf_init(&s);
    for (int i = 0; i < n; i++) gn_buf_puts(&s, a);
    gn_buf_puts(&s, mid);
    for (int i = 0; i < n; i++) gn_buf_puts(&s, b);
    return gn_buf_detach(&s);
}

TEST(ws_expr_depth_limit)
{
    char *src = repeat3("(", 100, "1", ")");
    CHECK_PROG(src, "1");
    free(src);
    src = repeat3("(", 101, "1", ")");
    CHECK_PROG(src, "ERROR 1:101 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("(", 5000, "1", ")");
    CHECK_PROG(src, "ERROR 1:101 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("[", 101, "", "]");
    CHECK_PROG(src, "ERROR 1:101 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("f(", 100, "x", ")");
    char *out = prog(src);
    CHECK_STR(out, src);
    free(out);
    free(src);
    src = repeat3("-", 101, "x", "");
    CHECK_PROG(src, "ERROR 1:101 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("not ", 200, "x", "");
    CHECK_PROG(src, "ERROR 1:401 expression nested too deeply (more than 100 levels)");
    free(src);

    /* long chains build deep trees without recursion: the height counts */
    src = repeat3("1 + ", 100, "1", "");
    out = prog(src);
    CHECK_STR(out, src);
    free(out);
    free(src);
    src = repeat3("1 + ", 101, "1", "");
    CHECK_PROG(src, "ERROR 1:403 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("a.", 150, "b", "");
    CHECK_PROG(src, "ERROR 1:202 expression nested too deeply (more than 100 levels)");
    free(src);
    src = repeat3("a < ", 80, "b", "");     /* folding adds 'and' levels */
    out = prog(src);
    CHECK_CONTAINS(out, "ERROR 1:");
    CHECK_CONTAINS(out, "nested too deeply");
    free(out);
    free(src);
}

TEST(ws_expr_size_limit)
{
    char *src = malloc(65538);
    REQUIRE(src);
    memset(src, ' ', 65537);
    src[0] = 'x';
    src[65537] = 0;
    CHECK_PROG(src, "ERROR 1:1 text too long (more than 65536 bytes)");
    src[65536] = 0;
    CHECK_PROG(src, "x");
    /* many statements up to the limit */
    for (int i = 0; i + 6 <= 65536; i += 6) memcpy(src + i, "x = 1\n", 6);
    src[65532] = 0;
    ws_prog *p = NULL;
    gn_err e;
    CHECK_INT(ws_prog_parse(src, 1, 1, &p, &e), 0);
    CHECK_INT(p ? p->n : -1, 10922);
    ws_prog_free(p);
    free(src);
}

TEST(ws_expr_free_null)
{
    ws_prog_free(NULL);
    ws_node_free(NULL);
    gn_buf b;
    gn_buf_init(&b);
    ws_node_print(NULL, &b);
    CHECK_STR(b.data, "");
    gn_buf_release(&b);
}

TEST(ws_expr_print_built_trees)
{
    /* trees made by code: negative literals, int bases, dict keys */
    ws_node *neg = calloc(1, sizeof *neg), *attr = calloc(1, sizeof *attr);
    REQUIRE(neg && attr);
    neg->kind = WN_LIT;
    neg->lit = ws_int(-3);
    attr->kind = WN_ATTR;
    attr->name = strdup("x");
    attr->a = neg;
    gn_buf b;
    gn_buf_init(&b);
    ws_node_print(attr, &b);
    CHECK_STR(b.data, "(-3).x");
    gn_buf_release(&b);
    ws_node_free(attr);

    gn_buf_init(&b);
    ws_prog *p = parse_ok("{\"a\\\"b\": 1, 'n\\n': 2}");
    REQUIRE(p);
    ws_stmt_print(&p->stmts[0], &b);
    CHECK_STR(b.data, "{\"a\\\"b\": 1, \"n\\n\": 2}");
    gn_buf_release(&b);
    ws_prog_free(p);
}
