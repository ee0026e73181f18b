/*
 * main.c — the unit test runner.  Runs every registered test (or those whose
 * name contains argv[1]) in registration order and ends with the closing line
 * "N passed, N failed" that CI reads.  Each test gets its own scratch dir.
 */
#include "harness.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#define MAXTESTS 2048

static struct { const char *name, *file; th_fn fn; } tests[MAXTESTS];
static int ntests, cur_failed;
static char tmpdir[512];

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

const char *th_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/genie-test-XXXXXX", base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) { perror("mkdtemp"); exit(2); }
    }
    return tmpdir;
}

static void cleanup_tmp(void)
{
    if (!tmpdir[0]) return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    tmpdir[0] = 0;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        cur_failed = 0;
        tests[i].fn();
        cleanup_tmp();
        if (cur_failed) {
            printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
            failed++;
        } else {
            passed++;
        }
    }
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
