/*
 * suql_fixture.h — the schema and rows the SUQL analyzer and emitter tests
 * share, and a fixture database to run SUQL on.
 *
 * th_suql_schema_sql: two visible tables (restaurants, dishes), a column
 * SQLite has but the schema hides (restaurants.secret), and bookkeeping
 * tables no query may see (genie_meta, _truth_answers).  SQL text to run
 * on an empty database.
 *
 * th_suql_rows_sql: the rows the tests that run queries compare with
 * PostgreSQL's answers for the same data: 7 restaurants (a NULL rating,
 * price, cuisines and num_reviews among them, names with ', %, _, * and [)
 * and 5 dishes (one whose restaurant does not exist).
 *
 * th_suql_open makes the database DBNAME in th_tmpdir() (removed first)
 * from both plus EXTRA_SQL (NULL: none), loads its schema, guards the
 * connection with st_guard when FLAGS has TH_SUQL_GUARD, and registers
 * suql_register_functions; 0, or -1 with the failure recorded (th_fail).
 * th_suql_close frees what it opened.
 *
 * th_suql_rows compiles SUQL TEXT (parse, analyze, emit with HOOKS, which
 * may be NULL) and runs it on the fixture: its rows as "a|b;c|d" (NULL
 * for NULL), or "ERROR <l>:<c> <msg>" for a compile error ("ERROR <msg>"
 * when the fixture was opened with TH_SUQL_NO_POSITION), "ERROR <msg>:
 * <sql>" when SQLite does not prepare the emitted SQL, "ERROR <msg>" when
 * running it fails.  th_suql_sql_rows does the same for SQL as written:
 * its rows, or "ERROR <msg>" when it does not prepare or run.  Both
 * return a string the caller frees.
 *
 * TH_SUQL_ROWS(f, text, hooks, want) records a failure, with the query,
 * when th_suql_rows gives other than WANT.
 */
#ifndef GENIE_TEST_SUQL_FIXTURE_H
#define GENIE_TEST_SUQL_FIXTURE_H

#include "harness.h"

#include "store/kb.h"
#include "suql/emit.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

extern const char th_suql_schema_sql[];
extern const char th_suql_rows_sql[];

enum {
    TH_SUQL_GUARD = 1,       /* st_guard the connection, as the engine does */
    TH_SUQL_NO_POSITION = 2, /* compile errors without their <l>:<c> */
};

typedef struct th_suql_fx {
    sqlite3 *db;
    st_schema *s;
    int flags;               /* TH_SUQL_* as opened */
} th_suql_fx;

int th_suql_open(th_suql_fx *f, const char *dbname, const char *extra_sql, int flags);
void th_suql_close(th_suql_fx *f);
char *th_suql_rows(th_suql_fx *f, const char *text, const suql_emit_hooks *hooks);
char *th_suql_sql_rows(sqlite3 *db, const char *sql);

#define TH_SUQL_ROWS(f, text, hooks, want) do { char *r_ = th_suql_rows(f, text, hooks); \
    if (strcmp(r_, want)) th_fail(__FILE__, __LINE__, "%s\n    gave     %s\n    expected %s", \
                                  text, r_, want); \
    free(r_); } while (0)

#endif
