/*
 * brief.h — knowledge-base rows cut to what a prompt needs.
 *
 * A search result row can carry kilobytes of free text (twenty reviews,
 * a catalog description).  Each prompt needs a different part of it:
 *
 *   KEYS   the parser resolves "the second one" and fills fields: the
 *          short values only (names, numbers, enums, short lists); long
 *          texts are left out.
 *   FACTS  the response generator says what was found: short values,
 *          long texts cut, and of a list of passages (reviews) the two
 *          most relevant to the question, or one for each condition.
 */
#ifndef GENIE_WS_BRIEF_H
#define GENIE_WS_BRIEF_H

#include "worksheet/value.h"

enum ws_brief { WS_BRIEF_KEYS, WS_BRIEF_FACTS };

/* A new value: ROWS (a list of dicts, or anything else, copied as it is)
 * with at most MAX_ROWS rows, each cut for MODE.  QUESTION (may be NULL)
 * ranks passages in FACTS mode; when it has several lines (the question,
 * then each free-text condition of its query) each line after the first
 * gets its own most relevant passage first. */
ws_val *ws_brief(const ws_val *rows, int max_rows, enum ws_brief mode, const char *question);

#endif
