/*
 * index.h — the retrieval index of a knowledge base: passages (FTS5, in the
 * database) plus their vectors (DB.vec) and a FAISS index (DB.faiss) beside
 * the database file, and BM25 postings (DB.lex, see lexical.h).
 *
 * Staleness is detected, never guessed: triggers on every table with free
 * text bump a generation counter in genie_index_state on any insert, delete
 * or update of its free text; a build records the generation, the embedder
 * id, the free-text column list, the passage count and a random nonce that
 * is also written into both side files.  Any mismatch means stale, and a
 * stale index is never served: rt_index_open fails with GN_ESTALE.
 */
#ifndef GENIE_INDEX_H
#define GENIE_INDEX_H

#include <stdatomic.h>

#include "retrieval/embed.h"
#include "store/passages.h"

#include <stdint.h>

typedef struct rt_opts {
    int hnsw_threshold;    /* passages above which HNSW replaces exact search */
    int hnsw_m;            /* HNSW links per node */
    int ef_construction;   /* HNSW candidates per insertion */
    int ef_search;         /* HNSW efSearch */
    int chunk_chars;       /* passage chunk size */
    int rrf_k;             /* reciprocal rank fusion constant */
    double dense_weight;   /* weight of the dense ranking in the fusion, 0..1 */
    long exact_limit;      /* candidate passages up to which dense search is exact */
    long background_from;  /* passages from which the index is read in the
                              background (0: never, 1: always) */
    const atomic_int *cancel; /* a build stops at its next batch when set
                              (GN_ECANCEL: nothing replaced); may be NULL */
} rt_opts;

/* Fill with the documented defaults. */
void rt_opts_default(rt_opts *o);

typedef struct rt_index rt_index;

/* 0 when the index of DB (file DBPATH) is present and fresh for embedder EM;
 * otherwise GN_ESTALE with the reason in e (e.g. "data changed since the index
 * was built"). */
int rt_index_check(sqlite3 *db, const char *dbpath, const rt_embedder *em, gn_err *e);

/* Rebuild everything (passages, FTS5, vectors, FAISS) in one transaction on a
 * writable DB.  PROGRESS (may be NULL) is called with stage names
 * "passages", "lexical index", "embedding", "vector index".  Stops with
 * GN_ECANCEL, the old index and database as they were, once O->cancel is
 * set. */
int rt_index_build(sqlite3 *db, const char *dbpath, rt_embedder *em, const rt_opts *o,
                   st_progress_fn progress, void *ud, gn_err *e);

/* Open a fresh index for searching.  DB and EM are borrowed and must outlive
 * the index.  GN_ESTALE when stale, GN_ECORRUPT when a side file is damaged.
 * An index of at least opts.background_from passages returns at once, after
 * the cheap checks (the build's records and the side files' headers): its
 * FAISS file is read, its rows checked and its maps paged in by a thread,
 * and the first search waits for them; a side file found damaged then
 * fails that search (and every later one) with GN_ESTALE, saying to run
 * --reindex. */
int rt_index_open(sqlite3 *db, const char *dbpath, rt_embedder *em, const rt_opts *o,
                  rt_index **out, gn_err *e);
void rt_index_close(rt_index *ix);

/* 1 while IX is still being read in the background (see rt_index_open),
 * else 0; never waits. */
int rt_index_loading(rt_index *ix);

/* Facts about an open index. */
long rt_index_npassages(const rt_index *ix);
const char *rt_index_kind(const rt_index *ix);         /* "flat" or "hnsw" */

/* Side-file paths for DBPATH (caller frees). */
char *rt_vec_path(const char *dbpath);
char *rt_faiss_path(const char *dbpath);
char *rt_lex_path(const char *dbpath);

#endif
