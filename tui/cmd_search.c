/*
 * cmd_search.c — the retrieval commands of the command line: --reindex,
 * --search TEXT.
 *
 * A stale index is rebuilt before searching when the database is writable
 * (with the reason and progress on stderr); otherwise the search stops with
 * the reason and the command that fixes it.  Results go to stdout, progress
 * and diagnostics to stderr, so output can be piped.
 */
#include "cli.h"
#include "plainout.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int reindex_stop;

static void on_stop(int sig)
{
    (void)sig;
    atomic_store(&reindex_stop, 1);
}

int cli_reindex(const cfg_t *c)
{
    genie_kb k;
    gn_err e;
    gn_err_clear(&e);
    genie_hooks h = cli_hooks(c);
    /* Ctrl-C (or SIGTERM, SIGHUP) stops the build at its next batch; the
     * old index stays as it was. */
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa = { .sa_handler = on_stop }, old[3];
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &sa, &old[i]);
    int rc = genie_kb_open(&k, c, NULL, GENIE_KB_DATA, 0, &h, &e);
    if (!rc) rc = genie_kb_build(&k, &reindex_stop, &e);
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
    if (rc == GN_ECANCEL) {
        genie_kb_close(&k);
        fprintf(stderr, "genie: interrupted; the index is as it was\n");
        return 130;
    }
    if (!rc && !cfg_bool(c, OPT_QUIET)) {
        long np;
        const char *kind, *em;
        if (genie_kb_index(&k, &e) == 0) {
            genie_kb_index_info(&k, &np, &kind, &em);
            fprintf(stderr, "genie: %ld passages, %s vector index, embedder %s\n", np, kind, em);
        }
    }
    genie_kb_close(&k);
    return rc ? cli_fail(&e) : EXIT_OK;
}

int cli_search(const cfg_t *c)
{
    genie_kb k;
    gn_err e;
    gn_err_clear(&e);
    genie_hooks h = cli_hooks(c);
    int rc = genie_kb_open(&k, c, NULL, GENIE_KB_INDEX, 0, &h, &e);
    genie_hit *hit = NULL;
    int n = 0;
    double t0 = gn_now();
    if (!rc) rc = genie_search(&k, cfg_str(c, OPT_SEARCH), (int)cfg_int(c, OPT_TOP_K), &hit, &n, &e);
    double ms = (gn_now() - t0) * 1000;
    for (int i = 0; !rc && i < n; i++) {
        plain_printf(stdout, "%2d. %s  [%s _id=%lld]  score %.4f  similarity %.3f\n", i + 1,
                     hit[i].label, hit[i].table, (long long)hit[i].row, hit[i].score, hit[i].sim);
        if (hit[i].passage)
            plain_printf(stdout, "    %s: %.*s%s\n", hit[i].column, 160, hit[i].passage,
                         strlen(hit[i].passage) > 160 ? "..." : "");
    }
    if (!rc && !cfg_bool(c, OPT_QUIET)) {
        long np;
        const char *kind, *em;
        genie_kb_index_info(&k, &np, &kind, &em);
        fprintf(stderr, "%d rows in %.1f ms (%s over %ld passages)\n", n, ms, kind, np);
    }
    genie_hits_free(hit, n);
    genie_kb_close(&k);
    return rc ? cli_fail(&e) : EXIT_OK;
}
