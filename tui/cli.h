/*
 * cli.h — the command-line modes of the front end (non-curses): each takes
 * the loaded configuration and returns the process exit status
 * (0 ok, 1 runtime error, 2 usage error).  Only front-end files print.
 */
#ifndef GENIE_CLI_H
#define GENIE_CLI_H

#include "config/config.h"

/* Exit statuses, as documented in genie(1). */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* Print "genie: <error>" to stderr; returns the exit status for its code. */
int cli_fail(const gn_err *e);

/* The genie data file NAME (e.g. "wordvec.bin"): looked up beside the
 * binary (build tree: DIR/share/genie, installed: DIR/../share/genie), then
 * under the configured prefix.  Caller frees; NULL if none exists. */
char *cli_data_file(const char *name);

/* The knowledge base path: --db, else the sample restaurants database.
 * Caller frees; NULL with e set when there is none. */
char *cli_db_path(const cfg_t *c, gn_err *e);

/* --reindex, --search TEXT, and the interactive search loop. */
int cli_reindex(const cfg_t *c);
int cli_search(const cfg_t *c);
int cli_search_loop(const cfg_t *c);

#endif
