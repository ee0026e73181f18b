/*
 * wordvec.c — read-only memory map of the word-vector file.
 *
 * Invariant: after rt_wordvec_open succeeds every offset the lookup touches
 * lies inside the mapping (sizes are checked against the file size once), so
 * lookups need no bounds checks.  Rejected: parsing GloVe text at startup
 * (seconds) and float32 storage (4x larger; int8 loses nothing measurable for
 * mean-of-words embeddings).
 */
#include "wordvec.h"
#include "util/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct rt_wordvec {
    void *map;
    size_t size;
    uint32_t dim, count, nb;
    const uint32_t *table, *stroff;
    const float *scale;
    const int8_t *vec;
    const char *strs;
    uint32_t strbytes;
};

static uint32_t fnv1a(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++) { h ^= (unsigned char)s[i]; h *= 16777619u; }
    return h;
}

static int layout(rt_wordvec *wv, const char *path, gn_err *e)
{
    const unsigned char *p = wv->map;
    if (wv->size < 24 || memcmp(p, "GNWV0001", 8))
        return gn_err_set(e, GN_ECORRUPT, "%s: not a genie word-vector file", path);
    const uint32_t *h = (const uint32_t *)(p + 8);
    wv->dim = h[0]; wv->count = h[1]; wv->nb = h[2]; wv->strbytes = h[3];
    uint64_t need = 24 + 4ull * wv->nb + 8ull * wv->count
                  + (uint64_t)wv->dim * wv->count + wv->strbytes;
    if (!wv->dim || wv->dim > 4096 || !wv->nb || (wv->nb & (wv->nb - 1)) ||
        wv->nb < wv->count || need != wv->size)
        return gn_err_set(e, GN_ECORRUPT, "%s: truncated or corrupt word-vector file "
                          "(%zu bytes, expected %llu)", path, wv->size, (unsigned long long)need);
    wv->table = (const uint32_t *)(p + 24);
    wv->stroff = wv->table + wv->nb;
    wv->scale = (const float *)(wv->stroff + wv->count);
    wv->vec = (const int8_t *)(wv->scale + wv->count);
    wv->strs = (const char *)(wv->vec + (size_t)wv->dim * wv->count);
    for (uint32_t i = 0; i < wv->count; i++)
        if (wv->stroff[i] >= wv->strbytes)
            return gn_err_set(e, GN_ECORRUPT, "%s: corrupt word offsets", path);
    if (wv->strs[wv->strbytes - 1] != 0)
        return gn_err_set(e, GN_ECORRUPT, "%s: corrupt word strings", path);
    return 0;
}

int rt_wordvec_open(const char *path, rt_wordvec **out, gn_err *e)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gn_err_set(e, GN_EIO, "cannot open word vectors %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size <= 0) {
        close(fd);
        return gn_err_set(e, GN_ECORRUPT, "%s: empty word-vector file", path);
    }
    rt_wordvec *wv = xcalloc(1, sizeof *wv);
    wv->size = (size_t)st.st_size;
    wv->map = mmap(NULL, wv->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (wv->map == MAP_FAILED) {
        free(wv);
        return gn_err_set(e, GN_EIO, "cannot map %s: %s", path, strerror(errno));
    }
    int rc = layout(wv, path, e);
    if (rc) { rt_wordvec_close(wv); return rc; }
    *out = wv;
    return 0;
}

void rt_wordvec_close(rt_wordvec *wv)
{
    if (!wv) return;
    if (wv->map && wv->map != MAP_FAILED) munmap(wv->map, wv->size);
    free(wv);
}

int rt_wordvec_dim(const rt_wordvec *wv) { return (int)wv->dim; }
int rt_wordvec_count(const rt_wordvec *wv) { return (int)wv->count; }

int rt_wordvec_find(const rt_wordvec *wv, const char *word, int len)
{
    uint32_t h = fnv1a(word, len) & (wv->nb - 1);
    for (uint32_t probes = 0; probes < wv->nb; probes++) {
        uint32_t ent = wv->table[h];
        if (!ent) return -1;
        if (ent <= wv->count) {
            const char *w = wv->strs + wv->stroff[ent - 1];
            if (strncmp(w, word, (size_t)len) == 0 && w[len] == 0) return (int)ent - 1;
        }
        h = (h + 1) & (wv->nb - 1);
    }
    return -1;
}

void rt_wordvec_accum(const rt_wordvec *wv, int rank, float weight, float *acc)
{
    const int8_t *v = wv->vec + (size_t)rank * wv->dim;
    float s = weight * wv->scale[rank];
    for (uint32_t i = 0; i < wv->dim; i++) acc[i] += s * (float)v[i];
}
