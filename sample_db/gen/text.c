/*
 * text.c — template expansion, JSON string arrays, a string set.
 *
 * Templates are expanded in one left-to-right pass with recursion only into
 * the chosen alternative, so the number of random draws depends on the
 * choices actually made (deterministic, and cheap: no intermediate copies of
 * whole templates).  The string set exists to keep restaurant names and
 * course titles unique where the data should not repeat; it never shrinks.
 */
#include "text.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util/xmem.h"

/* End of the bracket group starting at p ('['): the matching ']' or NULL. */
static const char *group_end(const char *p, const char *end)
{
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '[') depth++;
        else if (*p == ']' && --depth == 0) return p;
    }
    return NULL;
}

static void expand(gn_buf *out, const char *p, const char *end, gen_rng *r,
                   gen_slot_fn slot, void *ud);

/* Choose one '|'-separated alternative of [open+1, close) at depth 0. */
static void expand_group(gn_buf *out, const char *open, const char *close, gen_rng *r,
                         gen_slot_fn slot, void *ud)
{
    const char *starts[64];
    size_t n = 0;
    int depth = 0;
    starts[n++] = open + 1;
    for (const char *p = open + 1; p < close; p++) {
        if (*p == '[') depth++;
        else if (*p == ']') depth--;
        else if (*p == '|' && depth == 0 && n < 64) starts[n++] = p + 1;
    }
    size_t k = gen_rng_below(r, n);
    const char *a = starts[k];
    const char *b = k + 1 < n ? starts[k + 1] - 1 : close;
    expand(out, a, b, r, slot, ud);
}

static void expand(gn_buf *out, const char *p, const char *end, gen_rng *r,
                   gen_slot_fn slot, void *ud)
{
    while (p < end) {
        if (*p == '[') {
            const char *close = group_end(p, end);
            if (close) {
                expand_group(out, p, close, r, slot, ud);
                p = close + 1;
                continue;
            }
        } else if (*p == '{' && slot) {
            const char *close = memchr(p, '}', (size_t)(end - p));
            if (close) {
                const char *v = slot(ud, p + 1, (size_t)(close - p - 1));
                if (v) {
                    gn_buf_puts(out, v);
                    p = close + 1;
                    continue;
                }
            }
        }
        gn_buf_putc(out, *p++);
    }
}

void gen_tpl_expand(gn_buf *out, const char *tpl, gen_rng *r, gen_slot_fn slot, void *ud)
{
    expand(out, tpl, tpl + strlen(tpl), r, slot, ud);
}

void gen_capitalize_at(gn_buf *b, size_t from)
{
    for (size_t i = from; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if (isalpha(c)) {
            b->data[i] = (char)toupper(c);
            return;
        }
        if (isdigit(c) || c == '$') return;
    }
}

void gen_json_str(gn_buf *b, const char *s)
{
    gn_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': gn_buf_puts(b, "\\\""); break;
        case '\\': gn_buf_puts(b, "\\\\"); break;
        case '\n': gn_buf_puts(b, "\\n"); break;
        case '\t': gn_buf_puts(b, "\\t"); break;
        case '\r': gn_buf_puts(b, "\\r"); break;
        default:
            if (*p < 0x20) gn_buf_printf(b, "\\u%04x", *p);
            else gn_buf_putc(b, (char)*p);
        }
    }
    gn_buf_putc(b, '"');
}

void gen_jarr_begin(gn_buf *b)
{
    gn_buf_reset(b);
    gn_buf_putc(b, '[');
}

void gen_jarr_add(gn_buf *b, const char *s)
{
    if (b->len > 1) gn_buf_putc(b, ',');
    gen_json_str(b, s);
}

void gen_jarr_end(gn_buf *b) { gn_buf_putc(b, ']'); }

/* ---- string set --------------------------------------------------------- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

void gen_strset_init(gen_strset *s)
{
    s->cap = 256;
    s->count = 0;
    s->slot = xcalloc(s->cap, sizeof *s->slot);
}

void gen_strset_release(gen_strset *s)
{
    for (size_t i = 0; i < s->cap; i++) free(s->slot[i]);
    free(s->slot);
    s->slot = NULL;
    s->cap = s->count = 0;
}

static size_t find_slot(char **slots, size_t cap, const char *key)
{
    size_t i = (size_t)hash_str(key) & (cap - 1);
    while (slots[i] && strcmp(slots[i], key)) i = (i + 1) & (cap - 1);
    return i;
}

int gen_strset_has(const gen_strset *s, const char *key)
{
    return s->slot[find_slot(s->slot, s->cap, key)] != NULL;
}

static void grow(gen_strset *s)
{
    size_t ncap = s->cap * 2;
    char **ns = xcalloc(ncap, sizeof *ns);
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i]) ns[find_slot(ns, ncap, s->slot[i])] = s->slot[i];
    free(s->slot);
    s->slot = ns;
    s->cap = ncap;
}

int gen_strset_add(gen_strset *s, const char *key)
{
    if ((s->count + 1) * 2 > s->cap) grow(s);
    size_t i = find_slot(s->slot, s->cap, key);
    if (s->slot[i]) return 0;
    s->slot[i] = xstrdup(key);
    s->count++;
    return 1;
}
