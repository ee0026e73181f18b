/*
 * tui.c — benchmarks of the full-screen interface:
 *
 *   1. time to first screen: the real binary started on a pseudo-terminal
 *      until its status line says "ready", at scale 1 (and 100 when that
 *      database exists), against line mode (--plain) reaching its prompt
 *      in the same way — the baseline, run in the same process; then the
 *      first search typed at once (it waits for an index still loading);
 *   2. rendering cost per streamed token with 1,000 turns in the
 *      conversation, against 10 turns: a token re-wraps its own message
 *      and draws the visible lines only, so the two should cost the same;
 *   3. memory growth per turn of the conversation pane.
 *
 * Usage: bench-tui --genie BIN --agent DIR --db DB [--db100 DB]
 */
#include "tui/app.h"

#include "util/clock.h"
#include "util/xmem.h"

#include <curses.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static FILE *report;

/* ---- 1. time to first screen ------------------------------------------------ */

/* Seconds from exec until the output shows MARK, or -1.  With THEN, that
 * line is typed once MARK shows, and *THEN_S is the seconds until the
 * output shows THEN_MARK (or -1). */
static double first_screen(char *const argv[], const char *mark, const char *home, const char *then,
                           const char *then_mark, double *then_s)
{
    int master;
    struct winsize ws = { .ws_row = 48, .ws_col = 160 };
    double t0 = gn_now();
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0) return -1;
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("HOME", home, 1);
        setenv("XDG_STATE_HOME", home, 1);
        setenv("XDG_DATA_HOME", home, 1);
        setenv("XDG_CONFIG_HOME", home, 1);
        setenv("GENIE_SCREEN_TEST", "1", 1);
        execv(argv[0], argv);
        _exit(127);
    }
    char buf[65536];
    size_t have = 0;
    double t = -1;
    while (gn_now() - t0 < 120) {
        struct pollfd p = { master, POLLIN, 0 };
        if (poll(&p, 1, 100) <= 0) continue;
        ssize_t n = read(master, buf + have, sizeof buf - 1 - have);
        if (n <= 0) break;
        have += (size_t)n;
        buf[have] = 0;
        if (t < 0 && strstr(buf, mark)) {
            t = gn_now() - t0;
            if (!then) break;
            have = 0;
            buf[0] = 0;
            if (write(master, then, strlen(then)) < 0 || write(master, "\r", 1) < 0) break;
            t0 = gn_now();
            continue;
        }
        if (t >= 0 && then && strstr(buf, then_mark)) { *then_s = gn_now() - t0; break; }
        if (have > sizeof buf / 2) {             /* keep the tail */
            memmove(buf, buf + have - 1024, 1024);
            have = 1024;
        }
    }
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    close(master);
    return t;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_start(char *const argv[], const char *mark, const char *home)
{
    double v[5];
    for (int i = 0; i < 5; i++) v[i] = first_screen(argv, mark, home, NULL, NULL, NULL);
    qsort(v, 5, sizeof *v, cmp_d);
    return v[2];
}

/* The first search after the first screen: a SUQL query whose free-text
 * filter ranks candidates by the retrieval index (offline), typed as soon
 * as the screen is ready; the median of 3. */
static double first_search(char *const argv[], const char *home)
{
    const char *q = "/suql SELECT name FROM restaurants WHERE location = 'Palo Alto' AND "
                    "answer(reviews, 'is it romantic?') = 'Yes' LIMIT 1";
    double v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = -1;
        first_screen(argv, "ready", home, q, "(1 row)", &v[i]);
    }
    qsort(v, 3, sizeof *v, cmp_d);
    return v[1];
}

static void bench_start(const char *bin, const char *agent, const char *db, const char *label, const char *home)
{
    char off[] = "--offline", pl[] = "--plain", ag[] = "--agent", d[] = "--db";
    char *screen[] = { (char *)bin, off, ag, (char *)agent, d, (char *)db, NULL };
    char *plain[] = { (char *)bin, off, pl, ag, (char *)agent, d, (char *)db, NULL };
    double s = median_start(screen, "ready", home);
    double p = median_start(plain, "> ", home);
    fprintf(report, "first screen, %s: %.0f ms (line mode to its prompt: %.0f ms, ratio %.2f)\n", label,
            s * 1000, p * 1000, p > 0 ? s / p : 0);
    double f = first_search(screen, home);
    fprintf(report, "first search, %s: %.0f ms after the first screen (a free-text SUQL query, "
            "offline; it waits for the index if it must)\n", label, f * 1000);
    /* The baseline: the whole index read before the first screen. */
    char sync[] = "--index-background=0";
    char *before[] = { (char *)bin, off, sync, ag, (char *)agent, d, (char *)db, NULL };
    double b = median_start(before, "ready", home), bf = first_search(before, home);
    fprintf(report, "  the same, the index read before the first screen (--index-background=0): first "
            "screen %.0f ms, first search %.0f ms after it\n", b * 1000, bf * 1000);
}

/* ---- 2 and 3. rendering and memory ------------------------------------------------- */

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
        fclose(f);
    }
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static const char *reply =
    "Here are **three** places that fit: *Papa Nino's Trattoria* (4.5 stars, romantic, "
    "candle-lit), Hilo Cafe (cosy, good for two) and Jukebox Grill.\n\n"
    "- Papa Nino's has a quiet back room\n- Hilo Cafe takes reservations until 9 pm\n\n"
    "Which one would you like me to book, and for what time?";

static void fill(app *a, int turns)
{
    for (int i = 0; i < turns; i++) {
        vc_add(&a->conv, VC_USER, "Find me a romantic Italian place in Palo Alto for two on Friday");
        vc_add(&a->conv, VC_AGENT, reply);
    }
}

/* Microseconds per streamed token with TURNS turns before the reply. */
static double per_token(app *a, int turns, int tokens)
{
    vc_clear(&a->conv);
    fill(a, turns);
    draw_frame(a);
    vc_msg *m = vc_add(&a->conv, VC_AGENT, "");
    double t0 = gn_now();
    for (int k = 0; k < tokens; k++) {
        vc_append(&a->conv, m, k % 12 == 11 ? "\n" : "word ");
        draw_frame(a);
    }
    return (gn_now() - t0) * 1e6 / tokens;
}

static void bench_render(const char *agent_dir)
{
    app a;
    memset(&a, 0, sizeof a);
    gn_err e;
    if (ag_agent_load(agent_dir, &a.ch.agent, &e)) {
        fprintf(report, "render: %s\n", e.msg);
        return;
    }
    /* curses on /dev/null: the same drawing, no terminal to wait for. */
    int saved = dup(STDOUT_FILENO);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    setenv("TERM", "xterm-256color", 1);
    SCREEN *scr = newterm(NULL, stdout, stdin);
    resizeterm(48, 160);
    vc_init(&a.conv, "restaurants");
    vq_init(&a.q);
    a.test = 1;
    draw_layout(&a);
    long r0 = rss_kb();
    fill(&a, 1000);
    vc_layout(&a.conv, a.pane[PANE_CONV].w - 1);
    long r1 = rss_kb();
    double small = per_token(&a, 10, 2000), big = per_token(&a, 1000, 2000);
    endwin();
    delscreen(scr);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(null);
    close(saved);
    fprintf(report, "render per streamed token (160x48): %.1f us with 1,000 turns, %.1f us with 10 "
            "(ratio %.2f)\n", big, small, small > 0 ? big / small : 0);
    fprintf(report, "memory per turn of the conversation pane: %.1f KB (1,000 turns: %ld KB)\n",
            (double)(r1 - r0) / 1000.0, r1 - r0);
    vc_release(&a.conv);
    vq_release(&a.q);
    ag_agent_free(a.ch.agent);
}

int main(int argc, char **argv)
{
    const char *bin = NULL, *agent = NULL, *db = NULL, *db100 = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--genie")) bin = argv[i + 1];
        else if (!strcmp(argv[i], "--agent")) agent = argv[i + 1];
        else if (!strcmp(argv[i], "--db")) db = argv[i + 1];
        else if (!strcmp(argv[i], "--db100")) db100 = argv[i + 1];
    }
    if (!bin || !agent || !db) {
        fprintf(stderr, "usage: bench-tui --genie BIN --agent DIR --db DB [--db100 DB]\n");
        return 2;
    }
    setlocale(LC_ALL, "C.UTF-8");
    report = fdopen(dup(STDOUT_FILENO), "w");
    setvbuf(report, NULL, _IONBF, 0);
    char home[] = "/tmp/genie-bench-tui.XXXXXX";
    if (!mkdtemp(home)) return 1;
    bench_start(bin, agent, db, "scale 1", home);
    if (db100 && access(db100, R_OK) == 0) bench_start(bin, agent, db100, "scale 100", home);
    bench_render(agent);
    char *rm = xasprintf("rm -rf '%s'", home);
    if (system(rm)) {}
    free(rm);
    return 0;
}
