/*
 * lexical.c — building, mapping and scoring the BM25 postings (lexical.h).
 *
 * Build: one pass over the passages in id order; each term's postings grow
 * in a per-term array, so they come out sorted by passage id.  Query:
 * term-at-a-time accumulation into a per-index score array plus a list of
 * touched passages, so a query costs O(postings of its terms) and clearing
 * costs O(touched), never O(passages).  An rt_lex is used by one thread at a
 * time (the accumulator is shared by its queries).
 * Rejected: storing postings in SQLite (every posting read through the VM is
 * what makes FTS5 slow here) and document-at-a-time WAND (queries are short
 * and filtered by candidates; the simple loop is already a few ms at scale).
 */
#include "lexical.h"
#include "stem.h"
#include "tokenize.h"
#include "util/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LEX_MAGIC "GNLX0001"
#define K1 1.2f
#define B 0.75f

typedef struct {
    char magic[8];
    uint64_t nonce, npass, nterms, nbuckets, npost;
    double avgdl;
} lex_header;                       /* 64 bytes */

typedef struct { uint32_t stroff, df; uint64_t first; } lex_term;
typedef struct { uint32_t pid, tf; } lex_post;

struct rt_lex {
    void *map;
    size_t size;
    const lex_header *h;
    const uint32_t *bucket;
    const lex_term *term;
    const uint16_t *len;
    const lex_post *post;
    const char *strs;
    float *acc;
    uint32_t *touched;
    long ntouched;
};

static uint32_t fnv1a(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++) { h ^= (unsigned char)s[i]; h *= 16777619u; }
    return h;
}

/* Split a tokenizer word into terms at ' - & ("family-friendly" is the
 * terms of "family" and "friendly"; "kids'" and "kid's" meet at "kid"). */
typedef struct { rt_lex_term_fn fn; void *ud; } split_ctx;

static void split_word(const char *w, int len, void *ud)
{
    split_ctx *c = ud;
    int i = 0;
    while (i < len) {
        while (i < len && (w[i] == '\'' || w[i] == '-' || w[i] == '&')) i++;
        int s = i;
        while (i < len && w[i] != '\'' && w[i] != '-' && w[i] != '&') i++;
        int n = i - s;
        if (n == 0 || rt_is_stopword(w + s, n) || (n == 1 && w[s] == 's') || n > 60) continue;
        char stem[64];
        int sl = rt_stem(w + s, n, stem);
        c->fn(stem, sl, c->ud);
    }
}

void rt_lex_terms(const char *text, rt_lex_term_fn fn, void *ud)
{
    split_ctx c = { fn, ud };
    rt_tokenize(text, split_word, &c);
}

/* ---- build -------------------------------------------------------------- */
typedef struct { lex_post *v; uint32_t n, cap; } plist;

typedef struct {
    uint32_t *bucket;            /* term index + 1 */
    uint32_t nb, nterms, capterms;
    uint32_t *stroff;
    char *strs;
    size_t strlen_, strcap;
    plist *lists;
    uint32_t cur_pid;
    uint32_t doclen;
    uint64_t npost;
} builder;

static uint32_t term_id(builder *b, const char *t, int len)
{
    if (b->nterms * 2 >= b->nb) {              /* grow and rehash */
        uint32_t nb = b->nb ? b->nb * 2 : 1u << 16;
        uint32_t *nbk = xcalloc(nb, sizeof(uint32_t));
        for (uint32_t i = 0; i < b->nterms; i++) {
            const char *s = b->strs + b->stroff[i];
            uint32_t h = fnv1a(s, (int)strlen(s)) & (nb - 1);
            while (nbk[h]) h = (h + 1) & (nb - 1);
            nbk[h] = i + 1;
        }
        free(b->bucket);
        b->bucket = nbk;
        b->nb = nb;
    }
    uint32_t h = fnv1a(t, len) & (b->nb - 1);
    while (b->bucket[h]) {
        uint32_t i = b->bucket[h] - 1;
        const char *s = b->strs + b->stroff[i];
        if (strncmp(s, t, (size_t)len) == 0 && s[len] == 0) return i;
        h = (h + 1) & (b->nb - 1);
    }
    if (b->nterms == b->capterms) {
        b->capterms = b->capterms ? b->capterms * 2 : 4096;
        b->stroff = xrealloc(b->stroff, sizeof(uint32_t) * b->capterms);
        b->lists = xrealloc(b->lists, sizeof(plist) * b->capterms);
    }
    while (b->strlen_ + (size_t)len + 1 > b->strcap) {
        b->strcap = b->strcap ? b->strcap * 2 : 1 << 20;
        b->strs = xrealloc(b->strs, b->strcap);
    }
    memcpy(b->strs + b->strlen_, t, (size_t)len);
    b->strs[b->strlen_ + (size_t)len] = 0;
    b->stroff[b->nterms] = (uint32_t)b->strlen_;
    b->strlen_ += (size_t)len + 1;
    memset(&b->lists[b->nterms], 0, sizeof(plist));
    b->bucket[h] = b->nterms + 1;
    return b->nterms++;
}

static void add_term(const char *t, int len, void *ud)
{
    builder *b = ud;
    uint32_t id = term_id(b, t, len);      /* may move b->lists */
    plist *l = &b->lists[id];
    b->doclen++;
    if (l->n && l->v[l->n - 1].pid == b->cur_pid) { l->v[l->n - 1].tf++; return; }
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->v = xrealloc(l->v, sizeof(lex_post) * l->cap);
    }
    l->v[l->n++] = (lex_post){ b->cur_pid, 1 };
    b->npost++;
}

static int wr(FILE *f, const void *p, size_t n, const char *path, gn_err *e)
{
    if (n && fwrite(p, 1, n, f) != n)
        return gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    return 0;
}

static int write_file(builder *b, const char *path, long n, uint64_t nonce, const uint16_t *len,
                      double avgdl, gn_err *e)
{
    /* No terms (no free text at all): one empty bucket and one NUL of
     * strings still make a well-formed file. */
    static const char nul[1];
    if (!b->nb) {
        b->nb = 1;
        b->bucket = xcalloc(1, sizeof *b->bucket);
    }
    FILE *f = fopen(path, "wb");
    if (!f) return gn_err_set(e, GN_EIO, "cannot create %s: %s", path, strerror(errno));
    lex_header h = { .nonce = nonce, .npass = (uint64_t)n, .nterms = b->nterms,
                     .nbuckets = b->nb, .npost = b->npost, .avgdl = avgdl };
    memcpy(h.magic, LEX_MAGIC, 8);
    int rc = wr(f, &h, sizeof h, path, e);
    if (!rc) rc = wr(f, b->bucket, 4 * (size_t)b->nb, path, e);
    uint64_t first = 0;
    for (uint32_t i = 0; i < b->nterms && !rc; i++) {
        lex_term t = { b->stroff[i], b->lists[i].n, first };
        first += b->lists[i].n;
        rc = wr(f, &t, sizeof t, path, e);
    }
    static const char zero[8];
    if (!rc) rc = wr(f, len, 2 * (size_t)n, path, e);
    if (!rc) rc = wr(f, zero, (8 - (2 * (size_t)n + 4 * (size_t)b->nb) % 8) % 8, path, e);
    for (uint32_t i = 0; i < b->nterms && !rc; i++)
        rc = wr(f, b->lists[i].v, sizeof(lex_post) * b->lists[i].n, path, e);
    if (!rc) rc = b->strlen_ ? wr(f, b->strs, b->strlen_, path, e) : wr(f, nul, 1, path, e);
    if (!rc && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    if (fclose(f) != 0 && !rc) rc = gn_err_set(e, GN_EIO, "writing %s: %s", path, strerror(errno));
    return rc;
}

int rt_lex_build(sqlite3 *db, const char *path, long n, uint64_t nonce, gn_err *e)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, text FROM genie_passages ORDER BY id", -1, &st, NULL))
        return gn_err_set(e, GN_EDB, "reading passages: %s", sqlite3_errmsg(db));
    builder b = { 0 };
    uint16_t *len = xcalloc((size_t)(n ? n : 1), sizeof(uint16_t));
    double total = 0;
    int rc = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long id = (long)sqlite3_column_int64(st, 0);
        if (id < 0 || id >= n) { rc = gn_err_set(e, GN_EDB, "passage ids are not 0..%ld", n - 1); break; }
        b.cur_pid = (uint32_t)id;
        b.doclen = 0;
        rt_lex_terms((const char *)sqlite3_column_text(st, 1), add_term, &b);
        len[id] = (uint16_t)(b.doclen > 65535 ? 65535 : b.doclen);
        total += b.doclen;
    }
    sqlite3_finalize(st);
    if (!rc) rc = write_file(&b, path, n, nonce, len, n ? total / (double)n : 1, e);
    for (uint32_t i = 0; i < b.nterms; i++) free(b.lists[i].v);
    free(b.lists); free(b.bucket); free(b.stroff); free(b.strs); free(len);
    return rc;
}

/* ---- open --------------------------------------------------------------- */
static int stale(gn_err *e, const char *path, const char *why)
{
    return gn_err_set(e, GN_ESTALE, "%s: retrieval index is stale: its lexical index %s", path, why);
}

static int layout(rt_lex *lx, const char *path, uint64_t nonce, long npass, gn_err *e)
{
    if (lx->size < sizeof(lex_header)) return stale(e, path, "is damaged");
    const lex_header *h = lx->h = lx->map;
    if (memcmp(h->magic, LEX_MAGIC, 8)) return stale(e, path, "is damaged");
    if (h->nonce != nonce || h->npass != (uint64_t)npass) return stale(e, path, "belongs to another build");
    if (!h->nbuckets || (h->nbuckets & (h->nbuckets - 1)) || h->nbuckets < h->nterms)
        return stale(e, path, "is damaged");
    size_t off = sizeof *h + 4 * h->nbuckets;
    lx->bucket = (const uint32_t *)((const char *)lx->map + sizeof *h);
    lx->term = (const lex_term *)((const char *)lx->map + off);
    off += sizeof(lex_term) * h->nterms;
    lx->len = (const uint16_t *)((const char *)lx->map + off);
    off += 2 * h->npass;
    off += (8 - (2 * h->npass + 4 * h->nbuckets) % 8) % 8;
    lx->post = (const lex_post *)((const char *)lx->map + off);
    off += sizeof(lex_post) * h->npost;
    if (off >= lx->size || ((const char *)lx->map)[lx->size - 1] != 0) return stale(e, path, "is truncated");
    lx->strs = (const char *)lx->map + off;
    size_t strbytes = lx->size - off;
    for (uint64_t i = 0; i < h->nterms; i++)
        if (lx->term[i].stroff >= strbytes || lx->term[i].first + lx->term[i].df > h->npost)
            return stale(e, path, "is damaged");
    return 0;
}

int rt_lex_open(const char *path, uint64_t nonce, long npass, rt_lex **out, gn_err *e)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return stale(e, path, "is missing");
    struct stat sb;
    rt_lex *lx = xcalloc(1, sizeof *lx);
    if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
        lx->size = (size_t)sb.st_size;
        lx->map = mmap(NULL, lx->size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);   /* as index.c */
        if (lx->map == MAP_FAILED) lx->map = NULL;
    }
    close(fd);
    int rc = lx->map ? layout(lx, path, nonce, npass, e) : stale(e, path, "is damaged");
    if (rc) { rt_lex_close(lx); return rc; }
    *out = lx;
    return 0;
}

int rt_lex_check(const char *path, uint64_t nonce, long npass, gn_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) return stale(e, path, "is missing");
    lex_header h;
    int ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, LEX_MAGIC, 8) == 0;
    fclose(f);
    if (!ok) return stale(e, path, "is damaged");
    if (h.nonce != nonce || h.npass != (uint64_t)npass) return stale(e, path, "belongs to another build");
    return 0;
}

void rt_lex_close(rt_lex *lx)
{
    if (!lx) return;
    if (lx->map) munmap(lx->map, lx->size);
    free(lx->acc);
    free(lx->touched);
    free(lx);
}

/* ---- score -------------------------------------------------------------- */
static long find_term(const rt_lex *lx, const char *t, int len)
{
    uint64_t nb = lx->h->nbuckets;
    uint32_t h = fnv1a(t, len) & (uint32_t)(nb - 1);
    for (uint64_t probes = 0; probes < nb; probes++) {
        uint32_t ent = lx->bucket[h];
        if (!ent || ent > lx->h->nterms) return -1;
        const char *s = lx->strs + lx->term[ent - 1].stroff;
        if (strncmp(s, t, (size_t)len) == 0 && s[len] == 0) return ent - 1;
        h = (h + 1) & (uint32_t)(nb - 1);
    }
    return -1;
}

typedef struct { long ids[32]; int n; const rt_lex *lx; } qterms;

static void query_term(const char *t, int len, void *ud)
{
    qterms *q = ud;
    long id = find_term(q->lx, t, len);
    if (id < 0 || q->n == 32) return;
    for (int i = 0; i < q->n; i++) if (q->ids[i] == id) return;
    q->ids[q->n++] = id;
}

int rt_lex_score(rt_lex *lx, const char *text, rt_lex_keep_fn keep, rt_lex_hit_fn fn, void *ud)
{
    qterms q = { .n = 0, .lx = lx };
    rt_lex_terms(text, query_term, &q);
    if (!lx->acc) {
        lx->acc = xcalloc(lx->h->npass + 1, sizeof(float));
        lx->touched = xmalloc(sizeof(uint32_t) * (lx->h->npass + 1));
    }
    double n = (double)lx->h->npass;
    float inv_avg = (float)(1.0 / (lx->h->avgdl > 0 ? lx->h->avgdl : 1));
    for (int i = 0; i < q.n; i++) {
        const lex_term *t = &lx->term[q.ids[i]];
        float idf = (float)log(1.0 + (n - t->df + 0.5) / (t->df + 0.5));
        const lex_post *p = lx->post + t->first, *end = p + t->df;
        for (; p < end; p++) {
            if (!keep(p->pid, ud)) continue;
            float tf = (float)p->tf;
            float norm = K1 * (1 - B + B * (float)lx->len[p->pid] * inv_avg);
            if (lx->acc[p->pid] == 0) lx->touched[lx->ntouched++] = p->pid;
            lx->acc[p->pid] += idf * tf * (K1 + 1) / (tf + norm);
        }
    }
    for (long i = 0; i < lx->ntouched; i++) {
        uint32_t pid = lx->touched[i];
        fn(pid, lx->acc[pid], ud);
        lx->acc[pid] = 0;
    }
    lx->ntouched = 0;
    return q.n;
}
