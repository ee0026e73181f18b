/*
 * ingest.h — making a knowledge base from someone's own data files
 * (`genie --init DIR FILE...`).
 *
 * A data file is a CSV or TSV file with a header row, a JSON array of
 * objects, JSON Lines, or a SQLite database (each of its user tables).
 * Each becomes one ig_table.  Import is two streaming passes over the file,
 * so memory stays flat in the number of rows:
 *
 *   1. ig_infer: every cell is classified (integer, real, boolean, date,
 *      time, JSON array, separated parts) into bounded per-column counts
 *      and a capped set of distinct values; then each column gets one type
 *      (infer.c says how, and why in words for the user).
 *   2. ig_import: the rows are read again and written into a new table
 *      with the row id `_id`, each value converted to the column's type;
 *      a value that does not fit is stored as it was, as text, and counted.
 *      A key column (unique, short, name-like) is then looked for.
 *
 * ig_draft_* then describe the tables as a worksheet spec and an agent.ini
 * (draft.c).  Nothing here prints; errors name FILE:LINE.
 */
#ifndef GENIE_INGEST_H
#define GENIE_INGEST_H

#include "util/buf.h"
#include "util/err.h"

#include <sqlite3.h>

enum ig_format { IG_CSV, IG_TSV, IG_JSON, IG_JSONL, IG_SQLITE };

enum ig_type {
    IG_TEXT,      /* short text */
    IG_INT,
    IG_REAL,
    IG_BOOL,      /* yes/no, true/false, y/n, t/f, 0/1: stored 1/0 */
    IG_DATE,      /* YYYY-MM-DD (also read: YYYY/MM/DD) */
    IG_TIME,      /* HH:MM or HH:MM:SS (also read: 9:30, 7pm, 7:30 PM) */
    IG_ENUM,      /* few distinct values that repeat */
    IG_FREE,      /* long, wordy text: answer(), summary(), hybrid search */
    IG_LIST       /* a JSON array, or parts separated by ';' or '|' */
};

typedef struct ig_stats ig_stats;     /* pass-1 counts (infer.c) */

typedef struct ig_column {
    char *src;            /* the name in the file */
    char *name;           /* a valid SQL identifier, unique in its table */
    enum ig_type type;
    enum ig_type elem;    /* IG_LIST: IG_TEXT, IG_ENUM or IG_FREE */
    char sep;             /* IG_LIST: 0 for JSON arrays, else ';' or '|' */
    int key;              /* the table's key column */
    char **vals;          /* IG_ENUM (or a list of IG_ENUM): its values */
    int nvals;
    char *examples[3];    /* the first distinct values, for people */
    int nexamples;
    char why[200];        /* why this type, in words */
    long nonnull;         /* values that are not empty or NULL */
    long bad;             /* values that did not fit the type: kept as text */
    long bad_line;        /* the first one's line (row, for SQLite) */
    char *bad_value;      /* ... and its text */
    ig_stats *st;
} ig_column;

typedef struct ig_table {
    char *path;           /* the data file */
    char *label;          /* for messages: "wines.csv", "shop.db: books" */
    char *name;           /* the SQL table name */
    char *src_table;      /* IG_SQLITE: the table in the file */
    enum ig_format format;
    ig_column *cols;
    int ncols;
    long rows;
} ig_table;

/* Progress of a pass: DONE rows so far of TOTAL (0 when unknown);
 * returning nonzero cancels the work with GN_ECANCEL. */
typedef int (*ig_progress_fn)(void *ud, const ig_table *t, const char *stage, long done,
                              long total);

/* The tables of data file PATH, appended to *TABLES (grown; *N counts
 * them).  The format comes from the extension (.csv .tsv .tab .json
 * .jsonl .ndjson .db .sqlite .sqlite3) or, failing that, from the first
 * bytes.  Table names come from the file name (or the SQLite table's) made
 * valid identifiers, with a suffix where one is taken.  Columns are known
 * after ig_infer for JSON.  Returns 0 or GN_ENOTFOUND/GN_EIO/GN_EPARSE. */
int ig_open(const char *path, ig_table **tables, int *n, gn_err *e);

/* Pass 1: read T's rows and give each column its type.  Errors name
 * FILE:LINE (a ragged row, invalid UTF-8, broken quoting or JSON). */
int ig_infer(ig_table *t, ig_progress_fn fn, void *ud, gn_err *e);

/* Pass 2: create table T->name in DB (`_id INTEGER PRIMARY KEY` and the
 * columns) and fill it, in the caller's transaction; then mark the key
 * column.  Returns 0 or GN_EDB/GN_EIO/GN_EPARSE/GN_ECANCEL. */
int ig_import(ig_table *t, sqlite3 *db, ig_progress_fn fn, void *ud, gn_err *e);

/* The new database file PATH with every table of T[N] imported
 * (ig_import), in one transaction and without a journal: the caller makes
 * PATH somewhere nothing else reads until it is whole.  Returns as
 * ig_import. */
int ig_write_db(ig_table *t, int n, const char *path, ig_progress_fn fn, void *ud, gn_err *e);

void ig_tables_free(ig_table *tables, int n);

/* The type's name as people read it: "integer", "free text", "list of
 * enum", ... (for a column, with its element type). */
const char *ig_type_name(enum ig_type t);
void ig_column_type_str(const ig_column *c, char *buf, size_t n);

/* A valid SQL identifier from TEXT (lowercase ASCII letters, digits and
 * '_', accents dropped, never a keyword, never empty, never starting with
 * a digit or "genie_"); FALLBACK when nothing is left.  Caller frees. */
char *ig_ident(const char *text, const char *fallback);

/* ---- drafts (draft.c) ----------------------------------------------------- */

/* Descriptions written by the LLM (the DRAFT stage), each NULL where it
 * wrote none: the agent's, its greeting, each table's, each column's. */
typedef struct ig_drafts {
    char *agent, *greeting;
    char **table;         /* [ntables] */
    char ***column;       /* [ntables][ncols[i]] */
    int *ncols;
    int ntables;
    int found;            /* how many lines were used */
} ig_drafts;

/* The data of draft.prompt: {tables: [{name, rows, file, columns: [{name,
 * type, examples}]}]}.  Caller deletes. */
struct cJSON;
struct cJSON *ig_draft_prompt_data(const ig_table *tables, int n);

/* Read the model's reply: "agent: ...", "greeting: ...", "TABLE: ...",
 * "TABLE.COLUMN: ..." lines (list markers, bold and quotes around them
 * dropped; a bare COLUMN when there is one table); other lines are
 * ignored.  Texts are made one line, without control characters, at most
 * 300 bytes.  D->found says how many lines were used. */
void ig_drafts_parse(const ig_table *tables, int n, const char *reply, ig_drafts *d);
void ig_drafts_free(ig_drafts *d);

/* The worksheet spec (worksheet.csv) of TABLES: one db worksheet per
 * table, a field per column with its type, enum values, key ("primary")
 * and a description: the LLM's from D (may be NULL), else one made from
 * the column's name and values. */
void ig_draft_worksheet(const ig_table *tables, int n, const ig_drafts *d, gn_buf *out);

/* agent.ini: NAME, a description and greeting (D's, else drafted from the
 * data), DATABASE (a file name in the agent directory) and the spec. */
void ig_draft_agent_ini(const ig_table *tables, int n, const char *name, const char *database,
                        const ig_drafts *d, gn_buf *out);

#endif
