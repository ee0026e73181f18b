/*
 * turn_int.h — what the files of one turn share (turn.c, knowledge.c,
 * respond.c): the conversation's insides and the turn in progress.
 */
#ifndef GENIE_AGENT_TURN_INT_H
#define GENIE_AGENT_TURN_INT_H

#include "agent/agent.h"

#include <pthread.h>

struct ag_conv {
    ag_conv_config cfg;
    ws_state *st;
    char **acts;              /* the previous turn's acts, as prompt lines */
    int nacts;
    char *utt;                /* the previous agent utterance, or NULL */
    int turns;
    ag_api_host host;
    pthread_mutex_t live_mu;  /* guards live */
    llm_call *live;           /* the call the turn waits for, or NULL */
    struct ag_names *names;   /* knowledge-base names read for grounding */
};

typedef struct ag_tturn {
    ag_conv *cv;
    ag_event_fn cb;
    void *ud;
    const atomic_int *cancel;
    const char *utterance;
    ws_acts acts;
    ws_interp in;
    gn_buf parse;             /* the parser's statements */
    cJSON *queries;           /* [{question, suql, error, rows}] */
    cJSON *refused;           /* [{statement, error}] of the parse, left
                                 after its repair */
    int parse_repairs;        /* repair calls of the parse stage */
    size_t prompt_chars[LLM_STAGE__COUNT];   /* each stage's largest prompt
                                                of the turn (ag_llm's) */
    char *error;              /* the first stage error, for the record */
    double ms_llm;
    double phase_t[4];        /* when parse, knowledge, policy and respond
                                 began (ag_emit of their stage; 0: not run),
                                 for the timings' ms_by_stage */
    long memo_hits;           /* of the turn's SUQL runs (account.h's words) */
    char keys[LLM_STAGE__COUNT][65];   /* each stage's last reply's cache key */
    int llm_down;             /* a call of this turn could not reach the server
                                 (no HTTP reply after its retries): the
                                 later stages do not wait for it again */
} ag_tturn;

/* Report an event. */
void ag_emit(ag_tturn *t, enum ag_ev_kind kind, const char *stage, const char *text,
             const char *error, const cJSON *data);
/* Report a stage failure (and keep the first as the turn's error). */
void ag_stage_error(ag_tturn *t, const char *stage, const gn_err *e);

/* The `today` of the prompts, e.g. "Friday, 2026-03-13" (static buffer). */
const char *ag_today(const ag_conv *cv);

/* Render template TPL with DATA (taken) and run it as stage STAGE; *text
 * gets the reply (caller frees).  CB/UD stream the reply (may be NULL).
 * Returns 0 or the LLM's error. */
int ag_llm(ag_tturn *t, int stage, const llm_tpl *tpl, cJSON *data, llm_event_cb cb, void *ud,
           char **text, gn_err *e);

/* The last reply of STAGE in this turn was refused by our parsers: drop it
 * from the LLM cache, so saying the same again asks again instead of
 * replaying the reply that failed. */
void ag_llm_forget(ag_tturn *t, int stage);

/* The conjunct of S's WHERE that names rows by their key (a db sheet's
 * primary field = 'text'), and its sheet in *SHEET; NULL when none.  S
 * must be analyzed (shared.c). */
struct suql_select;
struct suql_expr;
const struct suql_expr *ag_kb_key_eq(const ws_spec *spec, const struct suql_select *s,
                                     const ws_sheet **sheet);
/* SUQL, the knowledge parser's query, returned ROWS about a name several
 * rows share without telling which (its LIMIT cut them, or its select
 * list lacks the context): 1 with *OUT the query widened to answer for
 * each and *NOTE what the reply must know (both caller frees); else 0
 * (shared.c). */
int ag_kb_shared(ag_tturn *t, const char *suql, const ws_val *rows, char **out, char **note);

/* Strip a code fence and a leading "Statements:"/"SUQL:" label from an
 * LLM reply, in place; returns TEXT (extract.c). */
char *ag_unfence(char *text);
/* The SUQL statement of a kb_parse or repair REPLY: the first one that
 * parses, prose and fences around it dropped; when none parses, the first
 * SELECT/WITH candidate (or the whole reply) so its error is reported.
 * Caller frees (extract.c). */
char *ag_suql_extract(const char *reply);
/* The statement lines of a parse REPLY, one a line: list markers, fences
 * and lines that cannot be statements (prose) dropped.  Caller frees. */
char *ag_statements_extract(const char *reply);

/* The state's ws_ground_fn (UD: the ag_conv): VALUE of a field naming a
 * knowledge-base row checked against the rows (ground.c). */
int ag_ground(void *ud, const ws_spec *spec, const ws_type *t, const char *value, char **out,
              char *why, size_t nwhy);
/* The state's ws_row_fn (UD: the ag_conv): the row a stored VALUE names
 * (ground.c). */
ws_val *ag_row(void *ud, const ws_spec *spec, const ws_type *t, const char *value);
/* S's letters and digits, lower-cased (bytes past ASCII kept): names and
 * sentences compared without case, spacing or punctuation ("cs224n" is
 * "CS 224N").  Caller frees (ground.c). */
char *ag_letters(const char *s);
/* The context field of db sheet W that tells rows of one name (naming
 * field COL) apart: its first Required text field (the location), else
 * its name or title field; -1 when none (ground.c). */
int ag_context_field(const ws_sheet *w, int col);
/* Free the names ag_ground read. */
void ag_names_free(struct ag_names *t);

/* Run the knowledge records created this turn (knowledge.c). */
void ag_run_knowledge(ag_tturn *t);
/* Run those the policy's actions created (answer() in an action), each
 * followed by its Report act. */
void ag_run_late_knowledge(ag_tturn *t);

/* Phrase the acts: LLM streamed, else templates (respond.c).  *out gets
 * the reply (caller frees), or NULL when the user cancelled the turn
 * while it was phrased and no API ran (the turn is then undone). */
void ag_respond(ag_tturn *t, char **out);

#endif
