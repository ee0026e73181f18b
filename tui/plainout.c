/*
 * plainout.c — the agent's reply in line mode (plainout.h).
 *
 * Lines are rendered whole by the screen's own Markdown reader
 * (tx_markdown, at a width no line reaches, so the terminal wraps), and
 * its styles become SGR codes; a list item keeps its "- " marker.  A line at a time keeps the reply
 * streaming while never printing half a "**" marker.  Rejected: a second
 * Markdown reader for line mode (the two would drift) and printing the
 * model's bytes as they come (ESC and OSC sequences from a model or a
 * review reached the terminal).
 */
#include "plainout.h"
#include "text.h"
#include "util/utf8.h"
#include "util/xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Wide enough that tx_markdown never wraps a line. */
#define NO_WRAP 1000000

void plain_out_init(plain_out *o, FILE *f, int ansi)
{
    memset(o, 0, sizeof *o);
    o->f = f;
    o->ansi = ansi;
    gn_buf_init(&o->line);
    gn_buf_init(&o->table);
}

void plain_out_release(plain_out *o)
{
    gn_buf_release(&o->line);
    gn_buf_release(&o->table);
}

/* The length of a character to show as U+FFFD at S (N bytes left), or 0
 * for one to print: C0 controls but tab, DEL, C1 (U+0080..U+009F) and the
 * bidirectional embeddings, overrides and isolates. */
static int hostile(const unsigned char *s, size_t n)
{
    if ((s[0] < 0x20 && s[0] != '\t') || s[0] == 0x7f) return 1;
    if (n >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) return 2;
    if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) return 3;
    if (n >= 3 && s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9) return 3;
    return 0;
}

void plain_out_inert(FILE *f, const char *s, size_t n)
{
    /* Ill-formed bytes (a binary file quoted in a message) are U+FFFD
     * too: a lone 0x9b is CSI to a terminal that reads 8-bit controls. */
    char *fixed = gn_utf8_valid(s, n) ? NULL : gn_utf8_fix(s, n, NULL);
    if (fixed) s = fixed, n = strlen(fixed);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        /* newlines stay, CRLF too (CSV ends its records so) */
        int k = p[i] == '\n' || (p[i] == '\r' && i + 1 < n && p[i + 1] == '\n') ? 0
              : hostile(p + i, n - i);
        if (k) {
            fputs("\xef\xbf\xbd", f);
            i += (size_t)k;
        } else {
            fputc(p[i], f);
            i++;
        }
    }
    free(fixed);
}

void plain_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    plain_out_inert(f, s, strlen(s));
    free(s);
}

static const char *sgr(int style)
{
    switch (style) {
    case TX_BOLD: case TX_HEADING: return "\033[1m";
    case TX_ITALIC: return "\033[3m";
    case TX_CODE: return "\033[2m";
    default: return NULL;
    }
}

/* Print the styled lines L. */
static void put_lines(plain_out *o, const tx_lines *l)
{
    for (int i = 0; i < l->n; i++) {
        const tx_line *t = &l->v[i];
        for (int j = 0; j < t->len;) {
            int k = j;
            while (k < t->len && t->st[k] == t->st[j]) k++;
            const char *on = o->ansi ? sgr(t->st[j]) : NULL;
            if (on) fputs(on, o->f);
            plain_out_inert(o->f, t->s + j, (size_t)(k - j));
            if (on) fputs("\033[0m", o->f);
            j = k;
        }
        fputc('\n', o->f);
    }
}

/* The table held so far, aligned (or as its lines when it is none). */
static void put_table(plain_out *o)
{
    if (!o->table.len) return;
    tx_lines l;
    tx_lines_init(&l);
    tx_markdown(o->table.data, NO_WRAP, 0, TX_PLAIN, &l);
    put_lines(o, &l);
    tx_lines_release(&l);
    gn_buf_reset(&o->table);
}

static void put_line(plain_out *o, const char *s, int n)
{
    if (!o->fence && tx_table_row(s, n)) {
        gn_buf_add(&o->table, s, (size_t)n);
        gn_buf_putc(&o->table, '\n');
        return;
    }
    put_table(o);
    int sp = 0;
    while (sp < n && s[sp] == ' ') sp++;
    int fc = tx_fence(s, n);
    if (fc && (!o->fence || fc == o->fence)) {
        o->fence = o->fence ? 0 : fc;         /* the fence line is not shown */
        return;
    }
    if (o->fence) {
        plain_out_inert(o->f, s, (size_t)n);
        fputc('\n', o->f);
        return;
    }
    if (sp == n) {                            /* the blank line between paragraphs */
        fputc('\n', o->f);
        return;
    }
    /* A list item keeps its marker as written: plain text reads it as
     * well, and a script reading the output finds what the model wrote. */
    int mk = 0;
    if (n - sp >= 2 && (s[sp] == '-' || s[sp] == '*' || s[sp] == '+') && s[sp + 1] == ' ') mk = sp + 2;
    fwrite(s, 1, (size_t)mk, o->f);
    s += mk;
    n -= mk;
    char *copy = xstrndup(s, (size_t)n);
    tx_lines l;
    tx_lines_init(&l);
    tx_markdown(copy, NO_WRAP, 0, TX_PLAIN, &l);
    put_lines(o, &l);
    tx_lines_release(&l);
    free(copy);
}

void plain_out_feed(plain_out *o, const char *text)
{
    gn_buf_puts(&o->line, text);
    char *nl;
    size_t done = 0;
    while (o->line.data && (nl = memchr(o->line.data + done, '\n', o->line.len - done)) != NULL) {
        int n = (int)(nl - (o->line.data + done));
        if (n && nl[-1] == '\r') n--;                /* a CRLF reply */
        put_line(o, o->line.data + done, n);
        done = (size_t)(nl - o->line.data) + 1;
    }
    if (done) {
        memmove(o->line.data, o->line.data + done, o->line.len - done + 1);
        o->line.len -= done;
    }
    fflush(o->f);
}

void plain_out_flush(plain_out *o)
{
    if (o->line.len) put_line(o, o->line.data, (int)o->line.len);
    put_table(o);
    gn_buf_reset(&o->line);
    o->fence = 0;
    fflush(o->f);
}
