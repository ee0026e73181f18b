/*
 * genie.h — the engine's one public header: what a front end (the
 * terminal interface in tui/, the benchmarks in bench/, a second
 * interface tomorrow) includes to use genie, and all it includes of the
 * engine besides the utilities (util/).
 *
 * A front end holds a configuration (config/config.h: defaults, file,
 * environment, flags) and opens from it either
 *
 *   - a knowledge base (genie_kb): the database, its schema, the
 *     embedder, the retrieval index (rebuilt when stale and writable),
 *     and for SUQL the LLM client, the free-text prompts and the SUQL
 *     engine; then it runs and explains SUQL, searches, prints the schema;
 *   - or a conversation with an agent (genie_chat): the agent, its
 *     knowledge base, the database its APIs write, the prompts and the
 *     sessions file; then it runs turns (genie_turn) with an event
 *     callback, saves them, resumes and resets, lists and exports sessions.
 *
 * The engine never prints.  What a person should know while something
 * opens (a rebuilt index, a warning about the LLM cache) reaches the front
 * end's genie_hooks; notes of a conversation's opening are kept in
 * genie_chat.notes.  Every call returns 0 or a GN_E* code with the message
 * in a gn_err (util/err.h).
 *
 * The structures below are the front end's to read, never to write; they
 * carry the modules' types (agent events and turn results, worksheet
 * states, SUQL results, LLM usage, saved turns), declared in the module
 * headers included here, whose reading and formatting functions (the
 * worksheet's values, a result as a table) a front end may call.
 */
#ifndef GENIE_H
#define GENIE_H

#include "config/config.h"

#include "agent/agent.h"
#include "ingest/ingest.h"
#include "llm/client.h"
#include "llm/prompt.h"
#include "llm/stage.h"
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "retrieval/search.h"
#include "store/kb.h"
#include "store/sessions.h"
#include "suql/engine.h"
#include "suql/parse.h"
#include "worksheet/spec.h"

#include <stdatomic.h>

/* ---- what the engine tells while it works -------------------------------- */

/* A front end's listeners, each optional: NOTE gets a line a person should
 * read (WARNING set for a warning: "the LLM cache cannot be used ...",
 * unset for information: "indexing FILE"); PROGRESS the steps of a long
 * build: STAGE ("embedding", "reading wines.csv"), DONE of TOTAL (0 when
 * not known), counted in UNIT ("rows"; NULL for steps).  Both run on the
 * calling thread. */
typedef struct genie_hooks {
    void (*note)(void *ud, int warning, const char *msg);
    void (*progress)(void *ud, const char *stage, const char *unit, long done, long total);
    void *ud;
} genie_hooks;

/* ---- where things are ------------------------------------------------------ */

/* The genie data file NAME (e.g. "wordvec.bin"): looked up beside the
 * binary (build tree: DIR/share/genie, installed: DIR/../share/genie), then
 * under the configured prefix.  Caller frees; NULL if none exists. */
char *genie_data_file(const char *name);

/* The file NAME of the sample data: the data file sample_db/NAME (in the
 * build tree share/genie/sample_db links to the repository's sample_db).
 * Caller frees; NULL if none exists. */
char *genie_sample_file(const char *name);

/* The directory of the agent --agent names: a directory holding
 * agent.ini, else a shipped agent (sample_db/NAME), else the user's
 * ($XDG_CONFIG_HOME/genie/agents/NAME).  Caller frees; NULL with e set. */
char *genie_agent_dir(const cfg_t *c, gn_err *e);

/* The prompt directories, in lookup order: the user's overrides
 * ($XDG_CONFIG_HOME/genie/prompts) and the shipped share/genie/prompts (in
 * the build tree a link to config/prompts).  Caller frees both; either may
 * be NULL (no home directory; shipped prompts missing). */
void genie_prompt_dirs(const cfg_t *c, char **user, char **shipped);

/* The knowledge base path: --db, else the database of the agent --agent
 * names.  Caller frees; NULL with e set when there is none. */
char *genie_db_path(const cfg_t *c, gn_err *e);

/* The shipped agent whose database is DB (the same file), or NULL;
 * caller frees. */
char *genie_agent_of_db(const char *db);

/* ---- the LLM ------------------------------------------------------------------ */

/* Why genie runs without an LLM ("offline (--offline)", "offline: no LLM
 * endpoint configured ..."), or NULL when an endpoint is configured. */
const char *genie_offline_reason(const cfg_t *c);

/* The API key: [llm] api_key / GENIE_API_KEY / OPENAI_API_KEY, else the
 * output of api_key_cmd.  *key is NULL when there is none (caller frees and
 * should wipe it).  Returns 0 or the key command's error. */
int genie_api_key(const cfg_t *c, char **key, gn_err *e);

/* The LLM client the configuration describes, with the key from the
 * settings or api_key_cmd and the cache under $XDG_CACHE_HOME unless
 * --no-cache.  Offline, returns 0 with *out NULL.  Warnings (cache or log
 * unusable) go to H's note.  Returns 0 or the error (bad settings, key
 * command failed).  Close with genie_llm_close. */
int genie_llm_open(const cfg_t *c, const genie_hooks *h, llm_client **out, gn_err *e);

/* Check the stage settings and --prices of the configuration, which are
 * wrong offline too: 0 or GN_EUSAGE. */
int genie_llm_check_settings(const cfg_t *c, gn_err *e);

/* ---- a knowledge base -------------------------------------------------------- */

/* How much of a knowledge base to open, each level adding to the last. */
enum genie_kb_level {
    GENIE_KB_SCHEMA,   /* the database, read-only, and its schema */
    GENIE_KB_DATA,     /* read-write when the file allows; structured
                          columns indexed; the embedder */
    GENIE_KB_INDEX,    /* the retrieval index, rebuilt when stale and the
                          file is writable, else GN_ESTALE naming the fix */
    GENIE_KB_SUQL,     /* the guarded (read-only) connection, the LLM client,
                          the free-text prompts and the SUQL engine; a stale
                          index that cannot be rebuilt is a warning (no
                          ranking by retrieval), not an error */
};

enum { GENIE_T_ANSWER, GENIE_T_VERIFY, GENIE_T_SUMMARY, GENIE_T_CLASSIFY, GENIE_T_VERIFY_ROWS,
       GENIE_T__COUNT };

typedef struct genie_kb {
    char *path;
    sqlite3 *db;
    st_schema *schema;
    rt_embedder *em;          /* from GENIE_KB_DATA */
    rt_opts opts;             /* the index settings of the configuration */
    rt_index *ix;             /* from GENIE_KB_INDEX; NULL when stale (SUQL level) */
    llm_client *cl;           /* GENIE_KB_SUQL; NULL offline */
    llm_tpl *tpl[GENIE_T__COUNT];
    suql_engine *en;          /* GENIE_KB_SUQL */
    genie_hooks hooks;
} genie_kb;

/* Open LEVEL of the knowledge base at PATH (NULL: --db, else the database
 * of --agent, whose db worksheets then describe its tables where new or
 * changed).  CONVERSATION: the engine serves an agent's turns
 * (--summaries auto then makes summary() extractive).  H (may be NULL) is
 * kept for later calls.  Returns 0 or the error; close with
 * genie_kb_close in every case. */
int genie_kb_open(genie_kb *k, const cfg_t *c, const char *path, enum genie_kb_level level,
                  int conversation, const genie_hooks *h, gn_err *e);
void genie_kb_close(genie_kb *k);

/* Build the retrieval index of K's database (from GENIE_KB_DATA), with
 * progress through the hooks; once *CANCEL (may be NULL; a signal handler
 * may set it) is set it stops with GN_ECANCEL, the old index as it was. */
int genie_kb_build(genie_kb *k, const atomic_int *cancel, gn_err *e);

/* Open K's retrieval index when K was opened below GENIE_KB_INDEX (after
 * genie_kb_build, to describe it): as that level does. */
int genie_kb_index(genie_kb *k, gn_err *e);

/* 1 while K's index is still being read in the background (searches
 * wait for it). */
int genie_kb_loading(const genie_kb *k);

/* The schema as the parsers see it: CREATE TABLE text, enums with at most
 * MAX_ENUM values listed. */
void genie_kb_schema(const genie_kb *k, int max_enum, gn_buf *out);

/* Enum columns with at most this many values list them in --schema and in
 * the parser prompts; larger ones show a count and examples. */
#define GENIE_SCHEMA_MAX_ENUM 12

/* One hit of genie_search: the row, what names it, and its best passage. */
typedef struct genie_hit {
    const char *table;
    int64_t row;
    char *label;              /* the row's name or title, else "row N" */
    double score, sim;
    char *column, *passage;   /* the best passage and its column; may be NULL */
} genie_hit;

/* Hybrid search of the first table with free text for TEXT: the best K
 * rows, best first (from GENIE_KB_INDEX).  *HITS is freed with
 * genie_hits_free.  GN_ENOTFOUND when no table has free text. */
int genie_search(genie_kb *k, const char *text, int top_k, genie_hit **hits, int *n, gn_err *e);
void genie_hits_free(genie_hit *h, int n);

/* Run, or explain, the SUQL query TEXT (from GENIE_KB_SUQL).  Errors with
 * a position set e->line and e->col (suql_error_caret shows them). */
int genie_suql_run(genie_kb *k, const char *text, suql_result *r, suql_run_stats *st, gn_err *e);
int genie_suql_explain(genie_kb *k, const char *text, gn_buf *out, gn_err *e);

/* While a query runs: FN gets its progress, and it stops when *CANCEL is
 * set (suql_engine_watch); all NULL to stop watching. */
void genie_suql_watch(genie_kb *k, suql_progress_fn fn, void *ud, const atomic_int *cancel);

/* ---- a conversation ------------------------------------------------------------ */

enum { GENIE_P_PARSE, GENIE_P_KB, GENIE_P_REPAIR, GENIE_P_RESPOND, GENIE_P__COUNT };

typedef struct genie_chat {
    const cfg_t *c;
    ag_agent *agent;
    genie_kb kb;              /* knowledge base, LLM client, SUQL engine */
    sqlite3 *wdb;             /* where APIs write, or NULL */
    llm_tpl *tpl[GENIE_P__COUNT];
    st_sessions *ss;          /* NULL when conversations cannot be saved */
    int ss_later;             /* ss could not be opened for a reason that may
                                 pass (a full disk, a lock): opened when a
                                 turn is saved, which waits till then */
    long sid;                 /* 0 until the first turn is saved */
    struct genie_wait *unsaved; /* turns waiting for the sessions file,
                                 oldest first */
    int nunsaved;
    int conv;                 /* which conversation: a new one at each
                                 reset or resume */
    ag_conv *cv;
    ws_date today;
    atomic_int cancel;        /* the turn in progress stops when set (set from the UI
                                 thread or a signal handler, read by the worker) */
    char **notes;             /* notes of genie_chat_open, NULL-terminated;
                                 a warning's starts with "warning: " */
    int nnotes;
    char *resume_note;        /* of the last genie_chat_resume, or NULL: the API
                                 calls of turns genie was killed before
                                 saving */
    char *branch_note;        /* set by a save when another genie had saved
                                 the conversation's next turn first and it
                                 went on as a new session (which one); the
                                 front end shows it, then frees and clears
                                 it */
} genie_chat;

/* Open everything for the agent --agent names.  Opening never prints:
 * what a person should know (a read-only knowledge base whose writes go
 * elsewhere, a sessions file that cannot be used) is kept in ch->notes;
 * H gets the knowledge base's notes and progress (an index rebuilt).
 * Returns 0 or the error; close with genie_chat_close in every case. */
int genie_chat_open(genie_chat *ch, const cfg_t *c, const genie_hooks *h, gn_err *e);
void genie_chat_close(genie_chat *ch);

/* One turn of the conversation for UTT: EV (may be NULL) gets its events
 * (ag_event: stages, tokens of the reply as they stream, the worksheet,
 * the SUQL), from this thread and from the LLM client's; the turn stops
 * when ch->cancel is set (GN_ECANCEL, the state as before).  O is the
 * completed turn (release with ag_turn_out_release), for
 * genie_chat_save_turn.  Returns 0 or the error. */
int genie_turn(genie_chat *ch, const char *utt, ag_event_fn ev, void *ud, ag_turn_out *o,
               gn_err *e);

/* Stop the turn in progress, from any thread: its LLM calls end now. */
void genie_interrupt(genie_chat *ch);

/* Called for each saved turn of a resumed session, oldest first. */
typedef void (*genie_turn_fn)(const st_turn *t, void *ud);

/* Can session ARG ("latest" or an id) be resumed: it exists and is this
 * agent's?  0 with *ID set, or the error; nothing changes either way. */
int genie_chat_resume_check(genie_chat *ch, const char *arg, long *id, gn_err *e);

/* Continue the saved session ARG ("latest" or an id) of this agent: the
 * state, acts and reply of its last turn restored, EACH (may be NULL)
 * called with every turn.  *TURNS gets their number.  Returns 0 or
 * GN_ENOTFOUND/GN_EUSAGE/GN_ECORRUPT/GN_EDB. */
int genie_chat_resume(genie_chat *ch, const char *arg, genie_turn_fn each, void *ud, int *turns,
                      gn_err *e);

/* Start a new conversation: empty state, saved as a new session from its
 * first turn.  Turns of the old one still waiting to be saved stay
 * waiting, for the old one's session. */
void genie_chat_reset(genie_chat *ch);

/* Save the completed turn UTT/O, taking O's contents (O is left empty, so
 * releasing it afterwards is harmless).  A turn the sessions file cannot take now
 * (locked by another process, read-only, disk full) is kept and saved,
 * in order and into its own conversation's session, with a later one or by
 * genie_chat_flush, so a passing failure loses nothing; meanwhile writes wait
 * only briefly for a lock.  A failure that cannot pass (the turn's number
 * taken by another process resuming the same session) loses that turn
 * only.  Returns 0 when every turn is saved, else the error, saying how
 * many wait. */
int genie_chat_save_turn(genie_chat *ch, const char *utt, ag_turn_out *o, gn_err *e);

/* Save the turns still waiting; 0 when none is left. */
int genie_chat_flush(genie_chat *ch, gn_err *e);

/* Before closing: one last full-patience attempt at the waiting turns;
 * returns 0, or the error naming how many turns are lost. */
int genie_chat_save_all(genie_chat *ch, gn_err *e);

/* ---- an agent from data files ------------------------------------------------- */

/* What genie_init made: the tables as inferred (for the report: each
 * column's type, examples and why), the database's file name in the
 * agent's directory, and how long reading and importing took. */
typedef struct genie_init_result {
    ig_table *tables;
    int ntables;
    char *dbfile;
    double import_seconds;
    int made;                 /* the agent is in place (even when its index
                                 then failed: the next start builds it) */
} genie_init_result;

/* Make the agent DIR from the data FILES (CSV, TSV, JSON, JSON Lines,
 * SQLite): the database, worksheet.csv and agent.ini (descriptions
 * drafted by the LLM when one is configured, from the data otherwise),
 * made aside and put in place only once the agent loads, then its index.
 * An existing DIR is replaced only with FORCE and only when it is an
 * agent directory or empty.  H gets the progress of each pass over each
 * table ("reading wines.csv", rows done of total, total 0 when unknown)
 * and the notes; when *CANCEL is set (a signal handler may set it) the
 * work stops and nothing is left behind.  Returns 0, GN_EUSAGE (DIR or
 * FILES refused, said why), GN_ECANCEL, or the error; with RES->made set
 * an error is the index's alone.  Release RES in every case. */
int genie_init(const cfg_t *c, const char *dir, const char *const *files, size_t nfiles, int force,
               const genie_hooks *h, const atomic_int *cancel, genie_init_result *res, gn_err *e);
void genie_init_result_release(genie_init_result *res);

/* ---- saved sessions -------------------------------------------------------------- */

/* The sessions file path (--sessions or $XDG_DATA_HOME/genie/sessions.db);
 * caller frees; NULL when there is no home directory. */
char *genie_sessions_path(const cfg_t *c);

/* Open the sessions file; returns 0 or the error (prefixed with the path).
 * Close with genie_sessions_close. */
int genie_sessions_open(const cfg_t *c, st_sessions **ss, gn_err *e);
/* Call FN for each saved session of AGENT (NULL: every agent), newest
 * first (store/sessions.h's st_session_list). */
int genie_sessions_list(st_sessions *ss, const char *agent, st_session_cb fn, void *ud, gn_err *e);
/* Session ID as Markdown into OUT: 0, or GN_ENOTFOUND. */
int genie_session_export_md(st_sessions *ss, long id, gn_buf *out, gn_err *e);
/* Name session ID TITLE ("" takes the name away) / delete it with its
 * turns: 0, GN_ENOTFOUND or GN_EDB (store/sessions.h). */
int genie_session_rename(st_sessions *ss, long id, const char *title, gn_err *e);
int genie_session_delete(st_sessions *ss, long id, gn_err *e);
void genie_sessions_close(st_sessions *ss);

/* ---- what a front end reads and changes (front.c) ------------------------------ */

/* Of a conversation: the turns so far, the last reply (NULL: none), the
 * state as JSON (caller deletes; NULL when there is no agent), the
 * responder's model and the endpoint (NULL offline), and a new model for
 * every stage (0, or why not). */
int genie_chat_turns(const genie_chat *ch);
const char *genie_chat_last_reply(const genie_chat *ch);
cJSON *genie_chat_state_json(const genie_chat *ch);
const char *genie_chat_model(const genie_chat *ch);
const char *genie_chat_endpoint(const genie_chat *ch);
int genie_chat_set_model(genie_chat *ch, const char *model, gn_err *e);

/* Of a knowledge base: its retrieval index's passages and kind ("flat",
 * "hnsw"; "none" when not open) and the embedder's id. */
void genie_kb_index_info(const genie_kb *k, long *npassages, const char **kind, const char **embedder);

/* Of an LLM client (genie_llm_open): its endpoint, a stage's settings,
 * and closing it. */
const char *genie_llm_endpoint(const llm_client *cl);
const llm_stage_cfg *genie_llm_stage(const llm_client *cl, int stage);
void genie_llm_close(llm_client *cl);

/* --check-llm's one request: what came back. */
typedef struct genie_llm_check_out {
    char *reply;              /* the reply's text ("" for none) */
    char *served;             /* the model the server named, or NULL */
    size_t reasoning_bytes;
    int usage_reported;       /* the server reported token usage */
    llm_call_info info;       /* times, attempts, tokens, cost */
} genie_llm_check_out;
/* One short request ("Reply with the single word OK.") on the check
 * stage, uncached; ON_EVENT (may be NULL) sees its retries and tokens.
 * 0 with OUT filled (release it), or the error. */
int genie_llm_check(llm_client *cl, llm_event_cb on_event, void *ud, genie_llm_check_out *out, gn_err *e);
void genie_llm_check_release(genie_llm_check_out *out);

/* Load stage STAGE's prompt (USER's override directory first, then
 * SHIPPED's; genie_prompt_dirs): 0 with *OVERRIDDEN saying which, or the
 * error. */
int genie_prompt_check(const char *user, const char *shipped, int stage, int *overridden, gn_err *e);

#endif
