/*
 * chunks.c — a data file read in chunks, for the CSV and JSON scanners.
 *
 * A scanner parses a record (or an object) from its first byte in the
 * buffer; when the buffer ends inside it, ig_chunks_fill keeps the bytes
 * not consumed yet, moves them to the front, reads 1 MiB more, and the
 * scanner parses the record again from its start.  A record that outgrows
 * 64 MiB is an error rather than the whole file in memory.
 */
#include "ingest/ingest_int.h"
#include "util/xmem.h"

#include <errno.h>
#include <string.h>

#define CHUNK (1 << 20)

int ig_chunks_fill(ig_chunks *c, const char *what, gn_err *e)
{
    if (c->pos > 0) {
        memmove(c->buf, c->buf + c->pos, c->len - c->pos);
        c->len -= c->pos;
        c->pos = 0;
    }
    if (c->cap - c->len < CHUNK) {
        if (c->cap > (size_t)IG_CELL_MAX * 4)
            return gn_err_setpos(e, GN_ELIMIT, c->path, (int)c->line, 0, "%s longer than %d MiB%s",
                                 what, IG_CELL_MAX >> 18,
                                 !strcmp(what, "a record") ? " (an unterminated quote?)" : "");
        c->cap = c->cap * 2 > c->len + CHUNK ? c->cap * 2 : c->len + CHUNK;
        c->buf = xrealloc(c->buf, c->cap + 1);
    }
    size_t got = fread(c->buf + c->len, 1, c->cap - c->len, c->f);
    if (got == 0 && ferror(c->f)) return gn_err_set(e, GN_EIO, "%s: %s", c->path, strerror(errno));
    if (got == 0) c->eof = 1;
    c->len += got;
    return 0;
}

int ig_chunks_open(ig_chunks *c, const char *path, gn_err *e)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->line = 1;
    c->f = fopen(path, "rb");
    if (!c->f) return gn_err_set(e, errno == ENOENT ? GN_ENOTFOUND : GN_EIO, "%s: %s", path,
                                 strerror(errno));
    if (ig_chunks_fill(c, "a record", e)) return e->code;
    if (c->len >= 3 && !memcmp(c->buf, "\xEF\xBB\xBF", 3)) c->pos = 3;      /* a BOM */
    return 0;
}

void ig_chunks_close(ig_chunks *c)
{
    if (c->f) fclose(c->f);
    free(c->buf);
    memset(c, 0, sizeof *c);
}
