/*
 * agent.h — a Genie agent and its conversation turns.
 *
 * An agent is a directory: agent.ini (name, description, greeting, the
 * database, the worksheet spec, the APIs, optional prompt overrides and
 * knowledge-parser examples), the spec (worksheet.csv or .json) and the
 * API definitions (apis.ini).  A conversation (ag_conv) holds the dialogue
 * state and runs turns:
 *
 *   utterance -> contextual semantic parser (LLM, PARSER-mode statements)
 *             -> knowledge parser (LLM, SUQL) -> SUQL engine (one retry on
 *                an error or an empty result)
 *             -> agent policy (acts, actions, APIs)
 *             -> response generator (LLM, streamed; templates as fallback)
 *
 * Every stage reports through events (ag_event) so a front end can show
 * the statements, the SUQL, the results, the state and the streamed reply
 * as they happen.  Without an LLM (offline) a turn accepts SUQL typed
 * directly and worksheet statements, and replies from templates.
 */
#ifndef GENIE_AGENT_H
#define GENIE_AGENT_H

#include "llm/client.h"
#include "llm/template.h"
#include "store/kb.h"
#include "suql/engine.h"
#include "worksheet/acts.h"
#include "worksheet/interp.h"
#include "worksheet/spec.h"
#include "worksheet/state.h"

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdatomic.h>

/* ---- the agent directory --------------------------------------------- */

typedef struct ag_api ag_api;

typedef struct ag_agent {
    char *dir;                /* the directory, as given */
    char *name, *description, *greeting;
    char *db_path;            /* resolved against dir */
    char *init_sql;           /* SQL run on the writable database at start
                                 (CREATE TABLE IF NOT EXISTS ...), or NULL */
    char *kb_examples;        /* knowledge-parser examples text, or NULL */
    char *prompt_dir;         /* the agent's prompt overrides, or NULL */
    ws_spec *spec;
    ag_api *apis;
    int napis;
} ag_agent;

/* Load the agent in directory DIR.  Errors name the file and line
 * (agent.ini, the spec, apis.ini).  Returns 0 or GN_ENOTFOUND/GN_EIO/
 * GN_EPARSE. */
int ag_agent_load(const char *dir, ag_agent **out, gn_err *e);
void ag_agent_free(ag_agent *a);

/* The database of the agent in DIR, from its agent.ini alone (the spec is
 * not read, so commands that only need the database work even when the
 * spec is broken).  *path is resolved against DIR; caller frees. */
int ag_agent_database(const char *dir, char **path, gn_err *e);

/* Run the agent's init SQL on WDB (a writable connection), in one
 * transaction.  Returns 0 or GN_EDB. */
int ag_agent_init_db(const ag_agent *a, sqlite3 *wdb, gn_err *e);

/* Compile (never run) every statement of every SQL API of A on WDB, after
 * ag_agent_init_db made its tables: a broken statement is found when the
 * agent starts, as "apis.ini:LINE: API NAME: SQLite's message", not after
 * a user confirmed a booking.  Returns 0 or GN_EPARSE. */
int ag_agent_check_sql(const ag_agent *a, sqlite3 *wdb, gn_err *e);

/* Describe in DB's genie_columns (creating it when missing) every table of
 * a `db` worksheet that it does not describe yet (or described from an
 * earlier version of the worksheet: genie_spec keeps its digest), from the worksheet's
 * fields: types, arrays (List[X]), enum values, free text (`text`),
 * descriptions (schema.c).  DB must be writable.  *TABLES (may be NULL)
 * gets how many tables were described.  Returns 0, GN_EPARSE naming the
 * spec's line when a worksheet's table or column is not in the database,
 * or GN_EDB; nothing is written on error. */
int ag_schema_sync(const ag_agent *a, sqlite3 *db, int *tables, gn_err *e);

/* The host the interpreter calls APIs through: the agent's SQL APIs run on
 * WDB in a transaction; HTTP APIs through libcurl. */
typedef struct ag_api_host {
    ws_host host;
    const ag_agent *agent;
    sqlite3 *wdb;
    double http_timeout;      /* seconds, default for HTTP APIs */
    double http_connect_timeout; /* seconds to make a connection (default 10) */
    int http_retries;         /* retries of an HTTP API call when safe
                                 (default 2; see gn_http_retry: a GET as
                                 any idempotent request, a POST only when
                                 it cannot have reached the server) */
    double http_retry_max_wait; /* cap of one wait, seconds (default 10) */
    const atomic_int *cancel; /* may be NULL: stops a call and its waits */
    char scope[512];          /* the saved conversation the calls belong to
                                 ("" when none yet: calls are not recorded) */
    int turn;                 /* the turn making the calls */
} ag_api_host;
void ag_api_host_init(ag_api_host *h, const ag_agent *a, sqlite3 *wdb);

/* Crash safety of SQL APIs.  The scope names one history (genie/chat.c:
 * the sessions file, the session id and its creation time).  With a scope
 * set, each call is recorded in
 * genie_api_calls(scope, turn, api, args, result) in the same transaction
 * as its writes.  A call the same conversation makes again, with the same
 * arguments, from a turn at or after the one that made it (that turn was
 * never saved: genie was killed before, and the conversation resumed from
 * the turn before) returns the recorded result and writes nothing: no
 * second booking.  ag_api_unsaved describes the calls of SCOPE made in
 * turns after AFTER_TURN (the last saved one), "hold_book (transaction
 * 6L3OT8SNWH)", comma-separated; NULL when there are none. */
char *ag_api_unsaved(sqlite3 *wdb, const char *scope, int after_turn);

/* A resumed conversation's calls of turns after AFTER_TURN (never saved)
 * are lost calls: the same call made in any later turn of SCOPE, not only
 * the next one (the user may ask something else first), returns what was
 * recorded and writes nothing; it then belongs to that turn.  Marks them
 * (turn AG_API_LOST); errors leave them as they were. */
void ag_api_adopt_lost(sqlite3 *wdb, const char *scope, int after_turn);
#define AG_API_LOST 2147483647

/* The secure random transaction id APIs return: 10 characters of
 * [A-Z0-9] from the system's random source, into OUT (size >= 11).
 * Returns 0 or GN_EIO. */
int ag_txn_id(char *out, size_t n, gn_err *e);

/* ---- events -------------------------------------------------------------- */

enum ag_ev_kind {
    AG_EV_STAGE,        /* a stage starts: stage; "verify" repeats while a
                           query checks free text: data {checked, candidates} */
    AG_EV_STATEMENTS,   /* the parser's statements: text */
    AG_EV_REFUSED,      /* a statement was refused: text (statement), error */
    AG_EV_SUQL,         /* a query about to run: text (SUQL), data {question, attempt} */
    AG_EV_RESULT,       /* its result: data {question, rows: [...], count, error,
                           ms, mode, plan {candidates, verified, passed,
                           llm_calls, cache_hits, memo_hits, budget_hit}} */
    AG_EV_STATE,        /* the dialogue state after the policy: text (prompt
                           form), data (JSON form) */
    AG_EV_ACTS,         /* the acts: data [lines] */
    AG_EV_TOKEN,        /* a fragment of the reply: text */
    AG_EV_RESPONSE,     /* the whole reply: text, data {fallback: bool} */
    AG_EV_ERROR,        /* a stage failed: stage, error (the turn goes on) */
    AG_EV_WARNING,      /* a problem in the spec's predicates or actions */
    AG_EV_TIMINGS,      /* end of turn: data {turn, ms_total, ms_llm, ms_engine,
                           llm_calls, cache_hits, memo_hits (account.h's
                           words), calls_by_stage {stage: n}, ms_by_stage
                           {parse, knowledge, policy, respond: ms}, cost (dollars,
                           when priced), tokens_in, tokens_out,
                           tokens_estimated (calls without usage: their
                           tokens are estimates; absent when none), ...} */
    AG_EV_RETRY,        /* an LLM call failed and is tried again: stage,
                           error (why), data {attempt, wait (seconds)} */
    AG_EV__COUNT
};

typedef struct ag_event {
    enum ag_ev_kind kind;
    const char *stage;        /* may be NULL */
    const char *text;         /* may be NULL */
    const char *error;        /* may be NULL */
    const cJSON *data;        /* may be NULL; borrowed */
} ag_event;

typedef void (*ag_event_fn)(const ag_event *ev, void *ud);

/* The event kind's name: "stage", "statements", "refused", "suql",
 * "result", "state", "acts", "token", "response", "error", "warning",
 * "timings", "retry". */
const char *ag_event_name(enum ag_ev_kind k);
/* EV as one JSON object {"event": name, "stage", "text", "error", "data"}
 * (members present when set); caller frees. */
cJSON *ag_event_json(const ag_event *ev);
/* The LLM use a timings event's data T reports, as llm_stats (calls,
 * cache hits, tokens, cost; the rest zero); *MEMO gets its SUQL memo hits. */
void ag_timings_usage(const cJSON *t, llm_stats *out, long *memo);

/* ---- a conversation ------------------------------------------------------ */

/* Rows of the latest result the parser sees by default: a list of ten
 * courses is referred to as "those" whole. */
#define AG_ROWS_SHOWN 10

/* The network settings of the agent's HTTP APIs (ag_api_host's). */
typedef struct ag_http_net {
    double connect_timeout;   /* seconds (capped by an API's own timeout) */
    int retries;              /* when safe; see ag_api_host */
    double retry_max_wait;    /* seconds */
} ag_http_net;

typedef struct ag_conv_config {
    const ag_agent *agent;
    const st_schema *schema;
    suql_engine *suql;        /* runs knowledge queries (guarded connection) */
    sqlite3 *wdb;             /* writable connection for APIs; NULL: APIs fail */
    llm_client *client;       /* NULL: offline */
    const llm_tpl *parse_tpl, *kb_tpl, *repair_tpl, *respond_tpl;  /* all
                                 required when client is set */
    ws_date today;
    int max_rows;             /* result rows shown to the parser (their short
                                 values); 0: AG_ROWS_SHOWN */
    const ag_http_net *http;  /* the HTTP APIs' settings, read by ag_conv_new
                                 alone; NULL: ag_api_host's defaults */
} ag_conv_config;

typedef struct ag_conv ag_conv;

/* A new conversation (empty state).  The config's pointers are borrowed. */
ag_conv *ag_conv_new(const ag_conv_config *cfg);
void ag_conv_free(ag_conv *cv);

/* Continue a saved conversation: the state after its last turn (JSON),
 * that turn's acts (JSON array of lines) and response, and its number.
 * Returns 0 or GN_ECORRUPT. */
int ag_conv_restore(ag_conv *cv, const char *state_json, const char *acts_json,
                    const char *response, int turns, gn_err *e);

const ws_state *ag_conv_state(const ag_conv *cv);
int ag_conv_turns(const ag_conv *cv);

/* Set the scope of CV's API calls (see ag_api_host): the front end's name
 * for the saved conversation, e.g. "sessions.db#12". */
void ag_conv_set_scope(ag_conv *cv, const char *scope);
/* The agent's last reply (owned by CV), or NULL before the first turn. */
const char *ag_conv_last_reply(const ag_conv *cv);
/* The host CV calls the agent's APIs through (its network settings). */
const ag_api_host *ag_conv_api_host(const ag_conv *cv);

/* What one turn did, for the sessions store: JSON texts and the reply
 * (owned; release with ag_turn_out_release). */
typedef struct ag_turn_out {
    int n;
    char *parse, *suql_json, *acts_json, *response, *state_json, *error;
    long tokens_in, tokens_out;
    long llm_calls, cache_hits, memo_hits;   /* in account.h's words */
    double cost;                /* dollars; -1 when no call had a price */
    double ms_total, ms_llm, started;
} ag_turn_out;
void ag_turn_out_release(ag_turn_out *o);

/* Run one turn on UTTERANCE, reporting through CB (may be NULL; it is
 * called on this thread and, for tokens and retries, on the LLM client's
 * thread: it must be quick and thread-safe).  The turn always produces a
 * reply: LLM failures in any stage are reported as AG_EV_ERROR and worked
 * around (state unchanged for a failed parse, templates for a failed
 * response).  CANCEL (may be NULL) is polled: when it becomes non-zero the
 * turn stops at the next stage boundary (at once with ag_conv_interrupt)
 * and returns GN_ECANCEL with the state as it was before the turn; no
 * AG_EV_RESPONSE follows the tokens streamed so far.  Only a turn whose
 * APIs already ran (a booking was written) is not undone: its reply is
 * then said from the templates and the turn completes.  Returns 0 with
 * *OUT filled, or GN_ECANCEL. */
int ag_turn(ag_conv *cv, const char *utterance, ag_event_fn cb, void *ud,
            const atomic_int *cancel, ag_turn_out *out, gn_err *e);

/* The longest utterance the parsers see: a longer one is cut to it (at a
 * character boundary) with an AG_EV_WARNING saying so. */
#define AG_UTTERANCE_MAX 16384

/* Cancel the LLM call the turn in progress on CV is waiting for, closing
 * its connection at once; for a front end's Ctrl-C, after setting the
 * turn's CANCEL flag.  Safe from any thread but a signal handler; no
 * effect when no call is in flight. */
void ag_conv_interrupt(ag_conv *cv);

/* The parse prompt ag_turn would send for UTTERANCE now, as text (for the
 * prompt-size benchmark and --explain of a turn).  Caller frees. */
char *ag_conv_parse_prompt(ag_conv *cv, const char *utterance);

/* ---- knowledge queries: required parameters ------------------------------ */

/* The required parameters of the knowledge base that SUQL does not
 * constrain: for each table the query reads whose `db` worksheet has
 * Required fields, unless the WHERE clause mentions a primary field of
 * that table, each required field the WHERE clause never mentions; none
 * for a question across rows (GROUP BY, or only aggregates selected).  *out
 * gets them comma-separated (caller frees) or NULL when nothing is
 * missing (or the query does not parse: the engine reports that). */
void ag_kb_missing(const ws_spec *spec, const char *suql, char **out);

#endif
