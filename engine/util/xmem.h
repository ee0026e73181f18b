/*
 * xmem.h — allocation that never returns NULL.
 *
 * Out-of-memory aborts the process with a message (DESIGN.md: no untestable
 * OOM branches).  Limits driven by input size are checked by callers and
 * reported as errors; these wrappers are only for the allocator itself.
 */
#ifndef GENIE_XMEM_H
#define GENIE_XMEM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>   /* free() goes with every allocation here */

/* malloc/calloc/realloc that abort on failure.  Free with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);

/* Copies of s (NUL-terminated) or its first n bytes; the caller frees.
 * xstrdup(NULL) returns NULL. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* printf into a fresh string; the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list (consumed, as vsnprintf consumes it). */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
