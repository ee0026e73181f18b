/*
 * golden.h — golden files of "query -> outcome" cases (the .golden files of tests/suql).
 *
 * A case is any number of lines ('#' comments, then the query, which may
 * span lines) and a line "-> OUTCOME"; blank lines between cases are
 * ignored.  Tests compute each case's outcome and compare, or with
 * GENIE_UPDATE_GOLDEN=1 rewrite the file from the heads and new outcomes.
 */
#ifndef GENIE_TEST_GOLDEN_H
#define GENIE_TEST_GOLDEN_H

typedef struct th_gcase {
    char *head;      /* comment lines and the query, as in the file */
    char *query;     /* the query alone */
    char *expect;    /* after "-> " */
} th_gcase;

/* Cut TEXT into cases (*OUT, caller frees with th_golden_free); returns
 * the count. */
int th_golden_cases(char *text, th_gcase **out);
void th_golden_free(th_gcase *v, int n);

#endif
