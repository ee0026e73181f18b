/*
 * arena.c — chunked bump allocation (arena.h).
 *
 * Invariant: every pointer handed out lies in a chunk of the arena's list
 * and is aligned to max_align_t; chunks are only freed together.  A request
 * larger than a quarter of the chunk size gets a chunk of its own, so a big
 * array does not waste the rest of the current chunk.
 *
 * Rejected: malloc per node (a free walk over every node kind, and a leak
 * for each one forgotten); one growing block with realloc (moves the nodes
 * already pointed to).
 */
#include "suql/arena.h"

#include "util/xmem.h"

#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#define CHUNK_SIZE ((size_t)16 << 10)
#define ALIGN      alignof(max_align_t)

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
} chunk;

struct suql_arena {
    chunk *head;        /* the chunk being filled; older ones follow */
    size_t total;
};

suql_arena *suql_arena_new(void)
{
    return xcalloc(1, sizeof(suql_arena));
}

void suql_arena_free(suql_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

static chunk *new_chunk(size_t cap)
{
    chunk *c = xmalloc(sizeof(chunk) + cap);
    c->next = NULL;
    c->used = 0;
    c->cap = cap;
    return c;
}

void *suql_arena_alloc(suql_arena *a, size_t n)
{
    n = (n + ALIGN - 1) & ~(ALIGN - 1);
    if (n == 0) n = ALIGN;
    a->total += n;
    if (n > CHUNK_SIZE / 4) {
        /* Big: a chunk of its own, kept behind the current one. */
        chunk *c = new_chunk(n);
        c->used = n;
        if (a->head) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            a->head = c;
        }
        memset(c->data, 0, n);
        return c->data;
    }
    if (!a->head || a->head->cap - a->head->used < n) {
        chunk *c = new_chunk(CHUNK_SIZE);
        c->next = a->head;
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

char *suql_arena_strndup(suql_arena *a, const char *s, size_t n)
{
    char *d = suql_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *suql_arena_strdup(suql_arena *a, const char *s)
{
    return s ? suql_arena_strndup(a, s, strlen(s)) : NULL;
}

size_t suql_arena_size(const suql_arena *a)
{
    return a->total;
}
