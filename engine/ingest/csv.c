/*
 * csv.c — reading CSV and TSV files (RFC 4180) a record at a time.
 *
 * The file is read in 1 MiB chunks (chunks.c); a record is parsed from its
 * first byte, and when a chunk ends inside it more is read and the record
 * is parsed again from its start (records are short next to a chunk, so
 * this costs nothing).
 * Quoted fields may hold separators, doubled quotes and line breaks; text
 * after a closing quote is kept (as most tools do).  Lines end in LF, CRLF
 * or CR; a UTF-8 byte order mark is skipped; blank lines are skipped.  A
 * record with more or fewer fields than the header, an unterminated quote,
 * a NUL byte or invalid UTF-8 is an error naming the file and line.
 */
#include "ingest/ingest_int.h"
#include "util/utf8.h"
#include "util/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    ig_chunks in;             /* the file; in.line: the next record's */
    char sep;
    /* the record being parsed: cell texts, NUL-separated, in out */
    char *out;
    size_t outlen, outcap;
    size_t *offs;
    int noffs, offcap;
} reader;

enum { REC_OK, REC_MORE, REC_END };

static void out_add(reader *r, const char *p, size_t n)
{
    if (r->outlen + n + 1 > r->outcap) {
        r->outcap = (r->outlen + n + 1) * 2;
        r->out = xrealloc(r->out, r->outcap);
    }
    memcpy(r->out + r->outlen, p, n);
    r->outlen += n;
}

static void field_end(reader *r, size_t start)
{
    if (r->noffs == r->offcap) {
        r->offcap = r->offcap ? r->offcap * 2 : 32;
        r->offs = xrealloc(r->offs, (size_t)r->offcap * sizeof *r->offs);
    }
    r->offs[r->noffs++] = start;
    out_add(r, "", 1);
}

/* Parse the record at r->pos.  REC_MORE: the buffer ends inside it (and
 * the file does not); *lines gets the line breaks inside quoted fields. */
static int parse_record(reader *r, long *lines, gn_err *e)
{
    const char *b = r->in.buf;
    size_t i = r->in.pos, n = r->in.len;
    int eof = r->in.eof;
    char sep = r->sep;
    r->outlen = 0;
    r->noffs = 0;
    *lines = 0;
    if (i >= n) return eof ? REC_END : REC_MORE;
    for (;;) {
        size_t start = r->outlen;
        if (i < n && b[i] == '"') {
            i++;
            for (;;) {
                const char *q = memchr(b + i, '"', n - i);
                size_t upto = q ? (size_t)(q - b) : n;
                for (size_t k = i; k < upto; k++)
                    if (b[k] == '\n' || (b[k] == '\r' && (k + 1 >= n || b[k + 1] != '\n'))) (*lines)++;
                out_add(r, b + i, upto - i);
                if (!q) {
                    if (!eof) return REC_MORE;
                    return gn_err_setpos(e, GN_EPARSE, r->in.path, (int)r->in.line, 0,
                                         "a quoted field is never closed");
                }
                i = upto + 1;
                if (i < n && b[i] == '"') { out_add(r, "\"", 1); i++; continue; }
                if (i >= n && !eof) return REC_MORE;
                break;
            }
        }
        size_t s0 = i;
        while (i < n && b[i] != sep && b[i] != '\n' && b[i] != '\r') i++;
        out_add(r, b + s0, i - s0);
        if (i >= n && !eof) return REC_MORE;
        field_end(r, start);
        if (i >= n) { r->in.pos = i; return REC_OK; }
        if (b[i] == sep) { i++; continue; }
        if (b[i] == '\r') {
            if (i + 1 >= n && !eof) return REC_MORE;
            i += i + 1 < n && b[i + 1] == '\n' ? 2 : 1;
        } else {
            i++;
        }
        r->in.pos = i;
        return REC_OK;
    }
}

/* The next record into r->out/offs; 1 when there is one, 0 at the end. */
static int next_record(reader *r, long *line, gn_err *e)
{
    for (;;) {
        long lines;
        int rc = parse_record(r, &lines, e);
        if (rc == REC_MORE) {
            if (ig_chunks_fill(&r->in, "a record", e)) return -1;
            continue;
        }
        if (rc == REC_END) return 0;
        if (rc != REC_OK) return -1;
        *line = r->in.line;
        r->in.line += 1 + lines;
        /* a blank line */
        if (r->noffs == 1 && r->out[0] == '\0') {
            if (r->in.pos >= r->in.len && r->in.eof) return 0;
            continue;
        }
        return 1;
    }
}

static int reader_open(reader *r, ig_table *t, gn_err *e)
{
    memset(r, 0, sizeof *r);
    r->sep = t->format == IG_TSV ? '\t' : ',';
    return ig_chunks_open(&r->in, t->path, e);
}

static void reader_close(reader *r)
{
    ig_chunks_close(&r->in);
    free(r->out);
    free(r->offs);
}

/* The record's cells, trimmed, checked; NULL for null markers (not in
 * the header, T NULL, where "NA" is a name). */
static int cells_of(reader *r, char **cells, long line, const ig_table *t, gn_err *e)
{
    for (int i = 0; i < r->noffs; i++) {
        char *s = r->out + r->offs[i];
        size_t n = (i + 1 < r->noffs ? r->offs[i + 1] - 1 : r->outlen - 1) - r->offs[i];
        if (!gn_utf8_valid(s, n)) {
            if (t && i < t->ncols)
                return gn_err_setpos(e, GN_EPARSE, r->in.path, (int)line, 0, "%s in column %s",
                                     memchr(s, 0, n) ? "a NUL byte" : "invalid UTF-8",
                                     t->cols[i].name);
            return gn_err_setpos(e, GN_EPARSE, r->in.path, (int)line, 0, "%s in column %d",
                                 memchr(s, 0, n) ? "a NUL byte" : "invalid UTF-8", i + 1);
        }
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
        while (*s == ' ' || *s == '\t') s++;
        cells[i] = t && ig_is_null(s) ? NULL : s;
    }
    return 0;
}

int ig_csv_header(ig_table *t, gn_err *e)
{
    reader r;
    long line;
    int rc = reader_open(&r, t, e);
    if (!rc) {
        int got = next_record(&r, &line, e);
        if (got < 0) rc = e->code;
        else if (got == 0) rc = gn_err_setpos(e, GN_EPARSE, t->path, 1, 0, "the file is empty: "
                                              "a header row naming the columns is needed");
    }
    if (!rc) {
        char **cells = xcalloc((size_t)r.noffs, sizeof *cells);
        rc = cells_of(&r, cells, line, NULL, e);
        for (int i = 0; !rc && i < r.noffs; i++)
            if (ig_column_add(t, cells[i] ? cells[i] : "", line, e) < 0) rc = e->code;
        free(cells);
    }
    reader_close(&r);
    return rc;
}

int ig_scan_csv(ig_table *t, ig_row_fn fn, void *ud, ig_progress_fn progress, void *pud,
                gn_err *e)
{
    reader r;
    long line, rows = 0;
    int rc = reader_open(&r, t, e), got = 0;
    char **cells = xcalloc((size_t)t->ncols + 1, sizeof *cells);
    if (!rc && next_record(&r, &line, e) < 0) rc = e->code;      /* the header */
    while (!rc && (got = next_record(&r, &line, e)) > 0) {
        if (r.noffs != t->ncols) {
            rc = gn_err_setpos(e, GN_EPARSE, t->path, (int)line, 0,
                               "this row has %d field%s, the header %d", r.noffs,
                               r.noffs == 1 ? "" : "s", t->ncols);
            break;
        }
        if ((rc = cells_of(&r, cells, line, t, e))) break;
        if ((rc = fn(ud, t, cells, line, e))) break;
        if (++rows % IG_PROGRESS_EVERY == 0 && progress && progress(pud, t, NULL, rows, 0))
            rc = gn_err_set(e, GN_ECANCEL, "cancelled");
    }
    if (!rc && got < 0) rc = e->code;
    free(cells);
    reader_close(&r);
    return rc;
}
