/*
 * spec_csv.c — a worksheet spec from the spreadsheet layout, as CSV
 * (spec.h).  libcsv splits the records; this file maps the header's
 * columns, turns each record into a worksheet, a field or an enum value,
 * and hands the result to ws_spec_check with a ws_where that names cells.
 *
 * What: the text is fed to libcsv one physical line at a time, so the line
 * where each record starts is known even when a quoted cell spans lines
 * (a record starts on the first line with content after the previous
 * record ended: libcsv ends a record only at a line terminator and skips
 * blank lines).  The first non-empty record is the header; its cells name
 * the columns (case, spaces, '_', '-' and apostrophes ignored; a leading
 * "Field" dropped), so columns may come in any order and unknown ones
 * (notes, the reference's Field Validation) are ignored.
 *
 * Invariant: every error names the file, the record's first line and the
 * 1-based CSV column of the offending cell (0 when about the whole row).
 * Cells are trimmed; an empty cell is NULL.  A row is empty — and skipped —
 * when every known column is empty or a false boolean (spreadsheets export
 * unticked checkbox columns as FALSE on every row).
 *
 * Rejected: strict libcsv mode (a hand-written cell such as
 * x == "a" without surrounding quotes is an error there; relaxed mode takes
 * it literally, which is what the author meant) — but an unterminated
 * quote at the end is still an error (CSV_STRICT_FINI, strict for the
 * final check only), since it silently swallows the rest of the file; ignoring fields before any worksheet or
 * code in the wrong column (the reference drops them; here a spec that
 * loads is one that does what it says); fixed column positions (exports
 * from other tools reorder and rename columns).
 */
#include "worksheet/spec_int.h"
#include "util/strdist.h"
#include "util/xmem.h"

#include <csv.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum col {
    C_FORM_PRED, C_FORM_NAME, C_PRED, C_KIND, C_TYPE, C_NAME, C_ENUM, C_DESC,
    C_DONT_ASK, C_REQUIRED, C_CONFIRM, C_ACTIONS, C_FORM_ACTIONS, NCOLS
};

static const char *const col_names[NCOLS] = {
    "Form Predicate", "Form Name", "Predicate", "Kind", "Type", "Name", "Enum Values",
    "Description", "Don't Ask", "Required", "Confirm", "Actions", "Form Actions",
};

/* Header spellings after normalize(). */
static const struct { const char *norm; enum col col; } header_names[] = {
    {"formpredicate", C_FORM_PRED}, {"wspredicate", C_FORM_PRED},
    {"formname", C_FORM_NAME}, {"wsname", C_FORM_NAME},
    {"predicate", C_PRED}, {"kind", C_KIND}, {"type", C_TYPE}, {"name", C_NAME},
    {"enumvalues", C_ENUM}, {"description", C_DESC},
    {"dontask", C_DONT_ASK}, {"required", C_REQUIRED},
    {"confirm", C_CONFIRM}, {"confirmation", C_CONFIRM},
    {"actions", C_ACTIONS}, {"formactions", C_FORM_ACTIONS}, {"wsactions", C_FORM_ACTIONS},
};

static const enum col required_cols[] = {C_FORM_NAME, C_KIND, C_TYPE, C_NAME};
static const enum col bool_cols[] = {C_DONT_ASK, C_REQUIRED, C_CONFIRM};

typedef struct enum_line { int sheet, field, line; } enum_line;

typedef struct csv_ctx {
    const char *file;
    ws_spec *s;
    gn_err *e;
    int rc;
    char **cells;                /* the current record, trimmed, NULL when empty */
    int ncells, cap;
    int rec_line;                /* where the current record starts */
    int between;                 /* no record under way */
    int have_header;
    int colidx[NCOLS];           /* record index of each column, or -1 */
    char *hdr[NCOLS];            /* the header cell as written */
    int cur_sheet;               /* fields go here; -1 before any worksheet */
    enum_line *enums;            /* the row of each enum value, in order */
    int nenums;
} csv_ctx;

/* ---- helpers --------------------------------------------------------------- */

static const char *cell(const csv_ctx *c, enum col k)
{
    int i = c->colidx[k];
    return i >= 0 && i < c->ncells ? c->cells[i] : NULL;
}

static int colno(const csv_ctx *c, enum col k)
{
    return c->colidx[k] + 1;
}

static const char *colname(const csv_ctx *c, enum col k)
{
    return c->hdr[k] ? c->hdr[k] : col_names[k];
}

static int fail(csv_ctx *c, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(csv_ctx *c, int col, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return c->rc = gn_err_setpos(c->e, GN_EPARSE, c->file, c->rec_line, col, "%s", msg);
}

/* Lower case without spaces, '_', '-', '.', apostrophes (also U+2019, as
 * spreadsheets autocorrect "Don't"), and without a leading "field". */
static void normalize(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < size; p++) {
        if (p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x99) {
            p += 2;
            continue;
        }
        if (isspace(*p) || strchr("_-.'", *p)) continue;
        out[n++] = (char)tolower(*p);
    }
    out[n] = 0;
    if (!strncmp(out, "field", 5) && out[5]) memmove(out, out + 5, n - 4);
}

/* true/yes/1 and false/no/0 in any case; empty is false.  0 or -1. */
static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"true", "yes", "1"}, *const no[] = {"false", "no", "0"};
    *out = 0;
    if (!v) return 0;
    for (int i = 0; i < 3; i++) {
        if (!strcasecmp(v, yes[i])) return *out = 1, 0;
        if (!strcasecmp(v, no[i])) return 0;
    }
    return -1;
}

/* A known column holds something (a false boolean is nothing). */
static int known_set(const csv_ctx *c, enum col k)
{
    int b;
    const char *v = cell(c, k);
    if (!v) return 0;
    if (k == C_DONT_ASK || k == C_REQUIRED || k == C_CONFIRM) return parse_bool(v, &b) || b;
    return 1;
}

/* ---- rows -------------------------------------------------------------------- */

/* Record index I is one of the known columns. */
static int known_index(const csv_ctx *c, int i)
{
    for (int k = 0; k < NCOLS; k++)
        if (c->colidx[k] == i) return 1;
    return 0;
}

static int read_header(csv_ctx *c)
{
    char norm[128];
    for (int i = 0; i < c->ncells; i++) {
        if (!c->cells[i]) continue;
        normalize(c->cells[i], norm, sizeof norm);
        for (size_t h = 0; h < sizeof header_names / sizeof *header_names; h++) {
            if (strcmp(norm, header_names[h].norm)) continue;
            enum col k = header_names[h].col;
            if (c->colidx[k] >= 0)
                return fail(c, i + 1, "column '%s' appears twice (columns %d and %d)",
                            col_names[k], c->colidx[k] + 1, i + 1);
            c->colidx[k] = i;
            c->hdr[k] = xstrdup(c->cells[i]);
        }
    }
    /* A misspelt optional column would silently drop its flags: a column
     * genie does not read that is close to an optional one it reads is an
     * error (misspelt required columns get the hint below). */
    for (int i = 0; i < c->ncells; i++) {
        if (!c->cells[i] || known_index(c, i)) continue;
        normalize(c->cells[i], norm, sizeof norm);
        for (int k = 0; k < NCOLS; k++) {
            char want[64];
            normalize(col_names[k], want, sizeof want);
            int required = 0;
            for (size_t r = 0; r < sizeof required_cols / sizeof *required_cols; r++)
                required |= required_cols[r] == (enum col)k;
            if (!required && c->colidx[k] < 0 && gn_edit_distance(norm, want) <= 2)
                return fail(c, i + 1, "column '%s' is not one genie reads (did you mean '%s'?)",
                            c->cells[i], col_names[k]);
        }
    }
    gn_buf miss;
    gn_buf_init(&miss);
    int hint = -1;
    enum col hint_for = C_FORM_NAME;
    for (size_t r = 0; r < sizeof required_cols / sizeof *required_cols; r++) {
        enum col k = required_cols[r];
        if (c->colidx[k] >= 0) continue;
        gn_buf_printf(&miss, "%s%s", miss.len ? ", " : "", col_names[k]);
        char want[64];
        normalize(col_names[k], want, sizeof want);
        for (int i = 0; hint < 0 && i < c->ncells; i++) {
            if (!c->cells[i] || known_index(c, i)) continue;
            normalize(c->cells[i], norm, sizeof norm);
            if (gn_edit_distance(norm, want) <= 2) hint = i, hint_for = k;
        }
    }
    c->have_header = 1;
    if (!miss.len) {
        gn_buf_release(&miss);
        return 0;
    }
    if (hint >= 0)
        fail(c, hint + 1, "the header row lacks the column%s %s (is '%s' meant to be '%s'?)",
             strchr(miss.data, ',') ? "s" : "", miss.data, c->cells[hint], col_names[hint_for]);
    else
        fail(c, 0, "the header row lacks the column%s %s", strchr(miss.data, ',') ? "s" : "",
             miss.data);
    gn_buf_release(&miss);
    return c->rc;
}

static const char *const sheet_kind_words[] = {"worksheet", "db", "type", "task", "kb"};

static int bad_sheet_kind(csv_ctx *c, enum col k, const char *v)
{
    const char *dym = ws_did_you_mean(v, sheet_kind_words, 5);
    char hint[96] = "";
    if (dym) snprintf(hint, sizeof hint, " (did you mean '%s'?)", dym);
    return fail(c, colno(c, k), "unknown worksheet type '%s'%s: a worksheet's row has worksheet, "
                "db or type in the %s column", v, hint, colname(c, C_TYPE));
}

/* Code or values in a column that does not belong to this kind of row. */
static int misplaced(csv_ctx *c, const enum col *cols, int n, const char *why)
{
    for (int i = 0; i < n; i++)
        if (cell(c, cols[i]))
            return fail(c, colno(c, cols[i]), "%s is set on %s", colname(c, cols[i]), why);
    return 0;
}

static int sheet_row(csv_ctx *c)
{
    const char *name = cell(c, C_FORM_NAME), *type = cell(c, C_TYPE), *kind = cell(c, C_KIND);
    enum ws_sheet_kind k, k2;
    if (type) {
        if (ws_sheet_kind_parse(type, &k)) return bad_sheet_kind(c, C_TYPE, type);
        if (kind && (ws_sheet_kind_parse(kind, &k2) || k2 != k))
            return fail(c, colno(c, C_KIND), "%s '%s' on the row of worksheet '%s' does not "
                        "match its %s '%s'", colname(c, C_KIND), kind, name, colname(c, C_TYPE), type);
    } else if (kind) {
        if (ws_sheet_kind_parse(kind, &k)) return bad_sheet_kind(c, C_KIND, kind);
    } else {
        return fail(c, c->colidx[C_TYPE] + 1, "worksheet '%s' has no type: write worksheet, db "
                    "or type in its %s column", name, colname(c, C_TYPE));
    }
    static const enum col field_cols[] = {C_PRED, C_ACTIONS, C_ENUM};
    char why[200];
    snprintf(why, sizeof why, "the row of worksheet '%.80s': a worksheet's code goes in %s and "
             "%s, enum values below an Enum field", name, colname(c, C_FORM_PRED),
             colname(c, C_FORM_ACTIONS));
    if (misplaced(c, field_cols, 3, why)) return c->rc;
    int si = ws_spec_add_sheet(c->s);
    ws_sheet *w = &c->s->sheets[si];
    w->name = xstrdup(name);
    w->kind = k;
    w->api = xstrdup(cell(c, C_NAME));
    w->pred_src = xstrdup(cell(c, C_FORM_PRED));
    w->act_src = xstrdup(cell(c, C_FORM_ACTIONS));
    if (cell(c, C_DESC)) {
        free(w->desc);
        w->desc = xstrdup(cell(c, C_DESC));
    }
    w->line = c->rec_line;
    c->cur_sheet = si;
    return 0;
}

static void add_enum(csv_ctx *c, const char *v)
{
    ws_sheet *w = &c->s->sheets[c->cur_sheet];
    ws_field_add_enum(&w->fields[w->nfields - 1], v);
    if ((c->nenums & (c->nenums - 1)) == 0)        /* doubling at powers of two */
        c->enums = xrealloc(c->enums, (size_t)(c->nenums ? 2 * c->nenums : 1) * sizeof *c->enums);
    c->enums[c->nenums++] = (enum_line){c->cur_sheet, w->nfields - 1, c->rec_line};
}

/* "input", "internal" or "output", optionally "; primary". */
static int parse_field_kind(csv_ctx *c, const char *v, enum ws_field_kind *kind, int *primary)
{
    static const char *const kinds[] = {"input", "internal", "output"};
    const char *semi = strchr(v, ';');
    char *base = ws_trimdup(v, semi ? (size_t)(semi - v) : strlen(v));
    char *rest = semi ? ws_trimdup(semi + 1, strlen(semi + 1)) : NULL;
    int found = 0;
    for (int i = 0; base && i < 3; i++)
        if (!strcasecmp(base, kinds[i])) *kind = (enum ws_field_kind)i, found = 1;
    enum ws_sheet_kind sk;
    const char *dym = base ? ws_did_you_mean(base, kinds, 3) : NULL;
    if (!found && base && !ws_sheet_kind_parse(base, &sk))
        fail(c, colno(c, C_KIND), "%s '%s' belongs on a worksheet's row, which needs a %s",
             colname(c, C_KIND), v, colname(c, C_FORM_NAME));
    else if (!found)
        fail(c, colno(c, C_KIND), "unknown field kind '%s'%s%s%s: expected input, internal or "
             "output, optionally followed by '; primary'", v, dym ? " (did you mean '" : "",
             dym ? dym : "", dym ? "'?)" : "");
    else if (semi && (!rest || strcasecmp(rest, "primary")))
        fail(c, colno(c, C_KIND), "unknown field kind '%s': only 'primary' may follow the ';'", v);
    *primary = semi != NULL;
    free(base);
    free(rest);
    return c->rc;
}

static int field_row(csv_ctx *c)
{
    if (c->cur_sheet < 0)
        return fail(c, colno(c, C_KIND), "field row before any worksheet: a worksheet's row "
                    "(with %s) comes first", colname(c, C_FORM_NAME));
    static const enum col sheet_cols[] = {C_FORM_PRED, C_FORM_ACTIONS};
    if (misplaced(c, sheet_cols, 2, "a field's row: it belongs on the worksheet's row"))
        return c->rc;
    enum ws_field_kind kind = WFK_INPUT;
    int primary = 0, flags[3];
    if (parse_field_kind(c, cell(c, C_KIND), &kind, &primary)) return c->rc;
    for (int i = 0; i < 3; i++)
        if (parse_bool(cell(c, bool_cols[i]), &flags[i]))
            return fail(c, colno(c, bool_cols[i]), "%s: expected TRUE or FALSE, got '%s'",
                        colname(c, bool_cols[i]), cell(c, bool_cols[i]));
    ws_sheet *w = &c->s->sheets[c->cur_sheet];
    int fi = ws_sheet_add_field(w);
    ws_field *f = &w->fields[fi];
    f->name = xstrdup(cell(c, C_NAME));
    f->kind = kind;
    f->primary = primary;
    f->type_src = xstrdup(cell(c, C_TYPE));
    if (cell(c, C_DESC)) {
        free(f->desc);
        f->desc = xstrdup(cell(c, C_DESC));
    }
    f->dont_ask = flags[0];
    f->required = flags[1];
    f->confirm = flags[2];
    f->pred_src = xstrdup(cell(c, C_PRED));
    f->act_src = xstrdup(cell(c, C_ACTIONS));
    f->line = c->rec_line;
    if (cell(c, C_ENUM)) add_enum(c, cell(c, C_ENUM));
    return 0;
}

static int enum_row(csv_ctx *c)
{
    const char *v = cell(c, C_ENUM);
    if (c->cur_sheet < 0 || c->s->sheets[c->cur_sheet].nfields == 0)
        return fail(c, colno(c, C_ENUM), "enum value '%s' has no field above it: %s go on the "
                    "rows right below an Enum field", v, colname(c, C_ENUM));
    for (int k = 0; k < NCOLS; k++)
        if (k != C_ENUM && known_set(c, (enum col)k))
            return fail(c, colno(c, (enum col)k), "a row with %s holds only the value, but %s "
                        "is set too", colname(c, C_ENUM), colname(c, (enum col)k));
    add_enum(c, v);
    return 0;
}

static int on_record(csv_ctx *c)
{
    int any = 0;
    for (int i = 0; i < c->ncells && !any; i++) any = c->cells[i] != NULL;
    if (!any) return 0;
    if (!c->have_header) return read_header(c);
    any = 0;
    for (int k = 0; k < NCOLS && !any; k++) any = known_set(c, (enum col)k);
    if (!any) return 0;
    if (cell(c, C_FORM_NAME)) return sheet_row(c);
    if (cell(c, C_KIND)) return field_row(c);
    if (cell(c, C_ENUM)) return enum_row(c);
    return fail(c, 0, "row is neither a worksheet (%s set), a field (%s set) nor an enum value "
                "(%s alone)", colname(c, C_FORM_NAME), colname(c, C_KIND), colname(c, C_ENUM));
}

/* ---- libcsv callbacks --------------------------------------------------------- */

static void clear_record(csv_ctx *c)
{
    for (int i = 0; i < c->ncells; i++) free(c->cells[i]);
    c->ncells = 0;
}

static void on_field(void *field, size_t len, void *ud)
{
    csv_ctx *c = ud;
    if (c->rc) return;
    if (c->ncells == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->cells = xrealloc(c->cells, (size_t)c->cap * sizeof *c->cells);
    }
    char *v = field ? ws_trimdup(field, len) : NULL;
    /* A line break inside a cell is "\n" whatever the file's line ends. */
    if (v) {
        char *w = v;
        for (const char *r = v; *r; r++)
            if (*r != '\r') *w++ = *r;
            else if (r[1] != '\n') *w++ = '\n';
        *w = 0;
    }
    c->cells[c->ncells++] = v;
}

static void on_row(int term, void *ud)
{
    csv_ctx *c = ud;
    (void)term;
    if (!c->rc) on_record(c);
    clear_record(c);
    c->between = 1;
}

/* ---- where errors found later point ------------------------------------------ */

static void csv_where(void *ud, int sheet, int field, enum ws_what what, int item,
                      int *line, int *col, gn_buf *label)
{
    const csv_ctx *c = ud;
    const ws_sheet *w = &c->s->sheets[sheet];
    *line = field >= 0 ? w->fields[field].line : w->line;
    enum col k = NCOLS;
    switch (what) {
    case WW_ROW: break;
    case WW_NAME: k = field >= 0 ? C_NAME : C_FORM_NAME; break;
    case WW_TYPE: k = C_TYPE; break;
    case WW_ENUM:
        k = C_ENUM;
        for (int i = 0, n = 0; i < c->nenums; i++)
            if (c->enums[i].sheet == sheet && c->enums[i].field == field && n++ == item)
                *line = c->enums[i].line;
        break;
    case WW_PRED: k = field >= 0 ? C_PRED : C_FORM_PRED; break;
    case WW_ACT: k = field >= 0 ? C_ACTIONS : C_FORM_ACTIONS; break;
    }
    *col = k == NCOLS ? 0 : colno(c, k);
    if (what == WW_PRED || what == WW_ACT) gn_buf_puts(label, colname(c, k));
}

/* ---- driver --------------------------------------------------------------------- */

static int has_content(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)p[i])) return 1;
    return 0;
}

/* Feed TEXT to P a physical line at a time ("\n", "\r\n" or "\r"). */
static void feed(csv_ctx *c, struct csv_parser *p, const char *text, size_t len)
{
    size_t pos = 0;
    for (int line = 1; pos < len && !c->rc; line++) {
        size_t end = pos;
        while (end < len && text[end] != '\n' && text[end] != '\r') end++;
        if (end < len) end += text[end] == '\r' && end + 1 < len && text[end + 1] == '\n' ? 2 : 1;
        if (c->between && has_content(text + pos, end - pos)) {
            c->between = 0;
            c->rec_line = line;
        }
        if (csv_parse(p, text + pos, end - pos, on_field, on_row, c) != end - pos && !c->rc)
            fail(c, 0, "%s", csv_strerror(csv_error(p)));
        pos = end;
    }
    /* CSV_STRICT_FINI only acts in strict mode, which would also refuse
     * quotes inside unquoted cells: turn it on for the end alone. */
    csv_set_opts(p, (unsigned char)(csv_get_opts(p) | CSV_STRICT));
    if (!c->rc && csv_fini(p, on_field, on_row, c) != 0 && !c->rc)
        fail(c, 0, "unterminated quoted cell: a '\"' opened in the record starting here is "
             "never closed");
}

static void ctx_release(csv_ctx *c)
{
    clear_record(c);
    free(c->cells);
    for (int k = 0; k < NCOLS; k++) free(c->hdr[k]);
    free(c->enums);
}

int ws_spec_parse_csv(const char *name, const char *text, size_t len, ws_spec **out, gn_err *e)
{
    *out = NULL;
    csv_ctx c = {.file = name, .e = e, .between = 1, .cur_sheet = -1};
    for (int k = 0; k < NCOLS; k++) c.colidx[k] = -1;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++) line += *p == '\n';
        return gn_err_setpos(e, GN_EPARSE, name, line, 0, "contains a NUL byte");
    }
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) text += 3, len -= 3;
    c.s = ws_spec_new_empty(name);
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL | CSV_STRICT_FINI) != 0) {
        ws_spec_free(c.s);
        return gn_err_setpos(e, GN_EIO, name, 0, 0, "cannot initialize the CSV reader");
    }
    feed(&c, &p, text, len);
    csv_free(&p);
    if (!c.rc && !c.have_header)
        c.rc = gn_err_setpos(e, GN_EPARSE, name, 0, 0, "no header row: the first row names "
                             "the columns (Form Name, Kind, Type, Name, ...)");
    else if (!c.rc && c.s->nsheets == 0)
        c.rc = gn_err_setpos(e, GN_EPARSE, name, 0, 0, "no worksheets: no row has %s set",
                             colname(&c, C_FORM_NAME));
    if (!c.rc) {
        ws_where w = {name, "list them in the Enum Values column of the rows below it",
                      csv_where, &c};
        c.rc = ws_spec_check(c.s, &w, e);
    }
    ctx_release(&c);
    if (c.rc) ws_spec_free(c.s);
    else *out = c.s;
    return c.rc;
}
