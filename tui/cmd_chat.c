/*
 * cmd_chat.c — the conversation in line mode (--plain, or when standard
 * input or output is not a terminal), and the sessions commands
 * (--list-sessions, --export-session).
 *
 * Line mode reads one utterance per line from standard input and prints
 * the agent's reply, streamed as it arrives; with --format json it prints
 * every turn event as one JSON object per line instead, for scripts.  Each
 * completed turn is saved to the sessions file in one transaction, so a
 * crash loses at most the turn in progress; a sessions file that cannot be
 * written costs a warning, never the conversation.  Ctrl-C during a turn
 * cancels it (the state stays as before the turn); at the prompt it quits.
 */
#include "cli.h"
#include "plainout.h"
#include "util/utf8.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct line_ui {
    genie_chat ch;
    int json, tty, streamed, quiet, verbose;
    plain_out out;            /* the replies */
} line_ui;

/* The SIGINT handler's view of the turn in progress: NULL at the prompt,
 * where Ctrl-C interrupts the read and so ends the conversation. */
static atomic_int *volatile g_cancel;   /* lock-free: safe in a handler */

static void on_sigint(int sig)
{
    (void)sig;
    if (g_cancel && !*g_cancel) { *g_cancel = 1; return; }
    if (g_cancel) _exit(130);     /* a second Ctrl-C while cancelling */
}

static void print_notes(const line_ui *u)
{
    for (int i = 0; i < u->ch.nnotes; i++)
        if (!strncmp(u->ch.notes[i], "warning:", 8) || (!u->quiet && !u->json))
            plain_printf(stderr, "genie: %s\n", u->ch.notes[i]);
}

static int resume(line_ui *u, gn_err *e)
{
    int n;
    if (genie_chat_resume(&u->ch, cfg_str(u->ch.c, OPT_RESUME), NULL, NULL, &n, e)) {
        gn_err_prefix(e, "--resume: ");
        return e->code;
    }
    if (!u->json && !u->quiet)
        fprintf(stderr, "genie: resumed session %ld (%d turn%s)\n", u->ch.sid, n, n == 1 ? "" : "s");
    if (u->ch.resume_note) fprintf(stderr, "genie: warning: %s\n", u->ch.resume_note);
    const char *last = genie_chat_last_reply(&u->ch);
    if (!u->json && last) plain_printf(stdout, "%s\n", last);
    return 0;
}

/* ---- one turn -------------------------------------------------------------- */

static void print_json(const cJSON *o)
{
    char *s = cJSON_PrintUnformatted(o);
    /* Bytes that are not UTF-8 (the user's, a model's, a row's) become
     * U+FFFD: every line is valid JSON text. */
    if (s && !gn_utf8_valid(s, strlen(s))) {
        char *t = gn_utf8_fix(s, strlen(s), NULL);
        free(s);
        s = t;
    }
    puts(s ? s : "null");
    free(s);
    fflush(stdout);
}

/* "genie: WHAT: MSG" on standard error, or with STMT (may be NULL)
 * "genie: refused \"STMT\": MSG"; STMT and MSG made inert (a server's or
 * a model's words). */
static void diag(const char *what, const char *stmt, const char *msg)
{
    fprintf(stderr, "genie: %s", what);
    if (stmt) {
        fputs(" \"", stderr);
        plain_out_inert(stderr, stmt, strlen(stmt));
        fputc('"', stderr);
    }
    fputs(": ", stderr);
    plain_out_inert(stderr, msg ? msg : "", msg ? strlen(msg) : 0);
    fputc('\n', stderr);
}

/* --verbose: the turn's LLM use, in account.h's words, on stderr. */
static void verbose_usage(const cJSON *t)
{
    llm_stats s;
    long memo;
    ag_timings_usage(t, &s, &memo);
    gn_buf b;
    gn_buf_init(&b);
    llm_stats_format(&s, &b);
    if (memo) gn_buf_printf(&b, "; %ld SUQL memo hit%s", memo, memo == 1 ? "" : "s");
    plain_printf(stderr, "genie: usage: %s\n", b.data);
    gn_buf_release(&b);
}

static void on_event(const ag_event *ev, void *ud)
{
    line_ui *u = ud;
    if (u->json) {
        cJSON *o = ag_event_json(ev);
        print_json(o);
        cJSON_Delete(o);
        return;
    }
    switch (ev->kind) {
    case AG_EV_TOKEN:
        plain_out_feed(&u->out, ev->text);
        u->streamed = 1;
        break;
    case AG_EV_RESPONSE:
        if (u->streamed && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev->data, "fallback")))
            plain_out_flush(&u->out);             /* the cut reply, then the whole one */
        if (!u->streamed || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev->data, "fallback")))
            plain_out_feed(&u->out, ev->text);
        plain_out_flush(&u->out);
        break;
    case AG_EV_ERROR:
        diag(ev->stage ? ev->stage : "turn", NULL, ev->error);
        break;
    case AG_EV_REFUSED:
        /* The reply says what was refused; the statement is for --verbose. */
        if (u->verbose) diag("refused", ev->text ? ev->text : "", ev->error);
        break;
    case AG_EV_WARNING:
        diag("warning", NULL, ev->error);
        break;
    case AG_EV_TIMINGS:
        if (u->verbose) verbose_usage(ev->data);
        break;
    default:
        break;
    }
}

static void turn(line_ui *u, const char *utt)
{
    ag_turn_out o;
    gn_err e;
    gn_err_clear(&e);
    u->streamed = 0;
    u->ch.cancel = 0;
    g_cancel = &u->ch.cancel;
    int rc = genie_turn(&u->ch, utt, on_event, u, &o, &e);
    g_cancel = NULL;
    if (rc) {
        if (!u->json) plain_printf(stderr, "\ngenie: %s\n", e.msg);
        return;
    }
    if (genie_chat_save_turn(&u->ch, utt, &o, &e)) {
        char m[1024];
        plain_printf(stderr, "genie: warning: %s\n", gn_err_str(&e, m, sizeof m));
    }
    if (u->ch.branch_note) {
        plain_printf(stderr, "genie: %s\n", u->ch.branch_note);
        free(u->ch.branch_note);
        u->ch.branch_note = NULL;
    }
    ag_turn_out_release(&o);
}

/* ---- the loop ------------------------------------------------------------- */

static int chat_loop(line_ui *u)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    const ag_agent *a = u->ch.agent;
    if (!cfg_str(u->ch.c, OPT_RESUME)[0] && !u->json && a->greeting && *a->greeting)
        printf("%s\n", a->greeting);
    if (!u->json && !u->ch.kb.cl && !u->quiet)
        fprintf(stderr, "genie: %s: type SUQL (SELECT ...) or worksheet statements\n",
                genie_offline_reason(u->ch.c));
    for (;;) {
        if (u->tty) { fputs("> ", stdout); fflush(stdout); }
        if ((n = getline(&line, &cap, stdin)) < 0) break;   /* end of input, or Ctrl-C */
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) continue;
        if (!strcmp(p, "/quit") || !strcmp(p, "/exit")) break;
        turn(u, p);
    }
    free(line);
    if (u->tty) fputc('\n', stdout);
    return EXIT_OK;
}

int cli_chat_plain(const cfg_t *c)
{
    line_ui u;
    memset(&u, 0, sizeof u);
    gn_err e;
    gn_err_clear(&e);
    genie_hooks h = cli_hooks(c);
    int rc = genie_chat_open(&u.ch, c, &h, &e);
    u.json = !strcmp(cfg_str(c, OPT_FORMAT), "json");
    u.quiet = cfg_bool(c, OPT_QUIET);
    u.verbose = cfg_bool(c, OPT_VERBOSE);
    u.tty = isatty(0) && isatty(1);
    /* Styles on a terminal that takes colours (--no-color, NO_COLOR). */
    plain_out_init(&u.out, stdout, isatty(1) && !cfg_bool(c, OPT_NO_COLOR));
    print_notes(&u);
    if (!rc && cfg_str(c, OPT_RESUME)[0]) rc = resume(&u, &e);
    int status = rc ? cli_fail(&e) : chat_loop(&u);
    if (!rc && genie_chat_save_all(&u.ch, &e)) status = cli_fail(&e);
    genie_chat_close(&u.ch);
    plain_out_release(&u.out);
    return status;
}

/* ---- sessions commands ------------------------------------------------------ */

static int print_info(const st_session_info *i, void *ud)
{
    char when[32];
    time_t t = (time_t)i->updated;
    struct tm tm;
    (void)ud;
    localtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    plain_printf(stdout, "%6ld  %-12s  %s  %3d turn%s  %s\n", i->id, i->agent, when, i->turns,
           i->turns == 1 ? " " : "s", i->first_user);
    return 0;
}

int cli_list_sessions(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    int rc = genie_sessions_open(c, &ss, &e);
    if (!rc) rc = genie_sessions_list(ss, NULL, print_info, NULL, &e);
    genie_sessions_close(ss);
    return rc ? cli_fail(&e) : EXIT_OK;
}

int cli_export_session(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    char *end;
    long id = strtol(cfg_str(c, OPT_EXPORT_SESSION), &end, 10);
    if (*end || id <= 0) {
        gn_err_set(&e, GN_EUSAGE, "--export-session '%s' is not a session id", cfg_str(c, OPT_EXPORT_SESSION));
        return cli_fail(&e);
    }
    gn_buf b;
    gn_buf_init(&b);
    int rc = genie_sessions_open(c, &ss, &e);
    if (!rc) rc = genie_session_export_md(ss, id, &b, &e);
    if (!rc) plain_out_inert(stdout, b.data, b.len);
    gn_buf_release(&b);
    genie_sessions_close(ss);
    return rc ? cli_fail(&e) : EXIT_OK;
}
