/*
 * expr.h — the worksheet expression language: a safe Python subset.
 *
 * Used for worksheet and field predicates, field and worksheet actions, and
 * the output of the contextual semantic parser.  This module only parses
 * and prints; nothing is evaluated here (interp.h does that, against
 * declared names only).  The grammar, one statement per line or separated
 * by ';':
 *
 *   stmt    := 'pass' | target '=' expr | expr
 *   target  := NAME | target '.' NAME | target '[' expr ']'
 *   expr    := or ['if' or 'else' expr]            (conditional)
 *   or      := and ('or' and)*
 *   and     := not ('and' not)*
 *   not     := 'not' not | cmp
 *   cmp     := sum (cmpop sum)*       cmpop: == != < <= > >= in 'not in'
 *                                            is 'is not'
 *   sum     := term (('+'|'-') term)*
 *   term    := unary (('*'|'/'|'//'|'%') unary)*
 *   unary   := '-' unary | '+' unary | postfix
 *   postfix := atom ('.' NAME | '[' expr ']' | '(' args ')')*
 *   args    := [arg (',' arg)* [',']]     arg: expr | NAME '=' expr
 *   atom    := NAME | NUMBER | STRING | True | False | None
 *            | '(' expr ')' | '[' exprs ']' | '{' key ':' expr, ... '}'
 *
 * Strings: single, double or triple quotes, backslash escapes, f-strings
 * are refused; adjacent strings concatenate.  Anything outside the grammar
 * (import, def, lambda, for, while, with, class, global, del, yield, await,
 * walrus, star-args, decorators, semicolon-less multiple statements) is a
 * parse error with line and column.
 *
 * A leading '>' on a statement (the reference spreadsheet's marker for
 * code) is skipped; a leading '@' before a call (its marker for an API
 * call) too.  '#' starts a comment to the end of the line.
 */
#ifndef GENIE_WS_EXPR_H
#define GENIE_WS_EXPR_H

#include "util/buf.h"
#include "util/err.h"
#include "worksheet/value.h"

enum ws_node_kind {
    WN_LIT,      /* lit */
    WN_NAME,     /* name */
    WN_ATTR,     /* a.name */
    WN_INDEX,    /* a[b] */
    WN_CALL,     /* a(args; kw names in kw[i], NULL for positional) */
    WN_LIST,     /* [args] */
    WN_DICT,     /* {kw[i]: args[i]}: keys are string literals */
    WN_UNARY,    /* op a: "-", "+", "not" */
    WN_BINARY,   /* a op b: "+", "-", "*", "/", "//", "%", "and", "or" */
    WN_CMP,      /* a op b: "==", "!=", "<", "<=", ">", ">=", "in",
                    "not in", "is", "is not" (chains are folded into and) */
    WN_COND      /* b if a else c  (a: condition, b: then, c: else) */
};

typedef struct ws_node ws_node;
struct ws_node {
    enum ws_node_kind kind;
    int line, col;              /* 1-based position in the source text */
    const char *op;             /* static string for UNARY/BINARY/CMP */
    char *name;                 /* NAME, ATTR */
    ws_val *lit;                /* LIT */
    ws_node *a, *b, *c;
    ws_node **args;             /* CALL, LIST, DICT */
    char **kw;                  /* CALL (NULL entries: positional), DICT */
    int nargs;
};

enum ws_stmt_kind { WS_PASS, WS_ASSIGN, WS_EXPR };

typedef struct ws_stmt {
    enum ws_stmt_kind kind;
    int line, col;
    ws_node *target;            /* ASSIGN: NAME, ATTR or INDEX */
    ws_node *value;             /* ASSIGN, EXPR */
} ws_stmt;

typedef struct ws_prog {
    ws_stmt *stmts;
    int n;
} ws_prog;

/* Parse SRC (NUL-terminated) into *OUT (caller frees with ws_prog_free).
 * LINE0 and COL0 are where SRC starts in its file (1, 1 for a standalone
 * text); error positions are offset by them.  Returns 0 or GN_EPARSE with
 * e's line and column set and a message such as "expected ')' after
 * arguments" or "'import' is not allowed".  Empty text (or only comments)
 * gives a program of zero statements. */
int ws_prog_parse(const char *src, int line0, int col0, ws_prog **out, gn_err *e);
void ws_prog_free(ws_prog *p);

/* Parse SRC as exactly one expression (predicates).  Returns 0 or
 * GN_EPARSE as above. */
int ws_expr_parse(const char *src, int line0, int col0, ws_node **out, gn_err *e);
void ws_node_free(ws_node *n);

/* Append N (or statement S) as canonical source text: fully parenthesized
 * only where needed, strings double-quoted. */
void ws_node_print(const ws_node *n, gn_buf *out);
void ws_stmt_print(const ws_stmt *s, gn_buf *out);

#endif
