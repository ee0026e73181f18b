/*
 * stage.c — the stage table, per-stage spec parsing and the price table.
 *
 * The built-in budgets leave room for models that think before answering
 * (a reasoning model spends tokens before its "Yes"); a reply cut by the
 * budget ends with finish reason "length", which callers report.
 */
#include "stage.h"

#include "util/strdist.h"
#include "util/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int max_tokens;
} stages[LLM_STAGE__COUNT] = {
    [LLM_STAGE_PARSE] = { "parse", 1024 },
    [LLM_STAGE_KB_PARSE] = { "kb_parse", 1024 },
    [LLM_STAGE_REPAIR] = { "repair", 1024 },
    [LLM_STAGE_CONSULT] = { "consult", 64 },
    [LLM_STAGE_ANSWER] = { "answer", 256 },
    [LLM_STAGE_VERIFY] = { "verify", 64 },
    [LLM_STAGE_CLASSIFY] = { "classify", 128 },
    [LLM_STAGE_SUMMARY] = { "summary", 512 },
    [LLM_STAGE_RESPOND] = { "respond", 1024 },
    [LLM_STAGE_CHECK] = { "check", 64 },
    [LLM_STAGE_DRAFT] = { "draft", 2048 },
};

static const char *const keys[] = { "model", "temperature", "max_tokens", "stream", NULL };

int llm_stage_find(const char *name)
{
    for (int i = 0; i < LLM_STAGE__COUNT; i++)
        if (name && !strcmp(stages[i].name, name)) return i;
    return -1;
}

const char *llm_stage_name(int id)
{
    return id >= 0 && id < LLM_STAGE__COUNT ? stages[id].name : "?";
}

int llm_stage_default_max_tokens(int id)
{
    return id >= 0 && id < LLM_STAGE__COUNT ? stages[id].max_tokens : 256;
}

/* " (did you mean 'x'?)" for the nearest of NAMES within distance 2. */
static void hint(const char *s, const char *const *names, int n, char *dst, size_t size)
{
    int best = -1, bestd = 3;
    for (int i = 0; i < n; i++) {
        int d = gn_edit_distance(s, names[i]);
        if (d < bestd) { bestd = d; best = i; }
    }
    if (best >= 0) snprintf(dst, size, " (did you mean '%s'?)", names[best]);
    else dst[0] = 0;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    size_t k = strspn(s, " \t\r\n");
    memmove(s, s + k, n - k + 1);
}

/* Apply one "STAGE.KEY=VALUE" item. */
static int apply_item(char *item, llm_stage_cfg *out, gn_err *e)
{
    char whole[256], why[96];
    snprintf(whole, sizeof whole, "%s", item);
    char *eq = strchr(item, '=');
    char *dot = strchr(item, '.');
    if (!eq || !dot || dot > eq)
        return gn_err_set(e, GN_EUSAGE, "--stage: '%s' is not STAGE.KEY=VALUE", whole);
    *dot = 0;
    *eq = 0;
    char *stage = item, *key = dot + 1, *val = eq + 1;
    trim(stage);
    trim(key);
    trim(val);
    int lo = 0, hi = LLM_STAGE__COUNT;
    if (strcmp(stage, "*")) {
        int id = llm_stage_find(stage);
        if (id < 0) {
            const char *names[LLM_STAGE__COUNT];
            for (int i = 0; i < LLM_STAGE__COUNT; i++) names[i] = stages[i].name;
            hint(stage, names, LLM_STAGE__COUNT, why, sizeof why);
            return gn_err_set(e, GN_EUSAGE, "--stage: unknown stage '%s' in '%s'%s",
                              stage, whole, why);
        }
        lo = id;
        hi = id + 1;
    }
    int k = 0;
    while (keys[k] && strcmp(keys[k], key)) k++;
    if (!keys[k]) {
        hint(key, keys, 4, why, sizeof why);
        return gn_err_set(e, GN_EUSAGE, "--stage: unknown key '%s' in '%s'%s (keys: "
                          "model, temperature, max_tokens, stream)", key, whole, why);
    }
    char *end;
    errno = 0;
    double d = 0;
    long l = 0;
    int b = 0;
    switch (k) {
    case 0:
        if (!*val || strlen(val) >= sizeof out->model)
            return gn_err_set(e, GN_EUSAGE, "--stage: bad model name in '%s'", whole);
        break;
    case 1:
        d = strtod(val, &end);
        if (!*val || *end || errno || !isfinite(d) || d < 0 || d > 2)
            return gn_err_set(e, GN_EUSAGE, "--stage: temperature in '%s' must be a "
                              "number in 0..2", whole);
        break;
    case 2:
        l = strtol(val, &end, 10);
        if (!*val || *end || errno || l < 1 || l > 1000000)
            return gn_err_set(e, GN_EUSAGE, "--stage: max_tokens in '%s' must be an "
                              "integer in 1..1000000", whole);
        break;
    default:
        if (!strcmp(val, "true") || !strcmp(val, "1") || !strcmp(val, "yes") || !strcmp(val, "on"))
            b = 1;
        else if (!strcmp(val, "false") || !strcmp(val, "0") || !strcmp(val, "no") || !strcmp(val, "off"))
            b = 0;
        else
            return gn_err_set(e, GN_EUSAGE, "--stage: stream in '%s' must be true or false", whole);
    }
    for (int i = lo; i < hi; i++) {
        if (k == 0) snprintf(out[i].model, sizeof out[i].model, "%s", val);
        else if (k == 1) out[i].temperature = d;
        else if (k == 2) out[i].max_tokens = (int)l;
        else out[i].stream = b;
    }
    return 0;
}

int llm_stages_resolve(const llm_stage_defaults *defs, const char *spec,
                       llm_stage_cfg out[LLM_STAGE__COUNT], gn_err *e)
{
    if (!defs->model || !*defs->model || strlen(defs->model) >= sizeof out[0].model)
        return gn_err_set(e, GN_EUSAGE, "the model name is empty or too long");
    for (int i = 0; i < LLM_STAGE__COUNT; i++) {
        snprintf(out[i].model, sizeof out[i].model, "%s", defs->model);
        out[i].temperature = defs->temperature;
        out[i].max_tokens = defs->max_tokens > 0 ? defs->max_tokens : stages[i].max_tokens;
        out[i].stream = defs->stream;
    }
    if (!spec || !*spec) return 0;
    char *copy = xstrdup(spec), *save = NULL;
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        trim(item);
        if (*item) rc = apply_item(item, out, e);
    }
    free(copy);
    return rc;
}

int llm_prices_parse(const char *spec, llm_price **out, int *n, gn_err *e)
{
    *out = NULL;
    *n = 0;
    if (!spec || !*spec) return 0;
    char *copy = xstrdup(spec), *save = NULL;
    llm_price *t = NULL;
    int cnt = 0, rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        trim(item);
        if (!*item) continue;
        char whole[256];
        snprintf(whole, sizeof whole, "%s", item);
        char *eq = strrchr(item, '='), *slash = eq ? strchr(eq, '/') : NULL;
        char *end1 = NULL, *end2 = NULL;
        double in = 0, outp = 0;
        if (eq && slash) {
            *eq = 0;
            *slash = 0;
            trim(item);
            errno = 0;
            in = strtod(eq + 1, &end1);
            outp = strtod(slash + 1, &end2);
        }
        if (!eq || !slash || !*item || strlen(item) >= sizeof t->model || end1 == eq + 1 ||
            *end1 || end2 == slash + 1 || *end2 || errno || !(in >= 0) || !(outp >= 0) ||
            !isfinite(in) || !isfinite(outp)) {
            rc = gn_err_set(e, GN_EUSAGE, "--prices: bad item '%s' (want MODEL=IN/OUT, "
                            "dollars per million tokens)", whole);
            break;
        }
        t = xrealloc(t, sizeof *t * (size_t)(cnt + 1));
        snprintf(t[cnt].model, sizeof t[cnt].model, "%s", item);
        t[cnt].in = in;
        t[cnt].out = outp;
        cnt++;
    }
    free(copy);
    if (rc) {
        free(t);
        return rc;
    }
    *out = t;
    *n = cnt;
    return 0;
}

const llm_price *llm_price_find(const llm_price *table, int n, const char *model)
{
    for (int i = 0; model && i < n; i++)
        if (!strcmp(table[i].model, model)) return &table[i];
    return NULL;
}
