/*
 * mockctl.h — the benchmarks' one way to steer the mock LLM server:
 * POST a JSON body to one of its /_mock routes.
 */
#ifndef GENIE_BENCH_MOCKCTL_H
#define GENIE_BENCH_MOCKCTL_H

/* POST JSON to URL/_mock/ROUTE ("script", "config"); URL is the server's
 * /v1 base.  Returns 0, or -1 when the server does not answer. */
int bench_mock_post(const char *url, const char *route, const char *json);

#endif
