/*
 * index_state.c — deciding whether the retrieval index is fresh.
 *
 * The state lives in genie_index_state(key, value): source_gen (bumped by
 * triggers), built_gen, nonce, embedder, sources, npass, kind, tokenizer.
 * The tokenizer's id covers the lexical postings and the offline vectors,
 * which both depend on how text is cut into words: an index built by an
 * older tokenizer or stemmer (or before the id was recorded) is stale.
 * Triggers genie_stale_<table>_{i,u,d} are created by a build; if a table is
 * dropped and recreated its triggers vanish, so the trigger count is part of
 * the check.  The side files carry the nonce and passage count of the build that
 * wrote them, which catches a copied, swapped, truncated or half-written file.
 */
#include "index_int.h"
#include "tokenize.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <errno.h>
#include <faiss/c_api/index_io_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *state_get(sqlite3 *db, const char *key)
{
    sqlite3_stmt *st;
    char *v = NULL;
    if (sqlite3_prepare_v2(db, "SELECT value FROM genie_index_state WHERE key=?", -1, &st, NULL))
        return NULL;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) v = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

char *rt_sources_signature(sqlite3 *db)
{
    gn_buf b;
    gn_buf_init(&b);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT tbl, col FROM genie_columns WHERE free_text "
                           "ORDER BY tbl, pos", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW)
            gn_buf_printf(&b, "%s%s.%s", b.len ? "," : "", sqlite3_column_text(st, 0),
                          sqlite3_column_text(st, 1));
        sqlite3_finalize(st);
    }
    return gn_buf_detach(&b);
}

static int count_triggers(sqlite3 *db)
{
    sqlite3_stmt *st;
    int n = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type='trigger' "
                           "AND name LIKE 'genie_stale_%'", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

static int stale(gn_err *e, const char *why)
{
    return gn_err_set(e, GN_ESTALE, "retrieval index is stale: %s", why);
}

static int check_vec_file(const char *dbpath, uint64_t nonce, long npass, int dim, gn_err *e)
{
    char *path = rt_vec_path(dbpath);
    FILE *f = fopen(path, "rb");
    vec_header h;
    int rc = 0;
    struct stat sb;
    if (!f) rc = stale(e, "its vector file is missing");
    else if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, VEC_MAGIC, 8))
        rc = stale(e, "its vector file is damaged");
    else if (h.nonce != nonce || (long)h.npass != npass || (int)h.dim != dim)
        rc = stale(e, "its vector file belongs to another build");
    else if (fstat(fileno(f), &sb) != 0 ||
             (uint64_t)sb.st_size != VEC_HDR + h.npass * (12 + 4ull * h.dim))
        rc = stale(e, "its vector file is truncated");
    if (f) fclose(f);
    if (rc) gn_err_prefix(e, "%s: ", path);
    free(path);
    return rc;
}

static int check_faiss_file(const char *dbpath, uint64_t nonce, long npass, gn_err *e)
{
    char *path = rt_faiss_path(dbpath);
    FILE *f = fopen(path, "rb");
    faiss_header h;
    int rc = 0;
    if (!f) rc = stale(e, "its FAISS index file is missing");
    else if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, FAISS_MAGIC, 8))
        rc = stale(e, "its FAISS index file is damaged");
    else if (h.nonce != nonce || (long)h.npass != npass)
        rc = stale(e, "its FAISS index file belongs to another build");
    if (f) fclose(f);
    if (rc) gn_err_prefix(e, "%s: ", path);
    free(path);
    return rc;
}

int rt_state_fresh(sqlite3 *db, const char *dbpath, const rt_embedder *em,
                   uint64_t *nonce, long *npass, gn_err *e)
{
    char *built = state_get(db, "built_gen"), *src = state_get(db, "source_gen");
    char *emb = state_get(db, "embedder"), *srcs = state_get(db, "sources");
    char *non = state_get(db, "nonce"), *np = state_get(db, "npass");
    char *ntrig = state_get(db, "triggers"), *dim = state_get(db, "dim");
    char *tok = state_get(db, "tokenizer");
    char *now = rt_sources_signature(db);
    int rc = 0;
    if (!built || !src || !emb || !srcs || !non || !np || !ntrig || !dim)
        rc = stale(e, "the database has not been indexed yet");
    else if (strcmp(built, src))
        rc = stale(e, "the data changed since the index was built");
    else if (atoi(ntrig) != count_triggers(db))
        rc = stale(e, "change-tracking triggers are missing (was a table recreated?)");
    else if (strcmp(srcs, now))
        rc = stale(e, "the set of free-text columns changed");
    else if (!tok)
        rc = stale(e, "it was built with an older tokenizer");
    else if (strcmp(tok, rt_tokenizer_id())) {
        char why[300];
        snprintf(why, sizeof why, "it was built with tokenizer %s, now %s", tok, rt_tokenizer_id());
        rc = stale(e, why);
    }
    else if (strcmp(emb, rt_embedder_id(em))) {
        char why[600];
        snprintf(why, sizeof why, "it was built with embedder %s, now %s", emb, rt_embedder_id(em));
        rc = stale(e, why);
    } else {
        *nonce = strtoull(non, NULL, 16);
        *npass = atol(np);
        rc = check_vec_file(dbpath, *nonce, *npass, atoi(dim), e);
        if (!rc) rc = check_faiss_file(dbpath, *nonce, *npass, e);
        if (!rc) {
            char *lp = rt_lex_path(dbpath);
            rc = rt_lex_check(lp, *nonce, *npass, e);
            free(lp);
        }
    }
    free(built); free(src); free(emb); free(srcs); free(non); free(np); free(ntrig);
    free(dim); free(now); free(tok);
    return rc;
}

int rt_index_check(sqlite3 *db, const char *dbpath, const rt_embedder *em, gn_err *e)
{
    uint64_t nonce;
    long n;
    return rt_state_fresh(db, dbpath, em, &nonce, &n, e);
}
