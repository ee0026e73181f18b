/*
 * cmd_search.c — the retrieval commands of the command line: --reindex,
 * --search TEXT, and a plain interactive search loop.
 *
 * A stale index is rebuilt before searching when the database is writable
 * (with the reason and progress on stderr); otherwise the search stops with
 * the reason and the command that fixes it.  Results go to stdout, progress
 * and diagnostics to stderr, so output can be piped.
 */
#include "cli.h"
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "retrieval/search.h"
#include "store/kb.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    char *path;
    sqlite3 *db;
    st_schema *schema;
    rt_embedder *em;
    rt_opts opts;
    rt_index *ix;
    int quiet, tty;
} session;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(const char *stage, long done, long total, void *ud)
{
    session *s = ud;
    if (s->quiet) return;
    static const char *last;
    static long lastpct = -1;
    long pct = total > 0 ? done * 100 / total : 100;
    if (s->tty) {
        fprintf(stderr, "\r  %-15s %ld/%ld (%ld%%)\033[K", stage, done, total, pct);
        if (done >= total) fputc('\n', stderr);
    } else if (stage != last || pct / 25 != lastpct / 25 || done >= total) {
        fprintf(stderr, "  %s %ld/%ld (%ld%%)\n", stage, done, total, pct);
    }
    last = stage;
    lastpct = pct;
}

static void opts_from_cfg(const cfg_t *c, rt_opts *o)
{
    rt_opts_default(o);
    o->hnsw_threshold = (int)cfg_int(c, OPT_HNSW_THRESHOLD);
    o->ef_search = (int)cfg_int(c, OPT_EF_SEARCH);
    o->hnsw_m = (int)cfg_int(c, OPT_HNSW_M);
    o->ef_construction = (int)cfg_int(c, OPT_EF_CONSTRUCTION);
    o->chunk_chars = (int)cfg_int(c, OPT_CHUNK_CHARS);
    o->rrf_k = (int)cfg_int(c, OPT_RRF_K);
    o->dense_weight = cfg_double(c, OPT_FUSION_DENSE_WEIGHT);
}

static int make_embedder(const cfg_t *c, rt_embedder **em, gn_err *e)
{
    if (strcmp(cfg_str(c, OPT_EMBEDDER), "remote") == 0) {
        const char *url = cfg_str(c, OPT_EMBED_URL)[0] ? cfg_str(c, OPT_EMBED_URL)
                                                       : cfg_str(c, OPT_LLM_URL);
        if (!url[0])
            return gn_err_set(e, GN_EUSAGE, "the remote embedder needs an endpoint "
                              "(--embed-url, or --llm-url)");
        char *key = NULL;
        int rc = cli_api_key(c, &key, e);
        if (!rc) rc = rt_embedder_remote_new(url, cfg_str(c, OPT_EMBED_MODEL), key,
                                             (int)cfg_int(c, OPT_EMBED_BATCH), em, e);
        if (key) memset(key, 0, strlen(key));
        free(key);
        return rc;
    }
    char *vec = cfg_str(c, OPT_VECTORS)[0] ? xstrdup(cfg_str(c, OPT_VECTORS))
                                           : cli_data_file("wordvec.bin");
    if (!vec)
        return gn_err_set(e, GN_ENOTFOUND, "the offline word vectors (wordvec.bin) are not "
                          "installed; run 'make' or give --vectors FILE");
    int rc = rt_embedder_glove_new(vec, em, e);
    free(vec);
    return rc;
}

static void session_close(session *s)
{
    rt_index_free(s->ix);
    rt_embedder_free(s->em);
    st_schema_free(s->schema);
    sqlite3_close(s->db);
    free(s->path);
}

static int build(session *s, gn_err *e)
{
    if (!s->quiet) fprintf(stderr, "genie: indexing %s\n", s->path);
    double t0 = now_s();
    int rc = rt_index_build(s->db, s->path, s->em, &s->opts, progress, s, e);
    if (!rc && !s->quiet) fprintf(stderr, "genie: index built in %.1f s\n", now_s() - t0);
    return rc;
}

/* Open the database, the embedder and (when WANT_INDEX) a fresh index,
 * rebuilding a stale one if the file is writable. */
static int session_open(session *s, const cfg_t *c, int want_index, gn_err *e)
{
    memset(s, 0, sizeof *s);
    s->quiet = cfg_bool(c, OPT_QUIET);
    s->tty = isatty(2);
    opts_from_cfg(c, &s->opts);
    s->path = cli_db_path(c, e);
    if (!s->path) return e->code;
    int rc = st_open(s->path, 1, &s->db, e);
    if (rc == GN_EDB || (rc == 0 && sqlite3_db_readonly(s->db, "main") == 1)) {
        if (s->db) sqlite3_close(s->db);
        s->db = NULL;
        rc = st_open(s->path, 0, &s->db, e);
    }
    if (!rc) rc = st_schema_load(s->db, &s->schema, e);
    if (!rc) rc = make_embedder(c, &s->em, e);
    if (rc || !want_index) return rc;
    rc = rt_index_open(s->db, s->path, s->em, &s->opts, &s->ix, e);
    if (rc != GN_ESTALE) return rc;
    if (access(s->path, W_OK) != 0) {
        char why[sizeof e->msg];
        memcpy(why, e->msg, sizeof why);
        return gn_err_set(e, GN_ESTALE, "%s (read-only): %s; run 'genie --db %s --reindex' "
                          "where the file is writable", s->path, why, s->path);
    }
    if (!s->quiet) fprintf(stderr, "genie: %s; rebuilding\n", e->msg);
    rc = build(s, e);
    if (!rc) rc = rt_index_open(s->db, s->path, s->em, &s->opts, &s->ix, e);
    return rc;
}

int cli_reindex(const cfg_t *c)
{
    session s;
    gn_err e;
    gn_err_clear(&e);
    int rc = session_open(&s, c, 0, &e);
    if (!rc) rc = build(&s, &e);
    if (!rc && !s.quiet) {
        rt_index *ix;
        if (rt_index_open(s.db, s.path, s.em, &s.opts, &ix, &e) == 0) {
            fprintf(stderr, "genie: %ld passages, %s vector index, embedder %s\n",
                    rt_index_npassages(ix), rt_index_kind(ix), rt_embedder_id(s.em));
            rt_index_free(ix);
        }
    }
    session_close(&s);
    return rc ? cli_fail(&e) : EXIT_OK;
}

/* The table to search: the first with free text, and its display column. */
static const st_table *search_table(const session *s, const char **label)
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

static char *row_label(const session *s, const st_table *t, const char *col, int64_t row)
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

static int run_query(session *s, const char *text, int k, gn_err *e)
{
    const char *label;
    const st_table *t = search_table(s, &label);
    if (!t) return gn_err_set(e, GN_ENOTFOUND, "%s has no free-text column to search", s->path);
    rt_constraint con = { NULL, text };
    rt_query q = { t->name, &con, 1, NULL, 0, 0, k, RT_HYBRID };
    rt_hit *h;
    int n;
    double t0 = now_s();
    int rc = rt_search(s->ix, &q, &h, &n, e);
    if (rc) return rc;
    double ms = (now_s() - t0) * 1000;
    for (int i = 0; i < n; i++) {
        char *name = row_label(s, t, label, h[i].row_id), *ptext = NULL, *pcol = NULL;
        printf("%2d. %s  [%s _id=%lld]  score %.4f  similarity %.3f\n", i + 1, name, t->name,
               (long long)h[i].row_id, h[i].score, h[i].sim[0]);
        if (h[i].pid[0] >= 0 && rt_passage(s->ix, h[i].pid[0], &ptext, NULL, &pcol, NULL) == 0)
            printf("    %s: %.*s%s\n", pcol, 160, ptext, strlen(ptext) > 160 ? "..." : "");
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
    session s;
    gn_err e;
    gn_err_clear(&e);
    int rc = session_open(&s, c, 1, &e);
    if (!rc) rc = run_query(&s, cfg_str(c, OPT_SEARCH), (int)cfg_int(c, OPT_TOP_K), &e);
    session_close(&s);
    return rc ? cli_fail(&e) : EXIT_OK;
}

int cli_search_loop(const cfg_t *c)
{
    session s;
    gn_err e;
    gn_err_clear(&e);
    int rc = session_open(&s, c, 1, &e);
    if (rc) { session_close(&s); return cli_fail(&e); }
    int tty = isatty(0);
    if (tty)
        printf("genie %s — searching %s (%ld passages). Type a description, an empty line "
               "or Ctrl-D to quit.\n", GENIE_VERSION, s.path, rt_index_npassages(s.ix));
    const char *offline = cli_offline_reason(c);
    if (tty && offline && !cfg_bool(c, OPT_QUIET))
        printf("%s; free-text answers will be extractive.\n", offline);
    char line[4096];
    for (;;) {
        if (tty) { printf("search> "); fflush(stdout); }
        if (!fgets(line, sizeof line, stdin)) break;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) { if (tty) break; continue; }
        if (run_query(&s, line, (int)cfg_int(c, OPT_TOP_K), &e)) {
            char buf[1200];
            fprintf(stderr, "genie: %s\n", gn_err_str(&e, buf, sizeof buf));
        }
        fflush(stdout);
    }
    session_close(&s);
    return EXIT_OK;
}
