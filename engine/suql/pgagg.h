/*
 * pgagg.h — PostgreSQL's string_agg and array_agg with ORDER BY and
 * DISTINCT inside the call, as SQLite aggregate functions (pgagg.c).
 */
#ifndef GENIE_SUQL_PGAGG_H
#define GENIE_SUQL_PGAGG_H

#include <sqlite3.h>

/* Register on DB the aggregates the emitter spells ordered or DISTINCT
 * string_agg and array_agg with (emit_window.c):
 *
 *   suql_string_agg(value, sep, distinct, spec, key...)
 *   suql_array_agg(json_value, distinct, spec, key...)
 *
 * SPEC holds two characters per key: '+' ascending or '-' descending,
 * then 'f' NULLs first or 'l' NULLs last.  DISTINCT is 1 to drop a value
 * (with its separator) equal to one already kept; its keys end with the
 * arguments themselves, as PostgreSQL sorts them.  Returns SQLITE_OK or
 * SQLite's error code. */
int suql_pgagg_register(sqlite3 *db);

#endif
