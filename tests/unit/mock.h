/*
 * mock.h — the mock OpenAI-compatible server (tests/mock/llm_server.py),
 * for unit tests of the LLM client.
 *
 * One server per test process, started on first use and stopped at exit.
 * Each test loads its own script (which resets the chat rules) and reads
 * back the requests the server logged since then.
 */
#ifndef GENIE_TEST_MOCK_H
#define GENIE_TEST_MOCK_H

#include <cjson/cJSON.h>

/* The server's /v1 base URL ("http://127.0.0.1:PORT/v1"), starting it if
 * needed; NULL (after a th_fail) when it cannot start. */
const char *th_mock_url(void);

/* Replace the script (JSON text, the shape of the server's --script file)
 * and forget the requests logged so far.  Settings not named in its
 * "defaults" are put back to the server's defaults.  0 or -1. */
int th_mock_script(const char *json);

/* The requests logged since the last th_mock_script, as a JSON array of
 * the server's log entries (caller frees with cJSON_Delete). */
cJSON *th_mock_requests(void);

/* How many requests were logged since the last th_mock_script. */
int th_mock_count(void);

/* The user message (the second) of logged request ENTRY, or "". */
const char *th_mock_user(const cJSON *entry);

/* The header NAME (any case) of logged request ENTRY, or NULL. */
const char *th_mock_header(const cJSON *entry, const char *name);

#endif
