/*
 * spec_int.h — what the spec loader's files share (spec.c: building,
 * checking, lookups, printing; spec_csv.c and spec_json.c: the two
 * formats).  Not a public header.
 */
#ifndef GENIE_WS_SPEC_INT_H
#define GENIE_WS_SPEC_INT_H

#include "worksheet/spec.h"

#include <stddef.h>

/* Largest spec file ws_spec_load reads. */
#define WS_SPEC_MAX_FILE (16u << 20)

/* What part of a worksheet or field an error is about. */
enum ws_what { WW_ROW, WW_NAME, WW_TYPE, WW_ENUM, WW_PRED, WW_ACT };

/* How a format places errors: FN fills *line, *col and LABEL (a prefix for
 * the message such as "Predicate" or "worksheets[0].fields[2].type"; left
 * empty for none) for part WHAT of field FIELD of sheet SHEET (FIELD -1:
 * the sheet itself); ITEM indexes enum values. */
typedef struct ws_where {
    const char *file;
    const char *enum_hint;       /* "list them in ..." for enums without values */
    void (*fn)(void *ud, int sheet, int field, enum ws_what what, int item,
               int *line, int *col, gn_buf *label);
    void *ud;
} ws_where;

/* A new empty spec named PATH (copied). */
ws_spec *ws_spec_new_empty(const char *path);
/* Append a zeroed sheet (desc "") / field (desc "", type.sheet -1) / enum
 * value (copied); return its index.  Pointers into the arrays move. */
int ws_spec_add_sheet(ws_spec *s);
int ws_sheet_add_field(ws_sheet *w);
void ws_field_add_enum(ws_field *f, const char *v);

/* Parse a worksheet kind (worksheet/task/ws, db/kb, type; any case).
 * 0 or -1. */
int ws_sheet_kind_parse(const char *text, enum ws_sheet_kind *out);

/* The candidate closest to WORD (case folded), when at most 2 edits away
 * and closer than WORD's length; else NULL. */
const char *ws_did_you_mean(const char *word, const char *const *cands, int n);

/* A copy of the N bytes at P without surrounding white space, or NULL when
 * nothing is left (caller frees). */
char *ws_trimdup(const char *p, size_t n);

/* Check S, resolve its types, parse its predicates and actions, in
 * document order: the first error (GN_EPARSE, placed through W) wins. */
int ws_spec_check(ws_spec *s, const ws_where *w, gn_err *e);

#endif
