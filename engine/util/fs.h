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

#include <stddef.h>

/* Read PATH whole (at most MAX bytes) into *OUT, NUL-terminated (caller
 * frees); *LEN (may be NULL) gets its length.  Returns 0, or GN_ENOTFOUND
 * (no such file), GN_EIO (unreadable, a directory), GN_ELIMIT (over MAX)
 * with e's file set to PATH. */
int gn_read_file(const char *path, size_t max, char **out, size_t *len, gn_err *e);

#endif
