/*
 * front.c — what a front end reads and changes of an open knowledge base,
 * conversation, LLM client or sessions file (genie.h), so that it calls
 * the engine through the facade only: each function is the module's own
 * call, named for the front end's need.
 *
 * Rejected: handing front ends the modules' objects and headers (the
 * TUI called 36 module functions; tests/cli/layers.sh now checks calls
 * as well as includes).
 */
#include "genie.h"

#include "util/xmem.h"

#include <string.h>

/* ---- a conversation ------------------------------------------------------------ */

int genie_chat_turns(const genie_chat *ch)
{
    return ch->cv ? ag_conv_turns(ch->cv) : 0;
}

const char *genie_chat_last_reply(const genie_chat *ch)
{
    return ch->cv ? ag_conv_last_reply(ch->cv) : NULL;
}

cJSON *genie_chat_state_json(const genie_chat *ch)
{
    return ch->cv ? ws_state_to_json(ag_conv_state(ch->cv)) : NULL;
}

const char *genie_chat_model(const genie_chat *ch)
{
    return ch->kb.cl ? llm_client_stage(ch->kb.cl, LLM_STAGE_RESPOND)->model : NULL;
}

const char *genie_chat_endpoint(const genie_chat *ch)
{
    return ch->kb.cl ? llm_client_endpoint(ch->kb.cl) : NULL;
}

int genie_chat_set_model(genie_chat *ch, const char *model, gn_err *e)
{
    if (!ch->kb.cl) return gn_err_set(e, GN_EUSAGE, "offline: there is no model to change");
    return llm_client_set_model(ch->kb.cl, model, e);
}

/* ---- a knowledge base ---------------------------------------------------------- */

void genie_kb_index_info(const genie_kb *k, long *npassages, const char **kind, const char **embedder)
{
    *npassages = k->ix ? rt_index_npassages(k->ix) : 0;
    *kind = k->ix ? rt_index_kind(k->ix) : "none";
    *embedder = k->em ? rt_embedder_id(k->em) : "none";
}

/* ---- the LLM client ------------------------------------------------------------ */

const char *genie_llm_endpoint(const llm_client *cl)
{
    return llm_client_endpoint(cl);
}

const llm_stage_cfg *genie_llm_stage(const llm_client *cl, int stage)
{
    return llm_client_stage(cl, stage);
}

void genie_llm_close(llm_client *cl)
{
    llm_client_free(cl);
}

int genie_llm_check(llm_client *cl, llm_event_cb on_event, void *ud, genie_llm_check_out *out, gn_err *e)
{
    static const llm_msg msgs[] = {
        { "system", "You are a connectivity check. Follow the instruction exactly." },
        { "user", "Reply with the single word OK." },
    };
    memset(out, 0, sizeof *out);
    /* A refused connection is an answer: nothing listens there, and
     * retrying would only make the person wait for it. */
    llm_call_opts o = { .stage = LLM_STAGE_CHECK, .msgs = msgs, .nmsgs = 2, .no_cache = 1,
                        .no_retry_refused = 1, .cb = on_event, .ud = ud };
    llm_result r;
    int rc = llm_complete(cl, &o, &r, &out->info, e);
    if (!rc) {
        const llm_choice *c = r.nchoices ? &r.choices[0] : NULL;
        out->reply = xstrdup(c && c->content.data ? c->content.data : "");
        out->served = r.model ? xstrdup(r.model) : NULL;
        out->reasoning_bytes = c ? c->reasoning.len : 0;
        out->usage_reported = r.usage.present;
    }
    llm_result_release(&r);
    return rc;
}

void genie_llm_check_release(genie_llm_check_out *out)
{
    free(out->reply);
    free(out->served);
    memset(out, 0, sizeof *out);
}

int genie_prompt_check(const char *user, const char *shipped, int stage, int *overridden, gn_err *e)
{
    llm_tpl *t;
    *overridden = 0;
    int rc = llm_prompt_load(user, shipped, llm_stage_name(stage), &t, e);
    if (rc) return rc;
    *overridden = user && !strncmp(llm_tpl_name(t), user, strlen(user));
    llm_tpl_free(t);
    return 0;
}

/* ---- saved sessions ------------------------------------------------------------ */

int genie_sessions_list(st_sessions *ss, const char *agent, st_session_cb fn, void *ud, gn_err *e)
{
    return st_session_list(ss, agent, fn, ud, e);
}

int genie_session_rename(st_sessions *ss, long id, const char *title, gn_err *e)
{
    return st_session_rename(ss, id, title, e);
}

int genie_session_delete(st_sessions *ss, long id, gn_err *e)
{
    return st_session_delete(ss, id, e);
}

int genie_session_export_md(st_sessions *ss, long id, gn_buf *out, gn_err *e)
{
    return st_session_export_md(ss, id, out, e);
}

void genie_sessions_close(st_sessions *ss)
{
    st_sessions_close(ss);
}
