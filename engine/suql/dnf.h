/*
 * dnf.h — a WHERE clause in disjunctive normal form.
 *
 * The optimizer runs each conjunct (an AND of atoms) on its own: its
 * structured atoms in SQLite, its free-text atoms by retrieval and
 * verification.  NOT is pushed down through AND and OR (De Morgan) and
 * double negations cancel, so atoms are comparisons, LIKE, IN, IS NULL,
 * answer() filters and the like, possibly under one NOT.  Distribution can
 * blow up ((a OR b) AND (c OR d) AND ... doubles per clause), so the number
 * of conjuncts is bounded; past it the caller falls back to evaluating the
 * WHERE clause as written.
 */
#ifndef GENIE_SUQL_DNF_H
#define GENIE_SUQL_DNF_H

#include "suql/ast.h"
#include "util/err.h"

/* Most conjuncts a DNF may have. */
#define SUQL_DNF_MAX 64

typedef struct suql_conj {
    suql_expr **atoms;       /* n atoms, in the arena of the query */
    int n;
} suql_conj;

typedef struct suql_dnf {
    suql_conj *c;            /* n conjuncts, in the arena of the query */
    int n;
} suql_dnf;

/* The DNF of X (NULL: one empty conjunct, true) into *OUT, nodes and arrays
 * allocated in Q's arena (X itself is not modified; new NOT nodes are
 * made).  Returns 0, or GN_ELIMIT when more than MAX conjuncts would be
 * needed. */
int suql_dnf_build(suql_query *q, suql_expr *x, int max, suql_dnf *out, gn_err *e);

/* Append the DNF as SUQL text, one conjunct per line, "  [i] a AND b". */
void suql_dnf_print(const suql_dnf *d, gn_buf *out);

#endif
