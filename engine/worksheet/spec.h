/*
 * spec.h — a Genie Worksheets specification: worksheets and their fields.
 *
 * Read from the spreadsheet layout (CSV, columns Form Predicate, Form Name,
 * Predicate, Kind, Type, Name, Enum Values, Description, Don't Ask,
 * Required, Confirm, Actions, Form Actions; a header row names them, so
 * their order may differ and "WS Predicate"/"WS Name"/"WS Actions"/
 * "Confirmation" are accepted spellings) or from the same content as JSON
 * (spec_json.c).  A worksheet row has Form Name and Type `worksheet`
 * (task), `db` (a knowledge-base table) or `type` (a composite value used
 * as a field type), with the backend API name in Name; its field rows
 * follow; the values of an Enum field sit in the Enum Values column of the
 * rows right below it.
 *
 * Every predicate and action is parsed when the spec loads (expr.h), every
 * type is resolved, and the spec is checked (duplicate worksheets or
 * fields, unknown types, enums without values, fields before any
 * worksheet, ...): a spec that loads is one the runtime can use.  Errors
 * carry the file, the line and the column (the spreadsheet column's number,
 * or the position inside an expression).
 */
#ifndef GENIE_WS_SPEC_H
#define GENIE_WS_SPEC_H

#include "util/err.h"
#include "worksheet/expr.h"

enum ws_sheet_kind { WSK_TASK, WSK_DB, WSK_TYPE };
enum ws_field_kind { WFK_INPUT, WFK_INTERNAL, WFK_OUTPUT };

enum ws_type_kind {
    WT_STR, WT_INT, WT_FLOAT, WT_BOOL, WT_DATE, WT_TIME, WT_CONFIRM,
    WT_ENUM, WT_TEXT,            /* TEXT: free text (db worksheets) */
    WT_SHEET,                    /* another worksheet or type: sheet */
    WT_LIST,                     /* List[elem] */
    WT_KB                        /* a row of db worksheet `sheet`, named by
                                    its field `col` (text; grounded) */
};

typedef struct ws_sheet ws_sheet;

typedef struct ws_type {
    enum ws_type_kind kind;
    struct ws_type *elem;        /* LIST */
    int sheet;                   /* SHEET, KB: index into spec->sheets */
    int col;                     /* KB: the naming field of that sheet */
} ws_type;

typedef struct ws_field {
    char *name;
    enum ws_field_kind kind;
    int primary;                 /* "internal; primary" */
    ws_type type;
    char *type_src;              /* as written, e.g. "List[str]" */
    char **enums;                /* ENUM (or List[Enum]) values */
    int nenums;
    char *desc;                  /* "" when none */
    int dont_ask, required, confirm;
    char *pred_src;              /* NULL when none */
    ws_node *pred;
    char *act_src;               /* NULL when none */
    ws_prog *actions;            /* NULL when none */
    /* The fields of its own sheet (bit i: field i, below 64) that its
     * actions read as self.NAME without setting them: the actions wait
     * for those that are input fields and run again when any changes. */
    unsigned long long reads;
    /* The fields of its own sheet its actions set (self.title = ...):
     * what they derived from the old value is cleared when it changes. */
    unsigned long long sets;
    int line;                    /* of its row */
} ws_field;

struct ws_sheet {
    char *name;
    enum ws_sheet_kind kind;
    char *api;                   /* backend API (Name column), NULL if none */
    char *pred_src;
    ws_node *pred;
    char *act_src;
    ws_prog *actions;
    char *desc;                  /* "" when none */
    ws_field *fields;
    int nfields;
    int line;
};

typedef struct ws_spec {
    char *path;
    ws_sheet *sheets;
    int nsheets;
} ws_spec;

/* Whether NAME cannot name a field (a reserved word of the expression
 * language: class, pass, ...) or, with SHEET, a worksheet (nor a built-in
 * type's name: date, text, list, ...). */
int ws_name_reserved(const char *name, int sheet);

/* Load PATH: JSON when it ends in .json, else CSV.  Returns 0 with *out
 * set (free with ws_spec_free), or GN_ENOTFOUND/GN_EIO/GN_EPARSE (GN_ELIMIT
 * past 16 MiB) with e's file, line and column set. */
int ws_spec_load(const char *path, ws_spec **out, gn_err *e);
/* The same from text in memory (NAME names it in errors). */
int ws_spec_parse_csv(const char *name, const char *text, size_t len, ws_spec **out, gn_err *e);
int ws_spec_parse_json(const char *name, const char *text, ws_spec **out, gn_err *e);
void ws_spec_free(ws_spec *s);

/* Lookups by name (case-sensitive, as the parser must write them), or
 * NULL / -1. */
const ws_sheet *ws_spec_sheet(const ws_spec *s, const char *name);
int ws_spec_sheet_index(const ws_spec *s, const char *name);
const ws_field *ws_sheet_field(const ws_sheet *w, const char *name);
int ws_sheet_field_index(const ws_sheet *w, const char *name);

/* Append T as the parser prompt writes it: str, int, float, bool, date,
 * time, confirm, Enum["a", "b"], List[str], or the worksheet's name. */
void ws_type_print(const ws_spec *s, const ws_field *f, const ws_type *t, gn_buf *out);

/* Append the signatures of the task and type worksheets as Python-like
 * classes (parse.prompt's `worksheets`): the class line, the description
 * as a docstring, then one line per input field `name: type  # desc`. */
void ws_spec_signatures(const ws_spec *s, gn_buf *out);

#endif
