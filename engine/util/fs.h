/*
 * fs.h — small file-system helpers shared by the engine and the config.
 */
#ifndef GENIE_FS_H
#define GENIE_FS_H

#include "util/err.h"

/* Create PATH and its missing parents with mode 0700; an existing
 * directory is fine.  Returns 0 or GN_EIO naming the failing component
 * ("cannot create directory 'x': it exists and is not a directory"). */
int gn_mkdirs(const char *path, gn_err *e);

/* gn_mkdirs of the directory holding the file PATH (nothing when PATH has
 * no directory part). */
int gn_mkdirs_for(const char *path, gn_err *e);

/* Make sure the file PATH exists, creating it empty with mode 0600 (and
 * its missing parents with 0700) when it does not, so what genie keeps for
 * the user (sessions, cache, logs; SQLite gives a database's -wal and -shm
 * files its mode) is private.  An existing file is left as it is.
 * Returns 0 or GN_EIO (the message does not name PATH). */
int gn_mkprivate(const char *path, gn_err *e);

#include <stddef.h>

/* Read PATH whole (at most MAX bytes) into *OUT, NUL-terminated (caller
 * frees); *LEN (may be NULL) gets its length.  Returns 0, or GN_ENOTFOUND
 * (no such file), GN_EIO (unreadable, a directory), GN_ELIMIT (over MAX)
 * with e's file set to PATH. */
int gn_read_file(const char *path, size_t max, char **out, size_t *len, gn_err *e);

#endif
