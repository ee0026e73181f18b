/*
 * fs.c — file-system helpers (see fs.h).
 */
#include "fs.h"

#include "util/xmem.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int mkdir_one(const char *p, gn_err *e)
{
    struct stat st;
    if (mkdir(p, 0700) == 0) return 0;
    int err = errno;
    if (err == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    if (err == EEXIST)
        return gn_err_set(e, GN_EIO, "cannot create directory '%s': it exists and is "
                          "not a directory", p);
    return gn_err_set(e, GN_EIO, "cannot create directory '%s': %s", p, strerror(err));
}

int gn_mkdirs(const char *path, gn_err *e)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; *s && !rc; s++) {
        if (*s != '/') continue;
        *s = 0;
        rc = mkdir_one(p, e);
        *s = '/';
    }
    if (!rc) rc = mkdir_one(p, e);
    free(p);
    return rc;
}

int gn_mkdirs_for(const char *path, gn_err *e)
{
    const char *last = strrchr(path, '/');
    if (!last || last == path) return 0;
    char *dir = xstrndup(path, (size_t)(last - path));
    int rc = gn_mkdirs(dir, e);
    free(dir);
    return rc;
}
