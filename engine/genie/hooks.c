/*
 * hooks.c — how the facade tells a front end something (genie_hooks):
 * the line formatted here, shown there, or dropped when no one listens.
 */
#include "genie_int.h"

#include "util/xmem.h"

#include <stdarg.h>
#include <stdlib.h>

void genie_tell(const genie_hooks *h, int warning, const char *fmt, ...)
{
    if (!h || !h->note) return;
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    h->note(h->ud, warning, s);
    free(s);
}
