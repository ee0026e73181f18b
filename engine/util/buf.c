/*
 * buf.c — growable string.  Capacity doubles; the terminating NUL is always
 * present so data can be passed to C string functions at any time.
 */
#include "buf.h"
#include "xmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gn_buf_init(gn_buf *b)
{
    b->cap = 64;
    b->len = 0;
    b->data = xmalloc(b->cap);
    b->data[0] = 0;
}

void gn_buf_release(gn_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void gn_buf_reset(gn_buf *b)
{
    b->len = 0;
    b->data[0] = 0;
}

static void grow(gn_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    while (b->len + extra + 1 > b->cap) b->cap *= 2;
    b->data = xrealloc(b->data, b->cap);
}

void gn_buf_add(gn_buf *b, const void *p, size_t n)
{
    grow(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void gn_buf_puts(gn_buf *b, const char *s) { gn_buf_add(b, s, strlen(s)); }

void gn_buf_putc(gn_buf *b, char c) { gn_buf_add(b, &c, 1); }

void gn_buf_printf(gn_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    /* -1: an encoding error (a %ls the locale cannot write) or a result
     * past INT_MAX: nothing appended rather than a wild length. */
    if (n < 0) return;
    grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *gn_buf_detach(gn_buf *b)
{
    char *s = b->data;
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

void gn_buf_quoted(gn_buf *b, char q, const char *s)
{
    gn_buf_putc(b, q);
    for (; s && *s; s++) {
        if (*s == q) gn_buf_putc(b, q);
        gn_buf_putc(b, *s);
    }
    gn_buf_putc(b, q);
}

void gn_buf_csv(gn_buf *b, const char *s)
{
    if (!s) return;
    if (strpbrk(s, ",\"\r\n")) gn_buf_quoted(b, '"', s);
    else gn_buf_puts(b, s);
}
