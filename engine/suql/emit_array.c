/*
 * emit_array.c — PostgreSQL arrays on SQLite JSON arrays (emit.h): = ANY,
 * <> ALL and the other quantified comparisons, @>, <@, &&, ARRAY[...],
 * and the literals the map_literal hook widens (col = 'coffee' ->
 * col IN ('coffee & tea', 'cafe')).
 *
 * Forms, with arr a JSON array value and v the left operand:
 *   v op ANY (arr)       EXISTS (SELECT 1 FROM json_each(arr) WHERE v op value)
 *   v op ALL (arr)       arr IS NOT NULL AND NOT EXISTS (... WHERE v op' value)
 *                        (op' the negated operator when v is a literal, else
 *                        (v op value) IS NOT 1, so a NULL v fails; the NULL
 *                        test only when arr is a column, so it costs no
 *                        second evaluation)
 *   v = ANY (ARRAY[..])  v IN (...); other operators: an OR (AND for ALL)
 *                        of comparisons when v is a column or literal
 *   v op ANY (SELECT ..) v IN (SELECT ..), v NOT IN for <> ALL, else
 *                        EXISTS (SELECT 1 FROM (SELECT .. AS "_v") AS "_q"
 *                        WHERE v op "_q"."_v"); ALL: NOT EXISTS (...
 *                        WHERE (v op "_q"."_v") IS NOT 1)
 *   arr @> ARRAY[a, b]   (SELECT count(DISTINCT value) FROM json_each(arr)
 *                        WHERE value IN (a, b)) = 2, the literals
 *                        deduplicated (one: a plain EXISTS); with mapped or
 *                        computed elements, one EXISTS per element
 *   arr <@ ARRAY[...]    arr IS NOT NULL AND NOT EXISTS (SELECT 1 FROM
 *                        json_each(arr) WHERE value NOT IN (...))
 *   arr && ARRAY[...]    EXISTS (SELECT 1 FROM json_each(arr) WHERE value IN (...))
 *   arr = ARRAY[...]     json(arr) = json_array(...)
 * A mapped literal that stands for no value makes its test false (for
 * the positive forms) without evaluating anything else.
 *
 * NULL semantics: PostgreSQL gives NULL for a quantified comparison or
 * array operator over a NULL array; these forms give false (0) for ANY,
 * @> and && — the same rows in WHERE, HAVING and ON, a different result
 * only under NOT or as a selected value.  The forms whose "empty array"
 * reading would be true (ALL, <@) test for NULL first, so a NULL array
 * never passes them.  col = 'lit' mapped to no value gives NULL for a NULL
 * col and false otherwise, exactly PostgreSQL's col = 'lit'.
 *
 * Side tables: an array column of a knowledge-base table whose elements
 * the store keeps in an indexed side table (store/kb.h, st_column.side)
 * is tested for v op ANY (col), col && ARRAY[...] and col @> ARRAY[...]
 * as `_id IN (SELECT row FROM side WHERE value ...)` (for @> with several
 * values, grouped by row with HAVING count(DISTINCT value) = n), an index
 * lookup instead of parsing every row's JSON; the forms that need the
 * whole array (ALL, <@, =) keep json_each.
 *
 * Rejected: LIKE against the JSON text ('%"thai"%': wrong for values
 * holding quotes or escapes).
 */
#include "store/kb.h"
#include "suql/emit_int.h"
#include "util/xmem.h"

#include <string.h>

/* ---- value sets ----------------------------------------------------- */

void suql_valset_init(suql_valset *v)
{
    memset(v, 0, sizeof *v);
    gn_buf_init(&v->sql);
}

void suql_valset_release(suql_valset *v)
{
    gn_buf_release(&v->sql);
    for (int i = 0; i < v->n; i++) free(v->items[i]);
    free(v->items);
    free(v->slot);
    memset(v, 0, sizeof *v);
}

static unsigned hash_sql(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot of SQL in V's table: where it is, or the empty one it goes to. */
static int *find_slot(const suql_valset *v, const char *sql)
{
    unsigned mask = (unsigned)v->nslot - 1;
    for (unsigned i = hash_sql(sql) & mask;; i = (i + 1) & mask)
        if (!v->slot[i] || !strcmp(v->items[v->slot[i] - 1], sql)) return &v->slot[i];
}

static int valset_has(const suql_valset *v, const char *sql)
{
    return v->nslot && *find_slot(v, sql);
}

void suql_valset_add(suql_valset *v, const char *sql)
{
    if (valset_has(v, sql)) return;
    if (2 * (v->n + 1) >= v->nslot) {           /* grow: every item again */
        free(v->slot);
        v->nslot = v->nslot ? v->nslot * 2 : 16;
        v->slot = xcalloc((size_t)v->nslot, sizeof *v->slot);
        for (int i = 0; i < v->n; i++) *find_slot(v, v->items[i]) = i + 1;
    }
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->items = xrealloc(v->items, (size_t)v->cap * sizeof *v->items);
    }
    v->items[v->n++] = xstrdup(sql);
    *find_slot(v, sql) = v->n;
    if (v->sql.len) gn_buf_puts(&v->sql, ", ");
    gn_buf_puts(&v->sql, sql);
}

/* The SQL of X into a fresh buffer B (the caller releases it). */
static int sql_of(suql_emitter *m, const suql_expr *x, gn_buf *b)
{
    gn_buf_init(b);
    gn_buf *saved = m->out;
    m->out = b;
    int rc = suql_em_expr(m, x, L_NONE);
    m->out = saved;
    return rc;
}

/* C when literals compared with it go through map_literal, else NULL. */
static const suql_expr *map_col(const suql_emitter *m, const suql_expr *c)
{
    if (!m->h->map_literal || !c || c->kind != SUQL_E_COLUMN) return NULL;
    /* Only text has a vocabulary: a time or number compares as itself. */
    if (c->vtype != SUQL_VT_TEXT && c->vtype != SUQL_VT_UNKNOWN) return NULL;
    return c->rkind == SUQL_R_BASE || c->rkind == SUQL_R_DERIVED || c->rkind == SUQL_R_UNNEST ? c : NULL;
}

/* ARRAY[...] itself, also under a cast to an array type (ARRAY[]::text[]). */
static const suql_expr *ctor(const suql_expr *x)
{
    while (x->kind == SUQL_E_CAST && x->array) x = x->l;
    return x;
}

static int is_literal(const suql_expr *x)
{
    return x->kind == SUQL_E_STRING || x->kind == SUQL_E_INT || x->kind == SUQL_E_FLOAT;
}

/* Add to VS what element X stands for when compared with COL: the mapped
 * values (*mapped set), or X's own SQL.  0 or a positive GN code. */
static int element_values(suql_emitter *m, const suql_expr *col, const suql_expr *x,
                          suql_valset *vs, int *mapped)
{
    if (col && x->kind == SUQL_E_STRING) {
        const char *const *vals = NULL;
        int n = 0;
        int r = m->h->map_literal(col, x->text, m->h->ud, &vals, &n, m->e);
        if (r < 0) return -r;
        if (r > 0) {
            *mapped = 1;
            for (int i = 0; i < n; i++) {
                gn_buf b;
                gn_buf_init(&b);
                suql_emit_string(vals[i], &b);
                suql_valset_add(vs, b.data);
                gn_buf_release(&b);
            }
            return 0;
        }
    }
    gn_buf b;
    int rc = sql_of(m, x, &b);
    if (!rc) suql_valset_add(vs, b.data);
    gn_buf_release(&b);
    return rc;
}

/* ---- JSON values ---------------------------------------------------- */

int suql_em_json(suql_emitter *m, const suql_expr *x)
{
    int rc;
    if (x->kind != SUQL_E_ARRAY) {
        /* Minified, so that equal arrays have equal texts. */
        gn_buf_puts(m->out, "json(");
        rc = suql_em_expr(m, x, L_NONE);
        gn_buf_putc(m->out, ')');
        m->lvl = L_ATOM;
        return rc;
    }
    gn_buf_puts(m->out, "json_array(");
    for (int i = 0; i < x->nargs; i++) {
        if (i) gn_buf_puts(m->out, ", ");
        rc = x->args[i]->varray ? suql_em_json(m, x->args[i]) : suql_em_expr(m, x->args[i], L_NONE);
        if (rc) return rc;
    }
    gn_buf_putc(m->out, ')');
    m->lvl = L_ATOM;
    return 0;
}

/* json_each(<arr>): a column or computed array as it is, ARRAY[] as JSON. */
static int json_each(suql_emitter *m, const suql_expr *arr)
{
    gn_buf_puts(m->out, "json_each(");
    int rc = arr->kind == SUQL_E_ARRAY ? suql_em_json(m, arr) : suql_em_expr(m, arr, L_NONE);
    gn_buf_putc(m->out, ')');
    return rc;
}

/* "<arr> IS NOT NULL AND " when ARR is a column (cheap to test twice). */
static int null_guard(suql_emitter *m, const suql_expr *arr)
{
    if (arr->kind != SUQL_E_COLUMN) return 0;
    int rc = suql_em_expr(m, arr, L_ADD);
    gn_buf_puts(m->out, " IS NOT NULL AND ");
    return rc;
}

/* For an array column of a knowledge-base table that has a side table of
 * its elements (store/kb.h): the side table's name in SIDE and the SQL of
 * the row's _id in ID (initialized here; release it).  0 when there is no
 * side table. */
static int side_of(suql_emitter *m, const suql_expr *arr, char *side, size_t n, gn_buf *id)
{
    if (arr->kind != SUQL_E_COLUMN || arr->rkind != SUQL_R_BASE || !arr->rcol || !arr->rtab ||
        !arr->rcol->side || !arr->rfrom)
        return 0;
    gn_buf col;
    if (sql_of(m, arr, &col) || !col.data) {
        gn_buf_release(&col);
        return 0;
    }
    /* "q"."col" -> "q"."_id" */
    char *dot = strstr(col.data, "\".\"");
    if (!dot) {
        gn_buf_release(&col);
        return 0;
    }
    gn_buf_init(id);
    gn_buf_add(id, col.data, (size_t)(dot - col.data) + 2);
    gn_buf_puts(id, "\"_id\"");
    gn_buf_release(&col);
    st_side_table(arr->rtab->name, arr->rcol->name, side, n);
    return 1;
}

/* `ID IN (SELECT "row" FROM side` when ARR has a side table (1), else
 * nothing (0). */
static int side_open(suql_emitter *m, const suql_expr *arr)
{
    char side[300];
    gn_buf id;
    if (!side_of(m, arr, side, sizeof side, &id)) return 0;
    gn_buf_printf(m->out, "%s IN (SELECT \"row\" FROM ", id.data);
    gn_buf_release(&id);
    suql_emit_ident(side, m->out);
    return 1;
}

/* The opening of "some element of ARR is in ...": side_open's, or else
 * `EXISTS (SELECT 1 FROM json_each(ARR)`; the caller adds " WHERE value
 * ..." and the ")", then sets m->lvl to *LVL (an IN binds like =, an
 * EXISTS is an atom). */
static int some_element(suql_emitter *m, const suql_expr *arr, int *lvl)
{
    *lvl = L_EQ;
    if (side_open(m, arr)) return 0;
    gn_buf_puts(m->out, "EXISTS (SELECT 1 FROM ");
    *lvl = L_ATOM;
    return json_each(m, arr);
}

/* "ARR holds all N values of VALS" (N >= 2, distinct): through the side
 * table a group per row, else a count over json_each. */
static int all_elements(suql_emitter *m, const suql_expr *arr, const char *vals, int n)
{
    int rc = 0;
    if (side_open(m, arr)) {
        gn_buf_printf(m->out, " WHERE value IN (%s) GROUP BY \"row\" HAVING count(DISTINCT value) = %d)",
                      vals, n);
    } else {
        gn_buf_puts(m->out, "(SELECT count(DISTINCT value) FROM ");
        rc = json_each(m, arr);
        gn_buf_printf(m->out, " WHERE value IN (%s)) = %d", vals, n);
    }
    m->lvl = L_EQ;
    return rc;
}

/* ---- col = 'lit', col IN (...) through map_literal ------------------- */

/* The test of a mapped comparison that matches no value: PostgreSQL's
 * col = 'lit' for a literal no row holds (NULL when col is NULL). */
static int no_value(suql_emitter *m, const suql_expr *col, int negated)
{
    gn_buf_puts(m->out, "CASE WHEN ");
    int rc = suql_em_expr(m, col, L_ADD);
    gn_buf_printf(m->out, " IS NULL THEN NULL ELSE %d END", negated);
    m->lvl = L_ATOM;
    return rc;
}

static int in_values(suql_emitter *m, const suql_expr *col, suql_valset *vs, int negated)
{
    if (vs->n == 0) return no_value(m, col, negated);
    int rc = suql_em_expr(m, col, L_ADD);
    if (rc) return rc;
    if (vs->n == 1) {
        gn_buf_printf(m->out, " %s %s", negated ? "<>" : "=", vs->sql.data);
    } else {
        gn_buf_puts(m->out, negated ? " NOT IN (" : " IN (");
        gn_buf_puts(m->out, vs->sql.data);
        gn_buf_putc(m->out, ')');
    }
    m->lvl = L_EQ;
    return 0;
}

int suql_em_mapped_cmp(suql_emitter *m, const suql_expr *x)
{
    const suql_expr *col, *lit = NULL;
    suql_expr *const *items;
    int nitems, negated;
    if (x->kind == SUQL_E_CMP) {
        if (x->op != SUQL_OP_EQ && x->op != SUQL_OP_NE) return 0;
        int left = x->r->kind == SUQL_E_STRING;
        col = map_col(m, left ? x->l : x->r);
        lit = left ? x->r : x->l;
        if (!col || col->varray || lit->kind != SUQL_E_STRING) return 0;
        items = (suql_expr *const *)&lit;
        nitems = 1;
        negated = x->op == SUQL_OP_NE;
    } else {
        col = map_col(m, x->l);
        if (!col || col->varray) return 0;
        int strings = 0;
        for (int i = 0; i < x->nargs; i++) strings += x->args[i]->kind == SUQL_E_STRING;
        if (!strings) return 0;
        items = x->args;
        nitems = x->nargs;
        negated = x->negated;
    }
    suql_valset vs;
    suql_valset_init(&vs);
    int mapped = 0, rc = 0;
    for (int i = 0; i < nitems && !rc; i++) rc = element_values(m, col, items[i], &vs, &mapped);
    if (!rc && mapped) rc = in_values(m, col, &vs, negated);
    else if (!rc) {
        /* Nothing mapped: the plain form, without asking the hook again. */
        rc = suql_em_expr(m, col, L_ADD);
        gn_buf_printf(m->out, x->kind == SUQL_E_CMP ? " %s %s" : " %s (%s)",
                      x->kind == SUQL_E_CMP ? suql_op_text(x->op) : negated ? "NOT IN" : "IN",
                      vs.sql.data);
        m->lvl = L_EQ;
    }
    suql_valset_release(&vs);
    return rc ? -rc : 1;
}

/* ---- quantified comparisons ----------------------------------------- */

static suql_op negate(suql_op op)
{
    switch (op) {
    case SUQL_OP_EQ: return SUQL_OP_NE;
    case SUQL_OP_NE: return SUQL_OP_EQ;
    case SUQL_OP_LT: return SUQL_OP_GE;
    case SUQL_OP_GE: return SUQL_OP_LT;
    case SUQL_OP_LE: return SUQL_OP_GT;
    case SUQL_OP_GT: return SUQL_OP_LE;
    case SUQL_OP_LIKE: return SUQL_OP_NOT_LIKE;
    case SUQL_OP_NOT_LIKE: return SUQL_OP_LIKE;
    case SUQL_OP_ILIKE: return SUQL_OP_NOT_ILIKE;
    case SUQL_OP_NOT_ILIKE: return SUQL_OP_ILIKE;
    default: return op;
    }
}

static suql_opnd X(const suql_expr *x)
{
    return (suql_opnd){ x, NULL };
}

static suql_opnd RAW(const char *sql)
{
    return (suql_opnd){ NULL, sql };
}

/* V op element, with json_each's value (or RAW) as the element. */
static int element_test(suql_emitter *m, suql_op op, const suql_expr *v, const char *elem)
{
    if (op == SUQL_OP_EQ || op == SUQL_OP_NE) return suql_em_binop(m, op, RAW(elem), X(v));
    return suql_em_binop(m, op, X(v), RAW(elem));
}

/* The test an ALL form looks for a counterexample with: the negated
 * operator when V is a literal (the stored elements are never NULL), else
 * "(V op element) IS NOT 1", so that a NULL comparison also fails ALL, as
 * it does in PostgreSQL (there NULL, here false: the same rows). */
static int all_counterexample(suql_emitter *m, suql_op op, const suql_expr *v, const char *elem,
                              int values_nullable)
{
    if (!values_nullable && (v->kind == SUQL_E_STRING || v->kind == SUQL_E_INT ||
                             v->kind == SUQL_E_FLOAT))
        return element_test(m, negate(op), v, elem);
    gn_buf_putc(m->out, '(');
    int rc = element_test(m, op, v, elem);
    gn_buf_puts(m->out, ") IS NOT 1");
    m->lvl = L_EQ;
    return rc;
}

static int over_subquery(suql_emitter *m, const suql_expr *x, int all)
{
    int rc;
    if ((!all && x->op == SUQL_OP_EQ) || (all && x->op == SUQL_OP_NE)) {
        if ((rc = suql_em_expr(m, x->l, L_ADD))) return rc;
        gn_buf_puts(m->out, all ? " NOT IN (" : " IN (");
        rc = suql_em_select(m, x->sub, NULL, 0);
        gn_buf_putc(m->out, ')');
        m->lvl = L_EQ;
        return rc;
    }
    static const char *const v[] = { "_v" };
    gn_buf_puts(m->out, all ? "NOT EXISTS (SELECT 1 FROM (" : "EXISTS (SELECT 1 FROM (");
    if ((rc = suql_em_select(m, x->sub, v, 1))) return rc;
    gn_buf_puts(m->out, ") AS \"_q\" WHERE ");
    rc = all ? all_counterexample(m, x->op, x->l, "\"_q\".\"_v\"", 1)
             : element_test(m, x->op, x->l, "\"_q\".\"_v\"");
    if (rc) return rc;
    gn_buf_putc(m->out, ')');
    m->lvl = all ? L_NOT : L_ATOM;
    return 0;
}

static int simple(const suql_expr *x)
{
    return x->kind == SUQL_E_COLUMN || is_literal(x) || x->kind == SUQL_E_NULL;
}

/* v op ANY/ALL (ARRAY[...]): IN lists and chains of comparisons; -1 when
 * the json_each form suits better (nothing appended). */
static int over_constructor(suql_emitter *m, const suql_expr *x, const suql_expr *arr, int all)
{
    if (arr->nargs == 0) {
        gn_buf_puts(m->out, all ? "1" : "0");
        return 0;
    }
    if ((!all && x->op == SUQL_OP_EQ) || (all && x->op == SUQL_OP_NE)) {
        suql_expr in = *x;
        in.kind = SUQL_E_IN;
        in.args = arr->args;
        in.nargs = arr->nargs;
        in.negated = all;
        in.r = NULL;
        return suql_em_expr(m, &in, L_NONE);
    }
    if (!simple(x->l)) return -1;   /* the json_each form evaluates v once */
    /* Each test binds tighter than AND and OR: no parentheses needed. */
    for (int i = 0; i < arr->nargs; i++) {
        if (i) gn_buf_puts(m->out, all ? " AND " : " OR ");
        int rc = suql_em_binop(m, x->op, X(x->l), X(arr->args[i]));
        if (rc) return rc;
    }
    if (arr->nargs > 1) m->lvl = all ? L_AND : L_OR;
    return 0;
}

/* v op ANY/ALL (arr) for an array column or computed array. */
static int over_json(suql_emitter *m, const suql_expr *x, int all)
{
    const suql_expr *arr = x->r, *col = map_col(m, arr);
    suql_op op = all ? negate(x->op) : x->op;
    int rc = 0, guarded = all && arr->kind == SUQL_E_COLUMN;
    suql_valset vs;
    suql_valset_init(&vs);
    int mapped = 0;
    if (col && x->l->kind == SUQL_E_STRING && (op == SUQL_OP_EQ || op == SUQL_OP_NE))
        rc = element_values(m, col, x->l, &vs, &mapped);
    if (rc) goto out;
    /* An empty IN set: value IN () is false, value NOT IN () true. */
    if (mapped && vs.n == 0 && op == SUQL_OP_EQ) {
        if (guarded) {
            rc = suql_em_expr(m, arr, L_ADD);
            gn_buf_puts(m->out, " IS NOT NULL");
            m->lvl = L_EQ;
        } else {
            gn_buf_puts(m->out, all ? "1" : "0");
        }
        goto out;
    }
    if (guarded && (rc = null_guard(m, arr))) goto out;
    int lvl = L_NOT;
    if (!all) {
        if ((rc = some_element(m, arr, &lvl))) goto out;
    } else {
        gn_buf_puts(m->out, "NOT EXISTS (SELECT 1 FROM ");
        if ((rc = json_each(m, arr))) goto out;
    }
    if (mapped && vs.n > 0) {
        gn_buf_printf(m->out, " WHERE value %s", op == SUQL_OP_NE ? "NOT IN (" : "IN (");
        gn_buf_puts(m->out, vs.sql.data);
        gn_buf_putc(m->out, ')');
    } else if (!mapped) {
        gn_buf_puts(m->out, " WHERE ");
        rc = all ? all_counterexample(m, x->op, x->l, "value", 0) : element_test(m, op, x->l, "value");
        if (rc) goto out;
    }
    gn_buf_putc(m->out, ')');
    m->lvl = guarded ? L_AND : lvl;
out:
    suql_valset_release(&vs);
    return rc;
}

int suql_em_quantified(suql_emitter *m, const suql_expr *x)
{
    int all = x->kind == SUQL_E_ALL;
    if (x->sub) return over_subquery(m, x, all);
    if (!x->r) return suql_em_fail(m, x->pos, "malformed ANY/ALL");
    if (ctor(x->r)->kind == SUQL_E_ARRAY) {
        size_t at = m->out->len;
        int rc = over_constructor(m, x, ctor(x->r), all);
        if (rc >= 0) return rc;
        m->out->len = at;
        m->out->data[at] = 0;
    }
    return over_json(m, x, all);
}

/* ---- @> <@ && ------------------------------------------------------- */

/* The elements of constructor ARR, as compared with COL (may be NULL). */
static int constructor_values(suql_emitter *m, const suql_expr *col, const suql_expr *arr,
                              suql_valset *vs)
{
    int mapped = 0, rc = 0;
    for (int i = 0; i < arr->nargs && !rc; i++) rc = element_values(m, col, arr->args[i], vs, &mapped);
    return rc;
}

/* BIG @> ARRAY[...]: every element present. */
static int contains_list(suql_emitter *m, const suql_expr *big, const suql_expr *small)
{
    const suql_expr *col = map_col(m, big);
    int literals = 1, rc = 0;
    for (int i = 0; i < small->nargs; i++) literals &= is_literal(small->args[i]) && !col;
    if (small->nargs == 0) {
        if ((rc = suql_em_expr(m, big, L_ADD))) return rc;
        gn_buf_puts(m->out, " IS NOT NULL");
        m->lvl = L_EQ;
        return 0;
    }
    suql_valset vs;
    suql_valset_init(&vs);
    if (literals) {
        if ((rc = constructor_values(m, NULL, small, &vs))) goto out;
        if (vs.n > 1) {
            rc = all_elements(m, big, vs.sql.data, vs.n);
            goto out;
        }
        int lvl;
        if ((rc = some_element(m, big, &lvl))) goto out;
        gn_buf_printf(m->out, " WHERE value = %s)", vs.sql.data);
        m->lvl = lvl;
        goto out;
    }
    /* One EXISTS per element: each may stand for several values. */
    gn_buf conj;
    gn_buf_init(&conj);
    int parts = 0, none = 0, lvl = L_ATOM;
    for (int i = 0; i < small->nargs && !rc && !none; i++) {
        suql_valset one;
        suql_valset_init(&one);
        int mapped = 0;
        rc = element_values(m, col, small->args[i], &one, &mapped);
        if (!rc && one.n == 0) none = 1;
        if (!rc && one.n > 0 && !valset_has(&vs, one.sql.data)) {
            suql_valset_add(&vs, one.sql.data);
            gn_buf *saved = m->out;
            m->out = &conj;
            if (parts++) gn_buf_puts(&conj, " AND ");
            rc = some_element(m, big, &lvl);
            gn_buf_printf(&conj, one.n == 1 ? " WHERE value = %s)" : " WHERE value IN (%s))",
                          one.sql.data);
            m->out = saved;
        }
        suql_valset_release(&one);
    }
    if (!rc) {
        gn_buf_puts(m->out, none ? "0" : conj.data);
        m->lvl = none ? L_ATOM : parts == 1 ? lvl : L_AND;
    }
    gn_buf_release(&conj);
out:
    suql_valset_release(&vs);
    return rc;
}

/* SMALL <@ ARRAY[...] (BIG): no element of SMALL outside the list. */
static int contained_in_list(suql_emitter *m, const suql_expr *small, const suql_expr *big)
{
    suql_valset vs;
    suql_valset_init(&vs);
    int rc = constructor_values(m, map_col(m, small), big, &vs);
    if (!rc) rc = null_guard(m, small);
    if (!rc) {
        gn_buf_puts(m->out, "NOT EXISTS (SELECT 1 FROM ");
        rc = json_each(m, small);
    }
    if (!rc && vs.n > 0) gn_buf_printf(m->out, " WHERE value NOT IN (%s)", vs.sql.data);
    gn_buf_putc(m->out, ')');
    m->lvl = small->kind == SUQL_E_COLUMN ? L_AND : L_NOT;
    suql_valset_release(&vs);
    return rc;
}

static int contains(suql_emitter *m, const suql_expr *big, const suql_expr *small)
{
    if (small->kind == SUQL_E_ARRAY) return contains_list(m, big, small);
    if (big->kind == SUQL_E_ARRAY) return contained_in_list(m, small, big);
    int rc = null_guard(m, small);
    if (!rc) rc = null_guard(m, big);
    if (!rc) {
        gn_buf_puts(m->out, "NOT EXISTS (SELECT 1 FROM ");
        rc = json_each(m, small);
    }
    if (!rc) {
        gn_buf_puts(m->out, " WHERE value NOT IN (SELECT value FROM ");
        rc = json_each(m, big);
        gn_buf_puts(m->out, "))");
    }
    m->lvl = small->kind == SUQL_E_COLUMN || big->kind == SUQL_E_COLUMN ? L_AND : L_NOT;
    return rc;
}

static int overlap(suql_emitter *m, const suql_expr *a, const suql_expr *b)
{
    if (a->kind == SUQL_E_ARRAY && b->kind != SUQL_E_ARRAY) {
        const suql_expr *t = a;
        a = b;
        b = t;
    }
    int rc;
    if (b->kind != SUQL_E_ARRAY) {
        gn_buf_puts(m->out, "EXISTS (SELECT 1 FROM ");
        if ((rc = json_each(m, a))) return rc;
        gn_buf_puts(m->out, " WHERE value IN (SELECT value FROM ");
        rc = json_each(m, b);
        gn_buf_puts(m->out, "))");
        m->lvl = L_ATOM;
        return rc;
    }
    suql_valset vs;
    suql_valset_init(&vs);
    rc = constructor_values(m, map_col(m, a), b, &vs);
    int lvl = L_ATOM;
    if (!rc && vs.n == 0) {
        gn_buf_puts(m->out, "0");
    } else if (!rc) {
        rc = some_element(m, a, &lvl);
        gn_buf_printf(m->out, vs.n == 1 ? " WHERE value = %s)" : " WHERE value IN (%s))",
                      vs.sql.data);
    }
    m->lvl = lvl;
    suql_valset_release(&vs);
    return rc;
}

int suql_em_arrayop(suql_emitter *m, const suql_expr *x)
{
    const suql_expr *l = ctor(x->l), *r = ctor(x->r);
    switch (x->op) {
    case SUQL_OP_CONTAINS: return contains(m, l, r);
    case SUQL_OP_CONTAINED: return contains(m, r, l);
    case SUQL_OP_OVERLAP: return overlap(m, l, r);
    default: return suql_em_fail(m, x->pos, "unknown array operator");
    }
}
