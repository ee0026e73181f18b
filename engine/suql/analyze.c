/*
 * analyze.c — name resolution and the type checks that matter (analyze.h).
 *
 * One pass over the tree, SELECT by SELECT, in the order PostgreSQL
 * resolves names: WITH (each CTE sees the earlier ones), FROM left to
 * right (a function in FROM sees the items before it, as PostgreSQL's
 * implicit LATERAL allows; a subquery in FROM sees only enclosing
 * queries), WHERE, the select list, GROUP BY (input columns before output
 * names), HAVING, ORDER BY (output names before input columns), LIMIT.
 * A scope is one SELECT's visible FROM subtrees plus a link to the
 * enclosing SELECT's, so correlated references resolve outward and record
 * how far (rdepth).  A JOIN with USING or NATURAL exposes each merged
 * column once, so `id` after `a JOIN b USING (id)` is not ambiguous.
 *
 * Invariant: after suql_analyze returns 0, every COLUMN node has an rkind
 * other than NONE, every TABLE/SUBQUERY/FUNC FROM item has rname and
 * rcols, and every expression has its inferred type; the emitter relies
 * on them to qualify every column it prints.
 *
 * DISTINCT ON keys resolve as ORDER BY keys do, and must match the
 * leftmost ORDER BY keys as PostgreSQL requires (the same target entry:
 * one output name, position or column, else the same printed expression).
 *
 * Types are inferred only as far as the checks need: array or not, and
 * the schema's scalar types.  Errors are for what would fail later with a
 * worse message or silently mean something else (an array compared with
 * a scalar, answer() on a number); everything SQLite handles by dynamic
 * typing is let through.
 *
 * Files: this one walks SELECTs and FROM items; analyze_names.c resolves
 * column references; analyze_expr.c types and checks expressions.
 *
 * Rejected: resolving lazily in the emitter (errors would come after the
 * planner had spent LLM calls); a symbol table in a hash map (scopes hold
 * a handful of items; linear search is simpler and as fast); accepting
 * genie_* tables when named exactly (they are bookkeeping, and the
 * _truth_* tables are the evaluation's answers).
 */
#include "suql/analyze_int.h"
#include "suql/parse.h"

#include <string.h>
#include <strings.h>

/* ---- FROM ----------------------------------------------------------- */

static void push(suql_an_scope *sc, const suql_from *f)
{
    sc->vis[sc->nvis++] = f;
}

static const suql_an_cte *find_cte(const suql_an_cte *env, const char *name)
{
    for (; env; env = env->up)
        if (!strcmp(env->cte->name, name)) return env;
    return NULL;
}

static int unknown_table(suql_an_ctx *a, const suql_an_scope *sc, const suql_from *f)
{
    const char **cand = suql_array_new(a->q, a->s->ntables + 64, sizeof *cand);
    int n = 0;
    for (int i = 0; i < a->s->ntables; i++) cand[n++] = a->s->tables[i].name;
    for (const suql_an_cte *c = sc->ctes; c && n < a->s->ntables + 64; c = c->up) cand[n++] = c->cte->name;
    return suql_error_at(a->e, GN_ENOTFOUND, a->q, f->pos, "unknown table '%s'%s", f->table,
                         suql_an_hint(a, f->table, cand, n));
}

static int table_item(suql_an_ctx *a, suql_an_scope *sc, suql_from *f)
{
    f->rtab = NULL;
    f->rcte = NULL;
    f->rname = f->alias ? f->alias : f->table;
    const suql_an_cte *c = find_cte(sc->ctes, f->table);
    if (c) {
        a->blocks += c->cte->weight;
        if (a->blocks > SUQL_MAX_BLOCKS)
            return suql_error_at(a->e, GN_ELIMIT, a->q, f->pos,
                                 "the query is too large to compile: WITH query '%s' is copied "
                                 "into each query that reads it, and the copies make more than "
                                 "%d SELECT blocks; read each WITH query fewer times",
                                 f->table, SUQL_MAX_BLOCKS);
        f->rcte = c->cte;
        f->rcols = c->cols;
        f->nrcols = c->ncols;
        return 0;
    }
    const st_table *t = st_schema_table(a->s, f->table);
    if (!t) return unknown_table(a, sc, f);
    f->rtab = t;
    f->nrcols = t->ncols;
    f->rcols = suql_array_new(a->q, t->ncols, sizeof *f->rcols);
    for (int i = 0; i < t->ncols; i++)
        f->rcols[i] = (suql_rcolumn){ t->cols[i].name, t, &t->cols[i],
                                      suql_an_schema_type(t->cols[i].type), t->cols[i].is_array,
                                      t->cols[i].is_array ? NULL : suql_an_enum_column(&t->cols[i]) };
    return 0;
}

static int rename_cols(suql_an_ctx *a, suql_from *f, suql_rcolumn *cols, int n, const char *what)
{
    if (f->ncols > n)
        return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                             "%s has %d column%s but %d names are given", what, n,
                             n == 1 ? "" : "s", f->ncols);
    for (int i = 0; i < f->ncols; i++) cols[i].name = f->cols[i];
    f->rcols = cols;
    f->nrcols = n;
    return 0;
}

static int subquery_item(suql_an_ctx *a, suql_an_scope *sc, suql_from *f)
{
    if (!f->alias)
        return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                             "a subquery in FROM needs an alias: (SELECT ...) AS s");
    f->rname = f->alias;
    /* Not LATERAL: the subquery sees enclosing queries, not its siblings. */
    suql_an_scope blind = { sc->up, NULL, NULL, 0, sc->ctes };
    suql_rcolumn *cols;
    int n, rc = suql_an_select(a, f->sub, &blind, sc->ctes, &cols, &n);
    if (rc) return rc;
    return rename_cols(a, f, cols, n, "the subquery");
}

static int func_item(suql_an_ctx *a, suql_an_scope *sc, suql_from *f)
{
    const suql_expr *fn = f->func;
    if (!fn || fn->kind != SUQL_E_FUNC || strcmp(fn->name, "unnest"))
        return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                             "unsupported in FROM: %s() (only unnest(array) AS x is)",
                             fn && fn->name ? fn->name : "this function");
    if (fn->nargs != 1 || fn->distinct || fn->star)
        return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                             "unnest() takes one array here: unnest(array) AS x");
    int rc = suql_an_expr(a, sc, fn->args[0]);
    if (rc) return rc;
    const suql_expr *arg = fn->args[0];
    if (suql_an_is_scalar(arg))
        return suql_error_at(a->e, GN_EPARSE, a->q, arg->pos, "unnest() needs an array; %s is %s",
                             suql_an_quoted(a, arg), suql_an_vtype_name(arg->vtype, 0));
    f->rname = f->alias ? f->alias : "unnest";
    suql_rcolumn *c = suql_array_new(a->q, 1, sizeof *c);
    c->name = f->rname;
    c->vtype = arg->vtype;
    if (arg->kind == SUQL_E_COLUMN) {
        c->tab = arg->rtab;
        c->col = arg->rcol;
    }
    /* An element of an enum array (unnest(grading_options) AS g) is an
     * enum value. */
    c->venum = arg->kind == SUQL_E_COLUMN && arg->rcol && arg->rcol->is_array ? suql_an_enum_column(arg->rcol)
                                                                              : NULL;
    return rename_cols(a, f, c, 1, "unnest()");
}

static int join_using(suql_an_ctx *a, suql_from *f)
{
    suql_an_collect l = { a, NULL, 0, 0 }, r = { a, NULL, 0, 0 };
    suql_an_walk(f->left, NULL, suql_an_collect_fn, &l);
    suql_an_walk(f->right, NULL, suql_an_collect_fn, &r);
    f->rusing = NULL;
    f->nrusing = 0;
    if (f->natural) {
        f->rusing = suql_array_new(a->q, l.n, sizeof *f->rusing);
        for (int i = 0; i < l.n; i++) {
            int inr = 0;
            for (int j = 0; j < r.n; j++) inr |= !strcasecmp(l.v[i].name, r.v[j].name);
            if (inr) f->rusing[f->nrusing++] = l.v[i].name;
        }
    } else {
        f->rusing = (const char **)f->using;
        f->nrusing = f->nusing;
    }
    for (int i = 0; i < f->nrusing; i++) {
        suql_an_source s;
        const char *side = suql_an_exposed(f->left, f->rusing[i], &s) != 1 ? "left"
                         : suql_an_exposed(f->right, f->rusing[i], &s) != 1 ? "right" : NULL;
        if (side)
            return suql_error_at(a->e, GN_EPARSE, a->q, f->pos,
                                 "column '%s' of the join must appear exactly once on its %s side",
                                 f->rusing[i], side);
    }
    return 0;
}

static int from_item(suql_an_ctx *a, suql_an_scope *sc, suql_from *f)
{
    int rc;
    switch (f->kind) {
    case SUQL_FROM_TABLE: rc = table_item(a, sc, f); break;
    case SUQL_FROM_SUBQUERY: rc = subquery_item(a, sc, f); break;
    case SUQL_FROM_FUNC: rc = func_item(a, sc, f); break;
    default:
        if ((rc = from_item(a, sc, f->left)) || (rc = from_item(a, sc, f->right))) return rc;
        sc->nvis -= 2;
        push(sc, f);
        if ((rc = join_using(a, f))) return rc;
        if ((rc = suql_an_expr(a, sc, f->on)) || (rc = suql_an_no_window(a, f->on, "JOIN conditions")) ||
            (rc = suql_an_boolean(a, f->on, "JOIN/ON")))
            return rc;
        return suql_an_no_aggregate(a, f->on, "JOIN conditions");
    }
    if (!rc) push(sc, f);
    return rc;
}

static int count_from(const suql_from *f)
{
    return suql_an_is_leaf(f) ? 1 : 1 + count_from(f->left) + count_from(f->right);
}

/* Two FROM items with one name would make qualified references ambiguous. */
static int distinct_names(suql_an_ctx *a, const suql_an_scope *sc)
{
    const suql_from *v[MAX_LEAVES];
    int n = suql_an_scope_leaves(sc, v);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (v[i]->rname && v[j]->rname && !strcmp(v[i]->rname, v[j]->rname))
                return suql_error_at(a->e, GN_EPARSE, a->q, v[i]->pos,
                                     "table name '%s' is used twice in FROM (give one an alias)",
                                     v[i]->rname);
    return 0;
}

/* ---- SELECT --------------------------------------------------------- */

static int ctes_(suql_an_ctx *a, suql_select *s, const suql_an_scope *up, const suql_an_cte **env)
{
    for (int i = 0; i < s->nctes; i++) {
        suql_cte *c = &s->ctes[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(s->ctes[j].name, c->name))
                return suql_error_at(a->e, GN_EPARSE, a->q, c->pos,
                                     "WITH query name '%s' is used twice", c->name);
        suql_an_scope blind = { up, NULL, NULL, 0, *env };
        suql_an_cte *node = suql_array_new(a->q, 1, sizeof *node);
        long before = a->blocks;
        int rc = suql_an_select(a, c->select, &blind, *env, &node->cols, &node->ncols);
        c->weight = a->blocks - before;
        if (rc) return rc;
        if (c->ncols > node->ncols)
            return suql_error_at(a->e, GN_EPARSE, a->q, c->pos,
                                 "WITH query '%s' has %d columns but %d names are given",
                                 c->name, node->ncols, c->ncols);
        for (int j = 0; j < c->ncols; j++) node->cols[j].name = c->cols[j];
        node->cte = c;
        node->up = *env;
        *env = node;
    }
    return 0;
}

static int targets_(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s)
{
    for (int i = 0; i < s->ntargets; i++) {
        suql_expr *x = s->targets[i].expr;
        if (x->kind != SUQL_E_STAR) {
            int rc = suql_an_expr(a, sc, x);
            if (rc) return rc;
            continue;
        }
        if (x->qual && !suql_an_scope_leaf(sc, x->qual)) {
            const suql_from *v[MAX_LEAVES];
            const char *cand[MAX_LEAVES] = { 0 };
            int n = suql_an_scope_leaves(sc, v);
            for (int j = 0; j < n; j++) cand[j] = v[j]->rname;
            return suql_error_at(a->e, GN_ENOTFOUND, a->q, x->pos, "unknown table or alias '%s' in %s.*%s",
                                 x->qual, x->qual, suql_an_hint(a, x->qual, cand, n));
        }
        if (!x->qual && s->nfrom == 0)
            return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                 "SELECT * needs a FROM clause");
    }
    return 0;
}

static void outputs(suql_an_ctx *a, const suql_select *s, suql_rcolumn **out, int *nout)
{
    suql_an_collect c = { a, NULL, 0, 0 };
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *x = s->targets[i].expr;
        if (x->kind == SUQL_E_STAR) {
            suql_star_walk(s, x, suql_an_collect_fn, &c);
            continue;
        }
        suql_rcolumn col = { suql_target_name(&s->targets[i]), NULL, NULL, x->vtype, x->varray, x->venum };
        if (x->kind == SUQL_E_COLUMN) {
            col.tab = x->rtab;
            col.col = x->rcol;
        }
        suql_an_collect_add(&c, &col);
    }
    *out = c.v;
    *nout = c.n;
}

static int same_column(const suql_expr *x, const suql_expr *y)
{
    return x->kind == SUQL_E_COLUMN && y->kind == SUQL_E_COLUMN && x->rfrom == y->rfrom &&
           x->rindex == y->rindex && x->rjoin == y->rjoin && x->rdepth == y->rdepth;
}

/* A bare name in ORDER BY or GROUP BY that is a select-list output name:
 * 1 when X was bound to it, 0 when no output has the name. */
static int output_alias(suql_an_ctx *a, const suql_select *s, suql_expr *x, int *rc)
{
    int hit = -1;
    *rc = 0;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        if (t->kind == SUQL_E_STAR || strcmp(suql_target_name(&s->targets[i]), x->name)) continue;
        if (hit >= 0 && !same_column(s->targets[hit].expr, t)) {
            *rc = suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                "'%s' is ambiguous: several select-list columns have that name",
                                x->name);
            return 1;
        }
        if (hit < 0) hit = i;
    }
    if (hit < 0) return 0;
    const suql_expr *t = s->targets[hit].expr;
    x->rkind = SUQL_R_ALIAS;
    x->rindex = hit;
    x->rtarget = t;
    x->rtab = t->kind == SUQL_E_COLUMN ? t->rtab : NULL;
    x->rcol = t->kind == SUQL_E_COLUMN ? t->rcol : NULL;
    x->rfrom = NULL;
    x->rjoin = NULL;
    x->rdepth = 0;
    x->vtype = t->vtype;
    x->varray = t->varray;
    x->venum = t->venum;
    return 1;
}

static int position_ok(suql_an_ctx *a, const suql_expr *x, int nout, const char *clause)
{
    if (x->kind != SUQL_E_INT || (x->ival >= 1 && x->ival <= nout)) return 0;
    return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "%s position %lld is not in the select list "
                         "(it has %d column%s)", clause, x->ival, nout, nout == 1 ? "" : "s");
}

static int group_by(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s, int nout)
{
    for (int i = 0; i < s->ngroup; i++) {
        suql_expr *x = s->group[i];
        int rc;
        if (x->kind == SUQL_E_COLUMN && !x->qual) {
            /* Input columns first, then output names (PostgreSQL's order). */
            if (suql_an_column(a, sc, x, 1) == 0) continue;
            if (output_alias(a, s, x, &rc)) {
                if (rc) return rc;
                continue;
            }
        }
        if ((rc = position_ok(a, x, nout, "GROUP BY")) || (rc = suql_an_expr(a, sc, x)) ||
            (rc = suql_an_no_aggregate(a, x, "GROUP BY")))
            return rc;
    }
    return 0;
}

/* An ORDER BY or DISTINCT ON key: output names first, then input
 * columns (PostgreSQL's order), or a position. */
static int sort_key(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s, suql_expr *x, int nout,
                    const char *clause)
{
    int rc;
    if (x->kind == SUQL_E_COLUMN && !x->qual && output_alias(a, s, x, &rc)) return rc;
    if ((rc = position_ok(a, x, nout, clause))) return rc;
    return suql_an_expr(a, sc, x);
}

static int order_by(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s, int nout)
{
    for (int i = 0; i < s->norder; i++) {
        int rc = sort_key(a, sc, s, s->order[i].expr, nout, "ORDER BY");
        if (rc) return rc;
    }
    return 0;
}

static void count_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    (void)item, (void)index, (void)join;
    (*(int *)ud)++;
}

/* What a sort key stands for: the target an output name or a position
 * names (NULL for a position inside a star: *pos is then set), else X. */
static const suql_expr *key_target(const suql_select *s, const suql_expr *x, int *pos)
{
    *pos = 0;
    if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS) return x->rtarget;
    if (x->kind != SUQL_E_INT) return x;
    int k = 0;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        int n = 1;
        if (t->kind == SUQL_E_STAR) {
            n = 0;
            suql_star_walk(s, t, count_fn, &n);
        }
        if (t->kind != SUQL_E_STAR && x->ival == k + 1) return t;
        k += n;
    }
    *pos = (int)x->ival;
    return NULL;
}

/* Whether two sort keys of S name the same value (PostgreSQL compares
 * the target entries they resolve to). */
static int same_key(suql_an_ctx *a, const suql_select *s, const suql_expr *x, const suql_expr *y)
{
    int px, py;
    const suql_expr *tx = key_target(s, x, &px), *ty = key_target(s, y, &py);
    if (!tx || !ty) return !tx && !ty && px == py;
    if (tx == ty) return 1;
    if (tx->kind == SUQL_E_COLUMN && ty->kind == SUQL_E_COLUMN) return same_column(tx, ty);
    return !strcmp(suql_an_label(a, tx), suql_an_label(a, ty));
}

static int distinct_on_key(suql_an_ctx *a, const suql_select *s, const suql_expr *x)
{
    for (int i = 0; i < s->ndistinct_on; i++)
        if (same_key(a, s, s->distinct_on[i], x)) return i;
    return -1;
}

/* DISTINCT ON (...): resolved as ORDER BY keys are, and matching the
 * leftmost ORDER BY keys (PostgreSQL's transformDistinctOnClause). */
static int distinct_on(suql_an_ctx *a, const suql_an_scope *sc, suql_select *s, int nout)
{
    for (int i = 0; i < s->ndistinct_on; i++) {
        int rc = sort_key(a, sc, s, s->distinct_on[i], nout, "SELECT DISTINCT ON");
        if (rc) return rc;
    }
    int skipped = 0, nprefix = 0;
    for (int i = 0; i < s->norder; i++) {
        int d = distinct_on_key(a, s, s->order[i].expr);
        if (d < 0) {
            skipped = 1;
        } else if (skipped) {
            return suql_error_at(a->e, GN_EPARSE, a->q, s->distinct_on[d]->pos,
                                 "SELECT DISTINCT ON expressions must match initial ORDER BY "
                                 "expressions");
        } else {
            nprefix = i + 1;
        }
    }
    for (int i = 0; i < s->ndistinct_on && skipped; i++) {
        int in = 0;
        for (int j = 0; j < nprefix && !in; j++) in = same_key(a, s, s->distinct_on[i], s->order[j].expr);
        if (!in)
            return suql_error_at(a->e, GN_EPARSE, a->q, s->distinct_on[i]->pos,
                                 "SELECT DISTINCT ON expressions must match initial ORDER BY "
                                 "expressions");
    }
    return 0;
}

int suql_an_limit(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x, const char *what)
{
    if (!x) return 0;
    suql_an_scope blind = { sc->up, NULL, NULL, 0, sc->ctes };
    int rc = suql_an_expr(a, &blind, x);
    if (rc) return rc;
    if ((x->kind == SUQL_E_INT && x->ival < 0) || (x->kind == SUQL_E_FLOAT && x->fval < 0) ||
        (x->kind == SUQL_E_NEG && (x->l->kind == SUQL_E_INT || x->l->kind == SUQL_E_FLOAT)))
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "%s must not be negative", what);
    if (x->kind == SUQL_E_STRING || x->varray)
        return suql_error_at(a->e, GN_EPARSE, a->q, x->pos, "%s must be a number", what);
    return 0;
}

/* SELECT ..., unnest(arr) [AS x], ... FROM t: one row per element, as
 * PostgreSQL's set-returning function in the select list.  It becomes
 * FROM t, unnest(arr) AS unnest with the target reading that column, so
 * the rest of the pipeline sees the FROM form it knows.  One unnest a
 * select list, not in a grouped query (PostgreSQL would run it after the
 * grouping), and only as a whole target. */
static int unnest_targets(suql_an_ctx *a, suql_select *s)
{
    int hit = -1;
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *t = s->targets[i].expr;
        if (t->kind != SUQL_E_FUNC || !t->name || strcmp(t->name, "unnest") || t->over || t->filter) continue;
        if (hit >= 0)
            return suql_error_at(a->e, GN_EPARSE, a->q, t->pos,
                                 "unsupported: more than one unnest() in a select list (write FROM t, "
                                 "unnest(a) AS x, unnest(b) AS y)");
        if (t->nargs != 1)
            return suql_error_at(a->e, GN_EPARSE, a->q, t->pos, "unnest() takes one array");
        hit = i;
    }
    if (hit < 0) return 0;
    suql_target *t = &s->targets[hit];
    if (s->ngroup || s->having)
        return suql_error_at(a->e, GN_EPARSE, a->q, t->expr->pos,
                             "unsupported: unnest() in the select list of a grouped query (unnest in "
                             "FROM, or in a subquery)");
    suql_from *f = suql_from_new(a->q, SUQL_FROM_FUNC, t->expr->pos);
    f->func = t->expr;
    f->alias = "unnest";
    suql_from **v = suql_array_new(a->q, s->nfrom + 1, sizeof *v);
    for (int i = 0; i < s->nfrom; i++) v[i] = s->from[i];
    v[s->nfrom] = f;
    s->from = v;
    s->nfrom++;
    suql_expr *c = suql_expr_new(a->q, SUQL_E_COLUMN, t->expr->pos);
    c->qual = "unnest";
    c->name = "unnest";
    t->expr = c;
    if (!t->alias) t->alias = "unnest";
    return 0;
}

int suql_an_select(suql_an_ctx *a, suql_select *s, const suql_an_scope *up, const suql_an_cte *ctes,
                   suql_rcolumn **out, int *nout)
{
    a->blocks++;
    int rc = ctes_(a, s, up, &ctes);
    if (rc) return rc;
    if (s->op != SUQL_SET_NONE) return suql_an_setop(a, s, up, ctes, out, nout);
    if ((rc = unnest_targets(a, s))) return rc;
    int nf = 0;
    for (int i = 0; i < s->nfrom; i++) nf += count_from(s->from[i]);
    suql_an_scope sc = { up, s, suql_array_new(a->q, nf, sizeof(suql_from *)), 0, ctes };
    for (int i = 0; i < s->nfrom; i++)
        if ((rc = from_item(a, &sc, s->from[i]))) return rc;
    if ((rc = distinct_names(a, &sc))) return rc;
    if ((rc = suql_an_expr(a, &sc, s->where)) || (rc = suql_an_no_aggregate(a, s->where, "WHERE")) ||
        (rc = suql_an_boolean(a, s->where, "WHERE")) ||
        (rc = suql_an_no_window(a, s->where, "WHERE")))
        return rc;
    if ((rc = targets_(a, &sc, s))) return rc;
    outputs(a, s, out, nout);
    s->rcols = *out;
    s->nrcols = *nout;
    if ((rc = group_by(a, &sc, s, *nout)) || (rc = suql_an_expr(a, &sc, s->having)) ||
        (rc = suql_an_boolean(a, s->having, "HAVING")) ||
        (rc = suql_an_no_window_in(a, s)) || (rc = suql_an_windows(a, &sc, s)) ||
        (rc = order_by(a, &sc, s, *nout)) || (rc = distinct_on(a, &sc, s, *nout)) ||
        (rc = suql_an_grouping(a, s)))
        return rc;
    if ((rc = suql_an_limit(a, &sc, s->limit, "LIMIT")) ||
        (rc = suql_an_limit(a, &sc, s->offset, "OFFSET")))
        return rc;
    return 0;
}

int suql_analyze(suql_query *q, const st_schema *s, gn_err *e)
{
    if (!q || !q->select || !s) return gn_err_set(e, GN_EUSAGE, "suql_analyze: no query or schema");
    suql_an_ctx a = { q, s, e, 0 };
    suql_rcolumn *cols;
    int n;
    return suql_an_select(&a, q->select, NULL, NULL, &cols, &n);
}

