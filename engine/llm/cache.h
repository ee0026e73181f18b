/*
 * cache.h — a persistent cache of LLM responses in one SQLite file.
 *
 * An entry maps a key (a hex string the caller computes, e.g. the SHA-256
 * of the request it would send; the cache does not interpret it) to what is
 * needed to replay a response: choice 0's content, reasoning and finish
 * reason, the usage counts, and the model.  Each entry also records the
 * pipeline stage that asked and when it was written (unix seconds).
 *
 * Sharing: several genie processes may open the same file at once, and one
 * handle may be used from several threads (calls are serialised on it).
 * The file is in WAL mode, so readers do not wait for writers; a writer
 * waits up to 5 s for another writer before the call fails with GN_EDB.
 * A handle must not cross fork(): open one per process.  Every function but
 * llm_cache_close needs an open handle (not NULL).
 *
 * Return values: every function returns 0 on success or a positive GN_E*
 * code (err.h), except llm_cache_get, which must also say hit or miss and so
 * returns 1 (hit), 0 (miss) or a negated GN_E* code (-GN_EDB, ...); the
 * detail is in the gn_err either way.  The cache is an optimisation:
 * callers are expected to treat a failed get as a miss and a failed put as
 * nothing stored, and carry on.
 */
#ifndef GENIE_CACHE_H
#define GENIE_CACHE_H

#include "llm/stream.h"
#include "util/err.h"

typedef struct llm_cache llm_cache;

/* Open the cache file PATH, creating it (and its missing parent directories,
 * mode 0700) and its table when missing.  Errors, each naming PATH:
 * GN_EUSAGE (empty path), GN_EIO (a directory cannot be created, or the file
 * cannot be opened), GN_ECORRUPT (not a SQLite database, damaged, a SQLite
 * database that is not a genie response cache, or a cache from a newer genie
 * whose schema this one does not know), GN_EDB (other SQLite failures, e.g.
 * locked beyond the busy timeout).  An existing file is never deleted or
 * rewritten to make it fit.  *out is set only on success; close with
 * llm_cache_close. */
int llm_cache_open(const char *path, llm_cache **out, gn_err *e);

/* Close the handle and free it; NULL is a no-op.  No other thread may be
 * using it. */
void llm_cache_close(llm_cache *c);

/* Look up KEY.  Returns 1 on a hit with *out filled: one choice (content,
 * reasoning, finish_reason; the refusal empty, no tool calls), usage with
 * present=1 when counts were stored, model (the one the server named, else
 * the one asked for; NULL if neither was stored), id NULL.  Returns 0 on a
 * miss, or -GN_EUSAGE (empty key), -GN_EDB or -GN_ECORRUPT on error.  *out
 * (uninitialized storage) is initialized in every case, empty unless a hit,
 * and the caller releases it with llm_result_release. */
int llm_cache_get(llm_cache *c, const char *key, llm_result *out, gn_err *e);

/* Store R under KEY, replacing any entry with that key: choice 0's content,
 * reasoning and finish reason, R's usage (if present), MODEL (the model asked
 * for; may be NULL) and R's model, STAGE (free text naming the caller, may
 * be NULL) and the current time.  Other choices and R's id are not kept.
 * Whether R deserves caching (complete, not truncated, not an error) is the
 * caller's decision; put refuses only what it cannot replay faithfully:
 * GN_EUSAGE for an empty key, no choice, or a choice 0 with tool calls or a
 * refusal.  Other errors: GN_EDB, GN_ECORRUPT. */
int llm_cache_put(llm_cache *c, const char *key, const char *stage, const char *model,
                  const llm_result *r, gn_err *e);

/* Delete the entry under KEY, if any (an empty KEY: nothing).  Returns 0,
 * GN_EDB or GN_ECORRUPT. */
int llm_cache_forget(llm_cache *c, const char *key, gn_err *e);

/* Set *rows to the number of entries.  Returns 0, GN_EDB or GN_ECORRUPT
 * (*rows is then 0). */
int llm_cache_stats(llm_cache *c, long *rows, gn_err *e);

/* Delete the oldest entries (by creation time, then by order of writing)
 * beyond the newest MAX_ROWS.  Returns 0, GN_EUSAGE (MAX_ROWS < 0), GN_EDB
 * or GN_ECORRUPT.  The file does not shrink; freed pages are reused. */
int llm_cache_prune(llm_cache *c, long max_rows, gn_err *e);

#endif
