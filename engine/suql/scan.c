/*
 * scan.c — lexical checks on the raw query text, before and beside
 * libpg_query (parse_int.h).
 *
 * What: a token skimmer that knows just enough of PostgreSQL's lexical
 * rules (comments, nested block comments, '' and E'' strings, "" names,
 * $tag$ quotes) to count, outside quoted text, the tokens that can nest
 * the parse tree without brackets; UTF-8 validation; and small position
 * helpers (the keyword before a node, the start of a statement).
 *
 * Invariant: suql_scan_complexity over-estimates the depth of the tree
 * PostgreSQL's grammar can build from the text: every level of nesting
 * needs an open bracket or one of the counted tokens (an operator, NOT,
 * IS, LIKE, BETWEEN, IN, CASE, JOIN, UNION, ...).  AND and OR are not
 * counted: the grammar flattens their chains into one list.
 *
 * Rejected: limiting the text length alone (100 000 chained "+1" fit in
 * 200 KB and crash libpg_query); running libpg_query on a thread with a
 * huge stack (a thread per query, and the bound would still be a guess).
 */
#include "suql/parse_int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Keywords that build a tree level without brackets. */
static const char *const nesting_words[] = {
    "not", "is", "isnull", "notnull", "like", "ilike", "similar", "between",
    "in", "collate", "at", "case", "escape", "overlaps", "join", "union",
    "intersect", "except", NULL
};

static int ident_start(unsigned char c)
{
    return isalpha(c) || c == '_' || c >= 0x80;
}

static int ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

static int op_char(unsigned char c)
{
    return c && strchr("+-*/<>=~!@#%^&|`?:", c) != NULL;
}

/* Past a block comment starting at I ("/" "*"), nested as PostgreSQL does. */
static size_t skip_block_comment(const char *s, size_t n, size_t i)
{
    int level = 0;
    while (i < n) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            level++;
            i += 2;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
            i += 2;
            if (--level == 0) return i;
        } else {
            i++;
        }
    }
    return n;
}

/* Past a quoted run starting at I (the opening quote Q); BACKSLASH: E''. */
static size_t skip_quoted(const char *s, size_t n, size_t i, char q, int backslash)
{
    for (i++; i < n; i++) {
        if (backslash && s[i] == '\\') {
            i++;
        } else if (s[i] == q) {
            if (i + 1 < n && s[i + 1] == q) i++;
            else return i + 1;
        }
    }
    return n;
}

/* Past a dollar-quoted string at I, or I itself when "$" starts none. */
static size_t skip_dollar(const char *s, size_t n, size_t i)
{
    size_t j = i + 1;
    if (j < n && ident_start((unsigned char)s[j]) && !isdigit((unsigned char)s[j]))
        while (j < n && ident_char((unsigned char)s[j]) && s[j] != '$') j++;
    if (j >= n || s[j] != '$') return i;
    size_t tag = j + 1 - i;
    for (size_t k = j + 1; k + tag <= n; k++)
        if (s[k] == '$' && !memcmp(s + k, s + i, tag)) return k + tag;
    return n;
}

static int is_nesting_word(const char *s, size_t len)
{
    for (int i = 0; nesting_words[i]; i++)
        if (strlen(nesting_words[i]) == len && !strncasecmp(s, nesting_words[i], len)) return 1;
    return 0;
}

/* Past blanks and comments from I. */
static size_t skip_blanks(const char *s, size_t n, size_t i)
{
    while (i < n) {
        if (isspace((unsigned char)s[i])) {
            i++;
        } else if (s[i] == '-' && i + 1 < n && s[i + 1] == '-') {
            while (i < n && s[i] != '\n') i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            i = skip_block_comment(s, n, i);
        } else {
            break;
        }
    }
    return i;
}

long suql_scan_complexity(const char *s, size_t n, int limit)
{
    long count = 0;
    int depth = 0, max_depth = 0;
    size_t i = 0;
    while ((i = skip_blanks(s, n, i)) < n) {
        unsigned char c = (unsigned char)s[i];
        size_t start = i;
        if (c == '\'') {
            int e = i > 0 && (s[i - 1] == 'E' || s[i - 1] == 'e');
            i = skip_quoted(s, n, i, '\'', e);
        } else if (c == '"') {
            i = skip_quoted(s, n, i, '"', 0);
        } else if (c == '$' && (i == 0 || !ident_char((unsigned char)s[i - 1])) &&
                   skip_dollar(s, n, i) != i) {
            i = skip_dollar(s, n, i);
        } else if (ident_start(c)) {
            while (i < n && ident_char((unsigned char)s[i])) i++;
            count += is_nesting_word(s + start, i - start);
        } else if (op_char(c)) {
            /* One operator token; "--" or "/" "*" would start a comment. */
            while (i < n && op_char((unsigned char)s[i]) &&
                   !(i > start && i + 1 < n && ((s[i] == '-' && s[i + 1] == '-') ||
                                                (s[i] == '/' && s[i + 1] == '*'))))
                i++;
            count++;
        } else if (c == '(' || c == '[') {
            if (++depth > max_depth) max_depth = depth;
            i++;
        } else if (c == ')' || c == ']') {
            if (depth > 0) depth--;
            i++;
        } else {
            i++;
        }
        if (count + max_depth > limit) return (long)start;
    }
    return -1;
}

int suql_word_before(const char *text, int pos, const char *const *words)
{
    int i = pos;
    while (i > 0 && (isspace((unsigned char)text[i - 1]) || text[i - 1] == '(')) i--;
    int end = i;
    while (i > 0 && (isalpha((unsigned char)text[i - 1]) || text[i - 1] == '_')) i--;
    if (i == end || (i > 0 && ident_char((unsigned char)text[i - 1]))) return -1;
    for (int k = 0; words[k]; k++)
        if ((int)strlen(words[k]) == end - i && !strncasecmp(text + i, words[k], (size_t)(end - i)))
            return i;
    return -1;
}

int suql_skip_blank(const char *text, size_t len, int pos)
{
    if (pos < 0 || (size_t)pos > len) return 0;
    return (int)skip_blanks(text, len, (size_t)pos);
}

/* Length of the valid UTF-8 sequence at S (PostgreSQL's rules: no
 * overlong forms, surrogates or code points above U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3;
    else if (c >= 0xF0 && c <= 0xF4) n = 4;
    else return 0;
    if ((size_t)n > avail) return 0;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi) return 0;
    for (int k = 2; k < n; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return n;
}

long suql_bad_utf8(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        int n = utf8_len(s + i, len - i);
        if (!n) return (long)i;
        i += (size_t)n;
    }
    return -1;
}
