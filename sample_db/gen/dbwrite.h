/*
 * dbwrite.h — writing a sample database: file lifecycle, schema, metadata.
 *
 * A table is described once, as an array of gen_column; gen_db_define_table
 * turns it into both the CREATE TABLE statement and the genie_columns rows,
 * so the exposed schema cannot drift from the real one.  All functions return
 * 0 or a GN_E* code with detail in e.
 */
#ifndef GENIE_GEN_DBWRITE_H
#define GENIE_GEN_DBWRITE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/util/err.h"

typedef struct gen_column {
    const char *name;
    const char *type;        /* text int real enum date time bool */
    int is_array;            /* stored as a JSON array of strings */
    int free_text;           /* indexed for retrieval */
    const char *enum_values; /* JSON array for enum columns, else NULL */
    const char *sql_extra;   /* appended to the column definition, or NULL */
    const char *description;
} gen_column;

/* Create a fresh database at path (an existing file there is replaced) with
 * bulk-load settings and the genie_columns / genie_meta tables.  On success
 * *db is open; the caller closes it with gen_db_close. */
int gen_db_create(sqlite3 **db, const char *path, gn_err *e);

/* Close db (NULL is a no-op); reports a failure to flush. */
int gen_db_close(sqlite3 *db, gn_err *e);

/* Run SQL without results. */
int gen_db_exec(sqlite3 *db, const char *sql, gn_err *e);

/* Prepare one statement; *st is NULL on failure. */
int gen_db_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql, gn_err *e);

/* Step st to completion, then reset it and clear its bindings. */
int gen_db_run(sqlite3 *db, sqlite3_stmt *st, gn_err *e);

/* Bind helpers (1-based index).  Text is bound without a copy
 * (SQLITE_STATIC): it must stay valid until gen_db_run returns.  NULL text
 * binds SQL NULL. */
void gen_db_bind_text(sqlite3_stmt *st, int i, const char *s);
void gen_db_bind_int(sqlite3_stmt *st, int i, int64_t v);
void gen_db_bind_real(sqlite3_stmt *st, int i, double v);

/* CREATE TABLE tbl from cols and, when exposed, describe it in
 * genie_columns (pos = array index).  Ground-truth tables pass exposed = 0. */
int gen_db_define_table(sqlite3 *db, const char *tbl, const gen_column *cols, size_t n,
                        int exposed, gn_err *e);

/* Write the genie_meta rows (generator, dataset, seed, scale, version). */
int gen_db_write_meta(sqlite3 *db, const char *dataset, uint64_t seed, double scale,
                      gn_err *e);

#endif
