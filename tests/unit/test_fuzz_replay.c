/*
 * test_fuzz_replay.c — what the fuzz targets found stays found: every file
 * of tests/fuzz/crashes/NAME/ (the minimized input of a crash, leak,
 * sanitizer report, timeout or broken invariant target NAME found) and of
 * its seed corpora is run through target NAME itself.
 *
 * What: each tests/fuzz/fuzz_NAME.c is also compiled into this binary with
 * its entry point renamed NAME_entry (the Makefile's FUZZ_ENTRY_OBJ), so a
 * replay checks exactly what the fuzzer checks.  Each file runs in a child
 * process under a time limit: an abort (a target's invariant), a crash or,
 * in `make asan`, a sanitizer report or a leak (LeakSanitizer checked
 * before the child ends) fails the test and names the file instead of
 * ending the run.  Without the sanitizers only crashes, hangs and the
 * targets' own checks show.
 *
 * Invariant: a bug the fuzzer found is fixed when its reproducer passes
 * here.  A reproducer of a bug not yet fixed is listed in
 * tests/fuzz/crashes/OPEN ("NAME/FILE  what is wrong", one a line): it is
 * replayed (its messages thrown away) and its outcome printed, but it
 * fails nothing until the line is removed with the fix.
 *
 * Rejected: replaying in-process (the first abort would end the whole unit
 * run); calling the engine functions directly with copies of the targets'
 * checks (they would drift from the targets).
 */
#include "harness.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*entry_fn)(const uint8_t *data, size_t size);

/* LeakSanitizer's check, linked in only by the sanitizer runtime (make
 * asan): nonzero when it found leaks. */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

int fuzz_config_entry(const uint8_t *data, size_t size);
int fuzz_expr_entry(const uint8_t *data, size_t size);
int fuzz_markdown_entry(const uint8_t *data, size_t size);
int fuzz_optimizer_entry(const uint8_t *data, size_t size);
int fuzz_prompt_entry(const uint8_t *data, size_t size);
int fuzz_sse_entry(const uint8_t *data, size_t size);
int fuzz_suql_entry(const uint8_t *data, size_t size);
int fuzz_worksheet_entry(const uint8_t *data, size_t size);

/* Each target, and its seed directory besides tests/fuzz/seeds/NAME (the
 * Makefile's FUZZ_SEEDS_NAME). */
static const struct {
    const char *name;
    entry_fn fn;
    const char *seeds;
} targets[] = {
    { "fuzz_config", fuzz_config_entry, NULL },
    { "fuzz_expr", fuzz_expr_entry, NULL },
    { "fuzz_markdown", fuzz_markdown_entry, NULL },
    { "fuzz_optimizer", fuzz_optimizer_entry, NULL },
    { "fuzz_prompt", fuzz_prompt_entry, "config/prompts" },
    { "fuzz_sse", fuzz_sse_entry, "tests/data/sse-recordings" },
    { "fuzz_suql", fuzz_suql_entry, "tests/suql/seeds" },
    { "fuzz_worksheet", fuzz_worksheet_entry, NULL },
};

#define NTARGETS (sizeof targets / sizeof *targets)
#define TIME_LIMIT 30            /* seconds per file (a seed takes milliseconds; fuzz_optimizer
                                    opens an index first, slow under the sanitizers) */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of DIR, sorted, NULL-terminated (free each and the
 * array); NULL when DIR does not exist. */
static char **list_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof *v);
    for (struct dirent *de; v && (de = readdir(d));) {
        if (de->d_name[0] == '.' || (de->d_type != DT_REG && de->d_type != DT_UNKNOWN)) continue;
        if (n + 1 == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        if (v) v[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (!v) return NULL;
    v[n] = NULL;
    qsort(v, n, sizeof *v, by_name);
    return v;
}

static void free_list(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

/* The whole of PATH into *DATA (caller frees) and *LEN; 0 or -1. */
static int read_all(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, n = 0, k;
    uint8_t *p = malloc(cap);
    while (p && (k = fread(p + n, 1, cap - n, f)) > 0)
        if ((n += k) == cap) p = realloc(p, cap *= 2);
    fclose(f);
    if (!p) return -1;
    *data = p;
    *len = n;
    return 0;
}

/* Run FN on the file PATH in a child process (QUIET: its standard error
 * thrown away).  Returns 1 when it passed, else 0 with what happened in
 * WHY. */
static int replay(entry_fn fn, const char *path, int quiet, char *why, size_t n)
{
    uint8_t *data;
    size_t len;
    if (read_all(path, &data, &len)) {
        snprintf(why, n, "cannot read it");
        return 0;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int null = quiet ? open("/dev/null", O_WRONLY) : -1;
        if (null >= 0) dup2(null, 2);
        alarm(TIME_LIMIT);
        fn(data, len);
        _exit(__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check() ? 23 : 0);
    }
    free(data);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        snprintf(why, n, "cannot run a child process");
        return 0;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 1;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(why, n, "still running after %d s", TIME_LIMIT);
    else if (WIFSIGNALED(status))
        snprintf(why, n, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WEXITSTATUS(status) == 23)
        snprintf(why, n, "leaks memory");
    else
        snprintf(why, n, "exit status %d (a sanitizer report?)", WEXITSTATUS(status));
    return 0;
}

/* Is "NAME/FILE" at the start of a line of the OPEN list? */
static int is_open(const char *list, const char *name, const char *file)
{
    char key[512];
    int kn = snprintf(key, sizeof key, "%s/%s", name, file);
    for (const char *l = list; l && *l;) {
        if (!strncmp(l, key, (size_t)kn) && strchr(" \t\n", l[kn])) return 1;   /* or NUL */
        l = strchr(l, '\n');
        if (l) l++;
    }
    return 0;
}

/* Replay every file of DIR (relative to the top) through target T;
 * OPEN_LIST (may be NULL) lists the known failures.  Returns the files run. */
static int replay_dir(size_t t, const char *dir, const char *open_list)
{
    char **files = list_dir(th_path(dir));
    int count = 0;
    for (size_t i = 0; files && files[i]; i++) {
        char rel[1024], why[128];
        snprintf(rel, sizeof rel, "%s/%s", dir, files[i]);
        int known = open_list && is_open(open_list, targets[t].name, files[i]);
        int ok = replay(targets[t].fn, th_path(rel), known, why, sizeof why);
        count++;
        if (known) {
            const char *passes = __lsan_do_recoverable_leak_check
                ? "now passes: remove it from tests/fuzz/crashes/OPEN"
                : "passes without the sanitizers (see make asan)";
            printf("  note: %s (open bug) %s\n", rel, ok ? passes : why);
        } else if (!ok) {
            th_fail(__FILE__, __LINE__, "%s through %s: %s", rel, targets[t].name, why);
        }
    }
    free_list(files);
    return count;
}

TEST(fuzz_replay_crashes)
{
    char *open_list = th_read(th_path("tests/fuzz/crashes/OPEN"));
    for (size_t t = 0; t < NTARGETS; t++) {
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/crashes/%s", targets[t].name);
        replay_dir(t, dir, open_list ? open_list : "");
    }
    free(open_list);
}

TEST(fuzz_replay_seeds)
{
    for (size_t t = 0; t < NTARGETS; t++) {
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/seeds/%s", targets[t].name);
        int n = replay_dir(t, dir, NULL);
        if (targets[t].seeds) n += replay_dir(t, targets[t].seeds, NULL);
        if (n == 0) th_fail(__FILE__, __LINE__, "%s has no seeds", targets[t].name);
    }
}
