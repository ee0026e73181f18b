/*
 * cmd_chat.c — the conversation in line mode (--plain), and the sessions
 * commands (--resume, --list-sessions, --export-session).
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

#include "agent/agent.h"
#include "llm/prompt.h"
#include "store/sessions.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { P_PARSE, P_KB, P_REPAIR, P_RESPOND, P__COUNT };
static const char *const chat_prompts[P__COUNT] = { "parse", "kb_parse", "repair", "respond" };

typedef struct chat {
    const cfg_t *c;
    ag_agent *agent;
    cli_suql_ctx x;
    sqlite3 *wdb;
    llm_tpl *tpl[P__COUNT];
    st_sessions *ss;
    long sid;                 /* 0 until the first turn is saved */
    ag_conv *cv;
    int json, tty, streamed, quiet;
} chat;

static volatile sig_atomic_t g_cancel;

static void on_sigint(int sig)
{
    (void)sig;
    if (g_cancel) _exit(130);     /* a second Ctrl-C while cancelling */
    g_cancel = 1;
}

/* ---- finding the agent ------------------------------------------------ */

/* ---- opening everything ------------------------------------------------- */

static int load_prompts(chat *ch, gn_err *e)
{
    char *user, *shipped;
    cli_prompt_dirs(ch->c, &user, &shipped);
    const char *dirs[3] = { ch->agent->prompt_dir, user, shipped };
    int rc = 0;
    for (int i = 0; i < P__COUNT && !rc; i++) {
        char *name = xasprintf("%s.prompt", chat_prompts[i]);
        rc = llm_tpl_load(dirs, 3, name, &ch->tpl[i], e);
        free(name);
    }
    free(user);
    free(shipped);
    return rc;
}

static char *sessions_path(const cfg_t *c)
{
    const char *p = cfg_str(c, OPT_SESSIONS);
    if (*p) return xstrdup(p);
    char *dir = cfg_xdg_dir(c, CFG_XDG_DATA, NULL);
    char *r = dir ? xasprintf("%s/sessions.db", dir) : NULL;
    free(dir);
    return r;
}

static int open_sessions(const cfg_t *c, st_sessions **ss, gn_err *e)
{
    char *p = sessions_path(c);
    if (!p) return gn_err_set(e, GN_ENOTFOUND, "no place for the sessions file (set --sessions)");
    int rc = st_sessions_open(p, ss, e);
    if (rc) gn_err_prefix(e, "%s: ", p);
    free(p);
    return rc;
}

static int parse_today(const cfg_t *c, ws_date *d, gn_err *e)
{
    const char *t = cfg_str(c, OPT_TODAY);
    if (!*t) { *d = ws_today(); return 0; }
    if (ws_date_parse_iso(t, d))
        return gn_err_set(e, GN_EUSAGE, "--today '%s' is not a date (YYYY-MM-DD)", t);
    return 0;
}

/* The connection the agent's APIs write through: the knowledge base
 * itself when it is writable; else (an installed, read-only sample) a
 * file of the user's, $XDG_DATA_HOME/genie/AGENT-data.db, with the
 * knowledge base attached read-only, so the APIs' SQL reads the tables it
 * knows and writes its own. */
static int open_writer(chat *ch, const char *kb, gn_err *e)
{
    if (access(kb, F_OK)) return 0;          /* opening the knowledge base says so */
    if (sqlite3_open_v2(kb, &ch->wdb, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        !sqlite3_db_readonly(ch->wdb, "main")) {
        /* A database the agent brings without genie_columns gets it
         * from the agent's db worksheets. */
        int made = 0;
        sqlite3_busy_timeout(ch->wdb, 5000);
        int rc = ag_schema_sync(ch->agent, ch->wdb, &made, e);
        if (!rc && made && !ch->quiet)
            fprintf(stderr, "genie: described %d table%s of %s from the agent's db worksheets\n", made,
                    made == 1 ? "" : "s", kb);
        return rc;
    }
    sqlite3_close(ch->wdb);
    ch->wdb = NULL;
    char *dir = cfg_xdg_dir(ch->c, CFG_XDG_DATA, NULL);
    char *path = dir ? xasprintf("%s/%s-data.db", dir, ch->agent->name) : NULL;
    free(dir);
    int rc = path ? gn_mkdirs_for(path, e) : gn_err_set(e, GN_ENOTFOUND, "no data directory");
    if (!rc && sqlite3_open_v2(path, &ch->wdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
        rc = st_dberr(ch->wdb, e, path);
    if (!rc) {
        sqlite3_busy_timeout(ch->wdb, 5000);
        char *uri = sqlite3_mprintf("ATTACH 'file:%q?mode=ro' AS kb", kb);
        if (sqlite3_exec(ch->wdb, uri, NULL, NULL, NULL) != SQLITE_OK) rc = st_dberr(ch->wdb, e, kb);
        sqlite3_free(uri);
    }
    if (rc) {
        char m[1024];
        fprintf(stderr, "genie: warning: %s is read-only and %s cannot be used (%s); the agent's "
                "APIs cannot write\n", kb, path ? path : "a data file", gn_err_str(e, m, sizeof m));
        sqlite3_close(ch->wdb);
        ch->wdb = NULL;
        gn_err_clear(e);
        rc = 0;
    } else if (!ch->quiet && !ch->json) {
        fprintf(stderr, "genie: %s is read-only; what the agent writes goes to %s\n", kb, path);
    }
    free(path);
    return rc;
}

static void chat_close(chat *ch)
{
    ag_conv_free(ch->cv);
    for (int i = 0; i < P__COUNT; i++) llm_tpl_free(ch->tpl[i]);
    if (ch->wdb) sqlite3_close(ch->wdb);
    cli_suql_close(&ch->x);
    st_sessions_close(ch->ss);
    ag_agent_free(ch->agent);
}

static int chat_open(chat *ch, const cfg_t *c, gn_err *e)
{
    memset(ch, 0, sizeof *ch);
    ch->c = c;
    ch->json = !strcmp(cfg_str(c, OPT_FORMAT), "json");
    ch->tty = isatty(0) && isatty(1);
    ch->quiet = cfg_bool(c, OPT_QUIET);
    ws_date today;
    char *dir = cli_agent_dir(c, e);
    if (!dir) return e->code;
    int rc = ag_agent_load(dir, &ch->agent, e);
    free(dir);
    if (!rc) rc = parse_today(c, &today, e);
    if (rc) return rc;
    const char *db = *cfg_str(c, OPT_DB) ? cfg_str(c, OPT_DB) : ch->agent->db_path;
    if ((rc = open_writer(ch, db, e)) || (rc = cli_suql_open(&ch->x, c, db, e))) return rc;
    if (ch->wdb && (rc = ag_agent_init_db(ch->agent, ch->wdb, e))) return rc;
    if (ch->x.cl && (rc = load_prompts(ch, e))) return rc;
    gn_err se;
    gn_err_clear(&se);
    if (open_sessions(c, &ch->ss, &se)) {
        char m[1024];
        fprintf(stderr, "genie: warning: conversations will not be saved: %s\n", gn_err_str(&se, m, sizeof m));
    }
    ag_conv_config cc = {
        .agent = ch->agent, .schema = ch->x.s.schema, .suql = ch->x.en, .wdb = ch->wdb,
        .client = ch->x.cl, .parse_tpl = ch->tpl[P_PARSE], .kb_tpl = ch->tpl[P_KB],
        .repair_tpl = ch->tpl[P_REPAIR], .respond_tpl = ch->tpl[P_RESPOND], .today = today,
    };
    ch->cv = ag_conv_new(&cc);
    return 0;
}

/* ---- resuming ------------------------------------------------------------ */

typedef struct last_turn {
    char *state, *acts, *response;
    int n;
} last_turn;

static int keep_last(const st_turn *t, void *ud)
{
    last_turn *l = ud;
    free(l->state);
    free(l->acts);
    free(l->response);
    l->state = t->state_json ? xstrdup(t->state_json) : NULL;
    l->acts = t->acts_json ? xstrdup(t->acts_json) : NULL;
    l->response = t->response ? xstrdup(t->response) : NULL;
    l->n = t->n;
    return 0;
}

static int resume(chat *ch, gn_err *e)
{
    const char *arg = cfg_str(ch->c, OPT_RESUME);
    long id;
    if (!ch->ss) return gn_err_set(e, GN_ENOTFOUND, "--resume: the sessions file is not available");
    if (!strcmp(arg, "latest")) {
        if (st_session_latest(ch->ss, ch->agent->name, &id, e))
            return gn_err_set(e, GN_ENOTFOUND, "--resume: no saved conversation with agent %s",
                              ch->agent->name);
    } else {
        char *end;
        id = strtol(arg, &end, 10);
        if (*end || id <= 0) return gn_err_set(e, GN_EUSAGE, "--resume '%s' is not a session id", arg);
    }
    st_session_info info;
    if (st_session_info_get(ch->ss, id, &info, e)) return e->code;
    if (strcmp(info.agent, ch->agent->name))
        return gn_err_set(e, GN_EUSAGE, "session %ld is a conversation with agent %s, not %s "
                          "(use --agent %s)", id, info.agent, ch->agent->name, info.agent);
    last_turn l = { 0 };
    int rc = st_session_turns(ch->ss, id, keep_last, &l, e);
    if (!rc && l.n) rc = ag_conv_restore(ch->cv, l.state, l.acts, l.response, l.n, e);
    if (!rc) {
        ch->sid = id;
        if (!ch->json && !ch->quiet)
            fprintf(stderr, "genie: resumed session %ld (%d turn%s)\n", id, l.n, l.n == 1 ? "" : "s");
        if (!ch->json && l.response) printf("%s\n", l.response);
    }
    free(l.state);
    free(l.acts);
    free(l.response);
    return rc;
}

/* ---- one turn -------------------------------------------------------------- */

static void print_json(const cJSON *o)
{
    char *s = cJSON_PrintUnformatted(o);
    puts(s);
    free(s);
    fflush(stdout);
}

static void on_event(const ag_event *ev, void *ud)
{
    chat *ch = ud;
    if (ch->json) {
        cJSON *o = ag_event_json(ev);
        print_json(o);
        cJSON_Delete(o);
        return;
    }
    switch (ev->kind) {
    case AG_EV_TOKEN:
        fputs(ev->text, stdout);
        fflush(stdout);
        ch->streamed = 1;
        break;
    case AG_EV_RESPONSE:
        if (!ch->streamed) fputs(ev->text, stdout);
        else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev->data, "fallback")))
            printf("\n%s", ev->text);
        fputc('\n', stdout);
        fflush(stdout);
        break;
    case AG_EV_ERROR:
        fprintf(stderr, "genie: %s: %s\n", ev->stage ? ev->stage : "turn", ev->error);
        break;
    case AG_EV_REFUSED:
        if (!ch->quiet) fprintf(stderr, "genie: refused \"%s\": %s\n", ev->text, ev->error);
        break;
    case AG_EV_WARNING:
        fprintf(stderr, "genie: warning: %s\n", ev->error);
        break;
    default:
        break;
    }
}

static void save_turn(chat *ch, const char *utt, const ag_turn_out *o)
{
    gn_err e;
    gn_err_clear(&e);
    if (!ch->ss) return;
    if (!ch->sid && st_session_new(ch->ss, ch->agent->name, &ch->sid, &e)) goto fail;
    st_turn t = {
        .n = o->n, .user = utt, .parse = o->parse, .suql_json = o->suql_json,
        .acts_json = o->acts_json, .response = o->response, .state_json = o->state_json,
        .error = o->error, .tokens_in = o->tokens_in, .tokens_out = o->tokens_out,
        .llm_calls = o->llm_calls, .ms_total = o->ms_total, .ms_llm = o->ms_llm,
        .started = o->started,
    };
    if (!st_session_add_turn(ch->ss, ch->sid, &t, &e)) return;
fail:;
    char m[1024];
    fprintf(stderr, "genie: warning: this turn was not saved: %s\n", gn_err_str(&e, m, sizeof m));
}

static void turn(chat *ch, const char *utt)
{
    ag_turn_out o;
    gn_err e;
    gn_err_clear(&e);
    ch->streamed = 0;
    g_cancel = 0;
    if (ag_turn(ch->cv, utt, on_event, ch, (const volatile int *)&g_cancel, &o, &e)) {
        if (!ch->json) fprintf(stderr, "\ngenie: %s\n", e.msg);
        return;
    }
    save_turn(ch, utt, &o);
    ag_turn_out_release(&o);
}

/* ---- the loop ------------------------------------------------------------- */

static int chat_loop(chat *ch)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    struct sigaction sa = { 0 };
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    if (!cfg_str(ch->c, OPT_RESUME)[0] && !ch->json && ch->agent->greeting && *ch->agent->greeting)
        printf("%s\n", ch->agent->greeting);
    if (!ch->json && !ch->x.cl && !ch->quiet)
        fprintf(stderr, "genie: %s: type SUQL (SELECT ...) or worksheet statements\n",
                cli_offline_reason(ch->c));
    for (;;) {
        if (ch->tty) { fputs("> ", stdout); fflush(stdout); }
        g_cancel = 0;
        errno = 0;
        if ((n = getline(&line, &cap, stdin)) < 0) {
            if (errno == EINTR && g_cancel) break;   /* Ctrl-C at the prompt */
            break;
        }
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) continue;
        if (!strcmp(p, "/quit") || !strcmp(p, "/exit")) break;
        turn(ch, p);
    }
    free(line);
    if (ch->tty) fputc('\n', stdout);
    return EXIT_OK;
}

int cli_chat(const cfg_t *c)
{
    chat ch;
    gn_err e;
    gn_err_clear(&e);
    int rc = chat_open(&ch, c, &e);
    if (!rc && cfg_str(c, OPT_RESUME)[0]) rc = resume(&ch, &e);
    int status = rc ? cli_fail(&e) : chat_loop(&ch);
    chat_close(&ch);
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
    printf("%6ld  %-12s  %s  %3d turn%s  %s\n", i->id, i->agent, when, i->turns,
           i->turns == 1 ? " " : "s", i->first_user);
    return 0;
}

int cli_list_sessions(const cfg_t *c)
{
    st_sessions *ss = NULL;
    gn_err e;
    gn_err_clear(&e);
    int rc = open_sessions(c, &ss, &e);
    if (!rc) rc = st_session_list(ss, NULL, print_info, NULL, &e);
    st_sessions_close(ss);
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
    int rc = open_sessions(c, &ss, &e);
    if (!rc) rc = st_session_export_md(ss, id, &b, &e);
    if (!rc) fputs(b.data, stdout);
    gn_buf_release(&b);
    st_sessions_close(ss);
    return rc ? cli_fail(&e) : EXIT_OK;
}
