/*
 * options.h — the options table: one row per setting of genie.
 *
 * The table drives the config file ([section] key = value), the environment
 * (GENIE_<KEY>), the command line (getopt_long) and --help.  Adding an option
 * is one enum constant below plus one row in options.c; the loader, the help
 * renderer, --print-config and the sample config file follow from the row.
 *
 * The table is static, read-only data: it may be read from any thread.
 */
#ifndef GENIE_CFG_OPTIONS_H
#define GENIE_CFG_OPTIONS_H

#include <stddef.h>

/* One constant per row of cfg_options[], in table order. */
enum cfg_opt {
    /* Modes */
    OPT_HELP,
    OPT_VERSION,
    OPT_PRINT_CONFIG,
    OPT_SEARCH,
    OPT_REINDEX,
    OPT_SUQL,
    OPT_EXPLAIN,
    OPT_ANALYZE,
    OPT_SCHEMA,
    OPT_CHECK_LLM,
    OPT_RESUME,
    OPT_LIST_SESSIONS,
    OPT_EXPORT_SESSION,
    OPT_DELETE_SESSION,
    OPT_RENAME_SESSION,
    OPT_INIT,
    OPT_FORCE,
    /* General */
    OPT_CONFIG,
    OPT_DB,
    OPT_TOP_K,
    OPT_QUIET,
    OPT_VERBOSE,
    OPT_NO_COLOR,
    OPT_FORMAT,
    OPT_BUDGET,
    OPT_VERIFY_BATCH,
    OPT_SUMMARIES,
    OPT_QUERY_TIMEOUT,
    OPT_QUERY_MEMORY,
    OPT_AGENT,
    OPT_PLAIN,
    OPT_SESSIONS,
    OPT_API_RETRIES,
    OPT_API_RETRY_MAX_WAIT,
    OPT_TODAY,
    OPT_THEME,
    OPT_EDITING_MODE,
    OPT_NO_MOUSE,
    /* Data and retrieval */
    OPT_EMBEDDER,
    OPT_VECTORS,
    OPT_EMBED_URL,
    OPT_EMBED_MODEL,
    OPT_EMBED_BATCH,
    OPT_HNSW_THRESHOLD,
    OPT_EF_SEARCH,
    OPT_HNSW_M,
    OPT_EF_CONSTRUCTION,
    OPT_CHUNK_CHARS,
    OPT_RRF_K,
    OPT_FUSION_DENSE_WEIGHT,
    OPT_INDEX_BACKGROUND,
    /* LLM */
    OPT_OFFLINE,
    OPT_LLM_URL,
    OPT_MODEL,
    OPT_API_KEY,
    OPT_API_KEY_CMD,
    OPT_API_KEY_CMD_TIMEOUT,
    OPT_TEMPERATURE,
    OPT_MAX_TOKENS,
    OPT_STAGE,
    OPT_NO_STREAM,
    OPT_LLM_CONCURRENCY,
    OPT_CONNECT_TIMEOUT,
    OPT_STALL_TIMEOUT,
    OPT_RETRIES,
    OPT_RETRY_MAX_WAIT,
    OPT_LLM_CACHE,
    OPT_NO_CACHE,
    OPT_LLM_LOG,
    OPT_PRICES,
    OPT_OFFLINE_THRESHOLD,
    OPT__COUNT
};

enum cfg_type {
    CFG_BOOL,    /* 1/0 true/false yes/no on/off; a flag alone means true */
    CFG_INT,     /* decimal, fully parsed, within [min, max] when min < max */
    CFG_DOUBLE,  /* finite, fully parsed, within [min, max] when min < max */
    CFG_STRING,
    CFG_PATH,    /* "~/" expands to $HOME; relative paths in a config file
                    are taken relative to that file's directory */
    CFG_ENUM,    /* one of values[] (exact, case-sensitive) */
    CFG_ACTION   /* command-line-only switch without value (--help) */
};

/* Row flags. */
enum {
    CFG_SECRET = 1u << 0,  /* never printed: --print-config shows "(set, hidden)" */
    CFG_OPTARG = 1u << 1   /* a string flag whose argument may be left out
                              ("--resume", "--resume 12"); left out, the
                              value is "latest" */
};

typedef struct cfg_option {
    const char *name;       /* long flag without "--", e.g. "top-k"; NULL =
                               no flag: set in the file or environment only
                               (secrets, which must not show up in ps) */
    char shortopt;          /* short flag letter, 0 when none */
    const char *arg;        /* argument name in --help ("N", "FILE"); NULL for
                               bool/action; for enums NULL means "a|b|c" */
    enum cfg_type type;
    const char *def;        /* default as text, validated like any input */
    double min, max;        /* int/double range, used only when min < max */
    const char *const *values;  /* CFG_ENUM: NULL-terminated allowed values */
    const char *section;    /* INI section; NULL = not settable in the file */
    const char *key;        /* INI key, also names the environment variable
                               GENIE_<KEY>; NULL = command-line only */
    const char *env_also;   /* a further variable read when GENIE_<KEY> is
                               unset: for a bool its non-empty presence means
                               true (NO_COLOR), for other types it is the
                               value (OPENAI_API_KEY) */
    const char *group;      /* heading in --help */
    const char *help;       /* one line, lower case, no final period */
    unsigned flags;         /* CFG_SECRET */
} cfg_option;

/* The table, indexed by enum cfg_opt. */
extern const cfg_option cfg_options[OPT__COUNT];

/* A value parsed for a row.  text is the canonical form ("10", "true",
 * "0.5", the string itself), allocated; i, d or b hold it typed for int,
 * double, bool and action rows. */
typedef struct cfg_value {
    char *text;
    long i;
    double d;
    int b;
} cfg_value;

/* The row of opt; opt must be a valid enum cfg_opt. */
const cfg_option *cfg_opt(int opt);

/* The option whose long name is name (without "--"), or -1. */
int cfg_opt_by_name(const char *name);

/* The file-settable option with this INI section and key, or -1.  Both
 * compare case-insensitively and '-' in key matches '_'. */
int cfg_opt_by_key(const char *section, const char *key);

/* Writes the environment variable name of opt ("GENIE_TOP_K": "GENIE_" plus
 * the key in upper case, '-' turned into '_') into buf (size n) and returns
 * buf, or returns NULL when opt has no key (command-line only). */
const char *cfg_opt_env(int opt, char *buf, size_t n);

/* Longest environment variable name cfg_opt_env can produce, plus NUL. */
#define CFG_ENV_MAX 64

/* Validates text for row o and fills v (v->text is new; the caller frees
 * it).  Returns 0, or -1 with the reason in why (size n), e.g. "invalid
 * integer '12x'", "5000 is out of range (1..1000)", "invalid value 'x'
 * (allowed: glove, remote)", leaving v untouched.  Paths are not expanded. */
int cfg_opt_parse(const cfg_option *o, const char *text, cfg_value *v,
                  char *why, size_t n);

/* The option whose long name (by_key 0) or INI key (by_key 1, file-settable
 * rows only) is within edit distance 2 of s, the nearest first; -1 when
 * none.  For "did you mean" hints. */
int cfg_opt_closest(const char *s, int by_key);

/* Appends the allowed values of an enum row joined by sep ("glove, remote")
 * to the string dst of capacity n (always NUL-terminated). */
void cfg_opt_values(const cfg_option *o, const char *sep, char *dst, size_t n);

#endif
