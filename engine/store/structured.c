/*
 * structured.c — indexes for the structured half of SUQL (see kb.h).
 *
 * SUQL's optimizer runs the structured conditions of a query first, so they
 * must be fast at 180,000 rows, not a full scan: every scalar column gets an
 * index, and every array column (cuisines) a side table of its elements,
 * primary key (value, row), so `'thai' = ANY (cuisines)` is an index lookup
 * instead of parsing every row's JSON.  Triggers keep the side tables in
 * sync with inserts, updates and deletes of the table.
 *
 * In a table with free text a row is kilobytes of reviews, and reading one
 * column of it reads the row's page: `location = 'San Francisco' ORDER BY
 * rating` touched 81,000 pages at scale 100 (0.2 s).  So there each index
 * also carries the table's short columns (numbers, enums, booleans, dates,
 * times and arrays that are not free text: what filters compare and ORDER
 * BY sorts), and such a query is answered from the index alone (12 ms).
 * An index whose columns are not the ones wanted (a database made before,
 * a column added) is made again.
 *
 * Names: genie_ix_T_C for indexes, genie_arr_T_C for side tables,
 * genie_arr_T_C_ins/_upd/_del for triggers; all genie_* names are hidden
 * from queries.  Everything is made in one transaction, planned again
 * once it holds the write lock (another process may have made it).
 *
 * Rejected: free-text columns (retrieval serves them; their JSON is long);
 * an index per array element expression (SQLite cannot index json_each);
 * carrying text columns too (names, addresses and hours would copy most of
 * the row's short half into every index); one covering index of all short
 * columns beside single-column ones (without statistics SQLite seeks the
 * single-column index and reads the rows anyway).
 */
#include "kb.h"

#include "util/buf.h"

#include <stdio.h>
#include <string.h>

static int exists(sqlite3 *db, const char *type, const char *name)
{
    sqlite3_stmt *q;
    int yes = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?", -1, &q,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, type, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
        yes = sqlite3_step(q) == SQLITE_ROW;
        sqlite3_finalize(q);
    }
    return yes;
}

/* The statements that make the side table of T.C, its triggers and fill it. */
static void side_sql(const char *t, const char *c, const char *side, gn_buf *b)
{
    gn_buf_puts(b, "CREATE TABLE ");
    st_ident(b, side);
    gn_buf_puts(b, " (row INTEGER NOT NULL, value, PRIMARY KEY (value, row)) WITHOUT ROWID;\n");
    gn_buf_puts(b, "CREATE INDEX ");
    gn_buf_printf(b, "\"%s_row\" ON ", side);
    st_ident(b, side);
    gn_buf_puts(b, " (row);\nINSERT OR IGNORE INTO ");
    st_ident(b, side);
    gn_buf_puts(b, " SELECT t._id, j.value FROM ");
    st_ident(b, t);
    gn_buf_puts(b, " AS t, json_each(t.");
    st_ident(b, c);
    gn_buf_puts(b, ") AS j WHERE json_valid(t.");
    st_ident(b, c);
    gn_buf_puts(b, ");\n");
    static const char *const when[] = { "ins", "upd", "del" };
    for (int k = 0; k < 3; k++) {
        gn_buf_printf(b, "CREATE TRIGGER \"%s_%s\" AFTER %s ", side, when[k],
                      k == 0 ? "INSERT" : k == 1 ? "UPDATE" : "DELETE");
        if (k == 1) {
            gn_buf_puts(b, "OF ");
            st_ident(b, c);
            gn_buf_puts(b, ", _id ");
        }
        gn_buf_puts(b, "ON ");
        st_ident(b, t);
        gn_buf_puts(b, " BEGIN ");
        if (k > 0) {
            gn_buf_puts(b, "DELETE FROM ");
            st_ident(b, side);
            gn_buf_puts(b, " WHERE row = OLD._id; ");
        }
        if (k < 2) {
            gn_buf_puts(b, "INSERT OR IGNORE INTO ");
            st_ident(b, side);
            gn_buf_puts(b, " SELECT NEW._id, j.value FROM json_each(CASE WHEN json_valid(NEW.");
            st_ident(b, c);
            gn_buf_puts(b, ") THEN NEW.");
            st_ident(b, c);
            gn_buf_puts(b, " ELSE '[]' END) AS j; ");
        }
        gn_buf_puts(b, "END;\n");
    }
}

/* Columns an index of T carries after its own: the short ones, when T has
 * free text (see the top of the file). */
static int carried(const st_table *t, const st_column *c)
{
    static const char *const shortt[] = { "int", "real", "enum", "bool", "date", "time", NULL };
    if (c->free_text || !strcmp(c->name, "_id")) return 0;
    int is_short = c->is_array, wide = 0;       /* arrays here are not free text */
    for (int i = 0; shortt[i]; i++) is_short |= !strcmp(c->type, shortt[i]);
    for (int j = 0; j < t->ncols; j++) wide |= t->cols[j].free_text;
    return is_short && wide;
}

/* The key columns of T's index on C, quoted and comma-separated. */
static void index_cols(const st_table *t, const st_column *c, gn_buf *b)
{
    st_ident(b, c->name);
    for (int j = 0; j < t->ncols; j++)
        if (&t->cols[j] != c && carried(t, &t->cols[j])) {
            gn_buf_puts(b, ", ");
            st_ident(b, t->cols[j].name);
        }
}

/* 1 when index NAME exists with exactly the key columns WANT (as
 * index_cols writes them). */
static int index_is(sqlite3 *db, const char *name, const char *want)
{
    sqlite3_stmt *q;
    gn_buf have;
    gn_buf_init(&have);
    int rows = 0;
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", -1, &q,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(q) == SQLITE_ROW) {
            if (rows++) gn_buf_puts(&have, ", ");
            st_ident(&have, (const char *)sqlite3_column_text(q, 0));
        }
        sqlite3_finalize(q);
    }
    int same = rows > 0 && !strcmp(have.data, want);
    gn_buf_release(&have);
    return same;
}

/* Appends to B the statements that bring S's indexes and side tables up
 * to date; returns how many are missing or stale. */
static int plan(sqlite3 *db, const st_schema *s, gn_buf *b)
{
    int n = 0;
    gn_buf cols;
    gn_buf_init(&cols);
    char name[300];
    for (int i = 0; i < s->ntables; i++) {
        const st_table *t = &s->tables[i];
        for (int j = 0; j < t->ncols; j++) {
            const st_column *c = &t->cols[j];
            if (c->free_text || !strcmp(c->name, "_id")) continue;
            if (c->is_array) {
                st_side_table(t->name, c->name, name, sizeof name);
                if (exists(db, "table", name)) continue;
                side_sql(t->name, c->name, name, b);
            } else {
                snprintf(name, sizeof name, "genie_ix_%s_%s", t->name, c->name);
                gn_buf_reset(&cols);
                index_cols(t, c, &cols);
                if (index_is(db, name, cols.data)) continue;
                if (exists(db, "index", name)) {
                    gn_buf_puts(b, "DROP INDEX ");
                    st_ident(b, name);
                    gn_buf_puts(b, ";\n");
                }
                gn_buf_puts(b, "CREATE INDEX ");
                st_ident(b, name);
                gn_buf_puts(b, " ON ");
                st_ident(b, t->name);
                gn_buf_printf(b, " (%s);\n", cols.data);
            }
            n++;
        }
    }
    gn_buf_release(&cols);
    return n;
}

int st_structured_ensure(sqlite3 *db, st_schema *s, int *made, gn_err *e)
{
    gn_buf b;
    gn_buf_init(&b);
    int n = plan(db, s, &b);
    int rc = 0;
    if (n) {
        /* Planned again under the write lock: two processes opening a new
         * database at once would otherwise both make the same index. */
        char *err = NULL;
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &err) == SQLITE_OK) {
            gn_buf_reset(&b);
            n = plan(db, s, &b);
        }
        if (err || (n && sqlite3_exec(db, b.data, NULL, NULL, &err) != SQLITE_OK) ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, &err) != SQLITE_OK) {
            rc = gn_err_set(e, GN_EDB, "indexing the structured columns: %s",
                            err ? err : sqlite3_errmsg(db));
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        }
        sqlite3_free(err);
    }
    gn_buf_release(&b);
    for (int i = 0; !rc && i < s->ntables; i++)
        for (int j = 0; j < s->tables[i].ncols; j++) {
            st_column *c = &s->tables[i].cols[j];
            if (c->is_array && !c->free_text) c->side = 1;
        }
    if (made) *made = rc ? 0 : n;
    return rc;
}
