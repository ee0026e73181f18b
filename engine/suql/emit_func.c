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
#include "store/kb.h"
#include "suql/emit_int.h"
#include "suql/parse.h"
#include "suql/pgagg.h"
#include "suql/pgfunc.h"
#include "suql/pgval.h"
#include "util/strdist.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Result types beyond suql_vtype: the first argument's type; an array of
 * it; avg's (numeric for integers and numerics, else double); the
 * rounding functions' (numeric for a numeric, else double). */
enum { T_ARG = 100, T_JSON = 101, T_AVG = 102, T_FLT = 103 };

typedef int (*special_fn)(suql_emitter *m, const suql_expr *x);

typedef struct fn_def {
    const char *name;
    int min, max;                /* max -1: any number */
    int agg;                     /* 1 an aggregate, 2 a window function */
    int type;                    /* suql_vtype, T_ARG or T_JSON */
    const char *sql;             /* SQLite's name, same arguments */
    special_fn special;          /* or a special form */
} fn_def;

static int array_agg(suql_emitter *m, const suql_expr *x);
static int string_agg(suql_emitter *m, const suql_expr *x);
static int concat_ws(suql_emitter *m, const suql_expr *x);
static int current_(suql_emitter *m, const suql_expr *x);
static int round_(suql_emitter *m, const suql_expr *x);
static int minmax(suql_emitter *m, const suql_expr *x);
static int sum_avg(suql_emitter *m, const suql_expr *x);
static int trunc_(suql_emitter *m, const suql_expr *x);
static int substr_(suql_emitter *m, const suql_expr *x);
static int array_length(suql_emitter *m, const suql_expr *x);
static int array_to_string(suql_emitter *m, const suql_expr *x);
static int concat(suql_emitter *m, const suql_expr *x);
static int date_trunc(suql_emitter *m, const suql_expr *x);
static int truncs_interval(const suql_expr *x);
static int octet_length(suql_emitter *m, const suql_expr *x);
static int date_part(suql_emitter *m, const suql_expr *x);
static int greatest(suql_emitter *m, const suql_expr *x);
static int nullif_(suql_emitter *m, const suql_expr *x);
static int mod(suql_emitter *m, const suql_expr *x);
static int random_(suql_emitter *m, const suql_expr *x);
static int starts_with(suql_emitter *m, const suql_expr *x);
static int array_fn(suql_emitter *m, const suql_expr *x);
static int stat_agg(suql_emitter *m, const suql_expr *x);

static const fn_def fns[] = {
    { "abs", 1, 1, 0, T_ARG, "abs", NULL },
    { "acos", 1, 1, 0, SUQL_VT_REAL, "suql_acos", NULL },
    { "array_agg", 1, 1, 1, T_JSON, NULL, array_agg },
    { "array_append", 2, 2, 0, T_JSON, NULL, array_fn },
    { "array_cat", 2, 2, 0, T_JSON, NULL, array_fn },
    { "array_length", 2, 2, 0, SUQL_VT_INT, NULL, array_length },
    { "array_position", 2, 3, 0, SUQL_VT_INT, NULL, array_fn },
    { "array_prepend", 2, 2, 0, T_JSON, NULL, array_fn },
    { "array_remove", 2, 2, 0, T_JSON, NULL, array_fn },
    { "array_lower", 2, 2, 0, SUQL_VT_INT, NULL, array_length },
    { "array_to_string", 2, 3, 0, SUQL_VT_TEXT, NULL, array_to_string },
    { "array_upper", 2, 2, 0, SUQL_VT_INT, NULL, array_length },
    { "ascii", 1, 1, 0, SUQL_VT_INT, "suql_ascii", NULL },
    { "asin", 1, 1, 0, SUQL_VT_REAL, "suql_asin", NULL },
    { "atan", 1, 1, 0, SUQL_VT_REAL, "suql_atan", NULL },
    { "atan2", 2, 2, 0, SUQL_VT_REAL, "suql_atan2", NULL },
    { "avg", 1, 1, 1, T_AVG, NULL, sum_avg },
    { "bool_and", 1, 1, 1, SUQL_VT_BOOL, "min", NULL },
    { "bool_or", 1, 1, 1, SUQL_VT_BOOL, "max", NULL },
    { "btrim", 1, 2, 0, SUQL_VT_TEXT, "trim", NULL },
    { "cardinality", 1, 1, 0, SUQL_VT_INT, "json_array_length", NULL },
    { "cbrt", 1, 1, 0, SUQL_VT_REAL, "suql_cbrt", NULL },
    { "ceil", 1, 1, 0, T_FLT, "ceil", NULL },
    { "ceiling", 1, 1, 0, T_FLT, "ceil", NULL },
    { "char_length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "character_length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "chr", 1, 1, 0, SUQL_VT_TEXT, "suql_chr", NULL },
    { "concat", 1, -1, 0, SUQL_VT_TEXT, NULL, concat },
    { "concat_ws", 2, -1, 0, SUQL_VT_TEXT, NULL, concat_ws },
    { "cos", 1, 1, 0, SUQL_VT_REAL, "suql_cos", NULL },
    { "count", 0, 1, 1, SUQL_VT_INT, "count", NULL },
    { "current_date", 0, 0, 0, SUQL_VT_DATE, NULL, current_ },
    { "current_time", 0, 0, 0, SUQL_VT_TIME, NULL, current_ },
    { "current_timestamp", 0, 0, 0, SUQL_VT_TIMESTAMP, NULL, current_ },
    { "date", 1, 1, 0, SUQL_VT_DATE, "suql_date", NULL },
    { "date_part", 2, 2, 0, SUQL_VT_REAL, NULL, date_part },
    { "date_trunc", 2, 2, 0, SUQL_VT_TIMESTAMP, NULL, date_trunc },
    { "degrees", 1, 1, 0, SUQL_VT_REAL, "suql_degrees", NULL },
    { "div", 2, 2, 0, SUQL_VT_NUMERIC, "suql_div", NULL },
    { "every", 1, 1, 1, SUQL_VT_BOOL, "min", NULL },
    { "exp", 1, 1, 0, SUQL_VT_REAL, "suql_exp", NULL },
    { "extract", 2, 2, 0, SUQL_VT_NUMERIC, NULL, date_part },
    { "floor", 1, 1, 0, T_FLT, "floor", NULL },
    { "gcd", 2, 2, 0, T_ARG, "suql_gcd", NULL },
    { "greatest", 1, -1, 0, T_ARG, NULL, greatest },
    { "least", 1, -1, 0, T_ARG, NULL, greatest },
    { "initcap", 1, 1, 0, SUQL_VT_TEXT, "suql_initcap", NULL },
    { "lcm", 2, 2, 0, T_ARG, "suql_lcm", NULL },
    { "left", 2, 2, 0, SUQL_VT_TEXT, "suql_left", NULL },
    { "length", 1, 1, 0, SUQL_VT_INT, "length", NULL },
    { "ln", 1, 1, 0, SUQL_VT_REAL, "suql_ln", NULL },
    { "localtime", 0, 0, 0, SUQL_VT_TIME, NULL, current_ },
    { "localtimestamp", 0, 0, 0, SUQL_VT_TIMESTAMP, NULL, current_ },
    { "log", 1, 2, 0, SUQL_VT_REAL, "suql_log", NULL },
    { "log10", 1, 1, 0, SUQL_VT_REAL, "suql_log10", NULL },
    { "lower", 1, 1, 0, SUQL_VT_TEXT, "suql_lower", NULL },
    { "lpad", 2, 3, 0, SUQL_VT_TEXT, "suql_lpad", NULL },
    { "ltrim", 1, 2, 0, SUQL_VT_TEXT, "ltrim", NULL },
    { "make_date", 3, 3, 0, SUQL_VT_DATE, "suql_make_date", NULL },
    { "make_time", 3, 3, 0, SUQL_VT_TIME, "suql_make_time", NULL },
    { "max", 1, 1, 1, T_ARG, NULL, minmax },
    { "md5", 1, 1, 0, SUQL_VT_TEXT, "suql_md5", NULL },
    { "min", 1, 1, 1, T_ARG, NULL, minmax },
    { "mod", 2, 2, 0, T_ARG, NULL, mod },
    { "now", 0, 0, 0, SUQL_VT_TIMESTAMP, NULL, current_ },
    { "nullif", 2, 2, 0, T_ARG, NULL, nullif_ },
    { "octet_length", 1, 1, 0, SUQL_VT_INT, NULL, octet_length },
    { "pi", 0, 0, 0, SUQL_VT_REAL, "pi", NULL },
    { "position", 2, 2, 0, SUQL_VT_INT, "instr", NULL },
    { "pow", 2, 2, 0, SUQL_VT_REAL, "suql_pow", NULL },
    { "power", 2, 2, 0, SUQL_VT_REAL, "suql_pow", NULL },
    { "radians", 1, 1, 0, SUQL_VT_REAL, "suql_radians", NULL },
    { "random", 0, 0, 0, SUQL_VT_REAL, NULL, random_ },
    { "repeat", 2, 2, 0, SUQL_VT_TEXT, "suql_repeat", NULL },
    { "replace", 3, 3, 0, SUQL_VT_TEXT, "replace", NULL },
    { "reverse", 1, 1, 0, SUQL_VT_TEXT, "suql_reverse", NULL },
    { "right", 2, 2, 0, SUQL_VT_TEXT, "suql_right", NULL },
    { "round", 1, 2, 0, T_FLT, NULL, round_ },
    { "rpad", 2, 3, 0, SUQL_VT_TEXT, "suql_rpad", NULL },
    { "rtrim", 1, 2, 0, SUQL_VT_TEXT, "rtrim", NULL },
    { "sign", 1, 1, 0, T_FLT, "sign", NULL },
    { "sin", 1, 1, 0, SUQL_VT_REAL, "suql_sin", NULL },
    { "split_part", 3, 3, 0, SUQL_VT_TEXT, "suql_split_part", NULL },
    { "sqrt", 1, 1, 0, SUQL_VT_REAL, "suql_sqrt", NULL },
    { "starts_with", 2, 2, 0, SUQL_VT_BOOL, NULL, starts_with },
    { "stddev", 1, 1, 1, T_AVG, NULL, stat_agg },
    { "stddev_pop", 1, 1, 1, T_AVG, NULL, stat_agg },
    { "stddev_samp", 1, 1, 1, T_AVG, NULL, stat_agg },
    { "string_agg", 2, 2, 1, SUQL_VT_TEXT, NULL, string_agg },
    { "string_to_array", 2, 3, 0, T_JSON, "suql_string_to_array", NULL },
    { "strpos", 2, 2, 0, SUQL_VT_INT, "instr", NULL },
    { "substr", 2, 3, 0, SUQL_VT_TEXT, NULL, substr_ },
    { "substring", 2, 3, 0, SUQL_VT_TEXT, NULL, substr_ },
    { "sum", 1, 1, 1, T_ARG, NULL, sum_avg },
    { "tan", 1, 1, 0, SUQL_VT_REAL, "suql_tan", NULL },
    { "translate", 3, 3, 0, SUQL_VT_TEXT, "suql_translate", NULL },
    { "trunc", 1, 2, 0, T_FLT, NULL, trunc_ },
    { "upper", 1, 1, 0, SUQL_VT_TEXT, "suql_upper", NULL },
    { "var_pop", 1, 1, 1, T_AVG, NULL, stat_agg },
    { "var_samp", 1, 1, 1, T_AVG, NULL, stat_agg },
    { "variance", 1, 1, 1, T_AVG, NULL, stat_agg },
    /* Window functions (agg 2): only with OVER; SQLite's mean the same. */
    { "row_number", 0, 0, 2, SUQL_VT_INT, "row_number", NULL },
    { "rank", 0, 0, 2, SUQL_VT_INT, "rank", NULL },
    { "dense_rank", 0, 0, 2, SUQL_VT_INT, "dense_rank", NULL },
    { "percent_rank", 0, 0, 2, SUQL_VT_REAL, "percent_rank", NULL },
    { "cume_dist", 0, 0, 2, SUQL_VT_REAL, "cume_dist", NULL },
    { "ntile", 1, 1, 2, SUQL_VT_INT, "ntile", NULL },
    { "lag", 1, 3, 2, T_ARG, "lag", NULL },
    { "lead", 1, 3, 2, T_ARG, "lead", NULL },
    { "first_value", 1, 1, 2, T_ARG, "first_value", NULL },
    { "last_value", 1, 1, 2, T_ARG, "last_value", NULL },
    { "nth_value", 2, 2, 2, T_ARG, "nth_value", NULL },
};

#define NFNS ((int)(sizeof fns / sizeof *fns))

static const fn_def *lookup(const char *name)
{
    for (int i = 0; name && i < NFNS; i++)
        if (!strcmp(fns[i].name, name)) return &fns[i];
    return NULL;
}

/* The fields of date_part() and EXTRACT (pgval.c computes them). */
static const char *const date_fields[] = {
    "year", "month", "day", "hour", "minute", "second", "milliseconds", "microseconds",
    "dow", "isodow", "doy", "week", "quarter", "isoyear", "decade", "century",
    "millennium", "epoch",
};

/* PostgreSQL's other spellings of the fields. */
static const struct { const char *alias, *field; } date_aliases[] = {
    { "years", "year" }, { "y", "year" }, { "yr", "year" }, { "yrs", "year" },
    { "months", "month" }, { "mon", "month" }, { "mons", "month" },
    { "days", "day" }, { "d", "day" }, { "hours", "hour" }, { "h", "hour" }, { "hr", "hour" },
    { "hrs", "hour" }, { "minutes", "minute" }, { "min", "minute" }, { "mins", "minute" },
    { "m", "minute" }, { "seconds", "second" }, { "sec", "second" }, { "secs", "second" },
    { "s", "second" }, { "millisecond", "milliseconds" }, { "ms", "milliseconds" },
    { "msec", "milliseconds" }, { "microsecond", "microseconds" }, { "us", "microseconds" },
    { "usec", "microseconds" }, { "weeks", "week" }, { "w", "week" }, { "quarters", "quarter" },
    { "qtr", "quarter" }, { "decades", "decade" }, { "centuries", "century" },
    { "millennia", "millennium" }, { "millenniums", "millennium" },
};

static const char *date_field(const suql_expr *field)
{
    if (!field || field->kind != SUQL_E_STRING) return NULL;
    for (size_t i = 0; i < sizeof date_fields / sizeof *date_fields; i++)
        if (!strcasecmp(field->text, date_fields[i])) return date_fields[i];
    for (size_t i = 0; i < sizeof date_aliases / sizeof *date_aliases; i++)
        if (!strcasecmp(field->text, date_aliases[i].alias)) return date_aliases[i].field;
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
    if (x->distinct && (!f->agg || (x->nargs != 1 && f->special != string_agg)))
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
    if (f->special == date_part && !date_field(x->args[0]))
        return suql_error_at(e, GN_EPARSE, q, x->args[0]->pos,
                             "%s takes a field name: year, quarter, month, week, day, hour, "
                             "minute, second, dow, isodow, doy, epoch, ...", f->name);
    if (f->special == substr_ && n == 2 && x->args[1]->vtype == SUQL_VT_TEXT && !x->args[1]->varray)
        return suql_error_at(e, GN_EPARSE, q, x->args[1]->pos,
                             "substring(... FROM pattern) with a regular expression is not supported");
    return 0;
}

int suql_func_is_aggregate(const char *name)
{
    const fn_def *f = lookup(name);
    return f && f->agg == 1;
}

int suql_func_is_window(const char *name)
{
    const fn_def *f = lookup(name);
    return f && f->agg == 2;
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
    suql_vtype a0 = x->nargs ? x->args[0]->vtype : SUQL_VT_UNKNOWN;
    /* A time is added as the interval since midnight (PostgreSQL's
     * implicit cast). */
    if (f->special == sum_avg && (a0 == SUQL_VT_INTERVAL || a0 == SUQL_VT_TIME) && !(x->nargs && x->args[0]->varray))
        return SUQL_VT_INTERVAL;
    if (f->special == date_trunc && truncs_interval(x)) return SUQL_VT_INTERVAL;
    if (f->type == T_ARG) return a0;
    if (f->type == T_AVG) return a0 == SUQL_VT_INT || a0 == SUQL_VT_NUMERIC ? SUQL_VT_NUMERIC : SUQL_VT_REAL;
    if (f->type == T_FLT) return a0 == SUQL_VT_NUMERIC ? SUQL_VT_NUMERIC : SUQL_VT_REAL;
    return (suql_vtype)f->type;
}

/* ---- emission ------------------------------------------------------- */

static int call(suql_emitter *m, const char *name, const suql_expr *x)
{
    gn_buf_printf(m->out, "%s(", name);
    if (x->star) gn_buf_putc(m->out, '*');
    if (x->distinct) gn_buf_puts(m->out, "DISTINCT ");
    int rc = suql_em_list(m, x->args, x->nargs);
    if (!rc) rc = suql_em_agg_order(m, x);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

int suql_em_func(suql_emitter *m, const suql_expr *x)
{
    const fn_def *f = lookup(x->name);
    if (!f) return unknown(m->q, x, m->e);
    int rc = suql_func_check(m->q, x, m->e);
    if (!rc) rc = suql_em_agg_order_check(m, x);
    if (rc) return rc;
    if (f->special) {
        /* Special forms are calls or parenthesized: one operand. */
        rc = f->special(m, x);
    } else {
        rc = call(m, f->sql, x);
    }
    if (!rc && !m->tail_done) rc = suql_em_call_tail(m, x);   /* FILTER, OVER */
    m->tail_done = 0;
    m->lvl = L_ATOM;
    return rc;
}

static int arg(suql_emitter *m, const suql_expr *x, int i)
{
    return suql_em_expr(m, x->args[i], L_NONE);
}

/* With ORDER BY or DISTINCT: pgagg.c's, through emit_window.c. */
static int string_agg(suql_emitter *m, const suql_expr *x)
{
    if (x->naorder || x->distinct) return suql_em_sorted_agg(m, x);
    return call(m, "group_concat", x);
}

/* array_agg() of no rows is NULL, as in PostgreSQL, not an empty array
 * (a row, even a NULL one, makes an element, so '[]' means none); json()
 * keeps the result JSON. */
static int array_agg(suql_emitter *m, const suql_expr *x)
{
    if (x->naorder || x->distinct) return suql_em_sorted_agg(m, x);
    gn_buf_puts(m->out, "json(nullif(json_group_array(");
    int rc = x->args[0]->varray ? suql_em_json(m, x->args[0]) : arg(m, x, 0);
    gn_buf_putc(m->out, ')');
    if (!rc) rc = suql_em_call_tail(m, x);   /* FILTER and OVER inside */
    m->tail_done = 1;
    gn_buf_puts(m->out, ", '[]'))");
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
    /* array_upper is the length; array_lower 1 (arrays start at 1). */
    int lower = !strcmp(x->name, "array_lower");
    gn_buf_puts(m->out, lower ? "(CASE WHEN json_array_length(" : "nullif(json_array_length(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, lower ? ") > 0 THEN 1 END)" : "), 0)");
    return rc;
}

static int array_to_string(suql_emitter *m, const suql_expr *x)
{
    /* Each element as PostgreSQL prints one in an array: a boolean t or
     * f, a time with its seconds, a double as its text; a NULL element is
     * skipped, or printed as the third argument when it is given. */
    static const char *const form[][2] = {
        [SUQL_VT_BOOL] = { "CASE value WHEN 1 THEN 't' WHEN 0 THEN 'f' END", NULL },
        [SUQL_VT_TIME] = { "suql_time(value)", NULL },
        [SUQL_VT_REAL] = { "suql_text(value)", NULL },
        [SUQL_VT_NUMERIC] = { "suql_text(value)", NULL },
    };
    suql_vtype t = x->args[0]->vtype;
    const char *elem = t < sizeof form / sizeof *form && form[t][0] ? form[t][0] : "value";
    gn_buf_puts(m->out, "(SELECT coalesce(group_concat(");
    int rc = 0;
    if (x->nargs == 3) {
        gn_buf_printf(m->out, "coalesce(%s, ", elem);
        rc = arg(m, x, 2);
        gn_buf_putc(m->out, ')');
    } else {
        gn_buf_puts(m->out, elem);
    }
    gn_buf_puts(m->out, ", ");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_puts(m->out, "), '') FROM json_each(");
    if (!rc) rc = arg(m, x, 0);
    gn_buf_puts(m->out, "))");
    return rc;
}

/* concat() skips NULLs; || would make the whole result NULL.  It prints
 * each argument as its type shows it (a char(n) padded), where || casts
 * to text. */
static int concat(suql_emitter *m, const suql_expr *x)
{
    gn_buf_putc(m->out, '(');
    for (int i = 0; i < x->nargs; i++) {
        gn_buf_puts(m->out, i ? " || coalesce(" : "coalesce(");
        const suql_expr *v = x->args[i];
        int rc = suql_em_shown(m, v);
        if (rc) return rc;
        gn_buf_puts(m->out, ", '')");
    }
    gn_buf_putc(m->out, ')');
    return 0;
}

/* date_trunc() of a time or an interval is an interval (PostgreSQL casts
 * a time to one); of a date or a timestamp, a timestamp. */
static int truncs_interval(const suql_expr *x)
{
    suql_vtype t = x->nargs == 2 ? x->args[1]->vtype : SUQL_VT_UNKNOWN;
    return t == SUQL_VT_TIME || t == SUQL_VT_INTERVAL;
}

static int date_trunc(suql_emitter *m, const suql_expr *x)
{
    return call(m, truncs_interval(x) ? "suql_date_trunc_iv" : "suql_date_trunc", x);
}

/* octet_length() counts a char(n) value's padding (length() does not). */
static int octet_length(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "suql_octet_length(");
    int rc = suql_em_padded(m, x->args[0]);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* date_part(field, v) and EXTRACT(field FROM v): pgval.c's, told what
 * v is (a date, time, timestamp or interval). */
static int date_part(suql_emitter *m, const suql_expr *x)
{
    suql_vtype t = x->args[1]->vtype;
    /* extract() of a date has no time fields (date_part() reads the date
     * as its midnight, as PostgreSQL casts it to a timestamp). */
    static const char *const clock[] = { "hour", "minute", "second", "milliseconds", "microseconds" };
    const char *f = date_field(x->args[0]);
    for (size_t i = 0; f && t == SUQL_VT_DATE && !strcmp(x->name, "extract") && i < 5; i++)
        if (!strcmp(f, clock[i]))
            return suql_em_fail(m, x->pos, "unit \"%s\" not supported for type date (a date has no "
                                "time of day)", f);
    gn_buf_puts(m->out, "suql_date_part(");
    suql_emit_string(date_field(x->args[0]), m->out);
    gn_buf_puts(m->out, ", ");
    int rc = arg(m, x, 1);
    gn_buf_printf(m->out, ", '%c')", t == SUQL_VT_TIME ? 't' : t == SUQL_VT_INTERVAL ? 'i'
                                     : t == SUQL_VT_DATE ? 'd' : 's');
    return rc;
}

/* concat_ws(sep, ...) skips NULL arguments, separators included; a NULL
 * separator makes the result NULL. */
static int concat_ws(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "(SELECT CASE WHEN s IS NOT NULL THEN (SELECT coalesce(group_concat(v, s), '') FROM (");
    int rc = 0;
    for (int i = 1; i < x->nargs && !rc; i++) {
        gn_buf_puts(m->out, i > 1 ? " UNION ALL SELECT " : "SELECT ");
        gn_buf_printf(m->out, "%d AS k, ", i);
        rc = suql_em_shown(m, x->args[i]);
        gn_buf_puts(m->out, " AS v");
    }
    gn_buf_puts(m->out, " ORDER BY k) WHERE v IS NOT NULL) END FROM (SELECT ");
    if (!rc) rc = arg(m, x, 0);
    gn_buf_puts(m->out, " AS s))");
    return rc;
}

/* CURRENT_DATE, now() and the like: the date the engine was given
 * (--today), the system's time of day. */
static int current_(suql_emitter *m, const suql_expr *x)
{
    const char *n = x->name;
    if (!strcmp(n, "current_date")) gn_buf_puts(m->out, "suql_today()");
    else if (!strcmp(n, "current_time") || !strcmp(n, "localtime")) gn_buf_puts(m->out, "substr(suql_now(), 12)");
    else gn_buf_puts(m->out, "suql_now()");
    return 0;
}

/* trunc(x, n): toward zero at N places, as numeric's trunc. */
static int trunc_(suql_emitter *m, const suql_expr *x)
{
    if (x->nargs == 1) return call(m, "trunc", x);
    gn_buf_puts(m->out, "suql_numeric(trunc(");
    int rc = arg(m, x, 0);
    gn_buf_puts(m->out, " * pow(10, ");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_puts(m->out, ")) / pow(10, ");
    if (!rc) rc = arg(m, x, 1);
    gn_buf_puts(m->out, "))");
    return rc;
}

/* An interval (not an array of them): the aggregates take pgstat.c's. */
static int interval_arg(const suql_expr *x)
{
    return x->nargs == 1 && x->args[0]->vtype == SUQL_VT_INTERVAL && !x->args[0]->varray;
}

/* sum() and avg() of intervals: pgstat.c's, which add months, days and
 * microseconds apart (SQLite's would read '01:30:00' as the number 1);
 * a time is read as the interval since midnight, as PostgreSQL casts it.
 * With DISTINCT, SQLite compares the text: one length spelled two ways
 * ('1 day', '24:00:00') counts twice, where PostgreSQL counts it once. */
static int sum_avg(suql_emitter *m, const suql_expr *x)
{
    int time = x->nargs == 1 && x->args[0]->vtype == SUQL_VT_TIME && !x->args[0]->varray;
    if (!interval_arg(x) && !time) return call(m, x->name, x);
    return call(m, strcmp(x->name, "sum") ? "suql_iv_avg" : "suql_iv_sum", x);
}

/* min() and max() of an interval compare lengths (pgstat.c's; SQLite's
 * would compare the text).  min() and max() of an enum follow its
 * declared order, as PostgreSQL's enum comparison does: the least or
 * greatest place, read back as its value. */
/* " WHEN 0 THEN 'cheap' ... END": a place in C's order read back as its
 * value. */
static void enum_value_of_place(suql_emitter *m, const struct st_column *c)
{
    for (int i = 0; i < c->nenum; i++) {
        gn_buf_printf(m->out, " WHEN %d THEN ", i);
        suql_emit_string(c->enum_vals[i], m->out);
    }
    gn_buf_puts(m->out, " END");
    m->lvl = L_ATOM;
}

static int minmax(suql_emitter *m, const suql_expr *x)
{
    if (interval_arg(x)) return call(m, strcmp(x->name, "min") ? "suql_iv_max" : "suql_iv_min", x);
    const struct st_column *c = suql_em_enum_col(x->args[0]);
    if (!c) return call(m, x->name, x);
    gn_buf_printf(m->out, "CASE %s(%s", x->name, x->distinct ? "DISTINCT " : "");
    int rc = suql_em_enum_ordinal(m, x->args[0], c);
    gn_buf_puts(m->out, ")");
    /* FILTER and OVER belong to the call, inside the CASE. */
    if (!rc) rc = suql_em_call_tail(m, x);
    m->tail_done = 1;
    enum_value_of_place(m, c);
    return rc;
}

/* round(double) rounds half to even, round(numeric) half away from zero
 * (SQLite's round); round(numeric, n) is SQLite's. */
static int round_(suql_emitter *m, const suql_expr *x)
{
    if (x->nargs == 1 && x->args[0]->vtype == SUQL_VT_REAL) return call(m, "suql_round", x);
    return call(m, x->nargs == 2 ? "suql_round_n" : "round", x);
}

static int substr_(suql_emitter *m, const suql_expr *x)
{
    return call(m, "suql_substr", x);
}

/* GREATEST/LEAST ignore NULLs; SQLite's multi-argument max/min return
 * NULL if any argument is.  Each argument is coalesced with the others,
 * so a NULL one stands in as some other argument and cannot win. */
/* NULLIF(rating, '4.5') compares numbers: the literal is the other's type. */
static int nullif_(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "nullif(");
    int rc = suql_em_typed(m, x->args[0], x->vtype);
    gn_buf_puts(m->out, ", ");
    if (!rc) rc = suql_em_typed(m, x->args[1], x->vtype);
    gn_buf_putc(m->out, ')');
    return rc;
}

static int greatest_arg(suql_emitter *m, const suql_expr *x, int i)
{
    const struct st_column *c = x->venum;
    return c ? suql_em_enum_ordinal(m, x->args[i], c) : suql_em_typed(m, x->args[i], x->vtype);
}

/* An enum's greatest or least compares places in its declared order (a
 * literal outside it has none and cannot win), read back as a value. */
static int greatest(suql_emitter *m, const suql_expr *x)
{
    if (x->nargs == 1) return suql_em_expr(m, x->args[0], L_ATOM);
    if (x->venum) gn_buf_puts(m->out, "CASE ");
    gn_buf_puts(m->out, strcmp(x->name, "least") ? "max(" : "min(");
    for (int i = 0; i < x->nargs; i++) {
        gn_buf_puts(m->out, i ? ", coalesce(" : "coalesce(");
        int rc = greatest_arg(m, x, i);
        for (int j = 0; j < x->nargs && !rc; j++) {
            if (j == i) continue;
            gn_buf_puts(m->out, ", ");
            rc = greatest_arg(m, x, j);
        }
        if (rc) return rc;
        gn_buf_putc(m->out, ')');
    }
    gn_buf_putc(m->out, ')');
    if (x->venum) enum_value_of_place(m, x->venum);
    return 0;
}

static int mod(suql_emitter *m, const suql_expr *x)
{
    if (x->args[0]->vtype == SUQL_VT_NUMERIC || x->args[1]->vtype == SUQL_VT_NUMERIC) {
        /* SQLite's % truncates to integers; numeric mod keeps the fraction. */
        gn_buf_puts(m->out, "suql_numeric(mod(");
        int rc = arg(m, x, 0);
        gn_buf_puts(m->out, ", ");
        if (!rc) rc = suql_em_divisor(m, x->args[1], x->args[0]);
        gn_buf_puts(m->out, "))");
        return rc;
    }
    gn_buf_putc(m->out, '(');
    int rc = suql_em_expr(m, x->args[0], L_MUL);
    gn_buf_puts(m->out, " % ");
    if (!rc) rc = suql_em_divisor(m, x->args[1], x->args[0]);
    gn_buf_putc(m->out, ')');
    return rc;
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

/* array_position, array_remove, array_append, array_prepend, array_cat:
 * pgfunc.c's, each array as JSON and each element as its JSON text
 * (json_quote), so a NULL element is JSON null. */
static int array_fn(suql_emitter *m, const suql_expr *x)
{
    int elem = !strcmp(x->name, "array_cat") ? -1 : !strcmp(x->name, "array_prepend") ? 0 : 1;
    gn_buf_printf(m->out, "suql_%s(", x->name);
    for (int i = 0; i < x->nargs; i++) {
        const suql_expr *a = x->args[i];
        int rc;
        if (i) gn_buf_puts(m->out, ", ");
        if (a->varray) {
            rc = suql_em_json(m, a);
        } else if (i == elem) {
            gn_buf_puts(m->out, "json_quote(");
            rc = arg(m, x, i);
            gn_buf_putc(m->out, ')');
        } else {
            rc = arg(m, x, i);
        }
        if (rc) return rc;
    }
    gn_buf_putc(m->out, ')');
    return 0;
}

/* stddev, variance and the like: pgstat.c's, the _n form (a numeric
 * result) for integer or numeric input. */
static int stat_agg(suql_emitter *m, const suql_expr *x)
{
    char name[40];
    suql_vtype t = x->args[0]->vtype;
    snprintf(name, sizeof name, "suql_%s%s", x->name,
             t == SUQL_VT_INT || t == SUQL_VT_NUMERIC ? "_n" : "");
    return call(m, name, x);
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
    int rc = sqlite3_create_function(db, "suql_like", 2,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                     like_fn, NULL, NULL);
    if (!rc) rc = suql_pgagg_register(db);
    if (!rc) rc = suql_pgfunc_register(db);
    return rc ? rc : suql_pgval_register(db, NULL);
}
