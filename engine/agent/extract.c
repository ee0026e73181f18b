/*
 * extract.c — what the parsers' replies mean, whatever the model wrapped
 * around it.
 *
 * Models answer the same prompt in many shapes: a code fence, a preamble
 * ("Here is the SUQL query:"), a list of bullets, a closing sentence.  The
 * shapes are harmless; losing the user's turn to them is not.  So:
 *
 *  - SUQL: the first statement in the reply that parses, from a SELECT or
 *    WITH (at a word boundary) to its first `;` outside quotes, fences and
 *    prose dropped.  Lines after it that read as prose are cut until it
 *    parses; a line that reads as SQL is never cut, so a broken query is
 *    sent to repair with its own error, not shortened into another query
 *    that drops a condition.
 *  - Statements: one a line, list markers and fences removed; a line that
 *    does not start with a name and "(", "." or "=" (nor is `pass`)
 *    cannot be a statement of the language and is prose, dropped rather
 *    than refused, but for what it quotes as inline code that reads as a
 *    statement ("Sure! `answer(...)`").  A reply that is JSON gives its
 *    strings as the lines ({"statements": [...]}), so its prose strings
 *    drop out the same way.
 *
 * Nothing here executes anything: the results still go through the SUQL
 * compiler and the worksheet interpreter, which reject what they do not
 * know.  Rejected: asking the model again for every stray sentence (a call
 * per chatty reply) and regular expressions (no POSIX class for "outside
 * quotes").
 */
#include "agent/turn_int.h"
#include "suql/parse.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Attempts of the prose-trimming search for one reply (each a parse). */
#define MAX_TRIES 48

char *ag_unfence(char *text)
{
    char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (!strncmp(p, "```", 3)) {
        p += strcspn(p, "\n");
        if (*p) p++;
        char *end = strstr(p, "```");
        if (end) *end = 0;
    }
    for (const char *const *l = (const char *const[]){ "Statements:", "SUQL:", NULL }; *l; l++)
        if (!strncasecmp(p, *l, strlen(*l))) p += strlen(*l);
    while (isspace((unsigned char)*p)) p++;
    memmove(text, p, strlen(p) + 1);
    size_t n = strlen(text);
    while (n && (isspace((unsigned char)text[n - 1]) || text[n - 1] == ';')) text[--n] = 0;
    return text;
}

/* ---- SUQL ------------------------------------------------------------ */

static int word_at(const char *text, const char *p, const char *w)
{
    size_t n = strlen(w);
    if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) return 0;
    return !strncasecmp(p, w, n) && (isspace((unsigned char)p[n]) || p[n] == '(' || p[n] == '*');
}

/* The end of the statement that starts at P: its first `;` outside
 * quotes, comments and code fences, or the end of the text. */
static const char *stmt_end(const char *p)
{
    char q = 0;
    for (; *p; p++) {
        if (q) {
            if (*p == q) q = 0;
            continue;
        }
        if (*p == '\'' || *p == '"') q = *p;
        else if (*p == ';') return p;
        else if (!strncmp(p, "```", 3)) return p;
        else if (p[0] == '-' && p[1] == '-') p += strcspn(p, "\n") - 1;
    }
    return p;
}

static const char *const sql_words[] = {
    "select", "from", "where", "and", "or", "not", "order", "group", "having", "limit", "offset",
    "join", "left", "right", "inner", "outer", "full", "cross", "on", "using", "union", "intersect",
    "except", "with", "as", "case", "when", "then", "else", "end", "is", "in", "like", "ilike",
    "between", "desc", "asc", "nulls", "fetch", "window", "distinct", "exists", "any", "all", NULL
};

/* A line of English after the query ("This finds cheap places."): it
 * starts with a letter, its first word is no SQL keyword, and it has no
 * operator, quote or parenthesis a continued query would have. */
static int prose_line(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    if (!n) return 1;
    if (!isalpha((unsigned char)*s) && *s != '*' && *s != '-') return 0;
    if (*s == '-' && n > 1 && s[1] == '-') return 1;          /* an SQL comment */
    size_t w = 0;
    while (w < n && isalpha((unsigned char)s[w])) w++;
    for (const char *const *k = sql_words; *k; k++)
        if (strlen(*k) == w && !strncasecmp(s, *k, w)) return 0;
    int words = 0;
    for (size_t i = 0; i < n; i++) {
        /* an apostrophe inside a word ("aren't") is English, not a quote */
        if (s[i] == '\'' && i && i + 1 < n && isalpha((unsigned char)s[i - 1]) &&
            isalpha((unsigned char)s[i + 1]))
            continue;
        if (strchr("=<>'(),|", s[i])) return 0;
        if (isspace((unsigned char)s[i]) && i + 1 < n && !isspace((unsigned char)s[i + 1])) words++;
    }
    return words >= 2;
}

static int parses(const char *s)
{
    suql_query *q = NULL;
    int rc = suql_parse(s, &q, NULL);
    suql_query_free(q);
    return rc == 0;
}

/* The statement from P to END, with prose lines cut from its end while it
 * does not parse; a parsing statement (caller frees) or NULL. */
static char *try_candidate(const char *p, const char *end, int *tries)
{
    char *s = xstrndup(p, (size_t)(end - p));
    for (;;) {
        if ((*tries)++ >= MAX_TRIES) break;
        if (parses(s)) return s;
        char *nl = strrchr(s, '\n');
        while (nl && nl > s && nl[1] == 0) {          /* trailing newlines */
            *nl = 0;
            nl = strrchr(s, '\n');
        }
        if (!nl || !prose_line(nl + 1, strlen(nl + 1))) break;
        *nl = 0;
    }
    free(s);
    return NULL;
}

char *ag_suql_extract(const char *reply)
{
    int tries = 0;
    const char *first = NULL;
    for (const char *p = reply; *p; p++) {
        if (!word_at(reply, p, "select") && !word_at(reply, p, "with")) continue;
        if (!first) first = p;
        char *s = try_candidate(p, stmt_end(p), &tries);
        if (s) return ag_unfence(s);
        if (tries >= MAX_TRIES) break;
    }
    /* Nothing parses: the first candidate goes on to be compiled, so its
     * own error (with its position) reaches the repair stage. */
    char *s = first ? xstrndup(first, (size_t)(stmt_end(first) - first)) : xstrdup(reply);
    return ag_unfence(s);
}

/* ---- statements -------------------------------------------------------- */

/* Past a list marker: "- ", "* ", "• ", "1. ", "2) ". */
static const char *unbullet(const char *s)
{
    if ((*s == '-' || *s == '*') && s[1] == ' ') return s + 2;
    if (!strncmp(s, "\xe2\x80\xa2", 3)) return s + 3 + (s[3] == ' ');
    const char *d = s;
    while (isdigit((unsigned char)*d)) d++;
    if (d > s && d - s < 4 && (*d == '.' || *d == ')') && d[1] == ' ') return d + 2;
    return s;
}

/* Every statement of the language starts with a name followed by "(",
 * "." or "=" (Worksheet(...), answer(...), record.field = ...), or is
 * `pass`; a sentence ("The user picked ... (Kaito) ...") or a remark in
 * parentheses does not. */
static int statement_like(const char *s)
{
    const char *p = s;
    if (!isalpha((unsigned char)*p) && *p != '_') return 0;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t name = (size_t)(p - s);
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '(' || *p == '.' || *p == '=') return 1;
    while (isspace((unsigned char)*p) || *p == '.') p++;
    return name == 4 && !strncasecmp(s, "pass", 4) && !*p;      /* "Pass." too */
}

/* The strings of a reply written as JSON ({"statements": ["...", ...]},
 * ["...", ...], {"code": "..."}), one a line, or NULL when it is not
 * that: a model asked for lines of code that answers in JSON still means
 * the code. */
static void json_strings(const cJSON *j, gn_buf *out)
{
    if (cJSON_IsString(j)) {
        gn_buf_puts(out, j->valuestring);
        gn_buf_putc(out, '\n');
    }
    for (const cJSON *c = cJSON_IsArray(j) || cJSON_IsObject(j) ? j->child : NULL; c; c = c->next)
        json_strings(c, out);
}

static char *json_reply(const char *reply)
{
    char *t = ag_unfence(xstrdup(reply));
    const char *p = t;
    while (isspace((unsigned char)*p)) p++;
    cJSON *j = *p == '{' || *p == '[' ? cJSON_Parse(p) : NULL;
    free(t);
    if (!j) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    json_strings(j, &b);
    cJSON_Delete(j);
    if (!b.len) {
        gn_buf_release(&b);
        return NULL;
    }
    return gn_buf_detach(&b);
}

char *ag_statements_extract(const char *reply)
{
    gn_buf out;
    gn_buf_init(&out);
    char *json = json_reply(reply);
    char *copy = json ? json : xstrdup(reply), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*line)) line++;
        if (!strncmp(line, "```", 3)) continue;
        if (!strncasecmp(line, "Statements:", 11)) line += 11;
        line = (char *)unbullet(line);
        while (isspace((unsigned char)*line)) line++;
        if (*line == '`') {                           /* `statement` in backticks */
            size_t n = strlen(line);
            if (n > 1 && line[n - 1] == '`') line[n - 1] = 0, line++;
        }
        if (!*line || *line == '#') continue;
        if (statement_like(line)) {
            /* "Pass" or "pass." is the statement pass */
            gn_buf_puts(&out, !strncasecmp(line, "pass", 4) && !isalnum((unsigned char)line[4]) &&
                              line[4] != '_' && line[4] != '(' && line[4] != '=' ? "pass" : line);
            gn_buf_putc(&out, '\n');
            continue;
        }
        /* Prose with the statement in inline code: "Sure! `answer(...)`". */
        for (char *a = strchr(line, '`'), *b; a && (b = strchr(a + 1, '`')); a = strchr(b + 1, '`')) {
            *b = 0;
            if (statement_like(a + 1)) {
                gn_buf_puts(&out, a + 1);
                gn_buf_putc(&out, '\n');
            }
        }
    }
    free(copy);
    while (out.len && out.data[out.len - 1] == '\n') out.data[--out.len] = 0;
    return gn_buf_detach(&out);
}
