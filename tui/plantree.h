/*
 * plantree.h — a SUQL plan as a tree (genie --explain, the SUQL pane).
 *
 * The engine's plan is an outline: "key: value" lines at the top, blocks
 * ("conjunct 1:", "where, in disjunctive normal form:") whose lines are
 * indented under them, and continuation lines indented further.  The tree
 * draws that outline with branches, the query at its root; with the
 * statistics of a run (--analyze) each conjunct's node carries what it
 * did (candidates, checked, passed, evaluations) and the final node the
 * rows returned.  Nothing is parsed beyond the indentation and the block
 * names, so a new line of the plan shows in the tree as it is.
 */
#ifndef GENIE_TUI_PLANTREE_H
#define GENIE_TUI_PLANTREE_H

#include "genie.h"
#include "util/buf.h"

/* Append PLAN (the engine's explain text) to OUT as a tree; ST (may be
 * NULL) puts a run's counts on its nodes.  ASCII: branches drawn "|-",
 * "`-" instead of the box characters. */
void pt_render(const char *plan, const suql_run_stats *st, int ascii, gn_buf *out);

#endif
