/*
 * policy.h — the agent policy (Algorithm 1 of the Genie Worksheets paper).
 *
 * Given the state after the parser's statements were applied and the
 * knowledge records of this turn were run, decide the agent acts, in this
 * order: report each new knowledge record (or ask for its missing required
 * parameters); confirm assigned fields that need confirmation; run the
 * actions of newly assigned fields; for each task record that is complete,
 * run its worksheet actions and backend API and report the result; then,
 * unless a question is already asked, ask the first unfilled field whose
 * predicate holds.  At most one question (AskField or Confirm) per turn;
 * the user's initiative (their questions) is served first.
 */
#ifndef GENIE_WS_POLICY_H
#define GENIE_WS_POLICY_H

#include "worksheet/interp.h"

/* Problems met while running the developer's predicates and actions: each
 * is reported through CB (may be NULL) and the policy goes on. */
typedef void (*ws_policy_warn_fn)(void *ud, const gn_err *e);

/* Run the policy on IN->st (IN's mode and self are set here), appending
 * acts to IN->acts.  Returns 0; backend API failures become Say acts and
 * leave the task open. */
int ws_policy_run(ws_interp *in, ws_policy_warn_fn warn, void *ud);

/* Is task record R complete: every active required field (and every
 * `confirm` field) filled, confirmed where the spec asks, and its nested
 * records complete? */
int ws_record_complete(ws_interp *in, const ws_record *r);

#endif
