/*
 * search.c — hybrid row ranking (see search.h for the scoring).
 *
 * Dense ranking takes one of two paths.  Exact: when the rows to rank hold at
 * most opts.exact_limit passages (candidates given, or a small table), their
 * vectors are scanned straight from the mapped vector file, row by row, since
 * one row's passages are contiguous.  Approximate: otherwise FAISS returns the
 * nearest passages, which are filtered (table, column, candidates) and folded
 * into rows best-first, widening the search until enough rows are found.
 * Lexical ranking scores the BM25 postings (lexical.h), skipping passages
 * outside the columns and candidates.  Both rankings keep each row's best
 * passage.  Rejected: scoring rows by the mean of their passages (one
 * strong review about parking must beat twenty silent ones), and a linear
 * mix of raw scores (BM25 and cosine are on unrelated scales; ranks are not).
 */
#include "search.h"
#include "index_int.h"
#include "util/xmem.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct { int64_t row; float sim; int64_t pid; } rowscore;
typedef struct { rowscore *v; int n, cap; } rowlist;

static void push(rowlist *l, int64_t row, float sim, int64_t pid)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = xrealloc(l->v, sizeof(rowscore) * (size_t)l->cap);
    }
    l->v[l->n++] = (rowscore){ row, sim, pid };
}

static int by_sim(const void *a, const void *b)
{
    const rowscore *x = a, *y = b;
    if (x->sim != y->sim) return x->sim > y->sim ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- a small int64 -> slot hash map (grows at half full) ------------- */
typedef struct { int64_t *key; int *val; size_t mask, count; } i64map;

static void map_init(i64map *m, size_t n)
{
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    m->key = xmalloc(sizeof(int64_t) * cap);
    m->val = xmalloc(sizeof(int) * cap);
    for (size_t i = 0; i < cap; i++) m->val[i] = -1;
    m->mask = cap - 1;
    m->count = 0;
}

static void map_release(i64map *m) { free(m->key); free(m->val); }

static size_t map_find(const i64map *m, int64_t k)
{
    size_t h = (size_t)((uint64_t)k * 0x9E3779B97F4A7C15ull >> 20) & m->mask;
    while (m->val[h] >= 0 && m->key[h] != k) h = (h + 1) & m->mask;
    return h;
}

/* The value slot of K (-1 when new: the caller stores a value >= 0). */
static int *map_slot(i64map *m, int64_t k)
{
    if ((m->count + 1) * 2 > m->mask + 1) {
        i64map g;
        map_init(&g, m->mask + 1);
        for (size_t i = 0; i <= m->mask; i++)
            if (m->val[i] >= 0) {
                size_t h = map_find(&g, m->key[i]);
                g.key[h] = m->key[i];
                g.val[h] = m->val[i];
            }
        g.count = m->count;
        map_release(m);
        *m = g;
    }
    size_t h = map_find(m, k);
    if (m->val[h] < 0) { m->key[h] = k; m->count++; }
    return &m->val[h];
}

/* ---- query context ----------------------------------------------------- */
typedef struct {
    rt_index *ix;
    const rt_query *q;
    int64_t *cand;            /* sorted, unique */
    long ncand;
    long lo, hi;              /* passage segment of the table */
    unsigned char *allowed;   /* per source, for the current constraint */
    int depth;                /* rows per ranking */
} qctx;

static int in_cand(const qctx *c, int64_t row)
{
    if (!c->q->restrict_cand) return 1;
    if (c->ncand == 0) return 0;
    return bsearch(&row, c->cand, (size_t)c->ncand, sizeof(int64_t), cmp_i64) != NULL;
}

/* The first passage at or after FROM in the segment whose row is >= ROW
 * (hi when none): galloping, so walking sorted candidates through the
 * segment costs O(log gap) a candidate, not O(log passages). */
static long seek_row(const qctx *c, long from, int64_t row)
{
    const int64_t *r = c->ix->row;
    if (from >= c->hi || r[from] >= row) return from;
    long lo = from, step = 1, hi = from + 1;        /* r[lo] < row */
    while (hi < c->hi && r[hi] < row) {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    if (hi > c->hi) hi = c->hi;
    while (lo + 1 < hi) {                           /* r[lo] < row <= r[hi] (or hi = end) */
        long m = lo + (hi - lo) / 2;
        if (r[m] < row) lo = m; else hi = m;
    }
    return hi;
}

static void best_of_row(const qctx *c, long p, const float *qv, rowlist *out)
{
    const rt_index *ix = c->ix;
    int64_t row = ix->row[p];
    float best = -2;
    long bp = -1;
    for (; p < c->hi && ix->row[p] == row; p++) {
        if (!c->allowed[ix->src[p]]) continue;
        float s = rt_dot(qv, ix->vec + (size_t)p * ix->dim, ix->dim);
        if (s > best) { best = s; bp = p; }
    }
    if (bp >= 0) push(out, row, best, bp);
}

static void dense_exact(const qctx *c, const float *qv, rowlist *out)
{
    if (c->q->restrict_cand) {
        long p = c->lo;
        for (long i = 0; i < c->ncand; i++) {
            p = seek_row(c, p, c->cand[i]);
            if (p < c->hi && c->ix->row[p] == c->cand[i]) best_of_row(c, p, qv, out);
        }
        return;
    }
    for (long p = c->lo; p < c->hi;) {
        int64_t row = c->ix->row[p];
        best_of_row(c, p, qv, out);
        while (p < c->hi && c->ix->row[p] == row) p++;
    }
}

/* FAISS nearest passages, folded into rows best-first, widening the search
 * up to RT_FAISS_KMAX passages (HNSW cost grows with k, and past a few
 * thousand an exact scan is cheaper); returns 0 when that was not enough.
 *
 * The breadth: a row's nearest passages crowd together (a row's reviews
 * are alike), so DEPTH rows take more passages than rows, and only the
 * passages of the table's column (and of the candidates) count.  The
 * first search asks for RT_BREADTH passages per row wanted (at least
 * RT_FAISS_KMIN); FAISS's efSearch is the number asked (HNSW needs
 * efSearch >= k), so the breadth is what the search costs, and the
 * widening keeps it complete.  BENCH=retrieval
 * measures recall@10 against an exact scan for the breadths it tries: at
 * scale 10 the graph (efConstruction 20), not the breadth, bounds it (the
 * dense top 10 found: 0.65 and 0.89 at 8 passages a row in two builds,
 * 0.67 at 16, 0.61 at 2), so the breadth stays 8.  Rejected: re-scoring
 * the rows found exactly (by all of their passages): the same recall, the
 * rows missing being those the graph does not reach. */
#define RT_FAISS_KMAX 4096
#define RT_FAISS_KMIN 256

static int dense_faiss(const qctx *c, const float *qv, rowlist *out)
{
    rt_index *ix = c->ix;
    double ask = (double)c->depth * (c->q->breadth > 0 ? c->q->breadth : RT_BREADTH);
    long kq = ask > RT_FAISS_KMAX ? RT_FAISS_KMAX : ask < RT_FAISS_KMIN ? RT_FAISS_KMIN : (long)ceil(ask);
    for (;;) {
        if (kq > ix->n) kq = ix->n;
        float *d = xmalloc(sizeof(float) * (size_t)kq);
        idx_t *lab = xmalloc(sizeof(idx_t) * (size_t)kq);
        rt_faiss_ef(ix, kq);
        /* One query is one thread's work: FAISS would wake an OpenMP team
         * for it whose threads then spin, idle, on the other cores.  The
         * calling thread's own setting, restored (a build on this thread
         * later still uses every core). */
        int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        faiss_Index_search(ix->faiss, 1, qv, kq, d, lab);
        omp_set_num_threads(threads);
        i64map seen;
        map_init(&seen, (size_t)c->depth);
        out->n = 0;
        for (long i = 0; i < kq && out->n < c->depth; i++) {
            idx_t p = lab[i];
            if (p < c->lo || p >= c->hi || !c->allowed[ix->src[p]] || !in_cand(c, ix->row[p]))
                continue;
            int *slot = map_slot(&seen, ix->row[p]);
            if (*slot >= 0) continue;
            *slot = out->n;
            push(out, ix->row[p], d[i], p);
        }
        map_release(&seen);
        free(d);
        free(lab);
        if (out->n >= c->depth || kq >= ix->n) return 1;
        /* Four times the passages find about four times the rows: when
         * that is still too few, the exact scan is the cheaper way. */
        if (kq >= RT_FAISS_KMAX || (long)out->n * 4 < c->depth) return 0;
        kq *= 4;
    }
}

/* Passages the exact scan would read (counted up to just past the limit). */
static long exact_span(const qctx *c)
{
    if (!c->q->restrict_cand) return c->hi - c->lo;
    long span = 0, p = c->lo;
    for (long i = 0; i < c->ncand && span <= c->ix->opts.exact_limit; i++)
        for (p = seek_row(c, p, c->cand[i]); p < c->hi && c->ix->row[p] == c->cand[i]; p++)
            span++;
    return span;
}

static void dense_rank(const qctx *c, const float *qv, rowlist *out)
{
    out->n = 0;
    if (!c->q->exact && exact_span(c) > c->ix->opts.exact_limit && dense_faiss(c, qv, out)) return;
    out->n = 0;
    dense_exact(c, qv, out);
    if (out->n > 1) qsort(out->v, (size_t)out->n, sizeof(rowscore), by_sim);
    if (out->n > c->depth) out->n = c->depth;
}

/* ---- lexical ----------------------------------------------------------- */
/* Lexical ranking through the BM25 postings: passages outside the table,
 * the constraint's columns or the candidate rows are skipped.  Only the best
 * M passages are kept (a min-heap), then folded into rows best-first: the
 * rows of the top M passages, ranked by their best passage among them, are
 * exactly the top rows by best passage.  Folding every matching passage
 * instead cost ~50 ms a query at 6 million passages. */
typedef struct { float score; long pid; } scored_pid;
typedef struct { const qctx *c; scored_pid *heap; int n, cap; } lex_ctx;

static int lex_keep(long pid, void *ud)
{
    const qctx *c = ((lex_ctx *)ud)->c;
    if (pid < c->lo || pid >= c->hi || !c->allowed[c->ix->src[pid]]) return 0;
    return !c->q->restrict_cand || c->ix->candmask[pid];
}

static void heap_down(scored_pid *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < n && h[l].score < h[m].score) m = l;
        if (l + 1 < n && h[l + 1].score < h[m].score) m = l + 1;
        if (m == i) return;
        scored_pid t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

static void lex_hit(long pid, float score, void *ud)
{
    lex_ctx *l = ud;
    if (l->n < l->cap) {
        int i = l->n++;
        l->heap[i] = (scored_pid){ score, pid };
        while (i > 0 && l->heap[(i - 1) / 2].score > l->heap[i].score) {
            scored_pid t = l->heap[i]; l->heap[i] = l->heap[(i - 1) / 2]; l->heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (score > l->heap[0].score) {
        l->heap[0] = (scored_pid){ score, pid };
        heap_down(l->heap, l->n, 0);
    }
}

static int by_score_desc(const void *a, const void *b)
{
    const scored_pid *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

static void bm25_rank(const qctx *c, const char *text, rowlist *out)
{
    out->n = 0;
    lex_ctx l = { c, NULL, 0, c->depth * 8 };
    l.heap = xmalloc(sizeof(scored_pid) * (size_t)l.cap);
    rt_lex_score(c->ix->lex, text, lex_keep, lex_hit, &l);
    if (l.n > 1) qsort(l.heap, (size_t)l.n, sizeof(scored_pid), by_score_desc);
    i64map rows;
    map_init(&rows, (size_t)l.n);
    for (int i = 0; i < l.n && out->n < c->depth; i++) {
        int64_t row = c->ix->row[l.heap[i].pid];
        int *slot = map_slot(&rows, row);
        if (*slot >= 0) continue;
        *slot = out->n;
        push(out, row, NAN, l.heap[i].pid);   /* NAN: a BM25 score, not a similarity */
    }
    map_release(&rows);
    free(l.heap);
}

/* Mark (value 1) or clear (0) the passages of the candidate rows. */
static void cand_mask(const qctx *c, unsigned char v)
{
    rt_index *ix = c->ix;
    if (!ix->candmask) ix->candmask = xcalloc((size_t)ix->n + 1, 1);
    long p = c->lo;
    for (long i = 0; i < c->ncand; i++)
        for (p = seek_row(c, p, c->cand[i]); p < c->hi && ix->row[p] == c->cand[i]; p++)
            ix->candmask[p] = v;
}

/* ---- fusion ------------------------------------------------------------ */
typedef struct { rt_hit *v; int n, cap; i64map map; } fused;

static rt_hit *hit_for(fused *f, int64_t row)
{
    int *slot = map_slot(&f->map, row);
    if (*slot < 0) {
        if (f->n == f->cap) {
            f->cap = f->cap ? f->cap * 2 : 64;
            f->v = xrealloc(f->v, sizeof(rt_hit) * (size_t)f->cap);
        }
        rt_hit *h = &f->v[f->n];
        memset(h, 0, sizeof *h);
        h->row_id = row;
        for (int i = 0; i < RT_MAXCONS; i++) { h->pid[i] = -1; h->sim[i] = NAN; }
        *slot = f->n++;
    }
    return &f->v[*slot];
}

static void fuse(fused *f, const rowlist *l, int ci, double w, int K, const rt_index *ix,
                 const float *qv)
{
    for (int r = 0; r < l->n; r++) {
        rt_hit *h = hit_for(f, l->v[r].row);
        h->score += w / (K + r + 1);
        if (h->pid[ci] < 0) {
            h->pid[ci] = l->v[r].pid;
            h->sim[ci] = isnan(l->v[r].sim)
                ? rt_dot(qv, ix->vec + (size_t)l->v[r].pid * ix->dim, ix->dim) : l->v[r].sim;
        }
    }
}

static int by_score(const void *a, const void *b)
{
    const rt_hit *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return x->row_id < y->row_id ? -1 : x->row_id > y->row_id;
}

static int set_allowed(qctx *c, const rt_constraint *k, gn_err *e)
{
    int any_tbl = 0, any = 0;
    for (int s = 0; s < c->ix->nsrc; s++) {
        const rt_source *src = &c->ix->srcs[s];
        int t = strcasecmp(src->tbl, c->q->tbl) == 0;
        any_tbl |= t;
        c->allowed[s] = t && (!k->col || strcasecmp(src->col, k->col) == 0);
        if (c->allowed[s]) { any = 1; c->lo = src->lo; c->hi = src->hi; }
    }
    if (!any_tbl) return gn_err_set(e, GN_ENOTFOUND, "table %s has no free-text column", c->q->tbl);
    if (!any) return gn_err_set(e, GN_ENOTFOUND, "%s.%s is not a free-text column", c->q->tbl, k->col);
    return 0;
}

static int prepare(qctx *c, rt_index *ix, const rt_query *q, gn_err *e)
{
    memset(c, 0, sizeof *c);
    c->ix = ix;
    c->q = q;
    if (q->ncons < 1 || q->ncons > RT_MAXCONS || q->k < 1)
        return gn_err_set(e, GN_EUSAGE, "a search needs 1 to %d constraints and k >= 1", RT_MAXCONS);
    int dmin = q->depth_min > 0 ? q->depth_min : RT_DEPTH_MIN;
    c->depth = q->k * 4 > dmin ? q->k * 4 : dmin;
    if (q->restrict_cand && q->ncand > 0) {
        c->cand = xmalloc(sizeof(int64_t) * (size_t)q->ncand);
        memcpy(c->cand, q->cand, sizeof(int64_t) * (size_t)q->ncand);
        long sorted = 1;
        while (sorted < q->ncand && c->cand[sorted - 1] <= c->cand[sorted]) sorted++;
        if (sorted < q->ncand) qsort(c->cand, (size_t)q->ncand, sizeof(int64_t), cmp_i64);
        long u = 0;
        for (long i = 0; i < q->ncand; i++)
            if (!u || c->cand[u - 1] != c->cand[i]) c->cand[u++] = c->cand[i];
        c->ncand = u;
    }
    c->allowed = xcalloc((size_t)ix->nsrc + 1, 1);
    return 0;
}

int rt_search(rt_index *ix, const rt_query *q, rt_hit **out, int *nout, gn_err *e)
{
    *out = NULL;
    *nout = 0;
    int rc = rt_index_ready(ix, e);
    if (rc) return rc;
    qctx c;
    rc = prepare(&c, ix, q, e);
    fused f = { 0 };
    map_init(&f.map, 256);
    rowlist dl = { 0 }, bl = { 0 };
    float *qv = NULL;
    double w = q->mode == RT_DENSE ? 1 : q->mode == RT_BM25 ? 0 : ix->opts.dense_weight;
    int masked = 0;
    for (int i = 0; i < q->ncons && !rc; i++) {
        rc = set_allowed(&c, &q->cons[i], e);
        if (!rc && !masked && q->restrict_cand && w < 1) { cand_mask(&c, 1); masked = 1; }
        if (!rc) rc = rt_embed_alloc(ix->em, &q->cons[i].text, 1, &qv, e);
        if (!rc && rt_embedder_dim(ix->em) != ix->dim)
            rc = gn_err_set(e, GN_ESTALE, "query embedding has %d dimensions, the index %d",
                            rt_embedder_dim(ix->em), ix->dim);
        if (!rc && w > 0) dense_rank(&c, qv, &dl);
        if (!rc && w < 1) bm25_rank(&c, q->cons[i].text, &bl);
        if (!rc && w > 0) fuse(&f, &dl, i, w, ix->opts.rrf_k, ix, qv);
        if (!rc && w < 1) fuse(&f, &bl, i, 1 - w, ix->opts.rrf_k, ix, qv);
        free(qv);
        qv = NULL;
    }
    if (masked) cand_mask(&c, 0);
    if (!rc) {
        if (f.n > 1) qsort(f.v, (size_t)f.n, sizeof(rt_hit), by_score);
        *nout = f.n < q->k ? f.n : q->k;
        *out = f.v;
    } else {
        free(f.v);
    }
    map_release(&f.map);
    free(dl.v);
    free(bl.v);
    free(c.cand);
    free(c.allowed);
    return rc;
}

int rt_row_vectors(rt_index *ix, const char *tbl, const char *col, int64_t row,
                   const char *const *ps, int n, int dim, float *vec, unsigned char *have,
                   gn_err *e)
{
    memset(have, 0, (size_t)n);
    int rc = rt_index_ready(ix, e);
    if (rc) return rc;
    if (dim != ix->dim)
        return gn_err_set(e, GN_ESTALE, "the index's vectors have %d dimensions, not %d", ix->dim, dim);
    int s = -1;
    for (int i = 0; i < ix->nsrc && s < 0; i++)
        if (!strcasecmp(ix->srcs[i].tbl, tbl) && !strcasecmp(ix->srcs[i].col, col)) s = i;
    if (s < 0) return gn_err_set(e, GN_ENOTFOUND, "%s.%s is not a free-text column", tbl, col);
    /* the row's passages: contiguous in the table's segment, rows ascending */
    long lo = ix->srcs[s].lo, hi = ix->srcs[s].hi;
    while (lo < hi) {
        long m = lo + (hi - lo) / 2;
        if (ix->row[m] < row) lo = m + 1; else hi = m;
    }
    long end = lo;
    while (end < ix->srcs[s].hi && ix->row[end] == row) end++;
    if (end == lo) return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT id, elem, chunk, text FROM genie_passages "
                           "WHERE id >= ?1 AND id < ?2 AND src = ?3 ORDER BY id", -1, &st, NULL))
        return st_dberr(ix->db, e, "reading a row's passages");
    sqlite3_bind_int64(st, 1, lo);
    sqlite3_bind_int64(st, 2, end);
    sqlite3_bind_int(st, 3, s);
    long n_p = 0, cap = end - lo;
    long *pid = xcalloc((size_t)cap + 1, sizeof *pid);
    int *elem = xcalloc((size_t)cap + 1, sizeof *elem);
    unsigned char *whole = xcalloc((size_t)cap + 1, 1);
    char **text = xcalloc((size_t)cap + 1, sizeof *text);
    while (n_p < cap && sqlite3_step(st) == SQLITE_ROW) {
        int chunk = sqlite3_column_int(st, 2);
        elem[n_p] = sqlite3_column_int(st, 1);
        if (chunk > 0) {            /* the element was cut: none of its chunks is it */
            for (long j = n_p - 1; j >= 0 && elem[j] == elem[n_p]; j--) whole[j] = 0;
            continue;
        }
        pid[n_p] = (long)sqlite3_column_int64(st, 0);
        text[n_p] = xstrdup((const char *)sqlite3_column_text(st, 3));
        whole[n_p] = 1;
        n_p++;
    }
    sqlite3_finalize(st);
    int next = 0;                   /* the elements come in the passages' order */
    for (long j = 0; j < n_p; j++)
        for (int i = next; whole[j] && i < n; i++)
            if (!strcmp(ps[i], text[j])) {
                memcpy(vec + (size_t)i * (size_t)ix->dim, ix->vec + (size_t)pid[j] * (size_t)ix->dim,
                       sizeof(float) * (size_t)ix->dim);
                have[i] = 1;
                next = i + 1;
                break;
            }
    for (long j = 0; j < n_p; j++) free(text[j]);
    free(text);
    free(pid);
    free(elem);
    free(whole);
    return 0;
}

int rt_passage(rt_index *ix, int64_t pid, char **text, char **tbl, char **col, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(ix->db, "SELECT p.text, s.tbl, s.col FROM genie_passages p "
                           "JOIN genie_sources s ON s.src = p.src WHERE p.id = ?", -1, &st, NULL))
        return st_dberr(ix->db, e, "reading a passage");
    sqlite3_bind_int64(st, 1, pid);
    int rc = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (text) *text = xstrdup((const char *)sqlite3_column_text(st, 0));
        if (tbl) *tbl = xstrdup((const char *)sqlite3_column_text(st, 1));
        if (col) *col = xstrdup((const char *)sqlite3_column_text(st, 2));
    } else {
        rc = gn_err_set(e, GN_ENOTFOUND, "no passage %lld", (long long)pid);
    }
    sqlite3_finalize(st);
    return rc;
}
