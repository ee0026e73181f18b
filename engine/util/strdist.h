/*
 * strdist.h — edit distance, for "did you mean" hints.
 */
#ifndef GENIE_STRDIST_H
#define GENIE_STRDIST_H

/* The Levenshtein distance of A and B; names longer than 63 bytes are
 * never close (99). */
int gn_edit_distance(const char *a, const char *b);

#endif
