/*
 * mockctl.h — the C side of the mock LLM server's control routes
 * (tests/mock/llm_server.py), shared by the unit tests and the benchmarks:
 * POST a JSON body to one of its /_mock routes.
 */
#ifndef GENIE_TEST_MOCKCTL_H
#define GENIE_TEST_MOCKCTL_H

#include <stddef.h>

/* POST JSON to URL/_mock/ROUTE ("script", "config"); URL is the server's
 * /v1 base.  Returns 0, or -1 when the server does not answer or answers
 * with an error status, saying why in WHY (may be NULL) of size N. */
int mock_post(const char *url, const char *route, const char *json, char *why, size_t n);

#endif
