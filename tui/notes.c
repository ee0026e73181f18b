/*
 * notes.c — how the command-line modes show what the engine tells while
 * it works (genie_hooks): notes on standard error as "genie: ..." (made
 * inert: a note may quote a file or a server), information only without
 * --quiet, warnings always; and the progress of a long build, on a
 * terminal one line rewritten in place (a bar, the count, the rate and the
 * time left), a line a quarter otherwise (a log; a count with no known end
 * shows only on a terminal).  A status or progress line left open is
 * ended before anything else is printed, so two messages never share a
 * line.
 *
 * One process runs one command with one configuration, so the listeners'
 * state is this file's.
 */
#include "cli.h"
#include "plainout.h"

#include "util/clock.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    int quiet, tty;
    char last[160];          /* the stage of the last progress line */
    long lastpct;
    double t0;               /* when that stage began */
    long done0;              /* its count then */
    int open;                /* a line without its newline is on stderr
                                (a status, a progress bar): what comes
                                next starts a line of its own */
} g_out;

/* End the open line, if any, so the next output does not run into it. */
static void close_line(void)
{
    if (g_out.open) fputc('\n', stderr);
    g_out.open = 0;
}

void cli_status(const char *msg)
{
    if (g_out.quiet || !g_out.tty) return;
    close_line();
    fprintf(stderr, "genie: %s", msg);
    g_out.open = 1;
}

void cli_status_end(void)
{
    if (g_out.open == 1) fputs("\r\033[K", stderr);   /* the status alone: wiped */
    else close_line();
    g_out.open = 0;
}

static void on_note(void *ud, int warning, const char *msg)
{
    (void)ud;
    if (!warning && g_out.quiet) return;
    close_line();
    if (warning) plain_printf(stderr, "genie: warning: %s\n", msg);
    else plain_printf(stderr, "genie: %s\n", msg);
}

/* "[########............]" of DONE in TOTAL, WIDTH marks, into B. */
static void bar(char *b, long done, long total, int width)
{
    int k = total > 0 ? (int)(done * width / total) : 0;
    b[0] = '[';
    for (int i = 0; i < width; i++) b[1 + i] = i < k ? '#' : '.';
    b[width + 1] = ']';
    b[width + 2] = 0;
}

/* The rate and time left of a stage, as " 1200/s, 11 s left". */
static void rate(char *b, size_t n, long done, long total)
{
    double el = gn_now() - g_out.t0;
    long d = done - g_out.done0;
    b[0] = 0;
    if (el < 0.5 || d <= 0) return;
    double r = (double)d / el, left = (double)(total - done) / r;
    if (done >= total) snprintf(b, n, "  %.0f/s, %.1f s", r, el);
    else if (left < 90) snprintf(b, n, "  %.0f/s, %.0f s left", r, left + 0.5);
    else snprintf(b, n, "  %.0f/s, %.0f min left", r, left / 60 + 0.5);
}

static void on_progress(void *ud, const char *stage, const char *unit, long done, long total)
{
    (void)ud;
    if (g_out.quiet) return;
    const char *sep = unit ? ":" : "", *sp = unit ? " " : "", *u = unit ? unit : "";
    if (strncmp(stage, g_out.last, sizeof g_out.last - 1)) {   /* a new stage: its clock */
        if (g_out.open == 1) close_line();
        g_out.t0 = gn_now();
        g_out.done0 = done;
    }
    if (total <= 0) {                    /* a count without an end */
        if (g_out.tty) {
            fprintf(stderr, "\r  %s%s %ld%s%s\033[K", stage, sep, done, sp, u);
            g_out.open = 2;
        }
        snprintf(g_out.last, sizeof g_out.last, "%s", stage);
        return;
    }
    long pct = done * 100 / total;
    if (g_out.tty) {
        /* A bar, the count, the rate and the time left, rewritten in place. */
        char b[32], r[64];
        bar(b, done, total, 20);
        rate(r, sizeof r, done, total);
        if (unit) fprintf(stderr, "\r  %-19s %s %ld/%ld %s (%ld%%)%s\033[K", stage, b, done, total, unit, pct, r);
        else fprintf(stderr, "\r  %-19s %s %ld/%ld (%ld%%)%s\033[K", stage, b, done, total, pct, r);
        g_out.open = 2;
        if (done >= total) close_line();
    } else if (strncmp(stage, g_out.last, sizeof g_out.last - 1) || pct / 25 != g_out.lastpct / 25 || done >= total) {
        fprintf(stderr, "  %s%s %ld/%ld%s%s (%ld%%)\n", stage, sep, done, total, sp, u, pct);
    }
    snprintf(g_out.last, sizeof g_out.last, "%s", stage);
    g_out.lastpct = pct;
}

genie_hooks cli_hooks(const cfg_t *c)
{
    g_out.quiet = cfg_bool(c, OPT_QUIET);
    g_out.tty = isatty(2);
    g_out.last[0] = 0;
    g_out.lastpct = -1;
    g_out.open = 0;
    return (genie_hooks){ .note = on_note, .progress = on_progress };
}
