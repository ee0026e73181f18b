/*
 * options.c — the options table and lookups over it.
 *
 * Invariant: cfg_options[i] describes enum constant i (designated
 * initializers keep them aligned; a unit test checks every row is filled,
 * long names, short letters and keys are unique and every default passes its
 * own validation).  Environment variable names are derived from the key, never
 * written twice, so the file key and the variable cannot drift apart.  The
 * one validator of values (cfg_opt_parse) lives here too, beside the types
 * and ranges it checks, so every layer of config.c accepts the same inputs.
 *
 * Rejected: X-macros generating enum and table from one list (one list is
 * nicer, but a row of thirteen positional macro arguments is unreadable and
 * unsearchable); a separate table per consumer (file keys, getopt, help),
 * which is how options end up settable one way and not another.
 */
#include "options.h"

#include "util/strdist.h"
#include "util/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const embedders[] = { "glove", "remote", NULL };
static const char *const formats[] = { "table", "json", "csv", NULL };
static const char *const themes[] = { "dark", "light", "mono", NULL };
static const char *const summaries[] = { "auto", "llm", "extractive", NULL };
static const char *const editing_modes[] = { "inputrc", "emacs", "vi", NULL };

#define MODES "Modes"
#define GENERAL "General"
#define RETRIEVAL "Data and retrieval"
#define LLM "LLM"

const cfg_option cfg_options[OPT__COUNT] = {
    /* ---- Modes: command-line only ---------------------------------- */
    [OPT_HELP] = { .name = "help", .shortopt = 'h', .type = CFG_ACTION,
        .group = MODES, .help = "show this help and exit" },
    [OPT_VERSION] = { .name = "version", .shortopt = 'V', .type = CFG_ACTION,
        .group = MODES, .help = "show the version and exit" },
    [OPT_PRINT_CONFIG] = { .name = "print-config", .type = CFG_ACTION,
        .group = MODES,
        .help = "show every effective setting and where it came from, "
                "then exit" },
    [OPT_SEARCH] = { .name = "search", .shortopt = 's', .arg = "TEXT",
        .type = CFG_STRING, .def = "", .group = MODES,
        .help = "run a hybrid (vector + full-text) search of the knowledge "
                "base, print the ranked rows and exit" },
    [OPT_REINDEX] = { .name = "reindex", .type = CFG_ACTION, .group = MODES,
        .help = "rebuild the retrieval index of the knowledge base, showing "
                "progress, then exit" },
    [OPT_SUQL] = { .name = "suql", .arg = "QUERY", .type = CFG_STRING, .def = "",
        .group = MODES,
        .help = "run a SUQL query on the knowledge base, print the rows and "
                "exit ('-' reads the query from standard input)" },
    [OPT_EXPLAIN] = { .name = "explain", .arg = "QUERY", .type = CFG_STRING,
        .def = "", .group = MODES,
        .help = "print how a SUQL query would run (plan, SQL, candidates, "
                "budget) without calling any LLM, then exit" },
    [OPT_ANALYZE] = { .name = "analyze", .type = CFG_ACTION, .group = MODES,
        .help = "with --explain: also run the query and report rows, LLM "
                "calls, cache hits and timings; with --suql: report them on "
                "standard error" },
    [OPT_SCHEMA] = { .name = "schema", .type = CFG_ACTION, .group = MODES,
        .help = "print the knowledge base's schema as the SUQL parser shows "
                "it to the LLM, then exit" },
    [OPT_CHECK_LLM] = { .name = "check-llm", .type = CFG_ACTION, .group = MODES,
        .help = "send one short request to the LLM endpoint, report the "
                "model, latency and token counts, then exit" },
    [OPT_RESUME] = { .name = "resume", .arg = "ID", .type = CFG_STRING,
        .def = "", .group = MODES, .flags = CFG_OPTARG,
        .help = "continue a saved conversation: session ID, or the agent's "
                "most recent one when ID is left out" },
    [OPT_LIST_SESSIONS] = { .name = "list-sessions", .type = CFG_ACTION,
        .group = MODES,
        .help = "list the saved conversations, most recent first, then exit" },
    [OPT_EXPORT_SESSION] = { .name = "export-session", .arg = "ID",
        .type = CFG_STRING, .def = "", .group = MODES,
        .help = "print saved conversation ID as Markdown, then exit" },
    [OPT_DELETE_SESSION] = { .name = "delete-session", .arg = "ID",
        .type = CFG_STRING, .def = "", .group = MODES,
        .help = "delete saved conversation ID and its turns, then exit" },
    [OPT_RENAME_SESSION] = { .name = "rename-session", .arg = "ID",
        .type = CFG_STRING, .def = "", .group = MODES,
        .help = "name saved conversation ID with the words after the options "
                "(none: take its name away), then exit; listings show the "
                "name instead of the first words" },
    [OPT_INIT] = { .name = "init", .arg = "DIR", .type = CFG_PATH, .def = "",
        .group = MODES,
        .help = "make an agent in DIR from the data files named after the "
                "options (CSV, TSV, JSON, JSON Lines or SQLite): infer each "
                "column's type, write the database, worksheet.csv and "
                "agent.ini, build the index, then exit" },
    [OPT_FORCE] = { .name = "force", .type = CFG_ACTION, .group = MODES,
        .help = "with --init: replace DIR when it holds an agent and nothing else" },

    /* ---- General ---------------------------------------------------- */
    [OPT_CONFIG] = { .name = "config", .shortopt = 'c', .arg = "FILE",
        .type = CFG_PATH, .def = "", .key = "config", .group = GENERAL,
        .help = "read settings from FILE instead of "
                "$XDG_CONFIG_HOME/genie/config.ini (an empty FILE reads none)" },
    [OPT_DB] = { .name = "db", .shortopt = 'd', .arg = "FILE",
        .type = CFG_PATH, .def = "", .section = "general", .key = "db",
        .group = GENERAL,
        .help = "the SQLite knowledge base (empty: the database of the agent, "
                "see --agent)" },
    [OPT_TOP_K] = { .name = "top-k", .shortopt = 'k', .arg = "N",
        .type = CFG_INT, .def = "10", .min = 1, .max = 1000,
        .section = "general", .key = "top_k", .group = GENERAL,
        .help = "number of ranked rows a search returns" },
    [OPT_QUIET] = { .name = "quiet", .shortopt = 'q', .type = CFG_BOOL,
        .def = "false", .section = "general", .key = "quiet",
        .group = GENERAL, .help = "no progress output" },
    [OPT_VERBOSE] = { .name = "verbose", .shortopt = 'v', .type = CFG_BOOL,
        .def = "false", .section = "general", .key = "verbose",
        .group = GENERAL,
        .help = "in line mode, also print each statement the agent refused "
                "(the reply says what could not be done) and each turn's LLM "
                "use on standard error" },
    [OPT_NO_COLOR] = { .name = "no-color", .type = CFG_BOOL, .def = "false",
        .section = "general", .key = "no_color", .env_also = "NO_COLOR",
        .group = GENERAL, .help = "do not use colors" },

    [OPT_FORMAT] = { .name = "format", .type = CFG_ENUM, .def = "table",
        .values = formats, .section = "general", .key = "format",
        .group = GENERAL,
        .help = "how --suql prints rows: an aligned table fitted to the "
                "terminal, JSON, or CSV; in a conversation, json prints one "
                "JSON event per line instead of the replies" },
    [OPT_BUDGET] = { .name = "budget", .arg = "N", .type = CFG_INT, .def = "0",
        .min = 0, .max = 1000000, .section = "general", .key = "budget",
        .group = GENERAL,
        .help = "most free-text evaluations (LLM calls) one query may make "
                "(0: 10 per row LIMIT asks for, 40 to 200; 200 without "
                "LIMIT)" },
    [OPT_VERIFY_BATCH] = { .name = "verify-batch", .arg = "N", .type = CFG_INT, .def = "8",
        .min = 1, .max = 64, .section = "general", .key = "verify_batch",
        .group = GENERAL,
        .help = "candidate rows one LLM call checks against a free-text "
                "filter (1: one row a call, as the SUQL paper does)" },
    [OPT_QUERY_TIMEOUT] = { .name = "query-timeout", .arg = "SECS", .type = CFG_DOUBLE,
        .def = "30", .min = 0.01, .max = 86400, .section = "general", .key = "query_timeout",
        .group = GENERAL,
        .help = "stop a SUQL query after SECS of work, from its parse to its "
                "last row (waits for the LLM not counted), with an error naming "
                "the limit; results are also cut at 100,000 rows or 64 MB of text" },
    [OPT_QUERY_MEMORY] = { .name = "query-memory", .arg = "MB", .type = CFG_INT,
        .def = "1024", .min = 16, .max = 1048576, .section = "general", .key = "query_memory",
        .group = GENERAL,
        .help = "stop a SUQL query that needs more than MB megabytes of database "
                "memory, with an error naming the limit; one text value may hold "
                "a sixteenth of it" },
    [OPT_SUMMARIES] = { .name = "summaries", .type = CFG_ENUM, .def = "auto",
        .values = summaries, .section = "general", .key = "summaries",
        .group = GENERAL,
        .help = "how summary() is computed: by the LLM, or extractive (the "
                "passages that say most, no LLM call); auto: extractive in a "
                "conversation, whose reply the LLM phrases anyway, llm "
                "elsewhere" },
    [OPT_AGENT] = { .name = "agent", .shortopt = 'a', .arg = "DIR|NAME",
        .type = CFG_STRING, .def = "restaurants", .section = "general",
        .key = "agent", .group = GENERAL,
        .help = "the agent to talk to: a directory with agent.ini, or the "
                "name of a shipped agent (restaurants, courses)" },
    [OPT_PLAIN] = { .name = "plain", .type = CFG_BOOL, .def = "false",
        .section = "general", .key = "plain", .group = GENERAL,
        .help = "converse line by line: read utterances from standard input, "
                "print the replies (the default when standard input or output "
                "is not a terminal)" },
    [OPT_SESSIONS] = { .name = "sessions", .arg = "FILE", .type = CFG_PATH,
        .def = "", .section = "general", .key = "sessions", .group = GENERAL,
        .help = "where conversations are saved (empty: "
                "$XDG_DATA_HOME/genie/sessions.db)" },
    [OPT_API_RETRIES] = { .name = "api-retries", .arg = "N", .type = CFG_INT, .def = "2",
        .min = 0, .max = 10, .section = "general", .key = "api_retries", .group = GENERAL,
        .help = "retries of an agent's HTTP API call, only when safe (a GET "
                "that failed; a POST that cannot have arrived)" },
    [OPT_API_RETRY_MAX_WAIT] = { .name = "api-retry-max-wait", .arg = "SECS",
        .type = CFG_DOUBLE, .def = "10", .min = 0, .max = 600, .section = "general",
        .key = "api_retry_max_wait", .group = GENERAL,
        .help = "longest wait before an HTTP API call is tried again, also "
                "capping a server's Retry-After" },
    [OPT_TODAY] = { .name = "today", .arg = "DATE", .type = CFG_STRING,
        .def = "", .section = "general", .key = "today", .group = GENERAL,
        .help = "the date the agent and SUQL's CURRENT_DATE take as today, "
                "YYYY-MM-DD (empty: the system's date)" },
    [OPT_THEME] = { .name = "theme", .type = CFG_ENUM,
        .def = "dark", .values = themes, .section = "general", .key = "theme",
        .group = GENERAL,
        .help = "colours of the full-screen interface: dark and light keep "
                "the terminal's background and suit a dark or a light one; "
                "mono uses no colour (as --no-color and NO_COLOR do)" },
    [OPT_EDITING_MODE] = { .name = "editing-mode",
        .type = CFG_ENUM, .def = "inputrc", .values = editing_modes,
        .section = "general", .key = "editing_mode", .group = GENERAL,
        .help = "line editing keys of the full-screen interface: emacs, vi, "
                "or what ~/.inputrc sets (emacs unless it says vi)" },
    [OPT_NO_MOUSE] = { .name = "no-mouse", .type = CFG_BOOL, .def = "false",
        .section = "general", .key = "no_mouse", .group = GENERAL,
        .help = "leave the mouse to the terminal in the full-screen interface: "
                "a plain drag selects text, and the wheel scrolls the terminal, "
                "not the panes (without it, Shift-drag selects)" },

    /* ---- Data and retrieval ----------------------------------------- */
    [OPT_EMBEDDER] = { .name = "embedder", .type = CFG_ENUM, .def = "glove",
        .values = embedders, .section = "retrieval", .key = "embedder",
        .group = RETRIEVAL,
        .help = "how passages are embedded: glove = offline word vectors, "
                "remote = an OpenAI-compatible /embeddings endpoint" },
    [OPT_VECTORS] = { .name = "vectors", .arg = "FILE", .type = CFG_PATH,
        .def = "", .section = "retrieval", .key = "vectors",
        .group = RETRIEVAL,
        .help = "offline word-vector file for the glove embedder (empty: the "
                "one shipped with genie)" },
    [OPT_EMBED_URL] = { .name = "embed-url", .arg = "URL", .type = CFG_STRING,
        .def = "", .section = "retrieval", .key = "embed_url",
        .group = RETRIEVAL,
        .help = "base URL of the OpenAI-compatible API for remote "
                "embeddings, e.g. http://127.0.0.1:8080/v1" },
    [OPT_EMBED_MODEL] = { .name = "embed-model", .arg = "NAME",
        .type = CFG_STRING, .def = "text-embedding-3-small",
        .section = "retrieval", .key = "embed_model", .group = RETRIEVAL,
        .help = "model name for remote embeddings" },
    [OPT_EMBED_BATCH] = { .name = "embed-batch", .arg = "N", .type = CFG_INT,
        .def = "64", .min = 1, .max = 2048, .section = "retrieval",
        .key = "embed_batch", .group = RETRIEVAL,
        .help = "passages per remote embedding request" },
    [OPT_HNSW_THRESHOLD] = { .name = "hnsw-threshold", .arg = "N",
        .type = CFG_INT, .def = "200000", .min = 0, .max = 1000000000,
        .section = "retrieval", .key = "hnsw_threshold", .group = RETRIEVAL,
        .help = "above this many passages the vector index is HNSW "
                "(approximate) instead of exact search" },
    [OPT_EF_SEARCH] = { .name = "ef-search", .arg = "N", .type = CFG_INT,
        .def = "64", .min = 1, .max = 4096, .section = "retrieval",
        .key = "ef_search", .group = RETRIEVAL,
        .help = "HNSW efSearch: candidates explored per query (higher is "
                "more exact and slower)" },
    [OPT_HNSW_M] = { .name = "hnsw-m", .arg = "N", .type = CFG_INT,
        .def = "32", .min = 2, .max = 256, .section = "retrieval",
        .key = "hnsw_m", .group = RETRIEVAL,
        .help = "HNSW M: links per vector (higher is more exact and "
                "larger); applies when the index is built" },
    [OPT_EF_CONSTRUCTION] = { .name = "ef-construction", .arg = "N", .type = CFG_INT,
        .def = "20", .min = 4, .max = 1024, .section = "retrieval",
        .key = "ef_construction", .group = RETRIEVAL,
        .help = "HNSW efConstruction: candidates explored per insertion "
                "(higher builds a slightly better graph, linearly slower)" },
    [OPT_CHUNK_CHARS] = { .name = "chunk-chars", .arg = "N", .type = CFG_INT,
        .def = "600", .min = 100, .max = 100000, .section = "retrieval",
        .key = "chunk_chars", .group = RETRIEVAL,
        .help = "passages longer than N characters are split into chunks" },
    [OPT_RRF_K] = { .name = "rrf-k", .arg = "N", .type = CFG_INT,
        .def = "60", .min = 1, .max = 100000, .section = "retrieval",
        .key = "rrf_k", .group = RETRIEVAL,
        .help = "reciprocal rank fusion constant: a row at rank r scores "
                "1/(N + r) in each ranking" },
    [OPT_FUSION_DENSE_WEIGHT] = { .name = "fusion-dense-weight", .arg = "X",
        .type = CFG_DOUBLE, .def = "0.5", .min = 0, .max = 1,
        .section = "retrieval", .key = "fusion_dense_weight",
        .group = RETRIEVAL,
        .help = "weight of the vector ranking against the full-text one "
                "(0 = full-text only, 1 = vectors only)" },
    [OPT_INDEX_BACKGROUND] = { .name = "index-background", .arg = "N", .type = CFG_INT,
        .def = "1000000", .min = 0, .max = 1000000000, .section = "retrieval",
        .key = "index_background", .group = RETRIEVAL,
        .help = "an index of N passages or more is read in the background: "
                "the screen is ready at once and the first search waits "
                "for it (0 = never)" },

    /* ---- LLM ---------------------------------------------------------- */
    [OPT_OFFLINE] = { .name = "offline", .type = CFG_BOOL, .def = "false",
        .section = "llm", .key = "offline", .group = LLM,
        .help = "use no LLM even if an endpoint is configured: extractive "
                "answers and summaries, similarity-threshold filters" },
    [OPT_LLM_URL] = { .name = "llm-url", .arg = "URL", .type = CFG_STRING,
        .def = "", .section = "llm", .key = "llm_url",
        .env_also = "OPENAI_BASE_URL", .group = LLM,
        .help = "base URL of the OpenAI-compatible API, e.g. "
                "https://api.openai.com/v1 or http://127.0.0.1:8080/v1 "
                "(empty: offline)" },
    [OPT_MODEL] = { .name = "model", .shortopt = 'm', .arg = "NAME",
        .type = CFG_STRING, .def = "gpt-4o-mini", .section = "llm",
        .key = "model", .group = LLM,
        .help = "model name sent with every request (local servers that "
                "serve one model ignore it)" },
    [OPT_API_KEY] = { .type = CFG_STRING, .def = "", .section = "llm",
        .key = "api_key", .env_also = "OPENAI_API_KEY", .group = LLM,
        .flags = CFG_SECRET,
        .help = "API key, sent as a bearer token; no flag, so it never shows "
                "in the process list" },
    [OPT_API_KEY_CMD] = { .type = CFG_STRING, .def = "", .section = "llm", .key = "api_key_cmd",
        .group = LLM,
        .help = "shell command whose first output line is the API key, run "
                "when no key is set, e.g. 'pass show openai'" },
    [OPT_API_KEY_CMD_TIMEOUT] = { .type = CFG_DOUBLE, .def = "30", .min = 0.1, .max = 3600,
        .section = "llm", .key = "api_key_cmd_timeout", .group = LLM,
        .help = "seconds api_key_cmd may take before it is stopped" },
    [OPT_TEMPERATURE] = { .name = "temperature", .arg = "X", .type = CFG_DOUBLE,
        .def = "0", .min = 0, .max = 2, .section = "llm", .key = "temperature",
        .group = LLM,
        .help = "sampling temperature of every stage (0 is deterministic and "
                "cacheable)" },
    [OPT_MAX_TOKENS] = { .name = "max-tokens", .arg = "N", .type = CFG_INT,
        .def = "0", .min = 0, .max = 1000000, .section = "llm",
        .key = "max_tokens", .group = LLM,
        .help = "most tokens one reply may have (0: each stage's own limit)" },
    [OPT_STAGE] = { .name = "stage", .arg = "SPEC", .type = CFG_STRING,
        .def = "", .section = "llm", .key = "stage", .group = LLM,
        .help = "per-stage settings, comma-separated STAGE.KEY=VALUE with "
                "KEY one of model, temperature, max_tokens, stream, e.g. "
                "'parse.model=gpt-4o,answer.max_tokens=64'" },
    [OPT_NO_STREAM] = { .name = "no-stream", .type = CFG_BOOL, .def = "false",
        .section = "llm", .key = "no_stream", .group = LLM,
        .help = "ask for whole replies instead of streamed ones (for servers "
                "that stream badly)" },
    [OPT_LLM_CONCURRENCY] = { .name = "llm-concurrency", .arg = "N",
        .type = CFG_INT, .def = "8", .min = 1, .max = 256, .section = "llm",
        .key = "llm_concurrency", .group = LLM,
        .help = "most LLM requests in flight at once" },
    [OPT_CONNECT_TIMEOUT] = { .name = "connect-timeout", .arg = "SECS",
        .type = CFG_DOUBLE, .def = "10", .min = 0.01, .max = 600,
        .section = "llm", .key = "connect_timeout", .group = LLM,
        .help = "give up connecting to the LLM or embedding endpoint, or to "
                "an agent's HTTP API, after SECS" },
    [OPT_STALL_TIMEOUT] = { .name = "stall-timeout", .arg = "SECS",
        .type = CFG_DOUBLE, .def = "120", .min = 0.01, .max = 86400,
        .section = "llm", .key = "stall_timeout", .group = LLM,
        .help = "give up on a reply after SECS without receiving a byte, "
                "or twice SECS with keep-alives but no content (long "
                "replies are never cut); embedding requests too" },
    [OPT_RETRIES] = { .name = "retries", .arg = "N", .type = CFG_INT,
        .def = "4", .min = 0, .max = 20, .section = "llm", .key = "retries",
        .group = LLM,
        .help = "retries of a failed LLM or embedding request (connection "
                "errors, 408, 409, 429, 5xx) with exponential backoff, until "
                "output has been streamed" },
    [OPT_RETRY_MAX_WAIT] = { .name = "retry-max-wait", .arg = "SECS",
        .type = CFG_DOUBLE, .def = "60", .min = 0, .max = 3600,
        .section = "llm", .key = "retry_max_wait", .group = LLM,
        .help = "longest wait before a retry (LLM and embeddings), also "
                "capping a server's Retry-After" },
    [OPT_LLM_CACHE] = { .name = "llm-cache", .arg = "FILE", .type = CFG_PATH,
        .def = "", .section = "llm", .key = "llm_cache", .group = LLM,
        .help = "cache of deterministic (temperature 0) LLM replies (empty: "
                "$XDG_CACHE_HOME/genie/llm-cache.db)" },
    [OPT_NO_CACHE] = { .name = "no-cache", .type = CFG_BOOL, .def = "false",
        .section = "llm", .key = "no_cache", .group = LLM,
        .help = "neither read nor write the LLM cache" },
    [OPT_LLM_LOG] = { .name = "llm-log", .arg = "FILE", .type = CFG_PATH,
        .def = "", .section = "llm", .key = "llm_log", .group = LLM,
        .help = "append one JSON object per LLM call to FILE (stage, model, "
                "messages, reply, usage, timings, error)" },
    [OPT_PRICES] = { .name = "prices", .arg = "SPEC", .type = CFG_STRING,
        .def = "", .section = "llm", .key = "prices", .group = LLM,
        .help = "US dollars per million input/output tokens by model, "
                "comma-separated MODEL=IN/OUT, e.g. "
                "'gpt-4o-mini=0.15/0.6'; enables cost accounting" },
    [OPT_OFFLINE_THRESHOLD] = { .name = "offline-threshold", .arg = "X",
        .type = CFG_DOUBLE, .def = "0.88", .min = -1, .max = 2,
        .section = "llm", .key = "offline_threshold", .group = LLM,
        .help = "offline, a free-text filter holds when a sentence of the "
                "row scores at least X against the question (word-vector "
                "similarity plus word overlap, about 0..1.3)" },
};

const cfg_option *cfg_opt(int opt)
{
    return &cfg_options[opt];
}

int cfg_opt_by_name(const char *name)
{
    for (int i = 0; i < OPT__COUNT; i++)
        if (cfg_options[i].name && !strcmp(cfg_options[i].name, name)) return i;
    return -1;
}

/* Key comparison: case-insensitive, '-' and '_' equivalent. */
static int key_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = *a == '-' ? '_' : (unsigned char)*a;
        int cb = *b == '-' ? '_' : (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
        if (ca != cb) return 0;
        if (!ca) return 1;
    }
}

int cfg_opt_by_key(const char *section, const char *key)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = &cfg_options[i];
        if (o->section && !strcasecmp(o->section, section) && key_eq(o->key, key))
            return i;
    }
    return -1;
}

const char *cfg_opt_env(int opt, char *buf, size_t n)
{
    const char *k = cfg_options[opt].key;
    if (!k || n == 0) return NULL;
    size_t j = (size_t)snprintf(buf, n, "GENIE_");
    for (; *k && j + 1 < n; k++, j++) {
        char c = *k == '-' ? '_' : *k;
        buf[j] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
    }
    buf[j < n ? j : n - 1] = 0;
    return buf;
}

void cfg_opt_values(const cfg_option *o, const char *sep, char *dst, size_t n)
{
    size_t len = strlen(dst);
    for (int i = 0; o->values && o->values[i] && len + 1 < n; i++) {
        int w = snprintf(dst + len, n - len, "%s%s", i ? sep : "", o->values[i]);
        if (w < 0) break;
        len += (size_t)w;
        if (len >= n) len = n - 1;
    }
}

/* ---- validation ---------------------------------------------------- */

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = { "1", "true", "yes", "on" };
    static const char *const no[] = { "0", "false", "no", "off" };
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i])) { *out = 1; return 0; }
        if (!strcasecmp(s, no[i])) { *out = 0; return 0; }
    }
    return -1;
}

static int out_of_range(const cfg_option *o, double x)
{
    return o->min < o->max && (x < o->min || x > o->max);
}

static int parse_int(const cfg_option *o, const char *s, cfg_value *v,
                     char *why, size_t n)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || isspace((unsigned char)s[0])) {
        snprintf(why, n, "invalid integer '%s'", s);
        return -1;
    }
    if (errno == ERANGE || out_of_range(o, (double)x)) {
        snprintf(why, n, "%s is out of range (%.0f..%.0f)", s, o->min, o->max);
        return -1;
    }
    v->i = x;
    v->text = xasprintf("%ld", x);
    return 0;
}

static int parse_double(const cfg_option *o, const char *s, cfg_value *v,
                        char *why, size_t n)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (!*s || *end || isspace((unsigned char)s[0]) || !isfinite(x)) {
        snprintf(why, n, "invalid number '%s'", s);
        return -1;
    }
    if (errno == ERANGE || out_of_range(o, x)) {
        snprintf(why, n, "%s is out of range (%g..%g)", s, o->min, o->max);
        return -1;
    }
    v->d = x;
    v->text = xasprintf("%.15g", x);
    return 0;
}

static int parse_enum(const cfg_option *o, const char *s, cfg_value *v,
                      char *why, size_t n)
{
    for (int i = 0; o->values[i]; i++)
        if (!strcmp(o->values[i], s)) {
            v->text = xstrdup(s);
            return 0;
        }
    char allowed[256] = "";
    cfg_opt_values(o, ", ", allowed, sizeof allowed);
    snprintf(why, n, "invalid value '%s' (allowed: %s)", s, allowed);
    return -1;
}

static int parse_any(const cfg_option *o, const char *s, cfg_value *v,
                     char *why, size_t n)
{
    switch (o->type) {
    case CFG_INT: return parse_int(o, s, v, why, n);
    case CFG_DOUBLE: return parse_double(o, s, v, why, n);
    case CFG_ENUM: return parse_enum(o, s, v, why, n);
    case CFG_STRING:
    case CFG_PATH:
        v->text = xstrdup(s);
        return 0;
    case CFG_BOOL:
    case CFG_ACTION:
        if (parse_bool(s, &v->b)) {
            snprintf(why, n, "invalid boolean '%s' (use true/false, yes/no, "
                     "on/off or 1/0)", s);
            return -1;
        }
        v->text = xstrdup(v->b ? "true" : "false");
        return 0;
    }
    return -1;
}

int cfg_opt_parse(const cfg_option *o, const char *s, cfg_value *v,
                  char *why, size_t n)
{
    int rc = parse_any(o, s, v, why, n);
    /* A message may end up in a log or a bug report: never echo a secret. */
    if (rc && (o->flags & CFG_SECRET))
        snprintf(why, n, "invalid value (not shown: the setting is secret)");
    return rc;
}

/* ---- suggestions --------------------------------------------------- */

int cfg_opt_closest(const char *s, int keys)
{
    int best = -1, bestd = 3;
    for (int i = 0; i < OPT__COUNT; i++) {
        const char *n = keys ? cfg_options[i].key : cfg_options[i].name;
        if (!n || (keys && !cfg_options[i].section)) continue;
        int d = gn_edit_distance(s, n);
        if (d < bestd) { bestd = d; best = i; }
    }
    return best;
}
