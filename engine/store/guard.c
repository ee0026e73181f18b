/*
 * guard.c — a read-only wall around a SQLite connection (see kb.h).
 *
 * SUQL refuses anything but one SELECT before it compiles; this is the
 * second wall, in SQLite itself, so a bug in our compiler cannot write.
 * The authorizer is an allow-list: reading (SELECT, READ, FUNCTION, the
 * recursive CTE step) is allowed, a handful of PRAGMAs that only report are
 * allowed when they are given no argument, everything else is denied.  The
 * connection should also be opened read-only; query_only stops writes even
 * through a read-write handle.
 *
 * Rejected: denying a list of bad actions (a new SQLite version adds
 * action codes; an allow-list fails closed).
 */
#include "kb.h"

#include <string.h>
#include <strings.h>

static const char *const read_pragmas[] = {
    "table_info", "table_xinfo", "index_list", "index_info", "foreign_key_list",
    "database_list", "collation_list", "function_list", "compile_options", NULL,
};

static int authorize(void *ud, int action, const char *a, const char *b, const char *db,
                     const char *trigger)
{
    (void)ud;
    (void)db;
    (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* b is the function name; load_extension is also off at the
         * connection level, this makes sure. */
        return b && !strcasecmp(b, "load_extension") ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_UPDATE:
        /* SQLite itself asks this when it (re)reads the schema, e.g. the
         * first time a table-valued function such as json_each is used.
         * A user's UPDATE of the schema table fails regardless (no
         * writable_schema, query_only). */
        return a && (!strcmp(a, "sqlite_master") || !strcmp(a, "sqlite_schema")) ? SQLITE_OK
                                                                                  : SQLITE_DENY;
    case SQLITE_PRAGMA:
        if (b) return SQLITE_DENY;      /* any PRAGMA with an argument */
        for (int i = 0; read_pragmas[i]; i++)
            if (a && !strcasecmp(a, read_pragmas[i])) return SQLITE_OK;
        return SQLITE_DENY;
    default:
        return SQLITE_DENY;
    }
}

int st_guard(sqlite3 *db, gn_err *e)
{
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL) != SQLITE_OK)
        return st_dberr(db, e, "making the connection read-only");
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 200);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    if (sqlite3_set_authorizer(db, authorize, NULL) != SQLITE_OK)
        return st_dberr(db, e, "installing the authorizer");
    return 0;
}
