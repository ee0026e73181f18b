/*
 * kb.c — opening a knowledge base and reading its exposed schema.
 *
 * st_open refuses to create files (SQLITE_OPEN_CREATE is never passed) and
 * forces SQLite to read the header at once, so a missing, foreign or damaged
 * file is reported at open with a message naming the file, not later in the
 * middle of a query.  A busy timeout makes a briefly locked file wait rather
 * than fail.
 */
#include "kb.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int st_dberr(sqlite3 *db, gn_err *e, const char *what)
{
    int rc = sqlite3_errcode(db);
    int code = (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB) ? GN_ECORRUPT : GN_EDB;
    return gn_err_set(e, code, "%s: %s", what, sqlite3_errmsg(db));
}

static int check_kb(sqlite3 *db, const char *path, gn_err *e)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE name='genie_columns'",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) {
        if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
            return gn_err_set(e, GN_ECORRUPT, "%s: not a SQLite database, or damaged: %s",
                              path, sqlite3_errmsg(db));
        return gn_err_set(e, GN_EDB, "%s: %s", path, sqlite3_errmsg(db));
    }
    rc = sqlite3_step(st);
    int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        int code = (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) ? GN_ECORRUPT : GN_EDB;
        return gn_err_set(e, code, "%s: %s", path, sqlite3_errmsg(db));
    }
    if (n == 0)
        return gn_err_set(e, GN_ECORRUPT, "%s: not a genie knowledge base (it has no "
                          "genie_columns table describing its schema)", path);
    return 0;
}

int st_check_regular(const char *path, gn_err *e)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return gn_err_set(e, GN_ECORRUPT, "%s: not a regular file, so not a database", path);
    return 0;
}

int st_open(const char *path, int writable, sqlite3 **out, gn_err *e)
{
    *out = NULL;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return gn_err_set(e, GN_ENOTFOUND, "no such database: %s (%s)", path, strerror(errno));
    if (st_check_regular(path, e)) return e->code;
    sqlite3 *db = NULL;
    int flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(path, &db, flags, NULL);
    if (rc != SQLITE_OK) {
        gn_err_set(e, GN_EDB, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return GN_EDB;
    }
    sqlite3_busy_timeout(db, 5000);
    rc = check_kb(db, path, e);
    if (rc) { sqlite3_close(db); return rc; }
    *out = db;
    return 0;
}

static void enum_values(st_column *c, const char *json)
{
    cJSON *a = json ? cJSON_Parse(json) : NULL;
    if (cJSON_IsArray(a)) {
        c->nenum = cJSON_GetArraySize(a);
        c->enum_vals = xcalloc((size_t)c->nenum + 1, sizeof(char *));
        int i = 0;
        cJSON *it;
        cJSON_ArrayForEach(it, a)
            c->enum_vals[i++] = xstrdup(cJSON_IsString(it) ? it->valuestring : "");
    }
    cJSON_Delete(a);
}

static st_table *table_for(st_schema *s, const char *name)
{
    if (s->ntables && strcmp(s->tables[s->ntables - 1].name, name) == 0)
        return &s->tables[s->ntables - 1];
    s->tables = xrealloc(s->tables, sizeof(st_table) * (size_t)(s->ntables + 1));
    st_table *t = &s->tables[s->ntables++];
    memset(t, 0, sizeof *t);
    t->name = xstrdup(name);
    return t;
}

int st_schema_load(sqlite3 *db, st_schema **out, gn_err *e)
{
    *out = NULL;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT tbl, col, type, is_array, free_text, enum_values, "
                           "description FROM genie_columns g ORDER BY (SELECT min(rowid) FROM genie_columns "
                           "WHERE tbl = g.tbl), pos", -1, &st, NULL))
        return st_dberr(db, e, "reading genie_columns");
    st_schema *s = xcalloc(1, sizeof *s);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        st_table *t = table_for(s, (const char *)sqlite3_column_text(st, 0));
        t->cols = xrealloc(t->cols, sizeof(st_column) * (size_t)(t->ncols + 1));
        st_column *c = &t->cols[t->ncols++];
        memset(c, 0, sizeof *c);
        c->name = xstrdup((const char *)sqlite3_column_text(st, 1));
        c->type = xstrdup((const char *)sqlite3_column_text(st, 2));
        c->is_array = sqlite3_column_int(st, 3);
        c->free_text = sqlite3_column_int(st, 4);
        enum_values(c, (const char *)sqlite3_column_text(st, 5));
        c->desc = xstrdup((const char *)sqlite3_column_text(st, 6));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        st_schema_free(s);
        return st_dberr(db, e, "reading genie_columns");
    }
    /* Which array columns have their side table. */
    for (int i = 0; i < s->ntables; i++)
        for (int j = 0; j < s->tables[i].ncols; j++) {
            st_column *c = &s->tables[i].cols[j];
            if (!c->is_array || c->free_text) continue;
            char name[300];
            st_side_table(s->tables[i].name, c->name, name, sizeof name);
            sqlite3_stmt *q;
            if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                   "name = ?", -1, &q, NULL) == SQLITE_OK) {
                sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
                c->side = sqlite3_step(q) == SQLITE_ROW;
                sqlite3_finalize(q);
            }
        }
    *out = s;
    return 0;
}

void st_ident(gn_buf *b, const char *s)
{
    gn_buf_quoted(b, '"', s);
}

void st_literal(gn_buf *b, const char *s)
{
    gn_buf_quoted(b, '\'', s);
}

const char *st_side_table(const char *t, const char *col, char *buf, size_t n)
{
    snprintf(buf, n, "genie_arr_%s_%s", t, col);
    return buf;
}

void st_schema_free(st_schema *s)
{
    if (!s) return;
    for (int i = 0; i < s->ntables; i++) {
        st_table *t = &s->tables[i];
        for (int j = 0; j < t->ncols; j++) {
            st_column *c = &t->cols[j];
            free(c->name);
            free(c->type);
            free(c->desc);
            for (int k = 0; k < c->nenum; k++) free(c->enum_vals[k]);
            free(c->enum_vals);
        }
        free(t->cols);
        free(t->name);
    }
    free(s->tables);
    free(s);
}

const st_table *st_schema_table(const st_schema *s, const char *name)
{
    for (int i = 0; i < s->ntables; i++)
        if (strcasecmp(s->tables[i].name, name) == 0) return &s->tables[i];
    return NULL;
}

const st_column *st_table_column(const st_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcasecmp(t->cols[i].name, name) == 0) return &t->cols[i];
    return NULL;
}
