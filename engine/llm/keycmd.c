/*
 * keycmd.c — running api_key_cmd (see keycmd.h).
 *
 * Only the first 4 KiB of output are read; the rest is drained so the
 * command does not die of SIGPIPE and report a misleading failure.
 */
#include "keycmd.h"

#include "util/xmem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

int llm_key_from_cmd(const char *cmd, char **key, gn_err *e)
{
    *key = NULL;
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    if (!p) return gn_err_set(e, GN_EIO, "api_key_cmd: cannot run it: %s", strerror(errno));
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = 0;
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {}
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        memset(buf, 0, sizeof buf);
        if (st != -1 && WIFEXITED(st))
            return gn_err_set(e, GN_EIO, "api_key_cmd failed (exit status %d)", WEXITSTATUS(st));
        return gn_err_set(e, GN_EIO, "api_key_cmd failed (killed by a signal)");
    }
    char *s = buf + strspn(buf, " \t\r\n");
    s[strcspn(s, "\r\n")] = 0;
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t')) s[--len] = 0;
    if (!len) return gn_err_set(e, GN_EIO, "api_key_cmd printed no key");
    *key = xstrdup(s);
    memset(buf, 0, sizeof buf);
    return 0;
}
