/*
 * events.c — the names and the JSON form of turn events.
 *
 * One table gives each kind its name; the JSON form is what `--format
 * json` prints, one object per line, so scripts and the TUI read the same
 * stream.  Members that are not set are left out rather than written as
 * null, which keeps the lines short and the meaning plain.
 */
#include "agent/agent.h"

static const char *const names[AG_EV__COUNT] = {
    "stage", "statements", "refused", "suql", "result", "state",
    "acts", "token", "response", "error", "warning", "timings", "retry",
};

const char *ag_event_name(enum ag_ev_kind k)
{
    return k >= 0 && k < AG_EV__COUNT ? names[k] : "?";
}

cJSON *ag_event_json(const ag_event *ev)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "event", ag_event_name(ev->kind));
    if (ev->stage) cJSON_AddStringToObject(o, "stage", ev->stage);
    if (ev->text) cJSON_AddStringToObject(o, "text", ev->text);
    if (ev->error) cJSON_AddStringToObject(o, "error", ev->error);
    if (ev->data) cJSON_AddItemToObject(o, "data", cJSON_Duplicate(ev->data, 1));
    return o;
}

void ag_timings_usage(const cJSON *t, llm_stats *out, long *memo)
{
#define N(k) ((long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(t, k)))
    *out = (llm_stats){ .calls = N("llm_calls"), .cache_hits = N("cache_hits"),
                        .prompt_tokens = N("tokens_in"), .completion_tokens = N("tokens_out"),
                        .usage_missing = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(t, "tokens_estimated"))
                                         ? N("tokens_estimated") : 0 };
    *memo = N("memo_hits");
#undef N
    const cJSON *cost = cJSON_GetObjectItemCaseSensitive(t, "cost");
    if (cJSON_IsNumber(cost)) {
        out->cost = cost->valuedouble;
        out->priced_calls = 1;
    }
}
