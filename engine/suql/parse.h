/*
 * parse.h — SUQL text to the typed tree of ast.h.
 *
 * The grammar is PostgreSQL's own (libpg_query), so every valid PostgreSQL
 * SELECT reads as PostgreSQL reads it, answer(x, 'q') and summary(x)
 * included (they are ordinary function calls to the grammar), and syntax
 * errors carry PostgreSQL's message and position.
 *
 * Only reads get through: exactly one statement, a SELECT (WITH allowed).
 * Anything else — another statement kind, a second statement, SELECT INTO,
 * FOR UPDATE, a data-modifying WITH — is refused with GN_EUSAGE, whatever
 * the SQL hides in it; a string literal stays one string literal.  A
 * construct of PostgreSQL that SUQL does not support is refused with
 * GN_EPARSE "unsupported: ..." at its position; no clause is ever dropped.
 *
 * Positions in errors: line and column, 1-based, the column counted in
 * UTF-8 characters; e->file is left empty.
 */
#ifndef GENIE_SUQL_PARSE_H
#define GENIE_SUQL_PARSE_H

#include "suql/ast.h"
#include "util/buf.h"
#include "util/err.h"

/* Longest query text accepted, in bytes. */
#define SUQL_MAX_QUERY ((size_t)1 << 20)
/* Deepest nesting of expressions, statements and FROM items. */
#define SUQL_MAX_DEPTH 100
/* Most operators (plus nesting keywords and bracket depth) in one query:
 * libpg_query builds and prints its tree recursively without a depth
 * check, so this bounds the C stack it needs (about 1 MiB) before it runs. */
#define SUQL_MAX_OPERATORS 5000

/* Parse TEXT (NUL-terminated, UTF-8).  On success returns 0 and sets *out
 * to a query the caller frees with suql_query_free; it holds a copy of
 * TEXT.  On failure *out is NULL and the return is
 *   GN_EPARSE  syntax error ("syntax error at or near \"FORM\""), invalid
 *              UTF-8, an empty query, a wrong number of arguments to
 *              answer() or summary(), or "unsupported: <what>";
 *   GN_EUSAGE  "only a single SELECT query is allowed" (other statement
 *              kinds, several statements, writes hidden in a SELECT);
 *   GN_ELIMIT  longer than SUQL_MAX_QUERY, nested deeper than
 *              SUQL_MAX_DEPTH, or more than SUQL_MAX_OPERATORS operators;
 * with the position of the offending token or node in e when known. */
int suql_parse(const char *text, suql_query **out, gn_err *e);

/* Append to OUT the line of TEXT that e points at and a caret under the
 * column, compiler style (two lines, each ending in '\n'; tabs kept so the
 * caret lines up; a long line is cut to a window around the column, with
 * "..." at the cuts).  Appends nothing when e has no line. */
void suql_error_caret(const char *text, const gn_err *e, gn_buf *out);

/* Line and column (1-based, column in UTF-8 characters) of byte offset
 * POS in TEXT; POS past the end counts as the end. */
void suql_linecol(const char *text, int pos, int *line, int *col);

/* For the passes after parsing: set E to CODE with a printf-style message
 * and the line and column of byte offset POS in Q's text (no position
 * when POS < 0).  Returns CODE. */
int suql_error_at(gn_err *e, int code, const suql_query *q, int pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
