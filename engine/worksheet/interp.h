/*
 * interp.h — running worksheet statements against the dialogue state.
 *
 * Two trust levels.  PARSER mode runs what the contextual semantic parser
 * (an LLM) wrote: it may only start task records of declared worksheets,
 * assign input fields of records in the state, ask the knowledge base
 * (answer), confirm a value (confirm), compute with literals and read
 * fields; anything else (say, an API, an internal field, an unknown name)
 * is refused with an error before the statement has any effect.  ACTION
 * mode runs the developer's predicates and actions from the spec: it may
 * also assign internal and output fields of `self`, call the declared
 * APIs, and use say, propose, exitws and check.  Nothing is ever handed
 * to a general-purpose evaluator: every name, attribute and call is
 * resolved here against the spec, the state and the built-in table.
 */
#ifndef GENIE_WS_INTERP_H
#define GENIE_WS_INTERP_H

#include "util/err.h"
#include "worksheet/acts.h"
#include "worksheet/expr.h"
#include "worksheet/state.h"

enum ws_mode { WS_MODE_PARSER, WS_MODE_ACTION };

/* What lies outside the interpreter: the agent's declared APIs. */
typedef struct ws_host {
    /* Is NAME a declared API? */
    int (*has_api)(void *ud, const char *name);
    /* Call API NAME with ARGS (a dict: keyword arguments, and positional
     * ones under "$1", "$2"...); *out gets the result (a new value).
     * Returns 0 or an error code with e set. */
    int (*call_api)(void *ud, const char *name, const ws_val *args, ws_val **out, gn_err *e);
    void *ud;
} ws_host;

typedef struct ws_interp {
    ws_state *st;
    ws_acts *acts;            /* say/propose/check add acts here */
    const ws_host *host;      /* may be NULL: no APIs */
    enum ws_mode mode;
    int self;                 /* record id `self` names, -1 for none */
    int self_field;           /* the field whose actions run, -1 */
    int api_calls;            /* APIs called so far (for the events) */
    const char *utterance;    /* PARSER: the user's words this turn, the
                                 only source of a go-ahead (consent.h);
                                 NULL: none is taken */
    int typed;                /* PARSER: the statements are the user's own,
                                 typed (offline), not a model's reading:
                                 a go-ahead in them is the user's words */
} ws_interp;

/* Run statement S.  In PARSER mode the statement is checked first and a
 * refused statement changes nothing.  A value that does not fit its field
 * is not an error: the field is left empty with the reason noted in its
 * slot (the agent asks again).  Returns 0 or GN_EPARSE (refused: unknown
 * name, forbidden call, internal field...) / the API's error, with e's
 * line and column at the offending node. */
int ws_run_stmt(ws_interp *in, const ws_stmt *s, gn_err *e);

/* Run every statement of P; stops at the first error. */
int ws_run_prog(ws_interp *in, const ws_prog *p, gn_err *e);

/* Evaluate predicate N (ACTION mode, self as set) to a truth value.
 * Returns 0 or the error (the caller decides what a failing predicate
 * means). */
int ws_eval_pred(ws_interp *in, const ws_node *n, int *out, gn_err *e);

/* Is NAME one of the expression language's built-in functions (answer,
 * confirm, say, check, ...)? */
int ws_builtin_known(const char *name);

/* Evaluate N to a new value (caller frees).  Returns 0 or the error. */
int ws_eval(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e);

#endif
