/*
 * respond.c — the response generator: the turn's acts, phrased.
 *
 * The LLM only phrases what the policy decided (respond.prompt), streamed
 * to the front end token by token.  When there is no LLM, or the call
 * fails before or during the stream, the acts are said from the fixed
 * templates of acts.c instead; a reply cut mid-stream is then followed by
 * the complete template reply, marked as a fallback in the event, so the
 * user is never left with half an answer.  A reply the user cancels is
 * the exception: nothing more is said and the turn is undone.
 */
#include "agent/turn_int.h"
#include "util/xmem.h"

#include <string.h>

typedef struct stream {
    ag_tturn *t;
    gn_buf text;
} stream;

static void on_token(llm_call *call, const llm_event *ev, void *ud)
{
    stream *s = ud;
    (void)call;
    if (ev->kind != LLM_EV_DELTA || ev->delta->kind != LLM_DELTA_CONTENT || !ev->delta->len) return;
    char *frag = xstrndup(ev->delta->text, ev->delta->len);
    /* Leading blank lines are noise on a terminal. */
    const char *p = frag;
    if (!s->text.len) while (*p == '\n' || *p == ' ') p++;
    if (*p) {
        gn_buf_puts(&s->text, p);
        ag_emit(s->t, AG_EV_TOKEN, "respond", p, NULL, NULL);
    }
    free(frag);
}

static char *templates(ag_tturn *t)
{
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < t->acts.n; i++) ws_act_render(t->cv->st, &t->acts.v[i], &b);
    while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = 0;
    return gn_buf_detach(&b);
}

static cJSON *act_lines(ag_tturn *t)
{
    cJSON *a = cJSON_CreateArray();
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < t->acts.n; i++) {
        gn_buf_reset(&b);
        ws_act_print(t->cv->st, &t->acts.v[i], &b);
        cJSON_AddItemToArray(a, cJSON_CreateString(b.data));
    }
    gn_buf_release(&b);
    return a;
}

void ag_respond(ag_tturn *t, char **out)
{
    ag_conv *cv = t->cv;
    int fallback = 1;
    char *reply = NULL;
    /* A server that did not answer this turn's parse is not waited for
     * again (its retries took long enough): the templates speak. */
    if (cv->cfg.client && !t->llm_down) {
        gn_buf state;
        gn_buf_init(&state);
        /* A reported result is in its act: the state carries it once. */
        int reported = 0;
        for (int i = 0; i < t->acts.n; i++) {
            const ws_record *r = ws_state_rec(cv->st, t->acts.v[i].rec);
            reported |= t->acts.v[i].kind == WA_REPORT && r && r->kind == WR_KB;
        }
        if (reported) ws_state_print_tasks(cv->st, &state);
        else ws_state_print(cv->st, cv->cfg.max_rows > 0 ? cv->cfg.max_rows : AG_ROWS_SHOWN, &state);
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "agent_description", cv->cfg.agent->description ? cv->cfg.agent->description : "");
        cJSON_AddStringToObject(d, "today", ag_today(cv));
        cJSON_AddStringToObject(d, "state", state.data);
        cJSON_AddItemToObject(d, "acts", act_lines(t));
        cJSON_AddStringToObject(d, "agent_utterance", cv->utt ? cv->utt : "");
        cJSON_AddStringToObject(d, "user_utterance", t->utterance);
        gn_buf_release(&state);
        stream s = { t, { 0 } };
        gn_buf_init(&s.text);
        gn_err e;
        gn_err_clear(&e);
        char *text = NULL;
        int rc = ag_llm(t, LLM_STAGE_RESPOND, cv->cfg.respond_tpl, d, on_token, &s, &text, &e);
        if (!rc && text) {
            char *p = text;
            while (*p == '\n' || *p == ' ') p++;
            size_t n = strlen(p);
            while (n && (p[n - 1] == '\n' || p[n - 1] == ' ')) n--;
            if (n) {
                reply = xstrndup(p, n);
                fallback = 0;
            }
        }
        if (rc == GN_ECANCEL && !t->in.api_calls && t->cancel && *t->cancel) {
            /* Cancelled by the user: nothing is said, the turn is undone
             * (ag_turn).  A turn whose APIs ran cannot be undone, so its
             * reply still comes from the templates. */
            free(text);
            gn_buf_release(&s.text);
            *out = NULL;
            return;
        }
        if (rc) ag_stage_error(t, "respond", &e);
        else if (!reply) {
            gn_err_set(&e, GN_EPARSE, "the response generator replied with nothing");
            ag_stage_error(t, "respond", &e);
        }
        free(text);
        gn_buf_release(&s.text);
    }
    if (!reply) reply = templates(t);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddBoolToObject(d, "fallback", fallback);
    ag_emit(t, AG_EV_RESPONSE, "respond", reply, NULL, d);
    cJSON_Delete(d);
    *out = reply;
}
