/*
 * expr_print.c — worksheet expression trees back to source text (expr.h).
 *
 * What: the canonical form — one space around binary operators and after
 * commas, keyword arguments as name=value, strings double-quoted by
 * ws_val_print, the spreadsheet's '>' and '@' markers dropped.
 *
 * Invariant: the text parses back to the same tree.  A child is put in
 * parentheses exactly when its precedence would otherwise bind it
 * differently: a left operand when it binds more loosely than its
 * operator, a right operand also when it binds equally (the binary
 * operators associate to the left), either side of a comparison when it
 * is a comparison or looser (a chain would be folded differently).
 *
 * Rejected: parenthesizing every operator (unreadable in prompts and
 * logs, and not what the LLM writes); printing from remembered source
 * spans (trees are also built by code, and copied by chain folding).
 */
#include "worksheet/expr.h"

#include <math.h>
#include <string.h>

enum {
    PREC_COND = 1, PREC_OR, PREC_AND, PREC_NOT, PREC_CMP, PREC_SUM, PREC_TERM,
    PREC_UNARY, PREC_ATOM
};

static int prec(const ws_node *n)
{
    switch (n->kind) {
    case WN_COND: return PREC_COND;
    case WN_CMP: return PREC_CMP;
    case WN_UNARY: return !strcmp(n->op, "not") ? PREC_NOT : PREC_UNARY;
    case WN_BINARY:
        if (!strcmp(n->op, "or")) return PREC_OR;
        if (!strcmp(n->op, "and")) return PREC_AND;
        if (!strcmp(n->op, "+") || !strcmp(n->op, "-")) return PREC_SUM;
        return PREC_TERM;
    case WN_LIT:
        /* a negative number (built by code, not parsed) prints with '-' */
        if (n->lit && ((n->lit->kind == WV_INT && n->lit->u.i < 0) ||
                       (n->lit->kind == WV_FLOAT && signbit(n->lit->u.f))))
            return PREC_UNARY;
        return PREC_ATOM;
    default: return PREC_ATOM;
    }
}

static void pr(const ws_node *n, gn_buf *out);

/* N, in parentheses when PAREN is set. */
static void pr_sub(const ws_node *n, int paren, gn_buf *out)
{
    if (paren) gn_buf_putc(out, '(');
    pr(n, out);
    if (paren) gn_buf_putc(out, ')');
}

static void pr_str(const char *s, gn_buf *out)
{
    ws_val v;
    memset(&v, 0, sizeof v);
    v.kind = WV_STR;
    v.u.s = (char *)s;           /* ws_val_print only reads it */
    ws_val_print(&v, out, NULL, NULL);
}

static void pr_args(const ws_node *n, int dict, gn_buf *out)
{
    for (int i = 0; i < n->nargs; i++) {
        if (i) gn_buf_puts(out, ", ");
        if (dict) {
            pr_str(n->kw && n->kw[i] ? n->kw[i] : "", out);
            gn_buf_puts(out, ": ");
        } else if (n->kw && n->kw[i]) {
            gn_buf_printf(out, "%s=", n->kw[i]);
        }
        pr(n->args[i], out);
    }
}

/* The base of an attribute, index or call. */
static void pr_base(const ws_node *n, gn_buf *out)
{
    /* "1.x" would read as the float "1." followed by x */
    int int_lit = n->kind == WN_LIT && n->lit && n->lit->kind == WV_INT;
    pr_sub(n, prec(n) < PREC_ATOM || int_lit, out);
}

static void pr(const ws_node *n, gn_buf *out)
{
    int p = prec(n);
    switch (n->kind) {
    case WN_LIT: ws_val_print(n->lit, out, NULL, NULL); break;
    case WN_NAME: gn_buf_puts(out, n->name); break;
    case WN_ATTR:
        pr_base(n->a, out);
        gn_buf_printf(out, ".%s", n->name);
        break;
    case WN_INDEX:
        pr_base(n->a, out);
        gn_buf_putc(out, '[');
        pr(n->b, out);
        gn_buf_putc(out, ']');
        break;
    case WN_CALL:
        pr_base(n->a, out);
        gn_buf_putc(out, '(');
        pr_args(n, 0, out);
        gn_buf_putc(out, ')');
        break;
    case WN_LIST:
        gn_buf_putc(out, '[');
        pr_args(n, 0, out);
        gn_buf_putc(out, ']');
        break;
    case WN_DICT:
        gn_buf_putc(out, '{');
        pr_args(n, 1, out);
        gn_buf_putc(out, '}');
        break;
    case WN_UNARY:
        gn_buf_puts(out, n->op);
        if (p == PREC_NOT) gn_buf_putc(out, ' ');
        pr_sub(n->a, prec(n->a) < p, out);
        break;
    case WN_BINARY:
        pr_sub(n->a, prec(n->a) < p, out);
        gn_buf_printf(out, " %s ", n->op);
        pr_sub(n->b, prec(n->b) <= p, out);
        break;
    case WN_CMP:
        pr_sub(n->a, prec(n->a) <= p, out);
        gn_buf_printf(out, " %s ", n->op);
        pr_sub(n->b, prec(n->b) <= p, out);
        break;
    case WN_COND:
        pr_sub(n->b, prec(n->b) <= p, out);
        gn_buf_puts(out, " if ");
        pr_sub(n->a, prec(n->a) <= p, out);
        gn_buf_puts(out, " else ");
        pr(n->c, out);
        break;
    }
}

void ws_node_print(const ws_node *n, gn_buf *out)
{
    if (n) pr(n, out);
}

void ws_stmt_print(const ws_stmt *s, gn_buf *out)
{
    switch (s->kind) {
    case WS_PASS: gn_buf_puts(out, "pass"); break;
    case WS_ASSIGN:
        ws_node_print(s->target, out);
        gn_buf_puts(out, " = ");
        ws_node_print(s->value, out);
        break;
    case WS_EXPR: ws_node_print(s->value, out); break;
    }
}
