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
 * Accents: a second query set asks for the generator's accented dishes
 * ("crème brûlée", "phở gà", "jalapeño poppers", ...) with and without
 * their accents, each over one (city, cuisine) group that serves it; the
 * relevant rows are those with the dish among their popular dishes.  Both
 * query sets also run against the tokenizer and stemmer genie had before
 * (rt_tokenizer_set_legacy: ASCII words, suffix stripping), on a copy of
 * the database indexed with them, so the gain is measured on the same data
 * in the same process.
 *
 * The FTS5 speed baseline is a temporary FTS5 table whose tokenizer is
 * genie's own terms (rt_lex_terms), so it indexes what the postings do.
 *
 * Usage: bench-retrieval --db FILE --vectors FILE [--quality] [--speed]
 *        [--dense-weight X] [--rrf-k N]   (fusion settings, for tuning)
 */
#include "retrieval/embed.h"
#include "retrieval/index.h"
#include "retrieval/lexical.h"
#include "retrieval/search.h"
#include "retrieval/tokenize.h"
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
    printf("  %-16s Hit@1 %.3f  Hit@5 %.3f  Recall@20 %.3f  MRR %.3f\n", name,
           m->hit1 / m->n, m->hit5 / m->n, m->rec20 / m->n, m->mrr / m->n);
}

/* The top 100 of CAND for constraints C[NC] into RANKED; their number. */
static int rank(rt_index *ix, rt_constraint *c, int nc, const idset *cand, enum rt_mode mode,
                int64_t *ranked)
{
    rt_query rq = { .tbl = "restaurants", .cons = c, .ncons = nc, .cand = cand->rows, .ncand = cand->n,
                    .restrict_cand = 1, .k = 100, .mode = mode };
    rt_hit *h;
    int n;
    gn_err e;
    if (rt_search(ix, &rq, &h, &n, &e)) die(&e);
    for (int i = 0; i < n; i++) ranked[i] = h[i].row_id;
    free(h);
    return n;
}

static int run_mode(rt_index *ix, const bquery *q, enum rt_mode mode, int64_t *ranked)
{
    rt_constraint c[2] = { { "reviews", attrs[q->a1].query }, { "reviews", q->a2 >= 0 ? attrs[q->a2].query : "" } };
    return rank(ix, c, q->a2 >= 0 ? 2 : 1, &q->cand, mode, ranked);
}

/* Rank the candidates of one text query over the reviews; BM25 leaves rows
 * without a matching word unranked, so they are appended in id order. */
static int run_text(rt_index *ix, const char *text, const idset *cand, enum rt_mode mode,
                    int64_t *ranked)
{
    rt_constraint c = { "reviews", text };
    int n = rank(ix, &c, 1, cand, mode, ranked);
    for (long c2 = 0; c2 < cand->n && mode == RT_BM25; c2++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = ranked[j] == cand->rows[c2];
        if (!seen) ranked[n++] = cand->rows[c2];
    }
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

/* ---- accents ----------------------------------------------------------- */
static const struct { const char *accented, *plain; } dishes[] = {
    { "crème brûlée", "creme brulee" }, { "niçoise salad", "nicoise salad" },
    { "chocolate soufflé", "chocolate souffle" }, { "sole meunière", "sole meuniere" },
    { "pâté", "pate" }, { "soufflé pancakes", "souffle pancakes" },
    { "jalapeño poppers", "jalapeno poppers" }, { "phở gà", "pho ga" },
    { "phở tái", "pho tai" }, { "éclair", "eclair" },
};
#define NDISH (int)(sizeof dishes / sizeof dishes[0])

typedef struct { int dish; idset cand, rel; } aquery;

static int build_accent_queries(sqlite3 *db, aquery **out)
{
    aquery *q = NULL;
    int n = 0, cap = 0;
    for (int d = 0; d < NDISH; d++) {
        char *has_dish = sqlite3_mprintf("EXISTS (SELECT 1 FROM json_each(r.popular_dishes) "
                                         "WHERE value = %Q)", dishes[d].accented);
        char *gsql = sqlite3_mprintf("SELECT min(r._id) FROM restaurants r, json_each(r.cuisines) c "
                                     "WHERE %s GROUP BY r.location, c.value ORDER BY 1", has_dish);
        idset groups = select_ids(db, gsql);
        sqlite3_free(gsql);
        for (long g = 0; g < groups.n; g++) {
            const char *pick = "SELECT r._id FROM restaurants r, json_each(r.cuisines) c, "
                "(SELECT location AS l, c2.value AS cu FROM restaurants x, json_each(x.cuisines) c2 "
                " WHERE x._id = %lld AND EXISTS (SELECT 1 FROM json_each(x.popular_dishes) "
                " WHERE value = %Q) LIMIT 1) k WHERE r.location = k.l AND c.value = k.cu %s%s "
                "ORDER BY r._id";
            char *csql = sqlite3_mprintf(pick, (long long)groups.rows[g], dishes[d].accented, "", "");
            char *rsql = sqlite3_mprintf(pick, (long long)groups.rows[g], dishes[d].accented, "AND ",
                                         has_dish);
            idset cand = select_ids(db, csql), rel = select_ids(db, rsql);
            sqlite3_free(csql);
            sqlite3_free(rsql);
            if (cand.n < 5 || rel.n == 0 || rel.n == cand.n) {
                free(cand.rows);
                free(rel.rows);
                continue;
            }
            if (n == cap) { cap = cap ? cap * 2 : 64; q = xrealloc(q, sizeof *q * (size_t)cap); }
            q[n++] = (aquery){ d, cand, rel };
        }
        free(groups.rows);
        sqlite3_free(has_dish);
    }
    *out = q;
    return n;
}

static void accents(sqlite3 *db, rt_index *ix)
{
    aquery *q;
    int nq = build_accent_queries(db, &q);
    printf("accents: %d dish queries over %d dishes, each asked with and without its accents, "
           "candidates = one (city, cuisine) group serving it\n", nq, NDISH);
    static const enum rt_mode modes[3] = { RT_BM25, RT_DENSE, RT_HYBRID };
    static const char *const names[2][3] = { { "bm25, accented", "dense, accented", "hybrid, accented" },
                                             { "bm25, plain", "dense, plain", "hybrid, plain" } };
    int64_t *ranked = xmalloc(8 * 4096);
    for (int form = 0; form < 2; form++)
        for (int m = 0; m < 3; m++) {
            metrics mt = { 0 };
            for (int i = 0; i < nq; i++) {
                const char *text = form ? dishes[q[i].dish].plain : dishes[q[i].dish].accented;
                score(&mt, ranked, run_text(ix, text, &q[i].cand, modes[m], ranked), &q[i].rel);
            }
            if (nq) print_metrics(names[form][m], &mt);
        }
    free(ranked);
    for (int i = 0; i < nq; i++) { free(q[i].cand.rows); free(q[i].rel.rows); }
    free(q);
}

/* The same quality measures with the tokenizer and stemmer genie had before,
 * on a copy of the database indexed with them. */
static void baseline(sqlite3 *db, const char *dbpath, const char *vec, const rt_opts *o)
{
    char *copy = xasprintf("%s.legacy.db", dbpath);
    const char *sfx[] = { "", ".vec", ".faiss", ".lex" };
    for (int i = 0; i < 4; i++) {
        char *f = xasprintf("%s%s", copy, sfx[i]);
        unlink(f);
        free(f);
    }
    char *sql = sqlite3_mprintf("VACUUM INTO %Q", copy);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL)) {
        fprintf(stderr, "bench: copying the database: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_free(sql);
    rt_tokenizer_set_legacy(1);
    printf("baseline: the tokenizer and stemmer before (ASCII words, suffix stripping), same data\n");
    gn_err e;
    sqlite3 *cdb;
    rt_embedder *em;
    rt_index *ix;
    if (st_open(copy, 1, &cdb, &e) || rt_embedder_glove_new(vec, &em, &e)) die(&e);
    if (rt_index_build(cdb, copy, em, o, NULL, NULL, &e) || rt_index_open(cdb, copy, em, o, &ix, &e))
        die(&e);
    quality(cdb, ix, em);
    accents(cdb, ix);
    rt_index_close(ix);
    rt_embedder_free(em);
    sqlite3_close(cdb);
    rt_tokenizer_set_legacy(0);
    for (int i = 0; i < 4; i++) {
        char *f = xasprintf("%s%s", copy, sfx[i]);
        unlink(f);
        free(f);
    }
    free(copy);
}

/* ---- FTS5 baseline ------------------------------------------------------ */
/* A tokenizer made of genie's own terms, so FTS5 indexes what the postings
 * hold; registered on the benchmark's connection only. */
typedef int (*fts_token_fn)(void *, int, const char *, int, int, int);
typedef struct { void *ctx; fts_token_fn tok; int rc; } fts_emit;

static void fts_term(const char *t, int len, void *ud)
{
    fts_emit *f = ud;
    if (!f->rc) f->rc = f->tok(f->ctx, 0, t, len, 0, 0);
}

static int fts_create(void *p, const char **arg, int narg, Fts5Tokenizer **out)
{
    (void)arg; (void)narg;
    *out = p;
    return SQLITE_OK;
}

static void fts_delete(Fts5Tokenizer *t) { (void)t; }

static int fts_tokenize(Fts5Tokenizer *t, void *ctx, int flags, const char *text, int n,
                        fts_token_fn tok)
{
    (void)t; (void)flags;
    char *s = xmalloc((size_t)n + 1);
    memcpy(s, text, (size_t)n);
    s[n] = 0;
    fts_emit f = { ctx, tok, SQLITE_OK };
    rt_lex_terms(s, fts_term, &f);
    free(s);
    return f.rc;
}

static void fts_setup(sqlite3 *db)
{
    static fts5_tokenizer tk = { fts_create, fts_delete, fts_tokenize };
    static char self;
    fts5_api *api = NULL;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
        sqlite3_step(st);
        sqlite3_finalize(st);
    }
    double t0 = gn_now();
    if (!api || api->xCreateTokenizer(api, "genie", &self, &tk, NULL) ||
        sqlite3_exec(db, "DROP TABLE IF EXISTS temp.bench_fts;"
                     "CREATE VIRTUAL TABLE temp.bench_fts USING fts5(text, tokenize='genie');"
                     "INSERT INTO temp.bench_fts(rowid, text) SELECT id, text FROM genie_passages",
                     NULL, NULL, NULL)) {
        fprintf(stderr, "bench: FTS5 baseline: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
    printf("fts5 baseline table (genie's terms): built in %.2f s\n", gn_now() - t0);
}

/* The MATCH expression: each term, quoted, ORed (the quoted term goes
 * through the same tokenizer, which stems it again: stems are fixed
 * points for the words the queries use). */
static void fts_or(const char *t, int len, void *ud)
{
    gn_buf *b = ud;
    char term[80];
    snprintf(term, sizeof term, "\"%.*s\"", len, t);
    if (b->data && strstr(b->data, term)) return;
    gn_buf_printf(b, "%s%s", b->len ? " OR " : "", term);
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
    fts_setup(db);
    sqlite3_prepare_v2(db, "SELECT p.row_id FROM temp.bench_fts f JOIN genie_passages p ON p.id = "
                       "f.rowid WHERE bench_fts MATCH ?1 ORDER BY bm25(bench_fts) LIMIT 10",
                       -1, &st, NULL);
    for (int i = 0; i < N; i++) {
        const char *text = attrs[i % NATTR].query;
        rt_constraint c = { "reviews", text };
        rt_hit *h;
        int n;
        rt_query q = { .tbl = "restaurants", .cons = &c, .ncons = 1, .k = 10, .mode = RT_HYBRID };
        double t0 = gn_now();
        if (rt_search(ix, &q, &h, &n, &e)) die(&e);
        hyb[i] = (gn_now() - t0) * 1000;
        free(h);
        rt_query qc = { .tbl = "restaurants", .cons = &c, .ncons = 1, .cand = sf.rows, .ncand = sf.n,
                        .restrict_cand = 1, .k = 10, .mode = RT_HYBRID };
        t0 = gn_now();
        if (rt_search(ix, &qc, &h, &n, &e)) die(&e);
        hybc[i] = (gn_now() - t0) * 1000;
        free(h);
        gn_buf eb;
        gn_buf_init(&eb);
        rt_lex_terms(text, fts_or, &eb);
        char *expr = gn_buf_detach(&eb);
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

/* ---- breadth: recall@10 of the approximate search --------------------------
 *
 * The hybrid top 10 over the whole table (the approximate dense search's
 * case at scale 10 and up) for each breadth tried, against the same
 * search with the dense ranking by an exact scan: recall@10 is the share
 * of the exact top 10 found, p50 the search's latency.  Breadth 8 at
 * depth 100 is the search before it was chosen by measurement. */
static const char *const breadth_queries[] = {
    "quiet place to read", "live music on weekends", "friendly staff", "the portions are huge",
    "spicy food", "fresh seafood", "cozy atmosphere", "great cocktails", "rude waiter",
    "authentic recipes from the old country", "open late at night", "cheap lunch specials",
    "homemade desserts", "vegetarian dishes", "too salty", "birthday celebration",
    "business meeting", "the music was too loud", "beautiful decor", "long line outside",
};
#define NBQ (int)(sizeof breadth_queries / sizeof breadth_queries[0])

static void breadth(rt_index *ix, enum rt_mode mode)
{
    static const struct { int depth; double breadth; } tries[] = {
        { 100, 16 }, { 100, 8 }, { 100, 4 }, { 100, 2 }, { 40, 2 },
    };
    enum { NT = sizeof tries / sizeof tries[0], NQ = NATTR + NBQ, REP = 5 };
    gn_err e;
    int64_t exact[NQ][10];
    int nexact[NQ];
    float tenth[NQ];          /* dense: the exact 10th row's similarity */
    double ms[NQ * REP];
    for (int i = 0; i < NQ; i++) {
        rt_constraint c = { "reviews", i < NATTR ? attrs[i].query : breadth_queries[i - NATTR] };
        rt_query q = { .tbl = "restaurants", .cons = &c, .ncons = 1, .k = 10, .mode = mode, .exact = 1 };
        rt_hit *h;
        if (rt_search(ix, &q, &h, &nexact[i], &e)) die(&e);
        for (int j = 0; j < nexact[i]; j++) exact[i][j] = h[j].row_id;
        tenth[i] = nexact[i] ? h[nexact[i] - 1].sim[0] : 0;
        free(h);
    }
    printf("breadth of the approximate search, %s (%d queries over the whole table, top 10; "
           "recall@10 against the exact dense scan):\n", mode == RT_DENSE ? "dense alone" : "hybrid", NQ);
    for (int t = 0; t < NT; t++) {
        long found = 0, want = 0, good = 0;
        for (int r = 0; r < REP; r++)
            for (int i = 0; i < NQ; i++) {
                rt_constraint c = { "reviews", i < NATTR ? attrs[i].query : breadth_queries[i - NATTR] };
                rt_query q = { .tbl = "restaurants", .cons = &c, .ncons = 1, .k = 10, .mode = mode,
                               .depth_min = tries[t].depth, .breadth = tries[t].breadth };
                rt_hit *h;
                int n;
                double t0 = gn_now();
                if (rt_search(ix, &q, &h, &n, &e)) die(&e);
                ms[r * NQ + i] = (gn_now() - t0) * 1000;
                for (int j = 0; r == 0 && j < nexact[i]; j++) {
                    want++;
                    for (int k = 0; k < n; k++) found += h[k].row_id == exact[i][j];
                }
                for (int k = 0; r == 0 && k < n && k < nexact[i]; k++)
                    good += h[k].sim[0] >= tenth[i] - 1e-6f;
                free(h);
            }
        printf("  depth %3d, breadth %4.1f%s  p50 %6.2f ms  p95 %6.2f ms  recall@10 %.3f",
               tries[t].depth, tries[t].breadth,
               tries[t].depth == RT_DEPTH_MIN && tries[t].breadth == RT_BREADTH ? " (default)" : "          ",
               pct(ms, NQ * REP, .5), pct(ms, NQ * REP, .95), want ? (double)found / (double)want : 0.0);
        if (mode == RT_DENSE)        /* a row as near as the exact 10th is as good, tied or not */
            printf("  as near as the 10th %.3f", want ? (double)good / (double)want : 0.0);
        printf("\n");
    }
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
        if (ix) { rt_index_close(ix); rt_embedder_free(em); sqlite3_close(db); }
        double t0 = gn_now();
        if (st_open(dbpath, 1, &db, &e) || rt_embedder_glove_new(vec, &em, &e) ||
            rt_index_open(db, dbpath, em, &o, &ix, &e))
            die(&e);
        ts[i] = (gn_now() - t0) * 1000;
    }
    printf("startup (open database + word vectors + index): median %.1f ms\n", pct(ts, 5, .5));
    if (do_q) {
        quality(db, ix, em);
        accents(db, ix);
    }
    if (do_s) speed(db, ix);
    if (do_s && !strcmp(rt_index_kind(ix), "hnsw")) {
        breadth(ix, RT_HYBRID);
        breadth(ix, RT_DENSE);
    }
    if (do_q) baseline(db, dbpath, vec, &o);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory: %.1f MB\n", ru.ru_maxrss / 1024.0);
    rt_index_close(ix);
    rt_embedder_free(em);
    sqlite3_close(db);
    return 0;
}
