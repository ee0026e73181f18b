/*
 * retrieval.c — retrieval benchmark: quality (STaRK-style Hit@1, Hit@5,
 * Recall@20, MRR) and speed (index build, startup, hybrid query latency
 * against a plain FTS5 BM25 query in the same process, peak memory).
 *
 * Queries come from the generator's ground truth (_truth_restaurant_attrs):
 * for every (city, cuisine) group of restaurants — the candidate rows the
 * SUQL optimizer would hand over after `location = ... AND ... = ANY
 * (cuisines)` — and every latent attribute (or pair of attributes) that a
 * few of them have, the query is a paraphrase of the attribute and the
 * relevant rows are those whose ground truth is positive.  Rows with the
 * attribute stated negatively ("not romantic at all") are not relevant:
 * that is where keyword matching fails.  Compared: BM25 alone, dense alone,
 * hybrid (the product), and the SUQL paper's linearization baseline (each
 * row flattened to one text and embedded).
 *
 * Usage: bench-retrieval --db FILE --vectors FILE [--quality] [--speed]
 *        [--dense-weight X] [--rrf-k N]   (fusion settings, for tuning)
 */
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "retrieval/search.h"
#include "store/kb.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const struct { const char *attr, *query; } attrs[] = {
    { "romantic", "romantic spot for a date" },
    { "family_friendly", "good place to bring young children" },
    { "parking_easy", "easy to find a place to park the car" },
    { "long_wait", "you have to wait a long time for a table" },
    { "happy_hour", "discounted drinks in the late afternoon" },
    { "patio", "outdoor seating" },
    { "takes_reservations", "can I book a table in advance" },
    { "vegan_options", "options for vegans" },
    { "noisy", "loud place, hard to hold a conversation" },
    { "fast_service", "food comes out quickly" },
    { "good_for_groups", "suitable for a big party of friends" },
    { "dog_friendly", "can I bring my dog" },
    { "good_view", "beautiful scenery from the dining room" },
};
#define NATTR (int)(sizeof attrs / sizeof attrs[0])

static void die(const gn_err *e)
{
    char b[1200];
    fprintf(stderr, "bench: %s\n", gn_err_str(e, b, sizeof b));
    exit(1);
}

/* ---- ground truth ------------------------------------------------------ */
typedef struct { int64_t *rows; long n; } idset;

static idset select_ids(sqlite3 *db, const char *sql)
{
    idset s = { 0 };
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL)) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); exit(1); }
    long cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (s.n == cap) { cap = cap ? cap * 2 : 64; s.rows = xrealloc(s.rows, 8 * (size_t)cap); }
        s.rows[s.n++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return s;
}

static int has(const idset *s, int64_t r)
{
    for (long i = 0; i < s->n; i++) if (s->rows[i] == r) return 1;
    return 0;
}

typedef struct {
    int a1, a2;            /* attribute indexes; a2 = -1 for single */
    idset cand, rel;
} bquery;

static int build_queries(sqlite3 *db, bquery **out, int maxq)
{
    idset groups = select_ids(db,
        "SELECT min(r._id) FROM restaurants r, json_each(r.cuisines) c "
        "GROUP BY r.location, c.value HAVING count(*) BETWEEN 12 AND 80 ORDER BY 1");
    bquery *q = NULL;
    int n = 0, cap = 0;
    for (long g = 0; g < groups.n && n < maxq; g++) {
        char *gsql = sqlite3_mprintf(
            "SELECT r._id FROM restaurants r, json_each(r.cuisines) c, "
            "(SELECT location AS l, json_extract(cuisines,'$[0]') AS cu FROM restaurants WHERE _id=%lld) k "
            "WHERE r.location = k.l AND c.value = k.cu ORDER BY r._id", (long long)groups.rows[g]);
        idset cand = select_ids(db, gsql);
        sqlite3_free(gsql);
        for (int a = 0; a < NATTR && n < maxq; a++)
            for (int b = a; b < NATTR && n < maxq; b++) {
                if (b > a && (a + b + g) % 7) continue;   /* a sample of the pairs */
                char *list = xcalloc(1, 1);
                for (long i = 0; i < cand.n; i++) {
                    char *nl = xasprintf("%s%s%lld", list, i ? "," : "", (long long)cand.rows[i]);
                    free(list);
                    list = nl;
                }
                char *rsql = b == a
                    ? sqlite3_mprintf("SELECT restaurant_id FROM _truth_restaurant_attrs WHERE "
                                      "attr=%Q AND value>0 AND restaurant_id IN (%s)", attrs[a].attr, list)
                    : sqlite3_mprintf("SELECT x.restaurant_id FROM _truth_restaurant_attrs x, "
                                      "_truth_restaurant_attrs y WHERE x.restaurant_id=y.restaurant_id "
                                      "AND x.attr=%Q AND x.value>0 AND y.attr=%Q AND y.value>0 AND "
                                      "x.restaurant_id IN (%s)", attrs[a].attr, attrs[b].attr, list);
                idset rel = select_ids(db, rsql);
                sqlite3_free(rsql);
                free(list);
                if (rel.n == 0 || rel.n * 3 > cand.n) { free(rel.rows); continue; }
                if (n == cap) { cap = cap ? cap * 2 : 64; q = xrealloc(q, sizeof *q * (size_t)cap); }
                idset cc = { xmalloc(8 * (size_t)cand.n), cand.n };
                memcpy(cc.rows, cand.rows, 8 * (size_t)cand.n);
                q[n++] = (bquery){ a, b == a ? -1 : b, cc, rel };
            }
        free(cand.rows);
    }
    free(groups.rows);
    *out = q;
    return n;
}

/* ---- linearization baseline ------------------------------------------- */
typedef struct { int64_t *row; float *vec; long n; int dim; } linear;

static linear linearize(sqlite3 *db, rt_embedder *em)
{
    linear L = { 0 };
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT _id, name || '. ' || cuisines || '. ' || price || '. ' || "
                       "location || '. ' || popular_dishes || '. ' || reviews FROM restaurants "
                       "ORDER BY _id", -1, &st, NULL);
    long cap = 0;
    char **texts = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (L.n == cap) {
            cap = cap ? cap * 2 : 1024;
            L.row = xrealloc(L.row, 8 * (size_t)cap);
            texts = xrealloc(texts, sizeof(char *) * (size_t)cap);
        }
        L.row[L.n] = sqlite3_column_int64(st, 0);
        texts[L.n++] = xstrdup((const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    gn_err e;
    if (rt_embed_alloc(em, (const char *const *)texts, (int)L.n, &L.vec, &e)) die(&e);
    L.dim = rt_embedder_dim(em);
    for (long i = 0; i < L.n; i++) free(texts[i]);
    free(texts);
    return L;
}

/* ---- metrics ----------------------------------------------------------- */
typedef struct { double hit1, hit5, rec20, mrr; int n; } metrics;

static void score(metrics *m, const int64_t *ranked, int n, const idset *rel)
{
    int first = 0, in20 = 0;
    for (int i = 0; i < n && i < 20; i++)
        if (has(rel, ranked[i])) { if (!first) first = i + 1; in20++; }
    for (int i = 20; i < n && !first; i++) if (has(rel, ranked[i])) first = i + 1;
    m->hit1 += first == 1;
    m->hit5 += first >= 1 && first <= 5;
    m->rec20 += (double)in20 / (double)(rel->n < 20 ? rel->n : 20);
    m->mrr += first ? 1.0 / first : 0;
    m->n++;
}

static void print_metrics(const char *name, const metrics *m)
{
    printf("  %-14s Hit@1 %.3f  Hit@5 %.3f  Recall@20 %.3f  MRR %.3f\n", name,
           m->hit1 / m->n, m->hit5 / m->n, m->rec20 / m->n, m->mrr / m->n);
}

static int run_mode(rt_index *ix, const bquery *q, enum rt_mode mode, int64_t *ranked)
{
    rt_constraint c[2] = { { "reviews", attrs[q->a1].query }, { "reviews", q->a2 >= 0 ? attrs[q->a2].query : "" } };
    rt_query rq = { "restaurants", c, q->a2 >= 0 ? 2 : 1, q->cand.rows, q->cand.n, 1, 100, mode };
    rt_hit *h;
    int n;
    gn_err e;
    if (rt_search(ix, &rq, &h, &n, &e)) die(&e);
    for (int i = 0; i < n; i++) ranked[i] = h[i].row_id;
    free(h);
    return n;
}

typedef struct { double s; int64_t r; } scored;
static int by_s(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    return x->s != y->s ? (x->s > y->s ? -1 : 1) : (x->r > y->r) - (x->r < y->r);
}

static int run_linear(const linear *L, rt_embedder *em, const bquery *q, int64_t *ranked)
{
    char *text = q->a2 >= 0 ? xasprintf("%s and %s", attrs[q->a1].query, attrs[q->a2].query)
                            : xstrdup(attrs[q->a1].query);
    float *qv;
    gn_err e;
    const char *t = text;
    if (rt_embed_alloc(em, &t, 1, &qv, &e)) die(&e);
    scored *s = xmalloc(sizeof *s * (size_t)q->cand.n);
    int n = 0;
    for (long i = 0; i < q->cand.n; i++)
        for (long j = 0; j < L->n; j++)
            if (L->row[j] == q->cand.rows[i]) {
                s[n++] = (scored){ rt_dot(qv, L->vec + (size_t)j * L->dim, L->dim), L->row[j] };
                break;
            }
    qsort(s, (size_t)n, sizeof *s, by_s);
    for (int i = 0; i < n; i++) ranked[i] = s[i].r;
    free(s);
    free(qv);
    free(text);
    return n;
}

static void quality(sqlite3 *db, rt_index *ix, rt_embedder *em)
{
    bquery *q;
    int nq = build_queries(db, &q, 600);
    int single = 0;
    for (int i = 0; i < nq; i++) single += q[i].a2 < 0;
    printf("quality: %d queries (%d single-attribute, %d two-attribute), candidates = one "
           "(city, cuisine) group each\n", nq, single, nq - single);
    linear L = linearize(db, em);
    metrics m[4] = { { 0 } };
    int64_t *ranked = xmalloc(8 * 4096);
    for (int i = 0; i < nq; i++) {
        int n = run_mode(ix, &q[i], RT_BM25, ranked);
        /* BM25 leaves rows without a matching word unranked: append them in
         * id order so every method ranks the whole candidate set. */
        for (long c = 0; c < q[i].cand.n; c++) {
            int seen = 0;
            for (int j = 0; j < n && !seen; j++) seen = ranked[j] == q[i].cand.rows[c];
            if (!seen) ranked[n++] = q[i].cand.rows[c];
        }
        score(&m[0], ranked, n, &q[i].rel);
        score(&m[1], ranked, run_mode(ix, &q[i], RT_DENSE, ranked), &q[i].rel);
        score(&m[2], ranked, run_mode(ix, &q[i], RT_HYBRID, ranked), &q[i].rel);
        score(&m[3], ranked, run_linear(&L, em, &q[i], ranked), &q[i].rel);
    }
    print_metrics("bm25", &m[0]);
    print_metrics("dense", &m[1]);
    print_metrics("hybrid", &m[2]);
    print_metrics("linearization", &m[3]);
    printf("  hybrid MRR vs bm25 %.2fx, vs dense %.2fx, vs linearization %.2fx\n",
           m[2].mrr / m[0].mrr, m[2].mrr / m[1].mrr, m[2].mrr / m[3].mrr);
    free(ranked);
    for (int i = 0; i < nq; i++) { free(q[i].cand.rows); free(q[i].rel.rows); }
    free(q);
    free(L.row);
    free(L.vec);
}

/* ---- speed ------------------------------------------------------------- */
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[(int)(p * (n - 1) + 0.5)];
}

static void speed(sqlite3 *db, rt_index *ix)
{
    enum { N = 200 };
    double hyb[N], hybc[N], fts[N];
    idset sf = select_ids(db, "SELECT _id FROM restaurants WHERE location='Palo Alto' ORDER BY _id");
    gn_err e;
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT p.row_id FROM genie_fts JOIN genie_passages p ON p.id = "
                       "genie_fts.rowid WHERE genie_fts MATCH ?1 ORDER BY bm25(genie_fts) LIMIT 10",
                       -1, &st, NULL);
    for (int i = 0; i < N; i++) {
        const char *text = attrs[i % NATTR].query;
        rt_constraint c = { "reviews", text };
        rt_hit *h;
        int n;
        rt_query q = { "restaurants", &c, 1, NULL, 0, 0, 10, RT_HYBRID };
        double t0 = gn_now();
        if (rt_search(ix, &q, &h, &n, &e)) die(&e);
        hyb[i] = (gn_now() - t0) * 1000;
        free(h);
        rt_query qc = { "restaurants", &c, 1, sf.rows, sf.n, 1, 10, RT_HYBRID };
        t0 = gn_now();
        if (rt_search(ix, &qc, &h, &n, &e)) die(&e);
        hybc[i] = (gn_now() - t0) * 1000;
        free(h);
        char *expr = rt_fts_expr(text);
        t0 = gn_now();
        sqlite3_bind_text(st, 1, expr, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(st) == SQLITE_ROW) {}
        sqlite3_reset(st);
        fts[i] = (gn_now() - t0) * 1000;
        free(expr);
    }
    sqlite3_finalize(st);
    double f50 = pct(fts, N, .5), f95 = pct(fts, N, .95);
    double h50 = pct(hyb, N, .5), h95 = pct(hyb, N, .95);
    double c50 = pct(hybc, N, .5), c95 = pct(hybc, N, .95);
    printf("latency (%d queries, top 10, %s index over %ld passages):\n", N, rt_index_kind(ix),
           rt_index_npassages(ix));
    printf("  fts5 bm25 baseline          p50 %7.2f ms  p95 %7.2f ms\n", f50, f95);
    printf("  hybrid, whole table         p50 %7.2f ms  p95 %7.2f ms  (%.2fx / %.2fx of fts5)\n",
           h50, h95, h50 / f50, h95 / f95);
    printf("  hybrid, %5ld candidates    p50 %7.2f ms  p95 %7.2f ms  (%.2fx / %.2fx of fts5)\n",
           sf.n, c50, c95, c50 / f50, c95 / f95);
    free(sf.rows);
}

int main(int argc, char **argv)
{
    const char *dbpath = NULL, *vec = NULL;
    int do_q = 0, do_s = 0, rrf_k = 0;
    double dense_w = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--db") && i + 1 < argc) dbpath = argv[++i];
        else if (!strcmp(argv[i], "--vectors") && i + 1 < argc) vec = argv[++i];
        else if (!strcmp(argv[i], "--quality")) do_q = 1;
        else if (!strcmp(argv[i], "--speed")) do_s = 1;
        else if (!strcmp(argv[i], "--dense-weight") && i + 1 < argc) dense_w = atof(argv[++i]);
        else if (!strcmp(argv[i], "--rrf-k") && i + 1 < argc) rrf_k = atoi(argv[++i]);
    }
    if (!dbpath || !vec) { fprintf(stderr, "usage: bench-retrieval --db FILE --vectors FILE [--quality] [--speed]\n"); return 2; }
    if (!do_q && !do_s) do_q = do_s = 1;
    gn_err e;
    sqlite3 *db;
    rt_embedder *em;
    rt_opts o;
    rt_opts_default(&o);
    if (dense_w >= 0) o.dense_weight = dense_w;
    if (rrf_k > 0) o.rrf_k = rrf_k;
    if (st_open(dbpath, 1, &db, &e)) die(&e);
    if (rt_embedder_glove_new(vec, &em, &e)) die(&e);
    if (rt_index_check(db, dbpath, em, &e)) {
        double t0 = gn_now();
        if (rt_index_build(db, dbpath, em, &o, NULL, NULL, &e)) die(&e);
        printf("index build: %.2f s\n", gn_now() - t0);
    }
    rt_embedder_free(em);
    sqlite3_close(db);
    /* startup: open database, word vectors and index, as genie does */
    double ts[5];
    rt_index *ix = NULL;
    for (int i = 0; i < 5; i++) {
        if (ix) { rt_index_free(ix); rt_embedder_free(em); sqlite3_close(db); }
        double t0 = gn_now();
        if (st_open(dbpath, 1, &db, &e) || rt_embedder_glove_new(vec, &em, &e) ||
            rt_index_open(db, dbpath, em, &o, &ix, &e))
            die(&e);
        ts[i] = (gn_now() - t0) * 1000;
    }
    printf("startup (open database + word vectors + index): median %.1f ms\n", pct(ts, 5, .5));
    if (do_q) quality(db, ix, em);
    if (do_s) speed(db, ix);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory: %.1f MB\n", ru.ru_maxrss / 1024.0);
    rt_index_free(ix);
    rt_embedder_free(em);
    sqlite3_close(db);
    return 0;
}
