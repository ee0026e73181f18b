/*
 * utf8.c — checking and repairing UTF-8 (utf8.h).  Runs of ASCII are
 * checked eight bytes at a time, which keeps a check of a large import or
 * a long reply at memory speed.
 */
#include "utf8.h"
#include "buf.h"

#include <string.h>

/* The length of the well-formed sequence at P (END - P > 0 bytes left),
 * or 0 when the byte at P does not start one. */
static int seq_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = *p;
    if (c < 0x80) return c ? 1 : 0;
    int k = c >= 0xF0 && c <= 0xF4 ? 3 : c >= 0xE0 ? (c <= 0xEF ? 2 : -1) : c >= 0xC2 ? 1 : -1;
    if (k < 0 || end - p <= k) return 0;
    unsigned c1 = p[1];
    if ((c1 & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
        return 0;
    for (int i = 2; i <= k; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return k + 1;
}

int gn_utf8_next(const char *s, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    int k = seq_len(p, p + 4);          /* stops at the NUL: not a continuation */
    if (!k) {
        *cp = GN_UTF8_BAD;
        return 1;
    }
    static const unsigned char lead[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
    uint32_t c = p[0] & lead[k];
    for (int i = 1; i < k; i++) c = c << 6 | (p[i] & 0x3F);
    *cp = c;
    return k;
}

int gn_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        while (end - p >= 8) {
            unsigned long long w;
            memcpy(&w, p, 8);
            if (w & 0x8080808080808080ull) break;
            if ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) return 0; /* a NUL */
            p += 8;
        }
        if (p >= end) break;
        int k = seq_len(p, end);
        if (!k) return 0;
        p += k;
    }
    return 1;
}

char *gn_utf8_fix(const char *s, size_t n, int *changed)
{
    gn_buf b;
    gn_buf_init(&b);
    const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + (s ? n : 0), *run = p;
    int fixed = 0;
    while (p < end) {
        int k = seq_len(p, end);
        if (k) {
            p += k;
            continue;
        }
        gn_buf_add(&b, run, (size_t)(p - run));
        gn_buf_puts(&b, "\xEF\xBF\xBD");
        fixed = 1;
        run = ++p;
    }
    gn_buf_add(&b, run, (size_t)(p - run));
    if (changed) *changed = fixed;
    return gn_buf_detach(&b);
}

int gn_utf8_put(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}
