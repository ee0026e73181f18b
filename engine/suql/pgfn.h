/*
 * pgfn.h — what the files of PostgreSQL's SQL functions share (pgval.c,
 * pgfunc.c, pgstat.c, pgagg.c): reading SQLite arguments the way strict
 * PostgreSQL functions do, and raising PostgreSQL's messages.  Not a
 * public header: pgval.h and pgfunc.h are.
 */
#ifndef GENIE_SUQL_PGFN_H
#define GENIE_SUQL_PGFN_H

#include "suql/pgval.h"

#include <sqlite3.h>

/* Whether V is SQL NULL; whether any of V[0..ARGC) is. */
static inline int suql_pg_is_null(sqlite3_value *v)
{
    return sqlite3_value_type(v) == SQLITE_NULL;
}

static inline int suql_pg_any_null(int argc, sqlite3_value **v)
{
    for (int i = 0; i < argc; i++)
        if (suql_pg_is_null(v[i])) return 1;
    return 0;
}

/* A strict function's start: when an argument is NULL the result is
 * NULL, and 1 says the function is done. */
static inline int suql_pg_null_result(sqlite3_context *c, int argc, sqlite3_value **v)
{
    if (!suql_pg_any_null(argc, v)) return 0;
    sqlite3_result_null(c);
    return 1;
}

/* V's text ("" for NULL); valid until V changes. */
static inline const char *suql_pg_text(sqlite3_value *v)
{
    const char *s = (const char *)sqlite3_value_text(v);
    return s ? s : "";
}

/* The function's result is a date (days since 1970-01-01), a time
 * (microseconds from midnight), a timestamp or an interval, as text in
 * PostgreSQL's form.  (pgval.c) */
void suql_pg_result_date(sqlite3_context *c, long long days);
void suql_pg_result_time(sqlite3_context *c, long long usec);
void suql_pg_result_timestamp(sqlite3_context *c, long long days, long long usec);
void suql_pg_result_interval(sqlite3_context *c, const suql_interval *iv);

/* The function's result is the error FMT (PostgreSQL's message text).
 * (pgval.c) */
void suql_pg_error(sqlite3_context *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
