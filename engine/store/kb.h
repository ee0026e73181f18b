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

#include "util/buf.h"
#include "util/err.h"

#include <sqlite3.h>

typedef struct st_column {
    char *name, *type;        /* type: text int real enum date time bool */
    int is_array, free_text;
    char **enum_vals;         /* NULL unless type is enum */
    int nenum;
    char *desc;               /* may be NULL */
    int side;                 /* an array column whose elements are also in
                                 the indexed side table st_side_table()
                                 names (set by st_schema_load) */
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

/* 0 when PATH does not exist or is a regular file; GN_ECORRUPT when it is
 * something else (a directory, a FIFO whose first read would wait for
 * ever, a device such as /dev/zero read as an empty database). */
int st_check_regular(const char *path, gn_err *e);

/* Read genie_columns into *out (caller frees with st_schema_free): tables in
 * the order they were described (a generator or worksheet puts the main one
 * first), columns by pos. */
int st_schema_load(sqlite3 *db, st_schema **out, gn_err *e);
void st_schema_free(st_schema *s);

/* The table or column named NAME (case-insensitive), or NULL. */
const st_table *st_schema_table(const st_schema *s, const char *name);
const st_column *st_table_column(const st_table *t, const char *name);

/* Append the schema as the parsers' prompts show it to the LLM (and
 * `genie --schema` to people): one CREATE TABLE per table, columns typed
 * TEXT, INT, REAL, DATE, TIME, BOOLEAN; arrays with [], free-text columns
 * FREE_TEXT (FREE_TEXT[]), enums of at most MAX_ENUM values as
 * ENUM ('a', 'b'), larger ones as TEXT with their count and first values in
 * the comment; each column's description as a "--" comment (schema_sql.c). */
void st_schema_sql(const st_schema *s, int max_enum, gn_buf *out);

/* Make DB a read-only connection for running queries that came from an LLM
 * or a person (guard.c): an authorizer allows reading only (no writes,
 * schema changes, ATTACH/DETACH, transactions or PRAGMAs other than a
 * read-only few), extension loading is off, PRAGMA query_only is on, and
 * SQL length and expression depth are bounded.  A denied statement fails to
 * prepare with "not authorized".  Returns 0 or GN_EDB. */
int st_guard(sqlite3 *db, gn_err *e);

/* Append S quoted for SQL, the quote doubled inside: as an identifier
 * ("a""b") or as a string literal ('it''s').  NULL S appends "" or ''. */
void st_ident(gn_buf *b, const char *s);
void st_literal(gn_buf *b, const char *s);

/* The side table of array column COL of table T: "genie_arr_T_COL",
 * written into BUF (size N); returns BUF.  Its rows are (row, value): one
 * per element, row the element's row _id; primary key (value, row). */
const char *st_side_table(const char *t, const char *col, char *buf, size_t n);

/* Make the structures that keep structured filters fast at scale
 * (structured.c), on a writable knowledge base, where missing: an index on
 * every scalar column that is not free text (in a table with free text,
 * carrying the table's number, enum, boolean, date, time and array
 * columns that are not free text too,
 * so that filters and sorts on them never read the long rows; an index
 * with other columns is made again), and for every array column that is
 * not free text a side table of its elements (indexed by value) kept in
 * sync by triggers.  Marks S's columns that have side tables.
 * *MADE (may be NULL) gets how many structures were created or remade.  Returns 0 or
 * GN_EDB; on error nothing half-made remains (one transaction). */
int st_structured_ensure(sqlite3 *db, st_schema *s, int *made, gn_err *e);

/* Set a gn_err from the connection's last error, prefixed by WHAT. */
int st_dberr(sqlite3 *db, gn_err *e, const char *what);

#endif
