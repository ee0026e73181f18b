/*
 * llm.c — the LLM client from the configuration, and offline mode.
 *
 * Offline is a state, not an error: with no endpoint (or --offline) genie
 * starts, says so once, and the engine falls back to extractive answers.
 * The API key comes from the settings or from the output of a command, and
 * is wiped from memory once the client holds it.
 */
#include "genie.h"

#include "llm/keycmd.h"
#include "util/xmem.h"

#include <string.h>

const char *genie_offline_reason(const cfg_t *c)
{
    if (cfg_bool(c, OPT_OFFLINE)) return "offline (--offline)";
    if (!cfg_str(c, OPT_LLM_URL)[0])
        return "offline: no LLM endpoint configured (set --llm-url, GENIE_LLM_URL or "
               "OPENAI_BASE_URL)";
    return NULL;
}

int genie_api_key(const cfg_t *c, char **key, gn_err *e)
{
    *key = NULL;
    if (cfg_str(c, OPT_API_KEY)[0]) {
        *key = xstrdup(cfg_str(c, OPT_API_KEY));
        return 0;
    }
    if (cfg_str(c, OPT_API_KEY_CMD)[0])
        return llm_key_from_cmd(cfg_str(c, OPT_API_KEY_CMD), cfg_double(c, OPT_API_KEY_CMD_TIMEOUT),
                                key, e);
    return 0;
}

int genie_llm_check_settings(const cfg_t *c, gn_err *e)
{
    llm_stage_defaults d = { .model = cfg_str(c, OPT_MODEL)[0] ? cfg_str(c, OPT_MODEL) : "model" };
    llm_stage_cfg st[LLM_STAGE__COUNT];
    llm_price *prices = NULL;
    int np = 0;
    int rc = llm_stages_resolve(&d, cfg_str(c, OPT_STAGE), st, e);
    if (!rc) rc = llm_prices_parse(cfg_str(c, OPT_PRICES), &prices, &np, e);
    free(prices);
    return rc ? GN_EUSAGE : 0;
}

/* The cache file: --llm-cache, else $XDG_CACHE_HOME/genie/llm-cache.db;
 * NULL with --no-cache or no home. */
static char *cache_path(const cfg_t *c)
{
    if (cfg_bool(c, OPT_NO_CACHE)) return NULL;
    if (cfg_str(c, OPT_LLM_CACHE)[0]) return xstrdup(cfg_str(c, OPT_LLM_CACHE));
    gn_err xe;
    char *dir = cfg_xdg_dir(c, CFG_XDG_CACHE, &xe);
    char *r = dir ? xasprintf("%s/llm-cache.db", dir) : NULL;
    free(dir);
    return r;
}

int genie_llm_open(const cfg_t *c, const genie_hooks *h, llm_client **out, gn_err *e)
{
    *out = NULL;
    if (genie_offline_reason(c)) return 0;
    char *key = NULL;
    int krc = genie_api_key(c, &key, e);
    if (krc) return krc;
    char *cache = cache_path(c);
    llm_config lc = {
        .url = cfg_str(c, OPT_LLM_URL),
        .api_key = key,
        .defaults = { .model = cfg_str(c, OPT_MODEL), .temperature = cfg_double(c, OPT_TEMPERATURE),
                      .max_tokens = (int)cfg_int(c, OPT_MAX_TOKENS),
                      .stream = !cfg_bool(c, OPT_NO_STREAM) },
        .stage_spec = cfg_str(c, OPT_STAGE),
        .prices = cfg_str(c, OPT_PRICES),
        .concurrency = (int)cfg_int(c, OPT_LLM_CONCURRENCY),
        .connect_timeout = cfg_double(c, OPT_CONNECT_TIMEOUT),
        .stall_timeout = cfg_double(c, OPT_STALL_TIMEOUT),
        .retries = (int)cfg_int(c, OPT_RETRIES),
        .retry_max_wait = cfg_double(c, OPT_RETRY_MAX_WAIT),
        .cache_path = cache,
        .log_path = cfg_str(c, OPT_LLM_LOG),
    };
    int rc = llm_client_new(&lc, out, e);
    if (key) memset(key, 0, strlen(key));
    free(key);
    free(cache);
    if (rc || !h || !h->note) return rc;
    /* One warning a line. */
    for (const char *w = llm_client_warnings(*out); *w;) {
        size_t n = strcspn(w, "\n");
        char *line = xstrndup(w, n);
        h->note(h->ud, 1, line);
        free(line);
        w += n + (w[n] == '\n');
    }
    return 0;
}
