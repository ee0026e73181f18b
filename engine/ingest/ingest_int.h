/*
 * ingest_int.h — what the ingest files share: the row scanners of each
 * format, the cell classifiers and the per-column counts.
 */
#ifndef GENIE_INGEST_INT_H
#define GENIE_INGEST_INT_H

#include "ingest/ingest.h"

#include <stddef.h>
#include <stdio.h>

/* A row: CELLS[i] is column i's value (NUL-terminated, spaces trimmed),
 * NULL when empty or a null marker; LINE the row's first line (SQLite:
 * its row number).  Returning nonzero stops the scan with that status. */
typedef int (*ig_row_fn)(void *ud, ig_table *t, char **cells, long line, gn_err *e);

/* Read T's rows, calling FN for each and PROGRESS every so often.  With
 * GROW, keys seen for the first time (JSON) add columns; without, they are
 * an error (the file changed between passes).  Errors name FILE:LINE. */
int ig_scan(ig_table *t, int grow, ig_row_fn fn, void *ud, ig_progress_fn progress,
            void *pud, gn_err *e);
int ig_scan_csv(ig_table *t, ig_row_fn fn, void *ud, ig_progress_fn progress, void *pud,
                gn_err *e);
int ig_scan_json(ig_table *t, int grow, ig_row_fn fn, void *ud, ig_progress_fn progress,
                 void *pud, gn_err *e);
int ig_scan_sqlite(ig_table *t, ig_row_fn fn, void *ud, ig_progress_fn progress, void *pud,
                   gn_err *e);

/* A data file read in chunks (chunks.c): bytes [pos, len) of buf are not
 * consumed yet; line is the line where they start. */
typedef struct ig_chunks {
    FILE *f;
    const char *path;
    char *buf;
    size_t len, cap, pos;
    int eof;
    long line;
} ig_chunks;

/* Open PATH and read its first chunk, a UTF-8 BOM skipped.  Returns 0 or
 * GN_ENOTFOUND/GN_EIO; close with ig_chunks_close in every case. */
int ig_chunks_open(ig_chunks *c, const char *path, gn_err *e);
/* Keep the bytes not consumed, read more: at the end of the file c->eof
 * is set.  WHAT ("a record", "an object") names a unit grown too long. */
int ig_chunks_fill(ig_chunks *c, const char *what, gn_err *e);
void ig_chunks_close(ig_chunks *c);

/* Read the header row of a CSV/TSV file into T's columns (csv.c). */
int ig_csv_header(ig_table *t, gn_err *e);

/* Add a column named SRC, read at LINE of T's file (0: not a text
 * file), to T, its SQL name made unique.  Returns its index, or -1 with E
 * set (GN_EPARSE) when T has IG_COLUMNS_MAX columns already or SRC is
 * longer than IG_NAME_MAX bytes: neither is a table someone can ask
 * about, and both would cost time quadratic in the columns. */
int ig_column_add(ig_table *t, const char *src, long line, gn_err *e);

/* The most columns a table may have (SQLite allows 2000, and a worksheet
 * of more is no schema a prompt can carry), and the longest column name. */
#define IG_COLUMNS_MAX 1000
#define IG_NAME_MAX 1024

/* Rows between two progress reports. */
#define IG_PROGRESS_EVERY 65536

/* The longest cell accepted (bytes). */
#define IG_CELL_MAX (16 << 20)

/* Cell classifiers (infer.c), on trimmed non-null text.  Each returns 1
 * when S is of the type, filling the value when asked. */
int ig_is_int(const char *s, long long *v);
int ig_is_real(const char *s, double *v);
int ig_is_bool(const char *s, int *v);
int ig_is_date(const char *s, char out[11]);
int ig_is_time(const char *s, char out[9]);
int ig_is_null(const char *s);

/* Longest enum (distinct values), and the cap on distinct values counted
 * per column (memory stays bounded whatever the row count). */
#define IG_ENUM_MAX 24
#define IG_DISTINCT_CAP 4096

/* Whether column C of a table of ROWS rows can be its key (import.c
 * checks uniqueness): short text that names things, never empty. */
int ig_key_candidate(const ig_column *c, long rows);

/* The shortest text of D that reads back as D ("0.1", "12", "1e+300"),
 * for JSON numbers wherever the import turns them into text. */
void ig_number_text(double d, char *out, size_t n);

/* Pass 1's distinct values of a column: whether there were more than it
 * counts, and how many it counted. */
int ig_stats_full(const ig_stats *st);
long ig_stats_distinct(const ig_stats *st);

/* Free pass-1 counts. */
void ig_stats_free(ig_stats *st);

#endif
