/*
 * harness.h — the unit test harness.
 *
 * A test is `TEST(name) { ... }` in any tests/unit/test_*.c file; it registers
 * itself before main through a constructor, so there is no list to maintain.
 * CHECK* macros record a failure and continue; REQUIRE* stop the test.
 * The runner (tests/unit/main.c) prints one line per failure and ends with
 * "N passed, N failed".  Tests find fixtures through th_path() and scratch
 * space through th_tmpdir().
 */
#ifndef GENIE_HARNESS_H
#define GENIE_HARNESS_H

#include <stdio.h>
#include <string.h>

typedef void (*th_fn)(void);
void th_register(const char *name, const char *file, th_fn fn);
void th_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int th_failed_now(void);

/* Path of a file relative to the repository top (static buffer rotation). */
const char *th_path(const char *rel);
/* The whole file PATH as a NUL-terminated string (caller frees), or NULL
 * when it cannot be read. */
char *th_read(const char *path);
/* The run's directory, under $TMPDIR: every test's scratch directory and
 * the mock server's files are in it, and it is removed when the run ends
 * (main.c). */
const char *th_rundir(void);
/* A fresh empty directory for this test, removed at exit. */
const char *th_tmpdir(void);

/* Run SQL on the SQLite file PATH (created if missing), outside the code
 * under test: 0 or the SQLite error code. */
int th_sql_exec(const char *path, const char *sql);
/* The first column of SQL's first row on PATH as an integer; -1 when
 * there is none or the query fails. */
long th_sql_int(const char *path, const char *sql);

#define TEST(name)                                                        \
    static void test_##name(void);                                        \
    __attribute__((constructor)) static void reg_##name(void)             \
    { th_register(#name, __FILE__, test_##name); }                        \
    static void test_##name(void)

#define CHECK(c) do { if (!(c)) th_fail(__FILE__, __LINE__, "CHECK(%s)", #c); } while (0)
#define REQUIRE(c) do { if (!(c)) { th_fail(__FILE__, __LINE__, "REQUIRE(%s)", #c); return; } } while (0)
#define CHECK_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) th_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, a_, b_); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_)) th_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
        #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
    if (!h_ || !strstr(h_, n_)) th_fail(__FILE__, __LINE__, "%s == \"%s\" lacks \"%s\"", \
        #hay, h_ ? h_ : "(null)", n_); } while (0)

#endif
