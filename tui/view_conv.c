/*
 * view_conv.c — the conversation pane's model: messages and their lines.
 *
 * A person's turn reads "› text"; the agent's reply is Markdown indented
 * by two columns; genie's own notes are dim with "·", failures start with
 * "!".  A blank line opens each exchange.  Lines are cached per message
 * and width: a streamed token re-wraps its own message only.
 */
#include "view.h"

#include "util/xmem.h"

#include <string.h>

void vc_init(vc_conv *v, const char *agent)
{
    memset(v, 0, sizeof *v);
    v->agent = xstrdup(agent ? agent : "agent");
    v->width = -1;
}

static void msg_free(vc_msg *m)
{
    gn_buf_release(&m->text);
    tx_lines_release(&m->lines);
    free(m);
}

void vc_clear(vc_conv *v)
{
    for (int i = 0; i < v->n; i++) msg_free(v->m[i]);
    v->n = 0;
    v->total = 0;
}

void vc_release(vc_conv *v)
{
    vc_clear(v);
    free(v->m);
    free(v->agent);
    memset(v, 0, sizeof *v);
}

vc_msg *vc_add(vc_conv *v, enum vc_role role, const char *text)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        v->m = xrealloc(v->m, (size_t)v->cap * sizeof *v->m);
    }
    vc_msg *m = xcalloc(1, sizeof *m);
    m->role = role;
    gn_buf_init(&m->text);
    if (text) gn_buf_puts(&m->text, text);
    tx_lines_init(&m->lines);
    m->width = -1;
    v->m[v->n++] = m;
    return m;
}

void vc_append(vc_conv *v, vc_msg *m, const char *text)
{
    (void)v;
    gn_buf_puts(&m->text, text);
    m->width = -1;
}

void vc_set(vc_conv *v, vc_msg *m, const char *text)
{
    (void)v;
    gn_buf_reset(&m->text);
    gn_buf_puts(&m->text, text ? text : "");
    m->width = -1;
}

void vc_interrupt(vc_conv *v, vc_msg *m)
{
    (void)v;
    m->interrupted = 1;
    m->width = -1;
}

/* The lines of T (N bytes, lines separated by newlines), word-wrapped,
 * in STYLE: the very first line after FIRST (in PSTYLE), the others after
 * two spaces. */
static void prefixed(const char *t, int n, int width, const char *first, int pstyle, int style,
                     tx_lines *out)
{
    unsigned char *st = xmalloc((size_t)n + 1);
    memset(st, style, (size_t)n + 1);
    for (int i = 0;;) {
        int e = i;
        while (e < n && t[e] != '\n') e++;
        tx_wrap(t + i, st + i, e - i, width, i ? "  " : first, "  ", pstyle, out);
        if (e >= n) break;
        i = e + 1;
    }
    free(st);
}

static void render(vc_msg *m, int first, int width)
{
    const char *t = m->text.data ? m->text.data : "";
    int n = (int)m->text.len;
    tx_lines_clear(&m->lines);
    if (m->role == VC_USER && !first) tx_lines_add(&m->lines, "", NULL, 0, TX_PLAIN);
    switch (m->role) {
    case VC_USER:
        prefixed(t, n, width, "\xe2\x80\xba ", TX_USER_LABEL, TX_USER, &m->lines);   /* "› " */
        break;
    case VC_AGENT:
        tx_markdown(t, width, 2, TX_PLAIN, &m->lines);
        break;
    case VC_NOTE:
        prefixed(t, n, width, "\xc2\xb7 ", TX_NOTE, TX_NOTE, &m->lines);            /* "· " */
        break;
    case VC_ERROR:
        prefixed(t, n, width, "! ", TX_ERROR, TX_ERROR, &m->lines);
        break;
    case VC_BLOCK:
        tx_plain(t, NULL, n, width, 2, TX_PLAIN, &m->lines);
        break;
    }
    if (m->interrupted) tx_lines_add(&m->lines, "  [interrupted]", NULL, 15, TX_WARN);
    m->width = width;
}

void vc_layout(vc_conv *v, int width)
{
    if (width < 8) width = 8;
    long total = 0;
    for (int i = 0; i < v->n; i++) {
        if (v->m[i]->width != width) render(v->m[i], i == 0, width);
        total += v->m[i]->lines.n;
    }
    v->total = total;
    v->width = width;
}

const tx_line *vc_line(const vc_conv *v, long i)
{
    if (i < 0 || i >= v->total) return NULL;
    if (i >= v->total / 2) {
        long at = v->total;
        for (int k = v->n - 1; k >= 0; k--) {
            at -= v->m[k]->lines.n;
            if (i >= at) return &v->m[k]->lines.v[i - at];
        }
        return NULL;
    }
    long at = 0;
    for (int k = 0; k < v->n; k++) {
        if (i < at + v->m[k]->lines.n) return &v->m[k]->lines.v[i - at];
        at += v->m[k]->lines.n;
    }
    return NULL;
}

long vc_first_line(const vc_conv *v, int k)
{
    long at = 0;
    for (int i = 0; i < k && i < v->n; i++) at += v->m[i]->lines.n;
    return at;
}

int vc_reply(const vc_conv *v, int nth)
{
    for (int i = v->n - 1; i >= 0 && nth > 0; i--)
        if (v->m[i]->role == VC_AGENT && v->m[i]->text.len && --nth == 0) return i;
    return -1;
}

int vc_code(const char *text, int nth, gn_buf *out)
{
    int count = 0;
    char open = 0;
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        char f = (char)tx_fence(p, (int)(e - p));     /* as the screen frames them */
        if (!open && f) {
            open = f;
            count++;
        } else if (open && f == open) {
            open = 0;
        } else if (open && count == nth && out) {
            gn_buf_add(out, p, (size_t)(e - p));
            gn_buf_puts(out, "\n");
        }
        p = *e ? e + 1 : e;
    }
    return count;
}
