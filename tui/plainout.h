/*
 * plainout.h — the agent's reply in line mode (--plain): streamed a line
 * at a time, light Markdown rendered, untrusted bytes made inert.
 *
 * No curses: on a terminal with colours, **bold** and headings are bold
 * and *italic* italic (SGR); otherwise the markers are dropped and the
 * text printed plain; list markers stay as written; a Markdown table is
 * held until its last row and printed aligned.  Control
 * characters (ESC, BEL, C1) and bidirectional overrides from the model's
 * text are printed as U+FFFD, so a reply cannot drive the terminal.
 */
#ifndef GENIE_TUI_PLAINOUT_H
#define GENIE_TUI_PLAINOUT_H

#include "util/buf.h"

#include <stdio.h>

typedef struct plain_out {
    FILE *f;
    int ansi;                 /* SGR styles */
    int fence;                /* inside a block: its fence's character */
    gn_buf line;              /* the unfinished line */
    gn_buf table;             /* the rows of a Markdown table so far: held
                                 until it ends, then printed aligned */
} plain_out;

/* Print to F (ANSI: with SGR styles).  Release with plain_out_release. */
void plain_out_init(plain_out *o, FILE *f, int ansi);
void plain_out_release(plain_out *o);

/* Add TEXT (a streamed fragment): each line it completes is printed. */
void plain_out_feed(plain_out *o, const char *text);

/* Print the unfinished line, if any, and end it. */
void plain_out_flush(plain_out *o);

/* Print S (N bytes) with control characters and bidi overrides shown as
 * U+FFFD and newlines kept (for text that is not Markdown). */
void plain_out_inert(FILE *f, const char *s, size_t n);

/* printf to F, the result made inert as plain_out_inert: for every line
 * that carries text from outside (a model, a server, a database, a saved
 * session) on the way to a terminal. */
void plain_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
