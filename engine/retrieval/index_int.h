/*
 * index_int.h — what index.c, index_build.c and search.c share.  Not a
 * public header: only files of engine/retrieval include it.
 */
#ifndef GENIE_INDEX_INT_H
#define GENIE_INDEX_INT_H

#include "retrieval/index.h"
#include "retrieval/lexical.h"

#include <faiss/c_api/Index_c.h>
#include <pthread.h>
#include <stdatomic.h>

#define VEC_MAGIC "GNVX0001"
#define VEC_HDR 512

/* The vector side file: a 512-byte header, then int64 row_id[n],
 * int32 src[n], float vec[n][dim]. */
/* The FAISS side file: this 64-byte header, then FAISS's own format. */
#define FAISS_MAGIC "GNFX0001"
typedef struct faiss_header {
    char magic[8];
    uint64_t nonce;
    uint64_t npass;
    char pad[40];
} faiss_header;

typedef struct vec_header {
    char magic[8];
    uint32_t dim, pad;
    uint64_t npass;
    uint64_t nonce;
    char embedder[256];
} vec_header;

/* A free-text column; lo..hi is the passage range of its whole table (rows
 * are contiguous and ascending by row id within it). */
typedef struct rt_source { char *tbl, *col; long lo, hi; } rt_source;

struct rt_index {
    sqlite3 *db;
    rt_embedder *em;
    rt_opts opts;
    int dim;
    long n;
    void *map;
    size_t mapsize;
    const int64_t *row;        /* per passage */
    const int32_t *src;        /* per passage */
    const float *vec;          /* per passage, dim floats */
    FaissIndex *faiss;
    rt_lex *lex;
    unsigned char *candmask;   /* per passage, zero between queries */
    int hnsw;
    long ef;                   /* the HNSW efSearch set now */
    rt_source *srcs;
    int nsrc;
    /* A large index is read in the background (index.c): the loader
     * thread fills faiss and checks the rows; rt_index_ready waits for it
     * and gives its outcome. */
    char *dbpath;
    pthread_mutex_t mu;
    pthread_t loader;
    int loading;               /* the loader is running or not yet joined */
    int load_rc;               /* its outcome, with load_err */
    atomic_int loaded;         /* 1 once everything is read */
    gn_err load_err;
};

/* Wait for the background load of IX, if any: 0 when the whole index is
 * usable, else the load's error (GN_ESTALE for a damaged side file).
 * Safe from any thread; every search calls it first. */
int rt_index_ready(rt_index *ix, gn_err *e);

/* Set the HNSW search breadth to EF (at least opts.ef_search); a search
 * for k > efSearch neighbours returns fewer than k (FAISS 1.7: the rest
 * -1), so a wide search sets it to k first.  No-op for a flat index. */
void rt_faiss_ef(rt_index *ix, long ef);

/* Freshness check shared by open and check; fills *nonce and *npass. */
int rt_state_fresh(sqlite3 *db, const char *dbpath, const rt_embedder *em,
                   uint64_t *nonce, long *npass, gn_err *e);


/* "tbl.col,tbl.col" of the free-text columns genie_columns declares now
 * (caller frees): recorded by a build, compared by the freshness check. */
char *rt_sources_signature(sqlite3 *db);

#endif
