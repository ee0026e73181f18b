/*
 * pgval.h — PostgreSQL's values where SQLite has none of its own: the text
 * of a number, time, date, timestamp and interval values, and the casts,
 * rounding and arithmetic that PostgreSQL defines on them.
 *
 * Values live in SQLite as PostgreSQL prints them: a date as 'YYYY-MM-DD',
 * a time as 'HH:MM:SS[.ffffff]', a timestamp as 'YYYY-MM-DD HH:MM:SS', an
 * interval as PostgreSQL's own output ('1 day 02:00:00', '1 year 2 mons',
 * '-01:30:00').  The emitter (emit.c) calls the SQL functions registered
 * here wherever SQLite's built-ins would mean something else; the parsers
 * are also used at analysis time, so a bad literal is an error at its
 * position before anything runs.
 *
 * Errors raised while a statement runs ("division by zero", "invalid
 * input syntax for type integer: \"3.7\"") are PostgreSQL's messages.
 */
#ifndef GENIE_SUQL_PGVAL_H
#define GENIE_SUQL_PGVAL_H

#include <sqlite3.h>
#include <stddef.h>

/* An interval as PostgreSQL holds one: months, days and microseconds,
 * each with its own sign. */
typedef struct suql_interval {
    long long months, days, usec;
} suql_interval;

/* Parsers of PostgreSQL's input forms: 0 and the canonical text in OUT
 * (size OUTN: at least 64), or -1 when S is not a valid value (then OUT
 * holds PostgreSQL's message, e.g. 'invalid input syntax for type time:
 * "25:00"').
 *   time       'H:MM', 'HH:MM:SS[.f]', with am/pm; a timestamp's time part
 *   date       'YYYY-MM-DD' (a timestamp's date part), 'YYYYMMDD'
 *   timestamp  a date, then optionally 'T' or a space and a time
 *   interval   '1 day', '90 minutes', '1 year 2 mons 3 days 04:05:06',
 *              '-1 hour', '1.5 days', '2 weeks ago', 'HH:MM[:SS]' */
int suql_pg_time(const char *s, char *out, size_t outn);
int suql_pg_date(const char *s, char *out, size_t outn);
int suql_pg_timestamp(const char *s, char *out, size_t outn);
int suql_pg_interval(const char *s, char *out, size_t outn);

/* The text of double D as PostgreSQL's float8 output: the shortest digits
 * that read back exactly, in exponent form below 1e-4 and from 1e15 on
 * (4 -> "4", 0.1+0.2 -> "0.30000000000000004", 1e20 -> "1e+20"); NaN,
 * Infinity, -Infinity.  OUT holds at least 32 bytes. */
void suql_pg_float_text(double d, char *out);

/* Register the SQL functions on DB: suql_text, suql_numeric, suql_round,
 * suql_int, suql_float, suql_bool, suql_nz, suql_time, suql_date,
 * suql_timestamp, suql_interval, suql_date_add, suql_date_diff,
 * suql_ts_add, suql_ts_diff, suql_time_add, suql_time_diff, suql_iv_add,
 * suql_iv_mul, suql_iv_key, suql_date_part, suql_substr, suql_left,
 * suql_right, suql_split_part, suql_initcap, suql_array_key, suql_single,
 * suql_today and suql_now.  TODAY ('YYYY-MM-DD', or NULL or "" for the
 * system's date) is what CURRENT_DATE means; it is copied.  Returns
 * SQLITE_OK or SQLite's error code. */
int suql_pgval_register(sqlite3 *db, const char *today);

#endif
