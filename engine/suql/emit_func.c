/*
 * emit_func.c — the functions a SUQL query may call, and how each is
 * spelled in SQLite (emit.h: suql_func_check, suql_em_func), plus the SQL
 * function suql_like that the emitted SQL may need.
 *
 * One table: PostgreSQL's name, arity, aggregate or not, result type, and
 * either SQLite's name (same arguments) or a function writing a special
 * form (array_length -> nullif(json_array_length(a), 0), greatest ->
 * max over coalesces so NULLs are ignored as in PostgreSQL, ...).  The
 * analyzer refuses any other name with its position, so the emitter can
 * only ever print a name from this table: a query cannot call
 * load_extension(), readfile() or anything SQLite or an extension might
 * add.  answer() and summary() are not here: they are their own node kinds.
 *
 * The math functions (ceil, floor, ln, exp, pow, sqrt, trunc, pi) need
 * SQLite built with SQLITE_ENABLE_MATH_FUNCTIONS, as Debian's is; a build
 * without them fails at prepare with "no such function".
 *
 * Rejected: passing unknown names through to SQLite (a query could call
 * any function the connection has, including ours meant for the
 * executor); emulating every PostgreSQL function (the table grows when a
 * real query needs one).
 */
#include "suql/emit_int.h"
#include "suql/parse.h"
#include "util/strdist.h"

#include <string.h>

enum { T_ARG = 100, T_JSON = 101 };   /* result: the first argument's type; an array */

typedef int (*special_fn)(suql_emitter *m, const suql_expr *x);

typedef struct fn_def {
    const char *name;
    int min, max;                /* max -1: any number */
    int agg;
    int type;                    /* suql_vtype, T_ARG or T_JSON */
    const char *sql;             /* SQLite's name, same arguments */
    special_fn special;          /* or a special form */
} fn_def;

static int array_agg(suql_emitter *m, const suql_expr *x);
static int array_length(suql_emitter *m, const suql_expr *x);
static int array_to_string(suql_emitter *m, const suql_expr *x);
static int concat(suql_emitter *m, const suql_expr *x);
static int date_part(suql_emitter *m, const suql_expr *x);
static int greatest(suql_emitter *m, const suql_expr *x);
static int left(suql_emitter *m, const suql_expr *x);
static int right(suql_emitter *m, const suql_expr *x);
static int mod(suql_emitter *m, const suql_expr *x);
static int now(suql_emitter *m, const suql_expr *x);
static int random_(suql_emitter *m, const suql_expr *x);
static int starts_with(suql_emitter *m, const suql_expr *x);

static const fn_def fns[] = {
    { "abs", 1, 1, 0, T_ARG, "abs", NULL },
    { "array_agg", 1, 1, 1, T_JSON, NULL, array_agg },
    { "array_length", 2, 2, 0, SUQL_VT_INT, NULL, array_length },
    { "array_to_string", 2, 2, 0, SUQL_VT_TEXT, NULL, array_to_string },
    { "avg", 1, 1, 1, SUQL_VT_REAL, "avg", NULL },
    { "bool_and", 1, 1, 1, SUQL_VT_BOOL, "min", NULL },
    { "bool_or", 1, 1, 1, SUQL_VT_BOOL, "max", NULL },
    { "btrim", 1, 2, 0, SUQL_VT_TEXT, "trim", NULL },
    { "cardinality", 1, 1, 0, SUQL_VT_INT, "json_array_length", NULL },
    { "ceil", 1, 1, 0, SUQL_VT_REAL, "ceil", NULL },
    { "ceiling", 1, 1, 0, SUQL_VT_REAL, "ceil", NULL },
    { "char_length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "character_length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "concat", 1, -1, 0, SUQL_VT_TEXT, NULL, concat },
    { "count", 0, 1, 1, SUQL_VT_INT, "count", NULL },
    { "date", 1, 1, 0, SUQL_VT_DATE, "date", NULL },
    { "date_part", 2, 2, 0, SUQL_VT_INT, NULL, date_part },
    { "every", 1, 1, 1, SUQL_VT_BOOL, "min", NULL },
    { "exp", 1, 1, 0, SUQL_VT_REAL, "exp", NULL },
    { "floor", 1, 1, 0, SUQL_VT_REAL, "floor", NULL },
    { "greatest", 1, -1, 0, T_ARG, NULL, greatest },
    { "least", 1, -1, 0, T_ARG, NULL, greatest },
    { "left", 2, 2, 0, SUQL_VT_TEXT, NULL, left },
    { "length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "ln", 1, 1, 0, SUQL_VT_REAL, "ln", NULL },
    { "log", 1, 2, 0, SUQL_VT_REAL, "log", NULL },
    { "lower", 1, 1, 0, SUQL_VT_TEXT, "lower", NULL },
    { "ltrim", 1, 2, 0, SUQL_VT_TEXT, "ltrim", NULL },
    { "max", 1, 1, 1, T_ARG, "max", NULL },
    { "min", 1, 1, 1, T_ARG, "min", NULL },
    { "mod", 2, 2, 0, T_ARG, NULL, mod },
    { "now", 0, 0, 0, SUQL_VT_TIMESTAMP, NULL, now },
    { "nullif", 2, 2, 0, T_ARG, "nullif", NULL },
    { "pi", 0, 0, 0, SUQL_VT_REAL, "pi", NULL },
    { "pow", 2, 2, 0, SUQL_VT_REAL, "pow", NULL },
    { "power", 2, 2, 0, SUQL_VT_REAL, "pow", NULL },
    { "random", 0, 0, 0, SUQL_VT_REAL, NULL, random_ },
    { "replace", 3, 3, 0, SUQL_VT_TEXT, "replace", NULL },
    { "right", 2, 2, 0, SUQL_VT_TEXT, NULL, right },
    { "round", 1, 2, 0, SUQL_VT_REAL, "round", NULL },
    { "rtrim", 1, 2, 0, SUQL_VT_TEXT, "rtrim", NULL },
    { "sign", 1, 1, 0, T_ARG, "sign", NULL },
    { "sqrt", 1, 1, 0, SUQL_VT_REAL, "sqrt", NULL },
    { "starts_with", 2, 2, 0, SUQL_VT_BOOL, NULL, starts_with },
    { "string_agg", 2, 2, 1, SUQL_VT_TEXT, "group_concat", NULL },
    { "strpos", 2, 2, 0, SUQL_VT_INT, "instr", NULL },
    { "substr", 2, 3, 0, SUQL_VT_TEXT, "substr", NULL },
    { "substring", 2, 3, 0, SUQL_VT_TEXT, "substr", NULL },
    { "sum", 1, 1, 1, T_ARG, "sum", NULL },
    { "trunc", 1, 1, 0, SUQL_VT_REAL, "trunc", NULL },
    { "upper", 1, 1, 0, SUQL_VT_TEXT, "upper", NULL },
};

#define NFNS ((int)(sizeof fns / sizeof *fns))

static const fn_def *lookup(const char *name)
{
    for (int i = 0; name && i < NFNS; i++)
        if (!strcmp(fns[i].name, name)) return &fns[i];
    return NULL;
}

/* date_part fields and their strftime formats. */
static const struct { const char *field, *fmt; } date_fields[] = {
    { "year", "%Y" }, { "month", "%m" }, { "day", "%d" }, { "hour", "%H" },
    { "minute", "%M" }, { "second", "%S" }, { "dow", "%w" }, { "doy", "%j" },
    { "epoch", "%s" },
};

static const char *date_format(const suql_expr *field)
{
    if (!field || field->kind != SUQL_E_STRING) return NULL;
    for (size_t i = 0; i < sizeof date_fields / sizeof *date_fields; i++)
        if (!strcmp(field->text, date_fields[i].field)) return date_fields[i].fmt;
    return NULL;
}

static int unknown(const suql_query *q, const suql_expr *x, gn_err *e)
{
    const char *best = NULL;
    int bestd = 99;
    for (int i = 0; i < NFNS; i++) {
        int d = gn_edit_distance(x->name, fns[i].name);
        if (d < bestd) bestd = d, best = fns[i].name;
    }
    if (best && bestd <= ((int)strlen(x->name) <= 4 ? 1 : 2))
        return suql_error_at(e, GN_EPARSE, q, x->pos, "unknown function '%s' (did you mean '%s'?)",
                             x->name, best);
    return suql_error_at(e, GN_EPARSE, q, x->pos, "unknown function '%s'", x->name);
}

int suql_func_check(const suql_query *q, const suql_expr *x, gn_err *e)
{
    const fn_def *f = lookup(x->name);
    if (!f) return unknown(q, x, e);
    if (x->star && strcmp(f->name, "count"))
        return suql_error_at(e, GN_EPARSE, q, x->pos, "%s(*) is not a function call: only count(*) is",
                             f->name);
    if (x->distinct && (!f->agg || x->nargs != 1))
        return suql_error_at(e, GN_EPARSE, q, x->pos, "%s(DISTINCT ...) is not supported%s", f->name,
                             f->agg ? " with more than one argument" : ": not an aggregate");
    int n = x->nargs, min = f->min, max = f->max;
    if (!strcmp(f->name, "count")) min = max = x->star ? 0 : 1;
    if (n < min || (max >= 0 && n > max)) {
        if (max < 0)
            return suql_error_at(e, GN_EPARSE, q, x->pos, "%s() takes at least %d argument%s (got %d)",
                                 f->name, min, min == 1 ? "" : "s", n);
        if (min == max)
            return suql_error_at(e, GN_EPARSE, q, x->pos, "%s%s takes %d argument%s (got %d)", f->name,
                                 x->star ? "(*)" : "()", min, min == 1 ? "" : "s", n);
        return suql_error_at(e, GN_EPARSE, q, x->pos, "%s() takes %d or %d arguments (got %d)",
                             f->name, min, max, n);
    }
    if (f->special == date_part && !date_format(x->args[0]))
        return suql_error_at(e, GN_EPARSE, q, x->args[0]->pos,
                             "date_part() takes a field name literal: 'year', 'month', 'day', "
                             "'hour', 'minute', 'second', 'dow', 'doy' or 'epoch'");
    return 0;
}

int suql_func_is_aggregate(const char *name)
{
    const fn_def *f = lookup(name);
    return f && f->agg;
}

suql_vtype suql_func_type(const suql_expr *x, int *array)
{
    const fn_def *f = lookup(x->name);
    *array = 0;
    if (!f) return SUQL_VT_UNKNOWN;
    if (f->type == T_JSON) {
        *array = 1;
        return x->nargs ? x->args[0]->vtype : SUQL_VT_UNKNOWN;
    }
    if (f->type == T_ARG) return x->nargs ? x->args[0]->vtype : SUQL_VT_UNKNOWN;
    return (suql_vtype)f->type;
}

/* ---- emission ------------------------------------------------------- */

static int call(suql_emitter *m, const char *name, const suql_expr *x)
{
    gn_buf_printf(m->out, "%s(", name);
    if (x->star) gn_buf_putc(m->out, '*');
    if (x->distinct) gn_buf_puts(m->out, "DISTINCT ");
    int rc = suql_em_list(m, x->args, x->nargs);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

int suql_em_func(suql_emitter *m, const suql_expr *x)
{
    const fn_def *f = lookup(x->name);
    if (!f) return unknown(m->q, x, m->e);
    int rc = suql_func_check(m->q, x, m->e);
    if (rc) return rc;
    if (f->special) {
        /* Special forms are calls or parenthesized: one operand. */
        rc = f->special(m, x);
        m->lvl = L_ATOM;
        return rc;
    }
    return call(m, f->sql, x);
}

static int arg(suql_emitter *m, const suql_expr *x, int i)
{
    return suql_em_expr(m, x->args[i], L_NONE);
}

static int array_agg(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, x->distinct ? "json_group_array(DISTINCT " : "json_group_array(");
    int rc = x->args[0]->varray ? suql_em_json(m, x->args[0]) : arg(m, x, 0);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* PostgreSQL: NULL for an empty array, and for a dimension other than 1. */
static int array_length(suql_emitter *m, const suql_expr *x)
{
    const suql_expr *dim = x->args[1];
    if (dim->kind == SUQL_E_INT && dim->ival != 1) {
        gn_buf_puts(m->out, "NULL");
        return 0;
    }
    gn_buf_puts(m->out, "nullif(json_array_length(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, "), 0)");
    return rc;
}

static int array_to_string(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "(SELECT coalesce(group_concat(value, ");
    int rc = arg(m, x, 1);
    gn_buf_puts(m->out, "), '') FROM json_each(");
    if (!rc) rc = arg(m, x, 0);
    gn_buf_puts(m->out, "))");
    return rc;
}

/* concat() skips NULLs; || would make the whole result NULL. */
static int concat(suql_emitter *m, const suql_expr *x)
{
    gn_buf_putc(m->out, '(');
    for (int i = 0; i < x->nargs; i++) {
        gn_buf_puts(m->out, i ? " || coalesce(" : "coalesce(");
        int rc = arg(m, x, i);
        if (rc) return rc;
        gn_buf_puts(m->out, ", '')");
    }
    gn_buf_putc(m->out, ')');
    return 0;
}

static int date_part(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "CAST(strftime(");
    suql_emit_string(date_format(x->args[0]), m->out);
    gn_buf_puts(m->out, ", ");
    int rc = arg(m, x, 1);
    gn_buf_puts(m->out, ") AS INTEGER)");
    return rc;
}

/* GREATEST/LEAST ignore NULLs; SQLite's multi-argument max/min return
 * NULL if any argument is.  Each argument is coalesced with the others,
 * so a NULL one stands in as some other argument and cannot win. */
static int greatest(suql_emitter *m, const suql_expr *x)
{
    if (x->nargs == 1) return suql_em_expr(m, x->args[0], L_ATOM);
    gn_buf_puts(m->out, strcmp(x->name, "least") ? "max(" : "min(");
    for (int i = 0; i < x->nargs; i++) {
        gn_buf_puts(m->out, i ? ", coalesce(" : "coalesce(");
        int rc = arg(m, x, i);
        for (int j = 0; j < x->nargs && !rc; j++) {
            if (j == i) continue;
            gn_buf_puts(m->out, ", ");
            rc = arg(m, x, j);
        }
        if (rc) return rc;
        gn_buf_putc(m->out, ')');
    }
    gn_buf_putc(m->out, ')');
    return 0;
}

static int left(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "substr(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, ", 1, ");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* The last N characters: substr(s, -n, n) ('' for 0, all of a shorter s). */
static int right(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "substr(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, ", -(");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_puts(m->out, "), ");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_putc(m->out, ')');
    return rc;
}

static int mod(suql_emitter *m, const suql_expr *x)
{
    gn_buf_putc(m->out, '(');
    int rc = suql_em_expr(m, x->args[0], L_MUL);
    gn_buf_puts(m->out, " % ");
    if (!rc) rc = suql_em_expr(m, x->args[1], L_MUL + 1);
    gn_buf_putc(m->out, ')');
    return rc;
}

static int now(suql_emitter *m, const suql_expr *x)
{
    (void)x;
    gn_buf_puts(m->out, "datetime('now')");
    return 0;
}

/* PostgreSQL's random() is uniform in [0, 1); SQLite's a 64-bit integer. */
static int random_(suql_emitter *m, const suql_expr *x)
{
    (void)x;
    gn_buf_puts(m->out, "(random() / 18446744073709551616.0 + 0.5)");
    return 0;
}

static int starts_with(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "(substr(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, ", 1, length(");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_puts(m->out, ")) = ");
    if (!rc) rc = suql_em_expr(m, x->args[1], L_ADD);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* ---- suql_like ------------------------------------------------------ */

static const char *next_char(const char *s)
{
    s++;
    while ((*s & 0xC0) == 0x80) s++;
    return s;
}

/* PostgreSQL LIKE: % any run, _ one character, \ escapes the next. */
static int like_match(const char *s, const char *p)
{
    const char *star_p = NULL, *star_s = NULL;
    while (*s) {
        if (*p == '%') {
            while (*p == '%') p++;
            star_p = p;
            star_s = s;
            continue;
        }
        if (*p == '_') {
            p++;
            s = next_char(s);
            continue;
        }
        const char *lit = *p == '\\' && p[1] ? p + 1 : p;
        if (*lit) {
            size_t n = (size_t)(next_char(lit) - lit);
            if ((size_t)(next_char(s) - s) == n && !memcmp(lit, s, n)) {
                p = lit + n;
                s += n;
                continue;
            }
        }
        if (!star_p) return 0;
        star_s = next_char(star_s);
        s = star_s;
        p = star_p;
    }
    while (*p == '%') p++;
    return *p == 0;
}

static void like_fn(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    if (sqlite3_value_type(v[0]) == SQLITE_NULL || sqlite3_value_type(v[1]) == SQLITE_NULL) {
        sqlite3_result_null(c);
        return;
    }
    const char *s = (const char *)sqlite3_value_text(v[0]);
    const char *p = (const char *)sqlite3_value_text(v[1]);
    sqlite3_result_int(c, s && p && like_match(s, p));
}

int suql_register_functions(sqlite3 *db)
{
    return sqlite3_create_function(db, "suql_like", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                   like_fn, NULL, NULL);
}
