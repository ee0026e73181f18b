/*
 * golden.c — reading and rewriting golden files (see golden.h).
 *
 * A golden file once held an outcome with a newline written as is: on the
 * next read its second line became the first line of the next case's
 * query, that case "expected" a syntax error, and the regenerated file
 * recorded one.  Hence the escapes, the refusal to read a query broken by
 * a blank or comment line, and the refusal to record an error the case
 * does not expect: the first makes the accident impossible, the other two
 * stop an accident of another kind from becoming a passing claim.
 *
 * Rejected: escaping every control character (people read outcomes in
 * diffs; only what breaks the line structure needs it); outcomes spanning
 * indented continuation lines (a stray edit still moves a line between
 * cases).
 */
#include "golden.h"

#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* S (N bytes) with its escapes undone, or NULL when one is not \n, \r
 * or \\. */
static char *unescape(const char *s, size_t n)
{
    gn_buf b;
    gn_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            gn_buf_putc(&b, s[i]);
            continue;
        }
        char c = ++i < n ? s[i] : 0;
        if (c == 'n') gn_buf_putc(&b, '\n');
        else if (c == 'r') gn_buf_putc(&b, '\r');
        else if (c == '\\') gn_buf_putc(&b, '\\');
        else {
            gn_buf_release(&b);
            return NULL;
        }
    }
    return gn_buf_detach(&b);
}

static void escape(gn_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') gn_buf_puts(b, "\\n");
        else if (*s == '\r') gn_buf_puts(b, "\\r");
        else if (*s == '\\') gn_buf_puts(b, "\\\\");
        else gn_buf_putc(b, *s);
    }
}

typedef struct {
    const char *path;
    th_gcase *v;
    int n;
    gn_buf head, query;
} reader;

/* A line of a case before its "->"; -1 after th_fail when it cuts the
 * query. */
static int head_line(reader *r, const char *line, int lineno)
{
    int text = line[0] && line[0] != '#';
    if (!text && r->query.len) {
        th_fail(r->path, lineno, "the query above is cut by a %s line (a line left "
                "over from an outcome, or a missing '->'?)", line[0] ? "comment" : "blank");
        return -1;
    }
    if (!line[0] && !r->head.len) return 0;
    gn_buf_puts(&r->head, line);
    gn_buf_putc(&r->head, '\n');
    if (text) {
        if (r->query.len) gn_buf_putc(&r->query, '\n');
        gn_buf_puts(&r->query, line);
    }
    return 0;
}

/* The "->" line ending a case; -1 after th_fail on a bad escape. */
static int outcome_line(reader *r, const char *line, int lineno)
{
    const char *s = line[2] == ' ' ? line + 3 : line + 2;
    char *expect = unescape(s, strlen(s));
    if (!expect) {
        th_fail(r->path, lineno, "an escape other than \\n, \\r or \\\\ in the outcome");
        return -1;
    }
    r->v = realloc(r->v, (size_t)(r->n + 1) * sizeof *r->v);
    r->v[r->n] = (th_gcase){ gn_buf_detach(&r->head), gn_buf_detach(&r->query), expect, lineno };
    r->n++;
    gn_buf_init(&r->head);
    gn_buf_init(&r->query);
    return 0;
}

int th_golden_load(const char *path, th_gcase **out)
{
    *out = NULL;
    char *text = th_read(path);
    if (!text) {
        th_fail(path, 0, "cannot be read");
        return -1;
    }
    reader r = { .path = path };
    gn_buf_init(&r.head);
    gn_buf_init(&r.query);
    int rc = 0, lineno = 0;
    for (char *line = text; *line && !rc;) {
        size_t len = strcspn(line, "\n");
        char save = line[len];
        line[len] = 0;
        lineno++;
        rc = strncmp(line, "->", 2) ? head_line(&r, line, lineno) : outcome_line(&r, line, lineno);
        line[len] = save;
        line += len + (save == '\n');
    }
    if (!rc && r.query.len) {
        th_fail(path, lineno, "a query without an outcome at the end of the file");
        rc = -1;
    }
    gn_buf_release(&r.head);
    gn_buf_release(&r.query);
    free(text);
    if (rc) {
        th_golden_free(r.v, r.n);
        return -1;
    }
    *out = r.v;
    return r.n;
}

void th_golden_free(th_gcase *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].head);
        free(v[i].query);
        free(v[i].expect);
    }
    free(v);
}

int th_golden_append(gn_buf *regen, const char *path, int i, const th_gcase *c,
                     const char *outcome)
{
    int refused = !strncmp(outcome, "ERROR", 5) && strncmp(c->expect, "ERROR", 5);
    if (refused)
        th_fail(path, c->line, "an error the case does not expect, not recorded (write "
                "'-> ERROR' to expect one):\n    %s\n    %s", c->query, outcome);
    gn_buf_printf(regen, "%s%s-> ", i ? "\n" : "", c->head);
    escape(regen, refused ? c->expect : outcome);
    gn_buf_putc(regen, '\n');
    return refused ? -1 : 0;
}
