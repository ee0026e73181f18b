/*
 * text.c — UTF-8 widths, word wrapping, light Markdown, SUQL colours.
 *
 * Widths come from wcwidth(3) in the process's locale, as ncurses and the
 * terminal compute them, so wrapped lines never overflow a pane; a code
 * point the locale cannot print counts one column (the screen shows it as
 * a replacement character).  Markdown is parsed line by line with no
 * lookahead past the text given: a reply that is still streaming renders
 * the same way it will once complete, up to the markup not yet closed.
 *
 * ASCII drawing.  A locale that is not UTF-8 (LANG=C, no LANG at all)
 * cannot show the screen's box lines, bullets and arrows, nor a reply's
 * accents: with tx_set_ascii(1) every code point past ASCII stands in as
 * a short ASCII text (a stripped accent, "--" for a dash, "?" for the
 * rest), and is measured as that text, so the layout and the drawing
 * agree and no pane loses columns to the next.
 */
#include "text.h"

#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

void tx_lines_init(tx_lines *l) { memset(l, 0, sizeof *l); }

void tx_lines_clear(tx_lines *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].s);
        free(l->v[i].st);
    }
    l->n = 0;
}

void tx_lines_release(tx_lines *l)
{
    tx_lines_clear(l);
    free(l->v);
    tx_lines_init(l);
}

void tx_lines_add(tx_lines *l, const char *s, const unsigned char *st, int n, int style)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    tx_line *x = &l->v[l->n++];
    x->s = xmalloc((size_t)n + 1);
    memcpy(x->s, s, (size_t)n);
    x->s[n] = 0;
    x->st = xmalloc((size_t)n + 1);
    if (st) memcpy(x->st, st, (size_t)n);
    else memset(x->st, style, (size_t)n);
    x->len = n;
    x->width = tx_width(s, n);
}

/* ---- UTF-8 -------------------------------------------------------------- */

int tx_decode(const char *s, int n, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int len;
    unsigned c = u[0], min;
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) { len = 2; c &= 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; c &= 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; c &= 0x07; min = 0x10000; }
    else { *cp = 0xFFFD; return 1; }
    if (len > n) { *cp = 0xFFFD; return 1; }
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
        c = c << 6 | (u[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) { *cp = 0xFFFD; return 1; }
    *cp = c;
    return len;
}

int tx_drawn(unsigned cp)
{
    return !(cp < 0x20 || cp == 0x7F || cp == 0x200D || cp == 0xFE0E || cp == 0xFE0F ||
             (cp >= 0x1F3FB && cp <= 0x1F3FF));
}

/* ---- ASCII drawing ---------------------------------------------------------- */

static int g_ascii;

void tx_set_ascii(int on) { g_ascii = on != 0; }
int tx_ascii(void) { return g_ascii; }

/* Latin-1's letters U+00C0..U+00FF without their accents, each a string
 * of one letter (the exceptions, as AE and ss, are in the map below). */
static const char latin1[] =
    "A\0A\0A\0A\0A\0A\0A\0C\0E\0E\0E\0E\0I\0I\0I\0I\0"
    "D\0N\0O\0O\0O\0O\0O\0x\0O\0U\0U\0U\0U\0Y\0T\0s\0"
    "a\0a\0a\0a\0a\0a\0a\0c\0e\0e\0e\0e\0i\0i\0i\0i\0"
    "d\0n\0o\0o\0o\0o\0o\0/\0o\0u\0u\0u\0u\0y\0t\0y\0";

const char *tx_ascii_for(unsigned cp)
{
    static const struct { unsigned cp; const char *s; } map[] = {   /* by code point */
        { 0x00A0, " " }, { 0x00AB, "<<" }, { 0x00B0, "o" }, { 0x00B7, "-" }, { 0x00BB, ">>" },
        { 0x00C6, "AE" }, { 0x00D7, "x" }, { 0x00DF, "ss" }, { 0x00E6, "ae" },
        { 0x0152, "OE" }, { 0x0153, "oe" },
        { 0x2010, "-" }, { 0x2011, "-" }, { 0x2012, "-" }, { 0x2013, "-" }, { 0x2014, "--" },
        { 0x2015, "--" }, { 0x2018, "'" }, { 0x2019, "'" }, { 0x201A, "," }, { 0x201C, "\"" },
        { 0x201D, "\"" }, { 0x201E, "\"" }, { 0x2022, "*" }, { 0x2026, "..." }, { 0x2039, "<" },
        { 0x203A, ">" }, { 0x20AC, "EUR" }, { 0x2122, "TM" }, { 0x2190, "<-" }, { 0x2191, "^" },
        { 0x2192, "->" }, { 0x2193, "v" }, { 0x2212, "-" }, { 0x2260, "!=" }, { 0x2264, "<=" },
        { 0x2265, ">=" }, { 0x2424, "\\n" }, { 0x2500, "-" }, { 0x2502, "|" }, { 0x250C, "+" },
        { 0x2510, "+" }, { 0x2514, "+" }, { 0x2518, "+" }, { 0x251C, "+" }, { 0x2524, "+" },
        { 0x252C, "+" }, { 0x2534, "+" }, { 0x253C, "+" }, { 0x2588, "#" }, { 0x2591, "." },
        { 0x2713, "+" }, { 0x2714, "+" }, { 0x2717, "x" }, { 0x2718, "x" },
    };
    if (cp < 0x80) return NULL;
    size_t lo = 0, hi = sizeof map / sizeof *map;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (map[m].cp == cp) return map[m].s;
        if (map[m].cp < cp) lo = m + 1;
        else hi = m;
    }
    if (cp >= 0xC0 && cp <= 0xFF) return latin1 + 2 * (cp - 0xC0);
    return "?";
}

int tx_cpwidth(unsigned cp)
{
    if (!tx_drawn(cp)) return 0;
    if (cp < 0x7F) return 1;
    if (g_ascii) return (int)strlen(tx_ascii_for(cp));
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

int tx_width(const char *s, int n)
{
    int w = 0;
    for (int i = 0; i < n;) {
        unsigned cp;
        i += tx_decode(s + i, n - i, &cp);
        w += tx_cpwidth(cp);
    }
    return w;
}

int tx_fit(const char *s, int n, int cols)
{
    int w = 0, i = 0;
    while (i < n) {
        unsigned cp;
        int k = tx_decode(s + i, n - i, &cp);
        int cw = tx_cpwidth(cp);
        if (w + cw > cols) break;
        w += cw;
        i += k;
    }
    return i;
}

/* ---- wrapping -------------------------------------------------------------- */

/* A line being built: bytes, styles, columns. */
typedef struct acc {
    char *s;
    unsigned char *st;
    int len, cap, width;
} acc;

static void acc_put(acc *a, const char *s, const unsigned char *st, int n, int style)
{
    if (a->len + n + 1 > a->cap) {
        a->cap = (a->len + n + 1) * 2;
        a->s = xrealloc(a->s, (size_t)a->cap);
        a->st = xrealloc(a->st, (size_t)a->cap);
    }
    memcpy(a->s + a->len, s, (size_t)n);
    if (st) memcpy(a->st + a->len, st, (size_t)n);
    else memset(a->st + a->len, style, (size_t)n);
    a->len += n;
    a->width += tx_width(s, n);
}

static void acc_flush(acc *a, tx_lines *out)
{
    /* Trailing spaces of a wrapped line would only move the cursor. */
    while (a->len && a->s[a->len - 1] == ' ') a->len--;
    tx_lines_add(out, a->s, a->st, a->len, TX_PLAIN);
    a->len = a->width = 0;
}

static void acc_start(acc *a, const char *prefix, int pstyle)
{
    a->len = a->width = 0;
    acc_put(a, prefix, NULL, (int)strlen(prefix), pstyle);
}

void tx_wrap(const char *s, const unsigned char *st, int n, int width, const char *first,
             const char *rest, int pstyle, tx_lines *out)
{
    acc a = { 0 };
    int pw = tx_width(rest, (int)strlen(rest));
    if (width < pw + 2) width = pw + 2;
    acc_start(&a, first, pstyle);
    int base = a.len, i = 0;
    while (i < n) {
        /* The next word and the spaces before it. */
        int sp = i;
        while (sp < n && s[sp] == ' ') sp++;
        int we = sp;
        while (we < n && s[we] != ' ') we++;
        int ww = tx_width(s + sp, we - sp), spw = sp - i;
        if (a.width + spw + ww <= width) {
            acc_put(&a, s + i, st ? st + i : NULL, we - i, TX_PLAIN);
            i = we;
            continue;
        }
        if (ww <= width - pw && a.len > base) {       /* the word goes on the next line */
            acc_flush(&a, out);
            acc_start(&a, rest, pstyle);
            base = a.len;
            i = sp;
            continue;
        }
        /* A word longer than a line: cut it where the line ends. */
        if (a.len > base || spw) acc_put(&a, s + i, st ? st + i : NULL, spw, TX_PLAIN);
        int j = sp;
        while (j < we) {
            int k = tx_fit(s + j, we - j, width - a.width);
            if (!k && a.len <= base) {                     /* not even one character fits */
                unsigned cp;
                k = tx_decode(s + j, we - j, &cp);
            }
            acc_put(&a, s + j, st ? st + j : NULL, k, TX_PLAIN);
            j += k;
            if (j < we) {
                acc_flush(&a, out);
                acc_start(&a, rest, pstyle);
                base = a.len;
            }
        }
        i = we;
    }
    acc_flush(&a, out);
    free(a.s);
    free(a.st);
}

void tx_plain(const char *s, const unsigned char *st, int n, int width, int indent, int style,
              tx_lines *out)
{
    char pre[64];
    if (indent > 60) indent = 60;
    memset(pre, ' ', (size_t)indent);
    pre[indent] = 0;
    unsigned char *own = NULL;
    if (!st) {
        own = xmalloc((size_t)n + 1);
        memset(own, style, (size_t)n + 1);
        st = own;
    }
    for (int i = 0;;) {
        int e = i;
        while (e < n && s[e] != '\n') e++;
        tx_wrap(s + i, st + i, e - i, width, pre, pre, style, out);
        i = e + 1;
        if (i >= n) break;                 /* the end, or a final newline */
    }
    free(own);
}

/* ---- Markdown ------------------------------------------------------------------- */

/* Inline markup of one line's text into bytes and styles, the markers
 * dropped; what is left open styles to the end of the line. */
static void inline_md(const char *s, int n, int base, acc *out)
{
    int bold = 0, ital = 0, code = 0;
    for (int i = 0; i < n;) {
        if (s[i] == '`') { code = !code; i++; continue; }
        /* "***" that nothing closes on the line is text: the mask of an
         * API key a model echoed ("Your key is ***"), not markup. */
        if (!code && !bold && !ital && i + 2 < n && !memcmp(s + i, "***", 3) &&
            (i + 3 >= n || s[i + 3] != '*') && (i == 0 || s[i - 1] != '*')) {
            int closed = 0;
            for (int j = i + 3; j + 2 < n && !closed; j++) closed = !memcmp(s + j, "***", 3);
            if (!closed) {
                acc_put(out, s + i, NULL, 3, base);
                i += 3;
                continue;
            }
        }
        if (!code && i + 1 < n && ((s[i] == '*' && s[i + 1] == '*') || (s[i] == '_' && s[i + 1] == '_'))) {
            bold = !bold;
            i += 2;
            continue;
        }
        /* A single * opens italics only before a non-space that is not
         * closing punctuation, and not after a letter or digit; it closes
         * only after a non-space: "2 * 3", "2*3" and count(*) stay as
         * written. */
        if (!code && s[i] == '*' && ((!ital && i + 1 < n && s[i + 1] != ' ' &&
                                      !strchr(")]},;:.!?", s[i + 1]) &&
                                      (i == 0 || !isalnum((unsigned char)s[i - 1]))) ||
                                     (ital && i > 0 && s[i - 1] != ' '))) {
            ital = !ital;
            i++;
            continue;
        }
        unsigned cp;
        int k = tx_decode(s + i, n - i, &cp);
        int style = code ? TX_CODE : bold ? TX_BOLD : ital ? TX_ITALIC : base;
        acc_put(out, s + i, NULL, k, style);
        i += k;
    }
}

/* The list marker at the start of S (after spaces): its length including
 * the space after it, or 0. */
static int list_marker(const char *s, int n)
{
    if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ') return 2;
    int i = 0;
    while (i < n && i < 3 && isdigit((unsigned char)s[i])) i++;
    if (i && i + 1 < n && (s[i] == '.' || s[i] == ')') && s[i + 1] == ' ') return i + 2;
    return 0;
}

static void md_line(const char *s, int n, int width, int indent, int base, tx_lines *out)
{
    char first[96], rest[96];
    int lead = 0;
    while (lead < n && s[lead] == ' ') lead++;
    if (indent + lead > 40) lead = 40 - indent;
    /* A line's own indent takes at most half of what the pane leaves, so
     * its text still fits beside it (44 spaces at 11 columns once made
     * the line wider than the pane). */
    if (lead > (width - indent) / 2) lead = (width - indent) / 2;
    if (lead < 0) lead = 0;
    const char *p = s + lead;
    int m = n - lead, hs = 0;
    int style = base;
    while (hs < m && hs < 6 && p[hs] == '#') hs++;
    if (hs && hs < m && p[hs] == ' ') {          /* a heading */
        p += hs + 1;
        m -= hs + 1;
        style = TX_HEADING;
    } else {
        hs = 0;
    }
    int mk = hs ? 0 : list_marker(p, m);
    memset(first, ' ', (size_t)(indent + lead));
    first[indent + lead] = 0;
    memcpy(rest, first, sizeof rest);
    if (mk) {
        /* "- x" shows as "• x"; numbered items keep their number. */
        if (mk == 2 && (p[0] == '-' || p[0] == '*' || p[0] == '+')) strcat(first, "\xe2\x80\xa2 ");
        else strncat(first, p, (size_t)mk);
        memset(rest + strlen(rest), ' ', (size_t)mk);
        rest[indent + lead + mk] = 0;
        p += mk;
        m -= mk;
    }
    acc a = { 0 };
    inline_md(p, m, style, &a);
    tx_wrap(a.s ? a.s : "", a.st, a.len, width, first, rest, base, out);
    free(a.s);
    free(a.st);
}

/* ---- fences ----------------------------------------------------------------------- */

int tx_fence(const char *s, int n)
{
    int sp = 0;
    while (sp < n && s[sp] == ' ') sp++;
    if (n - sp < 3) return 0;
    char c = s[sp];
    if ((c != '`' && c != '~') || s[sp + 1] != c || s[sp + 2] != c) return 0;
    /* ```x``` on one line is inline code, not a fence. */
    char three[3] = { c, c, c };
    if (memmem(s + sp + 3, (size_t)(n - sp - 3), three, 3)) return 0;
    return c;
}

/* ---- Markdown tables ------------------------------------------------------------ */

int tx_table_row(const char *s, int n)
{
    int i = 0;
    while (i < n && s[i] == ' ') i++;
    return i < n && s[i] == '|';
}

/* Is it the row under a table's header: "|---|:--:|"? */
static int table_rule(const char *s, int n)
{
    int dash = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] == '-') dash = 1;
        else if (!strchr("|: ", s[i])) return 0;
    }
    return dash;
}

enum { MD_MAX_COLS = 32 };

/* The cells of row S (N bytes) rendered inline into CELLS (at most
 * MD_MAX_COLS); "\|" is a bar in a cell.  Returns how many. */
static int table_cells(const char *s, int n, int base, acc *cells)
{
    int i = 0, nc = 0;
    while (i < n && s[i] == ' ') i++;
    if (i < n && s[i] == '|') i++;
    while (i < n && nc < MD_MAX_COLS) {
        int b = i;
        while (i < n && !(s[i] == '|' && (i == b || s[i - 1] != '\\'))) i++;
        int e = i;
        while (b < e && s[b] == ' ') b++;
        while (e > b && s[e - 1] == ' ') e--;
        if (i >= n && b == e) break;                 /* after the last bar */
        memset(&cells[nc], 0, sizeof cells[nc]);
        /* "\|" is a bar of the cell's text: the backslash goes. */
        char *t = xmalloc((size_t)(e - b) + 1);
        int tl = 0;
        for (int j = b; j < e; j++)
            if (!(s[j] == '\\' && j + 1 < e && s[j + 1] == '|')) t[tl++] = s[j];
        inline_md(t, tl, base, &cells[nc]);
        free(t);
        nc++;
        if (i < n) i++;
    }
    return nc;
}

/* Render the table of lines L (N lines of LEN bytes each) aligned: cells
 * padded to their column's widest, two spaces between columns, the header
 * bold over a rule of dashes (as the tables of /suql and --suql); a table
 * wider than WIDTH as a list, a row an item.  0, or -1 when it has no
 * cells (the caller then shows the lines as text). */
static int md_table(const char *const *l, const int *len, int n, int width, int indent, int base,
                    tx_lines *out)
{
    acc (*cells)[MD_MAX_COLS] = xcalloc((size_t)n, sizeof *cells);
    int *nc = xcalloc((size_t)n, sizeof *nc), w[MD_MAX_COLS] = { 0 }, cols = 0, rc = 0;
    for (int r = 0; r < n; r++) {
        if (r == 1 && table_rule(l[r], len[r])) continue;
        nc[r] = table_cells(l[r], len[r], r == 0 ? TX_BOLD : base, cells[r]);
        if (nc[r] > cols) cols = nc[r];
        for (int c = 0; c < nc[r]; c++)
            if (cells[r][c].width > w[c]) w[c] = cells[r][c].width;
    }
    int total = indent;
    for (int c = 0; c < cols; c++) total += w[c] + (c ? 2 : 0);
    if (!cols) rc = -1;
    if (!rc && total > width) {
        /* Too wide for the pane: each row an item, "• Kaito (rating 4.5,
         * price cheap)", the header's names before the values. */
        char first[64], rest[64];
        snprintf(first, sizeof first, "%*s\xe2\x80\xa2 ", indent, "");
        snprintf(rest, sizeof rest, "%*s  ", indent, "");
        for (int r = 1; r < n; r++) {
            if (r == 1 && table_rule(l[r], len[r])) continue;
            acc a = { 0 };
            int any = 0, opened = 0;
            for (int c = 0; c < nc[r]; c++) {
                if (!cells[r][c].len) continue;
                if (any) {                        /* the first value, then "(name value, ...)" */
                    acc_put(&a, opened ? ", " : " (", NULL, 2, base);
                    opened = 1;
                    if (c < nc[0] && cells[0][c].len) {
                        acc_put(&a, cells[0][c].s, NULL, cells[0][c].len, TX_DIM);
                        acc_put(&a, " ", NULL, 1, base);
                    }
                }
                acc_put(&a, cells[r][c].s, cells[r][c].st, cells[r][c].len, base);
                any = 1;
            }
            if (opened) acc_put(&a, ")", NULL, 1, base);
            tx_wrap(a.s ? a.s : "", a.st, a.len, width, first, rest, TX_PLAIN, out);
            free(a.s);
            free(a.st);
        }
        goto done;
    }
    for (int r = 0; !rc && r < n; r++) {
        acc a = { 0 };
        for (int i = 0; i < indent; i++) acc_put(&a, " ", NULL, 1, TX_PLAIN);
        if (r == 1 && table_rule(l[r], len[r])) {
            for (int c = 0; c < cols; c++) {
                if (c) acc_put(&a, "  ", NULL, 2, TX_PLAIN);
                for (int k = 0; k < w[c]; k++) acc_put(&a, "-", NULL, 1, TX_DIM);  /* as /suql's */
            }
        } else {
            for (int c = 0; c < cols; c++) {
                int have = c < nc[r] ? cells[r][c].width : 0;
                if (c) acc_put(&a, "  ", NULL, 2, TX_PLAIN);
                if (c < nc[r] && cells[r][c].len) acc_put(&a, cells[r][c].s, cells[r][c].st, cells[r][c].len, base);
                if (c + 1 < cols)
                    for (int k = have; k < w[c]; k++) acc_put(&a, " ", NULL, 1, TX_PLAIN);
            }
        }
        tx_lines_add(out, a.s ? a.s : "", a.st, a.len, TX_PLAIN);
        free(a.s);
        free(a.st);
    }
done:
    for (int r = 0; r < n; r++)
        for (int c = 0; c < nc[r]; c++) {
            free(cells[r][c].s);
            free(cells[r][c].st);
        }
    free(cells);
    free(nc);
    return rc;
}

/* The frame line of a fenced code block: "┌─ sql" over it, "└─" under it,
 * in the dim style. */
static void md_fence(const char *lang, int nlang, int width, int indent, tx_lines *out)
{
    acc a = { 0 };
    for (int i = 0; i < indent; i++) acc_put(&a, " ", NULL, 1, TX_PLAIN);
    acc_put(&a, lang ? "\xe2\x94\x8c\xe2\x94\x80" : "\xe2\x94\x94\xe2\x94\x80", NULL, 6, TX_DIM);
    if (lang && nlang) {
        acc_put(&a, " ", NULL, 1, TX_DIM);
        int k = tx_fit(lang, nlang, width - indent - 3);
        acc_put(&a, lang, NULL, k, TX_DIM);
    }
    tx_lines_add(out, a.s, a.st, a.len, TX_PLAIN);
    free(a.s);
    free(a.st);
}

void tx_markdown(const char *text, int width, int indent, int base, tx_lines *out)
{
    int n = (int)strlen(text), fence = 0;
    char pre[64];
    if (indent > 40) indent = 40;
    memset(pre, ' ', (size_t)indent);
    pre[indent] = 0;
    for (int i = 0; i <= n;) {
        int e = i;
        while (e < n && text[e] != '\n') e++;
        const char *l = text + i;
        int m = e - i;
        int sp = 0;
        while (sp < m && l[sp] == ' ') sp++;
        int fc = tx_fence(l, m);
        if (fc && (!fence || fc == fence)) {
            /* The fences become a frame: "┌─ sql" over the code, "└─"
             * under it; a block closes at a fence of its own kind. */
            fence = fence ? 0 : fc;
            int b = sp, le = m;
            while (b < m && l[b] == fc) b++;
            while (b < m && l[b] == ' ') b++;
            while (le > b && l[le - 1] == ' ') le--;
            md_fence(fence ? l + b : NULL, fence ? le - b : 0, width, indent, out);
        } else if (!fence && tx_table_row(l, m) && e < n) {
            /* A table: its rows up to the first line that is not one. */
            const char *rows[256];
            int lens[256], nr = 0, j = i, end = i;
            while (j <= n && nr < 256) {
                int k = j;
                while (k < n && text[k] != '\n') k++;
                if (!tx_table_row(text + j, k - j)) break;
                rows[nr] = text + j;
                lens[nr++] = k - j;
                end = k;
                if (k >= n) break;
                j = k + 1;
            }
            if (nr >= 2 && table_rule(rows[1], lens[1]) &&
                !md_table(rows, lens, nr, width, indent, base, out)) {
                e = end;
            } else {
                md_line(l, m, width, indent, base, out);
            }
        } else if (fence) {
            /* Code keeps its lines: cut at the pane's edge, never wrapped. */
            acc a = { 0 };
            acc_put(&a, pre, NULL, indent, TX_PLAIN);
            int k = tx_fit(l, m, width - indent);
            acc_put(&a, l, NULL, k, TX_CODE);
            tx_lines_add(out, a.s, a.st, a.len, TX_PLAIN);
            free(a.s);
            free(a.st);
        } else if (i < n || m) {
            md_line(l, m, width, indent, base, out);
        }
        if (e >= n) break;
        i = e + 1;
    }
}

/* ---- SUQL ------------------------------------------------------------------------ */

static const char *const keywords[] = {
    "select", "from", "where", "and", "or", "not", "limit", "order", "by", "group", "having",
    "as", "in", "like", "ilike", "is", "null", "desc", "asc", "join", "on", "with", "distinct",
    "case", "when", "then", "else", "end", "any", "all", "between", "union", "left", "inner",
    "offset", "true", "false", "cast", "exists", NULL,
};

static int is_keyword(const char *s, int n)
{
    for (const char *const *k = keywords; *k; k++)
        if ((int)strlen(*k) == n && !strncasecmp(*k, s, (size_t)n)) return 1;
    return 0;
}

void tx_suql_styles(const char *q, int n, unsigned char *st, int base)
{
    memset(st, base, (size_t)n);
    for (int i = 0; i < n;) {
        char c = q[i];
        if (c == '\'') {
            int j = i + 1;
            while (j < n && !(q[j] == '\'' && (j + 1 >= n || q[j + 1] != '\''))) j += q[j] == '\'' ? 2 : 1;
            if (j < n) j++;
            memset(st + i, TX_STRING, (size_t)(j - i));
            i = j;
        } else if (isdigit((unsigned char)c)) {
            int j = i;
            while (j < n && (isdigit((unsigned char)q[j]) || q[j] == '.')) j++;
            memset(st + i, TX_NUMBER, (size_t)(j - i));
            i = j;
        } else if (isalpha((unsigned char)c) || c == '_') {
            int j = i;
            while (j < n && (isalnum((unsigned char)q[j]) || q[j] == '_')) j++;
            int k = j;
            while (k < n && q[k] == ' ') k++;
            if (is_keyword(q + i, j - i)) memset(st + i, TX_KEYWORD, (size_t)(j - i));
            else if (k < n && q[k] == '(') memset(st + i, TX_FUNC, (size_t)(j - i));
            i = j;
        } else {
            i++;
        }
    }
}
