/*
 * kb.h — a knowledge base: one SQLite file and the schema it exposes.
 *
 * The exposed schema is described in the table genie_columns (one row per
 * column: tbl, col, pos, type, is_array, free_text, enum_values JSON,
 * description).  Tables not listed there (genie_* bookkeeping, _truth_* ground
 * truth) are invisible to the agent.  Array columns hold JSON arrays.
 */
#ifndef GENIE_KB_H
#define GENIE_KB_H

#include "util/err.h"

#include <sqlite3.h>

typedef struct st_column {
    char *name, *type;        /* type: text int real enum date time bool */
    int is_array, free_text;
    char **enum_vals;         /* NULL unless type is enum */
    int nenum;
    char *desc;               /* may be NULL */
} st_column;

typedef struct st_table {
    char *name;
    st_column *cols;
    int ncols;
} st_table;

typedef struct st_schema {
    st_table *tables;
    int ntables;
} st_schema;

/* Open the SQLite file PATH (read-write when WRITABLE, else read-only; never
 * creates it) and check that it is a readable genie knowledge base.  Errors:
 * GN_ENOTFOUND (no such file), GN_ECORRUPT (not SQLite, damaged, or no
 * genie_columns), GN_EDB (locked or other SQLite failure).  *db is set only
 * on success; close with sqlite3_close. */
int st_open(const char *path, int writable, sqlite3 **db, gn_err *e);

/* Read genie_columns into *out (caller frees with st_schema_free). */
int st_schema_load(sqlite3 *db, st_schema **out, gn_err *e);
void st_schema_free(st_schema *s);

/* The table or column named NAME (case-insensitive), or NULL. */
const st_table *st_schema_table(const st_schema *s, const char *name);
const st_column *st_table_column(const st_table *t, const char *name);

/* Set a gn_err from the connection's last error, prefixed by WHAT. */
int st_dberr(sqlite3 *db, gn_err *e, const char *what);

#endif
