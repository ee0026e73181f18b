/*
 * result.h — the rows a SUQL query returns, and how they are printed.
 *
 * A result is a table of cells, each NULL, an integer, a real or text
 * (JSON arrays from array columns stay text, in their JSON form).  Cells
 * that came from the offline fallbacks are flagged so front ends can mark
 * them.  Each column may carry the type the analyzer inferred for it: the
 * renderers print a boolean column (SQLite's 1/0) as true/false and an
 * array column as a JSON array.  The renderers are here, beside the type,
 * because --suql, the test harness and the chat view all print results
 * the same three ways.
 */
#ifndef GENIE_SUQL_RESULT_H
#define GENIE_SUQL_RESULT_H

#include "suql/ast.h"
#include "util/buf.h"

#include <cjson/cJSON.h>

enum suql_cell_type { SUQL_NULL, SUQL_INT, SUQL_REAL, SUQL_TEXT };

typedef struct suql_cell {
    enum suql_cell_type type;
    long long i;
    double d;
    char *text;           /* SUQL_TEXT: owned, NUL-terminated */
    int offline;          /* computed by an offline fallback */
} suql_cell;

/* What the analyzer inferred for an output column (ast.h). */
typedef struct suql_coltype {
    suql_vtype vtype;     /* SUQL_VT_UNKNOWN: printed by the cells alone */
    int varray;           /* an array: its cells hold JSON array text */
} suql_coltype;

typedef struct suql_result {
    char **names;         /* ncols column names */
    suql_coltype *types;  /* ncols column types, all unknown after init */
    int ncols;
    suql_cell *cells;     /* nrows x ncols, row-major */
    int nrows, cap;
    char *note;           /* e.g. "verification budget reached", or NULL */
} suql_result;

/* An empty result with these column names (copied), their types unknown
 * (the engine sets types[] from the analyzed select list). */
void suql_result_init(suql_result *r, const char *const *names, int ncols);

/* Free everything R owns; R is then empty. */
void suql_result_release(suql_result *r);

/* Append a row of ncols NULL cells and return it, to be filled with
 * suql_cell_set_* (the result owns the cells). */
suql_cell *suql_result_add_row(suql_result *r);

void suql_cell_set_int(suql_cell *c, long long v);
void suql_cell_set_real(suql_cell *c, double v);
void suql_cell_set_text(suql_cell *c, const char *s);   /* copied; NULL = NULL */

/* The cell as text: integers in decimal, reals in the shortest form that
 * reads back exactly, NULL as "" (static or owned storage; valid until the
 * cell changes).  BUF is scratch of at least 32 bytes. */
const char *suql_cell_text(const suql_cell *c, char *buf);

/* Render R as an aligned table fitting WIDTH display columns (at least
 * 20): columns share the width in proportion to their content, long cells
 * are cut at a character boundary and end in "…"; newlines and tabs in
 * cells are shown as spaces; a last line counts the rows.  Cells read as
 * suql_cell_text, except 1/0 in a boolean column: true/false. */
void suql_result_table(const suql_result *r, int width, gn_buf *out);

/* Render R as JSON: an array of objects, one per row, keys in column order
 * (a repeated name gets ":2", ":3"), values as PostgreSQL's row_to_json
 * writes them: integers exactly (past 2^53 too), reals in the fewest
 * digits that read back the same ("4", "0.30000000000000004", "1e+300"),
 * NaN and infinities as the strings "NaN", "Infinity", "-Infinity",
 * 1/0 in a boolean column as true/false, an array column's JSON text as
 * the array, other text as strings, NULL as null. */
void suql_result_json(const suql_result *r, gn_buf *out);
/* The same as a cJSON array (caller frees), of at most MAX_ROWS rows
 * (negative: all).  Numbers are cJSON raw items (cJSON_IsRaw) holding that
 * exact text, since a cJSON number is a double and prints only 15 digits
 * reliably: read them with strtoll/strtod on valuestring. */
cJSON *suql_result_cjson(const suql_result *r, int max_rows);

/* Render R as CSV (RFC 4180): a header line, then the rows; fields quoted
 * when they hold a comma, quote, CR or LF; CRLF line ends.  Fields read as
 * in the table (a boolean column: true/false). */
void suql_result_csv(const suql_result *r, gn_buf *out);

#endif
