/*
 * passages.h — free text split into passages, in the knowledge base itself.
 *
 * Tables written (all prefixed genie_, invisible to the agent):
 *   genie_sources(src, tbl, col)             each free-text column, numbered
 *   genie_passages(id, src, row_id, elem, chunk, text)
 * Passage ids start at 0 and follow (table, row _id, column, element, chunk)
 * order, so one row's passages are contiguous: the vector index relies on it.
 */
#ifndef GENIE_PASSAGES_H
#define GENIE_PASSAGES_H

#include "store/kb.h"

/* Called with (done, total) rows while building; may be NULL. */
typedef void (*st_progress_fn)(const char *stage, long done, long total, void *ud);

/* Rebuild the two tables from the free-text columns of S, chunking texts
 * longer than CHUNK_CHARS at sentence or word boundaries.  Runs inside the
 * caller's transaction.  Returns 0 and sets *npassages, or an error. */
int st_passages_build(sqlite3 *db, const st_schema *s, int chunk_chars,
                      st_progress_fn progress, void *ud, long *npassages, gn_err *e);

/* Split TEXT into chunks of at most MAX bytes; calls fn for each piece
 * (not NUL-terminated: start, length).  Returns the number of chunks. */
typedef void (*st_chunk_fn)(const char *start, int len, void *ud);
int st_chunk(const char *text, int max, st_chunk_fn fn, void *ud);

#endif
