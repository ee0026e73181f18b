/*
 * expr_lex.c — the tokenizer of the worksheet expression language
 * (expr_int.h).
 *
 * What: names, numbers (decimal with '_' separators, 0x/0o/0b, floats with
 * fraction or exponent), strings ('...', "...", triple-quoted, r-prefixed
 * raw, backslash escapes including \xHH, \uXXXX and \UXXXXXXXX), Python's
 * operators, '#' comments and '\' line continuations.  A newline is a
 * token only outside brackets, as in Python.  Python keywords that lie
 * outside the grammar (import, def, lambda, for, ...) are refused here,
 * where their position is known, so `for x in y: pass` fails on 'for'.
 *
 * Invariant: every token's line and column is where its first character
 * sits in the file; a string token's text is valid UTF-8 without NUL
 * bytes (values are C strings and go to JSON).
 *
 * Rejected: tokenizing the whole text up front (a later lexical error
 * would hide an earlier syntax error); Unicode identifiers (worksheet
 * names are ASCII, and a stray non-ASCII character outside a string is
 * more likely a paste error); refusing unknown escapes such as "\d"
 * (Python keeps the backslash, and LLM output relies on it); f-strings
 * and byte strings, which are refused with a message naming them.
 */
#include "worksheet/expr_int.h"

#include "util/buf.h"
#include "util/xmem.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest first, so "//" wins over "/" and "**=" over "**". */
static const char *const ops[] = {
    "**=", "//=", ">>=", "<<=", "...",
    "**", "//", "==", "!=", "<=", ">=", "->", ":=", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "@=", "<<", ">>",
    "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")",
    "[", "]", "{", "}", ",", ":", ".", ";", "=", "!",
    NULL
};

/* Python keywords the grammar has no place for. */
static const char *const refused_words[] = {
    "import", "from", "as", "def", "lambda", "class", "for", "while",
    "with", "global", "nonlocal", "del", "yield", "await", "async",
    "return", "try", "except", "finally", "raise", "assert", "elif",
    "break", "continue", NULL
};

/* ---- positions and errors --------------------------------------------- */

static void file_pos(const ws_lexer *lx, int line, int col, int *fl, int *fc)
{
    *fl = lx->line0 + line - 1;
    *fc = line == 1 ? lx->col0 + col - 1 : col;
}

static int lex_error(const ws_lexer *lx, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int lex_error(const ws_lexer *lx, int line, int col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    int fl, fc;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    file_pos(lx, line, col, &fl, &fc);
    return gn_err_setpos(lx->e, GN_EPARSE, NULL, fl, fc, "%s", msg);
}

/* Consume one byte, keeping line and column (columns count characters). */
static void step(ws_lexer *lx)
{
    unsigned char c = (unsigned char)*lx->p++;
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if ((c & 0xC0) != 0x80) {
        lx->col++;
    }
}

static void stepn(ws_lexer *lx, size_t n)
{
    while (n--) step(lx);
}

/* A printable rendering of the character at S for messages. */
static void char_desc(const char *s, char *buf, size_t size)
{
    unsigned char c = (unsigned char)*s;
    if (c >= 0x21 && c < 0x7f) snprintf(buf, size, "'%c'", c);
    else snprintf(buf, size, "byte 0x%02x", c);
}

/* ---- UTF-8 ------------------------------------------------------------ */

/* The length of the valid UTF-8 sequence at S (1-4), or 0. */
static int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        return (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        if (s[0] == 0xE0 && s[1] < 0xA0) return 0;          /* overlong */
        if (s[0] == 0xED && s[1] >= 0xA0) return 0;         /* surrogate */
        return 3;
    }
    if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if (s[0] == 0xF0 && s[1] < 0x90) return 0;          /* overlong */
        if (s[0] == 0xF4 && s[1] >= 0x90) return 0;         /* > U+10FFFF */
        return 4;
    }
    return 0;
}

static void put_utf8(gn_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    gn_buf_add(b, u, n);
}

/* ---- strings ---------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* N hex digits at S as a number, or -1. */
static long hex_digits(const char *s, int n)
{
    long v = 0;
    for (int i = 0; i < n; i++) {
        int d = hexval((unsigned char)s[i]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A \x, \u or \U escape at lx->p (the backslash): its code point into
 * *CP, consuming it; a \uD8xx\uDCxx pair makes one character. */
static int hex_escape(ws_lexer *lx, unsigned long *cp)
{
    int line = lx->line, col = lx->col;
    char kind = lx->p[1];
    int n = kind == 'x' ? 2 : kind == 'u' ? 4 : 8;
    long v = hex_digits(lx->p + 2, n);
    if (v < 0)
        return lex_error(lx, line, col, "invalid '\\%c' escape: expected %d hex digits", kind, n);
    stepn(lx, (size_t)n + 2);
    if (v >= 0xD800 && v <= 0xDBFF && lx->p[0] == '\\' && lx->p[1] == 'u') {
        long lo = hex_digits(lx->p + 2, 4);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            stepn(lx, 6);
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    if (v >= 0xD800 && v <= 0xDFFF)
        return lex_error(lx, line, col, "invalid '\\%c' escape: lone surrogate", kind);
    if (v > 0x10FFFF)
        return lex_error(lx, line, col, "invalid '\\%c' escape: beyond U+10FFFF", kind);
    *cp = (unsigned long)v;
    return 0;
}

/* One escape sequence at lx->p (the backslash) of a non-raw string. */
static int escape(ws_lexer *lx, gn_buf *b)
{
    static const char simple_in[] = "\\'\"abfnrtv";
    static const char simple_out[] = "\\'\"\a\b\f\n\r\t\v";
    int line = lx->line, col = lx->col;
    char c = lx->p[1];
    const char *k = c ? strchr(simple_in, c) : NULL;
    unsigned long cp = 0;
    if (k) {
        gn_buf_putc(b, simple_out[k - simple_in]);
        stepn(lx, 2);
        return 0;
    }
    if (c == '\n') {                    /* continuation inside the string */
        stepn(lx, 2);
        return 0;
    }
    if (c == 'x' || c == 'u' || c == 'U') {
        if (hex_escape(lx, &cp)) return GN_EPARSE;
    } else if (c >= '0' && c <= '7') {
        int n = 1;
        cp = (unsigned long)(c - '0');
        while (n < 3 && lx->p[1 + n] >= '0' && lx->p[1 + n] <= '7')
            cp = cp * 8 + (unsigned long)(lx->p[1 + n++] - '0');
        stepn(lx, (size_t)n + 1);
    } else if (c == 'N') {
        return lex_error(lx, line, col, "'\\N{...}' escapes are not supported; use '\\u'");
    } else {
        /* Python keeps unknown escapes as written ("\d" is two chars). */
        gn_buf_putc(b, '\\');
        step(lx);
        return 0;
    }
    if (cp == 0)
        return lex_error(lx, line, col, "NUL characters are not allowed in strings");
    put_utf8(b, cp);
    return 0;
}

/* A string whose opening quote is at lx->p; LINE/COL is where its prefix
 * starts (the error position for an unterminated string). */
static int lex_string(ws_lexer *lx, ws_tok *t, int raw, int line, int col)
{
    char q = *lx->p;
    int triple = lx->p[1] == q && lx->p[2] == q;
    gn_buf b;
    gn_buf_init(&b);
    stepn(lx, triple ? 3 : 1);
    for (;;) {
        const unsigned char c = (unsigned char)*lx->p;
        int n;
        if (!c || (c == '\n' && !triple)) {
            gn_buf_release(&b);
            return lex_error(lx, line, col, triple ? "unterminated triple-quoted string"
                                                   : "unterminated string");
        }
        if (c == (unsigned char)q && (!triple || (lx->p[1] == q && lx->p[2] == q))) {
            stepn(lx, triple ? 3 : 1);
            break;
        }
        if (c == '\\' && !raw) {
            if (escape(lx, &b)) {
                gn_buf_release(&b);
                return GN_EPARSE;
            }
            continue;
        }
        if (c == '\\') {                  /* raw: kept, and still escapes */
            gn_buf_putc(&b, '\\');
            step(lx);
            if (*lx->p == q || *lx->p == '\\' || *lx->p == '\n') {
                gn_buf_putc(&b, *lx->p);
                step(lx);
            }
            continue;
        }
        n = utf8_len((const unsigned char *)lx->p);
        if (!n) {
            int el = lx->line, ec = lx->col;
            gn_buf_release(&b);
            return lex_error(lx, el, ec, "invalid UTF-8 in string");
        }
        gn_buf_add(&b, lx->p, (size_t)n);
        stepn(lx, (size_t)n);
    }
    t->kind = WTK_STR;
    t->s = gn_buf_detach(&b);
    return 0;
}

/* ---- numbers ---------------------------------------------------------- */

static int is_digit_of(int c, int base)
{
    if (base == 16) return isxdigit(c);
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 2) return c == '0' || c == '1';
    return isdigit(c);
}

/* Digits (with '_' between them) at S; returns the end. */
static const char *scan_digits(const char *s, int base)
{
    while (is_digit_of((unsigned char)*s, base) || *s == '_') s++;
    return s;
}

/* Every '_' in [S, E) must sit between two digits (or after a 0x prefix). */
static int underscores_ok(const char *s, const char *e, int base)
{
    for (const char *u = s; u < e; u++) {
        if (*u != '_') continue;
        int before = u > s && (is_digit_of((unsigned char)u[-1], base) ||
                               (base != 10 && u - s == 2));
        int after = u + 1 < e && is_digit_of((unsigned char)u[1], base);
        if (!before || !after) return 0;
    }
    return 1;
}

static int int_value(ws_lexer *lx, ws_tok *t, const char *s, const char *e, int base)
{
    unsigned long long v = 0;
    for (; s < e; s++) {
        if (*s == '_') continue;
        unsigned d = (unsigned)(isdigit((unsigned char)*s) ? *s - '0'
                                : hexval((unsigned char)*s));
        if (v > ((unsigned long long)LLONG_MAX - d) / (unsigned)base)
            return lex_error(lx, lx->line, lx->col, "integer literal too large");
        v = v * (unsigned)base + d;
    }
    t->kind = WTK_INT;
    t->i = (long long)v;
    return 0;
}

static int float_value(ws_lexer *lx, ws_tok *t, const char *s, const char *e)
{
    char tmp[512];
    size_t n = 0;
    for (; s < e; s++)
        if (*s != '_') tmp[n++] = *s;
    tmp[n] = 0;
    t->kind = WTK_FLOAT;
    t->f = strtod(tmp, NULL);
    if (isinf(t->f))
        return lex_error(lx, lx->line, lx->col, "float literal out of range");
    return 0;
}

static int lex_number(ws_lexer *lx, ws_tok *t)
{
    const char *s = lx->p, *e;
    int base = 10, isfloat = 0;
    if (s[0] == '0' && s[1] && strchr("xXoObB", s[1])) {
        base = tolower((unsigned char)s[1]) == 'x' ? 16 : tolower((unsigned char)s[1]) == 'o' ? 8 : 2;
        e = scan_digits(s + 2, base);
        if (e == s + 2) goto bad;
    } else {
        e = scan_digits(s, 10);
        if (*e == '.') {
            isfloat = 1;
            e = scan_digits(e + 1, 10);
        }
        if ((*e == 'e' || *e == 'E') &&
            (isdigit((unsigned char)e[1]) ||
             ((e[1] == '+' || e[1] == '-') && isdigit((unsigned char)e[2])))) {
            isfloat = 1;
            e = scan_digits(e + 2, 10);
        }
    }
    if (isalnum((unsigned char)*e) || *e == '_' || e - s > 400) goto bad;
    if (!underscores_ok(s, e, base))
        return lex_error(lx, lx->line, lx->col, "invalid '_' in number '%.*s'", (int)(e - s), s);
    if (base == 10 && !isfloat && s[0] == '0' && strspn(s, "0_") < (size_t)(e - s))
        return lex_error(lx, lx->line, lx->col,
                         "leading zeros are not allowed in '%.*s' (write 0o... for octal)",
                         (int)(e - s), s);
    t->text = s;
    t->len = (size_t)(e - s);
    if (isfloat ? float_value(lx, t, s, e) : int_value(lx, t, base == 10 ? s : s + 2, e, base))
        return GN_EPARSE;
    stepn(lx, t->len);
    return 0;
bad:
    while (isalnum((unsigned char)*e) || *e == '_' || *e == '.') e++;
    return lex_error(lx, lx->line, lx->col, "invalid number '%.*s'",
                     (int)(e - s > 40 ? 40 : e - s), s);
}

/* ---- names and operators ---------------------------------------------- */

int ws_tok_is_name(const ws_tok *t, const char *kw)
{
    return t->kind == WTK_NAME && strlen(kw) == t->len && !memcmp(t->text, kw, t->len);
}

/* A name at lx->p, or a string with a prefix (r"..."), or a refusal. */
static int lex_name(ws_lexer *lx, ws_tok *t)
{
    const char *s = lx->p, *e = s;
    while (isalnum((unsigned char)*e) || *e == '_') e++;
    size_t n = (size_t)(e - s);
    if ((*e == '"' || *e == '\'') && n <= 2 && strspn(s, "rRuUbBfF") >= n) {
        int line = lx->line, col = lx->col;
        if (memchr(s, 'f', n) || memchr(s, 'F', n))
            return lex_error(lx, line, col, "f-strings are not allowed; join text with '+'");
        if (memchr(s, 'b', n) || memchr(s, 'B', n))
            return lex_error(lx, line, col, "byte strings are not allowed");
        if (n == 1) {
            stepn(lx, n);
            return lex_string(lx, t, *s == 'r' || *s == 'R', line, col);
        }
    }
    for (int i = 0; refused_words[i]; i++)
        if (strlen(refused_words[i]) == n && !memcmp(refused_words[i], s, n))
            return lex_error(lx, lx->line, lx->col, "'%s' is not allowed", refused_words[i]);
    t->kind = WTK_NAME;
    t->text = s;
    t->len = n;
    stepn(lx, n);
    return 0;
}

static int lex_op(ws_lexer *lx, ws_tok *t)
{
    char desc[32];
    for (int i = 0; ops[i]; i++) {
        size_t n = strlen(ops[i]);
        if (strncmp(lx->p, ops[i], n)) continue;
        t->kind = WTK_OP;
        t->op = ops[i];
        t->text = lx->p;
        t->len = n;
        if (n == 1 && strchr("([{", *ops[i])) lx->nest++;
        if (n == 1 && strchr(")]}", *ops[i]) && lx->nest > 0) lx->nest--;
        stepn(lx, n);
        return 0;
    }
    if ((unsigned char)*lx->p >= 0x80 && utf8_len((const unsigned char *)lx->p))
        return lex_error(lx, lx->line, lx->col,
                         "non-ASCII character '%.*s' outside a string",
                         utf8_len((const unsigned char *)lx->p), lx->p);
    char_desc(lx->p, desc, sizeof desc);
    return lex_error(lx, lx->line, lx->col, "unexpected character %s", desc);
}

/* ---- the token loop --------------------------------------------------- */

void ws_lex_init(ws_lexer *lx, const char *src, int line0, int col0, gn_err *e)
{
    memset(lx, 0, sizeof *lx);
    lx->src = lx->p = src;
    lx->line = lx->col = 1;
    lx->line0 = line0 > 0 ? line0 : 1;
    lx->col0 = col0 > 0 ? col0 : 1;
    lx->e = e;
}

/* Past blanks, comments and continuations; stops at a newline that
 * separates statements (outside brackets) or at the next token. */
static void skip_space(ws_lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            step(lx);
        } else if (c == '#') {
            while (*lx->p && *lx->p != '\n') step(lx);
        } else if (c == '\\' && (lx->p[1] == '\n' || (lx->p[1] == '\r' && lx->p[2] == '\n'))) {
            stepn(lx, lx->p[1] == '\n' ? 2 : 3);
        } else if (c == '\n' && lx->nest > 0) {
            step(lx);
        } else {
            return;
        }
    }
}

int ws_lex_next(ws_lexer *lx, ws_tok *t)
{
    int rc;
    memset(t, 0, sizeof *t);
    skip_space(lx);
    file_pos(lx, lx->line, lx->col, &t->line, &t->col);
    t->text = lx->p;
    unsigned char c = (unsigned char)*lx->p;
    if (!c) {
        t->kind = WTK_EOF;
        return 0;
    }
    if (c == '\n') {
        t->kind = WTK_NL;
        t->len = 1;
        step(lx);
        return 0;
    }
    if (isalpha(c) || c == '_') rc = lex_name(lx, t);
    else if (isdigit(c) || (c == '.' && isdigit((unsigned char)lx->p[1]))) rc = lex_number(lx, t);
    else if (c == '"' || c == '\'') rc = lex_string(lx, t, 0, lx->line, lx->col);
    else rc = lex_op(lx, t);
    if (rc) {
        free(t->s);
        memset(t, 0, sizeof *t);
        t->kind = WTK_EOF;
        return GN_EPARSE;
    }
    if (t->kind == WTK_STR) t->len = (size_t)(lx->p - t->text);
    return 0;
}
