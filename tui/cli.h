/*
 * cli.h — the command-line modes of the front end (non-curses): each takes
 * the loaded configuration and returns the process exit status
 * (0 ok, 1 runtime error, 2 usage error).  Only front-end files print.
 */
#ifndef GENIE_CLI_H
#define GENIE_CLI_H

#include "config/config.h"
#include "llm/client.h"
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "store/kb.h"
#include "suql/engine.h"

/* Exit statuses, as documented in genie(1). */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* Print "genie: <error>" to stderr; returns the exit status for its code. */
int cli_fail(const gn_err *e);

/* The genie data file NAME (e.g. "wordvec.bin"): looked up beside the
 * binary (build tree: DIR/share/genie, installed: DIR/../share/genie), then
 * under the configured prefix.  Caller frees; NULL if none exists. */
char *cli_data_file(const char *name);

/* The directory of the agent --agent names: a directory holding
 * agent.ini, else a shipped agent (sample_db/NAME), else the user's
 * ($XDG_CONFIG_HOME/genie/agents/NAME).  Caller frees; NULL with e set. */
char *cli_agent_dir(const cfg_t *c, gn_err *e);

/* The file NAME of the sample data: the data file sample_db/NAME (in the
 * build tree share/genie/sample_db links to the repository's sample_db).
 * Caller frees; NULL if none exists. */
char *cli_sample_file(const char *name);

/* The prompt directories, in lookup order: the user's overrides
 * ($XDG_CONFIG_HOME/genie/prompts) and the shipped share/genie/prompts (in
 * the build tree a link to config/prompts).  Caller frees both; either may
 * be NULL (no home directory; shipped prompts missing). */
void cli_prompt_dirs(const cfg_t *c, char **user, char **shipped);

/* The knowledge base path: --db, else the database of the agent --agent
 * names.  Caller frees; NULL with e set when there is none. */
char *cli_db_path(const cfg_t *c, gn_err *e);

/* The shipped agent whose database is DB (the same file), or NULL;
 * caller frees. */
char *cli_agent_of_db(const char *db);

/* With --agent (and no --db): describe the database at PATH from the
 * agent's db worksheets where they are new or changed (ag_schema_sync),
 * saying so on stderr.  Quietly does nothing when the file is read-only
 * or the agent does not load. */
void cli_agent_sync(const cfg_t *c, const char *path);

/* An open knowledge base (session.c). */
typedef struct cli_session {
    char *path;
    sqlite3 *db;
    st_schema *schema;
    rt_embedder *em;
    rt_opts opts;
    rt_index *ix;            /* NULL unless asked for */
    int quiet, tty;
} cli_session;

/* Open the database (read-write when the file allows, for rebuilds), its
 * schema, the embedder and, when WANT_INDEX, a fresh index (rebuilding a
 * stale one with progress on stderr if the file is writable).  Returns 0
 * or the error; close with cli_session_close in every case. */
int cli_session_open(cli_session *s, const cfg_t *c, int want_index, gn_err *e);
/* The same for the database at PATH (NULL: as cli_session_open). */
int cli_session_open_at(cli_session *s, const cfg_t *c, const char *path, int want_index,
                        gn_err *e);
void cli_session_close(cli_session *s);

/* Build the index of S's database, with progress unless quiet. */
int cli_session_build(cli_session *s, gn_err *e);

/* The embedder the settings name (glove, or remote with the LLM's URL and
 * key as fallbacks). */
int cli_embedder(const cfg_t *c, rt_embedder **em, gn_err *e);

/* --reindex and --search TEXT. */
int cli_reindex(const cfg_t *c);
int cli_search(const cfg_t *c);

/* Why genie runs without an LLM ("offline (--offline)", "offline: no LLM
 * endpoint configured ..."), or NULL when an endpoint is configured. */
const char *cli_offline_reason(const cfg_t *c);

/* The API key: [llm] api_key / GENIE_API_KEY / OPENAI_API_KEY, else the
 * output of api_key_cmd.  *key is NULL when there is none (caller frees and
 * should wipe it).  Returns 0 or the key command's error. */
int cli_api_key(const cfg_t *c, char **key, gn_err *e);

/* The LLM client the configuration describes, with the key from the
 * settings or api_key_cmd and the cache under $XDG_CACHE_HOME unless
 * --no-cache.  Offline, returns 0 with *out NULL.  Warnings (cache or log
 * unusable) are printed.  Returns 0 or the error (bad settings, key command
 * failed). */
int cli_llm_open(const cfg_t *c, llm_client **out, gn_err *e);

/* A knowledge base ready for SUQL: the session, the LLM client (NULL
 * offline), the free-text prompts and the engine over the guarded
 * connection (cmd_suql.c). */
enum { CLI_T_ANSWER, CLI_T_VERIFY, CLI_T_SUMMARY, CLI_T_CLASSIFY, CLI_T_VERIFY_ROWS, CLI_T__COUNT };
typedef struct cli_suql_ctx {
    cli_session s;
    llm_client *cl;
    llm_tpl *tpl[CLI_T__COUNT];
    suql_engine *en;
} cli_suql_ctx;

/* Open X on the database at PATH (NULL: --db or the sample), for a
 * conversation when CONVERSATION (--summaries auto then makes summary()
 * extractive).  Returns 0 or the error; close with cli_suql_close in
 * every case. */
int cli_suql_open(cli_suql_ctx *x, const cfg_t *c, const char *path, int conversation, gn_err *e);
void cli_suql_close(cli_suql_ctx *x);

/* --suql QUERY and --explain QUERY [--analyze] (cmd_suql.c). */
int cli_suql(const cfg_t *c);
int cli_explain(const cfg_t *c);

/* --init DIR FILE...: an agent made from data files (cmd_init.c). */
int cli_init(const cfg_t *c);

/* --schema: the knowledge base's schema as CREATE TABLE text. */
int cli_schema(const cfg_t *c);

/* Enum columns with at most this many values list them in --schema and in
 * the parser prompts; larger ones show a count and examples. */
#define CLI_SCHEMA_MAX_ENUM 12

/* --check-llm: one short request, its facts printed. */
int cli_check_llm(const cfg_t *c);

/* The conversation: line mode on standard input and output (cmd_chat.c),
 * or the full-screen interface (app.c); both honour --resume.  The
 * sessions commands --list-sessions, --export-session (cmd_chat.c). */
int cli_chat_plain(const cfg_t *c);
int cli_chat_screen(const cfg_t *c);
int cli_list_sessions(const cfg_t *c);
int cli_export_session(const cfg_t *c);

#endif
