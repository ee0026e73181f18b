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
 *
 * What the user must see in genie's own words follows the phrased reply
 * (genie_words): the request for a task's go-ahead, rendered from the
 * record (consent.h: the user agrees to that, not to the model's
 * phrasing, which a review in the data may have steered), and a finished
 * task's result (its ID) or an API's failure when the reply left it out
 * (a reply that says genie's own sentence, every value of the result, or
 * every identifier of the sentence, did not).
 */
#include "agent/turn_int.h"
#include "util/xmem.h"
#include "worksheet/consent.h"

#include <ctype.h>
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

/* Is every scalar of V (an API result: an ID, a status) in TEXT? */
static int mentions(const char *text, const ws_val *v)
{
    if (!v) return 1;
    if (v->kind == WV_LIST || v->kind == WV_DICT) {
        for (int i = 0; i < v->u.c.n; i++)
            if (!mentions(text, v->u.c.items[i])) return 0;
        return 1;
    }
    if (v->kind == WV_NONE || v->kind == WV_BOOL) return 1;
    gn_buf b;
    gn_buf_init(&b);
    if (v->kind == WV_STR) gn_buf_puts(&b, v->u.s);
    else ws_val_print(v, &b, NULL, NULL);
    int in = !b.len || strstr(text, b.data) != NULL;
    gn_buf_release(&b);
    return in;
}

/* Does REPLY say TEXT, give or take case, spacing and punctuation? */
static int says(const char *reply, const char *text)
{
    char *r = ag_letters(reply), *x = ag_letters(text);
    int in = !*x || strstr(r, x) != NULL;
    free(r);
    free(x);
    return in;
}

/* Does REPLY hold every identifier of TEXT (a word of letters and digits
 * both, four or more: MCUDL43G66, 224N), any case, and TEXT at least one?
 * A paraphrase of "You have dropped CS 224N from enrollment MCUDL43G66."
 * that keeps its ids says what the user must keep. */
static int keeps_ids(const char *reply, const char *text)
{
    int ids = 0;
    char *r = ag_letters(reply);
    for (const char *p = text; *p;) {
        while (*p && !isalnum((unsigned char)*p)) p++;
        const char *q = p;
        int alpha = 0, digit = 0;
        for (; isalnum((unsigned char)*q); q++) {
            alpha |= isalpha((unsigned char)*q) != 0;
            digit |= isdigit((unsigned char)*q) != 0;
        }
        if (alpha && digit && q - p >= 4) {
            char *w = xstrndup(p, (size_t)(q - p)), *lw = ag_letters(w);
            int in = strstr(r, lw) != NULL;
            free(w);
            free(lw);
            if (!in) {
                free(r);
                return 0;
            }
            ids++;
        }
        p = q;
    }
    free(r);
    return ids > 0;
}

/* What follows a phrased REPLY in genie's own words (NULL: nothing): the
 * go-ahead requests, and the results and failures of APIs the reply does
 * not state. */
static char *genie_words(ag_tturn *t, const char *reply)
{
    const ws_state *st = t->cv->st;
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < t->acts.n; i++) {
        const ws_act *a = &t->acts.v[i];
        const ws_record *r = a->rec >= 0 ? ws_state_rec(st, a->rec) : NULL;
        int before = (int)b.len;
        if (a->kind == WA_ASK && r && r->kind == WR_TASK && a->field >= 0 &&
            st->spec->sheets[r->sheet].fields[a->field].type.kind == WT_CONFIRM)
            ws_consent_render(st, r, &b);
        else if (a->kind == WA_REPORT && r && r->kind == WR_TASK && !mentions(reply, a->val))
            ws_act_render(st, a, &b);
        else if (a->kind == WA_SAY && a->genie && a->text && !says(reply, a->text) &&
                 !(r && r->api_result && mentions(reply, r->api_result)) && !keeps_ids(reply, a->text))
            ws_act_render(st, a, &b);
        if ((int)b.len > before) {
            while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = 0;
            gn_buf_puts(&b, "\n\n");
        }
    }
    while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = 0;
    if (!b.len) {
        gn_buf_release(&b);
        return NULL;
    }
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
        /* A reported result is in its act: the state carries it once,
         * and the results of earlier turns beside it. */
        int reported = 0;
        for (int i = 0; i < t->acts.n; i++) {
            const ws_record *r = ws_state_rec(cv->st, t->acts.v[i].rec);
            reported |= t->acts.v[i].kind == WA_REPORT && r && r->kind == WR_KB;
        }
        if (reported) ws_state_print_earlier(cv->st, &state);
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
    if (!reply) {
        reply = templates(t);
    } else {
        char *own = genie_words(t, reply);
        if (own) {
            char *both = xasprintf("%s\n\n%s", reply, own);
            char *tok = xasprintf("\n\n%s", own);
            ag_emit(t, AG_EV_TOKEN, "respond", tok, NULL, NULL);
            free(tok);
            free(own);
            free(reply);
            reply = both;
        }
    }
    cJSON *d = cJSON_CreateObject();
    cJSON_AddBoolToObject(d, "fallback", fallback);
    ag_emit(t, AG_EV_RESPONSE, "respond", reply, NULL, d);
    cJSON_Delete(d);
    *out = reply;
}
