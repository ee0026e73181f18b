/*
 * buf.h — a growable byte string, always NUL-terminated.
 *
 * Embedded struct: gn_buf_init / gn_buf_release.  data is owned by the buf;
 * gn_buf_detach hands it to the caller.
 */
#ifndef GENIE_BUF_H
#define GENIE_BUF_H

#include <stddef.h>

typedef struct gn_buf {
    char *data;      /* never NULL after init */
    size_t len, cap;
} gn_buf;

void gn_buf_init(gn_buf *b);
void gn_buf_release(gn_buf *b);
void gn_buf_reset(gn_buf *b);                 /* len = 0, keeps capacity */
void gn_buf_add(gn_buf *b, const void *p, size_t n);
void gn_buf_puts(gn_buf *b, const char *s);
void gn_buf_putc(gn_buf *b, char c);
void gn_buf_printf(gn_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string (caller frees) and leaves b released: gn_buf_release
 * is then a no-op and gn_buf_init makes it usable again. */
char *gn_buf_detach(gn_buf *b);

/* Append S (NULL: empty) between two Q characters, each Q inside doubled:
 * SQL's "identifier" and 'literal', CSV's "field". */
void gn_buf_quoted(gn_buf *b, char q, const char *s);

/* Append S (NULL: nothing) as one CSV field (RFC 4180): as it is, or in
 * double quotes with its quotes doubled when it holds a comma, a quote or
 * a line break. */
void gn_buf_csv(gn_buf *b, const char *s);

#endif
