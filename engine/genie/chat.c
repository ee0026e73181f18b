/*
 * chat.c — a conversation with an agent: opening it, running its turns,
 * resuming and saving it.
 *
 * The order of opening matters: the agent directory first (its errors name
 * file and line), then the database the agent's APIs write (describing the
 * agent's tables from its db worksheets when the database has no
 * genie_columns), then the knowledge base and the LLM, the prompts, and
 * last the sessions file, whose failure is only a note.
 *
 * Saving: a turn the sessions file refuses (another process holds its lock,
 * it became read-only, the disk is full) stays in memory, with the session
 * it belongs to, and is written before the next turn, in order, once the
 * file takes writes again; a reset or a resume does not lose it.  While
 * turns wait, a write waits UNSAVED_PATIENCE_MS for a lock instead of the
 * usual 5 s, so a locked file does not stall every turn.  A refusal that
 * cannot pass (the turn's number taken) drops that turn alone.
 */
#include "genie.h"

#include "util/fs.h"
#include "util/xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNSAVED_PATIENCE_MS 200

static const char *const prompt_names[GENIE_P__COUNT] = { "parse", "kb_parse", "repair", "respond" };

static void note(genie_chat *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(genie_chat *ch, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    ch->notes = xrealloc(ch->notes, (size_t)(ch->nnotes + 2) * sizeof *ch->notes);
    ch->notes[ch->nnotes++] = s;
    ch->notes[ch->nnotes] = NULL;
}

static int load_prompts(genie_chat *ch, gn_err *e)
{
    char *user, *shipped;
    genie_prompt_dirs(ch->c, &user, &shipped);
    const char *dirs[3] = { ch->agent->prompt_dir, user, shipped };
    int rc = 0;
    for (int i = 0; i < GENIE_P__COUNT && !rc; i++) {
        char *name = xasprintf("%s.prompt", prompt_names[i]);
        rc = llm_tpl_load(dirs, 3, name, &ch->tpl[i], e);
        free(name);
    }
    free(user);
    free(shipped);
    return rc;
}

char *genie_sessions_path(const cfg_t *c)
{
    const char *p = cfg_str(c, OPT_SESSIONS);
    if (*p) return xstrdup(p);
    char *dir = cfg_xdg_dir(c, CFG_XDG_DATA, NULL);
    char *r = dir ? xasprintf("%s/sessions.db", dir) : NULL;
    free(dir);
    return r;
}

int genie_sessions_open(const cfg_t *c, st_sessions **ss, gn_err *e)
{
    char *p = genie_sessions_path(c);
    if (!p) return gn_err_set(e, GN_ENOTFOUND, "no place for the sessions file (set --sessions)");
    int rc = st_sessions_open(p, ss, e);
    if (rc && strncmp(e->msg, p, strlen(p))) gn_err_prefix(e, "%s: ", p);   /* named once */
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

/* --db with the default agent: a database without the agent's tables is
 * the user's mistake (--db sample_db/courses.db without --agent courses),
 * said as one, before anything names the default agent's worksheet. */
static int check_default_agent(genie_chat *ch, const char *db, gn_err *e)
{
    if (!*cfg_str(ch->c, OPT_DB) || cfg_source_kind(ch->c, OPT_AGENT) != CFG_SRC_DEFAULT) return 0;
    sqlite3 *k = NULL;
    int rc = 0;
    if (sqlite3_open_v2(db, &k, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(k);
        return 0;                             /* opening it says why */
    }
    for (int i = 0; !rc && i < ch->agent->spec->nsheets; i++) {
        const ws_sheet *w = &ch->agent->spec->sheets[i];
        sqlite3_stmt *st = NULL;
        if (w->kind != WSK_DB || sqlite3_prepare_v2(k, "SELECT 1 FROM sqlite_master WHERE name = ?1",
                                                    -1, &st, NULL) != SQLITE_OK)
            continue;
        sqlite3_bind_text(st, 1, w->name, -1, SQLITE_STATIC);
        int found = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        if (found) continue;
        char *other = genie_agent_of_db(db);
        if (other)
            rc = gn_err_set(e, GN_EUSAGE, "%s is the database of the agent %s, not of the default "
                            "agent %s: add --agent %s", db, other, ch->agent->name, other);
        else
            rc = gn_err_set(e, GN_EUSAGE, "%s has no table %s, which the default agent %s needs: "
                            "name this database's agent with --agent, or use --suql or --search "
                            "for the database alone", db, w->name, ch->agent->name);
        free(other);
    }
    sqlite3_close(k);
    return rc;
}

/* The connection the agent's APIs write through: the knowledge base
 * itself when it is writable; else (an installed, read-only sample) a
 * file of the user's, $XDG_DATA_HOME/genie/AGENT-data.db, with the
 * knowledge base attached read-only, so the APIs' SQL reads the tables it
 * knows and writes its own. */
static int open_writer(genie_chat *ch, const char *kb, gn_err *e)
{
    if (access(kb, F_OK)) return 0;          /* opening the knowledge base says so */
    if (sqlite3_open_v2(kb, &ch->wdb, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        !sqlite3_db_readonly(ch->wdb, "main")) {
        /* A database the agent brings without genie_columns gets it
         * from the agent's db worksheets. */
        int made = 0;
        sqlite3_busy_timeout(ch->wdb, 5000);
        int rc = ag_schema_sync(ch->agent, ch->wdb, &made, e);
        if (!rc && made)
            note(ch, "described %d table%s of %s from the agent's db worksheets", made,
                 made == 1 ? "" : "s", kb);
        return rc;
    }
    sqlite3_close(ch->wdb);
    ch->wdb = NULL;
    char *dir = cfg_xdg_dir(ch->c, CFG_XDG_DATA, NULL);
    char *path = dir ? xasprintf("%s/%s-data.db", dir, ch->agent->name) : NULL;
    free(dir);
    int rc = path ? gn_mkprivate(path, e) : gn_err_set(e, GN_ENOTFOUND, "no data directory");
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
        note(ch, "warning: %s is read-only and %s cannot be used (%s); the agent's APIs cannot write",
             kb, path ? path : "a data file", gn_err_str(e, m, sizeof m));
        sqlite3_close(ch->wdb);
        ch->wdb = NULL;
        gn_err_clear(e);
        rc = 0;
    } else {
        note(ch, "%s is read-only; what the agent writes goes to %s", kb, path);
    }
    free(path);
    return rc;
}

static void drop_unsaved(genie_chat *ch);

void genie_chat_close(genie_chat *ch)
{
    drop_unsaved(ch);
    ag_conv_free(ch->cv);
    for (int i = 0; i < GENIE_P__COUNT; i++) llm_tpl_free(ch->tpl[i]);
    if (ch->wdb) sqlite3_close(ch->wdb);
    genie_kb_close(&ch->kb);
    st_sessions_close(ch->ss);
    ag_agent_free(ch->agent);
    for (int i = 0; i < ch->nnotes; i++) free(ch->notes[i]);
    free(ch->notes);
    free(ch->resume_note);
    free(ch->branch_note);
    memset(ch, 0, sizeof *ch);
}

static ag_conv *new_conv(genie_chat *ch)
{
    /* The agent's HTTP APIs take the configuration's network settings. */
    ag_http_net http = { .connect_timeout = cfg_double(ch->c, OPT_CONNECT_TIMEOUT),
                         .retries = (int)cfg_int(ch->c, OPT_API_RETRIES),
                         .retry_max_wait = cfg_double(ch->c, OPT_API_RETRY_MAX_WAIT) };
    ag_conv_config cc = {
        .agent = ch->agent, .schema = ch->kb.schema, .suql = ch->kb.en, .wdb = ch->wdb,
        .client = ch->kb.cl, .parse_tpl = ch->tpl[GENIE_P_PARSE], .kb_tpl = ch->tpl[GENIE_P_KB],
        .repair_tpl = ch->tpl[GENIE_P_REPAIR], .respond_tpl = ch->tpl[GENIE_P_RESPOND],
        .today = ch->today, .http = &http,
    };
    return ag_conv_new(&cc);
}

int genie_chat_open(genie_chat *ch, const cfg_t *c, const genie_hooks *h, gn_err *e)
{
    memset(ch, 0, sizeof *ch);
    ch->c = c;
    char *dir = genie_agent_dir(c, e);
    if (!dir) return e->code;
    int rc = ag_agent_load(dir, &ch->agent, e);
    free(dir);
    if (!rc) rc = parse_today(c, &ch->today, e);
    if (rc) return rc;
    const char *db = *cfg_str(c, OPT_DB) ? cfg_str(c, OPT_DB) : ch->agent->db_path;
    /* Before anything opens it: a FIFO would block the first read. */
    if ((rc = st_check_regular(db, e)) || (rc = check_default_agent(ch, db, e)) || (rc = open_writer(ch, db, e)) ||
        (rc = genie_kb_open(&ch->kb, c, db, GENIE_KB_SUQL, 1, h, e)))
        return rc;
    if (ch->wdb && ((rc = ag_agent_init_db(ch->agent, ch->wdb, e)) ||
                    (rc = ag_agent_check_sql(ch->agent, ch->wdb, e))))
        return rc;
    if (ch->kb.cl && (rc = load_prompts(ch, e))) return rc;
    gn_err se;
    gn_err_clear(&se);
    if (genie_sessions_open(c, &ch->ss, &se)) {
        char m[1024];
        ch->ss_later = se.code == GN_EDB;
        note(ch, ch->ss_later ? "warning: conversations are not saved yet: %s; turns wait "
             "until the file can be opened" : "warning: conversations will not be saved: %s",
             gn_err_str(&se, m, sizeof m));
    } else if (st_sessions_readonly(ch->ss)) {
        char *p = genie_sessions_path(c);
        note(ch, "warning: conversations will not be saved: %s is read-only for you "
             "(saved ones can still be listed and resumed)", p);
        free(p);
    }
    ch->cv = new_conv(ch);
    return 0;
}

void genie_chat_reset(genie_chat *ch)
{
    ag_conv_free(ch->cv);
    ch->cv = new_conv(ch);
    ch->sid = 0;
    ch->conv++;
}

/* ---- resuming ------------------------------------------------------------ */

typedef struct last_turn {
    char *state, *acts, *response;
    int n;
    genie_turn_fn each;
    void *ud;
} last_turn;

static int keep_last(const st_turn *t, void *ud)
{
    last_turn *l = ud;
    if (l->each) l->each(t, l->ud);
    free(l->state);
    free(l->acts);
    free(l->response);
    l->state = t->state_json ? xstrdup(t->state_json) : NULL;
    l->acts = t->acts_json ? xstrdup(t->acts_json) : NULL;
    l->response = t->response ? xstrdup(t->response) : NULL;
    l->n = t->n;
    return 0;
}

static int session_id(genie_chat *ch, const char *arg, long *id, gn_err *e)
{
    if (!strcmp(arg, "latest")) {
        if (st_session_latest(ch->ss, ch->agent->name, id, e))
            return gn_err_set(e, GN_ENOTFOUND, "no saved conversation with agent %s", ch->agent->name);
        return 0;
    }
    char *end;
    *id = strtol(arg, &end, 10);
    if (*end || *id <= 0) return gn_err_set(e, GN_EUSAGE, "'%s' is not a session id", arg);
    return 0;
}

int genie_chat_resume_check(genie_chat *ch, const char *arg, long *id, gn_err *e)
{
    if (!ch->ss && ch->ss_later && !genie_sessions_open(ch->c, &ch->ss, e)) ch->ss_later = 0;
    gn_err_clear(e);
    if (!ch->ss) return gn_err_set(e, GN_ENOTFOUND, "the sessions file is not available");
    if (session_id(ch, arg, id, e)) return e->code;
    st_session_info info;
    if (st_session_info_get(ch->ss, *id, &info, e)) return e->code;
    if (strcmp(info.agent, ch->agent->name))
        return gn_err_set(e, GN_EUSAGE, "session %ld is a conversation with agent %s, not %s "
                          "(use --agent %s)", *id, info.agent, ch->agent->name, info.agent);
    return 0;
}

/* The scope of the API calls of saved conversation SID (genie_turn): the
 * sessions file, the session's id and the moment it was made, so that a
 * new history (the sessions file deleted, its ids starting again at 1)
 * never finds the calls of an old one ("booked", with a cancelled
 * booking's id, and nothing written). */
static char *call_scope(const genie_chat *ch, long sid)
{
    if (!sid) return xstrdup("");
    st_session_info info;
    gn_err e;
    double made = !st_session_info_get(ch->ss, sid, &info, &e) ? info.created : 0;
    char *p = genie_sessions_path(ch->c);
    char *s = xasprintf("%s#%ld@%.6f", p ? p : "", sid, made);
    free(p);
    return s;
}

int genie_turn(genie_chat *ch, const char *utt, ag_event_fn ev, void *ud, ag_turn_out *o,
               gn_err *e)
{
    char *s = call_scope(ch, ch->sid);
    ag_conv_set_scope(ch->cv, s);
    free(s);
    return ag_turn(ch->cv, utt, ev, ud, &ch->cancel, o, e);
}

void genie_interrupt(genie_chat *ch)
{
    ag_conv_interrupt(ch->cv);
}

int genie_chat_resume(genie_chat *ch, const char *arg, genie_turn_fn each, void *ud, int *turns, gn_err *e)
{
    long id;
    *turns = 0;
    if (genie_chat_resume_check(ch, arg, &id, e)) return e->code;
    last_turn l = { .each = each, .ud = ud };
    ag_conv *cv = new_conv(ch);
    int rc = st_session_turns(ch->ss, id, keep_last, &l, e);
    if (!rc && l.n) rc = ag_conv_restore(cv, l.state, l.acts, l.response, l.n, e);
    if (!rc) {
        ag_conv_free(ch->cv);
        ch->cv = cv;
        ch->sid = id;
        ch->conv++;
        *turns = l.n;
        /* Calls of turns after the last saved one: genie was killed
         * between a booking and saving its turn.  Said, and made again
         * with the same arguments they return what they did (apis.c). */
        char *scope = call_scope(ch, id);
        char *u = ag_api_unsaved(ch->wdb, scope, l.n);
        ag_api_adopt_lost(ch->wdb, scope, l.n);
        free(scope);
        free(ch->resume_note);
        ch->resume_note = u ? xasprintf("before genie stopped, %s ran in a turn that was not "
                                        "saved: it was done.  Confirming it again, now or "
                                        "later, shows its result without doing it twice; a "
                                        "changed request would be done as well, beside it", u)
                            : NULL;
        free(u);
    } else {
        ag_conv_free(cv);
    }
    free(l.state);
    free(l.acts);
    free(l.response);
    return rc;
}

/* ---- saving ---------------------------------------------------------------- */

/* A turn waiting to be saved: into session SID, or, while 0, into the
 * session the first saved turn of conversation CONV creates. */
struct genie_wait {
    char *utt;
    ag_turn_out o;
    long sid;
    int conv;
};

static void wait_release(struct genie_wait *w)
{
    free(w->utt);
    ag_turn_out_release(&w->o);
}

static void drop_unsaved(genie_chat *ch)
{
    for (int i = 0; i < ch->nunsaved; i++) wait_release(&ch->unsaved[i]);
    free(ch->unsaved);
    ch->unsaved = NULL;
    ch->nunsaved = 0;
}

/* Another genie continued session W->sid and saved its turn T->n first:
 * this conversation goes on as a new session with the turns before it,
 * and T is saved there, so neither history loses a turn.  Said through
 * the hooks.  0 or the error. */
static int branch(genie_chat *ch, struct genie_wait *w, const st_turn *t, gn_err *e)
{
    long old = w->sid, nid;
    if (st_session_fork(ch->ss, old, t->n, &nid, e)) return e->code;
    for (int i = 0; i < ch->nunsaved; i++)
        if (ch->unsaved[i].sid == old && ch->unsaved[i].conv == w->conv) ch->unsaved[i].sid = nid;
    if (w->conv == ch->conv && ch->sid == old) ch->sid = nid;
    free(ch->branch_note);
    ch->branch_note = xasprintf("another genie saved turn %d of session %ld first: this "
                                "conversation goes on as session %ld (its turns before %d "
                                "copied; --resume %ld continues it)", t->n, old, nid, t->n, nid);
    return st_session_add_turn(ch->ss, nid, t, e);
}

/* Save the first waiting turn: 0, or the error (*lost set when the turn
 * was dropped because trying again cannot help). */
static int save_first(genie_chat *ch, int *lost, gn_err *e)
{
    struct genie_wait *w = &ch->unsaved[0];
    *lost = 0;
    if (!w->sid) {
        long sid;
        if (st_session_new(ch->ss, ch->agent->name, &sid, e)) return e->code;
        for (int i = 0; i < ch->nunsaved; i++)       /* the rest of its conversation */
            if (!ch->unsaved[i].sid && ch->unsaved[i].conv == w->conv) ch->unsaved[i].sid = sid;
        if (w->conv == ch->conv) ch->sid = sid;
    }
    const ag_turn_out *o = &w->o;
    st_turn t = {
        .n = o->n, .user = w->utt, .parse = o->parse, .suql_json = o->suql_json,
        .acts_json = o->acts_json, .response = o->response, .state_json = o->state_json,
        .error = o->error, .tokens_in = o->tokens_in, .tokens_out = o->tokens_out,
        .llm_calls = o->llm_calls, .cache_hits = o->cache_hits, .cost = o->cost,
        .ms_total = o->ms_total, .ms_llm = o->ms_llm,
        .started = o->started,
    };
    int rc = st_session_add_turn(ch->ss, w->sid, &t, e);
    if (rc == GN_ESTALE) rc = branch(ch, w, &t, e);
    if (rc && st_sessions_passing(ch->ss)) return rc;
    *lost = rc != 0;
    wait_release(w);
    memmove(ch->unsaved, ch->unsaved + 1, (size_t)--ch->nunsaved * sizeof *ch->unsaved);
    return rc;
}

/* The sessions file, opened now if it could not be at the start for a
 * reason that may pass; when the new reason cannot pass, the waiting
 * turns are dropped, as nothing will ever take them. */
static int sessions_ready(genie_chat *ch, gn_err *e)
{
    if (ch->ss || !ch->ss_later) return 0;
    if (!genie_sessions_open(ch->c, &ch->ss, e)) {
        ch->ss_later = 0;
        if (!st_sessions_readonly(ch->ss)) return 0;
        gn_err_set(e, GN_EIO, "the sessions file is read-only for you");
    }
    if (e->code == GN_EDB) return e->code;
    ch->ss_later = 0;
    int lost = ch->nunsaved;
    drop_unsaved(ch);
    if (!lost) return e->code;
    return gn_err_prefix(e, "%d turn%s could not be saved: ", lost, lost == 1 ? "" : "s");
}

int genie_chat_flush(genie_chat *ch, gn_err *e)
{
    if (!ch->nunsaved) return 0;
    int rc = sessions_ready(ch, e);
    if (rc) return rc;
    int lost = 0;
    while (ch->nunsaved) {
        gn_err le;
        int dropped;
        gn_err_clear(&le);
        if (!save_first(ch, &dropped, &le)) continue;
        if (!dropped) {                       /* it waits, and the rest with it */
            *e = le;
            rc = le.code;
            break;
        }
        if (!lost++) *e = le;                 /* the first loss is the one told */
    }
    st_sessions_patience(ch->ss, ch->nunsaved ? UNSAVED_PATIENCE_MS : 5000);
    if (!rc && lost)
        return gn_err_prefix(e, "%d turn%s could not be saved: ", lost, lost == 1 ? "" : "s");
    return rc;
}

int genie_chat_save_all(genie_chat *ch, gn_err *e)
{
    if (!ch->nunsaved) return 0;
    if (ch->ss) st_sessions_patience(ch->ss, 5000);
    int rc = genie_chat_flush(ch, e);
    if (rc && ch->nunsaved)
        return gn_err_prefix(e, "%d turn%s could not be saved: ", ch->nunsaved,
                             ch->nunsaved == 1 ? "" : "s");
    return rc;
}

int genie_chat_save_turn(genie_chat *ch, const char *utt, ag_turn_out *o, gn_err *e)
{
    if (ch->ss ? st_sessions_readonly(ch->ss) : !ch->ss_later) return 0;  /* said at the start */
    ch->unsaved = xrealloc(ch->unsaved, (size_t)(ch->nunsaved + 1) * sizeof *ch->unsaved);
    struct genie_wait *w = &ch->unsaved[ch->nunsaved++];
    *w = (struct genie_wait){ .utt = xstrdup(utt), .o = *o, .sid = ch->sid, .conv = ch->conv };
    memset(o, 0, sizeof *o);                  /* taken */
    int rc = genie_chat_flush(ch, e);
    if (!rc || !ch->nunsaved) return rc;
    return gn_err_prefix(e, "not saved yet (%d turn%s waiting; kept until the sessions file takes "
                         "writes again): ", ch->nunsaved, ch->nunsaved == 1 ? "" : "s");
}
