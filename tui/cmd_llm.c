/*
 * cmd_llm.c — `genie --check-llm`: one short request to the configured
 * endpoint, its facts printed, and where each stage's prompt comes from.
 *
 * Offline is a state, not an error, everywhere else (genie.h); --check-llm
 * is the one place that insists on an endpoint: it exists to tell a person
 * whether their settings work, in one request.
 */
#include "cli.h"
#include "plainout.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Load every stage's prompt template (override first) and report where
 * they come from; returns the number that failed to load. */
static int check_prompts(const cfg_t *c)
{
    gn_err e;
    char *user, *shipped;
    genie_prompt_dirs(c, &user, &shipped);
    int bad = 0, n = 0;
    gn_buf over;
    gn_buf_init(&over);
    for (int i = 0; i < LLM_STAGE__COUNT; i++) {
        if (i == LLM_STAGE_CHECK) continue;
        llm_tpl *t;
        if (llm_prompt_load(user, shipped, llm_stage_name(i), &t, &e)) {
            char m[1200];
            fprintf(stderr, "genie: prompt: %s\n", gn_err_str(&e, m, sizeof m));
            bad++;
            continue;
        }
        n++;
        if (user && !strncmp(llm_tpl_name(t), user, strlen(user)))
            gn_buf_printf(&over, "%s%s", over.len ? ", " : "", llm_stage_name(i));
        llm_tpl_free(t);
    }
    printf("prompts:  %d loaded from %s", n, shipped ? shipped : "(shipped prompts not found)");
    if (over.len) printf("; overridden in %s: %s", user, over.data);
    printf("\n");
    gn_buf_release(&over);
    free(user);
    free(shipped);
    return bad;
}

/* --check-llm shows retries as they happen and the reply as it streams. */
static void on_check_event(llm_call *k, const llm_event *ev, void *ud)
{
    (void)k;
    (void)ud;
    if (ev->kind == LLM_EV_RETRY)
        plain_printf(stderr, "genie: %s; retrying in %.1f s (retry %d)\n", ev->reason, ev->wait,
                ev->attempt);
}

int cli_check_llm(const cfg_t *c)
{
    const char *why = genie_offline_reason(c);
    gn_err e;
    gn_err_clear(&e);
    if (why) {
        gn_err_set(&e, GN_EUSAGE, "%s", why);
        return cli_fail(&e);
    }
    llm_client *cl;
    genie_hooks h = cli_hooks(c);
    if (genie_llm_open(c, &h, &cl, &e)) return cli_fail(&e);
    const llm_stage_cfg *st = llm_client_stage(cl, LLM_STAGE_CHECK);
    printf("endpoint: %s\n", llm_client_endpoint(cl));
    printf("model:    %s (%s)\n", st->model, st->stream ? "streamed" : "not streamed");
    int bad_prompts = check_prompts(c);
    fflush(stdout);
    static const llm_msg msgs[] = {
        { "system", "You are a connectivity check. Follow the instruction exactly." },
        { "user", "Reply with the single word OK." },
    };
    llm_call_opts o = { .stage = LLM_STAGE_CHECK, .msgs = msgs, .nmsgs = 2, .no_cache = 1,
                        .cb = on_check_event };
    llm_result r;
    llm_call_info info;
    int rc = llm_complete(cl, &o, &r, &info, &e);
    if (!rc) {
        const llm_choice *ch = r.nchoices ? &r.choices[0] : NULL;
        const char *text = ch && ch->content.data ? ch->content.data : "";
        /* The server's words: made inert. */
        if (r.model && strcmp(r.model, st->model)) plain_printf(stdout, "served:   %s\n", r.model);
        plain_printf(stdout, "reply:    %.200s%s\n", text, strlen(text) > 200 ? "..." : "");
        if (ch && ch->reasoning.len) printf("thinking: %zu bytes of reasoning\n", ch->reasoning.len);
        printf("time:     first token %.3f s, total %.3f s, %d attempt%s\n",
               info.ttft >= 0 ? info.ttft : info.total, info.total, info.attempts,
               info.attempts == 1 ? "" : "s");
        printf("tokens:   %ld in, %ld out%s\n", info.prompt_tokens, info.completion_tokens,
               r.usage.present ? "" : " (no usage reported; estimated)");
        if (info.cost >= 0) printf("cost:     $%.6f\n", info.cost);
    }
    llm_result_release(&r);
    llm_client_free(cl);
    if (rc) return cli_fail(&e);
    return bad_prompts ? EXIT_RUNTIME : EXIT_OK;
}
