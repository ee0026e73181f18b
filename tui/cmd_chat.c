/*
 * cmd_chat.c — the conversation in line mode (--plain, or when standard
 * input or output is not a terminal), and the sessions commands
 * (--list-sessions, --export-session, --delete-session, --rename-session).
 *
 * Line mode reads one utterance per line from standard input and prints
 * the agent's reply, streamed as it arrives; with --format json it prints
 * every turn event as one JSON object per line instead, for scripts.  Each
 * completed turn is saved to the sessions file in one transaction, so a
 * crash loses at most the turn in progress; a sessions file that cannot be
 * written costs a warning, never the conversation.  Ctrl-C during a turn
 * cancels it at once (the LLM call in flight is closed by a watcher thread
 * the signal wakes; the state stays as before the turn); at the prompt it
 * quits.  On a terminal the line is edited with readline (callback mode, so
 * the wait is a poll that Ctrl-C ends).
 */
#include "cli.h"
#include "plainout.h"
#include "util/utf8.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct line_ui {
    genie_chat ch;
    int json, tty, streamed, quiet, verbose;
    int one_shot;             /* a question from the command line */
    plain_out out;            /* the replies */
} line_ui;

/* The SIGINT handler's view of the turn in progress: NULL at the prompt,
 * where Ctrl-C interrupts the read and so ends the conversation. */
static atomic_int *volatile g_cancel;   /* lock-free: safe in a handler */

/* The handler may only set the flag and write a byte: the LLM call in
 * flight (a reply streaming) is cancelled by the watcher thread, which
 * the byte wakes, so its connection closes at once instead of the turn
 * ending when the reply does. */
static int g_wake[2] = { -1, -1 };
/* ... and at the prompt of line editing, a byte here wakes the loop's
 * poll, whichever thread the signal was delivered to. */
static int g_prompt_wake[2] = { -1, -1 };

/* Ctrl-C at the prompt of line editing: the loop ends (poll returns). */
static volatile sig_atomic_t g_prompt_int;

static void on_sigint(int sig)
{
    (void)sig;
    if (!g_cancel) {
        g_prompt_int = 1;
        if (g_prompt_wake[1] >= 0) {
            int saved = errno;
            ssize_t w = write(g_prompt_wake[1], "i", 1);
            (void)w;
            errno = saved;
        }
    }
    if (g_cancel && !*g_cancel) {
        *g_cancel = 1;
        if (g_wake[1] >= 0) {
            int saved = errno;
            ssize_t w = write(g_wake[1], "c", 1);
            (void)w;
            errno = saved;
        }
        return;
    }
    if (g_cancel) _exit(130);     /* a second Ctrl-C while cancelling */
}

/* The turn in progress, for the watcher: set and cleared under g_live_mu,
 * so the watcher never interrupts a conversation /reset has replaced. */
static pthread_mutex_t g_live_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_live;

static void turn_live(atomic_int *cancel)
{
    pthread_mutex_lock(&g_live_mu);
    g_cancel = cancel;
    g_live = cancel != NULL;
    pthread_mutex_unlock(&g_live_mu);
}

static void *watcher(void *arg)
{
    genie_chat *ch = arg;
    sigset_t m;
    sigemptyset(&m);
    sigaddset(&m, SIGINT);
    pthread_sigmask(SIG_BLOCK, &m, NULL);      /* the signal is for the others */
    for (;;) {
        char b;
        ssize_t r = read(g_wake[0], &b, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r != 1 || b != 'c') break;
        pthread_mutex_lock(&g_live_mu);
        if (g_live) genie_interrupt(ch);
        pthread_mutex_unlock(&g_live_mu);
    }
    return NULL;
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
    if (!u->json && last && !u->one_shot) plain_printf(stdout, "%s\n", last);   /* a question: its answer only */
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

/* One turn: 0, or the error's status when it failed (said already). */
static int turn(line_ui *u, const char *utt)
{
    ag_turn_out o;
    gn_err e;
    gn_err_clear(&e);
    u->streamed = 0;
    u->ch.cancel = 0;
    turn_live(&u->ch.cancel);
    int rc = genie_turn(&u->ch, utt, on_event, u, &o, &e);
    turn_live(NULL);
    if (rc) {
        /* What the cut reply left (a line, a table's rows, an open fence)
         * is printed now, not at the start of the next reply. */
        if (!u->json) plain_out_flush(&u->out);
        if (u->tty && !u->json) fputc('\n', stdout);     /* the prompt after "^C" on a line of its own */
        if (!u->json) plain_printf(stderr, "\ngenie: %s\n", e.msg);
        return rc == GN_ECANCEL ? 130 : EXIT_RUNTIME;
    }
    /* A stage that failed still leaves a reply (the templates'); a
     * question asked once reports the failure in its status. */
    int failed = o.error != NULL;
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
    return failed ? EXIT_RUNTIME : 0;
}

/* ---- the loop ------------------------------------------------------------- */

/* The slash commands of line mode: 1 when LINE was one (handled), 0 for
 * an utterance, -1 for /quit. */
static int slash(line_ui *u, const char *p)
{
    if (*p != '/') return 0;
    size_t n = strcspn(p, " \t");
    if ((n == 5 && !strncmp(p, "/quit", 5)) || (n == 5 && !strncmp(p, "/exit", 5))) return -1;
    if (n == 5 && !strncmp(p, "/help", 5)) {
        fputs("Line mode: each line is said to the agent.  Commands: /help, /reset (a new\n"
              "conversation), /state (the dialogue state as JSON), /quit (or Ctrl-D).\n"
              "On a terminal: Up and Down for history, readline's editing keys, Ctrl-C\n"
              "cancels the turn in progress (at the prompt it quits).\n", stdout);
        return 1;
    }
    if (n == 6 && !strncmp(p, "/reset", 6)) {
        genie_chat_reset(&u->ch);
        fputs("genie: a new conversation\n", stderr);
        return 1;
    }
    if (n == 6 && !strncmp(p, "/state", 6)) {
        cJSON *j = genie_chat_state_json(&u->ch);
        char *t = cJSON_Print(j);
        plain_printf(stdout, "%s\n", t ? t : "null");
        free(t);
        cJSON_Delete(j);
        return 1;
    }
    /* Anything else that looks like a command is said to the agent, as a
     * line starting with "/" always was ("/10 of them?"). */
    return 0;
}

/* Line editing on a terminal: readline's callback interface, so that the
 * loop waits in poll(2), where Ctrl-C at the prompt ends it, and a turn
 * runs with readline's terminal settings taken back. */
static char *g_line;
static int g_eof;

static void on_rl_line(char *line)
{
    if (!line) g_eof = 1;
    g_line = line;
    rl_callback_handler_remove();       /* the next prompt comes after the turn */
}

static int edit_loop(line_ui *u)
{
    rl_catch_signals = 0;
    rl_catch_sigwinch = 1;
    rl_readline_name = "genie";
    rl_change_environment = 0;
    using_history();
    if (pipe(g_prompt_wake)) g_prompt_wake[0] = g_prompt_wake[1] = -1;
    for (;;) {
        g_line = NULL;
        g_eof = 0;
        rl_callback_handler_install("> ", on_rl_line);
        while (!g_line && !g_eof && !g_prompt_int) {
            struct pollfd pf[2] = { { .fd = 0, .events = POLLIN },
                                    { .fd = g_prompt_wake[0], .events = POLLIN } };
            int r = poll(pf, g_prompt_wake[0] >= 0 ? 2 : 1, -1);
            if (r > 0 && g_prompt_wake[0] >= 0 && (pf[1].revents & POLLIN)) {
                char b[16];
                ssize_t w = read(g_prompt_wake[0], b, sizeof b);   /* a Ctrl-C: the end */
                (void)w;
                g_prompt_int = 1;
            }
            if (r > 0 && (pf[0].revents & (POLLIN | POLLHUP)) && !g_prompt_int) rl_callback_read_char();
        }
        if (!g_line) {                   /* Ctrl-D, or Ctrl-C at the prompt */
            rl_callback_handler_remove();
            break;
        }
        char *p = g_line;
        while (*p == ' ' || *p == '\t') p++;
        int k = *p ? slash(u, p) : 1;
        if (*p) add_history(g_line);
        if (k < 0) {
            free(g_line);
            break;
        }
        if (!k) turn(u, p);
        free(g_line);
    }
    int fds[2] = { g_prompt_wake[0], g_prompt_wake[1] };
    g_prompt_wake[1] = -1;                  /* the handler writes no more, then it closes */
    g_prompt_wake[0] = -1;
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) close(fds[i]);
    fputc('\n', stdout);
    return EXIT_OK;
}

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
    if (u->tty && !u->json) {
        free(line);
        return edit_loop(u);
    }
    for (;;) {
        if (u->tty) { fputs("> ", stdout); fflush(stdout); }
        if ((n = getline(&line, &cap, stdin)) < 0) break;   /* end of input, or Ctrl-C */
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) continue;
        int k = u->json ? (!strcmp(p, "/quit") || !strcmp(p, "/exit") ? -1 : 0) : slash(u, p);
        if (k < 0) break;
        if (!k) turn(u, p);
    }
    free(line);
    if (u->tty) fputc('\n', stdout);
    return EXIT_OK;
}

/* A question from the command line: one turn, its reply on standard
 * output, no greeting and no prompt; the exit status is the turn's. */
static int one_shot(line_ui *u, const char *question)
{
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    return turn(u, question);
}

int cli_chat_plain(const cfg_t *c, const char *question)
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
    u.one_shot = question != NULL;
    /* Styles on a terminal that takes colours (--no-color, NO_COLOR). */
    plain_out_init(&u.out, stdout, isatty(1) && !cfg_bool(c, OPT_NO_COLOR));
    print_notes(&u);
    if (!rc && cfg_str(c, OPT_RESUME)[0]) rc = resume(&u, &e);
    pthread_t wt;
    int watching = !rc && pipe(g_wake) == 0;
    if (watching && pthread_create(&wt, NULL, watcher, &u.ch)) {
        close(g_wake[0]);
        close(g_wake[1]);
        g_wake[0] = g_wake[1] = -1;
        watching = 0;
    }
    int status = rc ? cli_fail(&e) : question ? one_shot(&u, question) : chat_loop(&u);
    if (watching) {
        int fd = g_wake[1];
        g_wake[1] = -1;
        ssize_t w = write(fd, "q", 1);
        (void)w;
        pthread_join(wt, NULL);
        close(fd);
        close(g_wake[0]);
        g_wake[0] = -1;
    }
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
    ++*(int *)ud;
    localtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    plain_printf(stdout, "%6ld  %-12s  %s  %3d turn%s  %s\n", i->id, i->agent, when, i->turns,
           i->turns == 1 ? " " : "s", i->title[0] ? i->title : i->first_user);
    return 0;
}

int cli_list_sessions(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    int n = 0;
    int rc = genie_sessions_open(c, &ss, &e);
    if (!rc) rc = genie_sessions_list(ss, NULL, print_info, &n, &e);
    genie_sessions_close(ss);
    if (!rc && !n && !cfg_bool(c, OPT_QUIET)) {
        /* Standard output stays empty for scripts; a person is told. */
        char *path = genie_sessions_path(c);
        fprintf(stderr, "genie: no saved conversations yet (in %s)\n", path ? path : "the sessions file");
        free(path);
    }
    return rc ? cli_fail(&e) : EXIT_OK;
}

/* ID as a session id, or a usage error naming OPTION. */
static long session_id(const cfg_t *c, int opt, gn_err *e)
{
    char *end;
    long id = strtol(cfg_str(c, opt), &end, 10);
    if (*end || id <= 0) {
        gn_err_set(e, GN_EUSAGE, "--%s '%s' is not a session id (--list-sessions lists them)",
                   cfg_opt(opt)->name, cfg_str(c, opt));
        return 0;
    }
    return id;
}

int cli_delete_session(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    long id = session_id(c, OPT_DELETE_SESSION, &e);
    if (!id) return cli_fail(&e);
    int rc = genie_sessions_open(c, &ss, &e);
    if (!rc) rc = genie_session_delete(ss, id, &e);
    genie_sessions_close(ss);
    if (!rc && !cfg_bool(c, OPT_QUIET)) fprintf(stderr, "genie: session %ld deleted\n", id);
    return rc ? cli_fail(&e) : EXIT_OK;
}

int cli_rename_session(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    long id = session_id(c, OPT_RENAME_SESSION, &e);
    if (!id) return cli_fail(&e);
    /* The words after the options are the title ("" or none: no title). */
    size_t nw;
    const char *const *w = cfg_operands(c, &nw);
    gn_buf t;
    gn_buf_init(&t);
    for (size_t i = 0; i < nw; i++) gn_buf_printf(&t, "%s%s", i ? " " : "", w[i]);
    while (t.len && (t.data[t.len - 1] == ' ' || t.data[t.len - 1] == '\t')) t.data[--t.len] = 0;
    size_t lead = t.len ? strspn(t.data, " \t") : 0;      /* blank: no name, as the file keeps it */
    if (lead) {
        memmove(t.data, t.data + lead, t.len - lead + 1);
        t.len -= lead;
    }
    int rc = genie_sessions_open(c, &ss, &e);
    if (!rc) rc = genie_session_rename(ss, id, t.len ? t.data : "", &e);
    genie_sessions_close(ss);
    if (!rc && !cfg_bool(c, OPT_QUIET)) {
        if (t.len) plain_printf(stderr, "genie: session %ld is now named \"%s\"\n", id, t.data);
        else fprintf(stderr, "genie: session %ld has no name now\n", id);
    }
    gn_buf_release(&t);
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
