/*
 * index_build.c — building the retrieval index in one go.
 *
 * Order matters for crash safety: everything in the database (passages,
 * triggers, state) changes inside one transaction; the side files are written
 * to .tmp names, synced and renamed before that transaction commits.  A crash
 * before the commit leaves side files whose nonce matches no committed state,
 * so the index reads as stale and is rebuilt — never served half-made.
 * Rejected: storing vectors in SQLite blobs (a 2 GB table at scale 100 that
 * must be copied out before FAISS can use it).
 */
#include "index_int.h"
#include "tokenize.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <errno.h>
#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/IndexFlat_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define EMBED_BATCH 512
#define ADD_BATCH 20000

static int exec(sqlite3 *db, const char *sql, gn_err *e)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) ? st_dberr(db, e, "index state") : 0;
}

static int state_set(sqlite3 *db, const char *key, const char *value, gn_err *e)
{
    char *sql = sqlite3_mprintf("INSERT OR REPLACE INTO genie_index_state VALUES(%Q, %Q)", key, value);
    int rc = exec(db, sql, e);
    sqlite3_free(sql);
    return rc;
}

/* Triggers that bump source_gen when a table's free text changes. */
static int make_triggers(sqlite3 *db, const st_schema *s, int *ntrig, gn_err *e)
{
    static const char bump[] =
        "UPDATE genie_index_state SET value = CAST(value AS INTEGER) + 1 WHERE key = 'source_gen';";
    *ntrig = 0;
    for (int i = 0; i < s->ntables; i++) {
        const st_table *t = &s->tables[i];
        gn_buf cols;
        gn_buf_init(&cols);
        for (int j = 0; j < t->ncols; j++)
            if (t->cols[j].free_text) gn_buf_printf(&cols, ", \"%s\"", t->cols[j].name);
        if (cols.len) {
            char *sql = sqlite3_mprintf(
                "CREATE TRIGGER genie_stale_%w_i AFTER INSERT ON \"%w\" BEGIN %s END;"
                "CREATE TRIGGER genie_stale_%w_d AFTER DELETE ON \"%w\" BEGIN %s END;"
                "CREATE TRIGGER genie_stale_%w_u AFTER UPDATE OF _id%s ON \"%w\" BEGIN %s END;",
                t->name, t->name, bump, t->name, t->name, bump, t->name, cols.data, t->name, bump);
            int rc = exec(db, sql, e);
            sqlite3_free(sql);
            *ntrig += 3;
            if (rc) { gn_buf_release(&cols); return rc; }
        }
        gn_buf_release(&cols);
    }
    return 0;
}

static int drop_triggers(sqlite3 *db, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='trigger' AND "
                           "name LIKE 'genie_stale_%'", -1, &st, NULL))
        return st_dberr(db, e, "listing triggers");
    gn_buf sql;
    gn_buf_init(&sql);
    while (sqlite3_step(st) == SQLITE_ROW)
        gn_buf_printf(&sql, "DROP TRIGGER \"%s\";", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    int rc = exec(db, sql.data, e);
    gn_buf_release(&sql);
    return rc;
}

static int write_all(FILE *f, const void *p, size_t n, const char *path, gn_err *e)
{
    if (n && fwrite(p, 1, n, f) != n)
        return gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    return 0;
}

/* Embed every passage in id order into vec (n * dim, allocated here). */
static int embed_all(sqlite3 *db, rt_embedder *em, long n, int64_t *row, int32_t *src,
                     float **vec, int *dim, const atomic_int *cancel, st_progress_fn progress,
                     void *ud, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT row_id, src, text FROM genie_passages ORDER BY id",
                           -1, &st, NULL))
        return st_dberr(db, e, "reading passages");
    char **texts = xcalloc(EMBED_BATCH, sizeof(char *));
    long i = 0;
    int rc = 0, m = 0;
    *vec = NULL;
    while (!rc) {
        int step = sqlite3_step(st);
        if (step == SQLITE_ROW && i + m < n) {
            row[i + m] = sqlite3_column_int64(st, 0);
            src[i + m] = sqlite3_column_int(st, 1);
            texts[m++] = xstrdup((const char *)sqlite3_column_text(st, 2));
        } else if (step != SQLITE_DONE && step != SQLITE_ROW) {
            rc = st_dberr(db, e, "reading passages");
            break;
        }
        if (m == EMBED_BATCH || (step != SQLITE_ROW && m > 0)) {
            float *out;
            rc = rt_embed_alloc(em, (const char *const *)texts, m, &out, e);
            if (!rc) {
                *dim = rt_embedder_dim(em);
                if (!*vec) *vec = xmalloc(sizeof(float) * (size_t)n * (size_t)*dim);
                memcpy(*vec + (size_t)i * *dim, out, sizeof(float) * (size_t)m * *dim);
                free(out);
            }
            for (int j = 0; j < m; j++) free(texts[j]);
            i += m;
            m = 0;
            if (progress) progress("embedding", i, n, ud);
            if (!rc && cancel && *cancel) rc = gn_err_set(e, GN_ECANCEL, "the index build was cancelled");
        }
        if (step != SQLITE_ROW) break;
    }
    sqlite3_finalize(st);
    free(texts);
    if (!rc && i != n) rc = gn_err_set(e, GN_EDB, "passage count changed while indexing");
    if (rc) { free(*vec); *vec = NULL; }
    return rc;
}

static int write_vec_file(const char *path, const vec_header *h, const int64_t *row,
                          const int32_t *src, const float *vec, gn_err *e)
{
    FILE *f = fopen(path, "wb");
    if (!f) return gn_err_set(e, GN_EIO, "cannot create %s: %s", path, strerror(errno));
    char hdr[VEC_HDR] = { 0 };
    memcpy(hdr, h, sizeof *h);
    size_t n = h->npass;
    int rc = write_all(f, hdr, VEC_HDR, path, e);
    if (!rc) rc = write_all(f, row, 8 * n, path, e);
    if (!rc) rc = write_all(f, src, 4 * n, path, e);
    if (!rc) rc = write_all(f, vec, 4 * n * h->dim, path, e);
    if (!rc && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    if (fclose(f) != 0 && !rc) rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    return rc;
}

static int faiss_fail(gn_err *e, const char *what)
{
    const char *m = faiss_get_last_error();
    return gn_err_set(e, GN_EIO, "FAISS %s failed: %s", what, m ? m : "unknown error");
}

static int write_faiss(const char *path, const FaissIndex *ix, uint64_t nonce, long n, gn_err *e)
{
    FILE *f = fopen(path, "wb");
    if (!f) return gn_err_set(e, GN_EIO, "cannot create %s: %s", path, strerror(errno));
    faiss_header h = { .nonce = nonce, .npass = (uint64_t)n };
    memcpy(h.magic, FAISS_MAGIC, 8);
    int rc = write_all(f, &h, sizeof h, path, e);
    if (!rc && faiss_write_index(ix, f)) rc = faiss_fail(e, "write_index");
    if (!rc && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    if (fclose(f) != 0 && !rc) rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    return rc;
}

static int build_faiss(const char *path, const float *vec, long n, int dim, const rt_opts *o,
                       uint64_t nonce, int *hnsw, st_progress_fn progress, void *ud, gn_err *e)
{
    FaissIndex *ix = NULL;
    *hnsw = n > o->hnsw_threshold;
    char desc[64];
    snprintf(desc, sizeof desc, *hnsw ? "HNSW%d,Flat" : "Flat", o->hnsw_m);
    if (faiss_index_factory(&ix, dim, desc, METRIC_INNER_PRODUCT)) return faiss_fail(e, "index_factory");
    int rc = 0;
    /* efConstruction trades build time for graph quality: FAISS's default
     * of 40 takes ~1.6 ms of CPU per vector with Debian's generic build. */
    FaissParameterSpace *ps = NULL;
    if (*hnsw && faiss_ParameterSpace_new(&ps) == 0) {
        if (faiss_ParameterSpace_set_index_parameter(ps, ix, "efConstruction", o->ef_construction))
            rc = faiss_fail(e, "setting efConstruction");
        faiss_ParameterSpace_free(ps);
    }
    for (long i = 0; i < n && !rc; i += ADD_BATCH) {
        long m = n - i < ADD_BATCH ? n - i : ADD_BATCH;
        if (faiss_Index_add(ix, m, vec + (size_t)i * dim)) rc = faiss_fail(e, "add");
        if (progress) progress("vector index", i + m, n, ud);
        if (!rc && o->cancel && *o->cancel) rc = gn_err_set(e, GN_ECANCEL, "the index build was cancelled");
    }
    if (!rc) rc = write_faiss(path, ix, nonce, n, e);
    faiss_Index_free(ix);
    return rc;
}

static int write_state(sqlite3 *db, const char *emb, uint64_t nonce, long n, int dim, int ntrig,
                       int hnsw, gn_err *e)
{
    char buf[64], *sig = rt_sources_signature(db);
    int rc = exec(db, "CREATE TABLE IF NOT EXISTS genie_index_state(key TEXT PRIMARY KEY, value TEXT)", e);
    if (!rc) rc = state_set(db, "source_gen", "1", e);
    if (!rc) rc = state_set(db, "built_gen", "1", e);
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)nonce);
    if (!rc) rc = state_set(db, "nonce", buf, e);
    if (!rc) rc = state_set(db, "embedder", emb, e);
    if (!rc) rc = state_set(db, "sources", sig, e);
    snprintf(buf, sizeof buf, "%ld", n);
    if (!rc) rc = state_set(db, "npass", buf, e);
    snprintf(buf, sizeof buf, "%d", dim);
    if (!rc) rc = state_set(db, "dim", buf, e);
    snprintf(buf, sizeof buf, "%d", ntrig);
    if (!rc) rc = state_set(db, "triggers", buf, e);
    if (!rc) rc = state_set(db, "kind", hnsw ? "hnsw" : "flat", e);
    if (!rc) rc = state_set(db, "tokenizer", rt_tokenizer_id(), e);
    free(sig);
    return rc;
}

static int build_files(sqlite3 *db, const char *dbpath, rt_embedder *em, const rt_opts *o,
                       long n, uint64_t nonce, int *dim, int *hnsw,
                       st_progress_fn progress, void *ud, gn_err *e)
{
    int64_t *row = xmalloc(8 * (size_t)(n ? n : 1));
    int32_t *src = xmalloc(4 * (size_t)(n ? n : 1));
    float *vec = NULL;
    *dim = rt_embedder_dim(em);
    int rc = n ? embed_all(db, em, n, row, src, &vec, dim, o->cancel, progress, ud, e) : 0;
    if (!rc && *dim <= 0) rc = gn_err_set(e, GN_EUSAGE, "no passages to learn the embedding size from");
    char *vp = rt_vec_path(dbpath), *fp = rt_faiss_path(dbpath), *lp = rt_lex_path(dbpath);
    char *vt = xasprintf("%s.tmp", vp), *ft = xasprintf("%s.tmp", fp), *lt = xasprintf("%s.tmp", lp);
    if (!rc) {
        vec_header h = { .dim = (uint32_t)*dim, .npass = (uint64_t)n, .nonce = nonce };
        memcpy(h.magic, VEC_MAGIC, 8);
        snprintf(h.embedder, sizeof h.embedder, "%s", rt_embedder_id(em));
        rc = write_vec_file(vt, &h, row, src, vec ? vec : (float *)src, e);
    }
    if (!rc) rc = build_faiss(ft, vec ? vec : (float *)src, n, *dim, o, nonce, hnsw, progress, ud, e);
    if (!rc) {
        if (progress) progress("lexical index", 0, n, ud);
        rc = rt_lex_build(db, lt, n, nonce, e);
        if (!rc && progress) progress("lexical index", n, n, ud);
    }
    if (!rc && (rename(vt, vp) || rename(ft, fp) || rename(lt, lp)))
        rc = gn_err_set(e, GN_EIO, "renaming index files next to %s: %s", dbpath, strerror(errno));
    if (rc) { unlink(vt); unlink(ft); unlink(lt); }
    free(vp); free(fp); free(lp); free(vt); free(ft); free(lt);
    free(row); free(src); free(vec);
    return rc;
}

int rt_index_build(sqlite3 *db, const char *dbpath, rt_embedder *em, const rt_opts *o,
                   st_progress_fn progress, void *ud, gn_err *e)
{
    if (sqlite3_db_readonly(db, "main") == 1)
        return gn_err_set(e, GN_EIO, "%s is read-only: cannot build its retrieval index", dbpath);
    if (exec(db, "BEGIN IMMEDIATE", e)) return e ? e->code : GN_EDB;
    st_schema *s = NULL;
    long n = 0;
    uint64_t nonce = 0;
    int dim = 0, hnsw = 0, ntrig = 0;
    int rc = st_schema_load(db, &s, e);
    if (!rc) rc = st_passages_build(db, s, o->chunk_chars, progress, ud, &n, e);
    if (!rc && getrandom(&nonce, sizeof nonce, 0) != sizeof nonce)
        rc = gn_err_set(e, GN_EIO, "no random source: %s", strerror(errno));
    if (!rc) rc = build_files(db, dbpath, em, o, n, nonce, &dim, &hnsw, progress, ud, e);
    if (!rc) rc = drop_triggers(db, e);
    if (!rc) rc = make_triggers(db, s, &ntrig, e);
    if (!rc) rc = write_state(db, rt_embedder_id(em), nonce, n, dim, ntrig, hnsw, e);
    if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) rc = st_dberr(db, e, "committing the index");
    if (rc) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    st_schema_free(s);
    return rc;
}
