/*
 * app.c — the full-screen conversation: the loop and the turns.
 *
 * One loop polls three descriptors: the terminal (keys, handled by
 * input.c), the worker's queue (events of the turn or query running
 * there) and a self-pipe of signals (SIGWINCH re-lays the screen out;
 * SIGTERM and SIGHUP end genie cleanly; SIGINT from outside cancels a turn
 * or quits).  Nothing blocks on this thread, so typing, scrolling and
 * resizing stay live while a reply streams.
 *
 * A turn: the utterance is shown, the worker runs genie_turn, its events fill
 * the panes (statements and SUQL, the state with what changed, the reply
 * token by token), and at its end the turn is saved.  Ctrl-C sets the
 * cancel flag and closes the connection of the call in flight: the reply
 * so far stays, marked interrupted, and the worksheet goes back to the
 * state before the turn, as the engine does.
 */
#include "app.h"
#include "plantree.h"

#include "util/clock.h"
#include "util/locale.h"
#include "util/xmem.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct app_job {
    enum app_job_kind kind;
    app *a;
    char *text;               /* the utterance or the query */
    int width;                /* of a result table */
    ag_turn_out out;
    gn_buf result;
    suql_run_stats st;
    gn_err e;
    int save_rc;              /* a turn: saving it failed (save_e says why) */
    gn_err save_e;
};

static int g_sig[2] = { -1, -1 };

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    ssize_t r = write(g_sig[1], &b, 1);
    (void)r;
    errno = saved;
}

void app_notice(app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->notice, sizeof a->notice, fmt, ap);
    va_end(ap);
    a->dirty = 1;
}

static void set_state(app *a, cJSON *state)
{
    cJSON_Delete(a->state);
    a->state = state;
    a->ws_dirty = 1;
    a->ws_follow = 1;
    if (a->tabs && a->focus != PANE_WS) a->scroll[PANE_WS].unseen = 1;   /* its tab says so */
}

/* New output in pane P: a pane scrolled away keeps its place and says so. */
static void grew(app *a, int p, long lines)
{
    if (a->scroll[p].off) {
        a->scroll[p].off += lines;
        a->scroll[p].unseen = 1;
    }
}

vc_msg *app_add(app *a, enum vc_role role, const char *text)
{
    long before = a->conv.total;
    vc_msg *m = vc_add(&a->conv, role, text);
    /* On a narrow screen another pane's tab may be showing: the
     * Conversation tab then says new output came. */
    if (a->tabs && a->focus != PANE_CONV && role != VC_USER) a->scroll[PANE_CONV].unseen = 1;
    if (a->scroll[PANE_CONV].off) {
        vc_layout(&a->conv, a->conv.width > 0 ? a->conv.width : 40);
        grew(a, PANE_CONV, a->conv.total - before);
    }
    a->dirty = 1;
    return m;
}

/* ---- jobs -------------------------------------------------------------------- */

/* The turn, then its saving, both off the screen's thread: a sessions file
 * locked by another process must not freeze the screen. */
static int run_turn(tw_worker *w, void *arg)
{
    app_job *j = arg;
    int rc = genie_turn(&j->a->ch, j->text, tw_post_event, w, &j->out, &j->e);
    if (!rc) j->save_rc = genie_chat_save_turn(&j->a->ch, j->text, &j->out, &j->save_e);
    return rc;
}

/* A /suql run's progress, as the agent reports its own ("verify"). */
static void query_progress(void *ud, long checked, long candidates)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "checked", (double)checked);
    cJSON_AddNumberToObject(d, "candidates", (double)candidates);
    ag_event ev = { AG_EV_STAGE, "verify", NULL, NULL, d };
    tw_post_event(&ev, ud);
    cJSON_Delete(d);
}

static int run_query(tw_worker *w, void *arg)
{
    app_job *j = arg;
    genie_kb *k = &j->a->ch.kb;
    if (j->kind == JOB_EXPLAIN) return genie_suql_explain(k, j->text, &j->result, &j->e);
    suql_result r;
    genie_suql_watch(k, query_progress, w, &j->a->ch.cancel);
    int rc = genie_suql_run(k, j->text, &r, &j->st, &j->e);
    genie_suql_watch(k, NULL, NULL, NULL);
    if (!rc) {
        suql_result_table(&r, j->width, &j->result);
        if (r.note) gn_buf_printf(&j->result, "note: %s\n", r.note);
        suql_result_release(&r);
    }
    return rc;
}

static app_job *job_new(app *a, enum app_job_kind kind, const char *text)
{
    app_job *j = xcalloc(1, sizeof *j);
    j->kind = kind;
    j->a = a;
    j->text = xstrdup(text);
    gn_buf_init(&j->result);
    gn_err_clear(&j->e);
    gn_err_clear(&j->save_e);
    return j;
}

static void job_free(app_job *j)
{
    if (!j) return;
    if (j->kind == JOB_TURN && !j->e.code) ag_turn_out_release(&j->out);
    gn_buf_release(&j->result);
    free(j->text);
    free(j);
}

static void start(app *a, app_job *j, tw_job_fn fn)
{
    a->job = j;
    a->job_t0 = gn_now();
    a->ch.cancel = 0;
    a->retry_at = 0;
    tw_submit(a->w, fn, j);
}

void app_send(app *a, const char *utterance)
{
    if (a->job) {
        free(a->queued);
        a->queued = xstrdup(utterance);
        app_notice(a, "queued: it is sent when the turn in progress ends");
        return;
    }
    app_add(a, VC_USER, utterance);
    a->scroll[PANE_CONV].off = 0;              /* sending follows the conversation */
    a->reply = NULL;
    a->turn = genie_chat_turns(&a->ch) + 1;
    cJSON_Delete(a->state_before);
    a->state_before = a->state ? cJSON_Duplicate(a->state, 1) : NULL;
    snprintf(a->activity, sizeof a->activity, "starting");
    start(a, job_new(a, JOB_TURN, utterance), run_turn);
}

int app_start_query(app *a, enum app_job_kind kind, const char *query)
{
    if (!*query) {
        vc_add(&a->conv, VC_ERROR, kind == JOB_EXPLAIN ? "/explain needs a query" : "/suql needs a query");
        return -1;
    }
    char *shown = xasprintf("%s %s", kind == JOB_EXPLAIN ? "/explain" : "/suql", query);
    app_add(a, VC_USER, shown);
    free(shown);
    a->scroll[PANE_CONV].off = 0;
    app_job *j = job_new(a, kind, query);
    j->width = a->pane[PANE_CONV].w - 4 > 20 ? a->pane[PANE_CONV].w - 4 : 20;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "question", query);
    vq_add(&a->q, kind == JOB_EXPLAIN ? VQ_TYPED_EXPLAIN : VQ_TYPED_SUQL, query, d, NULL);
    cJSON_Delete(d);
    a->q_dirty = 1;
    a->scroll[PANE_SUQL].off = 0;
    snprintf(a->activity, sizeof a->activity, kind == JOB_EXPLAIN ? "planning" : "querying");
    start(a, j, run_query);
    return 0;
}

void app_cancel(app *a)
{
    if (!a->job) return;
    a->ch.cancel = 1;
    if (a->job->kind == JOB_TURN) genie_interrupt(&a->ch);
    snprintf(a->activity, sizeof a->activity, "cancelling");
    a->retry_at = 0;
    a->dirty = 1;
}

/* ---- the worker's messages --------------------------------------------------------- */

static const struct { const char *stage, *shown; } stage_names[] = {
    { "parse", "parsing" }, { "knowledge", "querying" }, { "policy", "deciding" },
    { "respond", "responding" },
};

static void on_stage(app *a, const char *stage, const cJSON *d)
{
    const char *s = stage ? stage : "";
    if (!strcmp(s, "verify")) {
        snprintf(a->activity, sizeof a->activity, "verifying %.0f of %.0f",
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(d, "checked")),
                 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(d, "candidates")));
        return;
    }
    for (size_t i = 0; i < sizeof stage_names / sizeof *stage_names; i++)
        if (!strcmp(stage_names[i].stage, s)) s = stage_names[i].shown;
    snprintf(a->activity, sizeof a->activity, "%s", s);
}

static void on_response(app *a, tw_msg *m)
{
    int fallback = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m->data, "fallback"));
    if (!a->reply) {
        a->reply = app_add(a, VC_AGENT, m->text);
    } else if (fallback) {
        vc_set(&a->conv, a->reply, m->text);
        app_add(a, VC_NOTE, "the reply was cut off; this is what the agent decided to say");
    }
}

static void finish_turn(app *a, app_job *j, int status)
{
    if (status == GN_ECANCEL) {
        if (a->reply) vc_interrupt(&a->conv, a->reply);
        app_add(a, VC_NOTE, "cancelled: the state is as it was before this turn");
        set_state(a, a->state_before);
        a->state_before = NULL;
        snprintf(a->activity, sizeof a->activity, "cancelled");
        return;
    }
    if (j->save_rc) {
        char m[1024];
        app_add(a, VC_ERROR, gn_err_str(&j->save_e, m, sizeof m));
    }
    if (a->ch.branch_note) {
        app_add(a, VC_NOTE, a->ch.branch_note);
        free(a->ch.branch_note);
        a->ch.branch_note = NULL;
    }
    a->activity[0] = 0;
}

static void finish_query(app *a, app_job *j, int status)
{
    cJSON *d = cJSON_CreateObject();
    char m[1024];
    if (status) {
        gn_err_str(&j->e, m, sizeof m);
        cJSON_AddStringToObject(d, "error", m);
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_puts(&b, m);
        if (j->e.line > 0) {
            gn_buf_putc(&b, '\n');
            suql_error_caret(j->text, &j->e, &b);
        }
        app_add(a, VC_ERROR, b.data);
        gn_buf_release(&b);
    } else {
        cJSON_AddNumberToObject(d, "count", (double)j->st.rows);
        cJSON_AddNumberToObject(d, "ms", j->st.ms_total);
        cJSON_AddItemToObject(d, "plan", suql_stats_json(&j->st));
        if (j->kind == JOB_EXPLAIN) {         /* the plan as a tree, as --explain draws it */
            gn_buf t;
            gn_buf_init(&t);
            pt_render(j->result.data ? j->result.data : "", NULL, tx_ascii(), &t);
            app_add(a, VC_BLOCK, t.data ? t.data : "");
            gn_buf_release(&t);
        } else {
            app_add(a, VC_BLOCK, j->result.data ? j->result.data : "");
        }
    }
    vq_result(&a->q, d);          /* an explained query: done, nothing run */
    cJSON_Delete(d);
    a->q_dirty = 1;
    a->activity[0] = 0;
}

/* The LLM use of a turn that ended (its timings event). */
static void usage_of_timings(app *a, const cJSON *t)
{
    llm_stats u;
    ag_timings_usage(t, &u, &a->last_memo);
    a->last = u;
    cJSON_Delete(a->timings);
    a->timings = cJSON_Duplicate(t, 1);
    llm_stats_add(&a->sess, &u);
    a->sess_memo += a->last_memo;
}

static void on_msg(app *a, tw_msg *m)
{
    if (m->kind != AG_EV_RETRY && m->kind != TW_DONE) a->retry_at = 0;
    switch (m->kind) {
    case AG_EV_STAGE: on_stage(a, m->stage, m->data); break;
    case AG_EV_TOKEN:
        if (!a->reply) a->reply = app_add(a, VC_AGENT, "");
        {
            long before = a->conv.total;
            vc_append(&a->conv, a->reply, m->text);
            if (a->scroll[PANE_CONV].off) {
                vc_layout(&a->conv, a->conv.width);
                grew(a, PANE_CONV, a->conv.total - before);
            }
        }
        break;
    case AG_EV_RESPONSE: on_response(a, m); break;
    case AG_EV_ERROR: {
        char *s = xasprintf("%s: %s", m->stage ? m->stage : "turn", m->error ? m->error : "failed");
        app_add(a, VC_ERROR, s);
        free(s);
        break;
    }
    case AG_EV_REFUSED: {
        char *s = xasprintf("refused %s: %s", m->text ? m->text : "", m->error ? m->error : "");
        app_add(a, VC_NOTE, s);
        free(s);
        break;
    }
    case AG_EV_WARNING: {
        char *s = xasprintf("warning: %s", m->error ? m->error : "");
        app_add(a, VC_NOTE, s);
        free(s);
        break;
    }
    case AG_EV_SUQL:
        vq_add(&a->q, a->turn, m->text, m->data, m->error);
        a->q_dirty = 1;
        a->scroll[PANE_SUQL].off = 0;
        if (a->tabs && a->focus != PANE_SUQL) a->scroll[PANE_SUQL].unseen = 1;   /* its tab says so */
        break;
    case AG_EV_RESULT:
        vq_result(&a->q, m->data);
        a->q_dirty = 1;
        break;
    case AG_EV_STATE:
        set_state(a, m->data);
        m->data = NULL;
        break;
    case AG_EV_TIMINGS:
        a->last_ms = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m->data, "ms_total"));
        usage_of_timings(a, m->data);
        break;
    case AG_EV_RETRY: {
        double wait = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m->data, "wait"));
        snprintf(a->activity, sizeof a->activity, "%s: %s", m->stage ? m->stage : "LLM",
                 m->error ? m->error : "failed");
        a->retry_at = gn_now() + (wait > 0 ? wait : 0);
        break;
    }
    case TW_DONE: {
        app_job *j = m->arg;
        a->job = NULL;
        a->retry_at = 0;
        if (j->kind == JOB_TURN) finish_turn(a, j, m->status);
        else finish_query(a, j, m->status);
        job_free(j);
        a->reply = NULL;
        if (a->queued) {
            char *q = a->queued;
            a->queued = NULL;
            if (!strncmp(a->notice, "queued:", 7)) a->notice[0] = 0;   /* it is sent now */
            app_send(a, q);
            free(q);
        }
        break;
    }
    default: break;
    }
    a->dirty = 1;
}

/* ---- resets and resumes ---------------------------------------------------------------------- */

void app_reset(app *a)
{
    genie_chat_reset(&a->ch);
    memset(&a->last, 0, sizeof a->last);
    memset(&a->sess, 0, sizeof a->sess);
    cJSON_Delete(a->timings);
    a->timings = NULL;
    a->last_memo = a->sess_memo = 0;
    a->last_ms = 0;
    vc_clear(&a->conv);
    a->sel = -1;
    vq_clear(&a->q);
    set_state(a, NULL);
    a->turn = 0;
    a->reply = NULL;
    for (int p = 0; p < PANE__COUNT; p++) a->scroll[p] = (app_scroll){ 0, 0 };
    a->q_dirty = 1;
    a->dirty = 1;
}

void app_show_turn(const st_turn *t, void *ud)
{
    app *a = ud;
    llm_stats u = { .calls = t->llm_calls, .cache_hits = t->cache_hits, .prompt_tokens = t->tokens_in,
                    .completion_tokens = t->tokens_out, .cost = t->cost >= 0 ? t->cost : 0,
                    .priced_calls = t->cost >= 0 };
    llm_stats_add(&a->sess, &u);
    vc_add(&a->conv, VC_USER, t->user ? t->user : "");
    if (t->response) vc_add(&a->conv, VC_AGENT, t->response);
    cJSON *q = t->suql_json ? cJSON_Parse(t->suql_json) : NULL;
    const cJSON *x;
    cJSON_ArrayForEach(x, q) {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "suql"));
        if (!s) continue;
        vq_add(&a->q, t->n, s, x, NULL);
        cJSON *d = cJSON_CreateObject();
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(x, "error");
        if (cJSON_IsString(err)) cJSON_AddStringToObject(d, "error", err->valuestring);
        cJSON_AddNumberToObject(d, "count", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "rows")));
        vq_result(&a->q, d);
        cJSON_Delete(d);
    }
    cJSON_Delete(q);
    cJSON *st = t->state_json ? cJSON_Parse(t->state_json) : NULL;
    if (st) set_state(a, st);
    a->q_dirty = 1;
}

/* ---- the loop ---------------------------------------------------------------------------------- */

static void resize(app *a)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
    draw_layout(a);
    clearok(curscr, TRUE);
    a->dirty = 1;
}

static void signals(app *a)
{
    unsigned char b[32];
    ssize_t n = read(g_sig[0], b, sizeof b);
    for (ssize_t i = 0; i < n; i++) {
        if (b[i] == SIGWINCH) resize(a);
        else if (b[i] == SIGINT && a->job) app_cancel(a);
        else {
            a->quit = 1;
            if (b[i] != SIGINT && !a->quit_signal) a->quit_signal = b[i];
        }
    }
}

static int install_signals(void)
{
    if (pipe(g_sig)) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(g_sig[i], F_SETFL, fcntl(g_sig[i], F_GETFL) | O_NONBLOCK);
        fcntl(g_sig[i], F_SETFD, FD_CLOEXEC);
    }
    static const int sigs[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT };
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa = { 0 };
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART;
        sigaction(sigs[i], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static void loop(app *a)
{
    int was_loading = 0;
    while (!a->quit) {
        /* While the search index loads, the status line says so, redrawn
         * four times a second, and once more when it is read. */
        int loading = genie_kb_loading(&a->ch.kb);
        if (loading || was_loading) a->dirty = 1;
        was_loading = loading;
        if (a->dirty || a->job) draw_frame(a);
        struct pollfd fds[3] = {
            { STDIN_FILENO, POLLIN, 0 }, { tw_fd(a->w), POLLIN, 0 }, { g_sig[0], POLLIN, 0 },
        };
        int timeout = a->job ? 125 : loading ? 250 : -1;
        if (poll(fds, 3, timeout) < 0 && errno != EINTR) break;
        if (fds[2].revents & POLLIN) signals(a);
        if (fds[1].revents & POLLIN) {
            tw_msg *m = tw_take(a->w);
            while (m) {
                tw_msg *next = m->next;
                on_msg(a, m);
                tw_msg_free(m);
                m = next;
            }
        }
        if (fds[0].revents & (POLLHUP | POLLERR)) a->quit = 1;   /* the terminal went away */
        else if (fds[0].revents & POLLIN) input_keys(a);
    }
}

/* Wait for the job running to end (cancelled) before anything is freed. */
static void drain(app *a)
{
    if (!a->job) return;
    app_cancel(a);
    while (a->job) {
        struct pollfd p = { tw_fd(a->w), POLLIN, 0 };
        poll(&p, 1, 1000);
        tw_msg *m = tw_take(a->w);
        while (m) {
            tw_msg *next = m->next;
            if (m->kind == TW_DONE) {
                job_free(m->arg);
                a->job = NULL;
            }
            tw_msg_free(m);
            m = next;
        }
    }
}

static void first_screen(app *a, int resumed)
{
    const ag_agent *ag = a->ch.agent;
    if (!resumed && ag->greeting && *ag->greeting) vc_add(&a->conv, VC_AGENT, ag->greeting);
    for (int i = 0; i < a->ch.nnotes; i++) vc_add(&a->conv, VC_NOTE, a->ch.notes[i]);
    if (tx_ascii()) {
        /* Said once, where the person looks: why the lines are ASCII. */
        const char *v = getenv("LC_ALL");
        const char *name = v && *v ? "LC_ALL" : (v = getenv("LC_CTYPE")) && *v ? "LC_CTYPE"
                         : (v = getenv("LANG")) && *v ? "LANG" : NULL;
        char *s = name ? xasprintf("%s=%s is not a UTF-8 locale, so the screen draws with ASCII; "
                                   "set LANG=C.UTF-8 (or another UTF-8 locale) to see every character",
                                   name, v)
                       : xasprintf("no locale is set (LANG, LC_ALL), so the screen draws with ASCII; "
                                   "set LANG=C.UTF-8 (or another UTF-8 locale) to see every character");
        vc_add(&a->conv, VC_NOTE, s);
        free(s);
    }
    const char *off = genie_offline_reason(a->c);
    if (off) {
        char *s = xasprintf("%s: type SUQL (SELECT ...) or worksheet statements, or /help", off);
        vc_add(&a->conv, VC_NOTE, s);
        free(s);
    }
}

int cli_chat_screen(const cfg_t *c)
{
    app a;
    memset(&a, 0, sizeof a);
    a.c = c;
    a.sel = -1;
    gn_err e;
    gn_err_clear(&e);
    /* Loading a large knowledge base's index takes seconds: say so
     * until the screen opens. */
    genie_hooks h = cli_hooks(c);
    cli_status("loading the agent and its knowledge base...");
    int rc = genie_chat_open(&a.ch, c, &h, &e);
    cli_status_end();
    if (rc) {
        genie_chat_close(&a.ch);
        return cli_fail(&e);
    }
    /* A locale that cannot show UTF-8 gets the screen in ASCII. */
    tx_set_ascii(!gn_locale_utf8());
    vc_init(&a.conv, a.ch.agent->name);
    vq_init(&a.q);
    tx_lines_init(&a.ws_lines);
    tx_lines_init(&a.q_lines);
    const char *t = getenv("GENIE_SCREEN_TEST");
    a.test = t && *t && strcmp(t, "0");
    a.q.hide_times = a.test;
    const char *theme = cfg_str(c, OPT_THEME);
    a.theme = cfg_bool(c, OPT_NO_COLOR) || !strcmp(theme, "mono") ? 2 : !strcmp(theme, "light") ? 1 : 0;
    int resumed = 0;
    if (cfg_str(c, OPT_RESUME)[0]) {
        int n;
        if (genie_chat_resume(&a.ch, cfg_str(c, OPT_RESUME), app_show_turn, &a, &n, &e)) {
            gn_err_prefix(&e, "--resume: ");
            rc = cli_fail(&e);
            goto out;
        }
        char m[96];
        snprintf(m, sizeof m, "resumed session %ld (%d turn%s)", a.ch.sid, n, n == 1 ? "" : "s");
        vc_add(&a.conv, VC_NOTE, m);
        if (a.ch.resume_note) vc_add(&a.conv, VC_NOTE, a.ch.resume_note);
        a.turn = n;
        resumed = 1;
    }
    first_screen(&a, resumed);
    /* Before curses takes the terminal: a refusal is a message on it. */
    if (install_signals() || !(a.w = tw_new())) {
        gn_err_set(&e, GN_EIO, "cannot start the interface: %s", strerror(errno));
        rc = cli_fail(&e);
        goto out;
    }
    if (draw_start(&a)) {
        gn_err_set(&e, GN_EUSAGE, "cannot start the full-screen interface (TERM=%s); try --plain",
                   getenv("TERM") ? getenv("TERM") : "");
        rc = cli_fail(&e);
        goto out;
    }
    input_start(&a);
    draw_layout(&a);
    a.dirty = 1;
    loop(&a);
    drain(&a);
    input_end(&a);
    draw_end();
    rc = genie_chat_save_all(&a.ch, &e) ? cli_fail(&e) : EXIT_OK;
    if (rc == EXIT_OK && a.quit_signal) rc = 128 + a.quit_signal;   /* saved, then ended as asked */
out:
    tw_free(a.w);
    vc_release(&a.conv);
    vq_release(&a.q);
    tx_lines_release(&a.ws_lines);
    tx_lines_release(&a.q_lines);
    cJSON_Delete(a.state);
    cJSON_Delete(a.state_before);
    cJSON_Delete(a.timings);
    free(a.queued);
    genie_chat_close(&a.ch);
    return rc;
}
