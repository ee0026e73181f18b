/*
 * index.c — opening a built retrieval index for search.
 *
 * The vector file is memory-mapped read-only (the exact-search path reads
 * candidate rows' vectors straight from the page cache); the FAISS index is
 * read into memory.  Opening re-runs the freshness check, so a caller cannot
 * get a stale index by accident.
 *
 * A chat client must show its first screen at once, and at scale 100 the
 * FAISS file alone is 4 GB: an index of opts.background_from passages or
 * more is opened in two steps.  What is cheap (the build's records, the
 * side files' headers and sizes, the sources) is checked before returning;
 * reading the FAISS file, checking the vector file's row ids against the
 * passages (on a connection of its own) and paging the maps in run on a
 * loader thread.  rt_index_ready, called by every search, waits for it.
 * Rejected: mapping the FAISS file (FAISS 1.7 reads an HNSW index into its
 * own structures; only inverted lists can be mapped).
 */
#include "index_int.h"
#include "util/xmem.h"

#include <errno.h>
#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/index_io_c.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void rt_opts_default(rt_opts *o)
{
    memset(o, 0, sizeof *o);      /* fields added later (cancel) start empty */
    o->hnsw_threshold = 200000;
    o->hnsw_m = 32;
    o->ef_construction = 20;
    o->ef_search = 64;
    o->chunk_chars = 600;
    o->rrf_k = 60;
    o->dense_weight = 0.5;
    o->exact_limit = 300000;
    o->background_from = 1000000;
}

char *rt_vec_path(const char *dbpath) { return xasprintf("%s.vec", dbpath); }
char *rt_faiss_path(const char *dbpath) { return xasprintf("%s.faiss", dbpath); }
char *rt_lex_path(const char *dbpath) { return xasprintf("%s.lex", dbpath); }

static int map_vectors(rt_index *ix, const char *dbpath, int populate, gn_err *e)
{
    char *path = rt_vec_path(dbpath);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    int rc = 0;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        rc = gn_err_set(e, GN_EIO, "cannot open %s: %s", path, strerror(errno));
    } else {
        ix->mapsize = (size_t)sb.st_size;
        /* Populated: a scan's first touch of a page cost ~5 us a page here
         * (0.5 s for one exact ranking at scale 100); mapping it all at open
         * costs 0.2 s for 2.4 GB. */
        ix->map = mmap(NULL, ix->mapsize, PROT_READ, MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
        if (ix->map == MAP_FAILED) {
            ix->map = NULL;
            rc = gn_err_set(e, GN_EIO, "cannot map %s: %s", path, strerror(errno));
        }
    }
    if (fd >= 0) close(fd);
    free(path);
    if (rc) return rc;
    const vec_header *h = ix->map;
    ix->dim = (int)h->dim;
    ix->row = (const int64_t *)((const char *)ix->map + VEC_HDR);
    ix->src = (const int32_t *)(ix->row + ix->n);
    ix->vec = (const float *)(ix->src + ix->n);
    return 0;
}

static int load_faiss(rt_index *ix, const char *dbpath, gn_err *e)
{
    /* A damaged body reads as stale, like any other unusable derived file:
     * the caller rebuilds it when it can. */
    char *path = rt_faiss_path(dbpath);
    FILE *f = fopen(path, "rb");
    FaissIndex *fx = NULL;
    int rc = 0;
    if (!f || fseek(f, (long)sizeof(faiss_header), SEEK_SET) != 0 ||
        faiss_read_index(f, 0, &fx)) {
        const char *m = f ? faiss_get_last_error() : strerror(errno);
        rc = gn_err_set(e, GN_ESTALE, "retrieval index is stale: %s is unreadable (%s)",
                        path, m ? m : "?");
    } else if (faiss_Index_ntotal(fx) != ix->n || faiss_Index_d(fx) != ix->dim) {
        rc = gn_err_set(e, GN_ESTALE, "retrieval index is stale: %s does not match the vector file",
                        path);
    }
    if (f) fclose(f);
    free(path);
    if (rc) {
        if (fx) faiss_Index_free(fx);
        return rc;
    }
    ix->faiss = fx;
    rt_faiss_ef(ix, ix->opts.ef_search);
    return 0;
}

/* Whether the build made an HNSW index (genie_index_state). */
static void read_kind(rt_index *ix)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT value = 'hnsw' FROM genie_index_state WHERE key='kind'",
                           -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        ix->hnsw = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
}

void rt_faiss_ef(rt_index *ix, long ef)
{
    if (ef < ix->opts.ef_search) ef = ix->opts.ef_search;
    FaissParameterSpace *ps = NULL;
    if (!ix->hnsw || ef == ix->ef || faiss_ParameterSpace_new(&ps) != 0) return;
    if (faiss_ParameterSpace_set_index_parameter(ps, ix->faiss, "efSearch", (double)ef) == 0)
        ix->ef = ef;
    faiss_ParameterSpace_free(ps);
}

static int load_sources(rt_index *ix, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT src, tbl, col FROM genie_sources ORDER BY src",
                           -1, &st, NULL))
        return st_dberr(ix->db, e, "reading genie_sources");
    while (sqlite3_step(st) == SQLITE_ROW) {
        int s = sqlite3_column_int(st, 0);
        if (s != ix->nsrc) break;
        ix->srcs = xrealloc(ix->srcs, sizeof(rt_source) * (size_t)(ix->nsrc + 1));
        ix->srcs[ix->nsrc].tbl = xstrdup((const char *)sqlite3_column_text(st, 1));
        ix->srcs[ix->nsrc].col = xstrdup((const char *)sqlite3_column_text(st, 2));
        ix->nsrc++;
    }
    sqlite3_finalize(st);
    /* Table segments: the passage range of each source's table. */
    for (int i = 0; i < ix->nsrc; i++) { ix->srcs[i].lo = ix->n; ix->srcs[i].hi = 0; }
    for (long p = 0; p < ix->n; p++) {
        int s = ix->src[p];
        if (s < 0 || s >= ix->nsrc)
            return gn_err_set(e, GN_ECORRUPT, "vector file names unknown source %d", s);
        if (p < ix->srcs[s].lo) ix->srcs[s].lo = p;
        ix->srcs[s].hi = p + 1;
    }
    for (int i = 0; i < ix->nsrc; i++)
        for (int j = 0; j < ix->nsrc; j++)
            if (strcmp(ix->srcs[i].tbl, ix->srcs[j].tbl) == 0 && ix->srcs[j].hi > 0) {
                if (ix->srcs[j].lo < ix->srcs[i].lo) ix->srcs[i].lo = ix->srcs[j].lo;
                if (ix->srcs[j].hi > ix->srcs[i].hi) ix->srcs[i].hi = ix->srcs[j].hi;
            }
    return 0;
}

/* The vector file's row ids and sources against the passages table: a
 * body damaged behind a valid header (garbage row ids, which a search
 * would report as rows that do not exist) reads as stale, and is rebuilt.
 * Sums compared, so opening costs one scan of the passages' integers. */
static int check_rows(const rt_index *ix, sqlite3 *db, const char *dbpath, gn_err *e)
{
    uint64_t rows = 0, srcs = 0;
    for (long i = 0; i < ix->n; i++) {
        if (ix->row[i] < 0 || ix->src[i] < 0 || ix->src[i] >= ix->nsrc) goto damaged;
        rows += (uint64_t)ix->row[i];
        srcs += (uint64_t)ix->src[i];
    }
    sqlite3_stmt *st;
    int same = 0;
    if (sqlite3_prepare_v2(db, "SELECT sum(row_id), sum(src) FROM genie_passages", -1, &st,
                           NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        same = (uint64_t)sqlite3_column_int64(st, 0) == rows &&
               (uint64_t)sqlite3_column_int64(st, 1) == srcs;
    sqlite3_finalize(st);
    if (same) return 0;
damaged:;
    char *path = rt_vec_path(dbpath);
    gn_err_set(e, GN_ESTALE, "retrieval index is stale: %s is damaged (its row ids do not match "
               "the passages)", path);
    free(path);
    return GN_ESTALE;
}

/* Touch every page of [P, P+N) so later reads find them mapped. */
static void page_in(const void *p, size_t n)
{
    volatile const char *c = p;
    long step = sysconf(_SC_PAGESIZE);
    char sum = 0;
    for (size_t i = 0; p && i < n; i += (size_t)(step > 0 ? step : 4096)) sum ^= c[i];
    (void)sum;
}

/* The loader thread: the expensive half of opening (see the top). */
static void *load_rest(void *arg)
{
    rt_index *ix = arg;
    gn_err e;
    gn_err_clear(&e);
    sqlite3 *db = NULL;
    int rc = load_faiss(ix, ix->dbpath, &e);
    if (!rc && sqlite3_open_v2(ix->dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        rc = st_dberr(db, &e, "opening the database to check the index");
    if (!rc) {
        sqlite3_busy_timeout(db, 5000);
        rc = check_rows(ix, db, ix->dbpath, &e);
    }
    sqlite3_close(db);
    if (!rc) page_in(ix->map, ix->mapsize);
    if (rc) {
        char why[sizeof e.msg];
        snprintf(why, sizeof why, "%s", e.msg);
        gn_err_set(&e, rc, "%.*s; run 'genie --db %s --reindex'", (int)(sizeof why - 200), why,
                   ix->dbpath);
    }
    ix->load_rc = rc;
    ix->load_err = e;
    atomic_store(&ix->loaded, 1);
    return NULL;
}

int rt_index_loading(rt_index *ix) { return ix && !atomic_load(&ix->loaded); }

int rt_index_ready(rt_index *ix, gn_err *e)
{
    pthread_mutex_lock(&ix->mu);
    if (ix->loading) {
        pthread_join(ix->loader, NULL);
        ix->loading = 0;
    }
    int rc = ix->load_rc;
    if (rc && e) *e = ix->load_err;
    pthread_mutex_unlock(&ix->mu);
    return rc;
}

int rt_index_open(sqlite3 *db, const char *dbpath, rt_embedder *em, const rt_opts *o,
                  rt_index **out, gn_err *e)
{
    *out = NULL;
    uint64_t nonce;
    long n;
    int rc = rt_state_fresh(db, dbpath, em, &nonce, &n, e);
    if (rc) return rc;
    rt_index *ix = xcalloc(1, sizeof *ix);
    ix->db = db;
    ix->em = em;
    ix->opts = *o;
    ix->n = n;
    ix->dbpath = xstrdup(dbpath);
    pthread_mutex_init(&ix->mu, NULL);
    int later = o->background_from > 0 && n >= o->background_from;
    rc = map_vectors(ix, dbpath, !later, e);
    if (!rc && rt_embedder_dim(em) && ix->dim != rt_embedder_dim(em))
        rc = gn_err_set(e, GN_ESTALE, "index vectors have %d dimensions, the embedder %d",
                        ix->dim, rt_embedder_dim(em));
    if (!rc) read_kind(ix);
    if (!rc && !later) rc = load_faiss(ix, dbpath, e);
    if (!rc) rc = load_sources(ix, e);
    if (!rc && !later) rc = check_rows(ix, db, dbpath, e);
    if (!rc) {
        char *lp = rt_lex_path(dbpath);
        rc = rt_lex_open(lp, nonce, n, &ix->lex, e);
        free(lp);
    }
    if (!rc && later) {
        if (pthread_create(&ix->loader, NULL, load_rest, ix) == 0) ix->loading = 1;
        else load_rest(ix);             /* no thread: open as before */
    } else {
        atomic_store(&ix->loaded, 1);
    }
    if (rc) { rt_index_close(ix); return rc; }
    *out = ix;
    return 0;
}

void rt_index_close(rt_index *ix)
{
    if (!ix) return;
    rt_index_ready(ix, NULL);
    pthread_mutex_destroy(&ix->mu);
    free(ix->dbpath);
    if (ix->map) munmap(ix->map, ix->mapsize);
    if (ix->faiss) faiss_Index_free(ix->faiss);
    rt_lex_close(ix->lex);
    free(ix->candmask);
    for (int i = 0; i < ix->nsrc; i++) { free(ix->srcs[i].tbl); free(ix->srcs[i].col); }
    free(ix->srcs);
    free(ix);
}

long rt_index_npassages(const rt_index *ix) { return ix->n; }

const char *rt_index_kind(const rt_index *ix) { return ix->hnsw ? "hnsw" : "flat"; }
