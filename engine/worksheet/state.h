/*
 * state.h — the formal dialogue state: a sequence of records.
 *
 * A task record is one instance of a task (or type) worksheet: a slot per
 * field with its value and bookkeeping (when it was set, whether the user
 * confirmed it, whether its actions ran, whether the agent asked for it).
 * A knowledge record is one question to the knowledge base: its
 * self-contained text, the SUQL it became, the result or the error.  The
 * state owns its records; records are named by a variable (book_restaurant,
 * book_restaurant_2, answer_1) that the parser uses to refer to them, and
 * referred to inside values by id (value.h).
 */
#ifndef GENIE_WS_STATE_H
#define GENIE_WS_STATE_H

#include "util/buf.h"
#include "util/err.h"
#include "worksheet/coerce.h"
#include "worksheet/spec.h"
#include "worksheet/value.h"

#include <cjson/cJSON.h>

enum ws_rec_kind { WR_TASK, WR_KB };

typedef struct ws_slot {
    ws_val *val;              /* NULL when unset */
    int set_turn;             /* turn of the last assignment, 0: never */
    int confirmed;            /* the user confirmed this value */
    int acted;                /* its field actions ran for this value */
    unsigned acted_sig;       /* and for these values of the fields they
                                 read (ws_field.reads); see policy.c */
    int asked;                /* the agent asked for it at least once */
    int asked_turn;           /* the turn it last asked for it, 0: never */
    char *why;                /* why the last value given was refused, to
                                 be said when asking again; NULL */
} ws_slot;

typedef struct ws_record {
    int id;
    enum ws_rec_kind kind;
    char *var;
    int created_turn;
    int by_agent;             /* created by an action (propose, nesting) */
    /* task records */
    int sheet;                /* index in spec->sheets */
    ws_slot *slots;           /* one per field of the sheet */
    int parent, parent_field; /* the record/field holding this one, -1 */
    int done;                 /* its worksheet actions and API ran */
    int abandoned;            /* exitws() */
    int hold_turn;            /* do not ask its confirm field this turn */
    int changed_turn;         /* the turn an input of it, or of a record
                                 in it, last changed (not saved) */
    ws_val *api_result;       /* what its backend API returned */
    /* knowledge records */
    char *question, *suql, *error, *missing;
    char *conditions;         /* the free-text questions the query asked
                                 of its rows (answer()), one a line, which
                                 choose the passages shown; or NULL */
    char *note;               /* what the reply must say of the result:
                                 partial (budget) or relaxed; or NULL */
    ws_val *result;           /* list of row dicts once run */
    int ran;
    int target, target_field; /* the task field the result fills, -1 */
} ws_record;

/* Grounds VALUE, given to a field of type T (WT_KB), in the knowledge
 * base: 0 with *out the row's own name for it (caller frees), or -1 with
 * WHY saying what is wrong (no such row, closest names; or several rows,
 * which ones). */
typedef int (*ws_ground_fn)(void *ud, const ws_spec *spec, const ws_type *t, const char *value,
                            char **out, char *why, size_t nwhy);

/* The row a stored VALUE of a field of type T (WT_KB) names, as a dict
 * (caller frees) of its `_id`, its naming field (the row's own name: the
 * key value) and its context field; NULL when VALUE names no one row. */
typedef ws_val *(*ws_row_fn)(void *ud, const ws_spec *spec, const ws_type *t, const char *value);

typedef struct ws_state {
    const ws_spec *spec;
    ws_ground_fn ground;      /* NULL: WT_KB values are taken as given */
    ws_row_fn row;            /* NULL: WT_KB values are passed as stored */
    void *ground_ud;
    ws_record **recs;
    int n, cap;
    int next_id;
    int turn;                 /* the turn being processed, from 1 */
    ws_date today;
} ws_state;

/* A new empty state for SPEC (borrowed; must outlive the state). */
ws_state *ws_state_new(const ws_spec *spec, ws_date today);
void ws_state_free(ws_state *st);

/* The record with id ID, or named VAR; NULL when none. */
ws_record *ws_state_rec(const ws_state *st, int id);
ws_record *ws_state_var(const ws_state *st, const char *var);

/* A new task record of sheet SHEET (its variable: the sheet's name in
 * lower case, with _2, _3... when taken), optionally nested in field FIELD
 * of record PARENT (-1 for none; the parent's slot is not touched). */
ws_record *ws_state_new_task(ws_state *st, int sheet, int parent, int field);
/* Is NAME an item of the comma-separated LIST ("location, date"), as a
 * knowledge record's missing parameters are written? */
int ws_list_has(const char *list, const char *name);

/* A new knowledge record asking QUESTION (variable answer_N). */
ws_record *ws_state_new_kb(ws_state *st, const char *question);

/* Store V (borrowed) in field FI of task record R after coercing it to the
 * field's type.  A changed value loses its confirmation and its actions'
 * mark; changing any other input field of R (or of a record nested in
 * it) clears R's `confirm` fields, so the agent asks again (internal and
 * output fields, which only actions set, do not).  A WT_KB field's value
 * is grounded through st->ground after coercion, and what it refuses is
 * refused like a misfit.  Returns 0, or -1 with the reason in WHY (the
 * slot is then left unset, so the agent asks again). */
int ws_state_set(ws_state *st, ws_record *r, int fi, const ws_val *v, char *why, size_t nwhy);
/* Set KEY of dict ARGS, an API call's arguments, to V (borrowed), the
 * value of a field of type T.  A WT_KB value that names one row is passed
 * as the row's key value (its own name, without the context a shared
 * name is stored with: "Linden", not "Linden (Palo Alto)"); with PARTS,
 * also as KEY::COLUMN for the row's `_id` and context field, which a SQL
 * API binds as $restaurant::location.  Anything else is copied as it is. */
void ws_state_arg(const ws_state *st, const ws_type *t, const char *key, const ws_val *v, ws_val *args,
                  int parts);
/* Clear field FI of R (value None). */
void ws_state_clear(ws_state *st, ws_record *r, int fi);

/* A field's value is present (set and not None). */
int ws_slot_filled(const ws_slot *s);

/* The latest knowledge record, or NULL. */
ws_record *ws_state_latest_kb(const ws_state *st);

/* Forget what the conversation has finished with, so a long session's
 * state (and what is saved of it each turn) stays bounded: knowledge
 * records and done or abandoned top-level task records (with the records
 * nested in them) whose last activity is KEEP_TURNS or more turns before
 * the current one.  Kept always: the latest knowledge record, any record a
 * kept record's value refers to, and the records a kept nested record is
 * nested in.  Record ids and the answer_N numbering never go back.
 * Returns the number of records forgotten. */
int ws_state_forget(ws_state *st, int keep_turns);

/* Append the state as the prompts show it: every live task record as
 * `var = Sheet(field=value, ...)` (nested records first, referred to by
 * name), then the last five knowledge records as `answer_N =
 * answer("...")` and `answer_N.result = [...]`: the latest with the short
 * values of at most MAX_ROWS rows (long texts left out), the one before
 * with those of its first five, the others with the first value of each
 * of their first rows.  Done and abandoned
 * records are shown with a trailing comment. */
void ws_state_print(const ws_state *st, int max_rows, gn_buf *out);

/* For a prompt whose acts carry this turn's knowledge results: the task
 * records, as ws_state_print shows them, then the last two knowledge records of earlier turns
 * with the short values of their first rows: what a reply that reports
 * this turn's results may still refer to ("its phone number is ...", of
 * a place found a turn ago). */
void ws_state_print_earlier(const ws_state *st, gn_buf *out);

/* The name ws_val_print uses for a record reference (a ws_recname_fn). */
const char *ws_state_recname(int id, void *st);

/* The whole state as JSON (for sessions and the front ends), and back.
 * from_json returns 0 or GN_ECORRUPT when the JSON does not fit SPEC. */
cJSON *ws_state_to_json(const ws_state *st);
int ws_state_from_json(const ws_spec *spec, const cJSON *j, ws_date today, ws_state **out, gn_err *e);

#endif
