/*
 * expr.c — the recursive-descent parser of the worksheet expression
 * language (grammar in expr.h), and the freeing of its trees.
 *
 * What: one function per grammar level, each returning a new tree (or
 * NULL with the error set, having freed what it built).  Comparison
 * chains `a < b < c` become `(a < b) and (b < c)`, b's tree copied.
 * Keyword arguments are recognized after the fact (an argument that
 * parsed as a bare name and is followed by '='), and so are assignments
 * (an expression statement followed by '=' whose tree is a target), so
 * the parser needs no lookahead.  Markers of the reference spreadsheet
 * are dropped: '>' opening a statement, '@' before a called name.
 *
 * Invariant: every tree returned is at most WS_EXPR_MAX_DEPTH levels
 * deep (each function reports the height of what it built) and the
 * parser's own recursion is bounded the same way (brackets and unary
 * operators count as they are entered), so the printer, the interpreter
 * and ws_node_free may recurse freely.  Node positions are where the
 * node's text starts in the file (offset by line0/col0, like errors).
 *
 * Rejected: an operator-precedence table driving one generic function
 * (the grammar has four kinds of levels — words, symbols, the comparison
 * chain, the conditional — and the special cases ate the savings);
 * a separate tree-height pass after parsing (a 30 000-term sum would
 * already have been built, and freeing it would recurse that deep).
 */
#include "worksheet/expr.h"
#include "worksheet/expr_int.h"

#include "util/xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct parser {
    ws_lexer lx;
    ws_tok t;              /* the current token */
    gn_err *e;
    int depth;             /* brackets and unary operators entered */
} parser;

static ws_node *p_expr(parser *p, int *h);
static ws_node *p_or(parser *p, int *h);
static ws_node *p_unary(parser *p, int *h);

/* ---- tokens and errors ------------------------------------------------ */

static int perr_at(parser *p, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int perr_at(parser *p, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gn_err_setpos(p->e, GN_EPARSE, NULL, line, col, "%s", msg);
}

static int next(parser *p)
{
    free(p->t.s);
    return ws_lex_next(&p->lx, &p->t);
}

static int is_op(const parser *p, const char *op)
{
    return p->t.kind == WTK_OP && !strcmp(p->t.op, op);
}

static int is_kw(const parser *p, const char *kw)
{
    return ws_tok_is_name(&p->t, kw);
}

/* Words of the grammar, which cannot be names. */
static int is_grammar_word(const ws_tok *t)
{
    static const char *const words[] = {
        "True", "False", "None", "and", "or", "not", "in", "is", "if",
        "else", "pass", NULL
    };
    for (int i = 0; words[i]; i++)
        if (ws_tok_is_name(t, words[i])) return 1;
    return 0;
}

static void tok_desc(const ws_tok *t, char *buf, size_t size)
{
    int n = t->len > 30 ? 30 : (int)t->len;
    switch (t->kind) {
    case WTK_EOF: snprintf(buf, size, "end of text"); break;
    case WTK_NL: snprintf(buf, size, "end of line"); break;
    case WTK_STR: snprintf(buf, size, "a string"); break;
    default: snprintf(buf, size, "'%.*s%s'", n, t->text, (size_t)n < t->len ? "..." : "");
    }
}

/* Operators Python has and this language refuses, with the reason. */
static const struct { const char *op, *msg; } refused_ops[] = {
    { ":=", "':=' (assignment expression) is not allowed" },
    { "**", "'**' is not supported" },
    { "...", "'...' is not allowed" },
    { "->", "'->' is not allowed" },
    { "&", "bitwise '&' is not supported; use 'and'" },
    { "|", "bitwise '|' is not supported; use 'or'" },
    { "^", "bitwise '^' is not supported" },
    { "~", "bitwise '~' is not supported; use 'not'" },
    { "<<", "'<<' is not supported" },
    { ">>", "'>>' is not supported" },
    { "!", "'!' is not supported; use 'not'" },
    { NULL, NULL }
};

/* "EXPECTED, found X" at the current token, or the specific refusal
 * when the token is an operator this language does not have. */
static int unexpected(parser *p, const char *expected)
{
    char d[64];
    if (p->t.kind == WTK_OP) {
        for (int i = 0; refused_ops[i].op; i++)
            if (!strcmp(p->t.op, refused_ops[i].op))
                return perr_at(p, p->t.line, p->t.col, "%s", refused_ops[i].msg);
        size_t n = strlen(p->t.op);
        if (n >= 2 && p->t.op[n - 1] == '=' && !strchr("=!<>", p->t.op[0]))
            return perr_at(p, p->t.line, p->t.col,
                           "augmented assignment '%s' is not allowed; write 'x = x %.*s y'",
                           p->t.op, (int)n - 1, p->t.op);
    }
    tok_desc(&p->t, d, sizeof d);
    return perr_at(p, p->t.line, p->t.col, "%s, found %s", expected, d);
}

/* Consume OP or report "expected 'OP' WHERE". */
static int expect_op(parser *p, const char *op, const char *where)
{
    char what[96];
    if (is_op(p, op)) return next(p);
    snprintf(what, sizeof what, "expected '%s' %s", op, where);
    return unexpected(p, what);
}

/* ---- depth ------------------------------------------------------------ */

static int enter(parser *p, int line, int col)
{
    if (++p->depth > WS_EXPR_MAX_DEPTH)
        return perr_at(p, line, col, "expression nested too deeply (more than %d levels)",
                       WS_EXPR_MAX_DEPTH);
    return 0;
}

/* *H becomes one more than CHILD's height (if larger); errors past the
 * limit at LINE:COL. */
static int grow(parser *p, int *h, int child, int line, int col)
{
    if (child + 1 > *h) *h = child + 1;
    if (*h > WS_EXPR_MAX_DEPTH)
        return perr_at(p, line, col, "expression nested too deeply (more than %d levels)",
                       WS_EXPR_MAX_DEPTH);
    return 0;
}

/* ---- nodes ------------------------------------------------------------ */

static ws_node *mk(enum ws_node_kind kind, int line, int col)
{
    ws_node *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->line = line;
    n->col = col;
    return n;
}

static ws_node *mk2(enum ws_node_kind kind, const char *op, ws_node *a, ws_node *b)
{
    ws_node *n = mk(kind, a->line, a->col);
    n->op = op;
    n->a = a;
    n->b = b;
    return n;
}

static void add_arg(ws_node *n, ws_node *arg, char *kw, int *cap)
{
    if (n->nargs == *cap) {
        *cap = *cap ? *cap * 2 : 4;
        n->args = xrealloc(n->args, (size_t)*cap * sizeof *n->args);
        n->kw = xrealloc(n->kw, (size_t)*cap * sizeof *n->kw);
    }
    n->args[n->nargs] = arg;
    n->kw[n->nargs++] = kw;
}

static ws_node *node_copy(const ws_node *n)
{
    if (!n) return NULL;
    ws_node *c = mk(n->kind, n->line, n->col);
    int cap = 0;
    c->op = n->op;
    c->name = xstrdup(n->name);
    c->lit = n->lit ? ws_val_copy(n->lit) : NULL;
    c->a = node_copy(n->a);
    c->b = node_copy(n->b);
    c->c = node_copy(n->c);
    for (int i = 0; i < n->nargs; i++)
        add_arg(c, node_copy(n->args[i]), n->kw ? xstrdup(n->kw[i]) : NULL, &cap);
    return c;
}

void ws_node_free(ws_node *n)
{
    if (!n) return;
    free(n->name);
    ws_val_free(n->lit);
    ws_node_free(n->a);
    ws_node_free(n->b);
    ws_node_free(n->c);
    for (int i = 0; i < n->nargs; i++) {
        ws_node_free(n->args[i]);
        if (n->kw) free(n->kw[i]);
    }
    free(n->args);
    free(n->kw);
    free(n);
}

/* ---- atoms ------------------------------------------------------------ */

/* Adjacent string tokens, concatenated. */
static ws_node *p_strings(parser *p)
{
    ws_node *n = mk(WN_LIT, p->t.line, p->t.col);
    gn_buf b;
    gn_buf_init(&b);
    while (p->t.kind == WTK_STR) {
        gn_buf_puts(&b, p->t.s);
        if (next(p)) {
            gn_buf_release(&b);
            free(n);
            return NULL;
        }
    }
    n->lit = ws_str_own(gn_buf_detach(&b));
    return n;
}

static ws_node *p_name(parser *p, const char *after)
{
    char what[64];
    if (p->t.kind != WTK_NAME || is_grammar_word(&p->t)) {
        snprintf(what, sizeof what, "expected a name after '%s'", after);
        unexpected(p, what);
        return NULL;
    }
    ws_node *n = mk(WN_NAME, p->t.line, p->t.col);
    n->name = xstrndup(p->t.text, p->t.len);
    if (next(p)) {
        ws_node_free(n);
        return NULL;
    }
    return n;
}

/* '[' items ']' (CLOSE "]") or '(' args ')' (CLOSE ")", keywords allowed)
 * into N, the opening bracket already consumed. */
static int p_items(parser *p, ws_node *n, const char *close, int *h)
{
    int cap = 0, sawkw = 0;
    while (!is_op(p, close)) {
        int line = p->t.line, col = p->t.col, ah = 0;
        char *kw = NULL;
        if (is_op(p, "*") || is_op(p, "**"))
            return perr_at(p, line, col, "star-arguments are not allowed");
        ws_node *a = p_expr(p, &ah);
        if (!a) return GN_EPARSE;
        if (*close == ')' && is_op(p, "=")) {
            if (a->kind != WN_NAME) {
                ws_node_free(a);
                return perr_at(p, line, col, "a keyword argument must be a plain name");
            }
            for (int i = 0; i < n->nargs; i++)
                if (n->kw[i] && !strcmp(n->kw[i], a->name)) {
                    perr_at(p, line, col, "keyword argument '%s' repeated", a->name);
                    ws_node_free(a);
                    return GN_EPARSE;
                }
            kw = a->name;
            a->name = NULL;
            ws_node_free(a);
            a = next(p) ? NULL : p_expr(p, &ah);
            if (!a) {
                free(kw);
                return GN_EPARSE;
            }
            sawkw = 1;
        } else if (sawkw) {
            ws_node_free(a);
            return perr_at(p, line, col, "positional argument follows keyword argument");
        }
        add_arg(n, a, kw, &cap);
        if (ah > *h) *h = ah;
        if (is_op(p, ",")) {
            if (next(p)) return GN_EPARSE;
        } else if (!is_op(p, close)) {
            return unexpected(p, *close == ')' ? "expected ',' or ')' after the argument"
                                               : "expected ',' or ']' in the list");
        }
    }
    return next(p);
}

/* '{' "key": value, ... '}', the brace already consumed. */
static int p_dict(parser *p, ws_node *n, int *h)
{
    int cap = 0;
    while (!is_op(p, "}")) {
        int vh = 0;
        if (p->t.kind != WTK_STR)
            return unexpected(p, "expected a string key in the dict (keys are string literals)");
        ws_node *k = p_strings(p);
        if (!k) return GN_EPARSE;
        char *key = xstrdup(k->lit->u.s);
        ws_node_free(k);
        ws_node *v = NULL;
        if (!expect_op(p, ":", "after the dict key")) v = p_expr(p, &vh);
        if (!v) {
            free(key);
            return GN_EPARSE;
        }
        add_arg(n, v, key, &cap);
        if (vh > *h) *h = vh;
        if (is_op(p, ",")) {
            if (next(p)) return GN_EPARSE;
        } else if (!is_op(p, "}")) {
            return unexpected(p, "expected ',' or '}' in the dict");
        }
    }
    return next(p);
}

static ws_node *p_literal(parser *p, ws_val *v)
{
    ws_node *n = mk(WN_LIT, p->t.line, p->t.col);
    n->lit = v;
    if (next(p)) {
        ws_node_free(n);
        return NULL;
    }
    return n;
}

/* A bracketed atom: ( expr ), [ items ], { dict }. */
static ws_node *p_bracket(parser *p, int *h)
{
    int line = p->t.line, col = p->t.col, rc;
    char open = *p->t.op;
    ws_node *n = NULL;
    if (enter(p, line, col) || next(p)) {
        p->depth--;
        return NULL;
    }
    if (open == '(') {
        n = p_expr(p, h);
        if (n && expect_op(p, ")", "to close the parenthesis")) {
            ws_node_free(n);
            n = NULL;
        }
    } else {
        n = mk(open == '[' ? WN_LIST : WN_DICT, line, col);
        rc = open == '[' ? p_items(p, n, "]", h) : p_dict(p, n, h);
        if (!rc) rc = grow(p, h, *h, line, col);
        if (rc) {
            ws_node_free(n);
            n = NULL;
        }
    }
    p->depth--;
    return n;
}

static ws_node *p_atom(parser *p, int *h)
{
    *h = 0;
    switch (p->t.kind) {
    case WTK_INT: return p_literal(p, ws_int(p->t.i));
    case WTK_FLOAT: return p_literal(p, ws_float(p->t.f));
    case WTK_STR: return p_strings(p);
    case WTK_NAME:
        /* JSON's spellings too: models write them as often as Python's,
         * and no name of the language can be spelled so. */
        if (is_kw(p, "True") || is_kw(p, "true")) return p_literal(p, ws_bool(1));
        if (is_kw(p, "False") || is_kw(p, "false")) return p_literal(p, ws_bool(0));
        if (is_kw(p, "None") || is_kw(p, "null")) return p_literal(p, ws_none());
        if (is_kw(p, "if")) {
            perr_at(p, p->t.line, p->t.col,
                    "'if' statements are not allowed; write 'A if CONDITION else B'");
            return NULL;
        }
        if (is_kw(p, "pass")) {
            perr_at(p, p->t.line, p->t.col, "'pass' must be a statement by itself");
            return NULL;
        }
        if (is_grammar_word(&p->t)) break;
        return p_name(p, "");
    case WTK_OP:
        if (is_op(p, "(") || is_op(p, "[") || is_op(p, "{")) return p_bracket(p, h);
        if (is_op(p, "@")) {
            ws_node *n = next(p) ? NULL : p_name(p, "@");
            if (n && !is_op(p, "(")) {
                perr_at(p, n->line, n->col, "'@' must be followed by a call, as in @%s(...)",
                        n->name);
                ws_node_free(n);
                return NULL;
            }
            return n;
        }
        break;
    default:
        break;
    }
    unexpected(p, "expected an expression");
    return NULL;
}

/* ---- postfix, unary, binary ------------------------------------------- */

/* One trailer after BASE: '.' NAME, '[' expr ']' or '(' args ')'. */
static ws_node *p_trailer(parser *p, ws_node *base, int *h)
{
    int line = p->t.line, col = p->t.col, rc = 0, ih = 0;
    ws_node *n;
    if (is_op(p, ".")) {
        ws_node *name = next(p) ? NULL : p_name(p, ".");
        if (!name) {
            ws_node_free(base);
            return NULL;
        }
        n = mk(WN_ATTR, base->line, base->col);
        n->a = base;
        n->name = name->name;
        name->name = NULL;
        ws_node_free(name);
        if (grow(p, h, *h, line, col)) goto fail;
        return n;
    }
    n = mk(is_op(p, "[") ? WN_INDEX : WN_CALL, base->line, base->col);
    n->a = base;
    if (enter(p, line, col) || next(p)) {
        p->depth--;
        goto fail;
    }
    if (n->kind == WN_INDEX) {
        n->b = p_expr(p, &ih);
        if (!n->b) rc = GN_EPARSE;
        else if (is_op(p, ":")) rc = perr_at(p, p->t.line, p->t.col, "slices are not supported");
        else rc = expect_op(p, "]", "to close the index");
    } else {
        rc = p_items(p, n, ")", &ih);
    }
    p->depth--;
    if (rc || grow(p, h, *h > ih ? *h : ih, line, col)) goto fail;
    return n;
fail:
    ws_node_free(n);
    return NULL;
}

static ws_node *p_postfix(parser *p, int *h)
{
    ws_node *n = p_atom(p, h);
    while (n && (is_op(p, ".") || is_op(p, "[") || is_op(p, "(")))
        n = p_trailer(p, n, h);
    return n;
}

/* '-' unary | '+' unary | postfix; also 'not' not | cmp (WORD "not"). */
static ws_node *p_prefix(parser *p, const char *word, ws_node *(*sub)(parser *, int *),
                         ws_node *(*self)(parser *, int *), int *h)
{
    const char *op = NULL;
    int line = p->t.line, col = p->t.col;
    if (word && is_kw(p, word)) op = word;
    else if (!word && (is_op(p, "-") || is_op(p, "+"))) op = is_op(p, "-") ? "-" : "+";
    if (!op) return sub(p, h);
    if (enter(p, line, col) || next(p)) return NULL;
    ws_node *a = self(p, h);
    p->depth--;
    if (!a) return NULL;
    if (grow(p, h, *h, line, col)) {
        ws_node_free(a);
        return NULL;
    }
    ws_node *n = mk(WN_UNARY, line, col);
    n->op = op;
    n->a = a;
    return n;
}

static ws_node *p_unary(parser *p, int *h)
{
    return p_prefix(p, NULL, p_postfix, p_unary, h);
}

/* A left-associative chain SUB (op SUB)* with the operators OPS (words
 * when WORDS is set, else symbols). */
static ws_node *p_chain(parser *p, const char *const *ops, int words,
                        ws_node *(*sub)(parser *, int *), int *h)
{
    ws_node *n = sub(p, h);
    while (n) {
        const char *op = NULL;
        for (int i = 0; ops[i] && !op; i++)
            if (words ? is_kw(p, ops[i]) : is_op(p, ops[i])) op = ops[i];
        if (!op) break;
        int line = p->t.line, col = p->t.col, rh = 0;
        ws_node *r = next(p) ? NULL : sub(p, &rh);
        if (!r || grow(p, h, *h > rh ? *h : rh, line, col)) {
            ws_node_free(r);
            ws_node_free(n);
            return NULL;
        }
        n = mk2(WN_BINARY, op, n, r);
    }
    return n;
}

static ws_node *p_term(parser *p, int *h)
{
    static const char *const ops[] = { "*", "/", "//", "%", NULL };
    return p_chain(p, ops, 0, p_unary, h);
}

static ws_node *p_sum(parser *p, int *h)
{
    static const char *const ops[] = { "+", "-", NULL };
    return p_chain(p, ops, 0, p_term, h);
}

/* The comparison operator at the current token (consumed), NULL when
 * there is none; *ERR is set on a lexical error or a 'not' without 'in'. */
static const char *cmp_op(parser *p, int *err)
{
    static const char *const sym[] = { "==", "!=", "<", "<=", ">", ">=", NULL };
    const char *op = NULL;
    for (int i = 0; sym[i]; i++)
        if (is_op(p, sym[i])) op = sym[i];
    if (is_kw(p, "in")) op = "in";
    if (is_kw(p, "is")) {
        if (next(p)) goto fail;
        if (!is_kw(p, "not")) return "is";
        op = "is not";
    } else if (is_kw(p, "not")) {
        if (next(p)) goto fail;
        if (!is_kw(p, "in")) {
            unexpected(p, "expected 'in' after 'not'");
            goto fail;
        }
        op = "not in";
    }
    if (op && next(p)) goto fail;
    return op;
fail:
    *err = 1;
    return NULL;
}

/* sum (cmpop sum)*, chains folded: a < b < c is (a < b) and (b < c). */
static ws_node *p_cmp(parser *p, int *h)
{
    ws_node *n = p_sum(p, h), *prev = n;
    int chained = 0;
    while (n) {
        int line = p->t.line, col = p->t.col, rh = 0, err = 0;
        const char *op = cmp_op(p, &err);
        ws_node *r = op ? p_sum(p, &rh) : NULL;
        if (!r) {
            if (!op && !err) return n;
            break;
        }
        int sub = *h > rh ? *h : rh;
        if (!chained) {
            n = mk2(WN_CMP, op, n, r);
            if (grow(p, h, sub, line, col)) break;
        } else {
            /* prev's copy is no deeper than the left side: the new
             * comparison is at most sub + 1 high, the 'and' sub + 2 */
            ws_node *c = mk2(WN_CMP, op, node_copy(prev), r);
            n = mk2(WN_BINARY, "and", n, c);
            if (grow(p, h, sub + 1, line, col)) break;
        }
        prev = r;
        chained = 1;
    }
    ws_node_free(n);
    return NULL;
}

static ws_node *p_not(parser *p, int *h)
{
    return p_prefix(p, "not", p_cmp, p_not, h);
}

static ws_node *p_and(parser *p, int *h)
{
    static const char *const ops[] = { "and", NULL };
    return p_chain(p, ops, 1, p_not, h);
}

static ws_node *p_or(parser *p, int *h)
{
    static const char *const ops[] = { "or", NULL };
    return p_chain(p, ops, 1, p_and, h);
}

/* or ['if' or 'else' expr] */
static ws_node *p_expr(parser *p, int *h)
{
    ws_node *n = p_or(p, h);
    if (!n || !is_kw(p, "if")) return n;
    int line = p->t.line, col = p->t.col, ah = 0, ch = 0;
    ws_node *c = mk(WN_COND, n->line, n->col);
    c->b = n;
    if (next(p) || !(c->a = p_or(p, &ah))) goto fail;
    if (!is_kw(p, "else")) {
        unexpected(p, "expected 'else' in the conditional expression");
        goto fail;
    }
    if (enter(p, p->t.line, p->t.col) || next(p)) {
        p->depth--;
        goto fail;
    }
    c->c = p_expr(p, &ch);
    p->depth--;
    if (!c->c) goto fail;
    if (ah > *h) *h = ah;
    if (grow(p, h, *h > ch ? *h : ch, line, col)) goto fail;
    return c;
fail:
    ws_node_free(c);
    return NULL;
}

/* ---- statements ------------------------------------------------------- */

/* What N is, when it cannot be assigned to; NULL for a valid target. */
static const char *target_problem(const ws_node *n)
{
    switch (n->kind) {
    case WN_NAME: return NULL;
    case WN_ATTR:
    case WN_INDEX: return target_problem(n->a);
    case WN_LIT: return "a literal";
    case WN_CALL: return "a function call";
    case WN_LIST: return "a list";
    case WN_DICT: return "a dict";
    case WN_CMP: return "a comparison (to compare, use '==')";
    case WN_COND: return "a conditional expression";
    default: return "an operator expression";
    }
}

static int p_stmt(parser *p, ws_stmt *s)
{
    int h = 0;
    if (is_op(p, ">") && next(p)) return GN_EPARSE;
    s->line = p->t.line;
    s->col = p->t.col;
    if (is_kw(p, "pass")) {
        s->kind = WS_PASS;
        return next(p);
    }
    ws_node *n = p_expr(p, &h);
    if (!n) return GN_EPARSE;
    if (!is_op(p, "=")) {
        s->kind = WS_EXPR;
        s->value = n;
        return 0;
    }
    const char *bad = target_problem(n);
    if (bad) {
        perr_at(p, n->line, n->col, "cannot assign to %s", bad);
        ws_node_free(n);
        return GN_EPARSE;
    }
    s->kind = WS_ASSIGN;
    s->target = n;
    if (next(p)) return GN_EPARSE;
    h = 0;
    s->value = p_expr(p, &h);
    return s->value ? 0 : GN_EPARSE;
}

static int at_separator(const parser *p)
{
    return p->t.kind == WTK_NL || p->t.kind == WTK_EOF || is_op(p, ";");
}

/* Check the size of SRC and read the first token. */
static int start(parser *p, const char *src, int line0, int col0, gn_err *e)
{
    memset(p, 0, sizeof *p);
    p->e = e;
    size_t n = strnlen(src, WS_EXPR_MAX_SRC + 1);
    ws_lex_init(&p->lx, src, line0, col0, e);
    if (n > WS_EXPR_MAX_SRC)
        return perr_at(p, p->lx.line0, p->lx.col0, "text too long (more than %d bytes)",
                       WS_EXPR_MAX_SRC);
    return next(p);
}

int ws_prog_parse(const char *src, int line0, int col0, ws_prog **out, gn_err *e)
{
    parser p;
    ws_prog *prog = xcalloc(1, sizeof *prog);
    int cap = 0;
    *out = NULL;
    if (start(&p, src ? src : "", line0, col0, e)) goto fail;
    for (;;) {
        while (p.t.kind == WTK_NL || is_op(&p, ";"))
            if (next(&p)) goto fail;
        if (p.t.kind == WTK_EOF) break;
        if (prog->n == cap) {
            cap = cap ? cap * 2 : 4;
            prog->stmts = xrealloc(prog->stmts, (size_t)cap * sizeof *prog->stmts);
        }
        ws_stmt *s = &prog->stmts[prog->n++];
        memset(s, 0, sizeof *s);
        if (p_stmt(&p, s)) goto fail;
        if (at_separator(&p)) continue;
        if (s->kind == WS_ASSIGN && is_op(&p, "="))
            perr_at(&p, p.t.line, p.t.col, "chained assignment is not allowed");
        else
            unexpected(&p, "expected a new line or ';' after the statement");
        goto fail;
    }
    free(p.t.s);
    *out = prog;
    return 0;
fail:
    free(p.t.s);
    ws_prog_free(prog);
    return GN_EPARSE;
}

int ws_expr_parse(const char *src, int line0, int col0, ws_node **out, gn_err *e)
{
    parser p;
    ws_node *n = NULL;
    int h = 0;
    *out = NULL;
    if (start(&p, src ? src : "", line0, col0, e)) goto fail;
    while (p.t.kind == WTK_NL)
        if (next(&p)) goto fail;
    if (is_op(&p, ">") && next(&p)) goto fail;
    if (!(n = p_expr(&p, &h))) goto fail;
    while (p.t.kind == WTK_NL)
        if (next(&p)) goto fail;
    if (p.t.kind != WTK_EOF) {
        if (is_op(&p, "="))
            perr_at(&p, p.t.line, p.t.col,
                    "assignment is not allowed in an expression; to compare, use '=='");
        else
            unexpected(&p, "expected the end of the expression");
        goto fail;
    }
    *out = n;
    return 0;
fail:
    free(p.t.s);
    ws_node_free(n);
    return GN_EPARSE;
}

void ws_prog_free(ws_prog *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        ws_node_free(p->stmts[i].target);
        ws_node_free(p->stmts[i].value);
    }
    free(p->stmts);
    free(p);
}
