/*
 * keycmd.c — running api_key_cmd (see keycmd.h).
 *
 * The command's output is read through a pipe with a deadline: a command
 * that hangs (a password manager waiting on a prompt nobody sees, a stuck
 * network lookup) is killed when the deadline passes, and genie says so
 * instead of waiting for ever.  It stays in genie's process group, so a
 * password manager can still prompt on the terminal (a group of its own
 * would be stopped by SIGTTIN); what it started itself may outlive it.  Only the first 4 KiB of output are kept; the rest is drained so
 * the command does not die of SIGPIPE and report a misleading failure.
 */
#include "keycmd.h"

#include "util/clock.h"
#include "util/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Wait for PID until DEADLINE; kill it then.  Returns the status from
 * waitpid, -1 when it had to be killed, -2 when waiting failed. */
static int reap(pid_t pid, double deadline)
{
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) return st;
        if (r < 0 && errno != EINTR) return -2;
        if (gn_now() >= deadline) break;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return -1;
}

int llm_key_from_cmd(const char *cmd, double timeout, char **key, gn_err *e)
{
    *key = NULL;
    fflush(NULL);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) return gn_err_set(e, GN_EIO, "api_key_cmd: cannot run it: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return gn_err_set(e, GN_EIO, "api_key_cmd: cannot run it: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    double deadline = gn_now() + (timeout > 0 ? timeout : 30.0);
    char buf[4096], sink[4096];
    size_t n = 0;
    int timed_out = 0;
    for (;;) {
        double left = deadline - gn_now();
        if (left <= 0) { timed_out = 1; break; }
        struct pollfd p = { .fd = fds[0], .events = POLLIN };
        int pr = poll(&p, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0) { timed_out = pr == 0; break; }
        ssize_t got = n < sizeof buf - 1 ? read(fds[0], buf + n, sizeof buf - 1 - n)
                                         : read(fds[0], sink, sizeof sink);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;                    /* end of output */
        if (n < sizeof buf - 1) n += (size_t)got;
    }
    close(fds[0]);
    buf[n] = 0;
    int st = reap(pid, timed_out ? gn_now() : deadline);
    if (st == -2) {
        memset(buf, 0, sizeof buf);
        return gn_err_set(e, GN_EIO, "api_key_cmd: cannot wait for it: %s", strerror(errno));
    }
    if (timed_out || st == -1) {
        memset(buf, 0, sizeof buf);
        return gn_err_set(e, GN_EIO, "api_key_cmd gave no key within %g s and was stopped "
                          "(api_key_cmd_timeout)", timeout > 0 ? timeout : 30.0);
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        memset(buf, 0, sizeof buf);
        if (WIFEXITED(st))
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
