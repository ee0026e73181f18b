/*
 * expr_int.h — shared by the files of the worksheet expression parser
 * (expr_lex.c, expr.c); not for other modules.
 *
 * The tokenizer hands out one token at a time.  Positions in tokens are
 * already where the text sits in its file (offset by line0/col0), so the
 * parser reports and stores them as they are.  Columns count characters
 * (UTF-8 sequences), not bytes, like the SUQL parser's.
 */
#ifndef GENIE_WS_EXPR_INT_H
#define GENIE_WS_EXPR_INT_H

#include "util/err.h"

#include <stddef.h>

/* The longest text ws_prog_parse / ws_expr_parse accept, in bytes. */
#define WS_EXPR_MAX_SRC 65536
/* The deepest nesting: brackets, unary operators and tree levels. */
#define WS_EXPR_MAX_DEPTH 100

enum ws_tok_kind {
    WTK_EOF,
    WTK_NL,      /* a statement separator (newline outside brackets) */
    WTK_NAME,    /* identifiers and keywords alike; text/len */
    WTK_INT,     /* i */
    WTK_FLOAT,   /* f */
    WTK_STR,     /* s: decoded, without NUL bytes */
    WTK_OP       /* op: a static spelling such as "(" or "//" */
};

typedef struct ws_tok {
    enum ws_tok_kind kind;
    int line, col;          /* in the file: offset by line0/col0 */
    const char *text;       /* the token's source text (not terminated) */
    size_t len;
    const char *op;
    long long i;
    double f;
    char *s;                /* STR: owned by the token's holder (free) */
} ws_tok;

typedef struct ws_lexer {
    const char *src;
    const char *p;          /* the next byte to read */
    int line, col;          /* of p, 1-based within src */
    int nest;               /* open brackets: newlines inside them are
                               not separators */
    int line0, col0;
    gn_err *e;
} ws_lexer;

/* Start reading SRC (NUL-terminated, borrowed for the lexer's life). */
void ws_lex_init(ws_lexer *lx, const char *src, int line0, int col0, gn_err *e);

/* Read the next token into *T (T->s, when set, belongs to the caller).
 * Returns 0, or GN_EPARSE with lx->e set (T is then an EOF token). */
int ws_lex_next(ws_lexer *lx, ws_tok *t);

/* Whether T is the name KW (keywords are names to the tokenizer). */
int ws_tok_is_name(const ws_tok *t, const char *kw);

#endif
