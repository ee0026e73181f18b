/*
 * passages.c — turning free-text columns into passages.
 *
 * Every element of a free-text array (or the whole value of a scalar
 * free-text column) is one passage; one longer than the chunk limit is split
 * at the last sentence end (". ", "! ", "? ") before the limit, else the last
 * space, else hard.  Passages are per element, not per row: BM25 would then
 * score whole rows, and the best-passage semantics of the SUQL aggregate
 * score needs per-passage scores.  Rejected: an SQLite FTS5 table over the
 * passages, which earlier versions built (genie_fts, dropped here when a
 * database still has it): nothing queried it but the benchmark, and it cut
 * words with its own tokenizer and stemmer where every lexical path must
 * share one (retrieval/tokenize.h, retrieval/stem.h).
 */
#include "passages.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

static const char *ddl =
    "DROP TABLE IF EXISTS genie_fts;"
    "DROP TABLE IF EXISTS genie_passages;"
    "DROP TABLE IF EXISTS genie_sources;"
    "CREATE TABLE genie_sources(src INTEGER PRIMARY KEY, tbl TEXT NOT NULL, col TEXT NOT NULL);"
    "CREATE TABLE genie_passages(id INTEGER PRIMARY KEY, src INTEGER NOT NULL, "
    "  row_id INTEGER NOT NULL, elem INTEGER NOT NULL, chunk INTEGER NOT NULL, text TEXT NOT NULL);";

static int cut_point(const char *t, int len, int max)
{
    if (len <= max) return len;
    for (int i = max - 1; i > max / 3; i--)
        if ((t[i] == '.' || t[i] == '!' || t[i] == '?') && t[i + 1] == ' ') return i + 1;
    for (int i = max - 1; i > max / 3; i--)
        if (t[i] == ' ') return i;
    /* Never split inside a UTF-8 sequence. */
    int i = max;
    while (i > 1 && ((unsigned char)t[i] & 0xC0) == 0x80) i--;
    return i;
}

int st_chunk(const char *text, int max, st_chunk_fn fn, void *ud)
{
    int n = 0, len = (int)strlen(text);
    const char *p = text;
    while (len > 0) {
        while (len > 0 && *p == ' ') { p++; len--; }
        if (len == 0) break;
        int cut = cut_point(p, len, max);
        fn(p, cut, ud);
        n++;
        p += cut;
        len -= cut;
    }
    return n;
}

typedef struct {
    sqlite3_stmt *ins;
    long next_id;
    int src, elem, chunk;
    sqlite3_int64 row;
    int rc;
} emit_ctx;

static void emit(const char *start, int len, void *ud)
{
    emit_ctx *c = ud;
    if (c->rc) return;
    sqlite3_bind_int64(c->ins, 1, c->next_id);
    sqlite3_bind_int(c->ins, 2, c->src);
    sqlite3_bind_int64(c->ins, 3, c->row);
    sqlite3_bind_int(c->ins, 4, c->elem);
    sqlite3_bind_int(c->ins, 5, c->chunk++);
    sqlite3_bind_text(c->ins, 6, start, len, SQLITE_TRANSIENT);
    if (sqlite3_step(c->ins) != SQLITE_DONE) c->rc = 1;
    sqlite3_reset(c->ins);
    c->next_id++;
}

static void emit_value(emit_ctx *c, const char *text, int is_array, int max)
{
    if (!text) return;
    if (!is_array) {
        c->elem = 0;
        c->chunk = 0;
        st_chunk(text, max, emit, c);
        return;
    }
    cJSON *a = cJSON_Parse(text);
    int i = 0;
    cJSON *it;
    if (cJSON_IsArray(a)) {
        cJSON_ArrayForEach(it, a) {
            c->elem = i++;
            c->chunk = 0;
            if (cJSON_IsString(it)) st_chunk(it->valuestring, max, emit, c);
        }
    } else {
        c->elem = 0;
        c->chunk = 0;
        st_chunk(text, max, emit, c);   /* not JSON: index the raw text */
    }
    cJSON_Delete(a);
}

static long count_rows(sqlite3 *db, const char *tbl)
{
    char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\"", tbl);
    sqlite3_stmt *st;
    long n = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_free(sql);
    return n;
}

/* One table: select _id and its free-text columns (numbered from first_src). */
static int build_table(sqlite3 *db, const st_table *t, int first_src, emit_ctx *c, int max,
                       st_progress_fn progress, void *ud, gn_err *e)
{
    gn_buf sql;
    gn_buf_init(&sql);
    gn_buf_puts(&sql, "SELECT _id");
    int ncols = 0;
    const st_column *cols[64];
    for (int i = 0; i < t->ncols && ncols < 64; i++)
        if (t->cols[i].free_text) {
            char *q = sqlite3_mprintf(", \"%w\"", t->cols[i].name);
            gn_buf_puts(&sql, q);
            sqlite3_free(q);
            cols[ncols++] = &t->cols[i];
        }
    char *from = sqlite3_mprintf(" FROM \"%w\" ORDER BY _id", t->name);
    gn_buf_puts(&sql, from);
    sqlite3_free(from);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql.data, -1, &st, NULL);
    gn_buf_release(&sql);
    if (rc) return st_dberr(db, e, t->name);
    long total = count_rows(db, t->name), done = 0;
    char stage[96];                   /* what is counted: the table's rows */
    snprintf(stage, sizeof stage, "rows of %s", t->name);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && !c->rc) {
        c->row = sqlite3_column_int64(st, 0);
        for (int j = 0; j < ncols; j++) {
            c->src = first_src + j;
            emit_value(c, (const char *)sqlite3_column_text(st, j + 1), cols[j]->is_array, max);
        }
        if (progress && (++done % 500 == 0 || done == total)) progress(stage, done, total, ud);
    }
    sqlite3_finalize(st);
    if (c->rc || (rc != SQLITE_DONE && rc != SQLITE_ROW)) return st_dberr(db, e, t->name);
    return 0;
}

static int add_sources(sqlite3 *db, const st_table *t, int *src, gn_err *e)
{
    for (int i = 0; i < t->ncols; i++) {
        if (!t->cols[i].free_text) continue;
        char *sql = sqlite3_mprintf("INSERT INTO genie_sources VALUES(%d, %Q, %Q)",
                                    (*src)++, t->name, t->cols[i].name);
        int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
        if (rc) return st_dberr(db, e, "genie_sources");
    }
    return 0;
}

int st_passages_build(sqlite3 *db, const st_schema *s, int chunk_chars,
                      st_progress_fn progress, void *ud, long *npassages, gn_err *e)
{
    *npassages = 0;
    if (sqlite3_exec(db, ddl, NULL, NULL, NULL)) return st_dberr(db, e, "creating passage tables");
    emit_ctx c = { 0 };
    if (sqlite3_prepare_v2(db, "INSERT INTO genie_passages VALUES(?,?,?,?,?,?)", -1, &c.ins, NULL))
        return st_dberr(db, e, "genie_passages");
    int src = 0, rc = 0;
    for (int i = 0; i < s->ntables && !rc; i++) {
        int first = src;
        rc = add_sources(db, &s->tables[i], &src, e);
        if (!rc && src > first)
            rc = build_table(db, &s->tables[i], first, &c, chunk_chars, progress, ud, e);
    }
    sqlite3_finalize(c.ins);
    if (rc) return rc;
    *npassages = c.next_id;
    return 0;
}
