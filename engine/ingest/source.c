/*
 * source.c — data files as tables: the format of a file, the names its
 * tables and columns get, and reading a SQLite database's tables.
 *
 * Names become SQL identifiers people can type: lowercase ASCII, accents
 * dropped ("Année" → annee), other runs of characters one '_', never a
 * word SUQL would have to quote (`order` → order_, suql_is_keyword),
 * never a leading digit (`2024` → c_2024) or
 * genie's own prefix.  A name taken in the same table (or, for tables, in
 * the same run) gets _2, _3, ...
 */
#include "ingest/ingest_int.h"
#include "suql/ast.h"
#include "util/utf8.h"
#include "worksheet/spec.h"
#include "util/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

/* Latin-1 letters U+00C0..U+00FF without their accents ('.': none). */
static const char latin1[] = "AAAAAAACEEEEIIIIDNOOOOOxOUUUUYTsaaaaaaaceeeeiiiidnooooo/ouuuuyty";

char *ig_ident(const char *text, const char *fallback)
{
    gn_buf b;
    gn_buf_init(&b);
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    int under = 0;
    while (*p) {
        int c = *p;
        if (c == 0xC3 && p[1] >= 0x80 && p[1] <= 0xBF) {
            c = latin1[p[1] - 0x80];
            p += 2;
            if (c == 'x' || c == '/') c = '_';
        } else if (c >= 0x80) {
            p++;
            while ((*p & 0xC0) == 0x80) p++;
            c = '_';
        } else {
            p++;
        }
        if (isalnum(c)) {
            if (under && b.len) gn_buf_putc(&b, '_');
            gn_buf_putc(&b, (char)tolower(c));
            under = 0;
        } else {
            under = 1;
        }
    }
    if (!b.len) {
        gn_buf_release(&b);
        return xstrdup(fallback);
    }
    char *s = gn_buf_detach(&b);
    if (isdigit((unsigned char)s[0]) || !strncmp(s, "genie_", 6) || !strcmp(s, "genie")) {
        char *t = xasprintf("%s_%s", isdigit((unsigned char)s[0]) ? "c" : "my", s);
        free(s);
        s = t;
    }
    /* A word SUQL must quote as a name (the parser's own list), or rowid,
     * which would shadow SQLite's row id. */
    if (suql_is_keyword(s) || !strcmp(s, "rowid")) {
        char *t = xasprintf("%s_", s);
        free(s);
        return t;
    }
    return s;
}

static char *unique_name(char *name, int (*taken)(const void *, const char *), const void *ctx)
{
    if (!taken(ctx, name)) return name;
    for (int k = 2;; k++) {
        char *t = xasprintf("%s_%d", name, k);
        if (!taken(ctx, t)) {
            free(name);
            return t;
        }
        free(t);
    }
}

/* NAME made usable in the worksheet spec too: a reserved word of its
 * expression language (class, pass) or, for a table, a type's name (date,
 * text) gets a trailing '_'. */
static char *spec_safe(char *name, int sheet)
{
    if (!ws_name_reserved(name, sheet)) return name;
    char *t = xasprintf("%s_", name);
    free(name);
    return t;
}

static int column_taken(const void *ctx, const char *name)
{
    const ig_table *t = ctx;
    if (!strcasecmp(name, "_id")) return 1;
    for (int i = 0; i < t->ncols; i++)
        if (!strcasecmp(t->cols[i].name, name)) return 1;
    return 0;
}

int ig_column_add(ig_table *t, const char *src, long line, gn_err *e)
{
    char why[160] = "";
    if (t->ncols >= IG_COLUMNS_MAX)
        snprintf(why, sizeof why, "more than %d columns; genie imports at most %d",
                 IG_COLUMNS_MAX, IG_COLUMNS_MAX);
    else if (strlen(src) > IG_NAME_MAX)
        snprintf(why, sizeof why, "column %d's name is %zu bytes long; at most %d are "
                 "accepted (is the first row a header?)", t->ncols + 1, strlen(src),
                 IG_NAME_MAX);
    if (*why) {
        if (line > 0) gn_err_setpos(e, GN_EPARSE, t->path, (int)line, 0, "%s", why);
        else gn_err_set(e, GN_EPARSE, "%s: %s", t->label, why);
        return -1;
    }
    t->cols = xrealloc(t->cols, (size_t)(t->ncols + 1) * sizeof *t->cols);
    ig_column *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    char fb[32];
    snprintf(fb, sizeof fb, "col_%d", t->ncols + 1);
    c->src = xstrdup(src);
    c->name = unique_name(spec_safe(ig_ident(src, fb), 0), column_taken, t);
    return t->ncols++;
}

struct tables_ctx { ig_table *t; int n; };

static int table_taken(const void *ctx, const char *name)
{
    const struct tables_ctx *x = ctx;
    for (int i = 0; i < x->n; i++)
        if (!strcasecmp(x->t[i].name, name)) return 1;
    return 0;
}

static const char *ext_of(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* The format of PATH from its extension, else its first bytes. */
static int sniff(const char *path, enum ig_format *fmt, gn_err *e)
{
    static const struct { const char *ext; enum ig_format f; } exts[] = {
        { "csv", IG_CSV }, { "tsv", IG_TSV }, { "tab", IG_TSV }, { "json", IG_JSON },
        { "jsonl", IG_JSONL }, { "ndjson", IG_JSONL }, { "db", IG_SQLITE },
        { "sqlite", IG_SQLITE }, { "sqlite3", IG_SQLITE },
    };
    /* The file is read twice (types, then rows): a FIFO or a device
     * cannot be, and opening a FIFO would wait for a writer. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return gn_err_set(e, GN_EUSAGE, "%s: not a regular file (--init reads a data file twice: "
                          "save it to a file first)", path);
    FILE *f = fopen(path, "rb");
    if (!f) return gn_err_set(e, errno == ENOENT ? GN_ENOTFOUND : GN_EIO, "%s: %s", path,
                              strerror(errno));
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    if (n >= 16 && !memcmp(head, "SQLite format 3", 16)) { *fmt = IG_SQLITE; return 0; }
    const char *ext = ext_of(path);
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (!strcasecmp(ext, exts[i].ext)) {
            *fmt = exts[i].f;
            if (*fmt == IG_SQLITE)
                return gn_err_set(e, GN_EPARSE, "%s: not a SQLite database", path);
            /* a .csv whose first line has tabs and no commas is TSV */
            if (*fmt == IG_CSV) {
                size_t l = strcspn(head, "\r\n");
                if (memchr(head, '\t', l) && !memchr(head, ',', l)) *fmt = IG_TSV;
            }
            return 0;
        }
    const char *p = head;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p == '[') { *fmt = IG_JSON; return 0; }
    if (*p == '{') { *fmt = IG_JSONL; return 0; }
    size_t l = strcspn(p, "\r\n");
    if (l == 0) return gn_err_set(e, GN_EPARSE, "%s: the file is empty", path);
    *fmt = memchr(p, '\t', l) && !memchr(p, ',', l) ? IG_TSV : IG_CSV;
    return 0;
}

static char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    char *b = xstrdup(s);
    char *dot = strchr(b[0] == '.' ? b + 1 : b, '.');
    if (dot) *dot = '\0';
    return b;
}

static ig_table *new_table(ig_table **tables, int *n, const char *path, const char *name,
                           enum ig_format fmt)
{
    *tables = xrealloc(*tables, (size_t)(*n + 1) * sizeof **tables);
    ig_table *t = &(*tables)[*n];
    memset(t, 0, sizeof *t);
    struct tables_ctx x = { *tables, *n };
    t->path = xstrdup(path);
    t->format = fmt;
    t->name = unique_name(spec_safe(ig_ident(name, "data"), 1), table_taken, &x);
    const char *s = strrchr(path, '/');
    t->label = xstrdup(s ? s + 1 : path);
    (*n)++;
    return t;
}

static int open_sqlite(const char *path, sqlite3 **db, gn_err *e)
{
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK) {
        gn_err_set(e, GN_EIO, "%s: %s", path, sqlite3_errmsg(*db));
        sqlite3_close(*db);
        *db = NULL;
        return GN_EIO;
    }
    return 0;
}

static int open_sqlite_tables(const char *path, ig_table **tables, int *n, gn_err *e)
{
    sqlite3 *db;
    if (open_sqlite(path, &db, e)) return e->code;
    sqlite3_stmt *st;
    int rc = 0, found = 0;
    /* Ordinary tables only: not views, virtual tables (FTS) nor their
     * shadow tables, nor SQLite's or genie's own. */
    if (sqlite3_prepare_v2(db, "SELECT l.name FROM pragma_table_list AS l JOIN sqlite_master "
                           "AS m ON m.name = l.name AND m.type = 'table' WHERE l.schema = 'main' "
                           "AND l.type = 'table' AND l.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                           "AND l.name NOT LIKE 'genie\\_%' ESCAPE '\\' ORDER BY m.rowid",
                           -1, &st, NULL)) {
        rc = gn_err_set(e, GN_EPARSE, "%s: %s", path, sqlite3_errmsg(db));
    } else {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            ig_table *t = new_table(tables, n, path, name, IG_SQLITE);
            t->src_table = xstrdup(name);
            free(t->label);
            const char *s = strrchr(path, '/');
            t->label = xasprintf("%s: %s", s ? s + 1 : path, name);
            found++;
        }
        if (sqlite3_finalize(st) != SQLITE_OK)
            rc = gn_err_set(e, GN_EPARSE, "%s: %s", path, sqlite3_errmsg(db));
    }
    if (!rc && !found) rc = gn_err_set(e, GN_EPARSE, "%s: the database has no tables", path);
    sqlite3_close(db);
    return rc;
}

int ig_open(const char *path, ig_table **tables, int *n, gn_err *e)
{
    enum ig_format fmt;
    if (sniff(path, &fmt, e)) return e->code;
    if (fmt == IG_SQLITE) return open_sqlite_tables(path, tables, n, e);
    char *base = base_name(path);
    ig_table *t = new_table(tables, n, path, base, fmt);
    free(base);
    if (fmt == IG_CSV || fmt == IG_TSV) return ig_csv_header(t, e);
    return 0;
}

int ig_scan_sqlite(ig_table *t, ig_row_fn fn, void *ud, ig_progress_fn progress, void *pud,
                   gn_err *e)
{
    sqlite3 *db;
    if (open_sqlite(t->path, &db, e)) return e->code;
    char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", t->src_table);
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL)) {
        rc = gn_err_set(e, GN_EPARSE, "%s: %s", t->label, sqlite3_errmsg(db));
    } else {
        int nc = sqlite3_column_count(st);
        if (t->ncols == 0)
            for (int i = 0; i < nc && !rc; i++)
                if (ig_column_add(t, sqlite3_column_name(st, i), 0, e) < 0) rc = e->code;
        if (!rc && nc != t->ncols)
            rc = gn_err_set(e, GN_EIO, "%s: the table changed while it was read", t->label);
        char **cells = xcalloc((size_t)nc + 1, sizeof *cells);
        long row = 0;
        int s;
        while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
            row++;
            for (int i = 0; i < nc && !rc; i++) {
                int ty = sqlite3_column_type(st, i);
                if (ty == SQLITE_BLOB) {
                    rc = gn_err_set(e, GN_EPARSE, "%s, row %ld: column %s holds binary data "
                                    "(a BLOB), which cannot be imported", t->label, row,
                                    t->cols[i].src);
                    break;
                }
                char *v = ty == SQLITE_NULL ? NULL : (char *)sqlite3_column_text(st, i);
                if (v && !gn_utf8_valid(v, (size_t)sqlite3_column_bytes(st, i))) {
                    rc = gn_err_set(e, GN_EPARSE, "%s, row %ld: invalid UTF-8 in column %s",
                                    t->label, row, t->cols[i].src);
                    break;
                }
                if (v) {
                    while (*v == ' ' || *v == '\t') v++;
                    size_t k = strlen(v);
                    /* sqlite3_column_text's buffer is ours until the next step */
                    while (k && (v[k - 1] == ' ' || v[k - 1] == '\t')) v[--k] = '\0';
                    if (ig_is_null(v)) v = NULL;
                }
                cells[i] = v;
            }
            if (!rc) rc = fn(ud, t, cells, row, e);
            if (!rc && row % IG_PROGRESS_EVERY == 0 && progress && progress(pud, t, NULL, row, 0))
                rc = gn_err_set(e, GN_ECANCEL, "cancelled");
        }
        if (!rc && s != SQLITE_DONE) rc = gn_err_set(e, GN_EIO, "%s: %s", t->label, sqlite3_errmsg(db));
        free(cells);
    }
    sqlite3_finalize(st);
    sqlite3_free(sql);
    sqlite3_close(db);
    return rc;
}

int ig_scan(ig_table *t, int grow, ig_row_fn fn, void *ud, ig_progress_fn progress, void *pud,
            gn_err *e)
{
    switch (t->format) {
    case IG_CSV:
    case IG_TSV: return ig_scan_csv(t, fn, ud, progress, pud, e);
    case IG_JSON:
    case IG_JSONL: return ig_scan_json(t, grow, fn, ud, progress, pud, e);
    case IG_SQLITE: return ig_scan_sqlite(t, fn, ud, progress, pud, e);
    }
    return gn_err_set(e, GN_EUSAGE, "unknown format");
}

void ig_tables_free(ig_table *tables, int n)
{
    for (int i = 0; i < n; i++) {
        ig_table *t = &tables[i];
        for (int k = 0; k < t->ncols; k++) {
            ig_column *c = &t->cols[k];
            free(c->src);
            free(c->name);
            for (int j = 0; j < c->nvals; j++) free(c->vals[j]);
            free(c->vals);
            for (int j = 0; j < c->nexamples; j++) free(c->examples[j]);
            free(c->bad_value);
            ig_stats_free(c->st);
        }
        free(t->cols);
        free(t->path);
        free(t->label);
        free(t->name);
        free(t->src_table);
    }
    free(tables);
}
