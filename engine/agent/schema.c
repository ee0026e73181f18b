/*
 * schema.c — the knowledge base's schema from the agent's db worksheets.
 *
 * The store and the SUQL compiler read a database's exposed schema from
 * its genie_columns table (store/kb.h).  The sample databases carry one
 * made by their generator; a database someone brings along does not, so
 * the agent writes it from its spec: each `db` worksheet names a table,
 * each field a column, with its type (List[X] as an array, Enum with its
 * values, `text` as free text, which --reindex then indexes for answer(),
 * summary() and hybrid search) and description.  A table already described
 * is left alone: the spec never overrides what the database says, and a
 * worksheet whose table or column does not exist, or whose table lacks
 * the row id column `_id INTEGER PRIMARY KEY` that the store keys
 * passages by, is an error naming the spec's line.  Everything is written in one transaction.
 *
 * A table described from the spec keeps the digest of the worksheet that
 * described it (genie_spec); when the worksheet changes (a type corrected,
 * a column made free text, enum values or descriptions edited), the table
 * is described again at the next start, and a changed set of free-text
 * columns makes the retrieval index stale, so it is rebuilt.  A table the
 * database describes itself (no digest: the sample generator's) is never
 * touched.
 */
#include "agent/agent.h"
#include "store/kb.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

static const char ddl[] =
    "CREATE TABLE IF NOT EXISTS genie_columns(tbl TEXT NOT NULL, col TEXT NOT NULL, "
    "pos INTEGER NOT NULL, type TEXT NOT NULL, is_array INTEGER NOT NULL DEFAULT 0, "
    "free_text INTEGER NOT NULL DEFAULT 0, enum_values TEXT, description TEXT, "
    "PRIMARY KEY(tbl, col))";

static const char spec_ddl[] =
    "CREATE TABLE IF NOT EXISTS genie_spec(tbl TEXT PRIMARY KEY, digest TEXT NOT NULL)";

/* The digest of what worksheet W says about its table. */
static void sheet_digest(const ws_sheet *w, char out[65])
{
    gn_sha256 h;
    gn_sha256_init(&h);
    for (int i = 0; i < w->nfields; i++) {
        const ws_field *f = &w->fields[i];
        const char *parts[] = { f->name, f->type_src ? f->type_src : "", f->desc ? f->desc : "",
                                f->primary ? "primary" : "" };
        for (size_t k = 0; k < sizeof parts / sizeof *parts; k++)
            gn_sha256_update(&h, parts[k], strlen(parts[k]) + 1);
        for (int k = 0; k < f->nenums; k++) gn_sha256_update(&h, f->enums[k], strlen(f->enums[k]) + 1);
        gn_sha256_update(&h, "\n", 1);
    }
    gn_sha256_final_hex(&h, out);
}

/* The digest genie_spec holds for TBL into OUT; 0 when there is none. */
static int stored_digest(sqlite3 *db, const char *tbl, char out[65])
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT digest FROM genie_spec WHERE tbl = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, tbl, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) {
            snprintf(out, 65, "%s", (const char *)sqlite3_column_text(st, 0));
            found = 1;
        }
    }
    sqlite3_finalize(st);
    return found;
}

static int exec_bind(sqlite3 *db, const char *sql, const char *a, const char *b, gn_err *e)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return st_dberr(db, e, "genie_spec");
    sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
    if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = st_dberr(db, e, "genie_spec");
    sqlite3_finalize(st);
    return rc;
}

static const char *store_type(const ws_type *t)
{
    switch (t->kind) {
    case WT_INT: return "int";
    case WT_FLOAT: return "real";
    case WT_BOOL: return "bool";
    case WT_DATE: return "date";
    case WT_TIME: return "time";
    case WT_ENUM: return "enum";
    default: return "text";
    }
}

static int count(sqlite3 *db, const char *sql, const char *arg, const char *arg2)
{
    sqlite3_stmt *st = NULL;
    int n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    if (arg2) sqlite3_bind_text(st, 2, arg2, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

static int describe(sqlite3 *db, const ws_spec *spec, const ws_sheet *w, gn_err *e)
{
    sqlite3_stmt *ins = NULL;
    if (count(db, "SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?",
              w->name, NULL) != 1)
        return gn_err_setpos(e, GN_EPARSE, spec->path, w->line, 0,
                             "db worksheet %s: the database has no table %s", w->name, w->name);
    if (count(db, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ? AND pk = 1", w->name, "_id") != 1)
        return gn_err_setpos(e, GN_EPARSE, spec->path, w->line, 0,
                             "db worksheet %s: the table needs a row id column "
                             "\"_id INTEGER PRIMARY KEY\"", w->name);
    if (sqlite3_prepare_v2(db, "INSERT INTO genie_columns(tbl, col, pos, type, is_array, free_text, "
                           "enum_values, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL))
        return st_dberr(db, e, "genie_columns");
    int rc = 0;
    if (!ws_sheet_field(w, "_id")) {
        sqlite3_bind_text(ins, 1, w->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 2, "_id", -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 3, -1);
        sqlite3_bind_text(ins, 4, "int", -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 5, 0);
        sqlite3_bind_int(ins, 6, 0);
        sqlite3_bind_null(ins, 7);
        sqlite3_bind_text(ins, 8, "Row id.", -1, SQLITE_STATIC);
        if (sqlite3_step(ins) != SQLITE_DONE) rc = st_dberr(db, e, "genie_columns");
    }
    for (int i = 0; i < w->nfields && !rc; i++) {
        const ws_field *f = &w->fields[i];
        if (count(db, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", w->name, f->name) != 1) {
            rc = gn_err_setpos(e, GN_EPARSE, spec->path, f->line, 0,
                               "db worksheet %s: the table has no column %s", w->name, f->name);
            break;
        }
        const ws_type *t = f->type.kind == WT_LIST ? f->type.elem : &f->type;
        char *enums = NULL;
        if (t->kind == WT_ENUM) {
            cJSON *a = cJSON_CreateArray();
            for (int k = 0; k < f->nenums; k++) cJSON_AddItemToArray(a, cJSON_CreateString(f->enums[k]));
            enums = cJSON_PrintUnformatted(a);
            cJSON_Delete(a);
        }
        sqlite3_reset(ins);
        sqlite3_bind_text(ins, 1, w->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 2, f->name, -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 3, i);
        sqlite3_bind_text(ins, 4, store_type(t), -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 5, f->type.kind == WT_LIST);
        sqlite3_bind_int(ins, 6, t->kind == WT_TEXT);
        if (enums) sqlite3_bind_text(ins, 7, enums, -1, SQLITE_TRANSIENT);
        else sqlite3_bind_null(ins, 7);
        if (f->desc && *f->desc) sqlite3_bind_text(ins, 8, f->desc, -1, SQLITE_STATIC);
        else sqlite3_bind_null(ins, 8);
        if (sqlite3_step(ins) != SQLITE_DONE) rc = st_dberr(db, e, "genie_columns");
        free(enums);
    }
    sqlite3_finalize(ins);
    return rc;
}

/* Whether worksheet W's table is to be described (again). */
static int needs_describing(sqlite3 *db, const ws_sheet *w)
{
    char now[65], was[65];
    if (count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'genie_columns'", NULL, NULL) != 1 ||
        count(db, "SELECT count(*) FROM genie_columns WHERE tbl = ?", w->name, NULL) == 0)
        return 1;
    if (count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'genie_spec'", NULL, NULL) != 1 ||
        !stored_digest(db, w->name, was))
        return 0;
    sheet_digest(w, now);
    return strcmp(was, now) != 0;
}

int ag_schema_sync(const ag_agent *a, sqlite3 *db, int *tables, gn_err *e)
{
    int made = 0, rc, todo = 0;
    if (tables) *tables = 0;
    /* Nothing to do is the common case: then nothing is written. */
    for (int i = 0; i < a->spec->nsheets && !todo; i++)
        todo = a->spec->sheets[i].kind == WSK_DB && needs_describing(db, &a->spec->sheets[i]);
    if (!todo) return 0;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return st_dberr(db, e, "describing the knowledge base");
    rc = sqlite3_exec(db, ddl, NULL, NULL, NULL) == SQLITE_OK ? 0 : st_dberr(db, e, "genie_columns");
    if (!rc && sqlite3_exec(db, spec_ddl, NULL, NULL, NULL) != SQLITE_OK) rc = st_dberr(db, e, "genie_spec");
    for (int i = 0; !rc && i < a->spec->nsheets; i++) {
        const ws_sheet *w = &a->spec->sheets[i];
        if (w->kind != WSK_DB) continue;
        char now[65], was[65];
        sheet_digest(w, now);
        if (count(db, "SELECT count(*) FROM genie_columns WHERE tbl = ?", w->name, NULL) != 0) {
            if (!stored_digest(db, w->name, was) || !strcmp(was, now)) continue;
            rc = exec_bind(db, "DELETE FROM genie_columns WHERE tbl = ?", w->name, NULL, e);
        }
        if (!rc) rc = describe(db, a->spec, w, e);
        if (!rc) rc = exec_bind(db, "INSERT OR REPLACE INTO genie_spec(tbl, digest) VALUES (?, ?)",
                                w->name, now, e);
        if (!rc) made++;
    }
    if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = st_dberr(db, e, "commit");
    if (rc) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    else if (tables) *tables = made;
    return rc;
}
