/*
 * emit.c — SQLite SQL for an analyzed SUQL tree (emit.h): column
 * references, literals, comparisons, LIKE, casts and the other scalar
 * expressions; statements are in emit_select.c, arrays in emit_array.c,
 * functions in emit_func.c.  The semantics below hold for the module.
 *
 * Invariant: the text appended is built only from our own keywords, from
 * identifiers printed by suql_emit_ident (double-quoted, '"' doubled), from
 * literals re-quoted by suql_emit_string or printed from their numeric
 * values, and from allow-listed function names.  No byte of the query
 * text is copied through, so the result is always a single SELECT.
 *
 * Column references are always qualified with the name of their FROM
 * item (alias or table), so an unqualified name can never be captured by
 * an inner scope the emitter itself adds (json_each's value, key, id,
 * type and path columns).  Columns merged by JOIN USING or NATURAL are
 * spelled as PostgreSQL defines them: the left side's (INNER, LEFT), the
 * right side's (RIGHT), or coalesce(left, right) (FULL); NATURAL is
 * emitted as USING over the schema's common columns, so columns SQLite
 * has but the schema hides can never join.  SELECT * is expanded to the
 * schema's columns for the same reason.
 *
 * PostgreSQL semantics kept where SQLite differs:
 *   ORDER BY: NULLS LAST ascending, NULLS FIRST descending, always spelled
 *     out; an output name or position is emitted as its position (SQLite
 *     would resolve a bare name to an input column first in GROUP BY, and
 *     to a hidden column the schema does not show).
 *   Enums order by declaration: ORDER BY an enum value, and <, <=, >, >=
 *     between one and a literal of its values (or another), compare each
 *     value's place in the declared list (a CASE), not its text.  An enum
 *     value is a column of one, or an expression the analyzer carries the
 *     enum through (NULLIF, COALESCE, CASE, greatest, least, min, max, a
 *     window's value functions, a subquery's column).
 *   LIMIT NULL/ALL: LIMIT -1; OFFSET alone: LIMIT -1 OFFSET n.
 *   LIKE is case-sensitive: a literal pattern becomes GLOB (% -> *, _ -> ?,
 *     * ? [ bracketed, \ escapes honored); another pattern calls
 *     suql_like() (emit_func.c).  ILIKE lowers both sides as PostgreSQL
 *     does under a UTF-8 ctype (suql_lower, casemap.c: all of Unicode),
 *     then matches with SQLite's LIKE, with ESCAPE '\' when the pattern
 *     may contain PostgreSQL's default escape.
 *   Casts: ::int truncates in SQLite but rounds in PostgreSQL, so a REAL
 *     operand is rounded first; ::boolean reads PostgreSQL's spellings.
 *   TIME values compare through time(), so '14:00' (as stored) equals
 *     '14:00:00'; a string literal compared with a number or boolean is
 *     read as one (rating + 0 > '4' compares numbers, as PostgreSQL types
 *     an untyped literal by the other side).
 *   TRUE/FALSE are 1/0; GREATEST/LEAST ignore NULLs (emit_func.c).
 * Known differences left: division by zero gives NULL (PostgreSQL: an
 * error); a scalar subquery returning several rows gives its first
 * (PostgreSQL: an error).
 *
 * Rejected: emitting PostgreSQL text and rewriting it (no tree to check);
 * adding parentheses everywhere (unreadable --explain output); quoting
 * only where needed (SQLite keywords differ from PostgreSQL's).
 */
#include "store/kb.h"
#include "suql/emit_int.h"
#include "suql/analyze.h"
#include "suql/parse.h"
#include "suql/casemap.h"
#include "util/xmem.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- primitives ----------------------------------------------------- */

void suql_emit_string(const char *s, gn_buf *out)
{
    st_literal(out, s);
}

void suql_emit_ident(const char *s, gn_buf *b)
{
    st_ident(b, s);
}

int suql_em_fail(suql_emitter *m, int pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return suql_error_at(m->e, GN_EPARSE, m->q, pos, "%s", msg);
}

/* Put '(' at AT and ')' at the end. */
static void wrap(gn_buf *b, size_t at)
{
    gn_buf_putc(b, ')');
    gn_buf_putc(b, ')');
    memmove(b->data + at + 1, b->data + at, b->len - 2 - at);
    b->data[at] = '(';
}

static int form(suql_emitter *m, const suql_expr *x);

int suql_em_expr(suql_emitter *m, const suql_expr *x, int min)
{
    if (!x) return suql_em_fail(m, -1, "incomplete expression");
    size_t at = m->out->len;
    m->lvl = L_ATOM;
    int rc = form(m, x);
    if (rc) return rc;
    if (m->lvl < min) {
        wrap(m->out, at);
        m->lvl = L_ATOM;
    }
    return 0;
}

int suql_em_opnd(suql_emitter *m, suql_opnd o, int min)
{
    if (o.raw) {
        gn_buf_puts(m->out, o.raw);
        m->lvl = L_ATOM;
        return 0;
    }
    return suql_em_expr(m, o.x, min);
}

int suql_em_list(suql_emitter *m, suql_expr *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i) gn_buf_puts(m->out, ", ");
        int rc = suql_em_expr(m, v[i], L_NONE);
        if (rc) return rc;
    }
    m->lvl = L_ATOM;
    return 0;
}

/* ---- column references ---------------------------------------------- */

static int col_index(const suql_from *leaf, const char *name)
{
    for (int i = 0; i < leaf->nrcols; i++)
        if (!strcasecmp(leaf->rcols[i].name, name)) return i;
    return -1;
}

static int has_column(const suql_from *f, const char *name)
{
    if (f->kind != SUQL_FROM_JOIN) return col_index(f, name) >= 0;
    return has_column(f->left, name) || has_column(f->right, name);
}

static void leaf_column(gn_buf *b, const suql_from *f, int i)
{
    suql_emit_ident(f->rname, b);
    if (f->kind == SUQL_FROM_FUNC) {
        gn_buf_puts(b, ".value");
        return;
    }
    gn_buf_putc(b, '.');
    suql_emit_ident(i >= 0 && i < f->nrcols ? f->rcols[i].name : "?", b);
}

static void join_column(gn_buf *b, const suql_from *j, const char *name);

static void side_column(gn_buf *b, const suql_from *f, const char *name)
{
    if (f->kind != SUQL_FROM_JOIN) {
        leaf_column(b, f, col_index(f, name));
        return;
    }
    for (int i = 0; i < f->nrusing; i++)
        if (!strcasecmp(f->rusing[i], name)) {
            join_column(b, f, name);
            return;
        }
    side_column(b, has_column(f->left, name) ? f->left : f->right, name);
}

static void join_column(gn_buf *b, const suql_from *j, const char *name)
{
    if (j->join == SUQL_JOIN_RIGHT) {
        side_column(b, j->right, name);
    } else if (j->join == SUQL_JOIN_FULL) {
        gn_buf_puts(b, "coalesce(");
        side_column(b, j->left, name);
        gn_buf_puts(b, ", ");
        side_column(b, j->right, name);
        gn_buf_putc(b, ')');
    } else {
        side_column(b, j->left, name);
    }
}

void suql_em_item_column(gn_buf *b, const suql_from *f, int i, const suql_from *join)
{
    if (join) join_column(b, join, f->rcols[i].name);
    else leaf_column(b, f, i);
}

static int column(suql_emitter *m, const suql_expr *x)
{
    switch (x->rkind) {
    case SUQL_R_ALIAS:
        /* Its output position; in a SELECT a later pass rebuilt with
         * other targets, the expression it names. */
        if (m->sel && x->rindex >= 0 && x->rindex < m->sel->s->ntargets &&
            m->sel->s->targets[x->rindex].expr == x->rtarget) {
            gn_buf_printf(m->out, "%d", m->sel->tpos[x->rindex]);
            return 0;
        }
        if (!x->rtarget || x->rtarget == x)
            return suql_em_fail(m, x->pos, "'%s' names a select-list column outside its SELECT",
                                x->name);
        return suql_em_expr(m, x->rtarget, L_ATOM);
    case SUQL_R_NONE:
        if (x->qual) {
            suql_emit_ident(x->qual, m->out);
            gn_buf_putc(m->out, '.');
        }
        suql_emit_ident(x->name, m->out);
        return 0;
    default:
        if (x->rfrom && x->rindex >= 0 && x->rindex < x->rfrom->nrcols) {
            suql_em_item_column(m->out, x->rfrom, x->rindex, x->rjoin);
            return 0;
        }
        /* Built by a later pass with only rtab/rcol: as written. */
        if (x->qual) {
            suql_emit_ident(x->qual, m->out);
            gn_buf_putc(m->out, '.');
        }
        suql_emit_ident(x->name, m->out);
        return 0;
    }
}

/* ---- literals ------------------------------------------------------- */

/* A decimal number as PostgreSQL prints it: [-]digits[.digits][e[+-]digits]. */
static int number_text(const char *t)
{
    if (!t) return 0;
    if (*t == '-') t++;
    int digits = 0;
    while ((*t >= '0' && *t <= '9') || *t == '.') digits += *t++ != '.';
    if (!digits) return 0;
    if (*t == 'e' || *t == 'E') {
        t++;
        if (*t == '+' || *t == '-') t++;
        if (!(*t >= '0' && *t <= '9')) return 0;
        while (*t >= '0' && *t <= '9') t++;
    }
    return *t == 0;
}

static void number(suql_emitter *m, const suql_expr *x)
{
    if (x->kind == SUQL_E_INT) {
        gn_buf_printf(m->out, "%lld", x->ival);
        m->lvl = x->ival < 0 ? L_NEG : L_ATOM;
        return;
    }
    if (number_text(x->text))
        gn_buf_puts(m->out, x->text);
    else if (isfinite(x->fval))
        gn_buf_printf(m->out, "%.17g", x->fval);
    else
        gn_buf_puts(m->out, "NULL");
    m->lvl = x->fval < 0 || (x->text && x->text[0] == '-') ? L_NEG : L_ATOM;
}

/* ---- comparisons and LIKE ------------------------------------------- */

/* How a comparison reads its operands: as themselves, or through the
 * function that makes two spellings of one value compare equal ('9:30'
 * and '09:30:00'; '1 day' and '24:00:00' as intervals do). */
enum { CMP_PLAIN, CMP_TIME, CMP_DATE, CMP_TS, CMP_IV };

static int cmp_kind_of(suql_vtype t)
{
    switch (t) {
    case SUQL_VT_TIME: return CMP_TIME;
    case SUQL_VT_DATE: return CMP_DATE;
    case SUQL_VT_TIMESTAMP: return CMP_TS;
    case SUQL_VT_INTERVAL: return CMP_IV;
    default: return CMP_PLAIN;
    }
}

static int is_time(suql_opnd o)
{
    return o.x && !o.x->varray ? cmp_kind_of(o.x->vtype) : CMP_PLAIN;
}

/* The comparison kind of two or three operands: a timestamp beside a
 * date compares both as timestamps. */
static int cmp_kind(int a, int b)
{
    if (a == CMP_PLAIN) return b;
    if (b == CMP_PLAIN || a == b) return a;
    if ((a == CMP_DATE && b == CMP_TS) || (a == CMP_TS && b == CMP_DATE)) return CMP_TS;
    return a;
}

static suql_vtype opnd_type(suql_opnd o)
{
    return o.x && !o.x->varray ? o.x->vtype : SUQL_VT_UNKNOWN;
}

/* PostgreSQL's spellings of booleans: 1, 0, or -1 for none. */
static int bool_text(const char *s)
{
    static const char *const yes[] = { "true", "t", "yes", "y", "on", "1" };
    static const char *const no[] = { "false", "f", "no", "n", "off", "0" };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (!strcasecmp(s, yes[i])) return 1;
        if (!strcasecmp(s, no[i])) return 0;
    }
    return -1;
}

/* A string literal compared with a number or boolean is read as one, as
 * PostgreSQL types an untyped literal by the other side: rating > '4'
 * compares numbers even when rating is an expression SQLite gives no
 * numeric affinity. */
static int coerced_literal(suql_emitter *m, suql_opnd o, suql_vtype other);

int suql_em_typed(suql_emitter *m, const suql_expr *x, suql_vtype t)
{
    if (x->kind == SUQL_E_STRING && coerced_literal(m, (suql_opnd){ x, NULL }, t)) return 0;
    return suql_em_expr(m, x, L_NONE);
}

static int coerced_literal(suql_emitter *m, suql_opnd o, suql_vtype other)
{
    if (!o.x || o.x->kind != SUQL_E_STRING) return 0;
    if ((other == SUQL_VT_INT || other == SUQL_VT_REAL || other == SUQL_VT_NUMERIC) &&
        number_text(o.x->text)) {
        gn_buf_puts(m->out, o.x->text);
        m->lvl = o.x->text[0] == '-' ? L_NEG : L_ATOM;
        return 1;
    }
    int b = other == SUQL_VT_BOOL ? bool_text(o.x->text) : -1;
    if (b < 0) return 0;
    gn_buf_putc(m->out, b ? '1' : '0');
    m->lvl = L_ATOM;
    return 1;
}

/* A comparison operand (OTHER: the other side's type) read as KIND says:
 * times through suql_time() so that '14:00' and '14:00:00' compare
 * equal, dates and timestamps in their canonical text, intervals by
 * their length. */
static int cmp_operand(suql_emitter *m, suql_opnd o, int kind, suql_vtype other)
{
    static const char *const fn[] = {
        [CMP_TIME] = "suql_time(", [CMP_DATE] = "suql_date(", [CMP_TS] = "suql_timestamp(",
        [CMP_IV] = "suql_iv_key(",
    };
    if (coerced_literal(m, o, other)) return 0;
    if (kind == CMP_PLAIN || (o.x && o.x->kind == SUQL_E_NULL))
        return suql_em_opnd(m, o, L_ADD);
    /* A date column is stored canonical: only literals need reading; a
     * cast to the type is read already. */
    if (kind == CMP_DATE && o.x && o.x->kind != SUQL_E_STRING) return suql_em_opnd(m, o, L_ADD);
    if (kind != CMP_IV && o.x && o.x->kind == SUQL_E_CAST && !o.x->array && cmp_kind_of(o.x->vtype) == kind)
        return suql_em_opnd(m, o, L_ADD);
    gn_buf_puts(m->out, fn[kind]);
    int rc = suql_em_opnd(m, o, L_NONE);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

/* PostgreSQL LIKE pattern P (backslash escapes) as a GLOB pattern. */
static void glob_pattern(const char *p, gn_buf *out)
{
    for (; *p; p++) {
        char c = *p;
        if (c == '\\' && p[1]) {
            c = *++p;
        } else if (c == '%') {
            gn_buf_putc(out, '*');
            continue;
        } else if (c == '_') {
            gn_buf_putc(out, '?');
            continue;
        }
        if (c == '*' || c == '?' || c == '[') {
            gn_buf_putc(out, '[');
            gn_buf_putc(out, c);
            gn_buf_putc(out, ']');
        } else {
            gn_buf_putc(out, c);
        }
    }
}

static int is_bpchar(const suql_expr *x);

/* An operand of LIKE: a char(n) value with its padding (PostgreSQL's
 * bpchar LIKE sees the spaces). */
static int like_side(suql_emitter *m, suql_opnd x, int lvl)
{
    return x.x && is_bpchar(x.x) ? suql_em_padded(m, x.x) : suql_em_opnd(m, x, lvl);
}

/* X in lower case as PostgreSQL lowers it: a literal here, anything
 * else through suql_lower(). */
static int lowered(suql_emitter *m, suql_opnd x)
{
    if (x.x && x.x->kind == SUQL_E_STRING) {
        char *low;
        size_t n;
        if (suql_case_map(x.x->text, strlen(x.x->text), SUQL_CASE_LOWER, &low, &n))
            return suql_em_fail(m, x.x->pos, "out of memory");
        suql_emit_string(low, m->out);
        free(low);
        m->lvl = L_ATOM;
        return 0;
    }
    gn_buf_puts(m->out, "suql_lower(");
    int rc = like_side(m, x, L_NONE);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

static int like(suql_emitter *m, suql_op op, suql_opnd l, suql_opnd r)
{
    int neg = op == SUQL_OP_NOT_LIKE || op == SUQL_OP_NOT_ILIKE, rc;
    int literal = r.x && r.x->kind == SUQL_E_STRING;
    if ((op == SUQL_OP_LIKE || op == SUQL_OP_NOT_LIKE) && !literal) {
        gn_buf_puts(m->out, neg ? "NOT suql_like(" : "suql_like(");
        if ((rc = like_side(m, l, L_NONE))) return rc;
        gn_buf_puts(m->out, ", ");
        if ((rc = like_side(m, r, L_NONE))) return rc;
        gn_buf_putc(m->out, ')');
        m->lvl = neg ? L_NOT : L_ATOM;
        return 0;
    }
    if (op == SUQL_OP_LIKE || op == SUQL_OP_NOT_LIKE) {
        if ((rc = like_side(m, l, L_ADD))) return rc;
        gn_buf t;
        gn_buf_init(&t);
        glob_pattern(r.x->text, &t);
        gn_buf_puts(m->out, neg ? " NOT GLOB " : " GLOB ");
        suql_emit_string(t.data, m->out);
        gn_buf_release(&t);
        m->lvl = L_EQ;
        return 0;
    }
    /* ILIKE is PostgreSQL's: both sides lowered (all of Unicode, as under
     * a UTF-8 ctype), then matched; a literal pattern is lowered here. */
    if ((rc = lowered(m, l))) return rc;
    gn_buf_puts(m->out, neg ? " NOT LIKE " : " LIKE ");
    if ((rc = lowered(m, r))) return rc;
    if (!literal || strchr(r.x->text, '\\')) gn_buf_puts(m->out, " ESCAPE '\\'");
    m->lvl = L_EQ;
    return 0;
}

int suql_em_binop(suql_emitter *m, suql_op op, suql_opnd l, suql_opnd r)
{
    if (op >= SUQL_OP_LIKE && op <= SUQL_OP_NOT_ILIKE) return like(m, op, l, r);
    int time = cmp_kind(is_time(l), is_time(r));
    int rc = cmp_operand(m, l, time, opnd_type(r));
    if (rc) return rc;
    gn_buf_printf(m->out, " %s ", suql_op_text(op));
    if ((rc = cmp_operand(m, r, time, opnd_type(l)))) return rc;
    m->lvl = op == SUQL_OP_LT || op == SUQL_OP_LE || op == SUQL_OP_GT || op == SUQL_OP_GE ? L_REL : L_EQ;
    return 0;
}

static suql_opnd X(const suql_expr *x)
{
    return (suql_opnd){ x, NULL };
}

/* ---- enum order ----------------------------------------------------------- */

const struct st_column *suql_em_enum_col(const suql_expr *x)
{
    /* The analyzer carries the enum through expressions (ast.h's venum). */
    return x && !x->varray ? x->venum : NULL;
}

/* The place of TEXT among C's values, or -1. */
static int enum_place(const st_column *c, const char *text)
{
    for (int i = 0; i < c->nenum; i++)
        if (!strcmp(c->enum_vals[i], text)) return i;
    return -1;
}

int suql_em_enum_ordinal(suql_emitter *m, const suql_expr *x, const struct st_column *c)
{
    /* An output name stands for its expression here: inside CASE its
     * position would be a number. */
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) x = x->rtarget;
    gn_buf_puts(m->out, "CASE ");
    int rc = suql_em_expr(m, x, L_ADD);
    for (int i = 0; !rc && i < c->nenum; i++) {
        gn_buf_puts(m->out, " WHEN ");
        suql_emit_string(c->enum_vals[i], m->out);
        gn_buf_printf(m->out, " THEN %d", i);
    }
    gn_buf_puts(m->out, " END");
    m->lvl = L_ATOM;
    return rc;
}

/* One side of an ordering comparison with an enum: a column by its place
 * in the declared order, a literal of the enum by its place. */
static int enum_side(suql_emitter *m, const suql_expr *x, const st_column *c)
{
    if (suql_em_enum_col(x)) return suql_em_enum_ordinal(m, x, suql_em_enum_col(x));
    gn_buf_printf(m->out, "%d", enum_place(c, x->text));
    m->lvl = L_ATOM;
    return 0;
}

/* price > 'moderate' orders as PostgreSQL orders an enum: by declaration
 * (cheap < moderate < expensive < luxury), not as text.  1 when emitted,
 * 0 when X is no such comparison (a literal outside the enum compares
 * as text, as before), or a negative error code. */
static int enum_compare(suql_emitter *m, const suql_expr *x)
{
    if (x->op != SUQL_OP_LT && x->op != SUQL_OP_LE && x->op != SUQL_OP_GT && x->op != SUQL_OP_GE) return 0;
    const st_column *c = suql_em_enum_col(x->l) ? suql_em_enum_col(x->l) : suql_em_enum_col(x->r);
    if (!c) return 0;
    for (int i = 0; i < 2; i++) {
        const suql_expr *y = i ? x->r : x->l;
        if (suql_em_enum_col(y)) continue;
        if (y->kind != SUQL_E_STRING || enum_place(c, y->text) < 0) return 0;
    }
    int rc = enum_side(m, x->l, c);
    if (!rc) {
        gn_buf_printf(m->out, " %s ", suql_op_text(x->op));
        rc = enum_side(m, x->r, c);
    }
    m->lvl = L_REL;
    return rc ? -rc : 1;
}

int suql_em_array_key(suql_emitter *m, const suql_expr *x)
{
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS && x->rtarget) x = x->rtarget;
    const st_column *c = x->kind == SUQL_E_COLUMN ? x->rcol : NULL;
    gn_buf_puts(m->out, "suql_array_key(");
    int rc = suql_em_expr(m, x, L_NONE);
    if (c && c->is_array && c->type && !strcmp(c->type, "enum") && c->nenum) {
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_putc(&b, '[');
        for (int i = 0; i < c->nenum; i++) {
            if (i) gn_buf_putc(&b, ',');
            gn_buf_quoted(&b, '"', c->enum_vals[i]);
        }
        gn_buf_putc(&b, ']');
        gn_buf_puts(m->out, ", ");
        suql_emit_string(b.data, m->out);
        gn_buf_release(&b);
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

static int compare(suql_emitter *m, const suql_expr *x)
{
    if (x->l->varray && x->r->varray &&
        (x->op == SUQL_OP_LT || x->op == SUQL_OP_LE || x->op == SUQL_OP_GT || x->op == SUQL_OP_GE)) {
        /* Arrays order element by element. */
        int rc = suql_em_array_key(m, x->l);
        gn_buf_printf(m->out, " %s ", suql_op_text(x->op));
        if (!rc) rc = suql_em_array_key(m, x->r);
        m->lvl = L_REL;
        return rc;
    }
    if (x->l->varray && x->r->varray) {
        /* Arrays are equal when their (minified) JSON texts are. */
        int rc = suql_em_json(m, x->l);
        if (rc) return rc;
        gn_buf_printf(m->out, " %s ", suql_op_text(x->op));
        rc = suql_em_json(m, x->r);
        m->lvl = L_EQ;
        return rc;
    }
    int rc = enum_compare(m, x);
    if (rc) return rc > 0 ? 0 : -rc;
    rc = suql_em_mapped_cmp(m, x);
    if (rc) return rc > 0 ? 0 : -rc;
    /* A char(n) value compares without trailing spaces, and so does the
     * literal it is compared with ('ab'::char(4) = 'ab  '). */
    const suql_expr *lit = is_bpchar(x->l) ? x->r : is_bpchar(x->r) ? x->l : NULL;
    if (lit && lit->kind == SUQL_E_STRING && lit->text) {
        suql_expr trimmed = *lit;
        char *t = xstrdup(lit->text);
        for (size_t n = strlen(t); n && t[n - 1] == ' '; n--) t[n - 1] = 0;
        trimmed.text = t;
        rc = lit == x->r ? suql_em_binop(m, x->op, X(x->l), X(&trimmed))
                         : suql_em_binop(m, x->op, X(&trimmed), X(x->r));
        free(t);
        return rc;
    }
    return suql_em_binop(m, x->op, X(x->l), X(x->r));
}

static int between(suql_emitter *m, const suql_expr *x)
{
    if (x->nargs != 2) return suql_em_fail(m, x->pos, "malformed BETWEEN");
    const st_column *c = suql_em_enum_col(x->l);
    int ordinal = c != NULL;
    for (int i = 0; i < 2 && ordinal; i++) {
        const suql_expr *y = x->args[i];
        ordinal = suql_em_enum_col(y) ||
                  (y->kind == SUQL_E_STRING && enum_place(c, y->text) >= 0);
    }
    if (ordinal) {                              /* price BETWEEN 'cheap' AND 'moderate' */
        int rc = enum_side(m, x->l, c);
        gn_buf_puts(m->out, x->negated ? " NOT BETWEEN " : " BETWEEN ");
        if (!rc) rc = enum_side(m, x->args[0], c);
        gn_buf_puts(m->out, " AND ");
        if (!rc) rc = enum_side(m, x->args[1], c);
        m->lvl = L_EQ;
        return rc;
    }
    if (x->symmetric) {
        /* x BETWEEN SYMMETRIC a AND b: either order of the bounds. */
        suql_expr fwd = *x, rev = *x;
        suql_expr *swapped[2] = { x->args[1], x->args[0] };
        fwd.symmetric = rev.symmetric = 0;
        fwd.negated = rev.negated = 0;
        rev.args = swapped;
        gn_buf_puts(m->out, x->negated ? "NOT (" : "(");
        int rc = between(m, &fwd);
        gn_buf_puts(m->out, " OR ");
        if (!rc) rc = between(m, &rev);
        gn_buf_putc(m->out, ')');
        m->lvl = x->negated ? L_NOT : L_ATOM;
        return rc;
    }
    int time = cmp_kind(cmp_kind(is_time(X(x->l)), is_time(X(x->args[0]))), is_time(X(x->args[1])));
    suql_vtype t = opnd_type(X(x->l));
    int rc = cmp_operand(m, X(x->l), time, opnd_type(X(x->args[0])));
    if (rc) return rc;
    gn_buf_puts(m->out, x->negated ? " NOT BETWEEN " : " BETWEEN ");
    if ((rc = cmp_operand(m, X(x->args[0]), time, t))) return rc;
    gn_buf_puts(m->out, " AND ");
    if ((rc = cmp_operand(m, X(x->args[1]), time, t))) return rc;
    m->lvl = L_EQ;
    return 0;
}

static int in_list(suql_emitter *m, const suql_expr *x)
{
    int rc = suql_em_mapped_cmp(m, x);
    if (rc) return rc > 0 ? 0 : -rc;
    int time = is_time(X(x->l));
    suql_vtype t = opnd_type(X(x->l));
    if ((rc = cmp_operand(m, X(x->l), time, SUQL_VT_UNKNOWN))) return rc;
    gn_buf_puts(m->out, x->negated ? " NOT IN (" : " IN (");
    for (int i = 0; i < x->nargs; i++) {
        if (i) gn_buf_puts(m->out, ", ");
        if ((rc = cmp_operand(m, X(x->args[i]), time, t))) return rc;
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_EQ;
    return 0;
}

/* ---- other forms ---------------------------------------------------- */

/* Terms LO..HI-1 of AND or OR X.  SQLite nests a chain a OR b OR c ...
 * one level per term and refuses past its depth limit (200 here), where
 * PostgreSQL takes any length: a long chain is emitted as a balanced tree
 * of parenthesized halves, log2(n) deep. */
#define NARY_FLAT 32

static int nary_range(suql_emitter *m, const suql_expr *x, int lo, int hi, const char *sep)
{
    if (hi - lo > NARY_FLAT) {
        int mid = lo + (hi - lo) / 2;
        gn_buf_putc(m->out, '(');
        int rc = nary_range(m, x, lo, mid, sep);
        gn_buf_putc(m->out, ')');
        gn_buf_puts(m->out, sep);
        gn_buf_putc(m->out, '(');
        if (!rc) rc = nary_range(m, x, mid, hi, sep);
        gn_buf_putc(m->out, ')');
        return rc;
    }
    for (int i = lo; i < hi; i++) {
        if (i > lo) gn_buf_puts(m->out, sep);
        int rc = suql_em_expr(m, x->args[i], L_NOT);
        if (rc) return rc;
    }
    return 0;
}

static int nary(suql_emitter *m, const suql_expr *x, const char *sep, int lvl)
{
    int rc = nary_range(m, x, 0, x->nargs, sep);
    m->lvl = x->nargs > 1 ? lvl : L_ATOM;
    return rc;
}

int suql_em_text(suql_emitter *m, const suql_expr *x)
{
    int rc;
    if (x->varray) {
        gn_buf_puts(m->out, "suql_array_text(");
        rc = suql_em_expr(m, x, L_NONE);
        gn_buf_puts(m->out, x->vtype == SUQL_VT_BOOL ? ", 'bool')" : ")");
        m->lvl = L_ATOM;
        return rc;
    }
    if (x->vtype == SUQL_VT_INT && x->kind != SUQL_E_INT) {
        /* An integer's text sorts and prints as text. */
        gn_buf_puts(m->out, "CAST(");
        rc = suql_em_expr(m, x, L_NONE);
        gn_buf_puts(m->out, " AS TEXT)");
        m->lvl = L_ATOM;
        return rc;
    }
    if (x->kind == SUQL_E_INT) {
        suql_emit_string(x->text, m->out);
        m->lvl = L_ATOM;
        return 0;
    }
    if (x->vtype == SUQL_VT_TEXT || x->vtype == SUQL_VT_DATE ||
        x->vtype == SUQL_VT_TIMESTAMP || x->vtype == SUQL_VT_INTERVAL || x->kind == SUQL_E_NULL)
        return suql_em_expr(m, x, L_CAT);
    if (x->kind == SUQL_E_FLOAT) {           /* a numeric literal prints as written */
        suql_emit_string(x->text, m->out);
        m->lvl = L_ATOM;
        return 0;
    }
    if (x->vtype == SUQL_VT_BOOL) {
        gn_buf_puts(m->out, "CASE ");
        rc = suql_em_expr(m, x, L_NONE);
        gn_buf_puts(m->out, " WHEN 1 THEN 'true' WHEN 0 THEN 'false' END");
        m->lvl = L_ATOM;
        return rc;
    }
    gn_buf_puts(m->out, x->vtype == SUQL_VT_TIME ? "suql_time(" : "suql_text(");
    rc = suql_em_expr(m, x, L_NONE);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

/* Does X divide (/, %, mod()) anywhere outside its subqueries? */
static int divides(const suql_expr *x)
{
    if (!x) return 0;
    if ((x->kind == SUQL_E_ARITH && (x->op == SUQL_OP_DIV || x->op == SUQL_OP_MOD)) ||
        (x->kind == SUQL_E_FUNC && x->name && !strcmp(x->name, "mod")))
        return 1;
    if (divides(x->l) || divides(x->r)) return 1;
    for (int i = 0; i < x->nargs; i++)
        if (divides(x->args[i])) return 1;
    return 0;
}

int suql_em_divisor(suql_emitter *m, const suql_expr *x, const suql_expr *dividend)
{
    if ((x->kind == SUQL_E_INT && x->ival != 0) || (x->kind == SUQL_E_FLOAT && x->fval != 0))
        return suql_em_expr(m, x, L_MUL + 1);
    /* The dividend is emitted again for its NULL test (NULL / 0 is NULL),
     * but not when it divides itself: a / b / c / ... would double the
     * text at each division (a fuzzed query took 2 GB).  Such a dividend
     * that is NULL over a zero divisor is then the division's error. */
    if (divides(dividend)) dividend = NULL;
    gn_buf_puts(m->out, "suql_nz(");
    int rc = suql_em_expr(m, x, L_NONE);
    if (!rc && dividend) {
        gn_buf_puts(m->out, ", ");
        rc = suql_em_expr(m, dividend, L_NONE);
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

/* FN(A, B[, SIGN]) for date, time and interval arithmetic. */
static int dt_call(suql_emitter *m, const char *fn, const suql_expr *a, const suql_expr *b, int sign)
{
    gn_buf_printf(m->out, "%s(", fn);
    int rc = suql_em_expr(m, a, L_NONE);
    gn_buf_puts(m->out, ", ");
    if (!rc) rc = suql_em_expr(m, b, L_NONE);
    if (sign) gn_buf_printf(m->out, ", %d", sign);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

/* Date, time and interval arithmetic (analyze_expr.c typed it): 1 when
 * emitted, 0 when X is arithmetic on numbers, or a negative error. */
static int datetime_arith(suql_emitter *m, const suql_expr *x)
{
    suql_vtype l = x->l->vtype, r = x->r->vtype;
    int add = x->op == SUQL_OP_ADD, sign = add ? 1 : -1, rc;
    int lts = l == SUQL_VT_DATE || l == SUQL_VT_TIMESTAMP, rts = r == SUQL_VT_DATE || r == SUQL_VT_TIMESTAMP;
    if (l == SUQL_VT_DATE && r == SUQL_VT_INT) {
        gn_buf_puts(m->out, "suql_date_add(");
        rc = suql_em_expr(m, x->l, L_NONE);
        gn_buf_puts(m->out, add ? ", " : ", -");
        if (!rc) rc = suql_em_expr(m, x->r, add ? L_NONE : L_NEG);
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
    } else if (l == SUQL_VT_INT && r == SUQL_VT_DATE) {
        rc = dt_call(m, "suql_date_add", x->r, x->l, 0);
    } else if (l == SUQL_VT_DATE && r == SUQL_VT_DATE) {
        rc = dt_call(m, "suql_date_diff", x->l, x->r, 0);
    } else if (lts && r == SUQL_VT_INTERVAL) {
        rc = dt_call(m, "suql_ts_add", x->l, x->r, sign);
    } else if (l == SUQL_VT_INTERVAL && rts) {
        rc = dt_call(m, "suql_ts_add", x->r, x->l, 1);
    } else if (lts && rts) {
        rc = dt_call(m, "suql_ts_diff", x->l, x->r, 0);
    } else if ((l == SUQL_VT_DATE && r == SUQL_VT_TIME) || (l == SUQL_VT_TIME && r == SUQL_VT_DATE)) {
        const suql_expr *d = l == SUQL_VT_DATE ? x->l : x->r, *t = l == SUQL_VT_DATE ? x->r : x->l;
        gn_buf_puts(m->out, "suql_timestamp(");
        rc = suql_em_expr(m, d, L_CAT);
        gn_buf_puts(m->out, " || ' ' || ");
        if (!rc) rc = suql_em_expr(m, t, L_CAT);
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
    } else if (l == SUQL_VT_TIME && r == SUQL_VT_INTERVAL) {
        rc = dt_call(m, "suql_time_add", x->l, x->r, sign);
    } else if (l == SUQL_VT_INTERVAL && r == SUQL_VT_TIME) {
        rc = dt_call(m, "suql_time_add", x->r, x->l, 1);
    } else if (l == SUQL_VT_TIME && r == SUQL_VT_TIME) {
        rc = dt_call(m, "suql_time_diff", x->l, x->r, 0);
    } else if (l == SUQL_VT_INTERVAL && r == SUQL_VT_INTERVAL) {
        rc = dt_call(m, "suql_iv_add", x->l, x->r, sign);
    } else if (l == SUQL_VT_INTERVAL && x->op == SUQL_OP_MUL) {
        rc = dt_call(m, "suql_iv_mul", x->l, x->r, 0);
    } else if (r == SUQL_VT_INTERVAL && x->op == SUQL_OP_MUL) {
        rc = dt_call(m, "suql_iv_mul", x->r, x->l, 0);
    } else if (l == SUQL_VT_INTERVAL && x->op == SUQL_OP_DIV) {
        gn_buf_puts(m->out, "suql_iv_mul(");
        rc = suql_em_expr(m, x->l, L_NONE);
        gn_buf_puts(m->out, ", 1.0 / ");
        if (!rc) rc = suql_em_divisor(m, x->r, x->l);
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
    } else {
        return 0;
    }
    return rc ? -rc : 1;
}

static int arith(suql_emitter *m, const suql_expr *x)
{
    int rc = datetime_arith(m, x);
    if (rc) return rc > 0 ? 0 : -rc;
    if (x->op == SUQL_OP_POW) {
        gn_buf_puts(m->out, "suql_pow(");
        rc = suql_em_expr(m, x->l, L_NONE);
        gn_buf_puts(m->out, ", ");
        if (!rc) rc = suql_em_expr(m, x->r, L_NONE);
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
        return rc;
    }
    if (x->op == SUQL_OP_CONCAT) {
        if ((rc = suql_em_text(m, x->l))) return rc;
        gn_buf_puts(m->out, " || ");
        rc = suql_em_text(m, x->r);
        m->lvl = L_CAT;
        return rc;
    }
    if (x->op == SUQL_OP_MOD && x->vtype == SUQL_VT_NUMERIC) {
        /* SQLite's % truncates to integers; numeric % keeps the fraction. */
        gn_buf_puts(m->out, "suql_numeric(mod(");
        rc = suql_em_expr(m, x->l, L_NONE);
        gn_buf_puts(m->out, ", ");
        if (!rc) rc = suql_em_divisor(m, x->r, x->l);
        gn_buf_puts(m->out, "))");
        m->lvl = L_ATOM;
        return rc;
    }
    /* Numeric results are exact to 15 digits (pgval.h): 0.1 + 0.2 = 0.3.
     * A double's overflow is PostgreSQL's error, not Infinity. */
    int numeric = x->vtype == SUQL_VT_NUMERIC && x->op != SUQL_OP_DIV;
    int checked = !numeric && (x->vtype == SUQL_VT_REAL || x->vtype == SUQL_VT_NUMERIC);
    int lvl = x->op == SUQL_OP_ADD || x->op == SUQL_OP_SUB ? L_ADD : L_MUL;
    if (numeric) gn_buf_puts(m->out, "suql_numeric(");
    if (checked) gn_buf_puts(m->out, "suql_fcheck(");
    /* Each node is checked: an overflow below may not stay infinite on its
     * way up (inf - inf is NaN, which SQLite makes NULL; 1 / inf is 0). */
    rc = suql_em_expr(m, x->l, lvl);
    if (rc) return rc;
    gn_buf_printf(m->out, " %s ", suql_op_text(x->op));
    if (x->op == SUQL_OP_DIV || x->op == SUQL_OP_MOD) rc = suql_em_divisor(m, x->r, x->l);
    else rc = suql_em_expr(m, x->r, lvl + 1);
    if (rc) return rc;
    if (numeric || checked) gn_buf_putc(m->out, ')');
    m->lvl = numeric || checked ? L_ATOM : lvl;
    return 0;
}

static int is_bpchar(const suql_expr *x)
{
    if (x && x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) x = x->rtarget;
    return x && x->kind == SUQL_E_CAST && x->type == SUQL_T_TEXT && x->ntmod == 1 && x->tmod[1] == 1 &&
           !x->array;
}

int suql_em_shown(suql_emitter *m, const suql_expr *x)
{
    if (x->vtype == SUQL_VT_BOOL && !x->varray) {
        gn_buf_puts(m->out, "CASE ");
        int rc = suql_em_expr(m, x, L_NONE);
        gn_buf_puts(m->out, " WHEN 1 THEN 't' WHEN 0 THEN 'f' END");
        m->lvl = L_ATOM;
        return rc;
    }
    return x->vtype == SUQL_VT_TEXT && !x->varray ? suql_em_padded(m, x) : suql_em_text(m, x);
}

int suql_em_padded(suql_emitter *m, const suql_expr *x)
{
    if (!is_bpchar(x)) return suql_em_expr(m, x, L_NONE);
    if (x->kind == SUQL_E_COLUMN) x = x->rtarget;
    gn_buf_puts(m->out, "substr(");
    int rc = suql_em_expr(m, x, L_CAT);
    gn_buf_printf(m->out, " || printf('%%%ds', ''), 1, %d)", x->tmod[0], x->tmod[0]);
    m->lvl = L_ATOM;
    return rc;
}

/* FN(v) around V. */
static int wrap_call(suql_emitter *m, const char *fn, const suql_expr *v, const char *extra)
{
    gn_buf_printf(m->out, "%s(", fn);
    int rc = suql_em_expr(m, v, L_NONE);
    if (extra) gn_buf_puts(m->out, extra);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* A cast of free text (answer()::int) reads the LLM's reply leniently, as
 * SQLite's CAST does: "20 tables" is 20, never an error that loses the
 * query. */
static int lenient_cast(suql_emitter *m, const suql_expr *x)
{
    gn_buf *b = m->out;
    const suql_expr *v = x->l;
    int rc;
    switch (x->type) {
    case SUQL_T_INT:
        gn_buf_puts(b, "CAST(");
        rc = suql_em_expr(m, v, L_NONE);
        gn_buf_puts(b, " AS INTEGER)");
        return rc;
    case SUQL_T_REAL: case SUQL_T_NUMERIC:
        gn_buf_puts(b, "CAST(");
        rc = suql_em_expr(m, v, L_NONE);
        gn_buf_puts(b, " AS REAL)");
        return rc;
    case SUQL_T_BOOL:
        gn_buf_puts(b, "CASE lower(trim(");
        rc = suql_em_expr(m, v, L_NONE);
        gn_buf_puts(b, ")) WHEN 'true' THEN 1 WHEN 't' THEN 1 WHEN 'yes' THEN 1 WHEN 'y' THEN 1 "
                       "WHEN 'on' THEN 1 WHEN '1' THEN 1 WHEN 'false' THEN 0 WHEN 'f' THEN 0 "
                       "WHEN 'no' THEN 0 WHEN 'n' THEN 0 WHEN 'off' THEN 0 WHEN '0' THEN 0 END");
        return rc;
    case SUQL_T_DATE: return wrap_call(m, "date", v, NULL);
    case SUQL_T_TIME: return wrap_call(m, "time", v, NULL);
    case SUQL_T_TIMESTAMP: return wrap_call(m, "datetime", v, NULL);
    default: return suql_em_expr(m, v, L_ATOM);
    }
}

/* arr::type[]: an array's JSON, each element cast as PostgreSQL casts it
 * (ARRAY[...] literals are cast element by element by the analyzer); an
 * array of text stays as it is. */
static int array_cast(suql_emitter *m, const suql_expr *x)
{
    static const char *const conv[SUQL_T__COUNT] = {
        [SUQL_T_INT] = "suql_int(value)", [SUQL_T_REAL] = "suql_float(value)",
        [SUQL_T_NUMERIC] = "suql_float(value, 'numeric')", [SUQL_T_BOOL] = "suql_bool(value)",
        [SUQL_T_DATE] = "suql_date(value)", [SUQL_T_TIME] = "suql_time(value)",
        [SUQL_T_TIMESTAMP] = "suql_timestamp(value)", [SUQL_T_INTERVAL] = "suql_interval(value)",
    };
    const suql_expr *v = x->l;
    const char *c = x->type < SUQL_T__COUNT ? conv[x->type] : NULL;
    if (!c || v->kind == SUQL_E_ARRAY || v->vtype == x->vtype) return suql_em_expr(m, v, L_ATOM);
    gn_buf_puts(m->out, "(SELECT CASE WHEN \"_a\".\"j\" IS NULL THEN NULL ELSE (SELECT json_group_array(");
    gn_buf_puts(m->out, c);
    gn_buf_puts(m->out, ") FROM (SELECT value FROM json_each(\"_a\".\"j\") ORDER BY key)) END FROM (SELECT ");
    int rc = suql_em_expr(m, v, L_NONE);
    gn_buf_puts(m->out, " AS \"j\") AS \"_a\")");
    m->lvl = L_ATOM;
    return rc;
}

/* PostgreSQL's casts: a double to an integer rounds half to even, a
 * numeric half away from zero; text is read strictly (an error for
 * '3.7'::int); a number becomes the text PostgreSQL prints. */
static int cast(suql_emitter *m, const suql_expr *x)
{
    gn_buf *b = m->out;
    const suql_expr *v = x->l;
    suql_vtype t = v->vtype;
    int rc;
    if (x->array) return array_cast(m, x);
    if (suql_is_freetext(v) && x->type != SUQL_T_TEXT) {
        rc = lenient_cast(m, x);
        m->lvl = L_ATOM;
        return rc;
    }
    switch (x->type) {
    case SUQL_T_INT:
        if (t == SUQL_VT_INT) return suql_em_expr(m, v, L_ATOM);
        if (t == SUQL_VT_NUMERIC) rc = wrap_call(m, "CAST(round", v, ") AS INTEGER");
        else if (t == SUQL_VT_BOOL) rc = wrap_call(m, "CAST", v, " AS INTEGER");
        else rc = wrap_call(m, "suql_int", v, NULL);
        break;
    case SUQL_T_REAL: case SUQL_T_NUMERIC: {
        int num = x->type == SUQL_T_NUMERIC;
        if (num && x->ntmod) gn_buf_puts(b, "suql_numeric_mod(");
        if (t == SUQL_VT_INT || t == SUQL_VT_REAL || t == SUQL_VT_NUMERIC) {
            gn_buf_puts(b, "CAST(");
            rc = suql_em_expr(m, v, L_NONE);
            gn_buf_puts(b, " AS REAL)");
        } else {
            rc = wrap_call(m, "suql_float", v, num ? ", 'numeric'" : NULL);
        }
        if (num && x->ntmod) gn_buf_printf(b, ", %d, %d)", x->tmod[0], x->ntmod == 2 ? x->tmod[1] : 0);
        break;
    }
    case SUQL_T_TEXT:
        if (x->ntmod == 1) {
            /* varchar(n) cuts to n characters.  char(n) does too, and its
             * trailing spaces do not count (PostgreSQL's bpchar compares,
             * measures and concatenates without them): its value here is
             * unpadded, and it is padded to n where it is shown and in
             * LIKE (suql_em_padded). */
            if (x->tmod[1] == 1) gn_buf_puts(b, "rtrim(");
            gn_buf_puts(b, "substr(");
            rc = suql_em_text(m, v);
            gn_buf_printf(b, ", 1, %d)", x->tmod[0]);
            if (x->tmod[1] == 1) gn_buf_puts(b, ", ' ')");
            break;
        }
        return suql_em_text(m, v);
    case SUQL_T_BOOL:
        if (t == SUQL_VT_BOOL) return suql_em_expr(m, v, L_ATOM);
        if (t == SUQL_VT_INT) {
            gn_buf_puts(b, "(");
            rc = suql_em_expr(m, v, L_ADD);
            gn_buf_puts(b, " <> 0)");
            break;
        }
        rc = wrap_call(m, "suql_bool", v, NULL);
        break;
    case SUQL_T_DATE: rc = wrap_call(m, "suql_date", v, NULL); break;
    case SUQL_T_TIME: rc = wrap_call(m, "suql_time", v, NULL); break;
    case SUQL_T_TIMESTAMP: rc = wrap_call(m, "suql_timestamp", v, NULL); break;
    case SUQL_T_INTERVAL: rc = wrap_call(m, "suql_interval", v, NULL); break;
    default: rc = suql_em_expr(m, v, L_ATOM); break;
    }
    m->lvl = L_ATOM;
    return rc;
}

/* x IS [NOT] TRUE / FALSE / UNKNOWN. */
static int isbool(suql_emitter *m, const suql_expr *x)
{
    int rc = 0;
    if (!(x->l->kind == SUQL_E_STRING && coerced_literal(m, X(x->l), SUQL_VT_BOOL)))
        rc = suql_em_expr(m, x->l, L_ADD);
    gn_buf_printf(m->out, " IS %s%s", x->negated ? "NOT " : "",
                  x->ival > 0 ? "1" : x->ival == 0 ? "0" : "NULL");
    m->lvl = L_EQ;
    return rc;
}

/* arr[i] (1-based; NULL outside) and arr[a:b] (the elements between, an
 * array; NULL for a NULL array). */
static int subscript(suql_emitter *m, const suql_expr *x)
{
    const suql_expr *i = x->args[0];
    int rc;
    if (!x->slice) {
        if (i->kind == SUQL_E_INT) {
            if (i->ival < 1) {
                gn_buf_puts(m->out, "NULL");
                m->lvl = L_ATOM;
                return 0;
            }
            gn_buf_puts(m->out, "json_extract(");
            rc = suql_em_expr(m, x->l, L_NONE);
            gn_buf_printf(m->out, ", '$[%lld]')", i->ival - 1);
            m->lvl = L_ATOM;
            return rc;
        }
        gn_buf_puts(m->out, "CASE WHEN ");
        rc = suql_em_expr(m, i, L_REL);
        gn_buf_puts(m->out, " >= 1 THEN json_extract(");
        if (!rc) rc = suql_em_expr(m, x->l, L_NONE);
        gn_buf_puts(m->out, ", '$[' || (");
        if (!rc) rc = suql_em_expr(m, i, L_ADD);
        gn_buf_puts(m->out, " - 1) || ']') END");
        m->lvl = L_ATOM;
        return rc;
    }
    gn_buf_puts(m->out, "CASE WHEN ");
    rc = suql_em_expr(m, x->l, L_ADD);
    gn_buf_puts(m->out, " IS NOT NULL THEN (SELECT json_group_array(value) FROM (SELECT value FROM json_each(");
    if (!rc) rc = suql_em_expr(m, x->l, L_NONE);
    gn_buf_puts(m->out, ") WHERE 1");
    if (!rc && x->args[0]) {
        gn_buf_puts(m->out, " AND key + 1 >= ");
        rc = suql_em_expr(m, x->args[0], L_ADD);
    }
    if (!rc && x->nargs > 1 && x->args[1]) {
        gn_buf_puts(m->out, " AND key + 1 <= ");
        rc = suql_em_expr(m, x->args[1], L_ADD);
    }
    gn_buf_puts(m->out, " ORDER BY key)) END");
    m->lvl = L_ATOM;
    return rc;
}

static int case_(suql_emitter *m, const suql_expr *x)
{
    gn_buf_puts(m->out, "CASE");
    int rc = 0;
    if (x->l) {
        gn_buf_putc(m->out, ' ');
        if ((rc = suql_em_expr(m, x->l, L_NONE))) return rc;
    }
    for (int i = 0; i + 1 < x->nargs; i += 2) {
        gn_buf_puts(m->out, " WHEN ");
        if ((rc = suql_em_expr(m, x->args[i], L_NONE))) return rc;
        gn_buf_puts(m->out, " THEN ");
        if ((rc = suql_em_typed(m, x->args[i + 1], x->vtype))) return rc;
    }
    if (x->r) {
        gn_buf_puts(m->out, " ELSE ");
        if ((rc = suql_em_typed(m, x->r, x->vtype))) return rc;
    }
    gn_buf_puts(m->out, " END");
    m->lvl = L_ATOM;
    return 0;
}

static int subselect(suql_emitter *m, const char *before, const suql_select *s)
{
    gn_buf_puts(m->out, before);
    gn_buf_putc(m->out, '(');
    int rc = suql_em_select(m, s, NULL, 0);
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

/* Whether S returns at most one row whatever the data: an aggregate
 * without GROUP BY, or LIMIT 0 or 1. */
static int at_most_one_row(const suql_select *s)
{
    if (s->limit && s->limit->kind == SUQL_E_INT && s->limit->ival <= 1) return 1;
    if (s->op != SUQL_SET_NONE || s->ngroup || s->nfrom == 0) return s->nfrom == 0 && s->op == SUQL_SET_NONE;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        if (t->kind == SUQL_E_FUNC && t->name && !t->over && suql_func_is_aggregate(t->name)) return 1;
    }
    return 0;
}

/* ARRAY(sub): the subquery's rows as a JSON array, in its order (SQLite
 * keeps a FROM subquery's ORDER BY for an aggregate over it alone), '[]'
 * for none, NULLs as null; text stays a string, a number a number.  (The
 * analyzer refuses a column of arrays.) */
static int array_subquery(suql_emitter *m, const suql_expr *x)
{
    static const char *const v[] = { "_v" };
    gn_buf_puts(m->out, "(SELECT json_group_array(\"_v\") FROM (");
    int rc = suql_em_select(m, x->sub, v, 1);
    gn_buf_puts(m->out, "))");
    m->lvl = L_ATOM;
    return rc;
}

/* A scalar subquery: SQLite would take its first row; a second row is
 * PostgreSQL's error, so suql_single (pgval.c) sees them all. */
static int scalar_subquery(suql_emitter *m, const suql_select *s)
{
    if (at_most_one_row(s)) return subselect(m, "", s);
    static const char *const v[] = { "_v" };
    gn_buf_puts(m->out, "(SELECT suql_single(\"_v\") FROM (");
    int rc = suql_em_select(m, s, v, 1);
    gn_buf_puts(m->out, "))");
    m->lvl = L_ATOM;
    return rc;
}

static int freetext(suql_emitter *m, const suql_expr *x)
{
    m->lvl = L_ATOM;
    if (m->h->freetext) {
        int rc = m->h->freetext(x, m->h->ud, m->out, m->e);
        m->lvl = L_ATOM;
        return rc;
    }
    if (x->nargs < 1) return suql_em_fail(m, x->pos, "malformed answer() or summary()");
    gn_buf_puts(m->out, x->kind == SUQL_E_ANSWER ? "suql_answer(" : "suql_summary(");
    int rc = suql_em_expr(m, x->args[0], L_NONE);
    if (!rc && x->kind == SUQL_E_ANSWER && x->nargs > 1) {
        gn_buf_puts(m->out, ", ");
        rc = suql_em_expr(m, x->args[1], L_NONE);
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return rc;
}

static int form_more(suql_emitter *m, const suql_expr *x)
{
    int rc;
    switch (x->kind) {
    case SUQL_E_IN: return in_list(m, x);
    case SUQL_E_IN_SELECT:
        if ((rc = suql_em_expr(m, x->l, L_ADD))) return rc;
        rc = subselect(m, x->negated ? " NOT IN " : " IN ", x->sub);
        m->lvl = L_EQ;
        return rc;
    case SUQL_E_BETWEEN: return between(m, x);
    case SUQL_E_LIKE: return suql_em_binop(m, x->op, X(x->l), X(x->r));
    case SUQL_E_ISNULL:
        if ((rc = suql_em_expr(m, x->l, L_ADD))) return rc;
        gn_buf_puts(m->out, x->negated ? " IS NOT NULL" : " IS NULL");
        m->lvl = L_EQ;
        return 0;
    case SUQL_E_ANY: case SUQL_E_ALL: return suql_em_quantified(m, x);
    case SUQL_E_ARRAY: return suql_em_json(m, x);
    case SUQL_E_CAST: return cast(m, x);
    case SUQL_E_CASE: return case_(m, x);
    case SUQL_E_SUBQUERY: return x->array ? array_subquery(m, x) : scalar_subquery(m, x->sub);
    case SUQL_E_EXISTS: return subselect(m, "EXISTS ", x->sub);
    case SUQL_E_ISBOOL: return isbool(m, x);
    case SUQL_E_SUBSCRIPT: return subscript(m, x);
    case SUQL_E_COALESCE:
        if (x->nargs == 1) return suql_em_expr(m, x->args[0], L_ATOM);
        gn_buf_puts(m->out, "coalesce(");
        rc = 0;
        for (int i = 0; i < x->nargs && !rc; i++) {
            if (i) gn_buf_puts(m->out, ", ");
            rc = suql_em_typed(m, x->args[i], x->vtype);
        }
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
        return rc;
    case SUQL_E_STAR:
        return suql_em_fail(m, x->pos, "* is only allowed in the select list");
    default:
        return suql_em_fail(m, x->pos, "cannot compile %s", suql_kind_name(x->kind));
    }
}

static int form(suql_emitter *m, const suql_expr *x)
{
    int rc;
    switch (x->kind) {
    case SUQL_E_COLUMN: return column(m, x);
    case SUQL_E_STRING: suql_emit_string(x->text, m->out); return 0;
    case SUQL_E_INT: case SUQL_E_FLOAT: number(m, x); return 0;
    case SUQL_E_BOOL: gn_buf_puts(m->out, x->ival ? "1" : "0"); return 0;
    case SUQL_E_NULL: gn_buf_puts(m->out, "NULL"); return 0;
    case SUQL_E_FUNC: return suql_em_func(m, x);
    case SUQL_E_ANSWER: case SUQL_E_SUMMARY: return freetext(m, x);
    case SUQL_E_NEG:
        if (x->l->vtype == SUQL_VT_INTERVAL && !x->l->varray) {
            /* -interval '1 hour' is an interval, each part negated. */
            gn_buf_puts(m->out, "suql_iv_mul(");
            rc = suql_em_expr(m, x->l, L_NONE);
            gn_buf_puts(m->out, ", -1)");
            m->lvl = L_ATOM;
            return rc;
        }
        gn_buf_putc(m->out, '-');
        rc = suql_em_expr(m, x->l, L_ATOM);
        m->lvl = L_NEG;
        return rc;
    case SUQL_E_NOT:
        gn_buf_puts(m->out, "NOT ");
        rc = suql_em_expr(m, x->l, L_ADD);
        m->lvl = L_NOT;
        return rc;
    case SUQL_E_ARITH: return arith(m, x);
    case SUQL_E_CMP: return compare(m, x);
    case SUQL_E_ARRAYOP: return suql_em_arrayop(m, x);
    case SUQL_E_AND: return nary(m, x, " AND ", L_AND);
    case SUQL_E_OR: return nary(m, x, " OR ", L_OR);
    default: return form_more(m, x);
    }
}
