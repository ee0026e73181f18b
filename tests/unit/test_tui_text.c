/*
 * test_tui_text.c — the screen's curses-free parts: tui/text.c (UTF-8
 * decoding, display widths, word wrapping, plain text, light Markdown,
 * SUQL colours), the three panes of view.h (the conversation with its
 * per-message line cache, the worksheet state, the SUQL of the turns) and
 * the worker thread with its message queue (worker.h).
 *
 * tx_decode is checked case by case (ASCII, 2/3/4-byte characters,
 * malformed, overlong, surrogate, out-of-range and truncated sequences
 * giving U+FFFD over one byte) and then against an independent decoder
 * built from the RFC 3629 table over every 2- and 3-byte sequence.
 * Wrapping is checked line by line over many widths and prefixes: every
 * line whole UTF-8, its width right (an independent mbrtowc/wcwidth count)
 * and within the pane, no wide character across the edge, no combining
 * mark cut from its base, the prefixes in place and no word lost.  The
 * Markdown renderer gets every byte prefix of a multi-byte reply, as a
 * stream would feed it.  The worker runs jobs that post from its thread
 * and from a thread of their own; messages must come back in order, as
 * copies, with tw_busy holding until the TW_DONE is taken.
 *
 * Widths come from wcwidth(3), so the text and view tests run in the
 * C.UTF-8 locale (the previous one restored after); where that locale is
 * missing they print a note and skip the wide-character checks.
 */
#include "harness.h"

#include "tui/plantree.h"
#include "tui/text.h"
#include "tui/view.h"
#include "tui/worker.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

/* ---- the locale ------------------------------------------------------------ */

static char saved_locale[1024];

/* Switch to C.UTF-8, remembering the locale in force: 1, or 0 when the
 * locale is missing (nothing changed then). */
static int utf8_begin(void)
{
    const char *cur = setlocale(LC_ALL, NULL);
    snprintf(saved_locale, sizeof saved_locale, "%s", cur ? cur : "C");
    return setlocale(LC_ALL, "C.UTF-8") != NULL;
}

static void utf8_end(void) { setlocale(LC_ALL, saved_locale); }

/* A test whose body runs in C.UTF-8 and gets WIDE = 0 when that locale is
 * missing; the locale is restored however the body returns. */
#define UTF8_TEST(name)                                                                     \
    static void body_##name(int wide);                                                      \
    TEST(name)                                                                              \
    {                                                                                       \
        int w_ = utf8_begin();                                                              \
        if (!w_) printf("note: %s: no C.UTF-8 locale, wide-character checks skipped\n", #name); \
        body_##name(w_);                                                                    \
        utf8_end();                                                                         \
    }                                                                                       \
    static void body_##name(int wide __attribute__((unused)))

/* ---- independent references ------------------------------------------------ */

/* The well-formed UTF-8 character at S (N > 0 bytes), after the table of
 * RFC 3629 section 4: its length with *CP set, or 0 when malformed. */
static int ref_decode(const char *s, int n, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[0];
    int len;
    unsigned lo = 0x80, hi = 0xBF;        /* the second byte's range */
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return 0;
    if (n < len) return 0;
    if (u[1] < lo || u[1] > hi) return 0;
    for (int i = 2; i < len; i++)
        if (u[i] < 0x80 || u[i] > 0xBF) return 0;
    unsigned v = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (int i = 1; i < len; i++) v = v << 6 | (u[i] & 0x3F);
    *cp = v;
    return len;
}

/* The bytes of S (N bytes) that are not part of a well-formed character. */
static int bad_bytes(const char *s, int n)
{
    int bad = 0;
    for (int i = 0; i < n;) {
        unsigned cp;
        int k = ref_decode(s + i, n - i, &cp);
        if (!k) { bad++; k = 1; }
        i += k;
    }
    return bad;
}

static int utf8_valid(const char *s, int n) { return bad_bytes(s, n) == 0; }

/* Display columns of whole UTF-8 text through mbrtowc(3) and wcwidth(3)
 * (controls none, unprintables one, as the screen shows them). */
static int ref_width(const char *s, int n)
{
    mbstate_t ms;
    memset(&ms, 0, sizeof ms);
    int w = 0;
    for (int i = 0; i < n;) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s + i, (size_t)(n - i), &ms);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&ms, 0, sizeof ms);
            w++;
            i++;
            continue;
        }
        int cw = (wc < 0x20 || wc == 0x7F) ? 0 : wcwidth(wc);
        w += cw < 0 ? 1 : cw;
        i += (int)k;
    }
    return w;
}

/* ---- looking at lines ------------------------------------------------------- */

/* The lines joined by " | ", for failure messages (static buffer rotation). */
static const char *joined(const tx_lines *l)
{
    static char bufs[2][4096];
    static int r;
    char *b = bufs[r++ % 2];
    size_t at = 0;
    b[0] = 0;
    for (int i = 0; i < l->n && at < sizeof bufs[0] - 1; i++)
        at += (size_t)snprintf(b + at, sizeof bufs[0] - at, "%s%s", i ? " | " : "", l->v[i].s);
    return b;
}

/* Lines FROM.. of OUT: no NUL or newline inside, width as tx_width and (in
 * a UTF-8 locale, for whole text) as mbrtowc/wcwidth count it, at most
 * WIDTH columns, and at most BAD_OK bytes in all that are not part of a
 * well-formed character.  Reports the first failure; returns 1 when none. */
static int lines_ok(const char *file, int line, const tx_lines *out, int from, int width, int wide,
                    int bad_ok, const char *what)
{
    int bad = 0;
    for (int i = from; i < out->n; i++) {
        const tx_line *l = &out->v[i];
        int b = bad_bytes(l->s, l->len);
        bad += b;
        if ((int)strlen(l->s) != l->len || memchr(l->s, '\n', (size_t)l->len)) {
            th_fail(file, line, "%s: line %d \"%s\" holds a NUL or a newline", what, i, l->s);
            return 0;
        }
        if (l->width != tx_width(l->s, l->len)) {
            th_fail(file, line, "%s: line %d \"%s\" says width %d, tx_width %d", what, i, l->s, l->width,
                    tx_width(l->s, l->len));
            return 0;
        }
        if (wide && !b && l->width != ref_width(l->s, l->len)) {
            th_fail(file, line, "%s: line %d \"%s\" has width %d, wcwidth says %d", what, i, l->s,
                    l->width, ref_width(l->s, l->len));
            return 0;
        }
        if (l->width > width) {
            th_fail(file, line, "%s: line %d \"%s\" is %d columns wide, more than %d", what, i, l->s,
                    l->width, width);
            return 0;
        }
    }
    if (bad > bad_ok) {
        th_fail(file, line, "%s: %d bytes of malformed UTF-8 (at most %d expected) in %s", what, bad,
                bad_ok, joined(out));
        return 0;
    }
    return 1;
}
#define LINES_OK(out, from, width, wide, what) lines_ok(__FILE__, __LINE__, (out), (from), (width), (wide), 0, (what))

/* Every byte of the first NEEDLE in L has STYLE. */
static void check_styled(const char *file, int line, const tx_line *l, const char *needle, int style)
{
    const char *p = l ? strstr(l->s, needle) : NULL;
    if (!p) {
        th_fail(file, line, "line \"%s\" lacks \"%s\"", l ? l->s : "(none)", needle);
        return;
    }
    size_t at = (size_t)(p - l->s), n = strlen(needle);
    for (size_t i = 0; i < n; i++)
        if (l->st[at + i] != style) {
            th_fail(file, line, "\"%s\" in \"%s\": byte %zu has style %d, expected %d", needle, l->s, i,
                    l->st[at + i], style);
            return;
        }
}
#define CHECK_STYLED(l, needle, style) check_styled(__FILE__, __LINE__, (l), (needle), (style))

/* The first line at or after FROM holding NEEDLE, or -1. */
static int find_from(const tx_lines *l, const char *needle, int from)
{
    for (int i = from < 0 ? 0 : from; i < l->n; i++)
        if (strstr(l->v[i].s, needle)) return i;
    return -1;
}

static int find_line(const tx_lines *l, const char *needle) { return find_from(l, needle, 0); }

static int count_with(const tx_lines *l, const char *needle)
{
    int k = 0;
    for (int i = 0; i < l->n; i++) k += strstr(l->v[i].s, needle) != NULL;
    return k;
}

/* Line I, or NULL past the end (so CHECK_STR reports instead of crashing). */
static const char *line_s(const tx_lines *l, int i) { return i >= 0 && i < l->n ? l->v[i].s : NULL; }
static const tx_line *line_at(const tx_lines *l, int i) { return i >= 0 && i < l->n ? &l->v[i] : NULL; }

/* OUT holds exactly the lines of WANT (NULL-terminated). */
static void check_exact(const char *file, int line, const tx_lines *out, const char *const *want)
{
    int n = 0;
    while (want[n]) n++;
    if (out->n != n) {
        th_fail(file, line, "%d lines, expected %d: %s", out->n, n, joined(out));
        return;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(out->v[i].s, want[i])) {
            th_fail(file, line, "line %d is \"%s\", expected \"%s\" (all: %s)", i, out->v[i].s, want[i],
                    joined(out));
            return;
        }
}
#define CHECK_LINES(out, ...) do { static const char *const w_[] = { __VA_ARGS__, NULL }; \
    check_exact(__FILE__, __LINE__, (out), w_); } while (0)

/* ---- tx_decode ------------------------------------------------------------- */

typedef struct dcase {
    const char *s;
    int n, len;
    unsigned cp;
} dcase;

TEST(tui_text_decode_cases)
{
    static const dcase cases[] = {
        { "A", 1, 1, 'A' },
        { "\x7f", 1, 1, 0x7F },
        { "\xc3\xa9", 2, 2, 0xE9 },                      /* é */
        { "\xc2\x80", 2, 2, 0x80 },
        { "\xdf\xbf", 2, 2, 0x7FF },
        { "\xe0\xa0\x80", 3, 3, 0x800 },
        { "\xe4\xb8\xad", 3, 3, 0x4E2D },                /* 中 */
        { "\xef\xbf\xbd", 3, 3, 0xFFFD },
        { "\xf0\x90\x80\x80", 4, 4, 0x10000 },
        { "\xf0\x9f\x98\x80", 4, 4, 0x1F600 },           /* 😀 */
        { "\xf4\x8f\xbf\xbf", 4, 4, 0x10FFFF },
        /* Malformed: one byte, U+FFFD. */
        { "\x80", 1, 1, 0xFFFD },                        /* a lone continuation */
        { "\xbf\x80", 2, 1, 0xFFFD },
        { "\xc0\xaf", 2, 1, 0xFFFD },                    /* overlong "/" */
        { "\xc1\xbf", 2, 1, 0xFFFD },
        { "\xe0\x80\xaf", 3, 1, 0xFFFD },                /* overlong, 3 bytes */
        { "\xe0\x9f\xbf", 3, 1, 0xFFFD },
        { "\xf0\x80\x80\xaf", 4, 1, 0xFFFD },            /* overlong, 4 bytes */
        { "\xf0\x8f\xbf\xbf", 4, 1, 0xFFFD },
        { "\xed\xa0\x80", 3, 1, 0xFFFD },                /* surrogates */
        { "\xed\xbf\xbf", 3, 1, 0xFFFD },
        { "\xf4\x90\x80\x80", 4, 1, 0xFFFD },            /* past U+10FFFF */
        { "\xf5\x80\x80\x80", 4, 1, 0xFFFD },
        { "\xf8\x88\x80\x80\x80", 5, 1, 0xFFFD },
        { "\xfe", 1, 1, 0xFFFD },
        { "\xff", 1, 1, 0xFFFD },
        { "\xc3\x28", 2, 1, 0xFFFD },                    /* not a continuation */
        { "\xe4\x41\xad", 3, 1, 0xFFFD },
        { "\xe4\xb8\x41", 3, 1, 0xFFFD },
        { "\xf0\x9f\x98\x41", 4, 1, 0xFFFD },
        /* Truncated: by the end of the text, or by N. */
        { "\xc3", 1, 1, 0xFFFD },
        { "\xe4\xb8", 2, 1, 0xFFFD },
        { "\xf0\x9f\x98", 3, 1, 0xFFFD },
        { "\xe4\xb8\xad", 2, 1, 0xFFFD },
        { "\xf0\x9f\x98\x80", 3, 1, 0xFFFD },
        { "\xf0\x9f\x98\x80", 1, 1, 0xFFFD },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned cp = 12345;
        int len = tx_decode(cases[i].s, cases[i].n, &cp);
        if (len != cases[i].len || cp != cases[i].cp)
            th_fail(__FILE__, __LINE__, "case %zu: tx_decode gives %d bytes, U+%04X; expected %d, U+%04X", i,
                    len, cp, cases[i].len, cases[i].cp);
        /* The reference agrees on which cases are malformed. */
        int malformed = cases[i].len == 1 && cases[i].cp == 0xFFFD;
        if (utf8_valid(cases[i].s, cases[i].n) == malformed)
            th_fail(__FILE__, __LINE__, "case %zu: the reference disagrees on its validity", i);
    }

    /* A whole string: each malformed byte is one U+FFFD, the rest decodes. */
    const char *s = "a\xe4\xb8" "b\xf0\x9f\x98\x80\x80z";
    static const unsigned want[] = { 'a', 0xFFFD, 0xFFFD, 'b', 0x1F600, 0xFFFD, 'z' };
    int n = (int)strlen(s), k = 0;
    for (int i = 0; i < n;) {
        unsigned cp;
        int len = tx_decode(s + i, n - i, &cp);
        REQUIRE(len >= 1 && len <= n - i);
        if (k < 7 && cp != want[k]) th_fail(__FILE__, __LINE__, "character %d is U+%04X, expected U+%04X", k, cp, want[k]);
        k++;
        i += len;
    }
    CHECK_INT(k, 7);
}

TEST(tui_text_decode_matches_rfc3629)
{
    /* Every 2- and 3-byte sequence (and N from 1 to 3 over them), and a
     * sweep of 4-byte ones, against the RFC's table. */
    unsigned char b[4];
    long bad = 0;
    for (unsigned c0 = 0x80; c0 <= 0xFF && bad < 5; c0++)
        for (unsigned c1 = 0; c1 <= 0xFF && bad < 5; c1++)
            for (unsigned c2 = 0; c2 <= 0xFF && bad < 5; c2++) {
                b[0] = (unsigned char)c0;
                b[1] = (unsigned char)c1;
                b[2] = (unsigned char)c2;
                b[3] = 0;
                for (int n = (c2 == 0 ? 1 : 3); n <= 3; n++) {
                    unsigned cp = 0, rcp = 0;
                    int len = tx_decode((const char *)b, n, &cp);
                    int rlen = ref_decode((const char *)b, n, &rcp);
                    int ok = rlen ? (len == rlen && cp == rcp) : (len == 1 && cp == 0xFFFD);
                    if (!ok && bad++ < 5)
                        th_fail(__FILE__, __LINE__, "%02X %02X %02X (n=%d): tx_decode %d bytes U+%04X, "
                                "expected %d bytes U+%04X", c0, c1, c2, n, len, cp, rlen ? rlen : 1,
                                rlen ? rcp : 0xFFFD);
                }
            }
    static const unsigned char thirds[] = { 0x80, 0xBF, 0x41 };
    for (unsigned c0 = 0xF0; c0 <= 0xFF && bad < 5; c0++)
        for (unsigned c1 = 0; c1 <= 0xFF; c1++)
            for (int t = 0; t < 3; t++)
                for (unsigned c3 = 0; c3 <= 0xFF; c3++) {
                    b[0] = (unsigned char)c0;
                    b[1] = (unsigned char)c1;
                    b[2] = thirds[t];
                    b[3] = (unsigned char)c3;
                    unsigned cp = 0, rcp = 0;
                    int len = tx_decode((const char *)b, 4, &cp);
                    int rlen = ref_decode((const char *)b, 4, &rcp);
                    int ok = rlen ? (len == rlen && cp == rcp) : (len == 1 && cp == 0xFFFD);
                    if (!ok && bad++ < 5)
                        th_fail(__FILE__, __LINE__, "%02X %02X %02X %02X: tx_decode %d bytes U+%04X", c0, c1,
                                b[2], c3, len, cp);
                }
    CHECK_INT(bad, 0);
}

/* ---- widths ------------------------------------------------------------------- */

UTF8_TEST(tui_text_widths)
{
    /* Whatever the locale: ASCII one column, controls none. */
    CHECK_INT(tx_cpwidth('a'), 1);
    CHECK_INT(tx_cpwidth(' '), 1);
    CHECK_INT(tx_cpwidth('~'), 1);
    CHECK_INT(tx_cpwidth(0), 0);
    CHECK_INT(tx_cpwidth('\n'), 0);
    CHECK_INT(tx_cpwidth('\t'), 0);
    CHECK_INT(tx_cpwidth(0x1B), 0);
    CHECK_INT(tx_cpwidth(0x7F), 0);
    CHECK_INT(tx_cpwidth(0x378), 1);                     /* unassigned: shown as a replacement */
    CHECK_INT(tx_cpwidth(0xFFFD), 1);
    CHECK_INT(tx_width("", 0), 0);
    CHECK_INT(tx_width("hello", 5), 5);
    CHECK_INT(tx_width("a\tb\r\n", 5), 2);
    CHECK_INT(tx_width("\xff\xfe", 2), 2);               /* malformed: a replacement each */
    CHECK_INT(tx_fit("abcdef", 6, 4), 4);
    CHECK_INT(tx_fit("abc", 3, 10), 3);
    CHECK_INT(tx_fit("abc", 3, 0), 0);
    CHECK_INT(tx_fit("a\x1b[b", 4, 2), 3);               /* the escape takes no column */
    if (!wide) return;

    CHECK_INT(tx_cpwidth(0xE9), 1);                      /* é */
    CHECK_INT(tx_cpwidth(0x3B1), 1);                     /* α */
    CHECK_INT(tx_cpwidth(0x2022), 1);                    /* • */
    CHECK_INT(tx_cpwidth(0x4E2D), 2);                    /* 中 */
    CHECK_INT(tx_cpwidth(0x3042), 2);                    /* あ */
    CHECK_INT(tx_cpwidth(0xAC00), 2);                    /* 가 */
    CHECK_INT(tx_cpwidth(0xFF01), 2);                    /* ！ fullwidth */
    CHECK_INT(tx_cpwidth(0x1F600), 2);                   /* 😀 */
    CHECK_INT(tx_cpwidth(0x1F363), 2);                   /* 🍣 */
    CHECK_INT(tx_cpwidth(0x0301), 0);                    /* combining acute */
    CHECK_INT(tx_cpwidth(0x0308), 0);                    /* combining diaeresis */

    const char *mix = "a中😀é";
    CHECK_INT(tx_width(mix, (int)strlen(mix)), 6);
    CHECK_INT(tx_width("e\xcc\x81", 3), 1);              /* e + U+0301 */
    CHECK_INT(tx_width("東京タワー", (int)strlen("東京タワー")), 10);
    CHECK_INT(tx_width("中文", 4), 3);                   /* 中, then a truncated 文 (one byte) */

    const char *cjk = "中文字";                          /* 9 bytes, 6 columns */
    CHECK_INT(tx_fit(cjk, 9, 6), 9);
    CHECK_INT(tx_fit(cjk, 9, 5), 6);                     /* never half a wide character */
    CHECK_INT(tx_fit(cjk, 9, 4), 6);
    CHECK_INT(tx_fit(cjk, 9, 3), 3);
    CHECK_INT(tx_fit(cjk, 9, 1), 0);
    CHECK_INT(tx_fit("a😀", 5, 2), 1);
    CHECK_INT(tx_fit("a😀", 5, 3), 5);
    CHECK_INT(tx_fit("e\xcc\x81x", 4, 1), 3);            /* the mark stays with its base */

    /* tx_fit over a mixed text at every width: a character boundary, within
     * the columns, and as much as fits. */
    const char *t = "ab中e\xcc\x81😀x文\xcc\x88yz";
    int n = (int)strlen(t);
    for (int cols = 0; cols <= 16; cols++) {
        int k = tx_fit(t, n, cols);
        int at = 0;
        while (at < k) {
            unsigned cp;
            at += ref_decode(t + at, n - at, &cp);
        }
        if (at != k) th_fail(__FILE__, __LINE__, "tx_fit(%d) = %d is inside a character", cols, k);
        if (ref_width(t, k) > cols) th_fail(__FILE__, __LINE__, "tx_fit(%d) = %d is %d columns", cols, k, ref_width(t, k));
        if (k < n) {
            unsigned cp;
            int next = ref_decode(t + k, n - k, &cp);
            if (ref_width(t, k + next) <= cols)
                th_fail(__FILE__, __LINE__, "tx_fit(%d) = %d stops before a character that fits", cols, k);
        }
    }
}

/* ---- ASCII drawing ---------------------------------------------------------------- */

/* With tx_set_ascii(1) every code point past ASCII is measured as its
 * stand-in, which is itself ASCII; wrapped lines then fit as drawn. */
UTF8_TEST(tui_text_ascii_stand_ins)
{
    CHECK(tx_ascii_for('a') == NULL);
    CHECK_STR(tx_ascii_for(0x00E9), "e");        /* é */
    CHECK_STR(tx_ascii_for(0x00C0), "A");
    CHECK_STR(tx_ascii_for(0x00FF), "y");
    CHECK_STR(tx_ascii_for(0x00DF), "ss");
    CHECK_STR(tx_ascii_for(0x2014), "--");
    CHECK_STR(tx_ascii_for(0x2026), "...");
    CHECK_STR(tx_ascii_for(0x2502), "|");
    CHECK_STR(tx_ascii_for(0x2192), "->");
    CHECK_STR(tx_ascii_for(0x4E2D), "?");        /* 中 */
    CHECK_STR(tx_ascii_for(0x1F600), "?");
    /* Every stand-in is short printable ASCII, and every map entry is
     * found (the map is searched by halves: its order matters). */
    static const unsigned probe[] = { 0x00A0, 0x00AB, 0x00B0, 0x00B7, 0x00BB, 0x00C6, 0x00D7,
                                      0x00E6, 0x0152, 0x0153, 0x2010, 0x2015, 0x2018, 0x201E,
                                      0x2022, 0x2039, 0x203A, 0x20AC, 0x2122, 0x2190, 0x2193,
                                      0x2212, 0x2260, 0x2264, 0x2265, 0x2424, 0x2500, 0x253C,
                                      0x2588, 0x2591, 0x2713, 0x2714, 0x2717, 0x2718 };
    for (size_t i = 0; i < sizeof probe / sizeof *probe; i++) {
        const char *a = tx_ascii_for(probe[i]);
        REQUIRE(a);
        if (!strcmp(a, "?")) th_fail(__FILE__, __LINE__, "U+%04X has no stand-in", probe[i]);
    }
    for (unsigned cp = 0x80; cp < 0x30000; cp++) {
        const char *a = tx_ascii_for(cp);
        size_t n = strlen(a);
        if (n < 1 || n > 3) th_fail(__FILE__, __LINE__, "U+%04X stands in as %zu bytes", cp, n);
        for (size_t j = 0; j < n; j++)
            if (a[j] < 0x20 || a[j] > 0x7E) th_fail(__FILE__, __LINE__, "U+%04X: not ASCII", cp);
    }
    tx_set_ascii(1);
    const char *t = "caf\xc3\xa9 \xe2\x80\x94 \xe4\xb8\xad\xe6\x96\x87 \xe2\x80\xa6";
    CHECK_INT(tx_width(t, (int)strlen(t)), 4 + 1 + 2 + 1 + 2 + 1 + 3);   /* "cafe -- ?? ..." */
    tx_lines out;
    tx_lines_init(&out);
    tx_wrap(t, NULL, (int)strlen(t), 8, "\xe2\x80\xa2 ", "  ", TX_PLAIN, &out);
    for (int i = 0; i < out.n; i++) CHECK(out.v[i].width <= 8);
    tx_lines_release(&out);
    tx_set_ascii(0);
    CHECK_INT(tx_width(t, (int)strlen(t)), wide ? 4 + 1 + 1 + 1 + 4 + 1 + 1 : tx_width(t, (int)strlen(t)));
}

/* ---- tx_wrap --------------------------------------------------------------------- */

static void wrap(const char *s, int width, const char *first, const char *rest, tx_lines *out)
{
    tx_lines_clear(out);
    tx_wrap(s, NULL, (int)strlen(s), width, first, rest, TX_PLAIN, out);
}

UTF8_TEST(tui_text_wrap_basics)
{
    tx_lines out;
    tx_lines_init(&out);

    wrap("the quick brown fox jumps over the lazy dog", 10, "", "", &out);
    CHECK_LINES(&out, "the quick", "brown fox", "jumps over", "the lazy", "dog");

    /* Prefixes in their style, the text in its own. */
    const char *s = "alpha beta gamma delta epsilon";
    int n = (int)strlen(s);
    unsigned char st[64];
    memset(st, TX_USER, sizeof st);
    tx_lines_clear(&out);
    tx_wrap(s, st, n, 12, "> ", ". ", TX_USER_LABEL, &out);
    CHECK_LINES(&out, "> alpha beta", ". gamma", ". delta", ". epsilon");
    for (int i = 0; i < out.n; i++) {
        CHECK_INT(out.v[i].st[0], TX_USER_LABEL);
        CHECK_INT(out.v[i].st[1], TX_USER_LABEL);
        CHECK_INT(out.v[i].st[2], TX_USER);
    }
    CHECK_STYLED(line_at(&out, 0), "alpha beta", TX_USER);

    /* Spaces inside a line stay; trailing ones go. */
    wrap("a  b   ", 10, "", "", &out);
    CHECK_LINES(&out, "a  b");
    wrap("one two three", 7, "", "", &out);
    CHECK_LINES(&out, "one two", "three");

    /* An exact fit does not wrap. */
    wrap("abcde fghij", 11, "", "", &out);
    CHECK_LINES(&out, "abcde fghij");

    /* An empty paragraph: one line with the prefix (its trailing space
     * trimmed like any other). */
    tx_lines_clear(&out);
    tx_wrap("", NULL, 0, 10, "> ", "  ", TX_DIM, &out);
    REQUIRE(out.n == 1);
    CHECK(!strncmp(out.v[0].s, ">", 1));
    CHECK_INT(out.v[0].st[0], TX_DIM);

    tx_lines_release(&out);
}

UTF8_TEST(tui_text_wrap_long_words)
{
    tx_lines out;
    tx_lines_init(&out);

    wrap("abcdefghijklmnopqrstuvwxyz", 10, "", "", &out);
    CHECK_LINES(&out, "abcdefghij", "klmnopqrst", "uvwxyz");

    /* A word longer than any line starts where it is and is cut. */
    wrap("see abcdefghijklmnopqrstuvwxyz", 10, "", "", &out);
    CHECK_LINES(&out, "see abcdef", "ghijklmnop", "qrstuvwxyz");

    /* Continuation prefixes count. */
    wrap("abcdefghijkl", 6, "> ", "  ", &out);
    CHECK_LINES(&out, "> abcd", "  efgh", "  ijkl");

    /* A word that would not fit after the continuation prefix either is
     * cut where it stands rather than moved. */
    wrap("ab abcdefghi", 10, "> ", "  ", &out);
    CHECK_LINES(&out, "> ab abcde", "  fghi");

    /* Cut at character boundaries. */
    wrap("ééééééééééééé", 5, "", "", &out);
    CHECK_LINES(&out, "ééééé", "ééééé", "ééé");
    LINES_OK(&out, 0, 5, wide, "é word");

    if (wide) {
        wrap("中文字中文字中文", 5, "", "", &out);       /* never half a character at the edge */
        CHECK_LINES(&out, "中文", "字中", "文字", "中文");
        LINES_OK(&out, 0, 5, wide, "CJK word");

        wrap("ab中文字", 3, "", "", &out);
        CHECK_LINES(&out, "ab", "中", "文", "字");

        wrap("😀😀😀", 5, "", "", &out);
        CHECK_LINES(&out, "😀😀", "😀");

        wrap("x 中文字", 4, "", "", &out);               /* "x 中" then "文字" */
        CHECK_LINES(&out, "x 中", "文字");

        /* A combining mark stays with its base. */
        wrap("e\xcc\x81" "e\xcc\x81" "e\xcc\x81", 2, "", "", &out);
        CHECK_LINES(&out, "e\xcc\x81" "e\xcc\x81", "e\xcc\x81");
    }
    tx_lines_release(&out);
}

/* The bytes of S (N bytes) but spaces, appended to B. */
static void nonspace(const char *s, int n, gn_buf *b)
{
    for (int i = 0; i < n; i++)
        if (s[i] != ' ') gn_buf_putc(b, s[i]);
}

/* The words of S (N bytes), each followed by '\n', appended to B. */
static void words(const char *s, int n, gn_buf *b)
{
    for (int i = 0; i < n;) {
        while (i < n && s[i] == ' ') i++;
        int e = i;
        while (e < n && s[e] != ' ') e++;
        if (e > i) {
            gn_buf_add(b, s + i, (size_t)(e - i));
            gn_buf_putc(b, '\n');
        }
        i = e;
    }
}

/* Where the text of line L starts after PRE: strlen(PRE), or less when the
 * line is the prefix with its trailing spaces trimmed; -1 when the line
 * does not start with PRE. */
static int after_prefix(const tx_line *l, const char *pre)
{
    int p = (int)strlen(pre);
    if (l->len >= p && !strncmp(l->s, pre, (size_t)p)) return p;
    if (l->len < p && !strncmp(l->s, pre, (size_t)l->len)) {
        for (int i = l->len; i < p; i++)
            if (pre[i] != ' ') return -1;
        return l->len;
    }
    return -1;
}

/* Wrap S at WIDTH after FIRST/REST and check every property of the lines;
 * stops at the first failure (returns 0). */
static int wrap_props(const char *s, int width, const char *first, const char *rest, int wide)
{
    tx_lines out;
    tx_lines_init(&out);
    int n = (int)strlen(s), ok = 1;
    tx_wrap(s, NULL, n, width, first, rest, TX_PLAIN, &out);
    char what[160];
    snprintf(what, sizeof what, "wrapping \"%.40s\" at %d after \"%s\"/\"%s\"", s, width, first, rest);
    if (!lines_ok(__FILE__, __LINE__, &out, 0, width, wide, 0, what)) ok = 0;

    gn_buf got, want, gw, ww;
    gn_buf_init(&got);
    gn_buf_init(&want);
    gn_buf_init(&gw);
    gn_buf_init(&ww);
    int longest = 0, lead = 0;
    while (lead < n && s[lead] == ' ') lead++;
    for (int i = 0; ok && i < out.n; i++) {
        const tx_line *l = &out.v[i];
        int at = after_prefix(l, i ? rest : first);
        if (at < 0) {
            th_fail(__FILE__, __LINE__, "%s: line %d \"%s\" lacks its prefix", what, i, l->s);
            ok = 0;
            break;
        }
        if (l->len > at && l->s[l->len - 1] == ' ') {
            th_fail(__FILE__, __LINE__, "%s: line %d \"%s\" ends in a space", what, i, l->s);
            ok = 0;
        }
        if (wide && i && l->len - at >= 2 && !memcmp(l->s + at, "\xcc\x81", 2)) {
            th_fail(__FILE__, __LINE__, "%s: line %d \"%s\" starts with a combining mark", what, i, l->s);
            ok = 0;
        }
        nonspace(l->s + at, l->len - at, &got);
        words(l->s + at, l->len - at, &gw);
    }
    nonspace(s, n, &want);
    words(s, n, &ww);
    for (int i = 0; i < n;) {
        int e = i;
        while (e < n && s[e] != ' ') e++;
        int w = tx_width(s + i, e - i);
        if (w > longest) longest = w;
        i = e + 1;
    }
    if (ok && strcmp(got.data, want.data)) {
        th_fail(__FILE__, __LINE__, "%s: text lost or changed: %s", what, joined(&out));
        ok = 0;
    }
    /* With no word longer than a line, no word is cut either. */
    int pw = tx_width(first, (int)strlen(first)), rw = tx_width(rest, (int)strlen(rest));
    if (ok && longest + lead <= width - (pw > rw ? pw : rw) && strcmp(gw.data, ww.data)) {
        th_fail(__FILE__, __LINE__, "%s: a word was cut: %s", what, joined(&out));
        ok = 0;
    }
    gn_buf_release(&got);
    gn_buf_release(&want);
    gn_buf_release(&gw);
    gn_buf_release(&ww);
    tx_lines_release(&out);
    return ok;
}

UTF8_TEST(tui_text_wrap_properties)
{
    static const char *const texts[] = {
        "The quick brown fox jumps over the lazy dog and keeps running far away",
        "Café naïve résumé — “quoted” text with e\xcc\x81 combining and ñ; voilà",
        "東京 の 寿司 は とても おいしい です 中文字符测试长词中文字符测试长词",
        "emoji 🍣🍜🍱 party 😀😀😀😀😀😀😀😀 done",
        "supercalifragilisticexpialidocious antidisestablishmentarianism x",
        "  leading and   multiple   spaces  ",
        "mixed中文abc😀def ghi e\xcc\x81\xcc\x81\xcc\x81 x",
        "a",
        "",
    };
    static const char *const prefixes[][2] = {
        { "", "" }, { "> ", "  " }, { "• ", "  " }, { "  ", "     " }, { "› ", "  " },
    };
    for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
        int pmax = tx_width(prefixes[p][0], (int)strlen(prefixes[p][0]));
        int rw = tx_width(prefixes[p][1], (int)strlen(prefixes[p][1]));
        if (rw > pmax) pmax = rw;
        int ok = 1;                                 /* one failure per prefix pair is enough */
        for (size_t t = 0; ok && t < sizeof texts / sizeof texts[0]; t++)
            for (int width = pmax + 2; ok && width <= 44; width++)
                ok = wrap_props(texts[t], width, prefixes[p][0], prefixes[p][1], wide);
    }
}

/* ---- tx_plain ------------------------------------------------------------------ */

UTF8_TEST(tui_text_plain)
{
    tx_lines out;
    tx_lines_init(&out);

    tx_plain("one\ntwo\n", NULL, 8, 20, 2, TX_DIM, &out);
    CHECK_LINES(&out, "  one", "  two");                /* no empty line for the final newline */
    for (int i = 0; i < out.n; i++)
        for (int j = 0; j < out.v[i].len; j++) CHECK_INT(out.v[i].st[j], TX_DIM);

    tx_lines_clear(&out);
    tx_plain("one\n\ntwo", NULL, 8, 20, 0, TX_PLAIN, &out);
    CHECK_LINES(&out, "one", "", "two");

    tx_lines_clear(&out);
    tx_plain("a\n\n", NULL, 3, 20, 0, TX_PLAIN, &out);
    CHECK_LINES(&out, "a", "");

    tx_lines_clear(&out);
    tx_plain("alpha beta gamma delta\nepsilon", NULL, 30, 12, 2, TX_PLAIN, &out);
    CHECK_LINES(&out, "  alpha beta", "  gamma", "  delta", "  epsilon");
    LINES_OK(&out, 0, 12, wide, "tx_plain");

    /* Styles given per byte follow their bytes through the wrap. */
    const char *s = "key: value\nother: thing";
    int n = (int)strlen(s);
    unsigned char st[32];
    memset(st, TX_PLAIN, sizeof st);
    memset(st, TX_FIELD, 3);
    memset(st + 11, TX_FIELD, 5);
    tx_lines_clear(&out);
    tx_plain(s, st, n, 40, 1, TX_DIM, &out);
    CHECK_LINES(&out, " key: value", " other: thing");
    CHECK_STYLED(line_at(&out, 0), "key", TX_FIELD);
    CHECK_STYLED(line_at(&out, 0), "value", TX_PLAIN);
    CHECK_STYLED(line_at(&out, 1), "other", TX_FIELD);
    CHECK_STYLED(line_at(&out, 1), "thing", TX_PLAIN);

    tx_lines_release(&out);
}

/* ---- tx_markdown ---------------------------------------------------------------- */

static void md(const char *text, int width, tx_lines *out)
{
    tx_lines_clear(out);
    tx_markdown(text, width, 2, TX_PLAIN, out);
}

UTF8_TEST(tui_md_inline)
{
    tx_lines out;
    tx_lines_init(&out);

    md("Say **hello** now", 40, &out);
    CHECK_LINES(&out, "  Say hello now");
    CHECK_STYLED(line_at(&out, 0), "hello", TX_BOLD);
    CHECK_STYLED(line_at(&out, 0), "Say ", TX_PLAIN);
    CHECK_STYLED(line_at(&out, 0), " now", TX_PLAIN);

    md("__also__ bold", 40, &out);
    CHECK_LINES(&out, "  also bold");
    CHECK_STYLED(line_at(&out, 0), "also", TX_BOLD);
    CHECK_STYLED(line_at(&out, 0), " bold", TX_PLAIN);

    md("run `ls -l *.c` here", 40, &out);
    CHECK_LINES(&out, "  run ls -l *.c here");
    CHECK_STYLED(line_at(&out, 0), "ls -l *.c", TX_CODE);
    CHECK_STYLED(line_at(&out, 0), " here", TX_PLAIN);

    md("an *italic* word", 40, &out);
    CHECK_LINES(&out, "  an italic word");
    CHECK_STYLED(line_at(&out, 0), "italic", TX_ITALIC);
    CHECK_STYLED(line_at(&out, 0), " word", TX_PLAIN);

    md("2 * 3 = 6 and 4 * 5", 40, &out);                /* not emphasis */
    CHECK_LINES(&out, "  2 * 3 = 6 and 4 * 5");
    CHECK_STYLED(line_at(&out, 0), "2 * 3 = 6 and 4 * 5", TX_PLAIN);

    md("keep `**literal**` in code", 40, &out);
    CHECK_LINES(&out, "  keep **literal** in code");
    CHECK_STYLED(line_at(&out, 0), "**literal**", TX_CODE);

    md("**bold** and `code` and *it* — café", 60, &out);
    CHECK_LINES(&out, "  bold and code and it — café");
    CHECK_STYLED(line_at(&out, 0), "bold", TX_BOLD);
    CHECK_STYLED(line_at(&out, 0), "code", TX_CODE);
    CHECK_STYLED(line_at(&out, 0), "it", TX_ITALIC);
    CHECK_STYLED(line_at(&out, 0), " — café", TX_PLAIN);

    /* Bold across a wrap: every character of the phrase bold on every line. */
    md("**a long bold phrase that wraps around the edge**", 14, &out);
    REQUIRE(out.n >= 3);
    LINES_OK(&out, 0, 14, wide, "bold wrap");
    for (int i = 0; i < out.n; i++) {
        CHECK(!strchr(out.v[i].s, '*'));
        for (int j = 2; j < out.v[i].len; j++)
            if (out.v[i].s[j] != ' ' && out.v[i].st[j] != TX_BOLD)
                th_fail(__FILE__, __LINE__, "line %d \"%s\" byte %d not bold", i, out.v[i].s, j);
    }
    tx_lines_release(&out);
}

UTF8_TEST(tui_md_blocks)
{
    tx_lines out;
    tx_lines_init(&out);

    /* Bullets with a hanging indent. */
    md("- first item that is long enough to wrap around", 20, &out);
    CHECK_LINES(&out, "  • first item that", "    is long enough", "    to wrap around");
    LINES_OK(&out, 0, 20, wide, "bullet");
    md("* star item", 40, &out);
    CHECK_LINES(&out, "  • star item");
    md("+ plus item", 40, &out);
    CHECK_LINES(&out, "  • plus item");
    md("  - nested **item**", 40, &out);
    CHECK_LINES(&out, "    • nested item");
    CHECK_STYLED(line_at(&out, 0), "item", TX_BOLD);

    /* Numbered items keep their number. */
    md("1. first numbered item wraps", 16, &out);
    CHECK_LINES(&out, "  1. first", "     numbered", "     item wraps");
    md("12) twelve", 40, &out);
    CHECK_LINES(&out, "  12) twelve");

    /* Headings. */
    md("# Title here", 40, &out);
    CHECK_LINES(&out, "  Title here");
    CHECK_STYLED(line_at(&out, 0), "Title here", TX_HEADING);
    md("### Small *one*", 40, &out);
    CHECK_LINES(&out, "  Small one");
    CHECK_STYLED(line_at(&out, 0), "Small ", TX_HEADING);
    md("#hashtag", 40, &out);
    CHECK_LINES(&out, "  #hashtag");
    CHECK_STYLED(line_at(&out, 0), "#hashtag", TX_PLAIN);

    /* Paragraphs, blank lines, a final newline. */
    md("para one\n\npara two\n", 40, &out);
    CHECK_LINES(&out, "  para one", "", "  para two");
    md("text\n", 40, &out);
    CHECK_LINES(&out, "  text");
    md("", 40, &out);
    CHECK_INT(out.n, 0);

    /* A base style and an indent of the caller's. */
    tx_lines_clear(&out);
    tx_markdown("plain **b**", 40, 4, TX_NOTE, &out);
    CHECK_LINES(&out, "    plain b");
    CHECK_STYLED(line_at(&out, 0), "plain ", TX_NOTE);
    CHECK_STYLED(line_at(&out, 0), "b", TX_BOLD);

    tx_lines_release(&out);
}

UTF8_TEST(tui_md_fenced_code)
{
    tx_lines out;
    tx_lines_init(&out);
    const char *code = "int x = 1; /* a long comment that goes past the edge */";
    char text[512];
    snprintf(text, sizeof text, "before\n```c\n%s\n  **not bold** `x`\n```\nafter **b**", code);
    md(text, 30, &out);
    REQUIRE(out.n == 6);
    CHECK_STR(line_s(&out, 0), "  before");
    /* The fences are a frame, the language on its top. */
    CHECK_STR(line_s(&out, 1), "  \xe2\x94\x8c\xe2\x94\x80 c");
    CHECK_STYLED(line_at(&out, 1), "\xe2\x94\x8c\xe2\x94\x80 c", TX_DIM);
    /* Cut at the edge, not wrapped. */
    CHECK_INT(out.v[2].width, 30);
    CHECK(!strncmp(out.v[2].s, "  int x = 1; /* a long comment", 30));
    CHECK_INT(out.v[2].len, 30);
    CHECK_STYLED(line_at(&out, 2), "int x = 1;", TX_CODE);
    CHECK_INT(out.v[2].st[0], TX_PLAIN);
    /* Markup is literal inside, spaces kept. */
    CHECK_STR(line_s(&out, 3), "    **not bold** `x`");
    CHECK_STYLED(line_at(&out, 3), "**not bold** `x`", TX_CODE);
    CHECK_STR(line_s(&out, 4), "  \xe2\x94\x94\xe2\x94\x80");
    CHECK_STR(line_s(&out, 5), "  after b");
    CHECK_STYLED(line_at(&out, 5), "b", TX_BOLD);
    CHECK_INT(count_with(&out, "```"), 0);
    LINES_OK(&out, 0, 30, wide, "fenced code");

    /* An indented fence, and one left open (a reply still streaming). */
    md("   ```\nopen code **x**", 40, &out);
    CHECK_LINES(&out, "  \xe2\x94\x8c\xe2\x94\x80", "  open code **x**");
    CHECK_STYLED(line_at(&out, 1), "open code **x**", TX_CODE);

    if (wide) {
        md("```\n中文中文中文中文中文中文\n```", 11, &out);
        CHECK_LINES(&out, "  \xe2\x94\x8c\xe2\x94\x80", "  中文中文", "  \xe2\x94\x94\xe2\x94\x80");   /* 10 columns: a fifth would straddle */
        LINES_OK(&out, 0, 11, wide, "wide code");
    }
    tx_lines_release(&out);
}

/* A Markdown table is aligned: columns padded to their widest cell, the
 * header bold over a rule, inline markup inside cells; one too wide for
 * the pane, or without its rule, stays text. */
UTF8_TEST(tui_md_tables)
{
    tx_lines out;
    tx_lines_init(&out);
    md("Here:\n\n| name | rating |\n|---|--:|\n| **Kaito** | 4.5 |\n| Hilo Cafe | 3 |\n\nDone.", 40, &out);
    CHECK_LINES(&out, "  Here:", "", "  name       rating",
                "  ---------  ------",
                "  Kaito      4.5", "  Hilo Cafe  3", "", "  Done.");
    CHECK_STYLED(line_at(&out, 2), "name", TX_BOLD);
    CHECK_STYLED(line_at(&out, 4), "Kaito", TX_BOLD);
    CHECK_STYLED(line_at(&out, 5), "Hilo Cafe", TX_PLAIN);
    LINES_OK(&out, 0, 40, wide, "table");
    /* A bar escaped in a cell is the cell's, its backslash gone. */
    md("| a | b |\n|---|---|\n| x \\| y | z |", 40, &out);
    CHECK_LINES(&out, "  a      b", "  -----  -", "  x | y  z");
    /* Too wide for 16 columns: a row an item, the header's names before
     * the values. */
    md("| longer name | rating |\n|---|---|\n| Kaito | 4.5 |\n| Hilo Cafe |  |", 16, &out);
    CHECK_LINES(&out, "  \xe2\x80\xa2 Kaito", "    (rating 4.5)", "  \xe2\x80\xa2 Hilo Cafe");
    LINES_OK(&out, 0, 16, wide, "wide table");
    md("| longer name | rating |\n|---|---|\n| Kaito | 4.5 |", 30, &out);
    CHECK_LINES(&out, "  longer name  rating", "  -----------  ------", "  Kaito        4.5");
    md("| a | rating |\n|---|---|\n| Kaito Sushi Bar | 4.5 |", 24, &out);
    CHECK_LINES(&out, "  \xe2\x80\xa2 Kaito Sushi Bar", "    (rating 4.5)");
    /* Without the rule under the header it is not a table. */
    md("| a | b |\n| c | d |", 40, &out);
    CHECK_LINES(&out, "  | a | b |", "  | c | d |");
    tx_lines_release(&out);
}

/* The mask of an echoed API key is shown, not taken for markup; a
 * closed "***" is still bold italics. */
UTF8_TEST(tui_md_key_mask_is_text)
{
    tx_lines out;
    tx_lines_init(&out);
    md("Your key is ***, right?", 40, &out);
    CHECK_LINES(&out, "  Your key is ***, right?");
    md("***", 40, &out);
    CHECK_LINES(&out, "  ***");
    md("a ***loud*** word", 40, &out);
    CHECK_INT(count_with(&out, "*"), 0);
    tx_lines_release(&out);
}

/* A * before closing punctuation is text: count(*) in a SUQL query shown
 * in a reply lost its star. */
UTF8_TEST(tui_md_star_before_punctuation_is_text)
{
    tx_lines out;
    tx_lines_init(&out);
    md("SELECT count(*) FROM t, or [*], *;", 60, &out);
    CHECK_LINES(&out, "  SELECT count(*) FROM t, or [*], *;");
    tx_lines_release(&out);
}

UTF8_TEST(tui_md_unclosed_markup)
{
    tx_lines out;
    tx_lines_init(&out);

    md("**bold to the end", 40, &out);
    CHECK_LINES(&out, "  bold to the end");
    CHECK_STYLED(line_at(&out, 0), "bold to the end", TX_BOLD);

    md("`code to the end", 40, &out);
    CHECK_LINES(&out, "  code to the end");
    CHECK_STYLED(line_at(&out, 0), "code to the end", TX_CODE);

    md("*ital to the end", 40, &out);
    CHECK_LINES(&out, "  ital to the end");
    CHECK_STYLED(line_at(&out, 0), "ital to the end", TX_ITALIC);

    md("__under to the end", 40, &out);
    CHECK_LINES(&out, "  under to the end");
    CHECK_STYLED(line_at(&out, 0), "under to the end", TX_BOLD);

    md("some **bold that wraps over several lines of the pane", 16, &out);
    REQUIRE(out.n >= 3);
    LINES_OK(&out, 0, 16, wide, "open bold");
    CHECK_INT(count_with(&out, "*"), 0);
    CHECK_STYLED(line_at(&out, out.n - 1), "pane", TX_BOLD);

    /* The next paragraph starts afresh. */
    md("**open\n\nnext", 40, &out);
    CHECK_LINES(&out, "  open", "", "  next");
    CHECK_STYLED(line_at(&out, 2), "next", TX_PLAIN);

    /* Bare markers: nothing shown, nothing broken. */
    static const char *const bare[] = { "**", "``", "****", "`", "__", "** **", "`` ``" };
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        md(bare[i], 40, &out);
        CHECK_INT(out.n, 1);
        if (out.n == 1 && (strchr(out.v[0].s, '*') || strchr(out.v[0].s, '`') || strstr(out.v[0].s, "__")))
            th_fail(__FILE__, __LINE__, "\"%s\" shows its markers: \"%s\"", bare[i], out.v[0].s);
    }
    tx_lines_release(&out);
}

/* The bytes at the end of S (N bytes) that begin a character not finished. */
static int dangling(const char *s, int n)
{
    for (int back = 1; back <= 3 && back <= n; back++) {
        unsigned char c = (unsigned char)s[n - back];
        if ((c & 0xC0) == 0x80) continue;           /* a continuation: look further back */
        int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

/* Tables and fences from a model are whatever it wrote: random lines of
 * bars, dashes, colons, escapes, markup, wide and combining characters and
 * fences, rendered at every width from 1 to 40 in both drawings, never
 * pass the edge, never split a character, never lose their way (checked
 * under ASan in make asan). */
UTF8_TEST(tui_md_tables_random)
{
    static const char *const atoms[] = {
        "|", "|", "|", "-", "---", ":", " ", " ", "a", "bc", "\\|", "**", "`", "\n", "\n", "\n",
        "\xe4\xb8\xad", "e\xcc\x81", "\xf0\x9f\x8d\xa3", "```", "```sql", "~~~", "|---|---|", "| x | y |",
    };
    enum { NA = sizeof atoms / sizeof *atoms };
    unsigned seed = 12345;
    tx_lines out;
    tx_lines_init(&out);
    char buf[600];
    for (int round = 0; round < 400; round++) {
        size_t len = 0;
        int k = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 40;
        for (int i = 0; i < k; i++) {
            const char *a = atoms[((seed = seed * 1103515245u + 12345u) >> 16) % NA];
            size_t al = strlen(a);
            if (len + al >= sizeof buf) break;
            memcpy(buf + len, a, al);
            len += al;
        }
        buf[len] = 0;
        for (int ascii = 0; ascii <= 1; ascii++) {
            tx_set_ascii(ascii);
            for (int w = 1; w <= 40; w += 3) {
                tx_lines_clear(&out);
                tx_markdown(buf, w, 2, TX_PLAIN, &out);
                char what[64];
                snprintf(what, sizeof what, "random table %d at width %d%s", round, w, ascii ? " (ASCII)" : "");
                /* Below the indent plus a column a line may hold its
                 * prefix alone; the check is for the width it was given. */
                if (w > 4 && !lines_ok(__FILE__, __LINE__, &out, 0, w, wide && !ascii, 0, what)) {
                    tx_set_ascii(0);
                    tx_lines_release(&out);
                    return;
                }
            }
        }
        tx_set_ascii(0);
    }
    tx_lines_release(&out);
}

UTF8_TEST(tui_md_streaming_prefixes)
{
    static const char reply[] =
        "# Café résumé\n"
        "\n"
        "Here are **three** options near 東京 — all *great*:\n"
        "\n"
        "- **Sushi Saitō** (寿司) with `omakase` 🍣 for ¥20000 and a long description that wraps\n"
        "- Ramen Ichiran 🍜 *open late* e\xcc\x81\n"
        "1. Numbered naïve item with a rather long tail to force wrapping\n"
        "\n"
        "```\n"
        "code 中文 line that is long enough to be cut at the edge\n"
        "```\n"
        "Done **ok — 👍";
    int n = (int)strlen(reply);
    static const int widths[] = { 12, 24, 40 };
    tx_lines out;
    tx_lines_init(&out);
    char *buf = xmalloc((size_t)n + 1);
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        for (int k = 0; k <= n; k++) {
            memcpy(buf, reply, (size_t)k);
            buf[k] = 0;
            md(buf, widths[w], &out);
            /* A prefix ending inside a character passes those bytes on as
             * they are (one replacement column each); nothing else may be
             * malformed, and nothing may pass the edge. */
            char what[64];
            snprintf(what, sizeof what, "prefix of %d bytes at width %d", k, widths[w]);
            if (!lines_ok(__FILE__, __LINE__, &out, 0, widths[w], wide, dangling(buf, k), what)) break;
        }
    }
    /* The whole reply: no marker or fence shown, the styles in place. */
    md(reply, 40, &out);
    CHECK_INT(count_with(&out, "**"), 0);
    CHECK_INT(count_with(&out, "```"), 0);
    CHECK_INT(count_with(&out, "`"), 0);
    int h = find_line(&out, "Café résumé");
    REQUIRE(h >= 0);
    CHECK_STYLED(&out.v[h], "Café résumé", TX_HEADING);
    int b = find_line(&out, "• Sushi Saitō");
    REQUIRE(b >= 0);
    CHECK_STYLED(&out.v[b], "Sushi Saitō", TX_BOLD);
    CHECK_STYLED(line_at(&out, find_line(&out, "omakase")), "omakase", TX_CODE);
    CHECK_STYLED(line_at(&out, find_line(&out, "open late")), "open late", TX_ITALIC);
    CHECK(find_line(&out, "  1. Numbered") >= 0);
    CHECK_STYLED(line_at(&out, find_line(&out, "code 中文")), "code 中文", TX_CODE);
    CHECK_STYLED(line_at(&out, out.n - 1), "ok — 👍", TX_BOLD);
    free(buf);
    tx_lines_release(&out);
}

/* ---- tx_suql_styles --------------------------------------------------------------- */

/* The style of every byte of the first NEEDLE in Q (styles ST), -1 when
 * they differ, -2 when NEEDLE is not in Q. */
static int span_style(const char *q, const unsigned char *st, const char *needle)
{
    const char *p = strstr(q, needle);
    if (!p) return -2;
    size_t at = (size_t)(p - q), n = strlen(needle);
    for (size_t i = 1; i < n; i++)
        if (st[at + i] != st[at]) return -1;
    return st[at];
}

UTF8_TEST(tui_suql_styles)
{
    unsigned char st[256];
    const char *q = "SELECT name, rating FROM restaurants WHERE answer(reviews, 'it''s good?') = 'Yes' "
                    "AND rating >= 4.5 and col2 = 10 order By name Limit 3";
    int n = (int)strlen(q);
    REQUIRE(n < (int)sizeof st);
    memset(st, 0xEE, sizeof st);
    tx_suql_styles(q, n, st, TX_PLAIN);
    CHECK_INT(st[n], 0xEE);                             /* nothing past N */
    CHECK_INT(span_style(q, st, "SELECT"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "FROM"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "WHERE"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "AND"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "and"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "order"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "By"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "Limit"), TX_KEYWORD);
    CHECK_INT(span_style(q, st, "name,"), TX_PLAIN);
    CHECK_INT(span_style(q, st, "restaurants"), TX_PLAIN);
    CHECK_INT(span_style(q, st, "answer"), TX_FUNC);
    CHECK_INT(span_style(q, st, "(reviews, "), TX_PLAIN);
    CHECK_INT(span_style(q, st, "'it''s good?'"), TX_STRING);
    CHECK_INT(span_style(q, st, ") = "), TX_PLAIN);
    CHECK_INT(span_style(q, st, "'Yes'"), TX_STRING);
    CHECK_INT(span_style(q, st, " >= "), TX_PLAIN);
    CHECK_INT(span_style(q, st, "4.5"), TX_NUMBER);
    CHECK_INT(span_style(q, st, "col2"), TX_PLAIN);     /* digits in a name are the name's */
    CHECK_INT(span_style(q, st, "10"), TX_NUMBER);
    CHECK_INT(st[n - 1], TX_NUMBER);
    CHECK_INT(st[n - 2], TX_PLAIN);

    const char *q2 = "select count (*) from t where x in ('a', 'b') and summary(y) = 'café'";
    n = (int)strlen(q2);
    tx_suql_styles(q2, n, st, TX_DIM);
    CHECK_INT(span_style(q2, st, "select"), TX_KEYWORD);
    CHECK_INT(span_style(q2, st, "count"), TX_FUNC);
    CHECK_INT(span_style(q2, st, " (*) "), TX_DIM);
    CHECK_INT(span_style(q2, st, "in"), TX_KEYWORD);    /* a keyword before "(" stays one */
    CHECK_INT(span_style(q2, st, "'a'"), TX_STRING);
    CHECK_INT(span_style(q2, st, "summary"), TX_FUNC);
    CHECK_INT(span_style(q2, st, "'café'"), TX_STRING);
    CHECK_INT(span_style(q2, st, " t "), TX_DIM);

    const char *q3 = "select 'unterminated where";       /* a string to the end */
    n = (int)strlen(q3);
    tx_suql_styles(q3, n, st, TX_PLAIN);
    CHECK_INT(span_style(q3, st, "'unterminated where"), TX_STRING);

    const char *q4 = "'a''' x selection fromage 'select from'";
    n = (int)strlen(q4);
    tx_suql_styles(q4, n, st, TX_PLAIN);
    CHECK_INT(span_style(q4, st, "'a'''"), TX_STRING);
    CHECK_INT(span_style(q4, st, " x selection fromage "), TX_PLAIN);
    CHECK_INT(span_style(q4, st, "'select from'"), TX_STRING);

    const char *q5 = "''";
    tx_suql_styles(q5, 2, st, TX_PLAIN);
    CHECK_INT(span_style(q5, st, "''"), TX_STRING);
    tx_suql_styles("'", 1, st, TX_PLAIN);
    CHECK_INT(st[0], TX_STRING);
}

/* ---- the conversation ------------------------------------------------------------ */

/* vc_line(i) for every i is each message's lines in turn, the total their
 * sum, and nothing lies outside. */
static void check_conv(const char *file, int line, const vc_conv *v)
{
    long i = 0, sum = 0;
    for (int k = 0; k < v->n; k++) sum += v->m[k]->lines.n;
    if (v->total != sum) th_fail(file, line, "total %ld, the messages hold %ld lines", v->total, sum);
    for (int k = 0; k < v->n; k++)
        for (int j = 0; j < v->m[k]->lines.n; j++, i++)
            if (vc_line(v, i) != &v->m[k]->lines.v[j]) {
                th_fail(file, line, "vc_line(%ld) is not line %d of message %d", i, j, k);
                return;
            }
    if (vc_line(v, -1)) th_fail(file, line, "vc_line(-1) is not NULL");
    if (vc_line(v, v->total)) th_fail(file, line, "vc_line(total) is not NULL");
}
#define CHECK_CONV(v) check_conv(__FILE__, __LINE__, (v))

UTF8_TEST(tui_conv_layout)
{
    vc_conv v;
    vc_init(&v, "bot");
    vc_msg *u1 = vc_add(&v, VC_USER, "hello there");
    vc_msg *a1 = vc_add(&v, VC_AGENT, "Some **bold** reply that is long enough to wrap at a narrow width.");
    vc_msg *n1 = vc_add(&v, VC_NOTE, "saved");
    vc_msg *e1 = vc_add(&v, VC_ERROR, "network down");
    vc_msg *u2 = vc_add(&v, VC_USER, "second question\nwith two lines");
    vc_msg *b1 = vc_add(&v, VC_BLOCK, "col1  col2\nval1  val2\n");
    vc_msg *u3 = vc_add(&v, VC_USER, NULL);
    CHECK_INT(v.n, 7);
    vc_layout(&v, 30);
    CHECK_INT(v.width, 30);
    CHECK_CONV(&v);

    CHECK_LINES(&u1->lines, "› hello there");             /* the first message: no blank line */
    CHECK_STYLED(line_at(&u1->lines, 0), "›", TX_USER_LABEL);
    CHECK_STYLED(line_at(&u1->lines, 0), "hello there", TX_USER);
    CHECK(a1->lines.n >= 2);
    for (int i = 0; i < a1->lines.n; i++) CHECK(!strncmp(a1->lines.v[i].s, "  ", 2));
    CHECK_STYLED(line_at(&a1->lines, 0), "bold", TX_BOLD);
    CHECK_LINES(&n1->lines, "· saved");
    CHECK_STYLED(line_at(&n1->lines, 0), "saved", TX_NOTE);
    CHECK_LINES(&e1->lines, "! network down");
    CHECK_STYLED(line_at(&e1->lines, 0), "! network down", TX_ERROR);
    CHECK_LINES(&u2->lines, "", "› second question", "  with two lines");   /* a blank line opens an exchange */
    CHECK_LINES(&b1->lines, "  col1  col2", "  val1  val2");
    CHECK_LINES(&u3->lines, "", "›");
    for (int k = 0; k < v.n; k++) LINES_OK(&v.m[k]->lines, 0, 30, wide, "conversation at 30");
    CHECK_STR(vc_line(&v, 0)->s, "› hello there");
    CHECK_STR(vc_line(&v, v.total - 1)->s, "›");

    /* A new width re-wraps everything. */
    long at30 = v.total;
    vc_layout(&v, 16);
    CHECK_INT(v.width, 16);
    CHECK(v.total > at30);
    CHECK_CONV(&v);
    for (int k = 0; k < v.n; k++) {
        CHECK_INT(v.m[k]->width, 16);
        LINES_OK(&v.m[k]->lines, 0, 16, wide, "conversation at 16");
    }
    CHECK_LINES(&u2->lines, "", "› second", "  question", "  with two lines");
    vc_layout(&v, 30);
    CHECK_INT(v.total, at30);

    /* A long conversation: both ends of vc_line's walk. */
    for (int i = 0; i < 300; i++) {
        char t[64];
        snprintf(t, sizeof t, "message %d with some words to wrap", i);
        vc_add(&v, (enum vc_role)(i % 5), t);
    }
    vc_layout(&v, 20);
    CHECK_CONV(&v);

    vc_clear(&v);
    CHECK_INT(v.n, 0);
    CHECK_INT(v.total, 0);
    CHECK(vc_line(&v, 0) == NULL);
    vc_msg *again = vc_add(&v, VC_USER, "again");
    vc_layout(&v, 20);
    CHECK_LINES(&again->lines, "› again");
    CHECK_INT(v.total, 1);
    vc_release(&v);
}

/* GOT holds the lines of WANT, bytes and styles. */
static void check_same_lines(const char *file, int line, const tx_lines *got, const tx_lines *want)
{
    if (got->n != want->n) {
        th_fail(file, line, "%d lines, expected %d: %s / %s", got->n, want->n, joined(got), joined(want));
        return;
    }
    for (int i = 0; i < got->n; i++)
        if (got->v[i].len != want->v[i].len || memcmp(got->v[i].s, want->v[i].s, (size_t)got->v[i].len) ||
            memcmp(got->v[i].st, want->v[i].st, (size_t)got->v[i].len)) {
            th_fail(file, line, "line %d is \"%s\", expected \"%s\"", i, got->v[i].s, want->v[i].s);
            return;
        }
}

UTF8_TEST(tui_conv_streams_one_message)
{
    vc_conv v;
    vc_init(&v, NULL);
    vc_msg *u = vc_add(&v, VC_USER, "question");
    vc_msg *a = vc_add(&v, VC_AGENT, "");
    vc_layout(&v, 30);
    CHECK_INT(a->lines.n, 0);
    CHECK_CONV(&v);

    /* Mark the user's cached line: a re-render would undo the mark. */
    REQUIRE(u->lines.n == 1);
    const tx_line *ulines = u->lines.v;
    char *us = u->lines.v[0].s;
    CHECK_STR(us, "› question");
    us[4] = 'Q';

    static const char *const tokens[] = { "Hel", "lo **wor", "ld**, this is ", "a streamed ", "reply 中文 ",
                                          "that wraps.", "\n\n- and", " a list" };
    gn_buf acc;
    gn_buf_init(&acc);
    tx_lines want;
    tx_lines_init(&want);
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        vc_append(&v, a, tokens[i]);
        gn_buf_puts(&acc, tokens[i]);
        CHECK_INT(a->width, -1);                                  /* stale */
        CHECK_INT(u->width, 30);
        vc_layout(&v, 30);
        CHECK(u->lines.v == ulines);
        CHECK(u->lines.v[0].s == us);
        CHECK_STR(u->lines.v[0].s, "› Question");                 /* not re-rendered */
        tx_lines_clear(&want);
        tx_markdown(acc.data, 30, 2, TX_PLAIN, &want);
        check_same_lines(__FILE__, __LINE__, &a->lines, &want);
        CHECK_CONV(&v);
    }
    /* Nothing stale: nothing re-rendered. */
    REQUIRE(a->lines.n >= 1);
    char *as = a->lines.v[0].s;
    as[2] = 'h';
    vc_layout(&v, 30);
    CHECK(a->lines.v[0].s == as && as[2] == 'h');
    CHECK_STR(u->lines.v[0].s, "› Question");

    /* A new width: everything again. */
    vc_layout(&v, 24);
    CHECK_STR(u->lines.v[0].s, "› question");
    CHECK_STR(a->lines.v[0].s, "  Hello world, this is a");
    CHECK_CONV(&v);

    /* Replaced, then interrupted. */
    vc_set(&v, a, "replaced");
    vc_layout(&v, 24);
    CHECK_LINES(&a->lines, "  replaced");
    long before = v.total;
    vc_interrupt(&v, a);
    CHECK_INT(a->interrupted, 1);
    vc_layout(&v, 24);
    CHECK_INT(v.total, before + 1);
    CHECK_LINES(&a->lines, "  replaced", "  [interrupted]");
    CHECK_STYLED(line_at(&a->lines, 1), "[interrupted]", TX_WARN);
    CHECK_STR(vc_line(&v, v.total - 1)->s, "  [interrupted]");
    CHECK_CONV(&v);

    /* An interrupted reply with nothing yet still says so. */
    vc_msg *a2 = vc_add(&v, VC_AGENT, NULL);
    vc_interrupt(&v, a2);
    vc_layout(&v, 24);
    CHECK_LINES(&a2->lines, "  [interrupted]");

    gn_buf_release(&acc);
    tx_lines_release(&want);
    vc_release(&v);
}

/* ---- the worksheet pane ------------------------------------------------------------ */

static const char ws_csv[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,Confirm,Actions,Form Actions\n"
    ",Book_Restaurant,,,worksheet,book_restaurant,,Book a table.,,,,,\n"
    ",,,input,str,restaurant,,name of the restaurant,,TRUE,,,\n"
    ",,,input,date,date,,day of the booking,,TRUE,,,\n"
    ",,,input,time,time,,time of the booking,,TRUE,,,\n"
    ",,,input,int,num_people,,number of people,,TRUE,TRUE,,\n"
    ",,,input,str,special_requests,,notes,TRUE,,,,\n"
    ",,,input,str,occasion,,what it is for,,,,,\n"
    ",,,input,Guest,guest,,who the table is for,,,,,\n"
    ",,,internal,str,internal_note,,kept for the API,,,,,\n"
    ",,,input,confirm,confirm,,the user agrees,,TRUE,,,\n"
    ",Guest,,,worksheet,,,A guest.,,,,,\n"
    ",,,input,str,name,,full name,,TRUE,,,\n"
    ",,,input,str,phone,,phone number,,,,,\n";

static const char ws_state_json[] =
    "{\"turn\":2,\"next_id\":6,\"records\":["
    "{\"id\":1,\"kind\":\"task\",\"var\":\"book\",\"worksheet\":\"Book_Restaurant\",\"parent\":-1,"
    " \"parent_field\":-1,\"done\":false,\"abandoned\":false,\"fields\":{"
    "  \"restaurant\":{\"value\":\"Papa Nino's\",\"set\":true,\"set_turn\":2,\"confirmed\":false},"
    "  \"time\":{\"value\":null,\"set\":false,\"set_turn\":2,\"confirmed\":false,\"why\":\"we are closed then\"},"
    "  \"num_people\":{\"value\":2,\"set\":true,\"set_turn\":1,\"confirmed\":false},"
    "  \"guest\":{\"value\":{\"$record\":2},\"set\":true,\"set_turn\":2,\"confirmed\":false}}},"
    "{\"id\":2,\"kind\":\"task\",\"var\":\"guest_1\",\"worksheet\":\"Guest\",\"parent\":1,\"parent_field\":6,"
    " \"done\":false,\"abandoned\":false,\"fields\":{\"name\":{\"value\":\"Ann Lee\",\"set\":true,\"set_turn\":2}}},"
    "{\"id\":3,\"kind\":\"task\",\"var\":\"book_old\",\"worksheet\":\"Book_Restaurant\",\"parent\":-1,"
    " \"parent_field\":-1,\"done\":true,\"abandoned\":false,\"api_result\":{\"transaction_id\":\"7QH2K9X1LB\"},"
    " \"fields\":{\"restaurant\":{\"value\":\"Luna\",\"set\":true},\"date\":{\"value\":\"2024-05-01\",\"set\":true},"
    "  \"time\":{\"value\":\"19:00\",\"set\":true},\"num_people\":{\"value\":4,\"set\":true,\"confirmed\":true},"
    "  \"confirm\":{\"value\":true,\"set\":true,\"confirmed\":true}}},"
    "{\"id\":4,\"kind\":\"kb\",\"var\":\"answer_1\",\"question\":\"romantic italian in palo alto\","
    " \"result\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}],\"ran\":true,\"target\":-1,\"target_field\":-1},"
    "{\"id\":5,\"kind\":\"kb\",\"var\":\"answer_2\",\"question\":\"vegan options\",\"error\":\"no such column\",\"ran\":true}"
    "],"
    "\"changes\":[{\"var\":\"answer_1\",\"what\":\"added\"},"
    " {\"var\":\"book\",\"what\":\"field\",\"field\":\"restaurant\",\"old\":null,\"new\":\"Papa Nino's\"},"
    " {\"var\":\"book\",\"what\":\"field\",\"field\":\"guest\",\"old\":null,\"new\":{\"$record\":2}},"
    " {\"var\":\"guest_1\",\"what\":\"field\",\"field\":\"name\",\"old\":null,\"new\":\"Ann Lee\"},"
    " {\"var\":\"book\",\"what\":\"field\",\"field\":\"occasionally\",\"old\":\"x\",\"new\":\"y\"},"
    " {\"var\":\"book_old\",\"what\":\"done\"}]}";

static ws_spec *ws_load(void)
{
    ws_spec *s = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ws_spec_parse_csv("tui.csv", ws_csv, strlen(ws_csv), &s, &e)) {
        char buf[1200];
        th_fail(__FILE__, __LINE__, "spec: %s", gn_err_str(&e, buf, sizeof buf));
        return NULL;
    }
    return s;
}

UTF8_TEST(tui_ws_render_state)
{
    ws_spec *spec = ws_load();
    REQUIRE(spec);
    cJSON *state = cJSON_Parse(ws_state_json);
    REQUIRE(state);
    tx_lines out;
    tx_lines_init(&out);
    vw_render(spec, state, 60, &out);
    LINES_OK(&out, 0, 60, wide, "worksheet at 60");

    /* The open task, its fields in the spec's order. */
    int h = find_line(&out, "Book_Restaurant book");
    REQUIRE(h >= 0);
    CHECK_STR(line_s(&out, h), " Book_Restaurant book");
    CHECK_STYLED(line_at(&out, h), "Book_Restaurant", TX_HEADING);
    CHECK_STYLED(line_at(&out, h), "book", TX_DIM);
    CHECK_STR(line_s(&out, h + 1), "  *restaurant   Papa Nino's");             /* changed this turn */
    CHECK_STYLED(line_at(&out, h + 1), "*", TX_CHANGED);
    CHECK_STYLED(line_at(&out, h + 1), "restaurant", TX_FIELD);
    CHECK_STYLED(line_at(&out, h + 1), "Papa Nino's", TX_CHANGED);
    CHECK_STR(line_s(&out, h + 2), "   date         ? required");              /* never mentioned */
    CHECK_STYLED(line_at(&out, h + 2), "? required", TX_MISSING);
    CHECK_STR(line_s(&out, h + 3), "   time         ? required  ✗ we are closed then");
    CHECK_STYLED(line_at(&out, h + 3), "? required", TX_MISSING);
    CHECK_STYLED(line_at(&out, h + 3), "✗ we are closed then", TX_ERROR);
    CHECK_STR(line_s(&out, h + 4), "   num_people   2 (to confirm)");
    CHECK_STYLED(line_at(&out, h + 4), "2", TX_PLAIN);
    CHECK_STYLED(line_at(&out, h + 4), "(to confirm)", TX_CONFIRM);
    CHECK_STR(line_s(&out, h + 5), "   occasion     -");                      /* optional, unset;
                                                                                  * "occasionally" is not it */
    CHECK_STYLED(line_at(&out, h + 5), "-", TX_DIM);
    /* The nested record under its field. */
    CHECK_STR(line_s(&out, h + 6), "  *guest        guest_1");
    CHECK_STYLED(line_at(&out, h + 6), "guest_1", TX_CHANGED);
    CHECK_STR(line_s(&out, h + 7), "     Guest guest_1");
    CHECK_STYLED(line_at(&out, h + 7), "Guest", TX_HEADING);
    CHECK_STR(line_s(&out, h + 8), "      *name         Ann Lee");
    CHECK_STR(line_s(&out, h + 9), "       phone        -");
    CHECK_STR(line_s(&out, h + 10), "   confirm      ? awaiting confirmation");
    CHECK_STYLED(line_at(&out, h + 10), "? awaiting confirmation", TX_MISSING);
    CHECK_INT(count_with(&out, "Guest guest_1"), 1);                           /* not again at the top */
    CHECK_INT(count_with(&out, "special_requests"), 0);                        /* don't ask, unset */
    CHECK_INT(count_with(&out, "internal_note"), 0);                           /* internal, unset */

    /* The finished task and its result. */
    int d = find_line(&out, "Book_Restaurant book_old");
    REQUIRE(d > h);
    CHECK_STR(line_s(&out, d), " Book_Restaurant book_old  ✓ done");
    CHECK_STYLED(line_at(&out, d), "✓ done", TX_DONE);
    CHECK_STR(line_s(&out, d + 1), "   restaurant   Luna");                   /* another var: not changed */
    CHECK_STR(line_s(&out, d + 4), "   num_people   4");                      /* confirmed */
    CHECK_STR(line_s(&out, d + 6), "   guest        -");
    CHECK_STR(line_s(&out, d + 7), "   confirm      true");
    int r = find_from(&out, "transaction_id", d);
    REQUIRE(r > d);
    CHECK_STR(line_s(&out, r), "   → transaction_id: 7QH2K9X1LB");
    CHECK_STYLED(line_at(&out, r), "transaction_id", TX_FIELD);
    CHECK_STYLED(line_at(&out, r), "7QH2K9X1LB", TX_DONE);

    /* Knowledge records: question and count, or the error. */
    int k = find_line(&out, "answer_1");
    REQUIRE(k > r);
    CHECK_STR(line_s(&out, k), "*? answer_1 \"romantic italian in palo alto\"  3 rows");
    CHECK_STYLED(line_at(&out, k), "*", TX_CHANGED);
    CHECK_STYLED(line_at(&out, k), "\"romantic italian in palo alto\"", TX_STRING);
    CHECK_STYLED(line_at(&out, k), "3 rows", TX_DONE);
    CHECK_STR(line_s(&out, k + 1), " ? answer_2 \"vegan options\"  ✗ no such column");
    CHECK_STYLED(line_at(&out, k + 1), "✗ no such column", TX_ERROR);
    CHECK_INT(out.n, k + 2);

    /* Narrow: wrapped, never past the edge. */
    tx_lines_clear(&out);
    vw_render(spec, state, 24, &out);
    LINES_OK(&out, 0, 24, wide, "worksheet at 24");
    CHECK(out.n > k + 2);

    cJSON_Delete(state);
    tx_lines_release(&out);
    ws_spec_free(spec);
}

UTF8_TEST(tui_ws_render_small_states)
{
    ws_spec *spec = ws_load();
    REQUIRE(spec);
    tx_lines out;
    tx_lines_init(&out);

    vw_render(spec, NULL, 40, &out);
    CHECK_LINES(&out, " no task or question yet");
    CHECK_STYLED(line_at(&out, 0), "no task or question yet", TX_DIM);

    cJSON *st = cJSON_Parse("{\"records\":[]}");
    tx_lines_clear(&out);
    vw_render(spec, st, 40, &out);
    CHECK_LINES(&out, " no task or question yet");
    cJSON_Delete(st);

    /* A record added this turn; one abandoned; one row; a query not run. */
    st = cJSON_Parse("{\"records\":["
                     "{\"id\":1,\"kind\":\"task\",\"var\":\"g\",\"worksheet\":\"Guest\",\"parent\":-1,"
                     " \"done\":false,\"abandoned\":false,\"fields\":{}},"
                     "{\"id\":2,\"kind\":\"task\",\"var\":\"h\",\"worksheet\":\"Guest\",\"parent\":-1,"
                     " \"done\":false,\"abandoned\":true,\"fields\":{\"name\":{\"value\":\"Bo\",\"set\":true}}},"
                     "{\"id\":3,\"kind\":\"kb\",\"var\":\"answer_1\",\"question\":\"q\",\"result\":[1],\"ran\":true},"
                     "{\"id\":4,\"kind\":\"kb\",\"var\":\"answer_2\",\"question\":\"r\",\"ran\":false},"
                     "{\"id\":5,\"kind\":\"kb\",\"var\":\"answer_3\",\"question\":\"s\",\"missing\":\"city\"}],"
                     "\"changes\":[{\"var\":\"g\",\"what\":\"added\"},"
                     "{\"var\":\"g\",\"what\":\"field\",\"field\":\"name\",\"old\":\"x\",\"new\":\"y\"}]}");
    REQUIRE(st);
    tx_lines_clear(&out);
    vw_render(spec, st, 40, &out);
    CHECK_LINES(&out, "*Guest g", "  *name         ? required", "   phone        -",
                " Guest h  abandoned", "   name         Bo", "   phone        -",
                " ? answer_1 \"q\"  1 row", " ? answer_2 \"r\"  not run", " ? answer_3 \"s\"  needs city");
    CHECK_STYLED(line_at(&out, 0), "*", TX_CHANGED);
    CHECK_STYLED(line_at(&out, 3), "abandoned", TX_DIM);
    CHECK_STYLED(line_at(&out, 8), "needs city", TX_MISSING);
    int first, last;
    tx_lines_clear(&out);
    vw_render_focus(spec, st, 40, &out, &first, &last);
    CHECK_INT(first, 0);                       /* the record the turn changed */
    CHECK_INT(last, 2);
    cJSON_Delete(st);

    /* Nothing changed this turn: the newest open task, after the questions
     * that came before it. */
    st = cJSON_Parse("{\"records\":["
                     "{\"id\":1,\"kind\":\"kb\",\"var\":\"answer_1\",\"question\":\"q\",\"result\":[1],\"ran\":true},"
                     "{\"id\":2,\"kind\":\"task\",\"var\":\"g\",\"worksheet\":\"Guest\",\"parent\":-1,"
                     " \"done\":true,\"abandoned\":false,\"fields\":{}},"
                     "{\"id\":3,\"kind\":\"task\",\"var\":\"h\",\"worksheet\":\"Guest\",\"parent\":-1,"
                     " \"done\":false,\"abandoned\":false,\"fields\":{}},"
                     "{\"id\":4,\"kind\":\"kb\",\"var\":\"answer_2\",\"question\":\"r\",\"ran\":false}],"
                     "\"changes\":[]}");
    REQUIRE(st);
    tx_lines_clear(&out);
    vw_render_focus(spec, st, 40, &out, &first, &last);
    CHECK_INT(first, 4);
    CHECK_INT(last, 6);
    CHECK_CONTAINS(line_s(&out, first), "Guest h");
    cJSON_Delete(st);

    /* A question typed on two lines reads as one, with a space. */
    st = cJSON_Parse("{\"records\":[{\"id\":1,\"kind\":\"kb\",\"var\":\"answer_1\","
                     "\"question\":\"SELECT name FROM t\\nWHERE x > 1\",\"ran\":false}],\"changes\":[]}");
    REQUIRE(st);
    tx_lines_clear(&out);
    vw_render(spec, st, 80, &out);
    CHECK_LINES(&out, " ? answer_1 \"SELECT name FROM t WHERE x > 1\"  not run");
    cJSON_Delete(st);

    /* Nothing open, nothing changed: no focus. */
    st = cJSON_Parse("{\"records\":[{\"id\":1,\"kind\":\"kb\",\"var\":\"answer_1\",\"question\":\"q\","
                     "\"ran\":false}],\"changes\":[]}");
    tx_lines_clear(&out);
    vw_render_focus(spec, st, 40, &out, &first, &last);
    CHECK_INT(first, -1);
    cJSON_Delete(st);

    tx_lines_release(&out);
    ws_spec_free(spec);
}

/* ---- the SUQL pane ------------------------------------------------------------------- */

static void vq_add_json(vq_list *q, int turn, const char *suql, const char *data, const char *error)
{
    cJSON *d = data ? cJSON_Parse(data) : NULL;
    vq_add(q, turn, suql, d, error);
    cJSON_Delete(d);
}

static void vq_result_json(vq_list *q, const char *data)
{
    cJSON *d = cJSON_Parse(data);
    vq_result(q, d);
    cJSON_Delete(d);
}

UTF8_TEST(tui_suql_list)
{
    static const char suql[] =
        "SELECT name FROM restaurants WHERE answer(reviews, 'is it romantic?') = 'Yes' LIMIT 3";
    vq_list q;
    vq_init(&q);
    q.hide_times = 1;
    tx_lines out;
    tx_lines_init(&out);

    vq_render(&q, 40, &out);
    CHECK_LINES(&out, " no query yet");

    vq_add_json(&q, 2, suql, "{\"question\":\"romantic italian places\",\"attempt\":1}", NULL);
    CHECK_INT(q.n, 1);
    CHECK_INT(q.v[0].done, 0);
    tx_lines_clear(&out);
    vq_render(&q, 100, &out);
    CHECK_LINES(&out, "── turn 2 · \"romantic italian places\"", suql, "  → running…");

    vq_result_json(&q, "{\"count\":3,\"ms\":41,\"rows\":[],"
                       "\"plan\":{\"candidates\":12,\"verified\":5,\"llm_calls\":5,\"cache_hits\":2}}");
    CHECK_INT(q.v[0].done, 1);
    tx_lines_clear(&out);
    vq_render(&q, 100, &out);
    CHECK_LINES(&out, "── turn 2 · \"romantic italian places\"", suql,
                "  → 3 rows · 12 candidates, 5 verified · 5 LLM calls, 2 from the cache");
    CHECK_STYLED(line_at(&out, 0), "── turn 2", TX_DIM);
    CHECK_STYLED(line_at(&out, 1), "SELECT", TX_KEYWORD);
    CHECK_STYLED(line_at(&out, 1), "answer", TX_FUNC);
    CHECK_STYLED(line_at(&out, 1), "'Yes'", TX_STRING);
    CHECK_STYLED(line_at(&out, 1), "3", TX_NUMBER);
    CHECK_STYLED(line_at(&out, 2), "→ 3 rows", TX_DONE);
    CHECK_INT(count_with(&out, "ms"), 0);

    q.hide_times = 0;
    tx_lines_clear(&out);
    vq_render(&q, 100, &out);
    CHECK_STR(line_s(&out, 2), "  → 3 rows · 12 candidates, 5 verified · 5 LLM calls, 2 from the cache · 41 ms");
    q.hide_times = 1;

    /* The retry, with one row and one call. */
    vq_add_json(&q, 2, "SELECT name FROM restaurants LIMIT 1",
                "{\"question\":\"romantic italian places\",\"attempt\":2}", NULL);
    vq_result_json(&q, "{\"count\":1,\"ms\":3,\"plan\":{\"llm_calls\":1,\"cache_hits\":0}}");
    /* A failure. */
    vq_add_json(&q, 3, "SELECT foo FROM restaurants", "{\"question\":\"foo?\",\"attempt\":1}", NULL);
    vq_result_json(&q, "{\"count\":0,\"error\":\"no such column: foo\"}");
    /* Not run at all. */
    vq_add_json(&q, 4, "SELECT * FROM restaurants WHERE location = :city", "{\"question\":\"near me\"}",
                "a required parameter is missing");
    CHECK_INT(q.v[q.n - 1].done, 1);
    /* The budget ran out, with a note; a question that is the query. */
    vq_add_json(&q, 5, "SELECT 2", "{\"question\":\"budget\"}", NULL);
    vq_result_json(&q, "{\"count\":0,\"note\":\"no result; tried again\","
                       "\"plan\":{\"candidates\":40,\"verified\":0,\"budget_hit\":true}}");
    vq_add_json(&q, 6, "SELECT 1", "{\"question\":\"SELECT 1\"}", NULL);
    vq_result_json(&q, "{\"count\":1}");

    tx_lines_clear(&out);
    vq_render(&q, 100, &out);
    LINES_OK(&out, 0, 100, wide, "SUQL pane");
    int t2 = find_line(&out, "turn 2 · retry");
    REQUIRE(t2 >= 3);
    CHECK_STR(line_s(&out, t2), "── turn 2 · retry · \"romantic italian places\"");
    CHECK_STR(line_s(&out, t2 + 2), "  → 1 row · 1 LLM call");
    int t3 = find_line(&out, "turn 3");
    REQUIRE(t3 > t2);
    CHECK_STR(line_s(&out, t3 + 2), "  ✗ no such column: foo");
    CHECK_STYLED(line_at(&out, t3 + 2), "✗ no such column: foo", TX_ERROR);
    int t4 = find_line(&out, "turn 4");
    REQUIRE(t4 > t3);
    CHECK_STR(line_s(&out, t4), "── turn 4 · \"near me\"");
    CHECK_STR(line_s(&out, t4 + 2), "  ✗ a required parameter is missing");
    int t5 = find_line(&out, "turn 5");
    REQUIRE(t5 > t4);
    CHECK_STR(line_s(&out, t5 + 2), "  → 0 rows · 40 candidates, 0 verified · budget reached");
    CHECK_STR(line_s(&out, t5 + 3), "  no result; tried again");
    CHECK_STYLED(line_at(&out, t5 + 3), "no result; tried again", TX_WARN);
    int t6 = find_line(&out, "turn 6");
    REQUIRE(t6 > t5);
    CHECK_STR(line_s(&out, t6), "── turn 6");
    CHECK_STR(line_s(&out, t6 + 2), "  → 1 row");
    /* A note that names the budget says it once. */
    vq_add_json(&q, 7, "SELECT 3", "{\"question\":\"budget again\"}", NULL);
    vq_result_json(&q, "{\"count\":0,\"note\":\"the free-text budget of 40 evaluations ran out\","
                       "\"plan\":{\"candidates\":40,\"verified\":40,\"budget_hit\":true}}");
    tx_lines_clear(&out);
    vq_render(&q, 100, &out);
    int t7 = find_line(&out, "turn 7");
    REQUIRE(t7 > 0);
    CHECK_STR(line_s(&out, t7 + 2), "  → 0 rows · 40 candidates, 40 verified");
    CHECK_STR(line_s(&out, t7 + 3), "  the free-text budget of 40 evaluations ran out");
    CHECK_INT(out.n, t7 + 4);
    CHECK_INT(count_with(&out, "running"), 0);
    CHECK_INT(count_with(&out, "retry"), 1);

    /* Narrow: everything wraps within the pane. */
    tx_lines_clear(&out);
    vq_render(&q, 30, &out);
    LINES_OK(&out, 0, 30, wide, "SUQL pane at 30");

    vq_clear(&q);
    CHECK_INT(q.n, 0);
    vq_result_json(&q, "{\"count\":1}");                  /* no query: ignored */
    CHECK_INT(q.n, 0);
    vq_release(&q);
    tx_lines_release(&out);
}

/* ---- the worker ------------------------------------------------------------------------ */

static void post(tw_worker *w, enum ag_ev_kind kind, const char *stage, const char *text, const char *error,
                 const cJSON *data)
{
    ag_event ev = { .kind = kind, .stage = stage, .text = text, .error = error, .data = data };
    tw_post_event(&ev, w);
}

/* Readable within MS milliseconds. */
static int readable(int fd, int ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int r;
    do r = poll(&p, 1, ms);
    while (r < 0 && errno == EINTR);
    return r > 0 && (p.revents & POLLIN);
}

/* Take messages until a TW_DONE (at most 5 s for each wake-up), in order,
 * into OUT (at most MAX, the rest freed; the caller frees them).  tw_busy
 * must stay 1 until the TW_DONE is taken and be 0 after.  The count. */
static int collect(tw_worker *w, tw_msg **out, int max)
{
    int n = 0, done = 0;
    while (!done) {
        if (!readable(tw_fd(w), 5000)) {
            th_fail(__FILE__, __LINE__, "no message within 5 s");
            break;
        }
        if (!tw_busy(w)) th_fail(__FILE__, __LINE__, "tw_busy is 0 before the TW_DONE is taken");
        for (tw_msg *m = tw_take(w), *next; m; m = next) {
            next = m->next;
            m->next = NULL;
            if (done) th_fail(__FILE__, __LINE__, "a message (kind %d) after TW_DONE", m->kind);
            if (m->kind == TW_DONE) done = 1;
            if (n < max) out[n++] = m;
            else tw_msg_free(m);
        }
        if (!done && !tw_busy(w)) th_fail(__FILE__, __LINE__, "tw_busy is 0 with the job running");
    }
    if (done && tw_busy(w)) th_fail(__FILE__, __LINE__, "tw_busy is 1 after the TW_DONE was taken");
    return n;
}

static void *helper_main(void *ud)
{
    tw_worker *w = ud;
    post(w, AG_EV_TOKEN, "respond", "from the helper, ", NULL, NULL);
    post(w, AG_EV_TOKEN, "respond", "still the helper", NULL, NULL);
    return NULL;
}

static int events_job(tw_worker *w, void *arg)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", "first token");
    post(w, AG_EV_TOKEN, "respond", buf, NULL, NULL);
    snprintf(buf, sizeof buf, "%s", "overwritten");            /* the message has its copy */
    cJSON *d = cJSON_Parse("{\"question\":\"cheap sushi\",\"attempt\":2}");
    post(w, AG_EV_SUQL, NULL, "SELECT 1", NULL, d);
    cJSON_Delete(d);                                            /* and of the data */
    pthread_t t;
    if (pthread_create(&t, NULL, helper_main, w) == 0) pthread_join(t, NULL);
    post(w, AG_EV_ERROR, "respond", NULL, "boom", NULL);
    return *(int *)arg;
}

TEST(tui_worker_events_in_order)
{
    tw_worker *w = tw_new();
    REQUIRE(w);
    CHECK(tw_fd(w) >= 0);
    CHECK_INT(tw_busy(w), 0);
    CHECK(tw_take(w) == NULL);
    CHECK(!readable(tw_fd(w), 0));

    for (int round = 0; round < 2; round++) {
        int status = 42 + round;
        CHECK_INT(tw_submit(w, events_job, &status), 0);
        CHECK_INT(tw_busy(w), 1);
        tw_msg *m[16];
        int n = collect(w, m, 16);
        CHECK_INT(n, 6);
        if (n == 6) {
            CHECK_INT(m[0]->kind, AG_EV_TOKEN);
            CHECK_STR(m[0]->stage, "respond");
            CHECK_STR(m[0]->text, "first token");
            CHECK(m[0]->error == NULL && m[0]->data == NULL);
            CHECK_INT(m[1]->kind, AG_EV_SUQL);
            CHECK(m[1]->stage == NULL);
            CHECK_STR(m[1]->text, "SELECT 1");
            CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m[1]->data, "question")), "cheap sushi");
            CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m[1]->data, "attempt")), 2);
            CHECK_INT(m[2]->kind, AG_EV_TOKEN);
            CHECK_STR(m[2]->text, "from the helper, ");
            CHECK_INT(m[3]->kind, AG_EV_TOKEN);
            CHECK_STR(m[3]->text, "still the helper");
            CHECK_INT(m[4]->kind, AG_EV_ERROR);
            CHECK_STR(m[4]->stage, "respond");
            CHECK_STR(m[4]->error, "boom");
            CHECK(m[4]->text == NULL);
            CHECK_INT(m[5]->kind, TW_DONE);
            CHECK_INT(m[5]->status, 42 + round);
            CHECK(m[5]->arg == &status);
        }
        for (int i = 0; i < n; i++) tw_msg_free(m[i]);
        CHECK_INT(tw_busy(w), 0);
        CHECK(tw_take(w) == NULL);
        CHECK(!readable(tw_fd(w), 0));
    }
    tw_msg_free(NULL);
    tw_free(w);
    tw_free(NULL);
}

/* A job that posts "started", then waits until the test opens the gate. */
typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int open, finished;
} gate;

static void gate_open(gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->open = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static int gate_job(tw_worker *w, void *arg)
{
    gate *g = arg;
    post(w, AG_EV_STAGE, "started", NULL, NULL, NULL);
    pthread_mutex_lock(&g->mu);
    while (!g->open) pthread_cond_wait(&g->cv, &g->mu);
    g->finished = 1;
    pthread_mutex_unlock(&g->mu);
    return 7;
}

static int other_ran;

static int other_job(tw_worker *w, void *arg)
{
    (void)w;
    (void)arg;
    other_ran = 1;
    return 0;
}

static void *open_later(void *ud)
{
    struct timespec ts = { 0, 50 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    gate_open(ud);
    return NULL;
}

TEST(tui_worker_busy_and_free)
{
    gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
    tw_worker *w = tw_new();
    REQUIRE(w);
    other_ran = 0;
    CHECK_INT(tw_submit(w, gate_job, &g), 0);
    CHECK_INT(tw_busy(w), 1);
    CHECK_INT(tw_submit(w, other_job, NULL), -1);          /* one job at a time */

    /* The job's first event; the job still running. */
    CHECK(readable(tw_fd(w), 5000));
    tw_msg *m = tw_take(w);
    CHECK(m && m->kind == AG_EV_STAGE && m->next == NULL);
    if (m) CHECK_STR(m->stage, "started");
    while (m) {
        tw_msg *next = m->next;
        tw_msg_free(m);
        m = next;
    }
    CHECK_INT(tw_busy(w), 1);
    CHECK_INT(tw_submit(w, other_job, NULL), -1);

    /* Finished, its TW_DONE waiting: still busy until it is taken. */
    gate_open(&g);
    CHECK(readable(tw_fd(w), 5000));
    CHECK_INT(tw_busy(w), 1);
    CHECK_INT(tw_submit(w, other_job, NULL), -1);
    m = tw_take(w);
    CHECK(m && m->kind == TW_DONE && m->status == 7 && m->arg == &g && m->next == NULL);
    while (m) {
        tw_msg *next = m->next;
        tw_msg_free(m);
        m = next;
    }
    CHECK_INT(tw_busy(w), 0);
    CHECK_INT(g.finished, 1);

    /* tw_free waits for a running job and drops the messages not taken. */
    gate g2 = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
    CHECK_INT(tw_submit(w, gate_job, &g2), 0);
    int started = readable(tw_fd(w), 5000);
    CHECK(started);
    pthread_t t;
    int opener = pthread_create(&t, NULL, open_later, &g2) == 0;
    if (!opener) gate_open(&g2);
    tw_free(w);
    if (opener) pthread_join(t, NULL);
    if (started) CHECK_INT(g2.finished, 1);
    CHECK_INT(other_ran, 0);
}

/* ---- the plan as a tree (plantree.c) ---------------------------------------------- */

TEST(tui_plan_tree)
{
    static const char plan[] =
        "query:  SELECT 1\n"
        "mode:   plain (no free text in WHERE): the query runs in SQLite\n"
        "        rows chosen first\n"
        "where, in disjunctive normal form:\n"
        "  [1] a = 1\n"
        "  [2] b = 2\n"
        "conjunct 1:\n"
        "    structured: SELECT _id\n"
        "    candidates: 5 rows now\n"
        "conjunct 2:\n"
        "    structured: SELECT _id 2\n"
        "final:  the rows that pass\n";
    gn_buf b;
    gn_buf_init(&b);
    pt_render(plan, NULL, 1, &b);
    CHECK_STR(b.data,
              "query:  SELECT 1\n"
              "|- mode:   plain (no free text in WHERE): the query runs in SQLite rows chosen first\n"
              "|- where, in disjunctive normal form:\n"
              "|  |- [1] a = 1\n"
              "|  `- [2] b = 2\n"
              "|- conjunct 1:\n"
              "|  |- structured: SELECT _id\n"
              "|  `- candidates: 5 rows now\n"
              "|- conjunct 2:\n"
              "|  `- structured: SELECT _id 2\n"
              "`- final:  the rows that pass\n");
    /* A run's counts on its steps' nodes; box lines when not ASCII. */
    suql_run_stats st;
    memset(&st, 0, sizeof st);
    st.rows = 1;
    st.nsteps = 2;
    st.steps[0] = (suql_step_stats){ .conjunct = 2, .candidates = 9, .checked = 4, .passed = 1,
                                     .evaluations = 4, .llm_calls = 1 };
    gn_buf_reset(&b);
    pt_render(plan, &st, 0, &b);
    CHECK_CONTAINS(b.data, "\xe2\x94\x9c\xe2\x94\x80 conjunct 2:  [9 candidates, 4 checked, 1 passed; "
                           "4 evaluations, 1 LLM call]\n\xe2\x94\x82  \xe2\x94\x94\xe2\x94\x80 structured");
    CHECK_CONTAINS(b.data, "\xe2\x94\x94\xe2\x94\x80 final:  the rows that pass  [1 row]\n");
    CHECK(!strstr(b.data, "conjunct 1:  ["));       /* no step for it: no counts */
    /* Empty, and lines past the node limit, cost nothing. */
    gn_buf_reset(&b);
    pt_render("", NULL, 1, &b);
    CHECK_INT(b.len, 0);
    gn_buf_release(&b);
}

/* /copy code finds the blocks the screen frames: an indented fence, ~~~
 * closed by ~~~ only, and not ```x``` written inline. */
TEST(tui_code_blocks_as_framed)
{
    gn_buf b;
    gn_buf_init(&b);
    const char *t = "intro ```inline``` text\n- item:\n    ```sh\n    ls -l\n    ```\n~~~\na ``` b\n~~~\n";
    CHECK_INT(vc_code(t, 0, NULL), 2);
    CHECK_INT(vc_code(t, 1, &b), 2);
    CHECK_STR(b.data, "    ls -l\n");
    gn_buf_reset(&b);
    vc_code(t, 2, &b);
    CHECK_STR(b.data, "a ``` b\n");
    gn_buf_release(&b);
    /* The screen frames the same two. */
    tx_lines out;
    tx_lines_init(&out);
    tx_markdown(t, 40, 2, TX_PLAIN, &out);
    int frames = 0;
    for (int i = 0; i < out.n; i++) frames += strstr(out.v[i].s, "\xe2\x94\x8c\xe2\x94\x80") != NULL;
    CHECK_INT(frames, 2);
    tx_lines_release(&out);
}
