/*
 * pgtime.h — what pgtime.c (PostgreSQL's date and time values) gives
 * pgval.c (the SQL functions).  Not a public header: pgval.h is.
 *
 * Days count from 1970-01-01 (proleptic Gregorian); a time of day is
 * microseconds from midnight (24:00:00 included); parsers return 0, or -1
 * with PostgreSQL's message in OUT (OUTN bytes).
 */
#ifndef GENIE_SUQL_PGTIME_H
#define GENIE_SUQL_PGTIME_H

#include "suql/pgval.h"

/* The last year a date or timestamp may have (PostgreSQL's timestamp
 * limit); year 1 is the first (no BC dates). */
#define SUQL_YEAR_MAX 294276

long long suql_days_from_civil(long long y, int m, int d);
void suql_civil_from_days(long long days, long long *y, int *m, int *d);
int suql_month_days(long long y, int m);

int suql_parse_time(const char *s, long long *usec, char *out, size_t outn);
int suql_parse_date(const char *s, long long *days, char *out, size_t outn);
int suql_parse_timestamp(const char *s, long long *days, long long *usec, char *out, size_t outn);
int suql_parse_interval(const char *s, suql_interval *iv, char *out, size_t outn);

void suql_fmt_time(long long usec, char *out, size_t outn);
void suql_fmt_date(long long days, char *out, size_t outn);
void suql_fmt_timestamp(long long days, long long usec, char *out, size_t outn);
void suql_fmt_interval(const suql_interval *iv, char *out, size_t outn);

/* The timestamp *DAYS, *USEC plus SIGN (1 or -1) times IV: months first,
 * the day clamped to the month's last, then days, then microseconds.
 * 0, or -1 when the result is outside years 1 to SUQL_YEAR_MAX. */
int suql_ts_add(long long *days, long long *usec, const suql_interval *iv, int sign);
/* The interval from (D2, U2) to (D1, U1): days and a clock part. */
void suql_ts_diff(long long d1, long long u1, long long d2, long long u2, suql_interval *iv);
/* IV in seconds, a month as 30 days (PostgreSQL's comparison). */
double suql_iv_seconds(const suql_interval *iv);

#endif
