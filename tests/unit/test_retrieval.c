/*
 * test_retrieval.c — passages, index build and staleness, and hybrid search
 * on a tiny hand-made knowledge base whose answers are known.
 */
#include "harness.h"
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "retrieval/index_int.h"
#include "retrieval/lexical.h"
#include "retrieval/search.h"
#include "retrieval/wordvec.h"
#include "store/kb.h"
#include "store/passages.h"
#include "util/xmem.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static const char *fixture_sql =
    "CREATE TABLE places(_id INTEGER PRIMARY KEY, name TEXT, city TEXT, reviews TEXT, dishes TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES"
    " ('places','_id',0,'int',0,0,NULL,NULL), ('places','name',1,'text',0,0,NULL,NULL),"
    " ('places','city',2,'enum',0,0,'[\"north\",\"south\"]',NULL),"
    " ('places','reviews',3,'text',1,1,NULL,NULL), ('places','dishes',4,'text',1,1,NULL,NULL);"
    "INSERT INTO places VALUES"
    " (1,'Candle Bistro','north','[\"Perfect spot for a date night, candlelit and intimate.\",\"The pasta was decent.\"]','[\"spaghetti carbonara\",\"tiramisu\"]'),"
    " (2,'Lot Diner','north','[\"Plenty of parking in the big lot out back.\",\"Burgers are greasy but good.\"]','[\"cheeseburger\",\"french fries\"]'),"
    " (3,'Noisy Pub','south','[\"Loud music and crowded, we could not hear each other.\",\"Great beer selection.\"]','[\"fish and chips\",\"pale ale\"]'),"
    " (4,'Family Taqueria','south','[\"Our kids loved it, very family friendly with a play area.\",\"Tacos were fresh.\"]','[\"carnitas tacos\",\"horchata\"]'),"
    " (5,'Sushi Zen','south','[\"Fresh fish, the omakase was wonderful.\",\"A bit pricey.\"]','[\"salmon nigiri\",\"tuna sashimi\"]');";

typedef struct {
    char path[600];
    sqlite3 *db;
    rt_embedder *em;
    rt_opts o;
} fx;

static int fx_open(fx *f, int build)
{
    snprintf(f->path, sizeof f->path, "%s/kb.db", th_tmpdir());
    unlink(f->path);
    sqlite3 *db;
    if (sqlite3_open(f->path, &db) || sqlite3_exec(db, fixture_sql, NULL, NULL, NULL)) return -1;
    sqlite3_close(db);
    gn_err e;
    if (st_open(f->path, 1, &f->db, &e)) return -1;
    if (rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &f->em, &e)) return -1;
    rt_opts_default(&f->o);
    if (build && rt_index_build(f->db, f->path, f->em, &f->o, NULL, NULL, &e)) return -1;
    return 0;
}

static void fx_close(fx *f)
{
    sqlite3_close(f->db);
    rt_embedder_free(f->em);
}

static int64_t top(rt_index *ix, const char *col, const char *text, enum rt_mode mode,
                   const int64_t *cand, long ncand)
{
    rt_constraint c = { col, text };
    rt_query q = { .tbl = "places", .cons = &c, .ncons = 1, .cand = cand, .ncand = ncand,
                   .restrict_cand = cand != NULL, .k = 3, .mode = mode };
    rt_hit *h;
    int n;
    gn_err e;
    if (rt_search(ix, &q, &h, &n, &e) || n == 0) return -1;
    int64_t r = h[0].row_id;
    free(h);
    return r;
}

static void count_chunk(const char *s, int len, void *ud)
{
    int *c = ud;
    (void)s;
    if (len > 25) c[1] = 1;
    c[0]++;
}

TEST(chunk_limits_respected)
{
    int c[2] = { 0, 0 };
    int n = st_chunk("One short sentence. Another sentence here! A third one follows? End",
                     25, count_chunk, c);
    CHECK_INT(n, 3);
    CHECK_INT(c[0], 3);
    CHECK_INT(c[1], 0);
    c[0] = c[1] = 0;
    CHECK_INT(st_chunk("short", 25, count_chunk, c), 1);
}

TEST(wordvec_lookup_and_similarity)
{
    rt_embedder *em;
    gn_err e;
    REQUIRE(rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &em, &e) == 0);
    CHECK_INT(rt_embedder_dim(em), 100);
    const char *t[3] = { "romantic dinner for two", "intimate candlelit date night", "parking lot" };
    float v[300];
    REQUIRE(rt_embed(em, t, 3, v, &e) == 0);
    float close = rt_dot(v, v + 100, 100), far = rt_dot(v, v + 200, 100);
    CHECK(close > far);
    CHECK(rt_dot(v, v, 100) > 0.999f);
    rt_embedder_free(em);
}

TEST(wordvec_corrupt_file_reported)
{
    char p[600];
    snprintf(p, sizeof p, "%s/bad.bin", th_tmpdir());
    FILE *f = fopen(p, "wb");
    fputs("GNWV0001garbage", f);
    fclose(f);
    rt_wordvec *wv;
    gn_err e;
    CHECK_INT(rt_wordvec_open(p, &wv, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, "bad.bin");
    CHECK_INT(rt_wordvec_open("/nonexistent/x.bin", &wv, &e), GN_EIO);
}

TEST(kb_open_errors_are_clear)
{
    sqlite3 *db;
    gn_err e;
    CHECK_INT(st_open("/nonexistent/kb.db", 0, &db, &e), GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "no such database");
    char p[600];
    snprintf(p, sizeof p, "%s/junk.db", th_tmpdir());
    FILE *f = fopen(p, "wb");
    for (int i = 0; i < 200; i++) fputs("this is not a database at all ", f);
    fclose(f);
    CHECK_INT(st_open(p, 0, &db, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, "junk.db");
    snprintf(p, sizeof p, "%s/plain.db", th_tmpdir());
    sqlite3_open(p, &db);
    sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK_INT(st_open(p, 0, &db, &e), GN_ECORRUPT);
    CHECK_CONTAINS(e.msg, "not a genie knowledge base");
}

TEST(index_build_then_fresh_then_stale_on_change)
{
    fx f;
    REQUIRE(fx_open(&f, 0) == 0);
    gn_err e;
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "not been indexed");
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), 0);
    /* a change to free text makes it stale */
    sqlite3_exec(f.db, "UPDATE places SET reviews='[\"new\"]' WHERE _id=3", NULL, NULL, NULL);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "data changed");
    rt_index *ix;
    CHECK_INT(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e), GN_ESTALE);
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), 0);
    /* a change to a structured column does not */
    sqlite3_exec(f.db, "UPDATE places SET name='Renamed' WHERE _id=3", NULL, NULL, NULL);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), 0);
    /* inserts and deletes do */
    sqlite3_exec(f.db, "DELETE FROM places WHERE _id=5", NULL, NULL, NULL);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    fx_close(&f);
}

TEST(index_stale_when_side_files_damaged)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    gn_err e;
    char *vp = rt_vec_path(f.path), *fp = rt_faiss_path(f.path);
    REQUIRE(truncate(vp, 600) == 0);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "truncated");
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    unlink(fp);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "missing");
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    /* a vector file from another build of the same database */
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.old'", vp, vp);
    REQUIRE(system(cmd) == 0);
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    snprintf(cmd, sizeof cmd, "mv '%s.old' '%s'", vp, vp);
    REQUIRE(system(cmd) == 0);
    CHECK_INT(rt_index_check(f.db, f.path, f.em, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "another build");
    free(vp);
    free(fp);
    fx_close(&f);
}

TEST(index_stale_for_another_embedder)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    rt_embedder *other;
    gn_err e;
    REQUIRE(rt_embedder_remote_new("http://127.0.0.1:9/v1", "m", NULL, 8, NULL, &other, &e) == 0);
    CHECK_INT(rt_index_check(f.db, f.path, other, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "embedder");
    rt_embedder_free(other);
    fx_close(&f);
}

TEST(search_finds_known_answers)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    rt_index *ix;
    gn_err e;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e) == 0);
    CHECK_INT(rt_index_npassages(ix), 20);
    CHECK_STR(rt_index_kind(ix), "flat");
    /* paraphrase only: no shared word, dense must carry it */
    CHECK_INT(top(ix, "reviews", "romantic evening", RT_DENSE, NULL, 0), 1);
    CHECK_INT(top(ix, "reviews", "romantic evening", RT_HYBRID, NULL, 0), 1);
    CHECK_INT(top(ix, "reviews", "is parking easy", RT_BM25, NULL, 0), 2);
    CHECK_INT(top(ix, "reviews", "is parking easy", RT_HYBRID, NULL, 0), 2);
    CHECK_INT(top(ix, "reviews", "welcoming to children", RT_HYBRID, NULL, 0), 4);
    CHECK_INT(top(ix, "dishes", "raw tuna", RT_HYBRID, NULL, 0), 5);
    CHECK_INT(top(ix, NULL, "noisy", RT_DENSE, NULL, 0), 3);
    /* candidates restrict the ranking */
    int64_t cand[] = { 3, 4, 4, 5 };
    int64_t r = top(ix, "reviews", "romantic evening", RT_HYBRID, cand, 4);
    CHECK(r >= 3 && r <= 5);
    CHECK_INT(top(ix, "reviews", "parking", RT_HYBRID, cand, 0), -1);
    rt_index_close(ix);
    fx_close(&f);
}

/* A large index opens at once and is read in the background: the first
 * search waits for it and finds what a synchronous open finds; a FAISS
 * file damaged behind a valid header, which the open cannot see, fails
 * that search (and the next) with the reason, not a crash or a guess. */
TEST(index_opens_in_background)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    rt_opts o = f.o;
    o.background_from = 1;
    rt_index *ix;
    gn_err e;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &o, &ix, &e) == 0);
    CHECK_INT(rt_index_npassages(ix), 20);
    CHECK_INT(top(ix, "reviews", "romantic evening", RT_HYBRID, NULL, 0), 1);
    CHECK_INT(top(ix, "reviews", "is parking easy", RT_BM25, NULL, 0), 2);
    rt_index_close(ix);
    /* freed while the load may still run */
    REQUIRE(rt_index_open(f.db, f.path, f.em, &o, &ix, &e) == 0);
    rt_index_close(ix);
    /* the body of the FAISS file damaged, its header intact */
    char *fp = rt_faiss_path(f.path);
    FILE *w = fopen(fp, "r+b");
    REQUIRE(w);
    fseek(w, (long)sizeof(faiss_header), SEEK_SET);
    for (int i = 0; i < 64; i++) fputc(0xff, w);
    fclose(w);
    free(fp);
    REQUIRE(rt_index_open(f.db, f.path, f.em, &o, &ix, &e) == 0);
    rt_constraint c = { "reviews", "parking" };
    rt_query q = { .tbl = "places", .cons = &c, .ncons = 1, .k = 5, .mode = RT_HYBRID };
    rt_hit *h = NULL;
    int n = 0;
    CHECK_INT(rt_search(ix, &q, &h, &n, &e), GN_ESTALE);
    CHECK_CONTAINS(e.msg, "unreadable");
    CHECK_INT(rt_search(ix, &q, &h, &n, &e), GN_ESTALE);
    rt_index_close(ix);
    /* opened the usual way, the same file is stale at once */
    CHECK_INT(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e), GN_ESTALE);
    fx_close(&f);
}

/* A row's stored passage vectors are the ones embedding its elements
 * gives; an element cut into chunks, or a text the index has not seen,
 * has none (the caller embeds it). */
TEST(row_vectors_are_the_stored_embeddings)
{
    fx f;
    REQUIRE(fx_open(&f, 0) == 0);
    char longrev[1600];
    size_t at = 0;
    while (at + 40 < sizeof longrev - 1)
        at += (size_t)snprintf(longrev + at, sizeof longrev - at, "The soup was warm and the bread fresh. ");
    char *sql = sqlite3_mprintf("INSERT INTO places VALUES (6, 'Long Review Inn', 'north', "
                                "json_array(%Q, 'Short and sweet.'), '[\"soup\"]')", longrev);
    REQUIRE(sqlite3_exec(f.db, sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_free(sql);
    gn_err e;
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    rt_index *ix;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e) == 0);
    int dim = rt_embedder_dim(f.em);
    const char *ps1[] = { "Perfect spot for a date night, candlelit and intimate.", "The pasta was decent." };
    const char *ps6[] = { longrev, "Short and sweet.", "A review written after the index." };
    float *vec = xcalloc((size_t)dim * 3, sizeof *vec), *emb = NULL;
    unsigned char have[3];
    REQUIRE(rt_row_vectors(ix, "places", "reviews", 1, ps1, 2, dim, vec, have, &e) == 0);
    CHECK(have[0] && have[1]);
    REQUIRE(rt_embed_alloc(f.em, ps1, 2, &emb, &e) == 0);
    double diff = 0;
    for (int i = 0; i < 2 * dim; i++) diff += fabs(vec[i] - emb[i]);
    CHECK(diff < 1e-4);
    free(emb);
    REQUIRE(rt_row_vectors(ix, "places", "reviews", 6, ps6, 3, dim, vec, have, &e) == 0);
    CHECK(!have[0]);                       /* cut into chunks */
    CHECK(have[1]);
    CHECK(!have[2]);                       /* not in the index */
    REQUIRE(rt_embed_alloc(f.em, ps6 + 1, 1, &emb, &e) == 0);
    diff = 0;
    for (int i = 0; i < dim; i++) diff += fabs(vec[dim + i] - emb[i]);
    CHECK(diff < 1e-4);
    free(emb);
    /* the other column's passages are not this one's */
    REQUIRE(rt_row_vectors(ix, "places", "dishes", 1, ps1, 2, dim, vec, have, &e) == 0);
    CHECK(!have[0] && !have[1]);
    CHECK_INT(rt_row_vectors(ix, "places", "name", 1, ps1, 2, dim, vec, have, &e), GN_ENOTFOUND);
    CHECK_INT(rt_row_vectors(ix, "places", "reviews", 1, ps1, 2, dim + 1, vec, have, &e), GN_ESTALE);
    free(vec);
    rt_index_close(ix);
    fx_close(&f);
}

TEST(search_aggregates_constraints)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    rt_index *ix;
    gn_err e;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e) == 0);
    rt_constraint c[2] = { { "reviews", "plenty of parking" }, { "dishes", "cheeseburger" } };
    rt_query q = { .tbl = "places", .cons = c, .ncons = 2, .k = 5, .mode = RT_HYBRID };
    rt_hit *h;
    int n;
    REQUIRE(rt_search(ix, &q, &h, &n, &e) == 0);
    REQUIRE(n >= 2);
    CHECK_INT(h[0].row_id, 2);
    CHECK(h[0].pid[0] >= 0 && h[0].pid[1] >= 0);
    CHECK(h[0].score > h[1].score);
    char *text, *col;
    REQUIRE(rt_passage(ix, h[0].pid[1], &text, NULL, &col, &e) == 0);
    CHECK_STR(col, "dishes");
    CHECK_STR(text, "cheeseburger");
    free(text);
    free(col);
    free(h);
    rt_constraint bad = { "name", "x" };
    q.cons = &bad;
    q.ncons = 1;
    CHECK_INT(rt_search(ix, &q, &h, &n, &e), GN_ENOTFOUND);
    q.tbl = "nope";
    CHECK_INT(rt_search(ix, &q, &h, &n, &e), GN_ENOTFOUND);
    rt_index_close(ix);
    fx_close(&f);
}

TEST(search_hnsw_matches_flat_on_fixture)
{
    fx f;
    REQUIRE(fx_open(&f, 0) == 0);
    f.o.hnsw_threshold = 5;      /* force HNSW on 20 passages */
    f.o.exact_limit = 1;         /* and force the FAISS path */
    gn_err e;
    REQUIRE(rt_index_build(f.db, f.path, f.em, &f.o, NULL, NULL, &e) == 0);
    rt_index *ix;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e) == 0);
    CHECK_STR(rt_index_kind(ix), "hnsw");
    CHECK_INT(top(ix, "reviews", "romantic evening", RT_DENSE, NULL, 0), 1);
    CHECK_INT(top(ix, "reviews", "welcoming to children", RT_HYBRID, NULL, 0), 4);
    int64_t cand[] = { 3, 4, 5 };
    int64_t r = top(ix, "reviews", "romantic evening", RT_DENSE, cand, 3);
    CHECK(r >= 3 && r <= 5);
    rt_index_close(ix);
    fx_close(&f);
}

TEST(lexical_bm25_prefers_rare_terms_and_short_passages)
{
    fx f;
    REQUIRE(fx_open(&f, 1) == 0);
    rt_index *ix;
    gn_err e;
    REQUIRE(rt_index_open(f.db, f.path, f.em, &f.o, &ix, &e) == 0);
    /* "parked" stems to the indexed "parking"; "fresh" is in two rows */
    CHECK_INT(top(ix, "reviews", "parked", RT_BM25, NULL, 0), 2);
    CHECK_INT(top(ix, "dishes", "sashimi", RT_BM25, NULL, 0), 5);
    CHECK_INT(top(ix, "reviews", "zzzunknownword", RT_BM25, NULL, 0), -1);
    rt_index_close(ix);
    fx_close(&f);
}

/* A knowledge base at PATH (in the test's directory) of one table t whose
 * free-text column notes FILL_SQL fills; opened writable into *DB. */
static int notes_kb(char *path, size_t n, const char *name, const char *fill_sql, sqlite3 **db)
{
    snprintf(path, n, "%s/%s", th_tmpdir(), name);
    unlink(path);
    if (sqlite3_open(path, db) != SQLITE_OK) return -1;
    int rc = sqlite3_exec(*db,
        "CREATE TABLE t(_id INTEGER PRIMARY KEY, notes TEXT);"
        "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
        "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
        "INSERT INTO genie_columns VALUES ('t','_id',0,'int',0,0,NULL,NULL),"
        "  ('t','notes',1,'text',0,1,NULL,NULL);", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(*db, fill_sql, NULL, NULL, NULL);
    sqlite3_close(*db);
    gn_err e;
    return rc == SQLITE_OK && st_open(path, 1, db, &e) == 0 ? 0 : -1;
}

TEST(search_over_many_matching_rows)
{
    /* 3000 rows all matching the query: every row map must grow. */
    char path[600];
    sqlite3 *db;
    REQUIRE(notes_kb(path, sizeof path, "many.db",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3000)"
        "  INSERT INTO t SELECT i, 'good food and a friendly host, visit ' || i FROM n;"
        "UPDATE t SET notes = 'good food, good food, wonderful good food' WHERE _id = 1234;",
        &db) == 0);
    rt_embedder *em;
    gn_err e;
    rt_opts o;
    rt_opts_default(&o);
    REQUIRE(rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &em, &e) == 0);
    REQUIRE(rt_index_build(db, path, em, &o, NULL, NULL, &e) == 0);
    rt_index *ix;
    REQUIRE(rt_index_open(db, path, em, &o, &ix, &e) == 0);
    rt_constraint c = { NULL, "good food" };
    rt_query q = { .tbl = "t", .cons = &c, .ncons = 1, .k = 5, .mode = RT_BM25 };
    rt_hit *h;
    int n;
    REQUIRE(rt_search(ix, &q, &h, &n, &e) == 0);
    CHECK_INT(n, 5);
    if (n) CHECK_INT(h[0].row_id, 1234);
    free(h);
    q.mode = RT_HYBRID;
    q.k = 1000;
    REQUIRE(rt_search(ix, &q, &h, &n, &e) == 0);
    CHECK(n >= 400);
    free(h);
    rt_index_close(ix);
    rt_embedder_free(em);
    sqlite3_close(db);
}

/* A wide HNSW search gets as many neighbours as it asks for: FAISS 1.7
 * returns at most about efSearch of them (the rest -1), so the breadth is
 * raised to k first. */
TEST(search_hnsw_wide_search_gets_k_neighbours)
{
    char path[600];
    sqlite3 *db;
    REQUIRE(notes_kb(path, sizeof path, "wide.db",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 2000)"
        "  INSERT INTO t SELECT i, CASE i % 4 WHEN 0 THEN 'quiet patio, good coffee '"
        "    WHEN 1 THEN 'loud music and cold beer ' WHEN 2 THEN 'fresh fish by the water '"
        "    ELSE 'kids menu and a play area ' END || i FROM n;", &db) == 0);
    rt_embedder *em;
    gn_err e;
    rt_opts o;
    rt_opts_default(&o);
    o.hnsw_threshold = 5;
    o.ef_search = 16;
    REQUIRE(rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &em, &e) == 0);
    REQUIRE(rt_index_build(db, path, em, &o, NULL, NULL, &e) == 0);
    rt_index *ix;
    REQUIRE(rt_index_open(db, path, em, &o, &ix, &e) == 0);
    CHECK_STR(rt_index_kind(ix), "hnsw");
    float *qv = NULL;
    const char *text = "a quiet place for coffee";
    REQUIRE(rt_embed_alloc(em, &text, 1, &qv, &e) == 0);
    enum { K = 1000 };
    float *d = xmalloc(sizeof(float) * K);
    idx_t *lab = xmalloc(sizeof(idx_t) * K);
    rt_faiss_ef(ix, K);
    faiss_Index_search(ix->faiss, 1, qv, K, d, lab);
    int valid = 0;
    for (int i = 0; i < K; i++) valid += lab[i] >= 0;
    CHECK_INT(valid, K);
    rt_faiss_ef(ix, 0);                  /* back to the default breadth */
    CHECK_INT(ix->ef, 16);
    free(d);
    free(lab);
    free(qv);
    rt_index_close(ix);
    rt_embedder_free(em);
    sqlite3_close(db);
}

