/*
 * pgfunc.h — more of PostgreSQL's functions as SQLite SQL functions:
 * text (pgfunc.c), arrays on JSON text (pgfunc.c), math and dates
 * (pgfunc.c), and the statistical aggregates (pgstat.c).
 */
#ifndef GENIE_SUQL_PGFUNC_H
#define GENIE_SUQL_PGFUNC_H

#include <sqlite3.h>

/* Register on DB the functions emit_func.c's table names:
 *
 *   text    suql_lpad(s, n[, fill]), suql_rpad, suql_repeat(s, n),
 *           suql_reverse(s), suql_octet_length(s), suql_ascii(s),
 *           suql_chr(n), suql_md5(s), suql_translate(s, from, to),
 *           suql_string_to_array(s, delim[, null_string])
 *   arrays  suql_array_position(arr, elem[, start]), suql_array_remove(arr,
 *           elem), suql_array_append(arr, elem), suql_array_prepend(elem,
 *           arr), suql_array_cat(a, b): ARR a JSON array's text, ELEM one
 *           JSON value's text (json_quote of the SQL value)
 *   math    suql_cos, suql_sin, suql_tan, suql_acos, suql_asin, suql_atan,
 *           suql_atan2(y, x), suql_degrees, suql_radians, suql_log10,
 *           suql_cbrt, suql_div(a, b), suql_gcd(a, b), suql_lcm(a, b)
 *   dates   suql_make_date(y, m, d), suql_make_time(h, m, s),
 *           suql_date_trunc(field, timestamp)
 *
 * and, through suql_pgstat_register, the aggregates suql_stddev,
 * suql_stddev_samp, suql_stddev_pop, suql_variance, suql_var_samp and
 * suql_var_pop (a double result), each also with the suffix _n (the
 * numeric result of integer or numeric input: rounded to 15 significant
 * digits, as pgval.c's suql_numeric rounds), and suql_iv_sum,
 * suql_iv_avg, suql_iv_min and suql_iv_max over PostgreSQL's interval
 * text (an interval result).  All of them may be window functions.
 *
 * A NULL argument gives NULL except where PostgreSQL's function is not
 * strict (array_position, array_remove, array_append, array_prepend,
 * array_cat, string_to_array's delimiter and null string).  Errors are
 * PostgreSQL's messages.  Returns SQLITE_OK or SQLite's error code. */
int suql_pgfunc_register(sqlite3 *db);
int suql_pgstat_register(sqlite3 *db);

#endif
