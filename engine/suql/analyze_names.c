/*
 * analyze_names.c — scopes and column references (analyze.h): which FROM
 * item a name means, the columns a JOIN exposes (USING and NATURAL merge
 * theirs), the star's columns, and the messages for names that resolve to
 * nothing, or to more than one thing.
 *
 * A reference resolves in the innermost SELECT that has the name, then
 * outward (rdepth counts the steps).  Unqualified: every visible FROM
 * subtree is asked how often it exposes the name; once binds it, twice or
 * more is ambiguous.  Qualified: the FROM item of that name, else outward.
 * Matching is case-insensitive for columns, as SQLite's is; qualifiers
 * match exactly, as PostgreSQL folds them.
 *
 * Rejected: suggesting names from every table of the schema (a column of
 * another table is not what the query can use without a join); "did you
 * mean" for names that share no character (suggest 'r' for 'x' helps no
 * one).
 */
#include "suql/analyze_int.h"
#include "suql/parse.h"
#include "util/strdist.h"

#include <string.h>
#include <strings.h>

suql_vtype suql_an_schema_type(const char *t)
{
    static const struct { const char *name; suql_vtype vt; } map[] = {
        { "text", SUQL_VT_TEXT }, { "enum", SUQL_VT_TEXT }, { "int", SUQL_VT_INT },
        { "real", SUQL_VT_REAL }, { "bool", SUQL_VT_BOOL }, { "date", SUQL_VT_DATE },
        { "time", SUQL_VT_TIME },
    };
    for (size_t i = 0; t && i < sizeof map / sizeof *map; i++)
        if (!strcmp(t, map[i].name)) return map[i].vt;
    return SUQL_VT_UNKNOWN;
}

const st_column *suql_an_enum_column(const st_column *c)
{
    return c && c->type && !strcmp(c->type, "enum") && c->nenum ? c : NULL;
}

/* The type as messages name it (the schema's CREATE TABLE spelling). */
const char *suql_an_vtype_name(suql_vtype t, int array)
{
    static const char *const names[] = {
        "of unknown type", "TEXT", "INT", "REAL", "BOOLEAN", "DATE", "TIME", "TIMESTAMP",
        "NUMERIC", "INTERVAL"
    };
    static const char *const arrays[] = {
        "an array", "TEXT[]", "INT[]", "REAL[]", "BOOLEAN[]", "DATE[]", "TIME[]", "TIMESTAMP[]",
        "NUMERIC[]", "INTERVAL[]"
    };
    return array ? arrays[t] : names[t];
}

/* A short text for X in messages: a column's name, else the printed form. */
const char *suql_an_label(suql_an_ctx *a, const suql_expr *x)
{
    if (x->kind == SUQL_E_COLUMN) return x->name;
    gn_buf b;
    gn_buf_init(&b);
    suql_print_expr(x, &b);
    const char *s = suql_strdup(a->q, b.data);
    gn_buf_release(&b);
    return s;
}

/* X for "... is TEXT" messages: 'name' for a column, else as printed. */
const char *suql_an_quoted(suql_an_ctx *a, const suql_expr *x)
{
    if (x->kind != SUQL_E_COLUMN) return suql_an_label(a, x);
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "'%s'", x->name);
    const char *s = suql_strdup(a->q, b.data);
    gn_buf_release(&b);
    return s;
}

/* Whether NAME is one of CAND's '_'-separated words, or begins it (at
 * least 4 letters): 'phone' for phone_number, 'number' for phone_number. */
static int part_of(const char *name, const char *cand)
{
    size_t len = strlen(name);
    if (len < 4) return 0;
    for (const char *p = cand; *p;) {
        size_t w = strcspn(p, "_");
        if ((w == len || p == cand) && w >= len && !strncasecmp(p, name, len)) return 1;
        p += w;
        if (*p) p++;
    }
    return 0;
}

/* The closest of N candidate names to NAME, or NULL when none is close:
 * by edit distance, else the one name NAME is a part of. */
static const char *suggest(const char *name, const char *const *cand, int n)
{
    const char *part = NULL;
    int nparts = 0;
    for (int i = 0; i < n; i++)
        if (cand[i] && part_of(name, cand[i]) && (!part || strcasecmp(part, cand[i])))
            part = cand[i], nparts++;
    const char *best = NULL;
    int bestd = 99, len = (int)strlen(name);
    int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    for (int i = 0; i < n; i++) {
        if (!cand[i]) continue;
        int d = strcasecmp(name, cand[i]) ? gn_edit_distance(name, cand[i]) : 0;
        if (d < bestd) bestd = d, best = cand[i];
    }
    if (bestd <= limit && bestd < len) return best;
    return nparts == 1 ? part : NULL;
}

/* " (did you mean 'x'?)" or "". */
const char *suql_an_hint(suql_an_ctx *a, const char *name, const char *const *cand, int n)
{
    const char *s = suggest(name, cand, n);
    if (!s) return "";
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, " (did you mean '%s'?)", s);
    const char *r = suql_strdup(a->q, b.data);
    gn_buf_release(&b);
    return r;
}

int suql_an_is_leaf(const suql_from *f)
{
    return f->kind != SUQL_FROM_JOIN;
}

int suql_an_col_index(const suql_from *leaf, const char *name)
{
    for (int i = 0; i < leaf->nrcols; i++)
        if (!strcasecmp(leaf->rcols[i].name, name)) return i;
    return -1;
}

int suql_an_in_names(const char *const *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(v[i], name)) return 1;
    return 0;
}

/* How many times subtree F exposes NAME to an unqualified reference;
 * *src is set to the last one found. */
int suql_an_exposed(const suql_from *f, const char *name, suql_an_source *src)
{
    if (suql_an_is_leaf(f)) {
        int i = suql_an_col_index(f, name);
        if (i < 0) return 0;
        *src = (suql_an_source){ f, i, NULL };
        return 1;
    }
    if (suql_an_in_names(f->rusing, f->nrusing, name)) {
        suql_an_source s;
        if (suql_an_exposed(f->left, name, &s) != 1) return 0;
        *src = (suql_an_source){ s.leaf, s.idx, f };
        return 1;
    }
    return suql_an_exposed(f->left, name, src) + suql_an_exposed(f->right, name, src);
}

/* The leaf of subtree F that qualifier QUAL names, or NULL. */
static const suql_from *find_leaf(const suql_from *f, const char *qual)
{
    if (suql_an_is_leaf(f)) return f->rname && !strcmp(f->rname, qual) ? f : NULL;
    const suql_from *l = find_leaf(f->left, qual);
    return l ? l : find_leaf(f->right, qual);
}

const suql_from *suql_an_scope_leaf(const suql_an_scope *sc, const char *qual)
{
    for (int i = 0; i < sc->nvis; i++) {
        const suql_from *l = find_leaf(sc->vis[i], qual);
        if (l) return l;
    }
    return NULL;
}

/* ---- the star and the columns a subtree exposes --------------------- */


static int excluded(const suql_an_excl *x, const char *name)
{
    for (; x; x = x->up)
        if (suql_an_in_names(x->names, x->n, name)) return 1;
    return 0;
}

void suql_an_walk(const suql_from *f, const suql_an_excl *ex, suql_star_fn fn, void *ud)
{
    if (suql_an_is_leaf(f)) {
        for (int i = 0; i < f->nrcols; i++)
            if (!excluded(ex, f->rcols[i].name)) fn(ud, f, i, NULL);
        return;
    }
    for (int i = 0; i < f->nrusing; i++) {
        suql_an_source s;
        if (!excluded(ex, f->rusing[i]) && suql_an_exposed(f->left, f->rusing[i], &s) == 1)
            fn(ud, s.leaf, s.idx, f);
    }
    suql_an_excl mine = { f->rusing, f->nrusing, ex };
    suql_an_walk(f->left, &mine, fn, ud);
    suql_an_walk(f->right, &mine, fn, ud);
}

void suql_star_walk(const suql_select *s, const suql_expr *star, suql_star_fn fn, void *ud)
{
    if (star->qual) {
        for (int i = 0; i < s->nfrom; i++) {
            const suql_from *l = find_leaf(s->from[i], star->qual);
            if (l) {
                suql_an_walk(l, NULL, fn, ud);
                return;
            }
        }
        return;
    }
    for (int i = 0; i < s->nfrom; i++) suql_an_walk(s->from[i], NULL, fn, ud);
}


void suql_an_collect_add(suql_an_collect *c, const suql_rcolumn *col)
{
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        suql_rcolumn *v = suql_array_new(c->a->q, cap, sizeof *v);
        if (c->n) memcpy(v, c->v, (size_t)c->n * sizeof *v);
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = *col;
}

void suql_an_collect_fn(void *ud, const suql_from *item, int index, const suql_from *join)
{
    (void)join;
    suql_an_collect_add(ud, &item->rcols[index]);
}

/* ---- names in messages ---------------------------------------------- */

/* "restaurants", "restaurants AS r", "s", "unnest AS x". */
static const char *leaf_label(suql_an_ctx *a, const suql_from *f)
{
    const char *base = f->kind == SUQL_FROM_TABLE ? f->table
                     : f->kind == SUQL_FROM_FUNC ? "unnest" : NULL;
    if (!base || !f->alias || !strcmp(base, f->alias)) return f->rname ? f->rname : "?";
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "%s AS %s", base, f->alias);
    const char *r = suql_strdup(a->q, b.data);
    gn_buf_release(&b);
    return r;
}

static void leaves(const suql_from *f, const suql_from **v, int *n, int max)
{
    if (suql_an_is_leaf(f)) {
        if (*n < max) v[(*n)++] = f;
        return;
    }
    leaves(f->left, v, n, max);
    leaves(f->right, v, n, max);
}


/* Leaves of a suql_an_scope's visible subtrees (at most MAX_LEAVES). */
int suql_an_scope_leaves(const suql_an_scope *sc, const suql_from **v)
{
    int n = 0;
    for (int i = 0; i < sc->nvis; i++) leaves(sc->vis[i], v, &n, MAX_LEAVES);
    return n;
}

/* ---- column references ---------------------------------------------- */

static void bind(suql_expr *x, suql_an_source s, int depth)
{
    const suql_rcolumn *c = &s.leaf->rcols[s.idx];
    x->rkind = s.leaf->kind == SUQL_FROM_FUNC ? SUQL_R_UNNEST
             : s.leaf->rtab ? SUQL_R_BASE : SUQL_R_DERIVED;
    x->rtab = c->tab;
    x->rcol = c->col;
    x->rfrom = s.leaf;
    x->rjoin = s.join;
    x->rindex = s.idx;
    x->rdepth = depth;
    x->rtarget = NULL;
    x->vtype = c->vtype;
    x->varray = c->varray;
    x->venum = c->venum;
}

static int unknown_column(suql_an_ctx *a, const suql_an_scope *sc, const suql_expr *x, const suql_from *in)
{
    const suql_from *v[MAX_LEAVES];
    int nl = in ? (v[0] = in, 1) : 0;
    const suql_an_scope *s = sc;
    while (!in && s && (nl = suql_an_scope_leaves(s, v)) == 0) s = s->up;
    const char *cand[256] = { 0 };
    int nc = 0;
    for (int i = 0; i < nl; i++)
        for (int j = 0; j < v[i]->nrcols && nc < 256; j++) cand[nc++] = v[i]->rcols[j].name;
    const char *h = suql_an_hint(a, x->name, cand, nc);
    if (!in)
        for (int i = 0; i < nl; i++)
            if (v[i]->rname && !strcmp(v[i]->rname, x->name))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                     "'%s' is a table, not a column: write %s.<column>",
                                     x->name, x->name);
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < nl; i++) gn_buf_printf(&b, "%s%s", i ? ", " : " in ", leaf_label(a, v[i]));
    int rc = suql_error_at(a->e, GN_ENOTFOUND, a->q, x->pos, "unknown column '%s'%s%s",
                           x->name, b.data, h);
    gn_buf_release(&b);
    return rc;
}

static int ambiguous(suql_an_ctx *a, const suql_an_scope *sc, const suql_expr *x)
{
    gn_buf b;
    gn_buf_init(&b);
    const char *first = NULL;
    int k = 0;
    for (int i = 0; i < sc->nvis; i++) {
        const suql_from *v[MAX_LEAVES];
        int n = 0;
        leaves(sc->vis[i], v, &n, MAX_LEAVES);
        for (int j = 0; j < n; j++) {
            if (suql_an_col_index(v[j], x->name) < 0) continue;
            if (!first) first = v[j]->rname;
            gn_buf_printf(&b, "%s%s", k++ ? " and " : "", leaf_label(a, v[j]));
        }
    }
    int rc = suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                           "column '%s' is ambiguous: it is in %s (qualify it, e.g. %s.%s)",
                           x->name, b.data, first ? first : "t", x->name);
    gn_buf_release(&b);
    return rc;
}

static int unknown_qualifier(suql_an_ctx *a, const suql_an_scope *sc, const suql_expr *x)
{
    for (const suql_an_scope *s = sc; s; s = s->up) {
        const suql_from *v[MAX_LEAVES];
        int n = suql_an_scope_leaves(s, v);
        for (int i = 0; i < n; i++)
            if (v[i]->kind == SUQL_FROM_TABLE && v[i]->alias && !strcmp(v[i]->table, x->qual))
                return suql_error_at(a->e, GN_EPARSE, a->q, x->pos,
                                     "table %s is called %s in this query: write %s.%s",
                                     x->qual, v[i]->alias, v[i]->alias, x->name);
    }
    const suql_from *v[MAX_LEAVES];
    const char *cand[MAX_LEAVES] = { 0 };
    int n = 0;
    for (const suql_an_scope *s = sc; s && !n; s = s->up) n = suql_an_scope_leaves(s, v);
    for (int i = 0; i < n; i++) cand[i] = v[i]->rname;
    return suql_error_at(a->e, GN_ENOTFOUND, a->q, x->pos, "unknown table or alias '%s' in %s.%s%s",
                         x->qual, x->qual, x->name, suql_an_hint(a, x->qual, cand, n));
}

/* Resolve column X in SC or enclosing scopes.  QUIET: return -1 instead
 * of reporting an unknown column (ambiguity is still an error). */
int suql_an_column(suql_an_ctx *a, const suql_an_scope *sc, suql_expr *x, int quiet)
{
    int depth = 0;
    for (const suql_an_scope *s = sc; s; s = s->up, depth++) {
        if (x->qual) {
            const suql_from *l = suql_an_scope_leaf(s, x->qual);
            if (!l) continue;
            int i = suql_an_col_index(l, x->name);
            if (i < 0) return quiet ? -1 : unknown_column(a, sc, x, l);
            bind(x, (suql_an_source){ l, i, NULL }, depth);
            return 0;
        }
        int n = 0;
        suql_an_source src = { 0 };
        for (int i = 0; i < s->nvis; i++) n += suql_an_exposed(s->vis[i], x->name, &src);
        if (n > 1) return ambiguous(a, s, x);
        if (n == 1) {
            bind(x, src, depth);
            return 0;
        }
    }
    if (quiet) return -1;
    return x->qual ? unknown_qualifier(a, sc, x) : unknown_column(a, sc, x, NULL);
}

