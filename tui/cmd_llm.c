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
        int overridden;
        if (genie_prompt_check(user, shipped, i, &overridden, &e)) {
            char m[1200];
            fprintf(stderr, "genie: prompt: %s\n", gn_err_str(&e, m, sizeof m));
            bad++;
            continue;
        }
        n++;
        if (overridden) gn_buf_printf(&over, "%s%s", over.len ? ", " : "", llm_stage_name(i));
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
    const llm_stage_cfg *st = genie_llm_stage(cl, LLM_STAGE_CHECK);
    printf("endpoint: %s\n", genie_llm_endpoint(cl));
    printf("model:    %s (%s)\n", st->model, st->stream ? "streamed" : "not streamed");
    int bad_prompts = check_prompts(c);
    fflush(stdout);
    genie_llm_check_out r;
    int rc = genie_llm_check(cl, on_check_event, NULL, &r, &e);
    if (!rc) {
        const llm_call_info *info = &r.info;
        /* The server's words: made inert. */
        if (r.served && strcmp(r.served, st->model)) plain_printf(stdout, "served:   %s\n", r.served);
        plain_printf(stdout, "reply:    %.200s%s\n", r.reply, strlen(r.reply) > 200 ? "..." : "");
        if (r.reasoning_bytes) printf("thinking: %zu bytes of reasoning\n", r.reasoning_bytes);
        printf("time:     first token %.3f s, total %.3f s, %d attempt%s\n",
               info->ttft >= 0 ? info->ttft : info->total, info->total, info->attempts,
               info->attempts == 1 ? "" : "s");
        printf("tokens:   %ld in, %ld out%s\n", info->prompt_tokens, info->completion_tokens,
               r.usage_reported ? "" : " (no usage reported; estimated)");
        if (info->cost >= 0) printf("cost:     $%.6f\n", info->cost);
        genie_llm_check_release(&r);
    }
    genie_llm_close(cl);
    if (rc) return cli_fail(&e);
    return bad_prompts ? EXIT_RUNTIME : EXIT_OK;
}
