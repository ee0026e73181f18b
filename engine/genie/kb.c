/*
 * kb.c — a knowledge base opened from the configuration, level by level
 * (genie.h): the database and its schema, the embedder the settings name,
 * a fresh retrieval index, and the SUQL engine over the guarded
 * connection with the LLM client and the free-text prompts.
 *
 * A stale index is rebuilt when the file is writable, with the reason and
 * progress told through the hooks; otherwise the error names the command
 * that fixes it, except for SUQL, which still runs (its candidates in SQL
 * order) and says so as a warning.  Nothing here prints.
 */
#include "genie_int.h"

#include "util/clock.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const tpl_names[GENIE_T__COUNT] = { "answer", "verify", "summary", "classify",
                                                       "verify_rows" };

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

/* The embedder the settings name (glove, or remote with the LLM's URL and
 * key as fallbacks). */
static int open_embedder(const cfg_t *c, rt_embedder **em, gn_err *e)
{
    if (strcmp(cfg_str(c, OPT_EMBEDDER), "remote") == 0) {
        const char *url = cfg_str(c, OPT_EMBED_URL)[0] ? cfg_str(c, OPT_EMBED_URL)
                                                       : cfg_str(c, OPT_LLM_URL);
        if (!url[0])
            return gn_err_set(e, GN_EUSAGE, "the remote embedder needs an endpoint "
                              "(--embed-url, or --llm-url)");
        char *key = NULL;
        int rc = genie_api_key(c, &key, e);
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
                                           : genie_data_file("wordvec.bin");
    if (!vec)
        return gn_err_set(e, GN_ENOTFOUND, "the offline word vectors (wordvec.bin) are not "
                          "installed; run 'make' or give --vectors FILE");
    int rc = rt_embedder_glove_new(vec, em, e);
    free(vec);
    return rc;
}

/* With --agent (and no --db): describe the database at PATH from the
 * agent's db worksheets where they are new or changed.  Quietly does
 * nothing when the file is read-only or the agent does not load: a spec
 * that does not load is the conversation's to report; the data commands
 * work on the database as it is. */
static void agent_sync(const cfg_t *c, const char *path, const genie_hooks *h)
{
    if (cfg_str(c, OPT_DB)[0] || cfg_source_kind(c, OPT_AGENT) == CFG_SRC_DEFAULT ||
        access(path, W_OK))
        return;
    gn_err e;
    gn_err_clear(&e);
    char *dir = genie_agent_dir(c, &e);
    ag_agent *a = NULL;
    sqlite3 *db = NULL;
    int made = 0;
    if (dir && ag_agent_load(dir, &a, &e) == 0 &&
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);
        if (ag_schema_sync(a, db, &made, &e) == 0 && made)
            genie_tell(h, 0, "described %d table%s of %s from the agent's db worksheets", made,
                 made == 1 ? "" : "s", path);
    }
    sqlite3_close(db);
    ag_agent_free(a);
    free(dir);
}

void genie_kb_close(genie_kb *k)
{
    suql_engine_free(k->en);
    for (int i = 0; i < GENIE_T__COUNT; i++) llm_tpl_free(k->tpl[i]);
    llm_client_free(k->cl);
    rt_index_close(k->ix);
    rt_embedder_free(k->em);
    st_schema_free(k->schema);
    sqlite3_close(k->db);
    free(k->path);
    memset(k, 0, sizeof *k);
}

static void on_progress(const char *stage, long done, long total, void *ud)
{
    const genie_hooks *h = ud;
    if (h->progress) h->progress(h->ud, stage, NULL, done, total);
}

int genie_kb_build(genie_kb *k, const atomic_int *cancel, gn_err *e)
{
    genie_tell(&k->hooks, 0, "indexing %s", k->path);
    double t0 = gn_now();
    rt_opts o = k->opts;
    o.cancel = cancel;
    int rc = rt_index_build(k->db, k->path, k->em, &o, on_progress, &k->hooks, e);
    if (!rc) genie_tell(&k->hooks, 0, "index built in %.1f s", gn_now() - t0);
    return rc;
}

int genie_kb_loading(const genie_kb *k)
{
    return k->ix ? rt_index_loading(k->ix) : 0;
}

void genie_kb_schema(const genie_kb *k, int max_enum, gn_buf *out)
{
    st_schema_sql(k->schema, max_enum, out);
}

/* The database: read-write when the file allows (for rebuilds and the
 * structured columns' indexes), else read-only. */
static int open_db(genie_kb *k, int writable, gn_err *e)
{
    int rc = st_open(k->path, writable, &k->db, e);
    if (writable && (rc == GN_EDB || (rc == 0 && sqlite3_db_readonly(k->db, "main") == 1))) {
        if (k->db) sqlite3_close(k->db);
        k->db = NULL;
        rc = st_open(k->path, 0, &k->db, e);
    }
    if (!rc) rc = st_schema_load(k->db, &k->schema, e);
    if (!rc && writable && sqlite3_db_readonly(k->db, "main") == 0) {
        int made = 0;
        rc = st_structured_ensure(k->db, k->schema, &made, e);
        if (!rc && made)
            genie_tell(&k->hooks, 0, "indexed %d structured column%s of %s", made, made == 1 ? "" : "s",
                 k->path);
    }
    return rc;
}

/* The index, rebuilt when stale and the file is writable. */
int genie_kb_index(genie_kb *k, gn_err *e)
{
    if (k->ix) return 0;
    int rc = rt_index_open(k->db, k->path, k->em, &k->opts, &k->ix, e);
    if (rc != GN_ESTALE) return rc;
    if (access(k->path, W_OK) != 0) {
        char why[sizeof e->msg];
        memcpy(why, e->msg, sizeof why);
        return gn_err_set(e, GN_ESTALE, "%s (read-only): %s; run 'genie --db %s --reindex' "
                          "where the file is writable", k->path, why, k->path);
    }
    genie_tell(&k->hooks, 0, "%s; rebuilding", e->msg);
    rc = genie_kb_build(k, NULL, e);
    if (!rc) rc = rt_index_open(k->db, k->path, k->em, &k->opts, &k->ix, e);
    return rc;
}

static int open_suql(genie_kb *k, const cfg_t *c, int conversation, gn_err *e)
{
    int rc = st_guard(k->db, e);
    if (!rc) rc = genie_llm_open(c, &k->hooks, &k->cl, e);
    if (!rc && k->cl) {
        char *user, *shipped;
        genie_prompt_dirs(c, &user, &shipped);
        for (int i = 0; i < GENIE_T__COUNT && !rc; i++)
            rc = llm_prompt_load(user, shipped, tpl_names[i], &k->tpl[i], e);
        free(user);
        free(shipped);
    }
    if (rc) return rc;
    suql_engine_config ec = {
        .db = k->db, .schema = k->schema, .ix = k->ix, .em = k->em, .client = k->cl,
        .answer_tpl = k->tpl[GENIE_T_ANSWER], .verify_tpl = k->tpl[GENIE_T_VERIFY],
        .summary_tpl = k->tpl[GENIE_T_SUMMARY], .classify_tpl = k->tpl[GENIE_T_CLASSIFY],
        .offline_threshold = cfg_double(c, OPT_OFFLINE_THRESHOLD),
        .budget = (int)cfg_int(c, OPT_BUDGET),
        .verify_rows_tpl = k->tpl[GENIE_T_VERIFY_ROWS],
        .verify_batch = (int)cfg_int(c, OPT_VERIFY_BATCH),
        .concurrency = (int)cfg_int(c, OPT_LLM_CONCURRENCY),
        .time_limit = cfg_double(c, OPT_QUERY_TIMEOUT),
        .memory_limit = (long long)cfg_int(c, OPT_QUERY_MEMORY) << 20,
        .today = cfg_str(c, OPT_TODAY),
        .count_matched = conversation,
        .summary_extractive = !strcmp(cfg_str(c, OPT_SUMMARIES), "extractive") ||
                              (conversation && !strcmp(cfg_str(c, OPT_SUMMARIES), "auto")),
    };
    return suql_engine_new(&ec, &k->en, e);
}

int genie_kb_open(genie_kb *k, const cfg_t *c, const char *path, enum genie_kb_level level,
                  int conversation, const genie_hooks *h, gn_err *e)
{
    memset(k, 0, sizeof *k);
    if (h) k->hooks = *h;
    opts_from_cfg(c, &k->opts);
    k->path = path ? xstrdup(path) : genie_db_path(c, e);
    if (!k->path) return e->code;
    if (!path) agent_sync(c, k->path, &k->hooks);
    int rc = open_db(k, level >= GENIE_KB_DATA, e);
    if (!rc && level >= GENIE_KB_DATA) rc = open_embedder(c, &k->em, e);
    if (rc || level < GENIE_KB_INDEX) return rc;
    rc = genie_kb_index(k, e);
    if (rc == GN_ESTALE && level == GENIE_KB_SUQL) {
        genie_tell(&k->hooks, 1, "%s; candidates will not be ranked by retrieval", e->msg);
        gn_err_clear(e);
        rc = 0;
    }
    if (rc || level < GENIE_KB_SUQL) return rc;
    return open_suql(k, c, conversation, e);
}

/* ---- search ------------------------------------------------------------------ */

/* The table to search: the first with free text, and its display column. */
static const st_table *search_table(const genie_kb *k, const char **label)
{
    for (int i = 0; i < k->schema->ntables; i++) {
        const st_table *t = &k->schema->tables[i];
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

static char *row_label(const genie_kb *k, const st_table *t, const char *col, int64_t row)
{
    if (!col) return xasprintf("row %lld", (long long)row);
    char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE _id=%lld", col, t->name,
                                (long long)row);
    sqlite3_stmt *st;
    char *r = NULL;
    if (sqlite3_prepare_v2(k->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_text(st, 0))
        r = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_free(sql);
    return r ? r : xasprintf("row %lld", (long long)row);
}

int genie_search(genie_kb *k, const char *text, int top_k, genie_hit **hits, int *n, gn_err *e)
{
    *hits = NULL;
    *n = 0;
    const char *label;
    const st_table *t = search_table(k, &label);
    if (!t) return gn_err_set(e, GN_ENOTFOUND, "%s has no free-text column to search", k->path);
    rt_constraint con = { NULL, text };
    rt_query q = { .tbl = t->name, .cons = &con, .ncons = 1, .k = top_k, .mode = RT_HYBRID };
    rt_hit *h;
    int nh;
    int rc = rt_search(k->ix, &q, &h, &nh, e);
    if (rc) return rc;
    *hits = xcalloc((size_t)(nh ? nh : 1), sizeof **hits);
    for (int i = 0; i < nh; i++) {
        genie_hit *g = &(*hits)[i];
        g->table = t->name;
        g->row = h[i].row_id;
        g->label = row_label(k, t, label, h[i].row_id);
        g->score = h[i].score;
        g->sim = h[i].sim[0];
        if (h[i].pid[0] >= 0 && rt_passage(k->ix, h[i].pid[0], &g->passage, NULL, &g->column, NULL)) {
            free(g->passage);
            g->passage = g->column = NULL;
        }
    }
    *n = nh;
    free(h);
    return 0;
}

void genie_hits_free(genie_hit *h, int n)
{
    for (int i = 0; h && i < n; i++) {
        free(h[i].label);
        free(h[i].column);
        free(h[i].passage);
    }
    free(h);
}

/* ---- SUQL ---------------------------------------------------------------------- */

int genie_suql_run(genie_kb *k, const char *text, suql_result *r, suql_run_stats *st, gn_err *e)
{
    return suql_execute(k->en, text, r, st, e);
}

int genie_suql_explain(genie_kb *k, const char *text, gn_buf *out, gn_err *e)
{
    return suql_explain(k->en, text, out, e);
}

void genie_suql_watch(genie_kb *k, suql_progress_fn fn, void *ud, const atomic_int *cancel)
{
    suql_engine_watch(k->en, fn, ud, cancel);
}
