/*
 * fs.c — file-system helpers (see fs.h).
 */
#include "fs.h"

#include "util/buf.h"
#include "util/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int gn_mkprivate(const char *path, gn_err *e)
{
    if (gn_mkdirs_for(path, e)) return GN_EIO;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) { close(fd); return 0; }
    if (errno == EEXIST) return 0;
    return gn_err_set(e, GN_EIO, "cannot create the file: %s", strerror(errno));
}

int gn_read_file(const char *path, size_t max, char **out, size_t *len, gn_err *e)
{
    /* O_NONBLOCK: a FIFO opens at once instead of waiting, unkillable by
     * Ctrl-C, for a writer that may never come; it is then refused. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int code = errno == ENOENT || errno == ENOTDIR ? GN_ENOTFOUND : GN_EIO;
        return gn_err_setpos(e, code, path, 0, 0, "cannot open: %s", strerror(errno));
    }
    struct stat st;
    const char *kind = fstat(fd, &st) ? NULL : S_ISDIR(st.st_mode) ? "is a directory"
                     : S_ISFIFO(st.st_mode) ? "is a FIFO, not a file"
                     : S_ISSOCK(st.st_mode) ? "is a socket, not a file"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a file"
                     : NULL;
    if (kind) {
        close(fd);
        return gn_err_setpos(e, GN_EIO, path, 0, 0, "%s", kind);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return gn_err_setpos(e, GN_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    }
    gn_buf b;
    gn_buf_init(&b);
    char chunk[8192];
    size_t n;
    while (b.len <= max && (n = fread(chunk, 1, sizeof chunk, f)) > 0) gn_buf_add(&b, chunk, n);
    int rc = ferror(f) ? gn_err_setpos(e, GN_EIO, path, 0, 0, "read error")
           : b.len > max ? gn_err_setpos(e, GN_ELIMIT, path, 0, 0, "larger than %zu bytes", max)
           : 0;
    fclose(f);
    if (len) *len = b.len;
    if (rc) gn_buf_release(&b);
    else *out = gn_buf_detach(&b);
    return rc;
}
