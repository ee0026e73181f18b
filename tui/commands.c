/*
 * commands.c — the slash commands and the help screen,
 * from two tables: adding a command is one row and one function, and
 * the help and completion follow from the rows (the keys are the input
 * loop's own table, input.c).
 */
#include "app.h"

#include "util/strdist.h"
#include "util/xmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*cmd_fn)(app *a, const char *arg);

typedef struct cmd {
    const char *name, *args, *help;
    int idle;                 /* needs the conversation: waits for the turn */
    cmd_fn fn;
} cmd;

static void c_help(app *a, const char *arg) { (void)arg; a->help = 1; }
static void c_quit(app *a, const char *arg) { (void)arg; a->quit = 1; }

static void c_reset(app *a, const char *arg)
{
    (void)arg;
    app_reset(a);
    app_add(a, VC_NOTE, "a new conversation");
}

static void c_suql(app *a, const char *arg) { app_start_query(a, JOB_SUQL, arg); }
static void c_explain(app *a, const char *arg) { app_start_query(a, JOB_EXPLAIN, arg); }

static void c_schema(app *a, const char *arg)
{
    (void)arg;
    gn_buf b;
    gn_buf_init(&b);
    genie_kb_schema(&a->ch.kb, GENIE_SCHEMA_MAX_ENUM, &b);
    app_add(a, VC_NOTE, "/schema: the knowledge base's schema, as the LLM sees it");
    app_add(a, VC_BLOCK, b.data ? b.data : "");
    gn_buf_release(&b);
}

static void c_state(app *a, const char *arg)
{
    (void)arg;
    cJSON *j = genie_chat_state_json(&a->ch);
    char *s = cJSON_Print(j);
    /* cJSON indents with tabs; the screen shows two spaces. */
    gn_buf b;
    gn_buf_init(&b);
    for (const char *p = s ? s : "null"; *p; p++) {
        if (*p == '\t') gn_buf_puts(&b, p > s && p[-1] == ':' ? " " : "  ");
        else gn_buf_putc(&b, *p);
    }
    char m[96];
    snprintf(m, sizeof m, "/state: the dialogue state after turn %d, as JSON", a->turn);
    app_add(a, VC_NOTE, m);
    app_add(a, VC_BLOCK, b.data);
    gn_buf_release(&b);
    free(s);
    cJSON_Delete(j);
}

/* One line of /usage: LLM calls, cache and memo hits, tokens, cost. */
static void usage_line(gn_buf *b, const char *what, const llm_stats *s, long memo)
{
    gn_buf_printf(b, "%s: ", what);
    llm_stats_format(s, b);
    if (memo) gn_buf_printf(b, "; %ld SUQL memo hit%s", memo, memo == 1 ? "" : "s");
    if (!s->priced_calls && s->calls) gn_buf_puts(b, " (no price known: --prices)");
    gn_buf_putc(b, '\n');
}

/* The last turn's timeline: each phase a bar placed where it ran in the
 * turn (20 columns for the whole), its time, then the LLM calls by stage.
 * Screen tests show no clock, so the bars and times are left out there. */
static void timeline(const app *a, gn_buf *b)
{
    const cJSON *t = a->timings;
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(t, "ms_by_stage");
    if (!cJSON_IsObject(ph) || !ph->child) return;
    double total = 0;
    for (const cJSON *p = ph->child; p; p = p->next) total += cJSON_IsNumber(p) ? p->valuedouble : 0;
    if (a->test) gn_buf_puts(b, "\nlast turn's timeline:\n");
    else gn_buf_printf(b, "\nlast turn's timeline (%.1f s):\n", total / 1000.0);
    double at = 0;
    enum { W = 20 };
    for (const cJSON *p = ph->child; p; p = p->next) {
        double ms = cJSON_IsNumber(p) ? p->valuedouble : 0;
        gn_buf_printf(b, "  %-10s", p->string);
        if (!a->test && total > 0) {
            int from = (int)(at / total * W + 0.5), to = (int)((at + ms) / total * W + 0.5);
            if (to <= from) to = from + 1;
            if (to > W) to = W, from = from < W ? from : W - 1;
            gn_buf_putc(b, '|');
            for (int i = 0; i < W; i++) gn_buf_putc(b, i >= from && i < to ? '#' : ' ');
            gn_buf_printf(b, "| %6.2f s", ms / 1000.0);
        }
        gn_buf_putc(b, '\n');
        at += ms;
    }
    const cJSON *by = cJSON_GetObjectItemCaseSensitive(t, "calls_by_stage");
    if (cJSON_IsObject(by) && by->child) {
        gn_buf_puts(b, "  LLM calls:");
        for (const cJSON *c = by->child; c; c = c->next)
            gn_buf_printf(b, "%s %s %.0f", c == by->child ? "" : ",", c->string, cJSON_GetNumberValue(c));
        gn_buf_putc(b, '\n');
    }
}

static void c_usage(app *a, const char *arg)
{
    (void)arg;
    gn_buf b;
    gn_buf_init(&b);
    if (a->turn) usage_line(&b, "last turn", &a->last, a->last_memo);
    char what[64];
    snprintf(what, sizeof what, "this conversation (%d turn%s)", a->turn, a->turn == 1 ? "" : "s");
    usage_line(&b, what, &a->sess, a->sess_memo);
    gn_buf_puts(&b, "(an LLM call is a request sent to the server; a reply from the cache is "
                "not one, and a memo hit asked nothing)\n");
    timeline(a, &b);
    while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = 0;
    app_add(a, VC_NOTE, "/usage: the LLM use of the last turn and of this conversation");
    app_add(a, VC_BLOCK, b.data);
    gn_buf_release(&b);
}

static int list_one(const st_session_info *i, void *ud)
{
    char when[32];
    time_t t = (time_t)i->updated;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    gn_buf_printf(ud, "%5ld  %s  %3d turn%s  %s\n", i->id, when, i->turns, i->turns == 1 ? " " : "s",
                  i->title[0] ? i->title : i->first_user);
    return 0;
}

static void c_sessions(app *a, const char *arg)
{
    (void)arg;
    gn_err e;
    gn_err_clear(&e);
    gn_buf b;
    gn_buf_init(&b);
    if (!a->ch.ss) gn_err_set(&e, GN_ENOTFOUND, "the sessions file is not available");
    else genie_sessions_list(a->ch.ss, a->ch.agent->name, list_one, &b, &e);
    char m[1024];
    if (e.code) app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
    else if (!b.len) app_add(a, VC_NOTE, "no saved conversation with this agent");
    else {
        gn_buf_puts(&b, "(/resume ID continues one; /rename TITLE names this one; /delete ID)");
        app_add(a, VC_BLOCK, b.data);
    }
    gn_buf_release(&b);
}

static void c_resume(app *a, const char *arg)
{
    gn_err e;
    gn_err_clear(&e);
    int n;
    long id;
    /* A session that cannot be resumed leaves the conversation as it is. */
    if (genie_chat_resume_check(&a->ch, *arg ? arg : "latest", &id, &e)) {
        char m[1024];
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
        return;
    }
    app_reset(a);
    if (genie_chat_resume(&a->ch, *arg ? arg : "latest", app_show_turn, a, &n, &e)) {
        char m[1024];
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
        return;
    }
    char m[96];
    snprintf(m, sizeof m, "resumed session %ld (%d turn%s)", a->ch.sid, n, n == 1 ? "" : "s");
    app_add(a, VC_NOTE, m);
    if (a->ch.resume_note) app_add(a, VC_NOTE, a->ch.resume_note);
    a->turn = n;
}

/* /rename TITLE: this conversation's name in the listings. */
static void c_rename(app *a, const char *arg)
{
    gn_err e;
    gn_err_clear(&e);
    char m[1024];
    if (!a->ch.ss) gn_err_set(&e, GN_ENOTFOUND, "the sessions file is not available");
    else if (!a->ch.sid) gn_err_set(&e, GN_ENOTFOUND, "nothing is saved yet: a conversation is saved from its first turn");
    else genie_session_rename(a->ch.ss, a->ch.sid, arg, &e);
    if (e.code) {
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
        return;
    }
    if (arg[strspn(arg, " \t")]) snprintf(m, sizeof m, "session %ld is now named \"%s\"", a->ch.sid, arg);
    else snprintf(m, sizeof m, "session %ld has no name now (the listings show its first words)", a->ch.sid);
    app_add(a, VC_NOTE, m);
}

/* /delete ID: a saved conversation other than this one. */
static void c_delete(app *a, const char *arg)
{
    gn_err e;
    gn_err_clear(&e);
    char m[1024], *end;
    long id = strtol(arg, &end, 10);
    if (!*arg || *end || id <= 0) gn_err_set(&e, GN_EUSAGE, "/delete takes a session id (/sessions lists them)");
    else if (!a->ch.ss) gn_err_set(&e, GN_ENOTFOUND, "the sessions file is not available");
    else if (id == a->ch.sid)
        gn_err_set(&e, GN_EUSAGE, "session %ld is this conversation: /reset first, then /delete %ld", id, id);
    else genie_session_delete(a->ch.ss, id, &e);
    if (e.code) {
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
        return;
    }
    snprintf(m, sizeof m, "session %ld deleted", id);
    app_add(a, VC_NOTE, m);
}

static void c_export(app *a, const char *arg)
{
    gn_err e;
    gn_err_clear(&e);
    char m[1200];
    if (!*arg) {
        app_add(a, VC_ERROR, "/export needs a file name");
        return;
    }
    if (!a->ch.ss || !a->ch.sid) {
        app_add(a, VC_ERROR, "nothing saved yet: a conversation is saved from its first turn");
        return;
    }
    gn_buf b;
    gn_buf_init(&b);
    if (genie_session_export_md(a->ch.ss, a->ch.sid, &b, &e)) {
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
    } else {
        FILE *f = fopen(arg, "w");
        int ok = f && fwrite(b.data, 1, b.len, f) == b.len;
        if (f && fclose(f)) ok = 0;
        if (ok) snprintf(m, sizeof m, "session %ld exported to %s", a->ch.sid, arg);
        else snprintf(m, sizeof m, "%s: %s", arg, strerror(errno));
        app_add(a, ok ? VC_NOTE : VC_ERROR, m);
    }
    gn_buf_release(&b);
}

static void c_model(app *a, const char *arg)
{
    gn_err e;
    gn_err_clear(&e);
    char m[300];
    if (!a->ch.kb.cl) {
        app_add(a, VC_ERROR, "offline: there is no LLM to choose a model of");
        return;
    }
    if (!*arg) {
        snprintf(m, sizeof m, "the model is %s", genie_chat_model(&a->ch));
        app_add(a, VC_NOTE, m);
        return;
    }
    if (genie_chat_set_model(&a->ch, arg, &e)) {
        app_add(a, VC_ERROR, gn_err_str(&e, m, sizeof m));
        return;
    }
    snprintf(m, sizeof m, "the model is now %s", arg);
    app_add(a, VC_NOTE, m);
}

/* tmux passes a program's OSC 52 on to the terminal's clipboard only
 * with set-clipboard on (its default, external, keeps it to tmux): the
 * value, asked of the tmux genie runs in at each copy (it can change), or
 * "" outside tmux. */
static const char *tmux_clipboard(void)
{
    static char value[32];
    value[0] = 0;
    if (!getenv("TMUX") || !*getenv("TMUX")) return value;
    FILE *f = popen("tmux show-options -sv set-clipboard 2>/dev/null", "r");
    if (!f) return value;
    if (!fgets(value, sizeof value, f)) value[0] = 0;
    value[strcspn(value, "\r\n")] = 0;
    pclose(f);
    if (!value[0]) snprintf(value, sizeof value, "unknown");
    return value;
}

void cmd_copy(app *a, const char *text, const char *what)
{
    if (!text || !*text) {
        app_notice(a, "nothing to copy");
        return;
    }
    draw_osc52(text);
    app_notice(a, "copied %s, %zu bytes, to the clipboard (OSC 52)", what, strlen(text));
    static int said;
    const char *tc = said ? "" : tmux_clipboard();   /* asked until it was said once */
    if (*tc && strcmp(tc, "on")) {
        said = 1;
        char *m = xasprintf("tmux's set-clipboard is %s, so the copy may stay inside tmux "
                            "(its paste buffer at best): `tmux set -s set-clipboard on` passes it "
                            "to the terminal, or Shift-drag selects with the terminal's own mouse",
                            tc);
        app_add(a, VC_NOTE, m);
        free(m);
    }
}

/* /copy, /copy N (the Nth reply back), /copy code [N] (the Nth code block
 * back), /copy suql. */
static void c_copy(app *a, const char *arg)
{
    char *end = (char *)"";
    if (!strcmp(arg, "suql")) {
        cmd_copy(a, a->q.n ? a->q.v[a->q.n - 1].suql : NULL, "the last query");
        return;
    }
    if (!strncmp(arg, "code", 4) && (!arg[4] || arg[4] == ' ')) {
        const char *ns = arg + 4;
        while (*ns == ' ') ns++;
        long nth = *ns ? strtol(ns, &end, 10) : 1;
        if (*ns && (*end || nth < 1)) {
            app_add(a, VC_ERROR, "/copy code takes a count: /copy code 2 is the code block before the last");
            return;
        }
        /* The code blocks of the agent's replies, the last one first. */
        for (int i = a->conv.n - 1; i >= 0; i--) {
            const vc_msg *m = a->conv.m[i];
            if (m->role != VC_AGENT) continue;
            int k = vc_code(m->text.data ? m->text.data : "", 0, NULL);
            if (nth > k) {
                nth -= k;
                continue;
            }
            gn_buf b;
            gn_buf_init(&b);
            vc_code(m->text.data, k - (int)nth + 1, &b);
            cmd_copy(a, b.len ? b.data : "\n", "the code block");
            gn_buf_release(&b);
            return;
        }
        app_notice(a, "no code block in the replies to copy");
        return;
    }
    long nth = 1;
    if (*arg) {
        nth = strtol(arg, &end, 10);
        if (*end || nth < 1) {
            app_add(a, VC_ERROR, "/copy takes N (the Nth reply back), code [N] or suql");
            return;
        }
    }
    int k = vc_reply(&a->conv, (int)(nth > 100000 ? 100000 : nth));
    if (k < 0) {
        app_notice(a, nth == 1 ? "nothing to copy" : "there are fewer replies than that");
        return;
    }
    cmd_copy(a, a->conv.m[k]->text.data, nth == 1 ? "the last reply" : "the reply");
}

static const cmd cmds[] = {
    { "/help", "", "this help", 0, c_help },
    { "/reset", "", "start a new conversation", 1, c_reset },
    { "/suql", "QUERY", "run a SUQL query directly", 1, c_suql },
    { "/explain", "QUERY", "show the plan of a SUQL query, without calling the LLM", 1, c_explain },
    { "/schema", "", "the knowledge base's schema, as the LLM sees it", 0, c_schema },
    { "/state", "", "the dialogue state as JSON", 1, c_state },
    { "/usage", "", "LLM calls, tokens and cost: last turn, conversation", 0, c_usage },
    { "/sessions", "", "the saved conversations with this agent", 1, c_sessions },
    { "/resume", "[ID]", "continue a saved conversation (the latest without ID)", 1, c_resume },
    { "/rename", "TITLE", "name this conversation in the listings", 1, c_rename },
    { "/delete", "ID", "delete a saved conversation (not this one)", 1, c_delete },
    { "/export", "FILE", "write this conversation as Markdown", 1, c_export },
    { "/model", "[NAME]", "show or change the LLM model", 1, c_model },
    { "/copy", "[N|code [N]|suql]", "copy the last reply, the Nth back, a code block or the last query (OSC 52)", 0, c_copy },
    { "/quit", "", "leave genie (also /exit, Ctrl-D)", 0, c_quit },
    { "/exit", "", NULL, 0, c_quit },
};
enum { NCMDS = sizeof cmds / sizeof *cmds };

void cmd_help_text(gn_buf *out)
{
    gn_buf_puts(out, "Keys (and readline's emacs or vi editing keys):\n");
    input_key_help(out);      /* the input loop's own table (input.c) */
    gn_buf_puts(out, "\nCommands:\n");
    for (int i = 0; i < NCMDS; i++) {
        if (!cmds[i].help) continue;
        char name[40];
        snprintf(name, sizeof name, "%s %s", cmds[i].name, cmds[i].args);
        gn_buf_printf(out, "  %-23s %s\n", name, cmds[i].help);
    }
    gn_buf_puts(out, "\nCopying: F2 or a click chooses a message (Up/Down move), y copies it, c\n"
                     "its code blocks.  To select text with the terminal's own mouse, hold\n"
                     "Shift while dragging (with --no-mouse a plain drag does).  Copies go by\n"
                     "OSC 52, which most terminals accept; inside tmux it needs\n"
                     "`set -s set-clipboard on`.\n");
    gn_buf_puts(out, "\nAnything else is said to the agent.  Offline, type SUQL (SELECT ...) or\n"
                     "worksheet statements (Book_Restaurant(num_people=2)) directly.\n");
}

const char *cmd_complete(const char *prefix, int n)
{
    size_t k = strlen(prefix);
    for (int i = 0; i < NCMDS; i++)
        if (cmds[i].help && !strncmp(cmds[i].name, prefix, k) && n-- == 0) return cmds[i].name;
    return NULL;
}

void cmd_run(app *a, const char *line)
{
    size_t n = strcspn(line, " \t\n");
    const char *arg = line + n;
    while (*arg == ' ' || *arg == '\t' || *arg == '\n') arg++;
    char *name = xstrndup(line, n);
    const cmd *c = NULL, *near = NULL;
    int best = 3;
    for (int i = 0; i < NCMDS; i++) {
        if (!strcmp(cmds[i].name, name)) { c = &cmds[i]; break; }
        int d = gn_edit_distance(cmds[i].name, name);
        if (d < best && cmds[i].help) { best = d; near = &cmds[i]; }
    }
    char m[256];
    if (!c) {
        if (near) snprintf(m, sizeof m, "unknown command %s (did you mean %s?); /help lists them", name, near->name);
        else snprintf(m, sizeof m, "unknown command %s; /help lists them", name);
        app_add(a, VC_ERROR, m);
    } else if (c->idle && a->job) {
        snprintf(m, sizeof m, "%s waits for the turn in progress (Ctrl-C cancels it)", c->name);
        app_notice(a, "%s", m);
    } else {
        /* Trailing blanks of the argument are not part of it. */
        char *x = xstrdup(arg);
        size_t k = strlen(x);
        while (k && (x[k - 1] == ' ' || x[k - 1] == '\n' || x[k - 1] == '\t')) x[--k] = 0;
        c->fn(a, x);
        free(x);
    }
    free(name);
    a->dirty = 1;
}
