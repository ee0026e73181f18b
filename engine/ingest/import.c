/*
 * import.c — pass 2: a table's rows into SQLite, each value in its
 * column's type.
 *
 * The table gets `_id INTEGER PRIMARY KEY` (the row id genie keys
 * passages by) and a column per inferred column, declared INTEGER, REAL
 * or TEXT.  Values are bound as they are converted: integers and reals as
 * numbers, booleans 1/0, dates and times in ISO form, lists as the JSON
 * arrays of text genie stores lists as; a value that does not fit its
 * column's type is stored as the text it was, and counted with its line
 * so the user hears about it.  The caller owns the transaction.  After
 * the rows, the key column is the first candidate (infer.c) whose values
 * are all distinct, preferring a name such as name, title or code.
 */
#include "ingest/ingest_int.h"
#include "store/kb.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct importer {
    sqlite3 *db;
    sqlite3_stmt *ins;
    gn_buf *lists;        /* one per column: a list's JSON text */
    char (*small)[12];    /* one per column: a date or time */
} importer;

static const char *decl(const ig_column *c)
{
    switch (c->type) {
    case IG_INT:
    case IG_BOOL: return "INTEGER";
    case IG_REAL: return "REAL";
    default: return "TEXT";
    }
}

/* S (N bytes, valid UTF-8) as a JSON string. */
static void json_str(gn_buf *b, const char *s, size_t n)
{
    gn_buf_putc(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        gn_buf_add(b, s + run, i - run);
        run = i + 1;
        if (c == '"' || c == '\\') {
            gn_buf_putc(b, '\\');
            gn_buf_putc(b, (char)c);
        } else {
            gn_buf_printf(b, "\\u%04x", c);
        }
    }
    gn_buf_add(b, s + run, n - run);
    gn_buf_putc(b, '"');
}

/* A list cell as the JSON array of text genie stores lists as: the parts
 * of a separated cell (trimmed, empty ones dropped), the elements of a
 * JSON array (numbers as text), or a single value as a list of one. */
static void list_json(gn_buf *b, const ig_column *c, const char *s)
{
    gn_buf_reset(b);
    gn_buf_putc(b, '[');
    int k = 0;
    cJSON *in = c->sep ? NULL : cJSON_Parse(s);
    if (cJSON_IsArray(in)) {
        for (cJSON *x = in->child; x; x = x->next) {
            char num[40];
            const char *v = NULL;
            char *printed = NULL;
            if (cJSON_IsString(x)) {
                v = x->valuestring;
            } else if (cJSON_IsNumber(x)) {
                ig_number_text(x->valuedouble, num, sizeof num);
                v = num;
            } else if (!cJSON_IsNull(x)) {
                v = printed = cJSON_PrintUnformatted(x);
            }
            if (v) {
                if (k++) gn_buf_putc(b, ',');
                json_str(b, v, strlen(v));
            }
            cJSON_free(printed);
        }
    } else if (c->sep) {
        const char *q = s;
        for (;;) {
            const char *z = strchr(q, c->sep);
            size_t n = z ? (size_t)(z - q) : strlen(q);
            while (n && (*q == ' ' || *q == '\t')) q++, n--;
            while (n && (q[n - 1] == ' ' || q[n - 1] == '\t')) n--;
            if (n) {
                if (k++) gn_buf_putc(b, ',');
                json_str(b, q, n);
            }
            if (!z) break;
            q = z + 1;
        }
    } else {
        json_str(b, s, strlen(s));      /* one value: a list of one */
    }
    cJSON_Delete(in);
    gn_buf_putc(b, ']');
}

static void bad(ig_column *c, const char *s, long line)
{
    if (!c->bad++) {
        c->bad_line = line;
        c->bad_value = xstrdup(s);
    }
}

static int row_insert(void *ud, ig_table *t, char **cells, long line, gn_err *e)
{
    importer *im = ud;
    sqlite3_stmt *st = im->ins;
    for (int i = 0; i < t->ncols; i++) {
        ig_column *c = &t->cols[i];
        const char *s = cells[i];
        int k = i + 1;
        if (!s) {
            sqlite3_bind_null(st, k);
            continue;
        }
        long long iv;
        double dv;
        int bv;
        switch (c->type) {
        case IG_INT:
            if (ig_is_int(s, &iv)) { sqlite3_bind_int64(st, k, iv); continue; }
            break;
        case IG_REAL:
            if (ig_is_int(s, &iv)) { sqlite3_bind_double(st, k, (double)iv); continue; }
            if (ig_is_real(s, &dv)) { sqlite3_bind_double(st, k, dv); continue; }
            break;
        case IG_BOOL:
            if (ig_is_bool(s, &bv)) { sqlite3_bind_int(st, k, bv); continue; }
            break;
        case IG_DATE:
            if (ig_is_date(s, im->small[i])) {
                sqlite3_bind_text(st, k, im->small[i], -1, SQLITE_STATIC);
                continue;
            }
            break;
        case IG_TIME:
            if (ig_is_time(s, im->small[i])) {
                sqlite3_bind_text(st, k, im->small[i], -1, SQLITE_STATIC);
                continue;
            }
            break;
        case IG_LIST:
            list_json(&im->lists[i], c, s);
            sqlite3_bind_text(st, k, im->lists[i].data, (int)im->lists[i].len, SQLITE_STATIC);
            continue;
        default:
            sqlite3_bind_text(st, k, s, -1, SQLITE_STATIC);
            continue;
        }
        bad(c, s, line);
        sqlite3_bind_text(st, k, s, -1, SQLITE_STATIC);
    }
    if (sqlite3_step(st) != SQLITE_DONE) {
        st_dberr(im->db, e, t->name);
        return gn_err_prefix(e, "%s:%ld", t->path, line);
    }
    sqlite3_reset(st);
    return 0;
}

static int is_preferred(const char *name)
{
    static const char *const names[] = { "name", "title", "code", "id", "key", NULL };
    static const char *const ends[] = { "_name", "_title", "_code", NULL };
    for (int i = 0; names[i]; i++)
        if (!strcasecmp(name, names[i])) return 1;
    size_t n = strlen(name);
    for (int i = 0; ends[i]; i++) {
        size_t k = strlen(ends[i]);
        if (n > k && !strcasecmp(name + n - k, ends[i])) return 1;
    }
    return 0;
}

static int all_distinct(sqlite3 *db, const ig_table *t, const ig_column *c)
{
    char *sql = sqlite3_mprintf("SELECT count(DISTINCT \"%w\") FROM \"%w\"", c->name, t->name);
    sqlite3_stmt *st;
    long n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_free(sql);
    return n == t->rows;
}

static void find_key(sqlite3 *db, ig_table *t)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->ncols; i++) {
            ig_column *c = &t->cols[i];
            if (is_preferred(c->name) != !pass || !ig_key_candidate(c, t->rows)) continue;
            /* pass 1 counted every distinct value unless its set filled */
            int unique = c->st && !ig_stats_full(c->st) ? ig_stats_distinct(c->st) == t->rows
                                                         : all_distinct(db, t, c);
            if (unique) {
                c->key = 1;
                snprintf(c->why, sizeof c->why, "unique, short, names each row");
                return;
            }
        }
}

int ig_import(ig_table *t, sqlite3 *db, ig_progress_fn fn, void *ud, gn_err *e)
{
    gn_buf sql;
    gn_buf_init(&sql);
    gn_buf_puts(&sql, "CREATE TABLE ");
    st_ident(&sql, t->name);
    gn_buf_puts(&sql, "(_id INTEGER PRIMARY KEY");
    for (int i = 0; i < t->ncols; i++) {
        gn_buf_puts(&sql, ", ");
        st_ident(&sql, t->cols[i].name);
        gn_buf_printf(&sql, " %s", decl(&t->cols[i]));
    }
    gn_buf_puts(&sql, ")");
    int rc = 0;
    if (sqlite3_exec(db, sql.data, NULL, NULL, NULL) != SQLITE_OK) rc = st_dberr(db, e, t->name);
    gn_buf_reset(&sql);
    gn_buf_puts(&sql, "INSERT INTO ");
    st_ident(&sql, t->name);
    gn_buf_puts(&sql, " VALUES (NULL");
    for (int i = 0; i < t->ncols; i++) gn_buf_puts(&sql, ", ?");
    gn_buf_puts(&sql, ")");
    importer im = { .db = db };
    if (!rc && sqlite3_prepare_v2(db, sql.data, -1, &im.ins, NULL) != SQLITE_OK)
        rc = st_dberr(db, e, t->name);
    gn_buf_release(&sql);
    if (rc) return rc;
    im.lists = xcalloc((size_t)t->ncols + 1, sizeof *im.lists);
    im.small = xcalloc((size_t)t->ncols + 1, sizeof *im.small);
    for (int i = 0; i < t->ncols; i++) {
        gn_buf_init(&im.lists[i]);
        t->cols[i].bad = 0;
    }
    rc = ig_scan(t, 0, row_insert, &im, fn, ud, e);
    sqlite3_finalize(im.ins);
    for (int i = 0; i < t->ncols; i++) gn_buf_release(&im.lists[i]);
    free(im.lists);
    free(im.small);
    if (!rc) find_key(db, t);
    return rc;
}

int ig_write_db(ig_table *t, int n, const char *path, ig_progress_fn fn, void *ud, gn_err *e)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        int rc = st_dberr(db, e, path);
        sqlite3_close(db);
        return rc;
    }
    /* The file is new and whole only at the end: no journal.  Rows are
     * appended in row id order, so SQLite's default page cache serves as
     * well as a large one, and memory stays flat. */
    int rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN",
                          NULL, NULL, NULL) == SQLITE_OK ? 0 : st_dberr(db, e, path);
    for (int i = 0; !rc && i < n; i++) rc = ig_import(&t[i], db, fn, ud, e);
    if (!rc && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = st_dberr(db, e, path);
    if (!rc && sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) != SQLITE_OK)
        rc = st_dberr(db, e, path);
    if (sqlite3_close(db) != SQLITE_OK && !rc) rc = gn_err_set(e, GN_EDB, "%s: close failed", path);
    return rc;
}
