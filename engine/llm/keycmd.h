/*
 * keycmd.h — the API key from a command (`api_key_cmd`), the way git's
 * credential helpers and many CLIs do it: the key stays in a password
 * manager and never sits in a config file.
 */
#ifndef GENIE_LLM_KEYCMD_H
#define GENIE_LLM_KEYCMD_H

#include "util/err.h"

/* Run CMD with /bin/sh -c (stdin and stderr inherited, so a password
 * manager can prompt) and take the first line of its output, trimmed, as
 * the key.  A command still running after TIMEOUT seconds (<= 0: 30) is
 * killed.  Returns 0 and sets *KEY (caller frees),
 * or GN_EIO when it cannot run, exits with a nonzero status, prints
 * nothing or times out.  The command's output never appears in an error
 * message. */
int llm_key_from_cmd(const char *cmd, double timeout, char **key, gn_err *e);

#endif
