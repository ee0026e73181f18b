/*
 * golden.h — golden files of "query -> outcome" cases (the .golden files of tests/suql).
 *
 * A case is any number of lines ('#' comments, blank lines, then the
 * query, whose lines follow one another) and a line "-> OUTCOME".  An
 * outcome is one line: a newline in it is written \n, a carriage return
 * \r and a backslash \\, so no outcome can spill into the next case.  A
 * case expects an error when its recorded outcome starts with "ERROR".
 * Tests compute each case's outcome and compare, or with
 * GENIE_UPDATE_GOLDEN=1 rewrite the file from the heads and new outcomes.
 */
#ifndef GENIE_TEST_GOLDEN_H
#define GENIE_TEST_GOLDEN_H

#include "util/buf.h"

typedef struct th_gcase {
    char *head;      /* comment lines and the query, as in the file */
    char *query;     /* the query alone */
    char *expect;    /* the recorded outcome, unescaped */
    int line;        /* the line of its "->" */
} th_gcase;

/* The cases of the golden file PATH (*OUT, caller frees with
 * th_golden_free); returns the count, or -1 with nothing to free after
 * th_fail has said what is wrong: PATH unreadable, an outcome with an
 * escape other than \n, \r and \\, a query cut by a blank or comment line
 * (a line left over from an outcome that spanned lines), a query after
 * the last outcome. */
int th_golden_load(const char *path, th_gcase **out);
void th_golden_free(th_gcase *v, int n);

/* Appends case C, the Ith of the file PATH (0-based), with OUTCOME
 * escaped to REGEN, the file's new text.  An error outcome for a case
 * that does not expect one is refused: th_fail names the case, REGEN gets
 * the recorded outcome, and the return is -1 (else 0).  To make a case
 * expect an error, write its outcome "-> ERROR" by hand. */
int th_golden_append(gn_buf *regen, const char *path, int i, const th_gcase *c,
                     const char *outcome);

#endif
