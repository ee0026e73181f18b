/*
 * err.c — filling and rendering gn_err.  Messages are truncated, never
 * allocated, so reporting an error cannot itself fail.
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gn_err_clear(gn_err *e)
{
    if (!e) return;
    e->code = GN_OK;
    e->line = e->col = 0;
    e->file[0] = e->msg[0] = 0;
}

static void vset(gn_err *e, int code, const char *fmt, va_list ap)
{
    e->code = code;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int gn_err_set(gn_err *e, int code, const char *fmt, ...)
{
    if (!e) return code;
    gn_err_clear(e);
    va_list ap;
    va_start(ap, fmt);
    vset(e, code, fmt, ap);
    va_end(ap);
    return code;
}

int gn_err_setpos(gn_err *e, int code, const char *file, int line, int col,
                  const char *fmt, ...)
{
    if (!e) return code;
    gn_err_clear(e);
    va_list ap;
    va_start(ap, fmt);
    vset(e, code, fmt, ap);
    va_end(ap);
    if (file) snprintf(e->file, sizeof e->file, "%s", file);
    e->line = line;
    e->col = col;
    return code;
}

int gn_err_prefix(gn_err *e, const char *fmt, ...)
{
    if (!e) return GN_OK;
    char pre[512], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    size_t pl = strlen(pre);
    if (pl >= sizeof e->msg) pl = sizeof e->msg - 1;
    memcpy(e->msg, pre, pl);
    size_t ol = strlen(old);
    if (ol > sizeof e->msg - 1 - pl) ol = sizeof e->msg - 1 - pl;
    memcpy(e->msg + pl, old, ol);
    e->msg[pl + ol] = 0;
    return e->code;
}

const char *gn_err_str(const gn_err *e, char *buf, unsigned size)
{
    if (!e || !size) return "";
    int n = 0;
    if (e->file[0]) n = snprintf(buf, size, "%s:", e->file);
    if (n >= 0 && (unsigned)n < size && e->line > 0)
        n += snprintf(buf + n, size - (unsigned)n, e->col > 0 ? "%d:%d:" : "%d:",
                      e->line, e->col);
    if (n >= 0 && (unsigned)n < size)
        snprintf(buf + n, size - (unsigned)n, "%s%s", n > 0 ? " " : "", e->msg);
    return buf;
}
