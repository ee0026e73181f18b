/*
 * corpus.h — the SUQL paper's 100 restaurant queries, for the tests that
 * run them (tests/data/suql-restaurant-queries, column "Predicted SUQL").
 */
#ifndef GENIE_TEST_CORPUS_H
#define GENIE_TEST_CORPUS_H

typedef struct th_corpus {
    char **queries;
    int n;
} th_corpus;

/* Load the queries into *C; 0 or -1 (after a th_fail).  Free with
 * th_corpus_free. */
int th_corpus_load(th_corpus *c);
void th_corpus_free(th_corpus *c);

#endif
