/*
 * analyze_expr.c — expressions: each resolved, typed and checked where a
 * check matters (analyze.h), plus the queries on an analyzed tree
 * (suql_is_freetext, suql_single_table, suql_target_name).
 *
 * Types are PostgreSQL's as far as the schema tells them: array or not,
 * the scalar types (string literals are untyped until the other operand
 * types them, decimal literals numeric, casts their target, answer() and
 * summary() TEXT, functions from the allow-list's table, the operators'
 * results for numbers, dates, times and intervals).  Errors are
 * PostgreSQL's, at the position, for what would otherwise mean something
 * else: text compared with a number, a literal that is not of the other
 * side's type, a non-boolean where a condition goes, results of two types
 * in CASE or COALESCE, a text function on a number, answer() over a
 * number, an array compared with a scalar, aggregates where SQL forbids
 * them.  UNKNOWN (a value whose type only the data knows) goes with
 * anything.
 *
 * Rejected: refusing what only PostgreSQL's catalog could type (a
 * function's argument types beyond the checks above): an LLM-written
 * query is better answered than refused over a cast PostgreSQL would
 * make implicitly.
 */
#include "store/kb.h"
#include "suql/analyze_int.h"
#include "suql/emit.h"
#include "suql/parse.h"
#include "suql/pgval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- PostgreSQL's operator types ------------------------------------- */

static int is_num(suql_vtype t)
{
    return t == SUQL_VT_INT || t == SUQL_VT_REAL || t == SUQL_VT_NUMERIC;
}

/* PostgreSQL's name of a type in its messages. */
static const char *pg_type(suql_vtype t)
{
    static const char *const names[] = {
        "unknown", "text", "integer", "double precision", "boolean", "date",
        "time without time zone", "timestamp without time zone", "numeric", "interval"
    };
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "unknown";
}

/* A string literal read as type T (a number, boolean, date, time,
 * timestamp or interval), as PostgreSQL types an untyped literal by the
 * other operand: 0, or PostgreSQL's error at the literal. */
int suql_an_literal_as(suql_an_ctx *a, const suql_expr *lit, suql_vtype t)
{
    char out[160];
    const char *s = lit->text ? lit->text : "";
    int bad = 0;
    switch (t) {
    case SUQL_VT_INT: case SUQL_VT_REAL: case SUQL_VT_NUMERIC: {
        const char *p = s;
        while (*p == ' ') p++;
        char *end;
        double d = strtod(p, &end);
        while (*end == ' ') end++;
        bad = end == p || *end || strpbrk(p, "xXnN");
        if (!bad && t == SUQL_VT_INT && strpbrk(p, ".eE")) bad = 1;
        if (bad) snprintf(out, sizeof out, "invalid input syntax for type %s: \"%.60s\"", pg_type(t), s);
        else if (isinf(d))
            bad = 1, snprintf(out, sizeof out, "\"%.60s\" is out of range for type double precision", s);
        break;
    }
    case SUQL_VT_BOOL: {
        static const char *const ok[] = { "true", "t", "yes", "y", "on", "1", "false", "f", "no",
                                          "n", "off", "0", "tr", "tru", "fa", "fal", "fals", "ye",
                                          "of" };
        bad = 1;
        const char *p = s;
        while (*p == ' ') p++;
        size_t n = strlen(p);
        while (n && p[n - 1] == ' ') n--;
        for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
            if (strlen(ok[i]) == n && !strncasecmp(p, ok[i], n)) bad = 0;
        if (bad) snprintf(out, sizeof out, "invalid input syntax for type boolean: \"%.60s\"", s);
        break;
    }
    case SUQL_VT_TIME: bad = suql_pg_time(s, out, sizeof out) != 0; break;
    case SUQL_VT_DATE: bad = suql_pg_date(s, out, sizeof out) != 0; break;
    case SUQL_VT_TIMESTAMP: bad = suql_pg_timestamp(s, out, sizeof out) != 0; break;
    case SUQL_VT_INTERVAL: bad = suql_pg_interval(s, out, sizeof out) != 0; break;
    default: break;
    }
    return bad ? suql_error_at(a->e, GN_EPARSE, a->q, lit->pos, "%s", out) : 0;
}

int suql_an_boolean(suql_an_ctx *a, const suql_expr *x, const char *what)
{
    if (!x || x->kind == SUQL_E_NULL || x->vtype == SUQL_VT_BOOL) return 0;
    if (x->kind == SUQL_E_STRING) return suql_an_literal_as(a, x, SUQL_VT_BOOL);
    if (!x->varray && x->vtype == SUQL_VT_UNKNOWN) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "argument of %s must be type boolean, not type %s",
                         what, x->varray ? "array" : pg_type(x->vtype));
}

/* Functions that read text: a number or boolean argument is PostgreSQL's
 * "function length(integer) does not exist". */
static int text_args(suql_an_ctx *a, const suql_expr *x)
{
    static const char *const fns[] = {
        "btrim", "char_length", "character_length", "initcap", "left", "length", "lower", "ltrim",
        "position", "replace", "right", "rtrim", "split_part", "starts_with", "strpos", "substr",
        "substring", "upper", "ascii", "lpad", "md5", "octet_length", "repeat", "reverse", "rpad",
        "string_to_array", "translate",
    };
    int hit = 0;
    for (size_t i = 0; i < sizeof fns / sizeof *fns && !hit; i++) hit = !strcmp(x->name, fns[i]);
    const suql_expr *v = x->nargs ? x->args[0] : NULL;
    if (hit && v && v->varray) {
        /* An array is not its JSON text: PostgreSQL has no length(text[]). */
        const char *an = suql_an_label(a, v);
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "function %s(%s[]) does not exist: %s is an array (its number of elements: "
                             "cardinality(%s); its elements as text: array_to_string(%s, ', '))",
                             x->name, pg_type(v->vtype == SUQL_VT_UNKNOWN ? SUQL_VT_TEXT : v->vtype), an,
                             an, an);
    }
    if (!hit || !v || v->varray || !(is_num(v->vtype) || v->vtype == SUQL_VT_BOOL)) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                         "function %s(%s) does not exist: cast the argument, %s(%s::text)", x->name,
                         pg_type(v->vtype), x->name, suql_an_label(a, v));
}

/* Whether values of types L and R can be compared (PostgreSQL has an
 * operator for them); UNKNOWN goes with anything. */
static int comparable(suql_vtype l, suql_vtype r);

int suql_an_types_match(suql_vtype l, suql_vtype r)
{
    return comparable(l, r);
}

const char *suql_an_pg_type(suql_vtype t)
{
    return pg_type(t);
}

static int comparable(suql_vtype l, suql_vtype r)
{
    if (l == SUQL_VT_UNKNOWN || r == SUQL_VT_UNKNOWN || l == r) return 1;
    if (is_num(l) && is_num(r)) return 1;
    int ld = l == SUQL_VT_DATE || l == SUQL_VT_TIMESTAMP, rd = r == SUQL_VT_DATE || r == SUQL_VT_TIMESTAMP;
    return ld && rd;
}

/* L and R side by side under operator OP (its text, for messages) at
 * POS: a string literal must read as the other side's type, and two
 * known types must be comparable. */
int suql_an_check_pair(suql_an_ctx *a, int pos, const suql_expr *l, const suql_expr *r, const char *op)
{
    if (l->varray || r->varray || l->kind == SUQL_E_NULL || r->kind == SUQL_E_NULL) return 0;
    if (l->kind == SUQL_E_STRING && r->kind != SUQL_E_STRING) return suql_an_literal_as(a, l, r->vtype);
    if (r->kind == SUQL_E_STRING && l->kind != SUQL_E_STRING) return suql_an_literal_as(a, r, l->vtype);
    if (comparable(l->vtype, r->vtype)) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, pos,
                         "operator does not exist: %s %s %s (cast one side to the other's type)",
                         pg_type(l->vtype), op, pg_type(r->vtype));
}

/* ---- array literals ------------------------------------------------- */

/* Whether string literal X is written as an array, '{...}'. */
static int array_text(const suql_expr *x)
{
    const char *s = x->kind == SUQL_E_STRING && x->text ? x->text : "";
    while (*s == ' ') s++;
    return *s == '{';
}

/* String literal X where an array is expected ('{a,"b c",NULL}', as
 * PostgreSQL reads it for text[], int[], ...): rewritten in place into
 * ARRAY[...] of literals of type T (numbers when T is one), then typed.
 * 0, or PostgreSQL's "malformed array literal" at X. */
static int array_literal(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x, suql_vtype t)
{
    const char *s = x->text ? x->text : "";
    while (*s == ' ') s++;
    if (*s != '{')
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "malformed array literal: \"%.60s\" "
                             "(an array is written '{a,b}' or ARRAY['a', 'b'])", x->text);
    size_t n = strlen(s);
    char *buf = suql_array_new(a->q, (int)n + 1, 1);
    suql_expr **v = suql_array_new(a->q, (int)n + 1, sizeof *v);
    int nv = 0;
    const char *p = s + 1;
    while (*p == ' ') p++;
    if (*p == '}') {
        p++;
    } else {
        for (;;) {
            size_t k = 0;
            int quoted = 0;
            while (*p == ' ') p++;
            if (*p == '"') {
                quoted = 1;
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && p[1]) p++;
                    buf[k++] = *p;
                }
                if (*p != '"') break;
                p++;
            } else {
                while (*p && *p != ',' && *p != '}') {
                    if (*p == '\\' && p[1]) p++;
                    buf[k++] = *p++;
                }
                while (k && buf[k - 1] == ' ') k--;
                if (!k || *p == 0 || *p == '{') break;
            }
            while (*p == ' ') p++;
            buf[k] = 0;
            suql_expr *e = suql_expr_new(a->q, SUQL_E_STRING, x->pos);
            if (!quoted && !strcasecmp(buf, "null")) {
                e->kind = SUQL_E_NULL;
            } else if (t == SUQL_VT_INT || t == SUQL_VT_REAL || t == SUQL_VT_NUMERIC) {
                /* Each element read as PostgreSQL reads one of the type:
                 * '{1,2.6}'::int[] is an error, not 1 and 3. */
                e->text = suql_strdup(a->q, buf);
                int rc = suql_an_literal_as(a, e, t);
                if (rc) return rc;
                char *end;
                e->fval = strtod(buf, &end);
                if (end == buf || *end) break;
                e->kind = strpbrk(buf, ".eE") ? SUQL_E_FLOAT : SUQL_E_INT;
                e->ival = (long long)e->fval;
                e->text = suql_strdup(a->q, buf);
            } else {
                e->text = suql_strdup(a->q, buf);
            }
            v[nv++] = e;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '}') p++;
            else nv = -1;
            break;
        }
    }
    while (*p == ' ') p++;
    if (nv < 0 || *p || p[-1] != '}')
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "malformed array literal: \"%.60s\"", x->text);
    x->kind = SUQL_E_ARRAY;
    x->text = NULL;
    x->args = v;
    x->nargs = nv;
    return suql_an_expr(a, sc, x);
}

/* ---- expressions ---------------------------------------------------- */

static int subquery_cols(suql_an_ctx *a, const suql_an_scope *sc, suql_select *sub, int want, suql_expr *x)
{
    suql_rcolumn *cols;
    int n;
    int rc = suql_an_select(a, sub, sc, sc->ctes, &cols, &n);
    if (rc) return rc;
    if (want && n != 1)
        return suql_error_at(a->e, GN_EPARSE, a->q, x && x->array ? x->pos : sub->pos,
                             "subquery must return only one column (it returns %d)", n);
    if (x && n >= 1 && x->kind == SUQL_E_SUBQUERY) {
        /* ARRAY(sub): an array of the column's values. */
        if (x->array && cols[0].varray)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "unsupported: ARRAY(subquery) of an array column (a multidimensional "
                                 "array): unnest it in the subquery");
        x->vtype = cols[0].vtype;
        x->varray = cols[0].varray || x->array;
        x->venum = x->array ? NULL : cols[0].venum;
    }
    return 0;
}

static int exprs(suql_an_ctx *a, const suql_an_scope *sc, suql_expr **v, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = suql_an_expr(a, sc, v[i]);
        if (rc) return rc;
    }
    return 0;
}

/* answer(x, 'q') and summary(x) read text: a number or boolean is refused. */
static int freetext_call(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    const char *fn = x->kind == SUQL_E_ANSWER ? "answer" : "summary";
    int rc = exprs(a, sc, x->args, x->nargs);
    if (rc) return rc;
    const suql_expr *v = x->args[0];
    if (is_num(v->vtype) || v->vtype == SUQL_VT_BOOL)
        return suql_error_at(a->e, GN_EPARSE, a->q, v->pos, "%s() reads text; %s is %s", fn,
                             suql_an_quoted(a, v), suql_an_vtype_name(v->vtype, v->varray));
    if (x->kind == SUQL_E_ANSWER && x->args[1]->kind != SUQL_E_STRING)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->args[1]->pos,
                             "the question of answer() must be a string literal");
    x->vtype = SUQL_VT_TEXT;
    return 0;
}

static int has_aggregate(const suql_expr *x);
static const st_column *enum_of(suql_expr *const *v, int n, int step);
static int one_type_of(suql_an_ctx *a, suql_expr **v, int n, int step, const char *what, suql_vtype *type);

/* The enum a call's value carries: nullif's first argument's, greatest's
 * and least's (any argument's), and the first argument's of min, max and
 * the window functions that return one of their input values. */
static const st_column *func_enum(const suql_expr *x)
{
    static const char *const first[] = { "nullif", "min", "max", "first_value", "last_value",
                                         "nth_value", "lag", "lead" };
    if (!x->nargs || x->varray) return NULL;
    if (!strcmp(x->name, "greatest") || !strcmp(x->name, "least")) return enum_of(x->args, x->nargs, 1);
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        if (!strcmp(x->name, first[i])) return x->args[0]->varray ? NULL : x->args[0]->venum;
    return NULL;
}

/* sum() and avg() add numbers or intervals (a time is cast to one):
 * PostgreSQL has neither for an enum, text, a date or a timestamp. */
static int sum_avg_type(suql_an_ctx *a, const suql_expr *x)
{
    const suql_expr *v = x->args[0];
    if ((strcmp(x->name, "sum") && strcmp(x->name, "avg")) || v->kind == SUQL_E_NULL) return 0;
    if (v->varray)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "function %s(%s[]) does not exist: add its "
                             "elements, FROM t, unnest(%s) AS x ... %s(x)", x->name,
                             pg_type(v->vtype == SUQL_VT_UNKNOWN ? SUQL_VT_TEXT : v->vtype),
                             suql_an_label(a, v), x->name);
    const char *t = v->venum ? "enum" : NULL;
    if (!t && v->kind != SUQL_E_STRING)
        switch (v->vtype) {
        case SUQL_VT_TEXT: t = "text"; break;
        case SUQL_VT_DATE: case SUQL_VT_TIMESTAMP: t = pg_type(v->vtype); break;
        default: break;
        }
    if (!t) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "function %s(%s) does not exist%s", x->name, t,
                         v->venum ? ": count each value instead (GROUP BY it), or compare it"
                         : v->vtype == SUQL_VT_TEXT ? ": cast a text of numbers, sum(x::numeric)"
                         : "");
}

static int func_call(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    if (!strcmp(x->name, "unnest"))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "unnest() is only supported in FROM: write FROM t, unnest(%s) AS x",
                             x->nargs ? suql_an_label(a, x->args[0]) : "array");
    int rc = suql_func_check(a->q, x, a->e);
    if (!rc) rc = exprs(a, sc, x->args, x->nargs);
    if (!rc) rc = suql_an_call_extras(a, sc, x);   /* ORDER BY, FILTER, OVER */
    if (rc) return rc;
    if (suql_func_is_aggregate(x->name) && !x->over)
        for (int i = 0; i < x->nargs; i++)
            if (has_aggregate(x->args[i]))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->args[i]->pos,
                                     "aggregate function calls cannot be nested");
    x->vtype = suql_func_type(x, &x->varray);
    x->venum = func_enum(x);
    if ((rc = text_args(a, x))) return rc;
    if (x->nargs == 1 && (!strcmp(x->name, "sum") || !strcmp(x->name, "avg") || !strcmp(x->name, "min") ||
                          !strcmp(x->name, "max"))) {
        const suql_expr *v = x->args[0];
        if (v->varray && (!strcmp(x->name, "min") || !strcmp(x->name, "max")))
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "unsupported: %s() of an array (aggregate its elements: FROM t, "
                                 "unnest(%s) AS x)", x->name, suql_an_label(a, v));
        if (!v->varray && v->vtype == SUQL_VT_BOOL)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "function %s(boolean) does not exist%s", x->name,
                                 !strcmp(x->name, "sum") || !strcmp(x->name, "avg")
                                     ? ": count the rows instead, count(*) FILTER (WHERE ...)"
                                     : ": use bool_or() or bool_and()");
        if ((rc = sum_avg_type(a, x))) return rc;
    }
    if ((!strcmp(x->name, "bool_and") || !strcmp(x->name, "bool_or") || !strcmp(x->name, "every")) &&
        x->nargs == 1 && (x->args[0]->varray || (x->args[0]->vtype != SUQL_VT_BOOL &&
                                                 x->args[0]->vtype != SUQL_VT_UNKNOWN)))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "function %s(%s) does not exist: it reads booleans (write the condition, "
                             "%s(%s > 0))", x->name,
                             x->args[0]->varray ? "array" : pg_type(x->args[0]->vtype), x->name,
                             suql_an_label(a, x->args[0]));
    /* greatest(1, 'a') and NULLIF(n, 'none'): a literal takes the other
     * arguments' type, or is refused as PostgreSQL refuses it. */
    if (!strcmp(x->name, "greatest") || !strcmp(x->name, "least") || !strcmp(x->name, "nullif")) {
        suql_vtype typed;
        if ((rc = one_type_of(a, x->args, x->nargs, 1, !strcmp(x->name, "nullif") ? "NULLIF"
                                                       : !strcmp(x->name, "least") ? "LEAST" : "GREATEST",
                              &typed)))
            return rc;
        if (typed != SUQL_VT_UNKNOWN && !x->varray) x->vtype = typed;
    }
    if (!strcmp(x->name, "string_agg") && x->nargs == 2 && !x->args[0]->venum &&
        (x->args[0]->varray || (x->args[0]->vtype != SUQL_VT_TEXT && x->args[0]->vtype != SUQL_VT_UNKNOWN)))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "function string_agg(%s, text) does not exist: cast the value, "
                             "string_agg(%s::text, ...)",
                             x->args[0]->varray ? "array" : pg_type(x->args[0]->vtype),
                             suql_an_label(a, x->args[0]));
    /* round() and trunc() to N places are numeric's only. */
    if ((!strcmp(x->name, "round") || !strcmp(x->name, "trunc")) && x->nargs == 2 &&
        x->args[0]->vtype == SUQL_VT_REAL)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "function %s(double precision, integer) does not exist: cast %s to numeric "
                             "first, %s(%s::numeric, %s)", x->name, suql_an_label(a, x->args[0]), x->name,
                             suql_an_label(a, x->args[0]), suql_an_label(a, x->args[1]));
    return 0;
}

/* ARR (an array) compared with SC (a scalar): refused with the fix. */
static int array_vs_scalar(suql_an_ctx *a, const suql_expr *x, const suql_expr *arr, const suql_expr *sc)
{
    if (sc->kind == SUQL_E_NULL) return 0;
    const char *an = suql_an_label(a, arr);
    if (x->op == SUQL_OP_EQ || x->op == SUQL_OP_NE)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "%s is an array: write %s %s %s (%s)",
                             an, suql_an_label(a, sc), x->op == SUQL_OP_EQ ? "=" : "<>",
                             x->op == SUQL_OP_EQ ? "ANY" : "ALL", an);
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                         "%s is an array: compare its elements, e.g. %s %s ANY (%s)",
                         an, suql_an_label(a, sc), suql_op_text(x->op), an);
}

int suql_an_is_scalar(const suql_expr *x)
{
    return !x->varray && x->vtype != SUQL_VT_UNKNOWN && x->kind != SUQL_E_NULL;
}

static int compare(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc = suql_an_expr(a, sc, x->l);
    if (!rc) rc = suql_an_expr(a, sc, x->r);
    if (rc) return rc;
    if (x->l->varray && array_text(x->r) && (rc = array_literal(a, sc, x->r, x->l->vtype))) return rc;
    if (x->r->varray && array_text(x->l) && (rc = array_literal(a, sc, x->l, x->r->vtype))) return rc;
    x->vtype = SUQL_VT_BOOL;
    if (x->l->varray != x->r->varray)
        return x->l->varray ? array_vs_scalar(a, x, x->l, x->r) : array_vs_scalar(a, x, x->r, x->l);

    return suql_an_check_pair(a, x->pos, x->l, x->r, suql_op_text(x->op));
}

static int quantified(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    const char *q = x->kind == SUQL_E_ANY ? "ANY" : "ALL";
    int rc = suql_an_expr(a, sc, x->l);
    if (rc) return rc;
    x->vtype = SUQL_VT_BOOL;
    if (x->sub) return subquery_cols(a, sc, x->sub, 1, NULL);
    if ((rc = suql_an_expr(a, sc, x->r))) return rc;
    if (array_text(x->r) && (rc = array_literal(a, sc, x->r, x->l->vtype))) return rc;
    if (suql_an_is_scalar(x->r))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->r->pos,
                             "%s (%s) needs an array; %s is %s", q, suql_an_label(a, x->r),
                             suql_an_quoted(a, x->r), suql_an_vtype_name(x->r->vtype, 0));
    if (x->l->varray)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->l->pos,
                             "%s %s (...) compares one value with each element; '%s' is an array",
                             suql_op_text(x->op), q, suql_an_label(a, x->l));
    return 0;
}

static int array_op(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc = suql_an_expr(a, sc, x->l);
    if (!rc) rc = suql_an_expr(a, sc, x->r);
    if (rc) return rc;
    if (array_text(x->l) && (rc = array_literal(a, sc, x->l, x->r->vtype))) return rc;
    if (array_text(x->r) && (rc = array_literal(a, sc, x->r, x->l->vtype))) return rc;
    x->vtype = SUQL_VT_BOOL;
    const suql_expr *bad = suql_an_is_scalar(x->l) ? x->l : suql_an_is_scalar(x->r) ? x->r : NULL;
    if (bad)
        return suql_error_at(a->e, GN_EPARSE, a->q, bad->pos,
                             "%s compares two arrays; %s is %s (write ARRAY[%s])",
                             suql_op_text(x->op), suql_an_quoted(a, bad), suql_an_vtype_name(bad->vtype, 0),
                             suql_an_label(a, bad));
    return 0;
}

static int scalar_operands(suql_an_ctx *a, const suql_expr *x, suql_expr *const *v, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (v[i] && v[i]->varray)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "%s is an array: %s does not apply to arrays (compare its "
                                 "elements with ANY (%s))", suql_an_label(a, v[i]), what, suql_an_label(a, v[i]));
    return 0;
}

/* The type of L op R for numbers, dates, times and intervals, as
 * PostgreSQL's operators give it; UNKNOWN where one side is; -1 where
 * PostgreSQL has no such operator. */
static int arith_result(suql_op op, suql_vtype l, suql_vtype r)
{
    int add = op == SUQL_OP_ADD, sub = op == SUQL_OP_SUB, mul = op == SUQL_OP_MUL, div = op == SUQL_OP_DIV;
    if (op == SUQL_OP_CONCAT) return SUQL_VT_TEXT;
    if (l == SUQL_VT_UNKNOWN || r == SUQL_VT_UNKNOWN) return SUQL_VT_UNKNOWN;
    if (is_num(l) && is_num(r)) {
        if (l == SUQL_VT_REAL || r == SUQL_VT_REAL) return op == SUQL_OP_MOD ? -1 : SUQL_VT_REAL;
        if (l == SUQL_VT_NUMERIC || r == SUQL_VT_NUMERIC) return SUQL_VT_NUMERIC;
        return op == SUQL_OP_POW ? SUQL_VT_REAL : SUQL_VT_INT;
    }
    if (l == SUQL_VT_DATE && r == SUQL_VT_INT && (add || sub)) return SUQL_VT_DATE;
    if (l == SUQL_VT_INT && r == SUQL_VT_DATE && add) return SUQL_VT_DATE;
    if (l == SUQL_VT_DATE && r == SUQL_VT_DATE && sub) return SUQL_VT_INT;
    int lts = l == SUQL_VT_DATE || l == SUQL_VT_TIMESTAMP, rts = r == SUQL_VT_DATE || r == SUQL_VT_TIMESTAMP;
    if (lts && r == SUQL_VT_INTERVAL && (add || sub)) return SUQL_VT_TIMESTAMP;
    if (l == SUQL_VT_INTERVAL && rts && add) return SUQL_VT_TIMESTAMP;
    if (lts && rts && sub) return SUQL_VT_INTERVAL;
    if ((l == SUQL_VT_DATE && r == SUQL_VT_TIME) || (l == SUQL_VT_TIME && r == SUQL_VT_DATE))
        return add ? SUQL_VT_TIMESTAMP : -1;
    if (l == SUQL_VT_TIME && r == SUQL_VT_INTERVAL && (add || sub)) return SUQL_VT_TIME;
    if (l == SUQL_VT_INTERVAL && r == SUQL_VT_TIME && add) return SUQL_VT_TIME;
    if (l == SUQL_VT_TIME && r == SUQL_VT_TIME && sub) return SUQL_VT_INTERVAL;
    if (l == SUQL_VT_INTERVAL && r == SUQL_VT_INTERVAL && (add || sub)) return SUQL_VT_INTERVAL;
    if (l == SUQL_VT_INTERVAL && is_num(r) && (mul || div)) return SUQL_VT_INTERVAL;
    if (is_num(l) && r == SUQL_VT_INTERVAL && mul) return SUQL_VT_INTERVAL;
    return -1;
}

static int arith(suql_an_ctx *a, suql_expr *x)
{
    suql_expr *l = x->l, *r = x->r;
    if (x->op == SUQL_OP_CONCAT && !l->varray && !r->varray && l->kind != SUQL_E_STRING &&
        r->kind != SUQL_E_STRING && l->vtype != SUQL_VT_TEXT && r->vtype != SUQL_VT_TEXT &&
        l->vtype != SUQL_VT_UNKNOWN && r->vtype != SUQL_VT_UNKNOWN)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "operator does not exist: %s || %s",
                             pg_type(l->vtype), pg_type(r->vtype));
    if (l->kind == SUQL_E_NULL || r->kind == SUQL_E_NULL || x->op == SUQL_OP_CONCAT) {
        x->vtype = x->op == SUQL_OP_CONCAT ? SUQL_VT_TEXT : SUQL_VT_UNKNOWN;
        return 0;
    }
    /* An untyped literal takes the other side's type: '2' + 1 is 3;
     * date - '2026-01-01' is a date, time - '9:00' a time. */
    int rc;
    if (l->kind == SUQL_E_STRING && r->kind != SUQL_E_STRING && r->vtype != SUQL_VT_UNKNOWN) {
        /* 'text' + date is an interval added; '2026-01-01' - date a date. */
        suql_vtype t = (r->vtype == SUQL_VT_TIMESTAMP || r->vtype == SUQL_VT_DATE ||
                        r->vtype == SUQL_VT_TIME) && x->op == SUQL_OP_ADD ? SUQL_VT_INTERVAL : r->vtype;
        if ((rc = suql_an_literal_as(a, l, t))) return rc;
        l->vtype = t;
    } else if (r->kind == SUQL_E_STRING && l->kind != SUQL_E_STRING && l->vtype != SUQL_VT_UNKNOWN) {
        suql_vtype t = l->vtype;
        if ((t == SUQL_VT_DATE || t == SUQL_VT_TIMESTAMP || t == SUQL_VT_TIME) && x->op == SUQL_OP_ADD)
            t = SUQL_VT_INTERVAL;
        if ((rc = suql_an_literal_as(a, r, t))) return rc;
        r->vtype = t;
    }
    int t = arith_result(x->op, l->vtype, r->vtype);
    if (t < 0)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "operator does not exist: %s %s %s",
                             pg_type(l->vtype), suql_op_text(x->op), pg_type(r->vtype));
    x->vtype = (suql_vtype)t;
    return 0;
}

static const suql_vtype cast_types[SUQL_T__COUNT] = {
    [SUQL_T_INT] = SUQL_VT_INT, [SUQL_T_REAL] = SUQL_VT_REAL, [SUQL_T_NUMERIC] = SUQL_VT_NUMERIC,
    [SUQL_T_INTERVAL] = SUQL_VT_INTERVAL,
    [SUQL_T_TEXT] = SUQL_VT_TEXT, [SUQL_T_BOOL] = SUQL_VT_BOOL, [SUQL_T_DATE] = SUQL_VT_DATE,
    [SUQL_T_TIME] = SUQL_VT_TIME, [SUQL_T_TIMESTAMP] = SUQL_VT_TIMESTAMP,
};

/* The results of CASE or COALESCE, or the arguments of greatest, least
 * and NULLIF (V[0], V[STEP], ...), must have one type, as PostgreSQL
 * resolves them: an untyped literal reads as the typed values' type, and
 * text does not mix with numbers.  *TYPE (may be NULL) gets the type they
 * resolve to, the first typed value's ('7' in CASE ... THEN '7' ELSE
 * units_min is an integer), UNKNOWN when all are literals. */
static int one_type_of(suql_an_ctx *a, suql_expr **v, int n, int step, const char *what, suql_vtype *type)
{
    const suql_expr *typed = NULL;
    if (type) *type = SUQL_VT_UNKNOWN;
    for (int i = 0; i < n; i += step)
        if (v[i] && v[i]->kind != SUQL_E_STRING && v[i]->kind != SUQL_E_NULL && !v[i]->varray &&
            v[i]->vtype != SUQL_VT_UNKNOWN) {
            if (!typed) typed = v[i];
            else if (!comparable(typed->vtype, v[i]->vtype))
                return suql_error_at(a->e, GN_EPARSE, a->q, v[i]->pos, "%s types %s and %s cannot be matched",
                                     what, pg_type(typed->vtype), pg_type(v[i]->vtype));
        }
    if (typed && type) *type = typed->vtype;
    if (!typed || typed->vtype == SUQL_VT_TEXT) return 0;
    for (int i = 0; i < n; i += step) {
        int rc = v[i] && v[i]->kind == SUQL_E_STRING ? suql_an_literal_as(a, v[i], typed->vtype) : 0;
        if (rc) return rc;
    }
    return 0;
}

static suql_vtype first_known(suql_expr **v, int n, int step, int *array)
{
    for (int i = 0; i < n; i += step)
        if (v[i] && (v[i]->vtype != SUQL_VT_UNKNOWN || v[i]->varray)) {
            *array = v[i]->varray;
            return v[i]->vtype;
        }
    return SUQL_VT_UNKNOWN;
}

static int expr_more(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x);

/* ARRAY[...]::type[] (and '{...}'::type[]): each element cast to the
 * type, as PostgreSQL casts an array element by element
 * (ARRAY['3', '10']::int[] holds the integers 3 and 10); a literal that
 * is no such value is refused at its position. */
static int cast_elements(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    suql_expr *arr = x->l;
    if (x->vtype == SUQL_VT_UNKNOWN) return 0;
    for (int i = 0; i < arr->nargs; i++) {
        suql_expr *e = arr->args[i];
        if (e->kind == SUQL_E_NULL || e->varray || (e->vtype == x->vtype && !x->ntmod)) continue;
        /* An integer is a number of any kind already. */
        if ((x->vtype == SUQL_VT_REAL || x->vtype == SUQL_VT_NUMERIC) && !x->ntmod &&
            (e->vtype == SUQL_VT_INT || e->vtype == SUQL_VT_NUMERIC || e->vtype == SUQL_VT_REAL))
            continue;
        suql_expr *c = suql_expr_new(a->q, SUQL_E_CAST, e->pos);
        c->type = x->type;
        c->ntmod = x->ntmod;
        c->tmod[0] = x->tmod[0];
        c->tmod[1] = x->tmod[1];
        c->l = e;
        arr->args[i] = c;
        int rc = suql_an_expr(a, sc, c);
        if (rc) return rc;
    }
    arr->vtype = x->vtype;
    return 0;
}

/* The enum V[0], V[STEP], ... carry (the first that is one), as
 * PostgreSQL resolves CASE, COALESCE, greatest and least to the enum type
 * when one operand has it and the others are literals: NULL if none. */
static const st_column *enum_of(suql_expr *const *v, int n, int step)
{
    for (int i = 0; i < n; i += step)
        if (v[i] && v[i]->venum && !v[i]->varray) return v[i]->venum;
    return NULL;
}

int suql_an_expr(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    if (!x) return 0;
    int rc;
    x->vtype = SUQL_VT_UNKNOWN;
    x->varray = 0;
    x->venum = NULL;
    switch (x->kind) {
    case SUQL_E_COLUMN: return suql_an_column(a, sc, x, 0);
    case SUQL_E_STAR:
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                             "* is only allowed in the select list and in count(*)");
    case SUQL_E_STRING: x->vtype = SUQL_VT_TEXT; return 0;
    case SUQL_E_INT: x->vtype = SUQL_VT_INT; return 0;
    case SUQL_E_FLOAT:
        x->vtype = SUQL_VT_NUMERIC;
        /* Numbers are doubles here: past 1.8e308 there is none. */
        if (!isfinite(x->fval))
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "\"%s\" is out of range for type double precision",
                                 x->text ? x->text : "?");
        return 0;
    case SUQL_E_BOOL: x->vtype = SUQL_VT_BOOL; return 0;
    case SUQL_E_NULL: return 0;
    case SUQL_E_FUNC: return func_call(a, sc, x);
    case SUQL_E_ANSWER: case SUQL_E_SUMMARY: return freetext_call(a, sc, x);
    case SUQL_E_NEG:
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        x->vtype = x->l->vtype;
        return scalar_operands(a, x, &x->l, 1, "unary minus");
    case SUQL_E_NOT:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        return suql_an_boolean(a, x->l, "NOT");
    case SUQL_E_ARITH:
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = suql_an_expr(a, sc, x->r))) return rc;
        if ((rc = scalar_operands(a, x, (suql_expr *[]){ x->l, x->r }, 2, suql_op_text(x->op))))
            return rc;
        return arith(a, x);
    case SUQL_E_CMP: return compare(a, sc, x);
    case SUQL_E_ARRAYOP: return array_op(a, sc, x);
    default: return expr_more(a, sc, x);
    }
}

static int expr_more(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x)
{
    int rc;
    suql_vtype typed;
    switch (x->kind) {
    case SUQL_E_AND: case SUQL_E_OR:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = exprs(a, sc, x->args, x->nargs))) return rc;
        for (int i = 0; i < x->nargs; i++)
            if ((rc = suql_an_boolean(a, x->args[i], x->kind == SUQL_E_AND ? "AND" : "OR"))) return rc;
        return 0;
    case SUQL_E_IN: case SUQL_E_BETWEEN:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = exprs(a, sc, x->args, x->nargs))) return rc;
        if ((rc = scalar_operands(a, x, &x->l, 1, x->kind == SUQL_E_IN ? "IN" : "BETWEEN")))
            return rc;
        if ((rc = scalar_operands(a, x, x->args, x->nargs, x->kind == SUQL_E_IN ? "IN" : "BETWEEN")))
            return rc;
        for (int i = 0; i < x->nargs; i++)
            if ((rc = suql_an_check_pair(a, x->args[i]->pos, x->l, x->args[i], x->kind == SUQL_E_IN ? "=" : ">=")))
                return rc;
        return 0;
    case SUQL_E_IN_SELECT:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        if ((rc = scalar_operands(a, x, &x->l, 1, "IN"))) return rc;
        return subquery_cols(a, sc, x->sub, 1, NULL);
    case SUQL_E_LIKE:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = suql_an_expr(a, sc, x->r))) return rc;
        if ((rc = scalar_operands(a, x, (suql_expr *[]){ x->l, x->r }, 2, suql_op_text(x->op)))) return rc;
        /* LIKE reads text: PostgreSQL has no LIKE on numbers, times or
         * enums (an enum is compared with =). */
        for (int i = 0; i < 2; i++) {
            const suql_expr *y = i ? x->r : x->l;
            int is_enum = y->venum != NULL;
            if (y->kind != SUQL_E_STRING && (is_enum || (y->vtype != SUQL_VT_TEXT && y->vtype != SUQL_VT_UNKNOWN)))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "operator does not exist: %s %s text%s",
                                     is_enum ? "enum" : pg_type(y->vtype), suql_op_text(x->op),
                                     is_enum ? " (compare an enum with =, or cast it: x::text LIKE ...)" : "");
        }
        return 0;
    case SUQL_E_ISNULL:
        x->vtype = SUQL_VT_BOOL;
        return suql_an_expr(a, sc, x->l);
    case SUQL_E_ANY: case SUQL_E_ALL: return quantified(a, sc, x);
    case SUQL_E_ARRAY:
        if ((rc = exprs(a, sc, x->args, x->nargs))) return rc;
        x->varray = 1;
        for (int i = 0; i < x->nargs; i++)
            if (x->args[i]->vtype != SUQL_VT_UNKNOWN) {
                x->vtype = x->args[i]->vtype;
                break;
            }
        return 0;
    case SUQL_E_CAST:
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        if (x->array && x->l->kind == SUQL_E_STRING &&
            (rc = array_literal(a, sc, x->l, x->type < SUQL_T__COUNT ? cast_types[x->type] : SUQL_VT_UNKNOWN)))
            return rc;
        x->vtype = x->type < SUQL_T__COUNT ? cast_types[x->type] : SUQL_VT_UNKNOWN;
        x->varray = x->array;   /* arr::text is its JSON text, as lenient as PostgreSQL's */
        if (x->array && x->l->kind == SUQL_E_ARRAY && (rc = cast_elements(a, sc, x))) return rc;
        /* '3.7'::int fails here, at its position, as in PostgreSQL. */
        if (x->l->kind == SUQL_E_STRING && !x->array && x->vtype != SUQL_VT_TEXT)
            return suql_an_literal_as(a, x->l, x->vtype);
        return 0;
    case SUQL_E_CASE:
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = exprs(a, sc, x->args, x->nargs)) ||
            (rc = suql_an_expr(a, sc, x->r)))
            return rc;
        {
            /* The THEN results and the ELSE, side by side. */
            int n = x->nargs / 2 + (x->r != NULL);
            suql_expr **res = suql_array_new(a->q, n, sizeof *res);
            for (int i = 0; i < x->nargs / 2; i++) res[i] = x->args[2 * i + 1];
            if (x->r) res[n - 1] = x->r;
            if ((rc = one_type_of(a, res, n, 1, "CASE", &typed))) return rc;
        }
        x->vtype = x->nargs > 1 ? first_known(x->args + 1, x->nargs - 1, 2, &x->varray)
                                : SUQL_VT_UNKNOWN;
        if (typed != SUQL_VT_UNKNOWN && !x->varray) x->vtype = typed;
        if (x->vtype == SUQL_VT_UNKNOWN && !x->varray && x->r) {
            x->vtype = x->r->vtype;
            x->varray = x->r->varray;
        }
        x->venum = x->nargs > 1 ? enum_of(x->args + 1, x->nargs - 1, 2) : NULL;
        if (!x->venum && x->r && !x->r->varray) x->venum = x->r->venum;
        return 0;
    case SUQL_E_SUBQUERY: return subquery_cols(a, sc, x->sub, 1, x);
    case SUQL_E_EXISTS:
        x->vtype = SUQL_VT_BOOL;
        return subquery_cols(a, sc, x->sub, 0, NULL);
    case SUQL_E_COALESCE:
        if ((rc = exprs(a, sc, x->args, x->nargs))) return rc;
        if ((rc = one_type_of(a, x->args, x->nargs, 1, "COALESCE", &typed))) return rc;
        x->vtype = first_known(x->args, x->nargs, 1, &x->varray);
        if (typed != SUQL_VT_UNKNOWN && !x->varray) x->vtype = typed;
        x->venum = enum_of(x->args, x->nargs, 1);
        return 0;
    case SUQL_E_ISBOOL:
        x->vtype = SUQL_VT_BOOL;
        if ((rc = suql_an_expr(a, sc, x->l))) return rc;
        if (x->l->varray || (x->l->vtype != SUQL_VT_UNKNOWN && x->l->vtype != SUQL_VT_BOOL &&
                             x->l->kind != SUQL_E_STRING))
            return suql_error_at(a->e, GN_EPARSE, a->q, x->l->pos,
                                 "argument of IS %s must be type boolean, not type %s",
                                 x->ival > 0 ? "TRUE" : x->ival == 0 ? "FALSE" : "UNKNOWN",
                                 x->l->varray ? "array" : pg_type(x->l->vtype));
        if (x->l->kind == SUQL_E_STRING) return suql_an_literal_as(a, x->l, SUQL_VT_BOOL);
        return 0;
    case SUQL_E_SUBSCRIPT:
        if ((rc = suql_an_expr(a, sc, x->l)) || (rc = exprs(a, sc, x->args, x->nargs))) return rc;
        if (!x->l->varray)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "cannot subscript type %s because it does not support subscripting",
                                 pg_type(x->l->vtype));
        for (int i = 0; i < x->nargs; i++)
            if (x->args[i] && (x->args[i]->varray || (x->args[i]->vtype != SUQL_VT_INT &&
                                                      x->args[i]->vtype != SUQL_VT_UNKNOWN)))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->args[i]->pos,
                                     "array subscript must have type integer");
        x->vtype = x->l->vtype;
        x->varray = x->slice;
        /* An element of an enum array column. */
        if (!x->slice && x->l->kind == SUQL_E_COLUMN && x->l->rcol && x->l->rcol->is_array)
            x->venum = suql_an_enum_column(x->l->rcol);
        return 0;
    default:
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "unexpected expression (%s)",
                             suql_kind_name(x->kind));
    }
}

/* ---- aggregates ----------------------------------------------------- */

static const suql_expr *find_aggregate(const suql_expr *x)
{
    if (!x) return NULL;
    /* With OVER an aggregate is a window function; its arguments' own
     * aggregates still count. */
    if (x->kind == SUQL_E_FUNC && x->name && !x->over && suql_func_is_aggregate(x->name)) return x;
    const suql_expr *f;
    if ((f = find_aggregate(x->l)) || (f = find_aggregate(x->r))) return f;
    for (int i = 0; i < x->nargs; i++)
        if ((f = find_aggregate(x->args[i]))) return f;
    return NULL;   /* subqueries are their own aggregation level */
}

static int has_aggregate(const suql_expr *x)
{
    return find_aggregate(x) != NULL;
}

int suql_an_no_aggregate(suql_an_ctx *a, const suql_expr *x, const char *where)
{
    const suql_expr *f = find_aggregate(x);
    if (!f) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                         "aggregate functions are not allowed in %s (use HAVING, or a subquery)",
                         where);
}

/* ---- queries on the analyzed tree ----------------------------------- */

static int select_freetext(const suql_select *s);

static int from_freetext(const suql_from *f)
{
    if (!f) return 0;
    switch (f->kind) {
    case SUQL_FROM_SUBQUERY: return select_freetext(f->sub);
    case SUQL_FROM_FUNC: return suql_is_freetext(f->func);
    case SUQL_FROM_JOIN:
        return from_freetext(f->left) || from_freetext(f->right) || suql_is_freetext(f->on);
    default: return 0;
    }
}

static int list_freetext(suql_expr *const *v, int n)
{
    for (int i = 0; i < n; i++)
        if (suql_is_freetext(v[i])) return 1;
    return 0;
}

static int select_freetext(const suql_select *s)
{
    if (!s) return 0;
    for (int i = 0; i < s->nctes; i++)
        if (select_freetext(s->ctes[i].select)) return 1;
    for (int i = 0; i < s->ntargets; i++)
        if (suql_is_freetext(s->targets[i].expr)) return 1;
    for (int i = 0; i < s->nfrom; i++)
        if (from_freetext(s->from[i])) return 1;
    for (int i = 0; i < s->norder; i++)
        if (suql_is_freetext(s->order[i].expr)) return 1;
    for (int i = 0; i < s->nwindows; i++)
        if (suql_an_window_freetext(&s->windows[i])) return 1;
    if (select_freetext(s->larg) || select_freetext(s->rarg) ||
        list_freetext(s->distinct_on, s->ndistinct_on))
        return 1;
    return suql_is_freetext(s->where) || list_freetext(s->group, s->ngroup) ||
           suql_is_freetext(s->having) || suql_is_freetext(s->limit) ||
           suql_is_freetext(s->offset);
}

int suql_is_freetext(const suql_expr *x)
{
    if (!x) return 0;
    if (x->kind == SUQL_E_ANSWER || x->kind == SUQL_E_SUMMARY) return 1;
    if (suql_is_freetext(x->filter) || suql_an_window_freetext(x->over)) return 1;
    for (int i = 0; i < x->naorder; i++)
        if (suql_is_freetext(x->aorder[i].expr)) return 1;
    return suql_is_freetext(x->l) || suql_is_freetext(x->r) || list_freetext(x->args, x->nargs) ||
           select_freetext(x->sub);
}

const st_table *suql_single_table(const suql_select *s, const char **alias)
{
    if (!s || s->nfrom != 1 || s->from[0]->kind != SUQL_FROM_TABLE || !s->from[0]->rtab)
        return NULL;
    if (alias) *alias = s->from[0]->rname;
    return s->from[0]->rtab;
}

/* ---- output names --------------------------------------------------- */

static const char *expr_name(const suql_expr *x, int *strong)
{
    static const char *const cast_names[SUQL_T__COUNT] = {
        [SUQL_T_INT] = "int4", [SUQL_T_REAL] = "float8", [SUQL_T_NUMERIC] = "numeric",
        [SUQL_T_TEXT] = "text", [SUQL_T_BOOL] = "bool", [SUQL_T_DATE] = "date",
        [SUQL_T_TIME] = "time", [SUQL_T_TIMESTAMP] = "timestamp", [SUQL_T_INTERVAL] = "interval",
    };
    _Static_assert(SUQL_T__COUNT == 9, "a cast type needs its output name here");
    *strong = 1;
    switch (x->kind) {
    case SUQL_E_COLUMN: case SUQL_E_FUNC: return x->name ? x->name : "?column?";
    case SUQL_E_ANSWER: return "answer";
    case SUQL_E_SUMMARY: return "summary";
    case SUQL_E_CASE: return "case";
    case SUQL_E_COALESCE: return "coalesce";
    case SUQL_E_EXISTS: return "exists";
    case SUQL_E_ARRAY: return "array";
    case SUQL_E_STAR: return "*";
    case SUQL_E_BOOL: *strong = 0; return "bool";
    case SUQL_E_CAST: {
        const char *inner = expr_name(x->l, strong);
        if (*strong) return inner;
        *strong = 1;
        return x->type < SUQL_T__COUNT && cast_names[x->type] ? cast_names[x->type] : "?column?";
    }
    case SUQL_E_SUBQUERY:
        if (x->array) return "array";
        if (x->sub && x->sub->ntargets > 0) {
            const char *n = suql_target_name(&x->sub->targets[0]);
            if (strcmp(n, "*")) return n;
        }
        break;
    default: break;
    }
    *strong = 0;
    return "?column?";
}

const char *suql_target_name(const suql_target *t)
{
    if (t->alias) return t->alias;
    int strong;
    return expr_name(t->expr, &strong);
}

