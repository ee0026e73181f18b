/*
 * notes.c — how the command-line modes show what the engine tells while
 * it works (genie_hooks): notes on standard error as "genie: ..." (made
 * inert: a note may quote a file or a server), information only without
 * --quiet, warnings always; and the progress of a long build, one line
 * rewritten in place on a terminal, a line a quarter otherwise (a log;
 * a count with no known end shows only on a terminal).
 *
 * One process runs one command with one configuration, so the listeners'
 * state is this file's.
 */
#include "cli.h"
#include "plainout.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    int quiet, tty;
    char last[160];          /* the stage of the last progress line */
    long lastpct;
} g_out;

static void on_note(void *ud, int warning, const char *msg)
{
    (void)ud;
    if (warning) plain_printf(stderr, "genie: warning: %s\n", msg);
    else if (!g_out.quiet) plain_printf(stderr, "genie: %s\n", msg);
}

static void on_progress(void *ud, const char *stage, const char *unit, long done, long total)
{
    (void)ud;
    if (g_out.quiet) return;
    const char *sep = unit ? ":" : "", *sp = unit ? " " : "", *u = unit ? unit : "";
    if (total <= 0) {                    /* a count without an end */
        if (g_out.tty) fprintf(stderr, "\r  %s%s %ld%s%s\033[K", stage, sep, done, sp, u);
        return;
    }
    long pct = done * 100 / total;
    if (g_out.tty) {
        if (unit) fprintf(stderr, "\r  %s: %ld/%ld %s (%ld%%)\033[K", stage, done, total, unit, pct);
        else fprintf(stderr, "\r  %-15s %ld/%ld (%ld%%)\033[K", stage, done, total, pct);
        if (done >= total) fputc('\n', stderr);
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
    return (genie_hooks){ .note = on_note, .progress = on_progress };
}
