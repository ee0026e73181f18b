/*
 * spec.c — the format-independent half of the spec loader (spec.h):
 * reading the file, building the arrays, the checks every spec passes
 * (names, duplicates, types, enums, predicates and actions), lookups and
 * the printed forms the parser prompt uses.
 *
 * Invariant: a ws_spec handed to a caller has passed ws_spec_check — every
 * name is an identifier that is not a reserved word and is unique in its
 * scope, every type is resolved (WT_SHEET indexes a sheet, WT_LIST has a
 * non-list elem), an Enum (or List[Enum]) field has at least one value and
 * no duplicates while no other field has any, `confirm` appears only in
 * task worksheets, and every non-NULL pred_src/act_src has its parsed tree.
 *
 * Rejected: checking inside each format's reader (the CSV and JSON readers
 * would each carry the rules and drift; instead they only build the raw
 * spec and say, through ws_where, where each part came from, so messages
 * keep the reader's coordinates: a spreadsheet cell or a JSON path);
 * resolving types while reading (worksheets may be used as a type before
 * their row); case-insensitive worksheet names (lookups from parser output
 * are exact, so the spec must be too; only the built-in type names fold
 * case, as spreadsheets write "Enum" and "str" alike).
 */
#include "worksheet/spec_int.h"
#include "util/check.h"
#include "util/strdist.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- building ---------------------------------------------------------- */

ws_spec *ws_spec_new_empty(const char *path)
{
    ws_spec *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path ? path : "");
    return s;
}

/* Arrays grow by doubling when their length reaches a power of two (the
 * capacity is never stored: it is the next power of two), so a spec of
 * 100,000 rows loads in linear time. */
#define GROW(arr, n) \
    do { if (((n) & ((n) - 1)) == 0) (arr) = xrealloc((arr), (size_t)((n) ? 2 * (n) : 1) * sizeof *(arr)); } while (0)

int ws_spec_add_sheet(ws_spec *s)
{
    GROW(s->sheets, s->nsheets);
    ws_sheet *w = &s->sheets[s->nsheets];
    memset(w, 0, sizeof *w);
    w->desc = xstrdup("");
    return s->nsheets++;
}

int ws_sheet_add_field(ws_sheet *w)
{
    GROW(w->fields, w->nfields);
    ws_field *f = &w->fields[w->nfields];
    memset(f, 0, sizeof *f);
    f->desc = xstrdup("");
    f->type.sheet = -1;
    return w->nfields++;
}

void ws_field_add_enum(ws_field *f, const char *v)
{
    GROW(f->enums, f->nenums);
    f->enums[f->nenums++] = xstrdup(v);
}

char *ws_trimdup(const char *p, size_t n)
{
    while (n && isspace((unsigned char)*p)) p++, n--;
    while (n && isspace((unsigned char)p[n - 1])) n--;
    return n ? xstrndup(p, n) : NULL;
}

static const struct { const char *name; enum ws_sheet_kind kind; } sheet_kinds[] = {
    {"worksheet", WSK_TASK}, {"task", WSK_TASK}, {"ws", WSK_TASK},
    {"db", WSK_DB}, {"kb", WSK_DB}, {"type", WSK_TYPE},
};

int ws_sheet_kind_parse(const char *text, enum ws_sheet_kind *out)
{
    for (size_t i = 0; i < sizeof sheet_kinds / sizeof *sheet_kinds; i++)
        if (text && !strcasecmp(text, sheet_kinds[i].name)) {
            *out = sheet_kinds[i].kind;
            return 0;
        }
    return -1;
}

const char *ws_did_you_mean(const char *word, const char *const *cands, int n)
{
    char a[64], b[64];
    size_t wl = strlen(word);
    if (wl >= sizeof a) return NULL;
    for (size_t i = 0; i <= wl; i++) a[i] = (char)tolower((unsigned char)word[i]);
    const char *best = NULL;
    int bestd = 3;
    for (int i = 0; i < n; i++) {
        size_t cl = strlen(cands[i]);
        if (cl >= sizeof b) continue;
        for (size_t j = 0; j <= cl; j++) b[j] = (char)tolower((unsigned char)cands[i][j]);
        int d = gn_edit_distance(a, b);
        if (d < bestd && (size_t)d < wl) best = cands[i], bestd = d;
    }
    return best;
}

/* ---- freeing and lookups ----------------------------------------------- */

static void type_release(ws_type *t)
{
    if (t->elem) {
        type_release(t->elem);
        free(t->elem);
        t->elem = NULL;
    }
}

static void field_release(ws_field *f)
{
    free(f->name);
    type_release(&f->type);
    free(f->type_src);
    for (int i = 0; i < f->nenums; i++) free(f->enums[i]);
    free(f->enums);
    free(f->desc);
    free(f->pred_src);
    ws_node_free(f->pred);
    free(f->act_src);
    ws_prog_free(f->actions);
}

void ws_spec_free(ws_spec *s)
{
    if (!s) return;
    for (int i = 0; i < s->nsheets; i++) {
        ws_sheet *w = &s->sheets[i];
        free(w->name);
        free(w->api);
        free(w->pred_src);
        ws_node_free(w->pred);
        free(w->act_src);
        ws_prog_free(w->actions);
        free(w->desc);
        for (int j = 0; j < w->nfields; j++) field_release(&w->fields[j]);
        free(w->fields);
    }
    free(s->sheets);
    free(s->path);
    free(s);
}

int ws_spec_sheet_index(const ws_spec *s, const char *name)
{
    for (int i = 0; s && name && i < s->nsheets; i++)
        if (s->sheets[i].name && !strcmp(s->sheets[i].name, name)) return i;
    return -1;
}

const ws_sheet *ws_spec_sheet(const ws_spec *s, const char *name)
{
    int i = ws_spec_sheet_index(s, name);
    return i < 0 ? NULL : &s->sheets[i];
}

int ws_sheet_field_index(const ws_sheet *w, const char *name)
{
    for (int i = 0; w && name && i < w->nfields; i++)
        if (w->fields[i].name && !strcmp(w->fields[i].name, name)) return i;
    return -1;
}

const ws_field *ws_sheet_field(const ws_sheet *w, const char *name)
{
    int i = ws_sheet_field_index(w, name);
    return i < 0 ? NULL : &w->fields[i];
}

/* ---- types --------------------------------------------------------------- */

/* Canonical spellings first: they are what ws_type_print writes and what
 * "did you mean" suggests. */
static const struct { const char *name; enum ws_type_kind kind; } builtins[] = {
    {"str", WT_STR}, {"int", WT_INT}, {"float", WT_FLOAT}, {"bool", WT_BOOL},
    {"date", WT_DATE}, {"time", WT_TIME}, {"confirm", WT_CONFIRM},
    {"Enum", WT_ENUM}, {"text", WT_TEXT}, {"free_text", WT_TEXT},
};
#define NBUILTINS ((int)(sizeof builtins / sizeof *builtins))

static int builtin_kind(const char *name, enum ws_type_kind *out)
{
    for (int i = 0; i < NBUILTINS; i++)
        if (!strcasecmp(name, builtins[i].name)) {
            *out = builtins[i].kind;
            return 0;
        }
    return -1;
}

static const char *builtin_name(enum ws_type_kind k)
{
    /* TEXT is a str to the parser: free text only matters to the store. */
    if (k == WT_TEXT) return "str";
    for (int i = 0; i < NBUILTINS; i++)
        if (builtins[i].kind == k) return builtins[i].name;
    return "?";
}

static void print_quoted(const char *v, gn_buf *out)
{
    gn_buf_putc(out, '"');
    for (const char *p = v; *p; p++) {
        if (*p == '"' || *p == '\\') gn_buf_putc(out, '\\');
        if (*p == '\n') gn_buf_puts(out, "\\n");
        else gn_buf_putc(out, *p);
    }
    gn_buf_putc(out, '"');
}

void ws_type_print(const ws_spec *s, const ws_field *f, const ws_type *t, gn_buf *out)
{
    switch (t->kind) {
    case WT_LIST:
        gn_buf_puts(out, "List[");
        if (t->elem) ws_type_print(s, f, t->elem, out);
        gn_buf_putc(out, ']');
        break;
    case WT_SHEET:
        gn_buf_puts(out, s && t->sheet >= 0 && t->sheet < s->nsheets ? s->sheets[t->sheet].name : "?");
        break;
    case WT_KB:
        if (s && t->sheet >= 0 && t->sheet < s->nsheets)
            gn_buf_printf(out, "%s.%s", s->sheets[t->sheet].name,
                          s->sheets[t->sheet].fields[t->col].name);
        break;
    case WT_ENUM:
        gn_buf_puts(out, "Enum[");
        for (int i = 0; f && i < f->nenums; i++) {
            if (i) gn_buf_puts(out, ", ");
            print_quoted(f->enums[i], out);
        }
        gn_buf_putc(out, ']');
        break;
    default:
        gn_buf_puts(out, builtin_name(t->kind));
    }
}

/* Descriptions go on one line: a comment or a one-line docstring. */
static void put_oneline(gn_buf *out, const char *s)
{
    for (; *s; s++) gn_buf_putc(out, *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s);
}

void ws_spec_signatures(const ws_spec *s, gn_buf *out)
{
    int first = 1;
    for (int i = 0; i < s->nsheets; i++) {
        const ws_sheet *w = &s->sheets[i];
        if (w->kind == WSK_DB) continue;
        if (!first) gn_buf_putc(out, '\n');
        first = 0;
        gn_buf_printf(out, "class %s:\n", w->name);
        if (w->desc[0]) {
            gn_buf_puts(out, "    \"\"\"");
            put_oneline(out, w->desc);
            gn_buf_puts(out, "\"\"\"\n");
        }
        for (int j = 0; j < w->nfields; j++) {
            const ws_field *f = &w->fields[j];
            if (f->kind != WFK_INPUT) continue;
            gn_buf_printf(out, "    %s: ", f->name);
            ws_type_print(s, f, &f->type, out);
            if (f->desc[0]) {
                gn_buf_puts(out, "  # ");
                put_oneline(out, f->desc);
            }
            gn_buf_putc(out, '\n');
        }
    }
}

/* ---- checks -------------------------------------------------------------- */

static int fail(const ws_where *w, gn_err *e, int si, int fi, enum ws_what what, int item,
                const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int fail(const ws_where *w, gn_err *e, int si, int fi, enum ws_what what, int item,
                const char *fmt, ...)
{
    int line = 0, col = 0;
    gn_buf label;
    gn_buf_init(&label);
    w->fn(w->ud, si, fi, what, item, &line, &col, &label);
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gn_err_setpos(e, GN_EPARSE, w->file, line, col, "%s%s%s", label.data, label.len ? ": " : "", msg);
    gn_buf_release(&label);
    return GN_EPARSE;
}

/* Python's keywords and constants: a name the expression language cannot
 * write as a plain name. */
static const char *const reserved[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
};

static int is_ident(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_') return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

static int check_name(const ws_where *w, gn_err *e, int si, int fi, const char *name)
{
    const char *what = fi < 0 ? "worksheet" : "field";
    if (!name || !*name) return fail(w, e, si, fi, WW_NAME, 0, "%s has no name", what);
    if (!is_ident(name))
        return fail(w, e, si, fi, WW_NAME, 0,
                    "%s name '%s' is not an identifier: use letters, digits and '_', "
                    "not starting with a digit", what, name);
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (!strcmp(name, reserved[i]))
            return fail(w, e, si, fi, WW_NAME, 0, "%s name '%s' is a reserved word", what, name);
    /* Names predicates and actions already give a meaning: a field of
     * that name could never be read (self.result is the API's result). */
    static const struct { const char *name, *meaning; } taken[] = {
        { "self", "the record itself" }, { "result", "a task's API result (self.result)" },
        { "_id", "a knowledge-base row's own id" },
    };
    for (size_t i = 0; fi >= 0 && i < sizeof taken / sizeof *taken; i++)
        if (!strcmp(name, taken[i].name))
            return fail(w, e, si, fi, WW_NAME, 0, "field name '%s' already means %s in predicates "
                        "and actions: rename the field", name, taken[i].meaning);
    return 0;
}

int ws_name_reserved(const char *name, int sheet)
{
    enum ws_type_kind k;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (!strcmp(name, reserved[i])) return 1;
    return sheet && (!builtin_kind(name, &k) || !strcasecmp(name, "list"));
}

static int check_sheet_name(ws_spec *s, const ws_where *w, gn_err *e, int si)
{
    const char *name = s->sheets[si].name;
    int rc = check_name(w, e, si, -1, name);
    if (rc) return rc;
    enum ws_type_kind k;
    if (!builtin_kind(name, &k) || !strcasecmp(name, "list"))
        return fail(w, e, si, -1, WW_NAME, 0,
                    "worksheet name '%s' is a built-in type's name", name);
    for (int i = 0; i < si; i++)
        if (!strcmp(s->sheets[i].name, name))
            return s->sheets[i].line > 0
                ? fail(w, e, si, -1, WW_NAME, 0, "duplicate worksheet '%s' (first at line %d)",
                       name, s->sheets[i].line)
                : fail(w, e, si, -1, WW_NAME, 0, "duplicate worksheet '%s'", name);
    return 0;
}

/* The field of db sheet SI that names its rows: the primary one, else
 * one called name or title, else the first text field; -1 when none. */
static int naming_field(const ws_spec *s, int si)
{
    const ws_sheet *w = &s->sheets[si];
    for (int i = 0; i < w->nfields; i++)
        if (w->fields[i].primary) return i;
    for (int i = 0; i < w->nfields; i++)
        if (!strcasecmp(w->fields[i].name, "name") || !strcasecmp(w->fields[i].name, "title")) return i;
    for (int i = 0; i < w->nfields; i++)
        if (!strcasecmp(w->fields[i].type_src, "str")) return i;
    return -1;
}

/* "restaurants" or "restaurants.name": a row of a db worksheet, named by
 * the given field or the sheet's naming field.  1: not that form (NAME is
 * some other type); 0: *T set; -1: MSG set. */
static int resolve_kb(const ws_spec *s, const char *name, ws_type *t, char *msg, size_t msz)
{
    const char *dot = strchr(name, '.');
    char *sheet = dot ? xstrndup(name, (size_t)(dot - name)) : xstrdup(name);
    int si = ws_spec_sheet_index(s, sheet);
    free(sheet);
    if (si < 0 || s->sheets[si].kind != WSK_DB) {
        if (!dot) return 1;
        snprintf(msg, msz, "unknown type '%s': before the dot, name a db worksheet", name);
        return -1;
    }
    int col = -1;
    const ws_sheet *w = &s->sheets[si];
    for (int i = 0; dot && i < w->nfields; i++)
        if (!strcmp(w->fields[i].name, dot + 1)) col = i;
    if (!dot) col = naming_field(s, si);
    if (col < 0) {
        if (dot) snprintf(msg, msz, "unknown type '%s': db worksheet %s has no field '%s'", name,
                          w->name, dot + 1);
        else snprintf(msg, msz, "type '%s': db worksheet %s has no field that names its rows; "
                      "write %s.FIELD", name, w->name, w->name);
        return -1;
    }
    t->kind = WT_KB;
    t->sheet = si;
    t->col = col;
    return 0;
}

/* Resolve the simple type NAME into *T; on failure write a message. */
static int resolve_simple(const ws_spec *s, const char *name, ws_type *t, char *msg, size_t msz,
                          const char *whole)
{
    t->sheet = -1;
    t->col = -1;
    t->elem = NULL;
    if (!builtin_kind(name, &t->kind)) return 0;
    int kb = whole ? 1 : resolve_kb(s, name, t, msg, msz);
    if (kb <= 0) return kb;
    if ((t->sheet = ws_spec_sheet_index(s, name)) >= 0) {
        t->kind = WT_SHEET;
        return 0;
    }
    const char **cands = xmalloc((size_t)(NBUILTINS + s->nsheets) * sizeof *cands);
    int n = 0;
    for (int i = 0; i < NBUILTINS; i++) cands[n++] = builtins[i].name;
    for (int i = 0; i < s->nsheets; i++) cands[n++] = s->sheets[i].name;
    const char *dym = ws_did_you_mean(name, cands, n);
    char in[160] = "";
    if (whole) snprintf(in, sizeof in, " in '%.120s'", whole);
    if (dym) snprintf(msg, msz, "unknown type '%s'%s (did you mean '%s'?)", name, in, dym);
    else snprintf(msg, msz, "unknown type '%s'%s: expected str, int, float, bool, date, time, "
                  "confirm, Enum, text, List[...], a worksheet's name or a db worksheet's "
                  "(optionally .field)", name, in);
    free(cands);
    return -1;
}

/* Parse SRC (trimmed, as written) into *T; 0, or -1 with MSG set. */
static int parse_type(const ws_spec *s, const char *src, ws_type *t, char *msg, size_t msz)
{
    const char *p = src;
    if (strncasecmp(p, "list", 4)) return resolve_simple(s, src, t, msg, msz, NULL);
    p += 4;
    while (isspace((unsigned char)*p)) p++;
    if (*p != '[') return resolve_simple(s, src, t, msg, msz, NULL);
    size_t n = strlen(src);
    if (src[n - 1] != ']') {
        snprintf(msg, msz, "malformed type '%s': expected List[element type]", src);
        return -1;
    }
    char *inner = ws_trimdup(p + 1, (size_t)(src + n - 1 - (p + 1)));
    int rc = 0;
    ws_type el;
    if (!inner || strchr(inner, '[') || strchr(inner, ']')) {
        snprintf(msg, msz, "malformed type '%s': the element of a List is one type name, "
                 "not a List", src);
        rc = -1;
    } else {
        rc = resolve_simple(s, inner, &el, msg, msz, src);
    }
    free(inner);
    if (rc) return rc;
    t->kind = WT_LIST;
    t->sheet = -1;
    t->elem = xmalloc(sizeof *t->elem);
    *t->elem = el;
    return 0;
}

static const char *sheet_kind_name(enum ws_sheet_kind k)
{
    return k == WSK_DB ? "a db worksheet" : "a type";
}

/* For each of the N names, the index of the first one equal to it when
 * that is an earlier one, else -1: sorted once, so a sheet of 100,000
 * fields is checked in n log n, not n^2.  Caller frees. */
typedef struct { const char *name; int i; } named;

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int *first_same(const char *const *names, int n)
{
    int *first = xmalloc((size_t)(n ? n : 1) * sizeof *first);
    named *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
    for (int i = 0; i < n; i++) {
        v[i] = (named){ names[i] ? names[i] : "", i };
        first[i] = -1;
    }
    qsort(v, (size_t)n, sizeof *v, by_name);
    for (int i = 1; i < n; i++)
        if (!strcmp(v[i].name, v[i - 1].name))
            first[v[i].i] = first[v[i - 1].i] >= 0 ? first[v[i - 1].i] : v[i - 1].i;
    free(v);
    return first;
}

static int check_enums(const ws_where *w, gn_err *e, int si, int fi, const ws_field *f)
{
    const ws_type *t = &f->type;
    int is_enum = t->kind == WT_ENUM || (t->kind == WT_LIST && t->elem->kind == WT_ENUM);
    if (is_enum && f->nenums == 0)
        return fail(w, e, si, fi, WW_TYPE, 0, "enum field '%s' has no values: %s", f->name,
                    w->enum_hint);
    if (!is_enum && f->nenums > 0)
        return fail(w, e, si, fi, WW_ENUM, 0,
                    "field '%s' has type %s, not Enum: it takes no enum values", f->name,
                    f->type_src);
    int *dup = first_same((const char *const *)f->enums, f->nenums), rc = 0;
    for (int i = 0; i < f->nenums && !rc; i++) {
        if (!f->enums[i][0])
            rc = fail(w, e, si, fi, WW_ENUM, i, "empty enum value of field '%s'", f->name);
        else if (dup[i] >= 0)
            rc = fail(w, e, si, fi, WW_ENUM, i, "duplicate enum value '%s' of field '%s'",
                      f->enums[i], f->name);
    }
    free(dup);
    return rc;
}

static int check_type(ws_spec *s, const ws_where *w, gn_err *e, int si, int fi)
{
    ws_sheet *sh = &s->sheets[si];
    ws_field *f = &sh->fields[fi];
    if (!f->type_src || !*f->type_src)
        return fail(w, e, si, fi, WW_TYPE, 0, "field '%s' has no type", f->name);
    char msg[400];
    if (parse_type(s, f->type_src, &f->type, msg, sizeof msg))
        return fail(w, e, si, fi, WW_TYPE, 0, "%s", msg);
    const ws_type *base = f->type.kind == WT_LIST ? f->type.elem : &f->type;
    if (base->kind == WT_CONFIRM && sh->kind != WSK_TASK)
        return fail(w, e, si, fi, WW_TYPE, 0,
                    "type confirm is only for task worksheets, and '%s' is %s", sh->name,
                    sheet_kind_name(sh->kind));
    return check_enums(w, e, si, fi, f);
}

static int parse_code(const ws_where *w, gn_err *e, int si, int fi, const char *src,
                      ws_node **pred, ws_prog **prog)
{
    if (!src) return 0;
    gn_err pe;
    gn_err_clear(&pe);
    int rc = pred ? ws_expr_parse(src, 1, 1, pred, &pe) : ws_prog_parse(src, 1, 1, prog, &pe);
    if (!rc) return 0;
    enum ws_what what = pred ? WW_PRED : WW_ACT;
    if (pred) *pred = NULL;
    else *prog = NULL;
    if (pe.line > 0)
        return fail(w, e, si, fi, what, 0, "%d:%d: %s", pe.line, pe.col, pe.msg);
    return fail(w, e, si, fi, what, 0, "%s", pe.msg);
}

/* Bits of sheet SH's fields that node N names as self.NAME. */
static unsigned long long self_fields(const ws_sheet *sh, const ws_node *n)
{
    if (!n) return 0;
    unsigned long long b = 0;
    if (n->kind == WN_ATTR && n->a && n->a->kind == WN_NAME && !strcmp(n->a->name, "self")) {
        int i = ws_sheet_field_index(sh, n->name);
        if (i >= 0 && i < 64) b |= 1ull << i;
    }
    b |= self_fields(sh, n->a) | self_fields(sh, n->b) | self_fields(sh, n->c);
    for (int i = 0; i < n->nargs; i++) b |= self_fields(sh, n->args[i]);
    return b;
}

/* What field FI's actions read of its own record: every self.NAME they
 * name, less the fields they set (self.title = ...; check(self.title ...)
 * reads its own result, *SETS) and the field itself. */
static unsigned long long field_reads(const ws_sheet *sh, int fi, unsigned long long *sets)
{
    const ws_prog *p = sh->fields[fi].actions;
    unsigned long long rd = 0, set = 0;
    for (int i = 0; p && i < p->n; i++) {
        const ws_stmt *st = &p->stmts[i];
        rd |= self_fields(sh, st->value);
        if (st->kind == WS_ASSIGN && st->target && st->target->kind == WN_ATTR)
            set |= self_fields(sh, st->target);
        else if (st->target)
            rd |= self_fields(sh, st->target);
    }
    if (fi < 64) set &= ~(1ull << fi);
    *sets = set;
    if (fi < 64) set |= 1ull << fi;
    return rd & ~set;
}

static int check_field(ws_spec *s, const ws_where *w, gn_err *e, int si, int fi, int dup)
{
    ws_sheet *sh = &s->sheets[si];
    ws_field *f = &sh->fields[fi];
    int rc = check_name(w, e, si, fi, f->name);
    if (rc) return rc;
    if (dup >= 0)
        return sh->fields[dup].line > 0
            ? fail(w, e, si, fi, WW_NAME, 0, "duplicate field '%s' in worksheet '%s' (first at line %d)",
                   f->name, sh->name, sh->fields[dup].line)
            : fail(w, e, si, fi, WW_NAME, 0, "duplicate field '%s' in worksheet '%s'",
                   f->name, sh->name);
    if ((rc = check_type(s, w, e, si, fi))) return rc;
    if ((rc = parse_code(w, e, si, fi, f->pred_src, &f->pred, NULL))) return rc;
    if ((rc = parse_code(w, e, si, fi, f->act_src, NULL, &f->actions))) return rc;
    f->reads = field_reads(sh, fi, &f->sets);
    /* a field never waits for itself, nor for what its own actions set */
    GN_ASSERT(!(f->reads & f->sets) && (fi >= 64 || !(f->reads >> fi & 1)));
    return 0;
}

/* Does sheet SI reach sheet TARGET through input fields of a worksheet
 * type that the agent asks for (not lists, which may stay empty; not Don't
 * Ask fields, which only a user's statement fills)?  SEEN marks the sheets walked;
 * *FI gets the field of SI that starts the path. */
static int reaches(const ws_spec *s, int si, int target, char *seen, int *fi)
{
    const ws_sheet *sh = &s->sheets[si];
    for (int i = 0; i < sh->nfields; i++) {
        const ws_field *f = &sh->fields[i];
        if (f->kind != WFK_INPUT || f->type.kind != WT_SHEET || f->dont_ask) continue;
        int to = f->type.sheet, dummy;
        if (to == target || (!seen[to] && (seen[to] = 1) && reaches(s, to, target, seen, &dummy))) {
            *fi = i;
            return 1;
        }
    }
    return 0;
}

/* A worksheet that holds itself, directly or through others: every record
 * would need another inside it, and the agent would ask without end. */
static int check_cycles(const ws_spec *s, const ws_where *w, gn_err *e)
{
    char *seen = xcalloc((size_t)s->nsheets + 1, 1);
    int rc = 0;
    for (int si = 0; si < s->nsheets && !rc; si++) {
        int fi = -1;
        memset(seen, 0, (size_t)s->nsheets);
        if (reaches(s, si, si, seen, &fi))
            rc = fail(w, e, si, fi, WW_TYPE, 0, "worksheet %s holds itself through field %s: each "
                      "record would need another inside it (make the field a List, Don't Ask, "
                      "or of another worksheet)", s->sheets[si].name, s->sheets[si].fields[fi].name);
    }
    free(seen);
    return rc;
}

int ws_spec_check(ws_spec *s, const ws_where *w, gn_err *e)
{
    for (int si = 0; si < s->nsheets; si++) {
        ws_sheet *sh = &s->sheets[si];
        int rc = check_sheet_name(s, w, e, si);
        if (!rc) rc = parse_code(w, e, si, -1, sh->pred_src, &sh->pred, NULL);
        if (!rc) rc = parse_code(w, e, si, -1, sh->act_src, NULL, &sh->actions);
        const char **names = xmalloc((size_t)(sh->nfields ? sh->nfields : 1) * sizeof *names);
        for (int fi = 0; fi < sh->nfields; fi++) names[fi] = sh->fields[fi].name;
        int *dup = first_same(names, sh->nfields);
        free(names);
        for (int fi = 0; !rc && fi < sh->nfields; fi++) rc = check_field(s, w, e, si, fi, dup[fi]);
        free(dup);
        if (rc) return rc;
    }
    return check_cycles(s, w, e);
}

/* ---- loading a file -------------------------------------------------------- */

int ws_spec_load(const char *path, ws_spec **out, gn_err *e)
{
    *out = NULL;
    char *text;
    size_t len;
    int rc = gn_read_file(path, WS_SPEC_MAX_FILE, &text, &len, e);
    if (rc) return rc;
    size_t pl = strlen(path);
    if (pl >= 5 && !strcasecmp(path + pl - 5, ".json")) {
        if (memchr(text, 0, len))
            rc = gn_err_setpos(e, GN_EPARSE, path, 0, 0, "contains a NUL byte");
        else
            rc = ws_spec_parse_json(path, text, out, e);
    } else {
        rc = ws_spec_parse_csv(path, text, len, out, e);
    }
    free(text);
    return rc;
}
