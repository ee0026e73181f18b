/*
 * cli.h — the command-line modes of the front end (non-curses): each takes
 * the loaded configuration and returns the process exit status
 * (0 ok, 1 runtime error, 2 usage error).  Only front-end files print.
 */
#ifndef GENIE_CLI_H
#define GENIE_CLI_H

#include "genie.h"

/* Exit statuses, as documented in genie(1). */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* Print "genie: <error>" to stderr; returns the exit status for its code. */
int cli_fail(const gn_err *e);

/* The hooks of the command-line modes (notes.c): the engine's notes on
 * stderr as "genie: ..." (information only without --quiet, warnings
 * always, made inert), and a build's progress unless --quiet (one
 * rewritten line on a terminal, every quarter otherwise). */
genie_hooks cli_hooks(const cfg_t *c);
/* A status on a terminal's stderr until cli_status_end ("genie: loading
 * ..."), wiped then unless a note or progress came after it (it then
 * stays, on a line of its own).  Nothing with --quiet or off a terminal.
 * After cli_hooks. */
void cli_status(const char *msg);
void cli_status_end(void);

/* --reindex and --search TEXT (cmd_search.c). */
int cli_reindex(const cfg_t *c);
int cli_search(const cfg_t *c);

/* --suql QUERY and --explain QUERY [--analyze] (cmd_suql.c). */
int cli_suql(const cfg_t *c);
int cli_explain(const cfg_t *c);

/* --init DIR FILE...: an agent made from data files (cmd_init.c). */
int cli_init(const cfg_t *c);

/* --schema: the knowledge base's schema as CREATE TABLE text. */
int cli_schema(const cfg_t *c);

/* --check-llm: one short request, its facts printed. */
int cli_check_llm(const cfg_t *c);

/* The conversation: line mode on standard input and output (cmd_chat.c),
 * or a QUESTION given on the command line (one turn, then exit; NULL: the
 * lines of standard input), or the full-screen interface (app.c); all
 * honour --resume.  The sessions commands --list-sessions,
 * --export-session, --delete-session, --rename-session (cmd_chat.c). */
int cli_chat_plain(const cfg_t *c, const char *question);
int cli_chat_screen(const cfg_t *c);
int cli_list_sessions(const cfg_t *c);
int cli_export_session(const cfg_t *c);
int cli_delete_session(const cfg_t *c);
int cli_rename_session(const cfg_t *c);

#endif
