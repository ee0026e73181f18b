/*
 * arena.h — the bump allocator that owns every node of one SUQL query.
 *
 * A query's AST is built once and freed at once, so nodes are carved out of
 * large chunks and never freed one by one: building is cheap, and
 * suql_arena_free releases everything, whatever the shape of the tree.
 * Out of memory aborts (xmalloc), like everywhere in genie.
 */
#ifndef GENIE_SUQL_ARENA_H
#define GENIE_SUQL_ARENA_H

#include <stddef.h>

typedef struct suql_arena suql_arena;

/* A new empty arena; free with suql_arena_free (NULL is a no-op). */
suql_arena *suql_arena_new(void);
void suql_arena_free(suql_arena *a);

/* N zeroed bytes aligned for any object, owned by the arena. */
void *suql_arena_alloc(suql_arena *a, size_t n);

/* Copies of S (NUL-terminated) or of its first N bytes, owned by the
 * arena; suql_arena_strdup(a, NULL) returns NULL. */
char *suql_arena_strdup(suql_arena *a, const char *s);
char *suql_arena_strndup(suql_arena *a, const char *s, size_t n);

/* Bytes allocated so far (for limits and statistics). */
size_t suql_arena_size(const suql_arena *a);

#endif
