/*
 * session.c — what the data commands share: the knowledge base, its
 * schema, the embedder the settings name, and a fresh retrieval index
 * (rebuilt with progress when stale and the file is writable, otherwise a
 * clear error naming the command that fixes it).
 */
#include "cli.h"
#include "agent/agent.h"
#include "util/clock.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void progress(const char *stage, long done, long total, void *ud)
{
    cli_session *s = ud;
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
    o->background_from = cfg_int(c, OPT_INDEX_BACKGROUND);
}

int cli_embedder(const cfg_t *c, rt_embedder **em, gn_err *e)
{
    if (strcmp(cfg_str(c, OPT_EMBEDDER), "remote") == 0) {
        const char *url = cfg_str(c, OPT_EMBED_URL)[0] ? cfg_str(c, OPT_EMBED_URL)
                                                       : cfg_str(c, OPT_LLM_URL);
        if (!url[0])
            return gn_err_set(e, GN_EUSAGE, "the remote embedder needs an endpoint "
                              "(--embed-url, or --llm-url)");
        char *key = NULL;
        int rc = cli_api_key(c, &key, e);
        /* The LLM client's network settings serve the embeddings too. */
        rt_remote_net net = {
            .connect_timeout = cfg_double(c, OPT_CONNECT_TIMEOUT),
            .stall_timeout = cfg_double(c, OPT_STALL_TIMEOUT),
            .retries = (int)cfg_int(c, OPT_RETRIES),
            .retry_max_wait = cfg_double(c, OPT_RETRY_MAX_WAIT),
        };
        if (!rc) rc = rt_embedder_remote_new(url, cfg_str(c, OPT_EMBED_MODEL), key,
                                             (int)cfg_int(c, OPT_EMBED_BATCH), &net, em, e);
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

void cli_session_close(cli_session *s)
{
    rt_index_free(s->ix);
    rt_embedder_free(s->em);
    st_schema_free(s->schema);
    sqlite3_close(s->db);
    free(s->path);
}

int cli_session_build(cli_session *s, gn_err *e)
{
    if (!s->quiet) fprintf(stderr, "genie: indexing %s\n", s->path);
    double t0 = gn_now();
    int rc = rt_index_build(s->db, s->path, s->em, &s->opts, progress, s, e);
    if (!rc && !s->quiet) fprintf(stderr, "genie: index built in %.1f s\n", gn_now() - t0);
    return rc;
}

int cli_session_open(cli_session *s, const cfg_t *c, int want_index, gn_err *e)
{
    return cli_session_open_at(s, c, NULL, want_index, e);
}

void cli_agent_sync(const cfg_t *c, const char *path)
{
    if (cfg_str(c, OPT_DB)[0] || cfg_source_kind(c, OPT_AGENT) == CFG_SRC_DEFAULT ||
        access(path, W_OK))
        return;
    gn_err e;
    gn_err_clear(&e);
    char *dir = cli_agent_dir(c, &e);
    ag_agent *a = NULL;
    sqlite3 *db = NULL;
    int made = 0;
    /* A spec that does not load is the conversation's to report; the data
     * commands work on the database as it is. */
    if (dir && ag_agent_load(dir, &a, &e) == 0 &&
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);
        if (ag_schema_sync(a, db, &made, &e) == 0 && made && !cfg_bool(c, OPT_QUIET))
            fprintf(stderr, "genie: described %d table%s of %s from the agent's db worksheets\n",
                    made, made == 1 ? "" : "s", path);
    }
    sqlite3_close(db);
    ag_agent_free(a);
    free(dir);
}

int cli_session_open_at(cli_session *s, const cfg_t *c, const char *path, int want_index, gn_err *e)
{
    memset(s, 0, sizeof *s);
    s->quiet = cfg_bool(c, OPT_QUIET);
    s->tty = isatty(2);
    opts_from_cfg(c, &s->opts);
    s->path = path ? xstrdup(path) : cli_db_path(c, e);
    if (!s->path) return e->code;
    if (!path) cli_agent_sync(c, s->path);
    int rc = st_open(s->path, 1, &s->db, e);
    if (rc == GN_EDB || (rc == 0 && sqlite3_db_readonly(s->db, "main") == 1)) {
        if (s->db) sqlite3_close(s->db);
        s->db = NULL;
        rc = st_open(s->path, 0, &s->db, e);
    }
    if (!rc) rc = st_schema_load(s->db, &s->schema, e);
    if (!rc && sqlite3_db_readonly(s->db, "main") == 0) {
        int made = 0;
        rc = st_structured_ensure(s->db, s->schema, &made, e);
        if (!rc && made && !s->quiet)
            fprintf(stderr, "genie: indexed %d structured column%s of %s\n", made,
                    made == 1 ? "" : "s", s->path);
    }
    if (!rc) rc = cli_embedder(c, &s->em, e);
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
    rc = cli_session_build(s, e);
    if (!rc) rc = rt_index_open(s->db, s->path, s->em, &s->opts, &s->ix, e);
    return rc;
}
