/*
 * parse_int.h — shared by the files of the SUQL parser (parse.c,
 * parse_expr.c, parse_stmt.c, scan.c); not for other modules.
 *
 * libpg_query gives the PostgreSQL parse tree as JSON: every node is an
 * object with one key, the node type, whose value holds the fields, e.g.
 * {"A_Const": {"ival": {"ival": 5}, "location": 7}}.  Fields at their zero
 * value (0, false, "", empty list) are left out, so an absent field reads
 * as zero.  The walkers turn that tree into the AST of ast.h.
 */
#ifndef GENIE_SUQL_PARSE_INT_H
#define GENIE_SUQL_PARSE_INT_H

#include "suql/ast.h"
#include "util/err.h"

#include <cjson/cJSON.h>
#include <stddef.h>

typedef struct suql_pstate {
    suql_query *q;
    const char *text;
    size_t len;
    int depth;          /* tree levels entered so far (SUQL_MAX_DEPTH) */
    int last_pos;       /* the latest valid location seen: the position of
                           nodes that have none (location -1 or absent) */
    gn_err *e;
} suql_pstate;

/* A field the walker tolerates with a specific refusal: the field's
 * presence means a construct SUQL does not support. */
typedef struct suql_refusal {
    const char *key;
    const char *what;   /* "window functions (OVER)" */
    int code;           /* GN_EPARSE, or GN_EUSAGE for writes */
} suql_refusal;

/* ---- errors (parse.c) ---- */

/* Set p->e to CODE with the message at byte offset POS (-1: unknown);
 * returns CODE. */
int suql_fail(suql_pstate *p, int code, int pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* GN_EPARSE "unsupported: WHAT" at POS. */
int suql_unsupported(suql_pstate *p, int pos, const char *what);
/* Checks that every field of BODY (a node of type NODE at POS) is in
 * ALLOWED (NULL-terminated), so that none is ignored: 0, or the error for
 * the first other field, with its REFUSED message (NULL-terminated by key;
 * REFUSED may be NULL) or a generic "unsupported: NODE.field". */
int suql_check_fields(suql_pstate *p, const cJSON *body, const char *node, int pos,
                      const char *const *allowed, const suql_refusal *refused);
/* Count one tree level entered at POS: 0, or GN_ELIMIT beyond
 * SUQL_MAX_DEPTH.  Every suql_enter that returns 0 is paired with one
 * suql_leave. */
int suql_enter(suql_pstate *p, int pos);
void suql_leave(suql_pstate *p);

/* ---- JSON access (parse.c) ---- */

/* The node type of NODE ({"Type": {...}}), with *body set to its fields;
 * NULL when NODE is not a one-key object. */
const char *suql_node(const cJSON *node, const cJSON **body);
/* Fields: the value, or the zero value when absent. */
const cJSON *suql_field(const cJSON *body, const char *key);
int suql_int_field(const cJSON *body, const char *key);
int suql_bool_field(const cJSON *body, const char *key);
const char *suql_str_field(const cJSON *body, const char *key);  /* NULL if absent */
/* The node's location, or p->last_pos when it has none; a valid location
 * becomes the new p->last_pos. */
int suql_loc(suql_pstate *p, const cJSON *body);
/* For nodes without a location field (A_Indirection, JoinExpr, ...): the
 * smallest location inside the node, or p->last_pos; it becomes the new
 * p->last_pos. */
int suql_first_loc(suql_pstate *p, const cJSON *body);
/* Number of elements of the array field KEY (0 when absent). */
int suql_list_len(const cJSON *body, const char *key);
/* The sval of a {"String": {"sval": ...}} node, or NULL. */
const char *suql_string_node(const cJSON *node);
/* The names of a list of String nodes as an arena array; *n is set.
 * Returns 0, or GN_EPARSE when an item is not a String. */
int suql_name_list(suql_pstate *p, const cJSON *list, int pos, const char ***out, int *n);

/* ---- walkers ---- */

/* An expression node to the AST (parse_expr.c). */
int suql_parse_expr(suql_pstate *p, const cJSON *node, suql_expr **out);
/* A list of expression nodes to an arena array (parse_expr.c). */
int suql_parse_exprs(suql_pstate *p, const cJSON *list, suql_expr ***out, int *n);
/* A SelectStmt body (the object inside {"SelectStmt": ...}) (parse_stmt.c). */
int suql_parse_select(suql_pstate *p, const cJSON *body, suql_select **out);
/* A list of SortBy nodes to an arena array (parse_stmt.c). */
int suql_parse_sort(suql_pstate *p, const cJSON *list, suql_order **out, int *n);
/* A WindowDef body (OVER's, or one inside WINDOW) to a new window; frame
 * clauses other than the default are refused (parse_stmt.c). */
int suql_parse_window(suql_pstate *p, const cJSON *body, suql_window **out);

/* ---- lexical helpers (scan.c) ---- */

/* How deep a tree libpg_query could build from TEXT at most: operators,
 * nesting keywords and the bracket depth.  When that passes LIMIT,
 * returns the byte offset where it did; else -1. */
long suql_scan_complexity(const char *text, size_t len, int limit);
/* If the word just before POS (skipping blanks and '(') is one of WORDS
 * (NULL-terminated, lower case; compared case-insensitively), its offset;
 * else -1. */
int suql_word_before(const char *text, int pos, const char *const *words);
/* POS moved past blanks and comments. */
int suql_skip_blank(const char *text, size_t len, int pos);
/* Byte offset of the first invalid UTF-8 sequence in TEXT, or -1. */
long suql_bad_utf8(const char *text, size_t len);

#endif
