/*
 * stage.h — the LLM stages of genie and their settings.
 *
 * Every LLM call belongs to a stage (the SUQL functions, the parsers, the
 * response generator...).  A stage has built-in defaults (most of all its
 * reply budget: a yes/no verification needs a few tokens, the semantic
 * parser hundreds); the user sets a global default and overrides per stage:
 *
 *   built-in stage default < global (--model, --temperature, --max-tokens,
 *   --no-stream) < per-stage spec (--stage 'parse.model=gpt-4o,...')
 *
 * The global max tokens applies only when nonzero, the global model always.
 * A spec is comma-separated STAGE.KEY=VALUE items, KEY one of model,
 * temperature, max_tokens, stream; STAGE may be `*` for every stage.  It is
 * validated whole, with did-you-mean hints for stage and key names.
 *
 * Prices ("MODEL=IN/OUT,..." in US dollars per million tokens) are parsed
 * here too, since they are the other per-model table of the configuration.
 */
#ifndef GENIE_LLM_STAGE_H
#define GENIE_LLM_STAGE_H

#include "util/err.h"

enum llm_stage_id {
    LLM_STAGE_PARSE,      /* contextual semantic parser (worksheets) */
    LLM_STAGE_KB_PARSE,   /* knowledge parser: request -> SUQL */
    LLM_STAGE_REPAIR,     /* retry of a failed or empty SUQL query */
    LLM_STAGE_CONSULT,    /* does a turn need the knowledge base? */
    LLM_STAGE_ANSWER,     /* SUQL answer() */
    LLM_STAGE_VERIFY,     /* one free-text filter on one candidate row */
    LLM_STAGE_CLASSIFY,   /* a value outside an enum -> enum values */
    LLM_STAGE_SUMMARY,    /* SUQL summary() */
    LLM_STAGE_RESPOND,    /* response generator */
    LLM_STAGE_CHECK,      /* genie --check-llm */
    LLM_STAGE_DRAFT,      /* genie --init: descriptions of imported data */
    LLM_STAGE__COUNT
};

/* The effective settings of one stage. */
typedef struct llm_stage_cfg {
    char model[128];
    double temperature;
    int max_tokens;        /* > 0 */
    int stream;            /* 1: streamed reply, 0: whole reply */
} llm_stage_cfg;

/* Global settings a spec is applied on top of. */
typedef struct llm_stage_defaults {
    const char *model;     /* required, non-empty */
    double temperature;
    int max_tokens;        /* 0: each stage's built-in budget */
    int stream;
} llm_stage_defaults;

/* The stage called NAME ("parse", "answer"...), or -1. */
int llm_stage_find(const char *name);

/* The name of stage ID (static string). */
const char *llm_stage_name(int id);

/* The built-in reply budget of stage ID, in tokens. */
int llm_stage_default_max_tokens(int id);

/* Fill OUT[LLM_STAGE__COUNT] from DEFS and the per-stage SPEC (NULL or ""
 * means none).  Returns 0, or GN_EUSAGE with the offending item named, e.g.
 * "--stage: unknown stage 'pars' in 'pars.model=x' (did you mean 'parse'?)";
 * OUT is then unspecified. */
int llm_stages_resolve(const llm_stage_defaults *defs, const char *spec,
                       llm_stage_cfg out[LLM_STAGE__COUNT], gn_err *e);

/* A price table: per model, dollars per million prompt/completion tokens. */
typedef struct llm_price {
    char model[128];
    double in, out;
} llm_price;

/* Parse "MODEL=IN/OUT,..." (NULL or "": no prices) into a new array in
 * *OUT (caller frees; NULL when empty) of *N entries.  Returns 0 or
 * GN_EUSAGE naming the bad item. */
int llm_prices_parse(const char *spec, llm_price **out, int *n, gn_err *e);

/* The price of MODEL (the name requested, not the dated name a server may
 * report back) in TABLE[N], or NULL.  Exact match only: a prefix rule would
 * price "gpt-4o-mini" as "gpt-4o". */
const llm_price *llm_price_find(const llm_price *table, int n, const char *model);

#endif
