/*
 * text.h — text as the screen shows it: UTF-8 display widths, word
 * wrapping, light Markdown and SUQL highlighting, into styled lines.
 *
 * No curses here (the unit tests use it directly): a styled line is its
 * UTF-8 bytes and one style byte per byte; draw.c maps styles to the
 * theme's attributes.  Wrapping never splits a character, counts wide
 * characters (CJK, emoji) as two columns and zero-width ones as none, and
 * breaks at spaces, or inside a word longer than the line.
 */
#ifndef GENIE_TUI_TEXT_H
#define GENIE_TUI_TEXT_H

#include <stddef.h>

/* Styles, mapped to colours and attributes by the theme (draw.c). */
enum tx_style {
    TX_PLAIN, TX_BOLD, TX_ITALIC, TX_CODE, TX_HEADING, TX_DIM,
    TX_USER, TX_USER_LABEL, TX_AGENT_LABEL, TX_NOTE, TX_ERROR, TX_WARN,
    TX_KEYWORD, TX_STRING, TX_NUMBER, TX_FUNC,          /* SUQL */
    TX_CHANGED, TX_MISSING, TX_CONFIRM, TX_DONE, TX_FIELD,  /* worksheet */
    TX__COUNT
};

typedef struct tx_line {
    char *s;                  /* UTF-8, no newline, NUL-terminated */
    unsigned char *st;        /* a style per byte */
    int len;                  /* bytes */
    int width;                /* display columns */
} tx_line;

typedef struct tx_lines {
    tx_line *v;
    int n, cap;
} tx_lines;

void tx_lines_init(tx_lines *l);
void tx_lines_release(tx_lines *l);
/* Drop every line, keeping the storage. */
void tx_lines_clear(tx_lines *l);
/* Append a line of N bytes of S, all in STYLE or with the styles ST (may
 * be NULL). */
void tx_lines_add(tx_lines *l, const char *s, const unsigned char *st, int n, int style);

/* Decode one UTF-8 character at S (N > 0 bytes left): its length in
 * bytes; *CP gets the code point (U+FFFD for a malformed sequence, which
 * counts one byte). */
int tx_decode(const char *s, int n, unsigned *cp);
/* The display columns of code point CP: 0, 1 or 2 (control characters 0,
 * unprintable ones 1, as the screen shows them as a replacement; the
 * joiners of tx_drawn 0). */
int tx_cpwidth(unsigned cp);
/* Does the screen send CP to the terminal?  Not control characters, and
 * not what joins emoji into one glyph on some terminals and not on others
 * (the zero-width joiner U+200D, the variation selectors U+FE0E and
 * U+FE0F, the skin-tone modifiers U+1F3FB..U+1F3FF): a family emoji
 * (man, ZWJ, woman, ZWJ, girl) is then drawn as its three people, six
 * columns on every terminal, as it is measured, instead of one 2-column
 * glyph on tmux and six on xterm, so no line runs into the next pane. */
int tx_drawn(unsigned cp);
/* ASCII drawing, for a locale that cannot show UTF-8: on, every code
 * point past ASCII is measured and drawn as tx_ascii_for's text. */
void tx_set_ascii(int on);
int tx_ascii(void);
/* The ASCII stand-in of CP: NULL for ASCII itself, an accent stripped
 * ("e" for U+00E9), a dash, quote, arrow, bullet or box line as its
 * nearest ASCII ("--", "'", "->", "*", "|"), else "?". */
const char *tx_ascii_for(unsigned cp);
/* The display columns of the N bytes of S. */
int tx_width(const char *s, int n);
/* The number of bytes of S (N bytes) that fit in COLS columns. */
int tx_fit(const char *s, int n, int cols);

/* Word-wrap the styled paragraph S/ST (N bytes, no newline) into OUT at
 * WIDTH columns: the first line starts with FIRST (may be ""), the others
 * with REST, both in PSTYLE (their widths count).  An empty paragraph
 * gives one line holding the prefix. */
void tx_wrap(const char *s, const unsigned char *st, int n, int width, const char *first,
             const char *rest, int pstyle, tx_lines *out);

/* Render TEXT (light Markdown) into OUT at WIDTH columns, every line
 * starting with INDENT spaces: paragraphs, "- "/"* "/"1. " list items with
 * hanging indents, "#" headings, fenced code blocks (not wrapped but cut),
 * **bold**, __bold__, *italic*, `code`.  Markup left open (a stream that
 * stopped mid-markup) styles to the end of its paragraph; its markers are
 * never shown.  BASE is the style of plain text. */
void tx_markdown(const char *text, int width, int indent, int base, tx_lines *out);

/* Is the line S (N bytes) a code fence: after any spaces, three or more
 * backticks or tildes, and no three of them again on the line (```x```
 * is inline code)?  Its character, or 0.  A block closes at a fence of
 * the character that opened it. */
int tx_fence(const char *s, int n);

/* Is the line S (N bytes) a row of a Markdown table ("| a | b |", after
 * spaces)?  tx_markdown aligns a table: its rows, the second a rule
 * ("|---|--:|"), padded to each column's widest cell, the header bold;
 * one wider than the pane stays text. */
int tx_table_row(const char *s, int n);

/* Fill ST[0..N) with the SUQL styles of Q: keywords, strings, numbers,
 * answer()/summary() and other functions; the rest BASE. */
void tx_suql_styles(const char *q, int n, unsigned char *st, int base);

/* Render the N-byte text S, whose lines are separated by newlines, into
 * OUT at WIDTH columns: each line word-wrapped with INDENT spaces before
 * it and its continuation lines, styles from ST (NULL: all STYLE). */
void tx_plain(const char *s, const unsigned char *st, int n, int width, int indent, int style,
              tx_lines *out);

#endif
