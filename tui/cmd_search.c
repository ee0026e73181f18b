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
#include "retrieval/search.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cli_reindex(const cfg_t *c)
{
    cli_session s;
    gn_err e;
    gn_err_clear(&e);
    int rc = cli_session_open(&s, c, 0, &e);
    if (!rc) rc = cli_session_build(&s, &e);
    if (!rc && !s.quiet) {
        rt_index *ix;
        if (rt_index_open(s.db, s.path, s.em, &s.opts, &ix, &e) == 0) {
            fprintf(stderr, "genie: %ld passages, %s vector index, embedder %s\n",
                    rt_index_npassages(ix), rt_index_kind(ix), rt_embedder_id(s.em));
            rt_index_free(ix);
        }
    }
    cli_session_close(&s);
    return rc ? cli_fail(&e) : EXIT_OK;
}

/* The table to search: the first with free text, and its display column. */
static const st_table *search_table(const cli_session *s, const char **label)
{
    for (int i = 0; i < s->schema->ntables; i++) {
        const st_table *t = &s->schema->tables[i];
        int ft = 0;
        for (int j = 0; j < t->ncols; j++) ft |= t->cols[j].free_text;
        if (!ft) continue;
        *label = NULL;
        const char *pref[] = { "name", "title" };
        for (int p = 0; p < 2 && !*label; p++)
            if (st_table_column(t, pref[p])) *label = pref[p];
        for (int j = 0; j < t->ncols && !*label; j++)
            if (!t->cols[j].free_text && !t->cols[j].is_array && !strcmp(t->cols[j].type, "text"))
                *label = t->cols[j].name;
        return t;
    }
    return NULL;
}

static char *row_label(const cli_session *s, const st_table *t, const char *col, int64_t row)
{
    if (!col) return xasprintf("row %lld", (long long)row);
    char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE _id=%lld", col, t->name,
                                (long long)row);
    sqlite3_stmt *st;
    char *r = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        r = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_free(sql);
    return r ? r : xasprintf("row %lld", (long long)row);
}

static int run_query(cli_session *s, const char *text, int k, gn_err *e)
{
    const char *label;
    const st_table *t = search_table(s, &label);
    if (!t) return gn_err_set(e, GN_ENOTFOUND, "%s has no free-text column to search", s->path);
    rt_constraint con = { NULL, text };
    rt_query q = { t->name, &con, 1, NULL, 0, 0, k, RT_HYBRID };
    rt_hit *h;
    int n;
    double t0 = gn_now();
    int rc = rt_search(s->ix, &q, &h, &n, e);
    if (rc) return rc;
    double ms = (gn_now() - t0) * 1000;
    for (int i = 0; i < n; i++) {
        char *name = row_label(s, t, label, h[i].row_id), *ptext = NULL, *pcol = NULL;
        plain_printf(stdout, "%2d. %s  [%s _id=%lld]  score %.4f  similarity %.3f\n", i + 1, name, t->name,
               (long long)h[i].row_id, h[i].score, h[i].sim[0]);
        if (h[i].pid[0] >= 0 && rt_passage(s->ix, h[i].pid[0], &ptext, NULL, &pcol, NULL) == 0)
            plain_printf(stdout, "    %s: %.*s%s\n", pcol, 160, ptext, strlen(ptext) > 160 ? "..." : "");
        free(name);
        free(ptext);
        free(pcol);
    }
    if (!s->quiet)
        fprintf(stderr, "%d rows in %.1f ms (%s over %ld passages)\n", n, ms,
                rt_index_kind(s->ix), rt_index_npassages(s->ix));
    free(h);
    return 0;
}

int cli_search(const cfg_t *c)
{
    cli_session s;
    gn_err e;
    gn_err_clear(&e);
    int rc = cli_session_open(&s, c, 1, &e);
    if (!rc) rc = run_query(&s, cfg_str(c, OPT_SEARCH), (int)cfg_int(c, OPT_TOP_K), &e);
    cli_session_close(&s);
    return rc ? cli_fail(&e) : EXIT_OK;
}
