/*
 * main.c — the unit test runner.  Runs every registered test (or those whose
 * name or file contains argv[1]) in registration order and ends with the
 * closing line "N passed, N failed" that CI reads.
 *
 * Each test file's tests run in a child process of their own, as curl's
 * harness runs each test: a test that crashes (a signal, an exit) is
 * reported as failed with the signal, the rest of its file runs in a new
 * child, and every process the child started (the mock LLM server) is in
 * its process group and is killed when it ends.  Each test gets its own
 * scratch directory under one directory of the run, removed at the end
 * however the tests ended.  GENIE_TEST_INPROCESS=1 runs everything in
 * this process instead (for a debugger).
 */
#include "harness.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXTESTS 2048

static struct { const char *name, *file; th_fn fn; } tests[MAXTESTS];
static int ntests, cur_failed;
static char tmpdir[600];

void th_register(const char *name, const char *file, th_fn fn)
{
    if (ntests < MAXTESTS) {
        tests[ntests].name = name;
        tests[ntests].file = file;
        tests[ntests].fn = fn;
        ntests++;
    }
}

void th_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "  %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    cur_failed = 1;
}

int th_failed_now(void) { return cur_failed; }

const char *th_path(const char *rel)
{
    static char bufs[8][1024];
    static int i;
    char *b = bufs[i++ % 8];
    const char *top = getenv("GENIE_TOP");
    snprintf(b, sizeof bufs[0], "%s/%s", top ? top : ".", rel);
    return b;
}

char *th_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0, n;
    char *s = malloc(cap);
    while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (s) s[len] = 0;
    return s;
}

static char rundir[512];

const char *th_rundir(void)
{
    return rundir;
}

const char *th_tmpdir(void)
{
    if (!tmpdir[0]) {
        static int seq;
        snprintf(tmpdir, sizeof tmpdir, "%s/%d-%d", rundir, (int)getpid(), seq++);
        if (mkdir(tmpdir, 0700)) { perror("mkdir"); exit(2); }
    }
    return tmpdir;
}

static void remove_tree(const char *dir)
{
    if (!dir[0]) return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static void cleanup_tmp(void)
{
    remove_tree(tmpdir);
    tmpdir[0] = 0;
}

static int selected(int i, const char *filter)
{
    return !filter || strstr(tests[i].name, filter) || strstr(tests[i].file, filter);
}

/* Runs test I here: 1 when it failed. */
static int run_one(int i)
{
    cur_failed = 0;
    tests[i].fn();
    cleanup_tmp();
    if (cur_failed) printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
    return cur_failed;
}

/* The child running a file's tests, for the signal handler: a Ctrl-C or
 * a kill of the runner (the child is in a process group of its own, not
 * the terminal's) ends the child's group too, and the run's directory. */
static volatile pid_t running;

static void on_signal(int sig)
{
    if (running > 0) kill(-running, SIGKILL);
    remove_tree(rundir);      /* the run is over: what is left is ours */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Runs the selected tests of [FROM, TO) (one file) in a child process,
 * adding to *PASSED and *FAILED; returns the index to go on from (past
 * a test that crashed, or TO). */
static int run_child(int from, int to, const char *filter, int *passed, int *failed)
{
    int fd[2];
    /* Close-on-exec: a server the tests start must not hold the pipe open. */
    if (pipe2(fd, O_CLOEXEC)) { perror("pipe"); exit(2); }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) {
        close(fd[0]);
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);      /* the runner's handlers are the runner's */
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        for (int i = from; i < to; i++) {
            if (!selected(i, filter)) continue;
            unsigned char r[5] = { (unsigned char)run_one(i) };
            memcpy(r + 1, &i, 4);
            fflush(stdout);
            if (write(fd[1], r, sizeof r) != (ssize_t)sizeof r) _exit(3);
        }
        fflush(stdout);
        _exit(0);      /* not exit(): the parent's handlers are not the child's; what
                          the child started dies with its group (below) */
    }
    close(fd[1]);
    setpgid(pid, pid);
    running = pid;
    int last = from - 1;
    unsigned char r[5];
    while (read(fd[0], r, sizeof r) == (ssize_t)sizeof r) {
        memcpy(&last, r + 1, 4);
        if (r[0]) (*failed)++;
        else (*passed)++;
    }
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    running = 0;
    kill(-pid, SIGKILL);          /* whatever it started and left */
    while (waitpid(-pid, NULL, WNOHANG) > 0) {}
    int next = last + 1;
    while (next < to && !selected(next, filter)) next++;
    if (next >= to && WIFEXITED(st) && WEXITSTATUS(st) == 0) return to;
    if (next >= to) {
        printf("FAIL (%s): the test process ended with status %d after its last test\n", tests[from].file,
               WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        (*failed)++;
        return to;
    }
    if (WIFSIGNALED(st))
        printf("FAIL %s (%s): crashed with signal %d (%s)\n", tests[next].name, tests[next].file,
               WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        printf("FAIL %s (%s): the test process exited with status %d\n", tests[next].name, tests[next].file,
               WEXITSTATUS(st));
    (*failed)++;
    return next + 1;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *base = getenv("TMPDIR");
    snprintf(rundir, sizeof rundir, "%s/genie-test-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(rundir)) { perror("mkdtemp"); exit(2); }
    const char *in = getenv("GENIE_TEST_INPROCESS");
    if (in && *in && strcmp(in, "0")) {
        for (int i = 0; i < ntests; i++)
            if (selected(i, filter)) run_one(i) ? failed++ : passed++;
    } else {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGHUP, on_signal);
        for (int i = 0; i < ntests;) {
            int j = i;
            while (j < ntests && !strcmp(tests[j].file, tests[i].file)) j++;
            int any = 0;
            for (int k = i; k < j && !any; k++) any = selected(k, filter);
            int from = i;
            while (any && from < j) from = run_child(from, j, filter, &passed, &failed);
            i = j;
        }
    }
    remove_tree(rundir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

int th_sql_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

long th_sql_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    long v = -1;
    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) v = (long)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}
