/*
 * turn.c — one conversation turn, stage by stage.
 *
 * parse (statements applied in PARSER mode) -> knowledge (knowledge.c) ->
 * policy (worksheet/policy.c) -> respond (respond.c).  The state after
 * the previous turn is kept as JSON until this one ends: a cancelled turn
 * puts it back, so a turn either happens or does not.  A stage that fails
 * is reported and worked around, never fatal: a failed parse leaves the
 * state unchanged (the policy then repeats its pending question), a failed
 * knowledge query is reported as such, a failed response falls back to
 * templates.
 *
 * Each turn begins by forgetting what the conversation finished with more
 * than AG_KEEP_TURNS turns ago (ws_state_forget): the prompts show only
 * live tasks and the latest answer anyway, and without it a long session's
 * state, and the copy of it saved with every turn, would grow without end.
 */
#include "agent/turn_int.h"
#include "util/clock.h"
#include "llm/prompt.h"
#include "worksheet/policy.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Turns a finished answer or task stays in the state (and on screen). */
#define AG_KEEP_TURNS 10
/* Refused lines of one parse before the rest of it is left alone. */
#define AG_MAX_REFUSED 8
/* Refusals said to the user in one turn (the rest are in the events). */
#define AG_MAX_SAID 3

const char *ag_today(const ag_conv *cv)
{
    static _Thread_local char buf[40];
    ws_date_format_long(cv->cfg.today, buf, sizeof buf);
    return buf;
}

/* The phases of a turn, in order, as their AG_EV_STAGE names them. */
static const char *const phases[4] = { "parse", "knowledge", "policy", "respond" };

void ag_emit(ag_tturn *t, enum ag_ev_kind kind, const char *stage, const char *text,
             const char *error, const cJSON *data)
{
    if (kind == AG_EV_STAGE && stage)
        for (int i = 0; i < 4; i++)
            if (!strcmp(stage, phases[i]) && !t->phase_t[i]) t->phase_t[i] = gn_now();
    if (!t->cb) return;
    ag_event ev = { kind, stage, text, error, data };
    t->cb(&ev, t->ud);
}

void ag_stage_error(ag_tturn *t, const char *stage, const gn_err *e)
{
    char msg[1024];
    gn_err_str(e, msg, sizeof msg);
    /* The LLM client's errors already name their stage. */
    const char *m = msg;
    size_t sl = strlen(stage);
    if (!strncmp(m, stage, sl) && m[sl] == ':' && m[sl + 1] == ' ') m += sl + 2;
    if (!t->error) t->error = xasprintf("%s: %s", stage, m);
    ag_emit(t, AG_EV_ERROR, stage, NULL, m, NULL);
}

/* What ag_llm's own callback needs: the caller's callback, and the turn
 * to report retries on. */
typedef struct relay {
    ag_tturn *t;
    int stage;
    llm_event_cb cb;
    void *ud;
} relay;

/* On the client's thread: deltas go to the caller, retries become
 * AG_EV_RETRY events (the front end shows "retrying in 4 s"). */
static void on_llm_event(llm_call *call, const llm_event *ev, void *ud)
{
    relay *r = ud;
    if (ev->kind == LLM_EV_RETRY) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddNumberToObject(d, "attempt", ev->attempt);
        cJSON_AddNumberToObject(d, "wait", ev->wait);
        ag_emit(r->t, AG_EV_RETRY, llm_stage_name(r->stage), NULL, ev->reason, d);
        cJSON_Delete(d);
    } else if (r->cb) {
        r->cb(call, ev, r->ud);
    }
}

static void set_live(ag_conv *cv, llm_call *call)
{
    pthread_mutex_lock(&cv->live_mu);
    cv->live = call;
    pthread_mutex_unlock(&cv->live_mu);
}

void ag_conv_interrupt(ag_conv *cv)
{
    pthread_mutex_lock(&cv->live_mu);
    if (cv->live) llm_call_cancel(cv->live);
    pthread_mutex_unlock(&cv->live_mu);
}

int ag_llm(ag_tturn *t, int stage, const llm_tpl *tpl, cJSON *data, llm_event_cb cb, void *ud,
           char **text, gn_err *e)
{
    llm_prompt p;
    *text = NULL;
    if (t->llm_down) {
        cJSON_Delete(data);
        return gn_err_set(e, GN_ENET, "not asked: the LLM server did not answer earlier in this turn");
    }
    int rc = llm_prompt_render(tpl, data, &p, e);
    cJSON_Delete(data);
    if (rc) return rc;
    size_t chars = 0;
    for (int i = 0; i < p.n; i++) chars += strlen(p.msgs[i].content);
    if (chars > t->prompt_chars[stage]) t->prompt_chars[stage] = chars;
    relay r = { t, stage, cb, ud };
    llm_call_opts o = { .stage = stage, .msgs = p.msgs, .nmsgs = p.n, .cb = on_llm_event, .ud = &r };
    double t0 = gn_now();
    llm_group *g = llm_group_new(t->cv->cfg.client);
    llm_call *call = NULL;
    rc = llm_group_submit(g, &o, &call, e);
    if (!rc) {
        /* Published before the flag is read again: a Ctrl-C between the
         * two either sees the call or is seen here. */
        set_live(t->cv, call);
        if (t->cancel && *t->cancel) llm_call_cancel(call);
        llm_group_wait(g);
        set_live(t->cv, NULL);
        rc = llm_call_status(call, e);
        if (!rc) *text = xstrdup(llm_call_text(call));
        llm_call_info info;
        llm_call_info_get(call, &info);
        if (rc == GN_ENET && !info.http_status) t->llm_down = 1;
        memcpy(t->keys[stage], info.cache_key, sizeof t->keys[stage]);
    }
    llm_group_free(g);
    t->ms_llm += (gn_now() - t0) * 1000.0;
    llm_prompt_release(&p);
    return rc;
}

void ag_llm_forget(ag_tturn *t, int stage)
{
    llm_client_forget(t->cv->cfg.client, t->keys[stage]);
    t->keys[stage][0] = 0;
}

/* ---- the conversation ------------------------------------------------- */

/* Make ST the conversation's state (freeing the one before): values that
 * name knowledge-base rows are grounded through the conversation. */
static void set_state(ag_conv *cv, ws_state *st)
{
    if (cv->st != st) ws_state_free(cv->st);
    cv->st = st;
    st->ground = ag_ground;
    st->row = ag_row;
    st->ground_ud = cv;
}

ag_conv *ag_conv_new(const ag_conv_config *cfg)
{
    ag_conv *cv = xcalloc(1, sizeof *cv);
    cv->cfg = *cfg;
    set_state(cv, ws_state_new(cfg->agent->spec, cfg->today));
    ag_api_host_init(&cv->host, cfg->agent, cfg->wdb);
    if (cfg->http) {
        cv->host.http_connect_timeout = cfg->http->connect_timeout;
        cv->host.http_retries = cfg->http->retries;
        cv->host.http_retry_max_wait = cfg->http->retry_max_wait;
    }
    cv->cfg.http = NULL;                      /* copied into the host */
    pthread_mutex_init(&cv->live_mu, NULL);
    return cv;
}

static void set_acts(ag_conv *cv, char **acts, int n)
{
    for (int i = 0; i < cv->nacts; i++) free(cv->acts[i]);
    free(cv->acts);
    cv->acts = acts;
    cv->nacts = n;
}

void ag_conv_free(ag_conv *cv)
{
    if (!cv) return;
    ws_state_free(cv->st);
    ag_names_free(cv->names);
    set_acts(cv, NULL, 0);
    free(cv->utt);
    pthread_mutex_destroy(&cv->live_mu);
    free(cv);
}

const ws_state *ag_conv_state(const ag_conv *cv) { return cv->st; }
int ag_conv_turns(const ag_conv *cv) { return cv->turns; }

void ag_conv_set_scope(ag_conv *cv, const char *scope)
{
    snprintf(cv->host.scope, sizeof cv->host.scope, "%s", scope ? scope : "");
}
const char *ag_conv_last_reply(const ag_conv *cv) { return cv->utt; }
const ag_api_host *ag_conv_api_host(const ag_conv *cv) { return &cv->host; }

int ag_conv_restore(ag_conv *cv, const char *state_json, const char *acts_json,
                    const char *response, int turns, gn_err *e)
{
    cJSON *j = cJSON_Parse(state_json ? state_json : "");
    ws_state *st = NULL;
    if (!j) return gn_err_set(e, GN_ECORRUPT, "the saved dialogue state is not JSON");
    int rc = ws_state_from_json(cv->cfg.agent->spec, j, cv->cfg.today, &st, e);
    cJSON_Delete(j);
    if (rc) return rc;
    set_state(cv, st);
    cJSON *a = cJSON_Parse(acts_json ? acts_json : "[]");
    int n = cJSON_GetArraySize(a), k = 0;
    char **acts = xcalloc((size_t)n + 1, sizeof *acts);
    for (cJSON *it = a ? a->child : NULL; it; it = it->next)
        if (cJSON_IsString(it)) acts[k++] = xstrdup(it->valuestring);
    cJSON_Delete(a);
    set_acts(cv, acts, k);
    free(cv->utt);
    cv->utt = response ? xstrdup(response) : NULL;
    cv->turns = turns;
    return 0;
}

static int cancelled(const ag_tturn *t) { return t->cancel && *t->cancel; }

/* ---- parse ----------------------------------------------------------- */

static cJSON *parse_data(ag_conv *cv, const char *utterance)
{
    gn_buf sig, state;
    gn_buf_init(&sig);
    gn_buf_init(&state);
    ws_spec_signatures(cv->cfg.agent->spec, &sig);
    ws_state_print(cv->st, cv->cfg.max_rows > 0 ? cv->cfg.max_rows : AG_ROWS_SHOWN, &state);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "agent_description", cv->cfg.agent->description ? cv->cfg.agent->description : "");
    cJSON_AddStringToObject(d, "today", ag_today(cv));
    /* An agent made from data alone has no tasks: say so, not nothing. */
    cJSON_AddStringToObject(d, "worksheets", sig.len ? sig.data
                            : "(none: this agent has no tasks; it only answers questions, with answer(...))");
    /* Without tasks the booking and enrollment examples are 7K characters
     * of forms the agent cannot use: the prompt shows questions alone. */
    cJSON_AddBoolToObject(d, "tasks", sig.len > 0);
    cJSON_AddStringToObject(d, "state", state.data);
    cJSON *acts = cJSON_AddArrayToObject(d, "agent_acts");
    for (int i = 0; i < cv->nacts; i++) cJSON_AddItemToArray(acts, cJSON_CreateString(cv->acts[i]));
    cJSON_AddStringToObject(d, "agent_utterance", cv->utt ? cv->utt : "");
    cJSON_AddStringToObject(d, "user_utterance", utterance);
    cJSON_AddNullToObject(d, "repair");
    gn_buf_release(&sig);
    gn_buf_release(&state);
    return d;
}

char *ag_conv_parse_prompt(ag_conv *cv, const char *utterance)
{
    gn_buf out;
    gn_buf_init(&out);
    cJSON *d = parse_data(cv, utterance);
    if (cv->cfg.parse_tpl) llm_tpl_render(cv->cfg.parse_tpl, d, &out, NULL);
    cJSON_Delete(d);
    return gn_buf_detach(&out);
}

/* A statement refused: reported at once (SHOWN: the error with its
 * position), and kept for the repair and for the reply with WHY alone (the
 * position means nothing to the reply's reader). */
static void refuse(ag_tturn *t, const char *line, const char *shown, const char *why)
{
    ag_emit(t, AG_EV_REFUSED, "parse", line, shown, NULL);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "statement", line);
    cJSON_AddStringToObject(r, "error", why);
    cJSON_AddItemToArray(t->refused, r);
}

/* Apply the statements of TEXT one line at a time: a line that does not
 * parse or a statement that is refused is reported and the others still
 * apply, up to AG_MAX_REFUSED refusals: a reply that bad is not a parse,
 * and what is left of it is reported as one line and left alone.
 * Returns how many statements applied. */
static int apply(ag_tturn *t, const char *text)
{
    char *copy = xstrdup(text), *save = NULL;
    int refused = 0, left = 0, applied = 0;
    char msg[1024];
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*line)) line++;
        if (!*line || *line == '#') continue;
        if (refused >= AG_MAX_REFUSED) { left++; continue; }
        ws_prog *p = NULL;
        gn_err e;
        gn_err_clear(&e);
        t->in.mode = WS_MODE_PARSER;
        t->in.self = -1;
        if (ws_prog_parse(line, 1, 1, &p, &e)) {
            refuse(t, line, gn_err_str(&e, msg, sizeof msg), e.msg);
            refused++;
            continue;
        }
        for (int i = 0; i < p->n; i++) {
            if (refused >= AG_MAX_REFUSED) { left += p->n - i; break; }
            gn_err_clear(&e);
            if (ws_run_stmt(&t->in, &p->stmts[i], &e)) {
                refuse(t, line, gn_err_str(&e, msg, sizeof msg), e.msg);
                refused++;
            } else if (p->stmts[i].kind != WS_PASS) {
                applied++;
            }
        }
        ws_prog_free(p);
    }
    if (left) {
        char what[64];
        snprintf(what, sizeof what, "(%d more statement%s or line%s)", left, left == 1 ? "" : "s",
                 left == 1 ? "" : "s");
        refuse(t, what, "not applied: too many refused lines", "not applied: too many refused lines");
    }
    free(copy);
    return applied;
}

/* The turn's statements: recorded, reported, applied. */
static int take_statements(ag_tturn *t, const char *text)
{
    if (t->parse.len) gn_buf_putc(&t->parse, '\n');
    gn_buf_puts(&t->parse, text);
    ag_emit(t, AG_EV_STATEMENTS, "parse", text, NULL, NULL);
    return apply(t, text);
}

static int looks_like_suql(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return !strncasecmp(s, "select", 6) || !strncasecmp(s, "with", 4);
}

/* One more parse call when statements of the reply were refused: the
 * parser sees its statements, the errors, and the state they left, and
 * writes the refused ones again, corrected, or `pass`.  Its statements
 * replace the refusals when they are as many; otherwise every refusal
 * stays, to be said to the user. */
static int repair_statements(ag_tturn *t, const char *utterance, const char *stmts)
{
    ag_conv *cv = t->cv;
    cJSON *d = parse_data(cv, utterance);
    cJSON *rp = cJSON_CreateObject();
    cJSON_AddStringToObject(rp, "statements", stmts);
    cJSON_AddItemToObject(rp, "refused", cJSON_Duplicate(t->refused, 1));
    cJSON_ReplaceItemInObjectCaseSensitive(d, "repair", rp);
    char *text = NULL;
    gn_err e;
    gn_err_clear(&e);
    t->parse_repairs++;
    if (ag_llm(t, LLM_STAGE_PARSE, cv->cfg.parse_tpl, d, NULL, NULL, &text, &e)) {
        ag_stage_error(t, "parse", &e);
        return 0;
    }
    char *fixed = ag_statements_extract(text);
    free(text);
    cJSON *before = t->refused;
    t->refused = cJSON_CreateArray();
    int applied = *fixed ? take_statements(t, fixed) : 0;
    if (cJSON_GetArraySize(t->refused) || !*fixed) ag_llm_forget(t, LLM_STAGE_PARSE);   /* the repair's */
    if (applied >= cJSON_GetArraySize(before)) {
        cJSON_Delete(before);
    } else {
        /* Fewer corrections than refusals: which were fixed is unknown,
         * so every refusal is said (a repeat beats a silent loss), then
         * whatever the repair had refused too. */
        for (cJSON *r = t->refused->child; r; r = r->next)
            cJSON_AddItemToArray(before, cJSON_Duplicate(r, 1));
        cJSON_Delete(t->refused);
        t->refused = before;
    }
    int wrote = *fixed != 0;
    free(fixed);
    return wrote;
}

/* The refusal of a parse reply with no statement in it. */
#define NO_STATEMENT "(a reply with no statement)"
#define NO_STATEMENT_WHY "the reply was prose, with no statement in it: write the statements the " \
    "user's words call for (answer(...) for a question), or pass"

/* Whether the only refusal left is NO_STATEMENT (the repair wrote none). */
static int only_no_statement(const ag_tturn *t)
{
    const cJSON *r = t->refused->child;
    if (!r || r->next) return 0;
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "statement"));
    return st && !strcmp(st, NO_STATEMENT);
}

/* The NO_STATEMENT refusal taken back. */
static void drop_no_statement(ag_tturn *t)
{
    int i = 0;
    for (cJSON *r = t->refused->child; r; r = r->next, i++) {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "statement"));
        if (st && !strcmp(st, NO_STATEMENT)) {
            cJSON_DeleteItemFromArray(t->refused, i);
            return;
        }
    }
}

/* Each refusal left becomes a Refused act (the first AG_MAX_SAID). */
static void say_refusals(ag_tturn *t)
{
    int n = 0;
    for (cJSON *r = t->refused->child; r && n < AG_MAX_SAID; r = r->next, n++) {
        const char *stmt = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "statement"));
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "error"));
        ws_acts_add(&t->acts, WA_REFUSE, -1, -1, why, ws_str(stmt ? stmt : ""));
    }
}

static void stage_parse(ag_tturn *t, const char *utterance)
{
    ag_conv *cv = t->cv;
    ag_emit(t, AG_EV_STAGE, "parse", NULL, NULL, NULL);
    if (!cv->cfg.client) {
        /* Offline: SUQL typed directly, or statements typed directly. */
        if (looks_like_suql(utterance)) {
            ws_record *r = ws_state_new_kb(cv->st, utterance);
            r->suql = xstrdup(utterance);
            gn_buf_printf(&t->parse, "answer(<SUQL typed directly>)");
            return;
        }
        ws_prog *p = NULL;
        if (ws_prog_parse(utterance, 1, 1, &p, NULL)) {
            ws_acts_add(&t->acts, WA_SAY, -1, -1,
                        "I am working without a language model, so I understand SUQL queries "
                        "(SELECT ...) and worksheet statements (for example Book_Restaurant(...)), "
                        "not free sentences.", NULL);
            return;
        }
        ws_prog_free(p);
        t->in.typed = 1;                /* the user's own statements */
        take_statements(t, utterance);
        say_refusals(t);
        return;
    }
    char *text = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ag_llm(t, LLM_STAGE_PARSE, cv->cfg.parse_tpl, parse_data(cv, utterance), NULL, NULL, &text, &e)) {
        ag_stage_error(t, "parse", &e);
        ws_acts_add(&t->acts, WA_SAY, -1, -1,
                    "Sorry, I could not process that just now (the language model did not answer). "
                    "Please say it again.", NULL);
        return;
    }
    char *stmts = ag_statements_extract(text);
    /* A reply of prose alone ("Yes, they have vegan options.") holds no
     * statement, not even pass: it is refused as a whole, so that the
     * repair asks for statements. */
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int prose = !*stmts && *p;
    take_statements(t, stmts);
    if (prose) refuse(t, NO_STATEMENT, NO_STATEMENT_WHY, NO_STATEMENT_WHY);
    if (cJSON_GetArraySize(t->refused)) ag_llm_forget(t, LLM_STAGE_PARSE);
    /* the repair shows the parser what it wrote: the prose itself */
    int wrote = cJSON_GetArraySize(t->refused) && !cancelled(t) &&
                repair_statements(t, utterance, prose ? p : stmts);
    free(text);
    free(stmts);
    /* The repair wrote statements (pass among them): the prose is mended. */
    if (prose && wrote) drop_no_statement(t);
    if (prose && only_no_statement(t)) {
        /* Still nothing: said plainly, not taken for "nothing to do". */
        cJSON_Delete(t->refused);
        t->refused = cJSON_CreateArray();
        ws_acts_add(&t->acts, WA_SAY, -1, -1,
                    "Sorry, I did not understand what you would like me to do or look up. Could you "
                    "say it another way?", NULL);
        return;
    }
    say_refusals(t);
}

/* ---- the turn ------------------------------------------------------------- */

static void on_warn(void *ud, const gn_err *e)
{
    char msg[1024];
    ag_emit(ud, AG_EV_WARNING, "policy", NULL, gn_err_str(e, msg, sizeof msg), NULL);
}

static char *json_text(cJSON *j)
{
    char *s = cJSON_PrintUnformatted(j);
    char *r = xstrdup(s ? s : "null");
    free(s);
    return r;
}

void ag_turn_out_release(ag_turn_out *o)
{
    free(o->parse);
    free(o->suql_json);
    free(o->acts_json);
    free(o->response);
    free(o->state_json);
    free(o->error);
    memset(o, 0, sizeof *o);
}


/* A cancelled turn: the state put back as it was before it (BEFORE,
 * taken), nothing kept. */
static int abort_turn(ag_tturn *t, cJSON *before, gn_err *e)
{
    ag_conv *cv = t->cv;
    ws_state *st = NULL;
    if (!ws_state_from_json(cv->st->spec, before, cv->cfg.today, &st, NULL)) set_state(cv, st);
    cJSON_Delete(before);
    cJSON_Delete(t->queries);
    cJSON_Delete(t->refused);
    ws_acts_release(&t->acts);
    gn_buf_release(&t->parse);
    free(t->error);
    return gn_err_set(e, GN_ECANCEL, "the turn was cancelled");
}

/* One change: {"var": V, "what": WHAT} and, for a field, "field", "old"
 * and "new" (JSON values, taken). */
static void add_change(cJSON *out, const char *var, const char *what, const char *field, cJSON *old,
                       cJSON *new_)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "var", var);
    cJSON_AddStringToObject(c, "what", what);
    if (field) {
        cJSON_AddStringToObject(c, "field", field);
        cJSON_AddItemToObject(c, "old", old ? old : cJSON_CreateNull());
        cJSON_AddItemToObject(c, "new", new_ ? new_ : cJSON_CreateNull());
    }
    cJSON_AddItemToArray(out, c);
}

/* The fields and records that changed between two JSON states, as values
 * a front end reads by name: {"var": "answer_2", "what": "added"},
 * {"var": "book_restaurant", "what": "field", "field": "date", "old":
 * null, "new": "2026-03-20"}, {"var": ..., "what": "done"}. */
static cJSON *changes(const cJSON *before, const cJSON *after)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(after, "records");
    const cJSON *rb = cJSON_GetObjectItemCaseSensitive(before, "records");
    for (const cJSON *a = ra ? ra->child : NULL; a; a = a->next) {
        const char *var = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "var"));
        const cJSON *b = NULL;
        for (const cJSON *x = rb ? rb->child : NULL; x && !b; x = x->next) {
            const char *xv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "var"));
            if (var && xv && !strcmp(var, xv)) b = x;
        }
        if (!var) continue;
        if (!b) add_change(out, var, "added", NULL, NULL, NULL);
        const cJSON *fa = cJSON_GetObjectItemCaseSensitive(a, "fields");
        const cJSON *fb = b ? cJSON_GetObjectItemCaseSensitive(b, "fields") : NULL;
        for (const cJSON *f = fa ? fa->child : NULL; f; f = f->next) {
            const cJSON *va = cJSON_GetObjectItemCaseSensitive(f, "value");
            const cJSON *old = fb ? cJSON_GetObjectItemCaseSensitive(fb, f->string) : NULL;
            const cJSON *vb = old ? cJSON_GetObjectItemCaseSensitive(old, "value") : NULL;
            if (vb && cJSON_Compare(va, vb, 1)) continue;
            if (!vb && cJSON_IsNull(va)) continue;
            add_change(out, var, "field", f->string, vb ? cJSON_Duplicate(vb, 1) : NULL,
                       va ? cJSON_Duplicate(va, 1) : NULL);
        }
        int done_a = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "done"));
        int done_b = b && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "done"));
        if (done_a && !done_b) add_change(out, var, "done", NULL, NULL, NULL);
    }
    return out;
}

static int turn_run(ag_conv *cv, const char *utterance, size_t was, ag_event_fn cb, void *ud,
                    const atomic_int *cancel, ag_turn_out *out, gn_err *e);

int ag_turn(ag_conv *cv, const char *utterance, ag_event_fn cb, void *ud,
            const atomic_int *cancel, ag_turn_out *out, gn_err *e)
{
    /* A pasted megabyte is not a message: the LLM gets the first
     * AG_UTTERANCE_MAX bytes (whole characters), and the user is told. */
    size_t len = strlen(utterance);
    char *cut = NULL;
    if (len > AG_UTTERANCE_MAX) {
        size_t n = AG_UTTERANCE_MAX;
        while (n && ((unsigned char)utterance[n] & 0xC0) == 0x80) n--;
        cut = xstrndup(utterance, n);
    }
    cv->host.cancel = cancel;        /* an HTTP API call or its retry wait stops too */
    int rc = turn_run(cv, cut ? cut : utterance, cut ? len : 0, cb, ud, cancel, out, e);
    cv->host.cancel = NULL;
    free(cut);
    return rc;
}

static int turn_run(ag_conv *cv, const char *utterance, size_t was, ag_event_fn cb, void *ud,
                    const atomic_int *cancel, ag_turn_out *out, gn_err *e)
{
    ag_tturn t = { .cv = cv, .cb = cb, .ud = ud, .cancel = cancel, .utterance = utterance };
    if (was) {
        char m[160];
        snprintf(m, sizeof m, "the message was cut to its first %zu of %zu bytes",
                 strlen(utterance), was);
        ag_emit(&t, AG_EV_WARNING, "parse", NULL, m, NULL);
    }
    double t0 = gn_now();
    llm_stats s0[LLM_STAGE__COUNT], s1[LLM_STAGE__COUNT];
    if (cv->cfg.client) llm_client_stats(cv->cfg.client, s0);
    memset(out, 0, sizeof *out);
    out->started = (double)time(NULL);
    cv->st->turn = cv->turns + 1;
    cv->host.turn = cv->turns + 1;
    cJSON *before = ws_state_to_json(cv->st);     /* a cancelled turn forgets nothing */
    ws_state_forget(cv->st, AG_KEEP_TURNS);
    ws_acts_init(&t.acts);
    gn_buf_init(&t.parse);
    t.queries = cJSON_CreateArray();
    t.refused = cJSON_CreateArray();
    t.in = (ws_interp){ .st = cv->st, .acts = &t.acts, .host = &cv->host.host, .self = -1, .self_field = -1,
                        .utterance = utterance };

    stage_parse(&t, utterance);
    if (!cancelled(&t)) {
        ag_emit(&t, AG_EV_STAGE, "knowledge", NULL, NULL, NULL);
        ag_run_knowledge(&t);
    }
    if (!cancelled(&t)) {
        ag_emit(&t, AG_EV_STAGE, "policy", NULL, NULL, NULL);
        ws_policy_run(&t.in, on_warn, &t);
        ag_run_late_knowledge(&t);
        if (!t.acts.n)
            ws_acts_add(&t.acts, WA_SAY, -1, -1, "Is there anything else I can help you with?", NULL);
    }
    if (cancelled(&t)) return abort_turn(&t, before, e);

    gn_buf b;
    gn_buf_init(&b);
    ws_state_print(cv->st, cv->cfg.max_rows > 0 ? cv->cfg.max_rows : AG_ROWS_SHOWN, &b);
    cJSON *sj = ws_state_to_json(cv->st);
    cJSON *shown = cJSON_Duplicate(sj, 1);
    cJSON_AddItemToObject(shown, "changes", changes(before, sj));
    ag_emit(&t, AG_EV_STATE, "policy", b.data, NULL, shown);
    cJSON_Delete(shown);
    char **lines = xcalloc((size_t)t.acts.n + 1, sizeof *lines);
    cJSON *aj = cJSON_CreateArray();
    for (int i = 0; i < t.acts.n; i++) {
        gn_buf_reset(&b);
        ws_act_print(cv->st, &t.acts.v[i], &b);
        cJSON_AddItemToArray(aj, cJSON_CreateString(b.data));
        /* The parser's next prompt: a reported result is in its state. */
        gn_buf_reset(&b);
        ws_act_print_brief(cv->st, &t.acts.v[i], &b);
        lines[i] = xstrdup(b.data);
    }
    gn_buf_release(&b);
    ag_emit(&t, AG_EV_ACTS, "policy", NULL, NULL, aj);

    ag_emit(&t, AG_EV_STAGE, "respond", NULL, NULL, NULL);
    char *reply = NULL;
    ag_respond(&t, &reply);
    if (!reply) {                      /* cancelled while phrasing */
        for (int i = 0; i < t.acts.n; i++) free(lines[i]);
        free(lines);
        cJSON_Delete(aj);
        cJSON_Delete(sj);
        return abort_turn(&t, before, e);
    }
    cJSON_Delete(before);

    cv->turns++;
    set_acts(cv, lines, t.acts.n);
    free(cv->utt);
    cv->utt = xstrdup(reply);

    out->n = cv->turns;
    out->parse = gn_buf_detach(&t.parse);
    out->suql_json = json_text(t.queries);
    out->acts_json = json_text(aj);
    out->response = reply;
    out->state_json = json_text(sj);
    out->error = t.error;

    out->ms_llm = t.ms_llm;
    out->ms_total = (gn_now() - t0) * 1000.0;
    cJSON *tj = cJSON_CreateObject();
    cJSON *by = cJSON_CreateObject();
    llm_stats all = { 0 };
    if (cv->cfg.client) {
        llm_client_stats(cv->cfg.client, s1);
        for (int i = 0; i < LLM_STAGE__COUNT; i++) {
            llm_stats d;
            llm_stats_sub(&d, &s1[i], &s0[i]);
            llm_stats_add(&all, &d);
            if (d.calls) cJSON_AddNumberToObject(by, llm_stage_name(i), (double)d.calls);
        }
    }
    out->tokens_in = all.prompt_tokens;
    out->tokens_out = all.completion_tokens;
    out->llm_calls = all.calls;
    out->cache_hits = all.cache_hits;
    out->memo_hits = t.memo_hits;
    out->cost = all.priced_calls ? all.cost : -1;
    cJSON_AddNumberToObject(tj, "turn", out->n);
    cJSON_AddNumberToObject(tj, "ms_total", out->ms_total);
    cJSON_AddNumberToObject(tj, "ms_llm", out->ms_llm);
    cJSON_AddNumberToObject(tj, "ms_engine", out->ms_total - out->ms_llm);
    cJSON_AddNumberToObject(tj, "llm_calls", (double)out->llm_calls);
    cJSON_AddNumberToObject(tj, "cache_hits", (double)out->cache_hits);
    cJSON_AddNumberToObject(tj, "memo_hits", (double)out->memo_hits);
    cJSON_AddItemToObject(tj, "calls_by_stage", by);
    if (out->cost >= 0) cJSON_AddNumberToObject(tj, "cost", out->cost);
    cJSON_AddNumberToObject(tj, "tokens_in", (double)out->tokens_in);
    cJSON_AddNumberToObject(tj, "tokens_out", (double)out->tokens_out);
    /* Calls the server reported no usage for: their tokens are estimates. */
    if (all.usage_missing) cJSON_AddNumberToObject(tj, "tokens_estimated", (double)all.usage_missing);
    cJSON_AddNumberToObject(tj, "parse_repairs", t.parse_repairs);
    /* Each phase from its start to the next one's (the last to the end of
     * the turn): a turn's timeline. */
    cJSON *ph = cJSON_AddObjectToObject(tj, "ms_by_stage");
    double t_end = gn_now();
    for (int i = 0; i < 4; i++) {
        if (!t.phase_t[i]) continue;
        double until = t_end;
        for (int j = i + 1; j < 4; j++)
            if (t.phase_t[j]) { until = t.phase_t[j]; break; }
        cJSON_AddNumberToObject(ph, phases[i], (until - t.phase_t[i]) * 1000.0);
    }
    cJSON *pc = cJSON_AddObjectToObject(tj, "prompt_chars");
    for (int i = 0; i < LLM_STAGE__COUNT; i++)
        if (t.prompt_chars[i]) cJSON_AddNumberToObject(pc, llm_stage_name(i), (double)t.prompt_chars[i]);
    ag_emit(&t, AG_EV_TIMINGS, NULL, NULL, NULL, tj);
    cJSON_Delete(tj);
    cJSON_Delete(sj);
    cJSON_Delete(aj);
    cJSON_Delete(t.queries);
    cJSON_Delete(t.refused);
    ws_acts_release(&t.acts);
    return 0;
}
