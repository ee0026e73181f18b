/*
 * optimize.c — the optimized run: structured filters first, free text last
 * and only as much as LIMIT needs (see engine.h).
 *
 * Per conjunct of the WHERE clause's DNF:
 *   1. candidates: SELECT _id with the conjunct's structured atoms (enum
 *      literals mapped by CLASSIFY), in ORDER BY order when the query has
 *      one and the budget can check every candidate;
 *   2. order: otherwise, the candidates ranked by the retrieval index's
 *      aggregated similarity to the conjunct's answer() questions (most
 *      likely first), the unranked ones after in SQL order
 *      (relevance_first says why an ordered query is ranked too);
 *   3. checks: a window of candidates at a time, filter by filter, each
 *      asked of the window's candidates that passed the filters before it
 *      (ANDed filters short-circuit) and at once (concurrently):
 *      `answer(col, q) = 'Yes'` and its negations by the verify prompt,
 *      any other atom by computing its answer() and summary() values and
 *      letting SQLite evaluate the atom with them (a window's
 *      verifications of one filter share LLM calls, up to the engine's
 *      verify batch a call: freetext.h);
 *      windows stop when the conjunct has LIMIT (+ OFFSET) passing rows, or
 *      the budget is spent.
 * Then one final SELECT over the rows that passed, as the query wrote it
 * but for WHERE (and, without ORDER BY, in the order they were found).
 *
 * With ORDER BY each conjunct needs its own first LIMIT rows (the union's
 * first rows may come from any); without it the union's first rows do, so
 * the search stops as soon as LIMIT rows have passed in all.
 */
#include "engine_int.h"

#include "retrieval/search.h"
#include "util/check.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Row ids in order, with a hash set beside them for membership (scale 100
 * has conjuncts with 10^5 candidates), made on the first membership test
 * and kept up from then on: candidate lists, never asked, never pay for
 * it. */
typedef struct {
    int64_t *v;
    long n, cap;
    int64_t *set;      /* open addressing, 0 = empty (ids are >= 1) */
    long setcap, nset; /* v[0..nset) are in set */
} ids;

static unsigned long hash_id(int64_t x)
{
    uint64_t h = (uint64_t)x * 0x9e3779b97f4a7c15ull;
    return (unsigned long)(h >> 17);
}

static void set_put(int64_t *set, long cap, int64_t x)
{
    unsigned long i = hash_id(x) & (unsigned long)(cap - 1);
    while (set[i] && set[i] != x) i = (i + 1) & (unsigned long)(cap - 1);
    set[i] = x;
}

static int ids_has(ids *s, int64_t x)
{
    if ((s->n + 1) * 2 > s->setcap) {          /* grow: every id again */
        long cap = s->setcap ? s->setcap * 2 : 128;
        while ((s->n + 1) * 2 > cap) cap *= 2;
        free(s->set);
        s->set = xcalloc((size_t)cap, sizeof *s->set);
        s->setcap = cap;
        s->nset = 0;
    }
    for (; s->nset < s->n; s->nset++) set_put(s->set, s->setcap, s->v[s->nset]);
    for (unsigned long i = hash_id(x) & (unsigned long)(s->setcap - 1);; i = (i + 1) & (unsigned long)(s->setcap - 1)) {
        if (s->set[i] == x) return 1;
        if (!s->set[i]) return 0;
    }
}

static void ids_add(ids *s, int64_t x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = xrealloc(s->v, sizeof *s->v * (size_t)s->cap);
    }
    s->v[s->n++] = x;
}

static void ids_free(ids *s)
{
    free(s->v);
    free(s->set);
    memset(s, 0, sizeof *s);
}

/* The candidate rows of a run's conjuncts by their SQL: conjuncts that
 * differ only in free text (the DNF of `a AND (f1 OR f2)`) read them
 * once. */
typedef struct {
    char **sql;
    ids *sets;
    int n;
} cand_cache;

static void cand_cache_free(cand_cache *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->sql[i]);
        ids_free(&c->sets[i]);
    }
    free(c->sql);
    free(c->sets);
    memset(c, 0, sizeof *c);
}

/* ---- small tree helpers -------------------------------------------------------- */

suql_expr *suql_id_column(suql_query *q, const st_table *t, const char *alias)
{
    suql_expr *c = suql_expr_new(q, SUQL_E_COLUMN, 0);
    c->name = "_id";
    c->qual = alias;
    (void)t;          /* unannotated: the emitter prints "alias"."_id" */
    return c;
}

static suql_expr *int_lit(suql_query *q, long long v)
{
    suql_expr *x = suql_expr_new(q, SUQL_E_INT, 0);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    x->text = suql_strdup(q, buf);
    x->ival = v;
    return x;
}

static suql_expr *and_of(suql_query *q, suql_expr **atoms, int n)
{
    if (!n) return NULL;
    if (n == 1) return atoms[0];
    suql_expr *a = suql_expr_new(q, SUQL_E_AND, atoms[0]->pos);
    a->args = suql_array_new(q, n, sizeof *a->args);
    memcpy(a->args, atoms, sizeof *a->args * (size_t)n);
    a->nargs = n;
    return a;
}

suql_order *suql_order_sans_alias(suql_query *q, const suql_select *sel)
{
    if (!sel->norder) return NULL;
    suql_order *o = suql_array_new(q, sel->norder, sizeof *o);
    for (int i = 0; i < sel->norder; i++) {
        o[i] = sel->order[i];
        const suql_expr *x = o[i].expr;
        if (x->kind == SUQL_E_COLUMN && x->rkind == SUQL_R_ALIAS && x->rindex >= 0 &&
            x->rindex < sel->ntargets)
            o[i].expr = sel->targets[x->rindex].expr;
        else if (x->kind == SUQL_E_INT && x->ival >= 1 && x->ival <= sel->ntargets)
            o[i].expr = sel->targets[x->ival - 1].expr;     /* ORDER BY 2 */
    }
    return o;
}

/* Free-text nodes of X (not inside subqueries), appended to OUT. */
static void ft_nodes(const suql_expr *x, const suql_expr ***out, int *n)
{
    if (!x) return;
    if (x->kind == SUQL_E_ANSWER || x->kind == SUQL_E_SUMMARY) {
        *out = xrealloc(*out, sizeof **out * (size_t)(*n + 1));
        (*out)[(*n)++] = x;
        return;
    }
    ft_nodes(x->l, out, n);
    ft_nodes(x->r, out, n);
    for (int i = 0; i < x->nargs; i++) ft_nodes(x->args[i], out, n);
}

/* Is ATOM `answer(..) = 'Yes'` (or <>, or 'No', either side, possibly
 * under NOT)?  Then *ANS is the answer() node, *OP and *RHS the
 * comparison as the verify prompt shows it, *NEG the NOT. */
static int verify_form(const suql_expr *atom, const suql_expr **ans, const char **op,
                       const char **rhs, int *neg)
{
    *neg = 0;
    while (atom->kind == SUQL_E_NOT) {
        *neg = !*neg;
        atom = atom->l;
    }
    if (atom->kind != SUQL_E_CMP || (atom->op != SUQL_OP_EQ && atom->op != SUQL_OP_NE)) return 0;
    const suql_expr *a = atom->l, *s = atom->r;
    if (a->kind != SUQL_E_ANSWER) {
        a = atom->r;
        s = atom->l;
    }
    if (a->kind != SUQL_E_ANSWER || s->kind != SUQL_E_STRING) return 0;
    if (strcasecmp(s->text, "yes") && strcasecmp(s->text, "no")) return 0;
    *ans = a;
    /* NOT is folded into the operator, not applied to the result: a row
     * whose text is NULL passes neither `= 'Yes'` nor `NOT ... = 'Yes'`,
     * as in PostgreSQL. */
    int eq = (atom->op == SUQL_OP_EQ) != *neg;
    *neg = 0;
    *op = eq ? "=" : "<>";
    *rhs = !strcasecmp(s->text, "yes") ? "'Yes'" : "'No'";
    return 1;
}

/* ---- SQL helpers --------------------------------------------------------------------- */

static int query_ids(suql_engine *en, const char *sql, ids *out, gn_err *e)
{
    sqlite3_stmt *st;
    en->ferr_set = 0;
    if (sqlite3_prepare_v2(en->cfg.db, sql, -1, &st, NULL) != SQLITE_OK)
        return st_dberr(en->cfg.db, e, "selecting candidates");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) ids_add(out, sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return 0;
    if (en->ferr_set) {                /* an LLM failure inside suql_answer() */
        *e = en->ferr;
        return e->code;
    }
    return st_dberr(en->cfg.db, e, "selecting candidates");
}

/* The value of expression X (SQL) for row ID: a new string or NULL. */
static int row_value(suql_engine *en, const char *xsql, const st_table *t, const char *alias,
                     int64_t id, char **out, gn_err *e)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "SELECT %s FROM ", xsql);
    suql_emit_ident(t->name, &b);
    gn_buf_puts(&b, " AS ");
    suql_emit_ident(alias, &b);
    gn_buf_puts(&b, " WHERE ");
    suql_emit_ident(alias, &b);
    gn_buf_printf(&b, ".\"_id\" = %lld", (long long)id);
    sqlite3_stmt *st;
    *out = NULL;
    en->ferr_set = 0;
    int rc = sqlite3_prepare_v2(en->cfg.db, b.data, -1, &st, NULL);
    gn_buf_release(&b);
    if (rc != SQLITE_OK) return st_dberr(en->cfg.db, e, "reading a candidate row");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        *out = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) return 0;
    if (en->ferr_set) {
        *e = en->ferr;
        return e->code;
    }
    return st_dberr(en->cfg.db, e, "reading a candidate row");
}

/* ---- one conjunct ------------------------------------------------------------------------- */

typedef struct {
    const suql_expr *atom;
    int verify, neg;                 /* decided by the verify prompt */
    const suql_expr *ans;            /* verify: the answer() node */
    const char *op, *rhs;
    const suql_expr **nodes;         /* otherwise: its answer()/summary() nodes */
    int nnodes;
    char **node_sql;                 /* SQL of each node's first argument */
    char *ans_sql;                   /* verify: SQL of the answer's text */
} ftatom;

static void ftatoms_free(ftatom *fa, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < fa[i].nnodes; j++) free(fa[i].node_sql[j]);
        free(fa[i].node_sql);
        free((void *)fa[i].nodes);
        free(fa[i].ans_sql);
    }
    free(fa);
}

static char *emit_arg(suql_engine *en, const suql_expr *x, gn_err *e)
{
    suql_emit_hooks h;
    gn_buf b;
    gn_buf_init(&b);
    if (suql_emit_expr(NULL, x, suql_hooks_calls(en, &h), &b, e)) {
        gn_buf_release(&b);
        return NULL;
    }
    return gn_buf_detach(&b);
}

/* Requests of one candidate for all free-text atoms, appended to R. */
/* The requests atom FA makes of row ID into R (*NR grows): one
 * verification, or each of its answer()/summary() nodes; the row's texts
 * go to OWNED (*NOWNED grows) for the caller to free. */
static int atom_requests(suql_engine *en, const ftatom *fa, const st_table *t, const char *alias,
                         int64_t id, suql_ft_req *r, int *nr, char **owned, int *nowned, gn_err *e)
{
    if (fa->verify) {
        char *v;
        int rc = row_value(en, fa->ans_sql, t, alias, id, &v, e);
        if (rc) return rc;
        owned[(*nowned)++] = v;
        const suql_expr *arg = fa->ans->args[0];
        int col = arg->kind == SUQL_E_COLUMN;
        r[(*nr)++] = (suql_ft_req){ .kind = SUQL_FT_VERIFY, .value = v,
                                    .field = col ? arg->name : "text",
                                    .question = fa->ans->args[1]->text, .op = fa->op, .rhs = fa->rhs,
                                    .tbl = col ? t->name : NULL, .row = col ? id : 0 };
        return 0;
    }
    for (int j = 0; j < fa->nnodes; j++) {
        const suql_expr *x = fa->nodes[j];
        char *v;
        int rc = row_value(en, fa->node_sql[j], t, alias, id, &v, e);
        if (rc) return rc;
        owned[(*nowned)++] = v;
        const suql_expr *arg = x->args[0];
        int col = arg->kind == SUQL_E_COLUMN;
        suql_ft_req q = { .kind = x->kind == SUQL_E_ANSWER ? SUQL_FT_ANSWER : SUQL_FT_SUMMARY,
                          .value = v, .field = col ? arg->name : "text",
                          .tbl = col ? t->name : NULL, .row = col ? id : 0 };
        if (x->kind == SUQL_E_ANSWER) {
            q.question = x->args[1]->text;
            for (int h = 0; h < en->nhints; h++)
                if (en->hints[h].node == x) q.type_hint = en->hints[h].hint;
        }
        r[(*nr)++] = q;
    }
    return 0;
}

/* Does a generic atom hold for row ID, given its nodes' values? */
static int atom_holds(suql_engine *en, suql_query *q, const ftatom *fa, const suql_ft_req *r,
                      const st_table *t, const char *alias, int64_t id, int *yes, gn_err *e)
{
    en->vals = xrealloc(en->vals, sizeof *en->vals * (size_t)(fa->nnodes + 1));
    en->nvals = fa->nnodes;
    for (int j = 0; j < fa->nnodes; j++) en->vals[j] = (node_value){ fa->nodes[j], r[j].text };
    suql_emit_hooks h;
    gn_buf b, x;
    gn_buf_init(&b);
    gn_buf_init(&x);
    int rc = suql_emit_expr(q, fa->atom, suql_hooks_literals(en, &h), &x, e);
    en->nvals = 0;
    if (!rc) {
        gn_buf_printf(&b, "CASE WHEN (%s) THEN 1 ELSE 0 END", x.data);
        char *v = NULL;
        rc = row_value(en, b.data, t, alias, id, &v, e);
        *yes = v && !strcmp(v, "1");
        free(v);
    }
    gn_buf_release(&b);
    gn_buf_release(&x);
    return rc;
}

/* See engine_int.h.  Into a new array, never in place: the ranked ids
 * may sit anywhere in V, so writing V while reading it overwrote ids not
 * read yet (and, with an id ranked twice or not in V, past its end). */
void suql_rank_first(int64_t *v, long n, const int64_t *first, long nfirst)
{
    if (n < 2 || nfirst < 1) return;
    ids in = { 0 }, placed = { 0 };
    for (long i = 0; i < n; i++) ids_add(&in, v[i]);
    int64_t *out = xcalloc((size_t)n, sizeof *out);
    long k = 0;
    for (long i = 0; i < nfirst && k < n; i++)
        if (ids_has(&in, first[i]) && !ids_has(&placed, first[i])) {
            ids_add(&placed, first[i]);
            out[k++] = first[i];
        }
    for (long i = 0; i < n && k < n; i++)
        if (!ids_has(&placed, v[i])) {
            ids_add(&placed, v[i]);
            out[k++] = v[i];
        }
    /* A permutation of V: every id placed once.  V has no duplicates (row
     * ids of one SELECT), so k == n. */
    GN_ASSERT(k == n);
    memcpy(v, out, sizeof *out * (size_t)n);
    free(out);
    ids_free(&in);
    ids_free(&placed);
}

/* Put the REACH candidates of IDS most likely to pass first, ranked by the
 * retrieval index against the conjunct's questions; the others keep their
 * SQL order after them.  Ranking costs what the ranked rows' passages cost
 * (all 81,000 candidates of a conjunct at scale 100 are 2.7 million
 * passages: 0.3 s), but only the candidates the budget reaches are ever
 * checked, so only that many are asked of the index (its approximate
 * search serves them in ~15 ms).  Rejected: ranking the whole table and
 * keeping the candidates among its best (the best may all be outside the
 * candidates). */
/* The retrieval constraints of the conjunct's answer() questions over
 * free-text columns, into CONS[RT_MAXCONS]; returns how many. */
static int rank_constraints(const ftatom *fa, int nfa, rt_constraint *cons)
{
    int nc = 0;
    for (int a = 0; a < nfa && nc < RT_MAXCONS; a++) {
        const suql_expr *ans = fa[a].verify ? fa[a].ans : NULL;
        for (int j = -1; j < fa[a].nnodes && nc < RT_MAXCONS; j++) {
            const suql_expr *x = j < 0 ? ans : fa[a].nodes[j];
            if (!x || x->kind != SUQL_E_ANSWER) continue;
            const suql_expr *arg = x->args[0];
            if (arg->kind != SUQL_E_COLUMN || !arg->rcol || !arg->rcol->free_text) continue;
            cons[nc++] = (rt_constraint){ arg->rcol->name, x->args[1]->text };
        }
    }
    return nc;
}

/* The order rank() gives, for --explain. */
static void explain_rank(const suql_engine *en, const ftatom *fa, int nfa, gn_buf *plan)
{
    rt_constraint cons[RT_MAXCONS];
    int nc = rank_constraints(fa, nfa, cons);
    gn_buf_puts(plan, "    order:      ");
    if (!en->cfg.ix || !nc) gn_buf_puts(plan, "as SQLite returns them\n");
    for (int i = 0; en->cfg.ix && i < nc; i++)
        gn_buf_printf(plan, "%s%s ~ '%s'", i ? " + " : "retrieval rank by ", cons[i].col, cons[i].text);
    if (en->cfg.ix && nc)
        gn_buf_puts(plan, " (hybrid, over the candidates: the first ones the budget reaches)\n");
}

static void rank(suql_engine *en, const st_table *t, const ftatom *fa, int nfa, ids *cand, long reach)
{
    rt_constraint cons[RT_MAXCONS];
    int nc = rank_constraints(fa, nfa, cons);
    if (!en->cfg.ix || !nc || cand->n < 2 || reach < 1) return;
    if (reach > cand->n) reach = cand->n;
    rt_query rq = { .tbl = t->name, .cons = cons, .ncons = nc, .cand = cand->v, .ncand = cand->n,
                    .restrict_cand = 1, .k = reach > INT_MAX ? INT_MAX : (int)reach,
                    .mode = RT_HYBRID };
    rt_hit *hits = NULL;
    int nh = 0;
    gn_err e;
    if (rt_search(en->cfg.ix, &rq, &hits, &nh, &e)) {
        /* SQL order then; the note says so when the budget did not reach
         * every candidate (engine.c). */
        if (!en->unranked.len)
            gn_buf_printf(&en->unranked, "the retrieval index could not rank the candidates (%s), so they "
                          "were checked in the order SQLite gave them, not the likeliest first", e.msg);
        return;
    }
    int64_t *first = xcalloc((size_t)nh + 1, sizeof *first);
    for (int i = 0; i < nh; i++) first[i] = hits[i].row_id;
    free(hits);
    suql_rank_first(cand->v, cand->n, first, nh);
    free(first);
    cand->nset = 0;                /* reordered: the set is made again if asked */
    free(cand->set);
    cand->set = NULL;
    cand->setcap = 0;
}

static int describe_atoms(suql_engine *en, ftatom *fa, int nfa, gn_buf *plan)
{
    for (int a = 0; a < nfa; a++) {
        gn_buf_puts(plan, "    free text:  ");
        suql_print_expr(fa[a].atom, plan);
        if (!fa[a].verify)
            gn_buf_puts(plan, "  -> answer()/summary() per candidate, then SQLite\n");
        else if (suql_ft_batch(en->ft) > 1)
            gn_buf_printf(plan, "  -> verify prompt, 1 evaluation per candidate, up to %d "
                          "candidates a call\n", suql_ft_batch(en->ft));
        else
            gn_buf_puts(plan, "  -> verify prompt, 1 evaluation per candidate\n");
    }
    return 0;
}

/* The candidates SQL selects, into OUT (empty), through the cache. */
static int candidates(suql_engine *en, const char *sql, cand_cache *cc, ids *out, gn_err *e)
{
    for (int i = 0; i < cc->n; i++)
        if (!strcmp(cc->sql[i], sql)) {
            for (long j = 0; j < cc->sets[i].n; j++) ids_add(out, cc->sets[i].v[j]);
            return 0;
        }
    int rc = query_ids(en, sql, out, e);
    if (rc) return rc;
    cc->sql = xrealloc(cc->sql, sizeof *cc->sql * (size_t)(cc->n + 1));
    cc->sets = xrealloc(cc->sets, sizeof *cc->sets * (size_t)(cc->n + 1));
    cc->sql[cc->n] = xstrdup(sql);
    memset(&cc->sets[cc->n], 0, sizeof cc->sets[cc->n]);
    for (long j = 0; j < out->n; j++) ids_add(&cc->sets[cc->n], out->v[j]);
    cc->n++;
    return 0;
}

/* The candidates of a conjunct in the order they are checked.  Ranked ones
 * are read all at once (the ranking needs them all); the others come in SQL
 * order, so they are read a page at a time (LIMIT/OFFSET on the candidate
 * SQL, whose ORDER BY ends with _id so that pages neither skip nor repeat a
 * row): only the first ones the budget or LIMIT reach are ever read
 * (sorting 81,000 candidates by rating cost 0.1 s; the first 40 of them
 * 15 ms). */
typedef struct {
    ids v;
    long pos;           /* next to check */
    const char *sql;    /* paged: the candidate SQL without LIMIT */
    int paged, done;
} cand_walk;

static int cand_page(suql_engine *en, cand_walk *w, long n, gn_err *e)
{
    if (n < 1) n = 1;
    char *sql = xasprintf("%s LIMIT %ld OFFSET %ld", w->sql, n, w->v.n);
    long had = w->v.n;
    int rc = query_ids(en, sql, &w->v, e);
    free(sql);
    if (!rc && w->v.n - had < n) w->done = 1;
    return rc;
}

/* The next candidate into *ID (*GOT 0 when there is none); a page of PAGE
 * rows is read when the walk needs one. */
static int cand_next(suql_engine *en, cand_walk *w, long page, int64_t *id, int *got, gn_err *e)
{
    *got = 0;
    if (w->pos == w->v.n && w->paged && !w->done) {
        int rc = cand_page(en, w, page, e);
        if (rc) return rc;
    }
    if (w->pos < w->v.n) {
        *id = w->v.v[w->pos++];
        *got = 1;
    }
    return 0;
}

/* How many rows the candidate SQL (without ORDER BY) selects. */
static int cand_count(suql_engine *en, const char *sql, long *n, gn_err *e)
{
    char *c = xasprintf("SELECT count(*) FROM (%s)", sql);
    ids one = { 0 };
    int rc = query_ids(en, c, &one, e);
    free(c);
    *n = !rc && one.n ? (long)one.v[0] : 0;
    ids_free(&one);
    return rc;
}

/* A conjunct's atoms: the structured ones into S[*NS], the free-text ones
 * into FA[*NFA] with the SQL of the texts they read. */
static int split_atoms(suql_engine *en, const suql_conj *cj, suql_expr **s, int *ns, ftatom *fa,
                       int *nfa, gn_err *e)
{
    int rc = 0;
    for (int i = 0; i < cj->n && !rc; i++) {
        suql_expr *a = cj->atoms[i];
        if (!suql_is_freetext(a)) {
            s[(*ns)++] = a;
            continue;
        }
        ftatom *f = &fa[(*nfa)++];
        f->atom = a;
        f->verify = verify_form(a, &f->ans, &f->op, &f->rhs, &f->neg);
        if (f->verify) {
            if (!(f->ans_sql = emit_arg(en, f->ans->args[0], e))) rc = e->code;
        } else {
            ft_nodes(a, &f->nodes, &f->nnodes);
            f->node_sql = xcalloc((size_t)f->nnodes + 1, sizeof *f->node_sql);
            for (int j = 0; j < f->nnodes && !rc; j++)
                if (!(f->node_sql[j] = emit_arg(en, f->nodes[j]->args[0], e))) rc = e->code;
        }
    }
    return rc;
}

/* The candidate SQL of a conjunct: SELECT _id with its structured atoms S,
 * into ALL; and, when ORDERED, the same in the query's ORDER BY order
 * (then _id, so pages neither skip nor repeat a row) into SQL, else a
 * copy of ALL. */
static int candidate_sql(suql_engine *en, suql_query *q, const suql_select *sel, const st_table *t,
                         const char *alias, suql_expr **s, int ns, int ordered, gn_buf *all,
                         gn_buf *sql, gn_err *e)
{
    suql_select tmp = *sel;
    suql_target tg = { suql_id_column(q, t, alias), NULL };
    tmp.targets = &tg;
    tmp.ntargets = 1;
    tmp.where = and_of(q, s, ns);
    tmp.order = NULL;
    tmp.norder = 0;
    tmp.limit = tmp.offset = NULL;
    tmp.distinct = 0;
    tmp.ngroup = 0;
    tmp.having = NULL;
    suql_emit_hooks h;
    int rc = suql_emit_select(q, &tmp, suql_hooks_calls(en, &h), all, e);
    if (rc || !ordered) {
        if (!rc) gn_buf_puts(sql, all->data);
        return rc;
    }
    tmp.norder = sel->norder + 1;
    tmp.order = suql_array_new(q, tmp.norder, sizeof *tmp.order);
    if (sel->norder) memcpy(tmp.order, suql_order_sans_alias(q, sel), sizeof *tmp.order * (size_t)sel->norder);
    tmp.order[sel->norder] = (suql_order){ suql_id_column(q, t, alias), 0, SUQL_NULLS_DEFAULT };
    return suql_emit_select(q, &tmp, suql_hooks_calls(en, &h), sql, e);
}

/* Does atom FA hold for the candidate whose requests are R (its share of
 * a window's evaluation)?  *OK gets the verdict; a network failure or a
 * cancel is the run's error, an unreadable reply a No. */
static int atom_verdict(suql_engine *en, suql_query *q, const ftatom *fa, const suql_ft_req *r,
                        const st_table *t, const char *alias, int64_t id, int *ok, gn_err *e)
{
    int n = fa->verify ? 1 : fa->nnodes;
    *ok = 1;
    for (int j = 0; j < n; j++) {
        if (r[j].status == GN_ENET || r[j].status == GN_ECANCEL) {
            *e = r[j].err;
            return e->code;
        }
        if (r[j].status) *ok = 0;            /* unreadable reply: not shown as passing */
    }
    if (!*ok) return 0;
    if (fa->verify) {
        *ok = r[0].yes != fa->neg;
        return 0;
    }
    return atom_holds(en, q, fa, r, t, alias, id, ok, e);
}

/* Check the candidates WIN[NW] against the free-text atoms FA[NFA], ANDed:
 * atom by atom, each asked only of the candidates every atom before it
 * passed (a row that fails the first filter costs no evaluation of the
 * second).  WIN keeps the passing ones in *NW.  *SPENT is set when the
 * budget ran out part way (the candidates not decided then do not pass). */
static int check_window(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                        ftatom *fa, int nfa, int64_t *win, int *nw, int *spent, gn_err *e)
{
    int rc = 0, n = *nw;
    int *alive = xcalloc((size_t)n + 1, sizeof *alive), *ask = xcalloc((size_t)n + 1, sizeof *ask);
    for (int c = 0; c < n; c++) alive[c] = 1;
    *spent = 0;
    for (int a = 0; a < nfa && !rc && !*spent; a++) {
        int per = fa[a].verify ? 1 : fa[a].nnodes, na = 0;
        for (int c = 0; c < n; c++)             /* the baseline asks every row every filter */
            if (alive[c] || en->cfg.legacy_checks) ask[na++] = c;
        if (!na) break;
        suql_ft_req *r = xcalloc((size_t)(na * per) + 1, sizeof *r);
        char **owned = xcalloc((size_t)(na * per) + 1, sizeof *owned);
        int nr = 0, no = 0;
        for (int i = 0; i < na && !rc; i++)
            rc = atom_requests(en, &fa[a], t, alias, win[ask[i]], r, &nr, owned, &no, e);
        if (!rc) rc = suql_eval(en, r, nr, e);
        if (rc == GN_ELIMIT) {                  /* nested free text spent it: stop here */
            *spent = 1;
            rc = 0;
        }
        for (int i = 0; i < na && !rc && !*spent; i++) {
            int ok = 0;
            rc = atom_verdict(en, q, &fa[a], &r[i * per], t, alias, win[ask[i]], &ok, e);
            if (!rc && !ok) alive[ask[i]] = 0;
        }
        for (int i = 0; i < no; i++) free(owned[i]);
        free(owned);
        free(r);
    }
    int kept = 0;
    for (int c = 0; c < n && !*spent; c++)
        if (alive[c]) win[kept++] = win[c];
    *nw = kept;
    free(alive);
    free(ask);
    return rc;
}

/* How many candidates the budget left can check at PER evaluations each
 * (the select list's share, en->reserve, kept back): the one budget
 * formula of the optimized run. */
static long room_for(const suql_engine *en, int per)
{
    return (en->budget - en->reserve - en->used) / (per > 0 ? per : 1);
}

/* How many candidates the next window checks.  A window's checks go out
 * at once, as many calls in flight as the client allows: a window smaller
 * than one round of calls leaves the round half empty and the query
 * waits for more rounds than it needs (a query that matches nothing spent
 * five rounds of one call each on its budget of 40); a window larger than
 * the passes still wanted need checks rows past LIMIT, which costs calls.
 * So the window is what the pass rate seen says will give the WANTED
 * passes still wanted (the first window assumes every row passes; then
 * (passes+1)/(checked+2) estimates the rate, as ow_in_reach), rounded up
 * to whole calls, at least the concurrency's number of rows (the window
 * it always was) and at most what one round of calls carries (the first
 * filter asks every row of the window: concurrency x verify batch rows
 * for a verify, concurrency / evaluations otherwise).  A whole round when
 * WANTED < 0 (every passing row wanted); when the budget left fits in one
 * round (LIMIT 1's 40 checks are 5 calls: one round instead of two, for
 * which a query that matches early pays up to 4 calls more); and when the
 * budget left after the window would be less than the window (that tail
 * would wait a round of its own for a few rows).  Never past ROOM, the
 * budget's reach.  A fixed window (the configuration's, the benchmark's
 * baseline) overrides it.  On the paper's queries, with run_ordered's
 * windows of 8 while it decides: 0.72x the wall time for 1.06x the calls
 * (BENCH=suql, against the fixed window of 8). */
static long window_for(const suql_engine *en, const ftatom *fa, int nfa, long wanted, long checked,
                       long passes, long room)
{
    long w;
    if (en->cfg.window > 0) {
        w = en->cfg.window;
    } else {
        long conc = en->cfg.concurrency;
        long call = nfa && fa[0].verify ? suql_ft_batch(en->ft) : 1;      /* rows a call */
        long round = nfa && !fa[0].verify ? conc / (fa[0].nnodes > 0 ? fa[0].nnodes : 1) : conc * call;
        if (round < 1) round = 1;
        w = round;
        if (wanted >= 0) {
            double need = checked ? ceil((double)wanted * (double)(checked + 2) / (double)(passes + 1))
                                  : (double)wanted;
            if (need < (double)w) w = ((long)need + call - 1) / call * call;
            if (w < conc) w = conc < round ? conc : round;
            if (room <= round || room - w < w) w = round;
        }
    }
    return w < room ? w : room;
}

/* Whether an ordered conjunct's candidates are checked most relevant first
 * rather than in ORDER BY order: when the budget cannot check them all.
 * In ORDER BY order the first rows found are the first of the answer, but
 * a budget that reaches 40 of 287 candidates sorted by rating checks
 * whatever is rated best, and finds nothing when the matches are further
 * down; most relevant first, the budget goes where matches are likely and
 * the rows that pass are sorted by the final statement's ORDER BY.  Then
 * a better-placed match may stay unchecked, which the budget note says. */
static int relevance_first(const suql_engine *en, long total, int per, long passed)
{
    long room = room_for(en, per) + passed;
    return en->cfg.ix && total > room && !en->cfg.legacy_checks;
}

/* ---- an ordered conjunct the budget cannot check whole ------------------------------------
 *
 * ORDER BY ... LIMIT k asks for the k best rows that pass.  Checked in
 * ORDER BY order and stopped at k passes, the answer is exact; checked
 * most relevant first, matches are found sooner but a better-placed one
 * may stay unchecked.  So the walk goes in ORDER BY order while the pass
 * rate seen so far says k passes are within the budget; when it says they
 * are not, the rest of the budget goes to the most relevant unchecked
 * candidates, and once k have passed, back to ORDER BY order to check the
 * unchecked ones placed before the k-th pass (each new pass moves that
 * bound up).  The answer is exact when every candidate placed before the
 * k-th pass was checked (rows an earlier conjunct passed count as passes:
 * they are in the answer's pool).  Otherwise the run's stats say it is
 * not (inexact), and the note says how much was checked. */
typedef struct {
    ids ord;                  /* the candidates in ORDER BY order (then _id) */
    int64_t *key;             /* id -> position: open addressing, 0 = empty */
    long *pos, cap;
    unsigned char *checked;   /* by position: checked, or in the pool already */
    long *best, nbest;        /* positions of the first WANT passes, sorted */
    long want, cursor;        /* ORDER BY walk: positions before it are checked */
} ord_walk;

static void ow_free(ord_walk *w)
{
    ids_free(&w->ord);
    free(w->key);
    free(w->pos);
    free(w->checked);
    free(w->best);
}

static void ow_index(ord_walk *w)
{
    w->cap = 64;
    while (w->cap < w->ord.n * 2) w->cap *= 2;
    w->key = xcalloc((size_t)w->cap, sizeof *w->key);
    w->pos = xcalloc((size_t)w->cap, sizeof *w->pos);
    for (long i = 0; i < w->ord.n; i++) {
        unsigned long h = hash_id(w->ord.v[i]) & (unsigned long)(w->cap - 1);
        while (w->key[h]) h = (h + 1) & (unsigned long)(w->cap - 1);
        w->key[h] = w->ord.v[i];
        w->pos[h] = i;
    }
    w->checked = xcalloc((size_t)w->ord.n + 1, 1);
    w->best = xcalloc((size_t)w->want + 1, sizeof *w->best);
}

static long ow_pos(const ord_walk *w, int64_t id)
{
    for (unsigned long h = hash_id(id) & (unsigned long)(w->cap - 1); w->key[h];
         h = (h + 1) & (unsigned long)(w->cap - 1))
        if (w->key[h] == id) return w->pos[h];
    return -1;
}

/* A pass at position P: kept when among the first WANT. */
static void ow_pass(ord_walk *w, long p)
{
    if (w->want < 1 || (w->nbest == w->want && p >= w->best[w->want - 1])) return;
    long i = w->nbest < w->want ? w->nbest++ : w->want - 1;     /* the last one drops */
    while (i > 0 && w->best[i - 1] > p) {
        w->best[i] = w->best[i - 1];
        i--;
    }
    w->best[i] = p;
}

/* The positions that must be checked for the answer to be exact: those
 * before the WANT-th pass (all, while fewer have passed). */
static long ow_bound(const ord_walk *w)
{
    return w->nbest >= w->want ? w->best[w->want - 1] : w->ord.n;
}

/* Whether the pass rate seen (PASSES of CHECKED) leaves k passes within
 * ROOM more checks in ORDER BY order: (passes+1)/(checked+2) estimates the
 * rate (it starts at one half). */
static int ow_in_reach(const ord_walk *w, long checked, long passes, long room)
{
    double need = (double)(w->want - w->nbest) * (double)(checked + 2) / (double)(passes + 1);
    return need <= (double)room;
}

static int run_ordered(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                       ftatom *fa, int nfa, int per, const char *ordered_sql, long total,
                       long want, ids *passed, gn_err *e)
{
    ord_walk w = { .want = want };
    int rc = query_ids(en, ordered_sql, &w.ord, e);
    if (rc) return rc;
    ow_index(&w);
    for (long i = 0; i < passed->n; i++) {                /* the pool so far */
        long p = ow_pos(&w, passed->v[i]);
        if (p >= 0 && !w.checked[p]) {
            w.checked[p] = 1;
            ow_pass(&w, p);
        }
    }
    ids ranked = { 0 };
    long rpos = 0, checked_a = 0, passes_a = 0;   /* in ORDER BY order, before ranking */
    long checked_n = 0, passes_n = 0;             /* in all, for the window's size */
    int phase = 0;                  /* 0: ORDER BY order; 1: most relevant first */
    int spent = 0, exact = 0;
    while (!rc) {
        if (en->cancel && *en->cancel) {
            rc = gn_err_set(e, GN_ECANCEL, "the query was cancelled");
            break;
        }
        long bound = ow_bound(&w);
        while (w.cursor < bound && w.checked[w.cursor]) w.cursor++;
        if (w.cursor >= bound) {
            exact = 1;
            break;
        }
        int room = (int)room_for(en, per);
        if (room <= 0) break;
        /* In ORDER BY order, before the walk knows whether LIMIT is in
         * reach, a window reaches the concurrency's rows at most: a larger
         * one spends the budget in that order before the pass rate can
         * send it to the most relevant candidates (the campaigns' recall
         * fell from 32 to 30 of 37 true matches). */
        int deciding = phase == 0 && w.nbest < want && en->cfg.ix && en->cfg.window <= 0;
        int reach = deciding && room > en->cfg.concurrency ? en->cfg.concurrency : room;
        int cap = (int)window_for(en, fa, nfa, w.nbest < want ? want - w.nbest : -1, checked_n,
                                  passes_n, reach);
        if (phase == 0 && w.nbest < want && en->cfg.ix && checked_a > 0 &&
            !ow_in_reach(&w, checked_a, passes_a, room)) {
            phase = 1;                  /* rank what is left, once */
            for (long i = 0; i < w.ord.n; i++)
                if (!w.checked[i]) ids_add(&ranked, w.ord.v[i]);
            rank(en, t, fa, nfa, &ranked, room);
            if (en->st) en->st->relevance_first = 1;
        }
        int64_t *win = xcalloc((size_t)cap, sizeof *win);
        int nw = 0;
        if (phase == 1 && w.nbest < want) {
            while (nw < cap && rpos < ranked.n) {
                long p = ow_pos(&w, ranked.v[rpos++]);
                if (p >= 0 && !w.checked[p]) win[nw++] = w.ord.v[p];
            }
        } else {
            for (long p = w.cursor; nw < cap && p < bound; p++)
                if (!w.checked[p]) win[nw++] = w.ord.v[p];
        }
        if (!nw) {                      /* the ranking ran dry: ORDER BY order again */
            free(win);
            phase = 2;
            continue;
        }
        int n = nw;
        for (int i = 0; i < n; i++) w.checked[ow_pos(&w, win[i])] = 1;
        rc = check_window(en, q, t, alias, fa, nfa, win, &nw, &spent, e);
        if (!rc && !spent) {
            if (en->st) en->st->checked += n;
            if (phase == 0) checked_a += n, passes_a += nw;
            checked_n += n, passes_n += nw;
            for (int i = 0; i < nw; i++) {
                ids_add(passed, win[i]);
                ow_pass(&w, ow_pos(&w, win[i]));
                if (en->st) en->st->passed++;
            }
        }
        free(win);
        if (en->progress && en->st) en->progress(en->progress_ud, en->st->checked, total);
        if (spent) break;
    }
    if (!rc && !exact && en->st) {
        en->st->inexact = 1;
        en->st->budget_hit = 1;
    }
    ids_free(&ranked);
    ow_free(&w);
    return rc;
}

/* ---- an aggregate the budget cannot check whole ------------------------------------------------
 *
 * count(*) over a free-text filter counts the rows that pass; with more
 * candidates than the budget checks, that is a lower bound.  So the budget
 * is split: two thirds (all but SUQL_SAMPLE rows at most) go to the most
 * relevant candidates, as before, and the rest to a uniform random sample
 * of the candidates left (a fixed-seed generator: the same query draws the
 * same sample, so its checks are memoized and cached alike).  The sample's
 * pass rate x/s estimates the matches among the R candidates neither
 * checked nor sampled, without bias; the Wilson score interval at 95%
 * bounds it.  The rows that pass, sample included, are the ones counted;
 * the estimate goes in the stats, for the note. */
static void wilson(long x, long s, double *lo, double *hi)
{
    const double z = 1.959964;
    double p = (double)x / (double)s, n = (double)s, d = 1 + z * z / n;
    double c = (p + z * z / (2 * n)) / d;
    double h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = c - h < 0 ? 0 : c - h;
    *hi = c + h > 1 ? 1 : c + h;
}

/* Check the candidates V[from, to) in windows; the passing ones go to
 * PASSED.  *NCHECKED and *NPASS count them; *SPENT as check_window. */
static int check_range(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                       ftatom *fa, int nfa, const int64_t *v, long from, long to, ids *passed,
                       long total, long *nchecked, long *npass, int *spent, gn_err *e)
{
    int rc = 0;
    *spent = 0;
    for (long at = from; !rc && !*spent && at < to;) {
        if (en->cancel && *en->cancel) return gn_err_set(e, GN_ECANCEL, "the query was cancelled");
        int w = (int)window_for(en, fa, nfa, -1, 0, 0, to - at);
        int64_t *win = xcalloc((size_t)w, sizeof *win);
        int nw = 0;
        for (; at < to && nw < w; at++)
            if (!ids_has(passed, v[at])) win[nw++] = v[at];
        int n = nw;
        if (n) rc = check_window(en, q, t, alias, fa, nfa, win, &nw, spent, e);
        if (!rc && !*spent && n) {
            *nchecked += n;
            *npass += nw;
            for (int i = 0; i < nw; i++) ids_add(passed, win[i]);
            if (en->st) en->st->checked += n, en->st->passed += nw;
            if (en->progress && en->st) en->progress(en->progress_ud, en->st->checked, total);
        }
        free(win);
    }
    return rc;
}

static int run_sampled(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                       ftatom *fa, int nfa, int per, ids *cand, long total, ids *passed,
                       gn_err *e)
{
    long room = room_for(en, per);
    long s = room / 3 < SUQL_SAMPLE ? room / 3 : SUQL_SAMPLE;
    long first = room - s, checked = 0, pass = 0, x = 0, sdone = 0;
    if (first > cand->n) first = cand->n;
    int spent = 0;
    int rc = check_range(en, q, t, alias, fa, nfa, cand->v, 0, first, passed, total, &checked,
                         &pass, &spent, e);
    /* the sample: the first S of a partial Fisher-Yates shuffle of the rest */
    long rest = cand->n - first;
    if (s > rest) s = rest;
    uint64_t g = 0x9e3779b97f4a7c15ull ^ (uint64_t)total;
    for (long i = 0; i < s; i++) {
        g = g * 6364136223846793005ull + 1442695040888963407ull;
        long j = first + i + (long)((g >> 33) % (uint64_t)(rest - i));
        int64_t tmp = cand->v[first + i];
        cand->v[first + i] = cand->v[j];
        cand->v[j] = tmp;
    }
    cand->nset = 0;                     /* reordered: the set is made again if asked */
    free(cand->set);
    cand->set = NULL;
    cand->setcap = 0;
    if (!rc && !spent && s > 0)
        rc = check_range(en, q, t, alias, fa, nfa, cand->v, first, first + s, passed, total,
                         &sdone, &x, &spent, e);
    if (!rc && en->st) {
        suql_run_stats *st = en->st;
        st->budget_hit = 1;
        st->confirmed = pass + x;
        if (!spent && sdone > 0) {
            double lo, hi;
            wilson(x, sdone, &lo, &hi);
            long left = rest - sdone;
            st->sampled = sdone;
            st->sample_passed = x;
            st->sample_rest = left;
            st->est_total = st->confirmed + lround((double)left * (double)x / (double)sdone);
            st->est_lo = st->confirmed + lround((double)left * lo);
            st->est_hi = st->confirmed + lround((double)left * hi);
        }
    }
    return rc;
}

/* ---- a conjunct: its plan, the plan said, the plan run ---------------------------------------
 *
 * What a conjunct's run does is decided before anything is checked, into
 * a cj_plan: its atoms, its candidate SQL, how many candidates there are
 * where a decision needs the number, and the order and the checks the
 * budget buys.  --explain prints the plan (explain_conjunct); the run
 * carries it out (execute_conjunct).  Both read the same decisions, so
 * what --explain says is what the run does. */
typedef struct cj_plan {
    suql_expr **s;            /* the structured atoms */
    int ns;
    ftatom *fa;               /* the free-text atoms */
    int nfa;
    int evals;                /* evaluations the free-text atoms ask of a
                                 candidate (0: free text only in subqueries) */
    int per;                  /* what a candidate costs the budget: evals, at
                                 least 1 */
    int ordered;              /* ORDER BY decides the rows (no aggregates) */
    int by_relevance;         /* ordered, but the budget cannot check every
                                 candidate: the most relevant first */
    int walk;                 /* by_relevance with a LIMIT: run_ordered */
    int rank;                 /* candidates ranked by the retrieval index */
    int sample;               /* an aggregate: part of the budget to a
                                 random sample (run_sampled) */
    long want;                /* LIMIT + OFFSET, -1: all */
    long total;               /* the candidates, -1 while unknown */
    long reach;               /* candidates the budget reaches, with the
                                 rows earlier conjuncts passed */
    gn_buf sql, all;          /* the candidate SQL in check order; the same
                                 unordered, for counts */
} cj_plan;

static void plan_release(cj_plan *p)
{
    gn_buf_release(&p->sql);
    gn_buf_release(&p->all);
    free(p->s);
    ftatoms_free(p->fa, p->nfa);
}

/* The decisions that need no candidate read: atoms, candidate SQL, and,
 * for an ordered conjunct with free text, the count that says whether
 * the budget can check them in ORDER BY order. */
static int plan_make(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t, const char *alias,
                     const suql_conj *cj, long want, long npassed, cj_plan *p, gn_err *e)
{
    memset(p, 0, sizeof *p);
    gn_buf_init(&p->sql);
    gn_buf_init(&p->all);
    p->s = xcalloc((size_t)cj->n + 1, sizeof *p->s);
    p->fa = xcalloc((size_t)cj->n + 1, sizeof *p->fa);
    p->want = want;
    p->total = -1;
    int rc = split_atoms(en, cj, p->s, &p->ns, p->fa, &p->nfa, e);
    /* With aggregates every passing row is needed and ORDER BY may name an
     * aggregate: the candidates are ranked instead. */
    p->ordered = sel->norder && !suql_aggregates(sel);
    for (int a = 0; a < p->nfa; a++) p->evals += p->fa[a].verify ? 1 : p->fa[a].nnodes;
    p->per = p->evals ? p->evals : 1;
    if (!rc) rc = candidate_sql(en, q, sel, t, alias, p->s, p->ns, p->ordered, &p->all, &p->sql, e);
    /* An ordered conjunct whose candidates the budget cannot all check is
     * checked most relevant first (relevance_first): counted first. */
    if (!rc && p->ordered && p->nfa) {
        rc = cand_count(en, p->all.data, &p->total, e);
        p->by_relevance = !rc && relevance_first(en, p->total, p->per, npassed);
    }
    p->walk = p->by_relevance && want > 0 && !en->cfg.relevance_stop;
    p->rank = !p->walk && p->nfa && (!p->ordered || p->by_relevance);
    p->reach = room_for(en, p->per) + npassed;
    return rc;
}

/* The candidates, into CW: all of them when they are ranked, the first
 * page when they are read in SQL order (not when explaining); then their
 * number where the plan or the figures need it. */
static int plan_candidates(suql_engine *en, cj_plan *p, cand_walk *cw, cand_cache *cc, int explain,
                           long npassed, gn_err *e)
{
    int rc = 0;
    cw->paged = (p->ordered && !p->by_relevance) || !p->nfa;
    cw->sql = p->sql.data;
    long want = p->want;
    if (p->walk) {
        /* run_ordered reads the candidates itself */
    } else if (!cw->paged) {
        rc = candidates(en, p->by_relevance ? p->all.data : p->sql.data, cc, &cw->v, e);
    } else if (!explain) {
        rc = cand_page(en, cw, !p->nfa ? (want < 0 ? LONG_MAX / 2 : p->ordered ? want : want + npassed)
                                        : p->reach, e);
    }
    if (!rc && p->total < 0 && (!cw->paged || (cw->done && !explain))) p->total = cw->v.n;
    else if (!rc && p->total < 0 && (explain || en->st || en->progress)) rc = cand_count(en, p->all.data, &p->total, e);
    return rc;
}

/* The decision that needs the count: an aggregate whose candidates the
 * budget cannot all check gives part of it to a random sample, to
 * estimate the rest. */
static void plan_finish(const suql_engine *en, const suql_select *sel, cj_plan *p)
{
    long room0 = room_for(en, p->per);
    p->sample = !p->walk && p->nfa && p->want < 0 && suql_aggregates(sel) && en->nconj == 1 &&
                p->total > room0 && room0 >= 3 && !en->cfg.legacy_checks;
}

static void explain_conjunct(suql_engine *en, const cj_plan *p, int paged, gn_buf *plan)
{
    gn_buf_printf(plan, "    structured: %s\n    candidates: %ld rows now%s\n", p->sql.data, p->total,
                  paged ? ", read in that order a page at a time" : "");
    describe_atoms(en, p->fa, p->nfa, plan);
    if (p->walk)
        gn_buf_printf(plan, "    order:      the budget cannot check all %ld: ORDER BY order while "
                      "the pass rate seen keeps LIMIT rows within it, then the most relevant, "
                      "then ORDER BY order again up to the last row kept; exact when every "
                      "candidate placed before it was checked, and said when not\n", p->total);
    else if (p->rank && p->by_relevance)
        gn_buf_printf(plan, "    order:      the budget cannot check all %ld in ORDER BY order: "
                      "the most relevant first, the rows that pass then sorted by ORDER BY\n", p->total);
    else if (p->rank)
        explain_rank(en, p->fa, p->nfa, plan);
    else if (p->nfa)
        gn_buf_puts(plan, "    order:      ORDER BY, exactly (the budget can check every candidate)\n");
    if (p->sample)
        gn_buf_printf(plan, "    estimate:   the budget cannot check all %ld: about two thirds of it "
                      "to the most relevant, the rest to a random sample of the others (at most "
                      "%d rows), whose pass rate estimates the matches not checked (Wilson 95%% "
                      "interval)\n", p->total, SUQL_SAMPLE);
    if (p->nfa > 1)
        gn_buf_puts(plan, "    checks:     filter by filter, each asked only of the rows that "
                          "passed the ones before\n");
}

/* No free text: every candidate passes.  With ORDER BY the conjunct's own
 * first LIMIT rows are enough, without it the first rows that make LIMIT
 * with those already found. */
static int take_all(suql_engine *en, const cj_plan *p, cand_walk *cw, ids *passed, gn_err *e)
{
    long want = p->want, mine = 0;
    long page = want < 0 ? LONG_MAX / 2 : p->ordered ? want : want + passed->n;
    int rc = 0, got = 1;
    while (!rc && got) {
        if (want >= 0 && (p->ordered ? mine >= want : passed->n >= want)) break;
        int64_t id;
        rc = cand_next(en, cw, page, &id, &got, e);
        if (!rc && got && !ids_has(passed, id)) {
            ids_add(passed, id);
            mine++;
        }
    }
    return rc;
}

/* The checks, a window of candidates at a time in CW's order, until the
 * conjunct has its LIMIT rows, the budget is spent or no candidate is
 * left. */
static int check_windows(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                         const suql_select *sel, const cj_plan *p, cand_walk *cw, ids *passed, gn_err *e)
{
    long want = p->want, mine = 0, seen = 0;
    int rc = 0;
    while (!rc) {
        if (en->cancel && *en->cancel) {
            rc = gn_err_set(e, GN_ECANCEL, "the query was cancelled");
            break;
        }
        if (want >= 0 && mine >= want) break;
        if (want >= 0 && !sel->norder && passed->n >= want) break;
        long room = room_for(en, p->per);
        long wanted = want < 0 ? -1 : !sel->norder && want - passed->n < want - mine ? want - passed->n
                                                                                  : want - mine;
        int w = (int)window_for(en, p->fa, p->nfa, wanted, seen, mine, room);
        if (cw->pos == cw->v.n && cw->paged && !cw->done && (p->total < 0 || p->total > cw->v.n))
            rc = cand_page(en, cw, room > 0 ? room + passed->n : 1, e);
        if (rc || cw->pos == cw->v.n) break;          /* every candidate checked */
        if (w <= 0) {
            if (en->st) en->st->budget_hit = 1;
            break;
        }
        int64_t *win = xcalloc((size_t)w, sizeof *win);
        int nw = 0, got = 1;
        while (!rc && nw < w && got) {
            int64_t id;
            rc = cand_next(en, cw, room + passed->n, &id, &got, e);
            if (!rc && got && !ids_has(passed, id)) win[nw++] = id;
        }
        if (!nw) {
            free(win);
            break;
        }
        int checked = nw, spent = 0;
        seen += checked;
        if (!rc) rc = check_window(en, q, t, alias, p->fa, p->nfa, win, &nw, &spent, e);
        if (spent && en->st) en->st->budget_hit = 1;
        if (!spent && en->st) en->st->checked += checked;
        for (int c = 0; c < nw && !rc; c++) {
            ids_add(passed, win[c]);
            mine++;
            if (en->st) en->st->passed++;
        }
        free(win);
        if (en->progress && en->st) en->progress(en->progress_ud, en->st->checked, p->total);
        if (spent) break;
    }
    return rc;
}

static int execute_conjunct(suql_engine *en, suql_query *q, const st_table *t, const char *alias,
                            const suql_select *sel, const cj_plan *p, cand_walk *cw, ids *passed, gn_err *e)
{
    if (p->walk)
        return run_ordered(en, q, t, alias, p->fa, p->nfa, p->per, p->sql.data, p->total, p->want, passed, e);
    if (p->rank) rank(en, t, p->fa, p->nfa, &cw->v, p->reach);
    if (p->sample) return run_sampled(en, q, t, alias, p->fa, p->nfa, p->per, &cw->v, p->total, passed, e);
    if (!p->nfa) return take_all(en, p, cw, passed, e);
    return check_windows(en, q, t, alias, sel, p, cw, passed, e);
}

/* One conjunct: planned, then explained into PLAN (not NULL) or run. */
static int run_conjunct(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t,
                        const char *alias, const suql_conj *cj, long want, ids *passed,
                        cand_cache *cc, gn_buf *plan, gn_err *e)
{
    cj_plan p;
    cand_walk cw = { 0 };
    int rc = plan_make(en, q, sel, t, alias, cj, want, passed->n, &p, e);
    if (!rc) rc = plan_candidates(en, &p, &cw, cc, plan != NULL, passed->n, e);
    if (!rc) plan_finish(en, sel, &p);
    if (!rc && en->st) {
        if (p.total > 0) en->st->candidates += p.total, en->st->bound += p.total * p.evals;
        if (p.rank && p.by_relevance) en->st->relevance_first = 1;
    }
    if (!rc && plan) explain_conjunct(en, &p, cw.paged, plan);
    else if (!rc) rc = execute_conjunct(en, q, t, alias, sel, &p, &cw, passed, e);
    ids_free(&cw.v);
    plan_release(&p);
    return rc;
}

/* ---- the run ------------------------------------------------------------------------------ */

/* A step's figures are the run's totals after it less those before it. */
static void step_start(suql_engine *en, suql_run_stats *before)
{
    if (!en->st) return;
    *before = *en->st;
    before->ms_total = gn_now() * 1e3;
}

static void step_end(suql_engine *en, const suql_run_stats *b, int conjunct)
{
    suql_run_stats *s = en->st;
    if (!s) return;
    suql_step_stats *p;
    if (s->nsteps < SUQL_MAX_STEPS - 1 || (!conjunct && s->nsteps < SUQL_MAX_STEPS)) {
        p = &s->steps[s->nsteps++];
        memset(p, 0, sizeof *p);
        p->conjunct = conjunct;
    } else {
        p = &s->steps[s->nsteps - 1];         /* the last conjunct shown takes the rest */
    }
    p->candidates += s->candidates - b->candidates;
    p->checked += s->checked - b->checked;
    p->passed += s->passed - b->passed;
    p->evaluations += s->evaluations - b->evaluations;
    p->llm_calls += s->llm_calls - b->llm_calls;
    p->cache_hits += s->cache_hits - b->cache_hits;
    p->memo_hits += s->memo_hits - b->memo_hits;
    p->ms_llm += s->ms_llm - b->ms_llm;
    p->ms_total += gn_now() * 1e3 - b->ms_total;
}

int suql_select_reserve(const suql_engine *en, long want, int nft)
{
    return want >= 0 && nft ? (int)(want * nft < en->budget / 2 ? want * nft : en->budget / 2) : 0;
}

int suql_run_optimized(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t,
                       const char *a, const suql_dnf *dnf, suql_result *res, gn_buf *plan,
                       gn_err *e)
{
    const suql_dnf d = *dnf;
    int rc = 0;
    if (en->st) en->st->conjuncts = d.n;
    en->nconj = d.n;
    long want = suql_rows_wanted(sel);
    int nft = suql_freetext_targets(sel);
    en->reserve = suql_select_reserve(en, want, nft);
    if (en->reserve_outer > en->reserve) en->reserve = en->reserve_outer;
    if (plan) {
        gn_buf_puts(plan, "where, in disjunctive normal form:\n");
        suql_dnf_print(&d, plan);
        if (want >= 0) gn_buf_printf(plan, "rows:   %ld wanted (LIMIT + OFFSET): checks stop there\n", want);
        else gn_buf_puts(plan, "rows:   all (no LIMIT, or aggregates): checks run until the budget\n");
    }
    ids passed = { 0 };
    cand_cache cc = { 0 };
    suql_run_stats before;
    for (int i = 0; i < d.n && !rc; i++) {
        if (plan) gn_buf_printf(plan, "conjunct %d:\n", i + 1);
        step_start(en, &before);
        rc = run_conjunct(en, q, sel, t, a, &d.c[i], want, &passed, &cc, plan, e);
        step_end(en, &before, i + 1);
    }
    cand_cache_free(&cc);
    if (!rc && plan) {
        gn_buf_puts(plan, "final:  the query over the rows that pass (WHERE replaced by _id IN "
                          "(...)); answer() and summary() of the select list for the rows "
                          "returned only\n");
    } else if (!rc) {
        step_start(en, &before);
        rc = suql_run_final(en, q, sel, t, a, passed.v, passed.n, !sel->norder, res, e);
        step_end(en, &before, 0);
    }
    ids_free(&passed);
    return rc;
}

suql_expr *suql_in_ids(suql_query *q, const st_table *t, const char *a, const int64_t *v, long n)
{
    if (!n) return int_lit(q, 0);
    suql_expr *in = suql_expr_new(q, SUQL_E_IN, 0);
    in->l = suql_id_column(q, t, a);
    in->nargs = (int)n;
    in->args = suql_array_new(q, in->nargs, sizeof *in->args);
    for (long i = 0; i < n; i++) in->args[i] = int_lit(q, v[i]);
    return in;
}

/* ORDER BY the position of _id in V. */
static suql_order *order_as(suql_query *q, const st_table *t, const char *a, const int64_t *v, long n)
{
    suql_expr *cs = suql_expr_new(q, SUQL_E_CASE, 0);
    cs->l = suql_id_column(q, t, a);
    cs->nargs = (int)n * 2;
    cs->args = suql_array_new(q, cs->nargs ? cs->nargs : 1, sizeof *cs->args);
    for (long i = 0; i < n; i++) {
        cs->args[2 * i] = int_lit(q, v[i]);
        cs->args[2 * i + 1] = int_lit(q, i);
    }
    suql_order *o = suql_array_new(q, 1, sizeof *o);
    o[0] = (suql_order){ cs, 0, SUQL_NULLS_DEFAULT };
    return o;
}

int suql_run_final(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t,
                   const char *a, const int64_t *ids_in, long nids, int keep_order,
                   suql_result *res, gn_err *e)
{
    suql_emit_hooks h;
    gn_buf sql;
    gn_buf_init(&sql);
    int rc = 0;
    suql_select fin = *sel;
    if (nids >= 0) fin.where = suql_in_ids(q, t, a, ids_in, nids);
    if (keep_order && !sel->norder && nids > 1) {
        fin.order = order_as(q, t, a, ids_in, nids);
        fin.norder = 1;
    }
    if (!suql_aggregates(sel)) {
        /* Which rows, first, with no free text computed: SQLite computes a
         * sorted statement's select list for every row before LIMIT. */
        suql_select idsel = fin;
        suql_target tg = { suql_id_column(q, t, a), NULL };
        idsel.targets = &tg;
        idsel.ntargets = 1;
        if (fin.order == sel->order) idsel.order = suql_order_sans_alias(q, sel);
        ids got = { 0 };
        rc = suql_emit_select(q, &idsel, suql_hooks_calls(en, &h), &sql, e);
        if (!rc) rc = query_ids(en, sql.data, &got, e);
        if (!rc) {
            fin.where = suql_in_ids(q, t, a, got.v, got.n);
            fin.limit = fin.offset = NULL;
            if (!sel->norder && got.n > 1) {
                fin.order = order_as(q, t, a, got.v, got.n);
                fin.norder = 1;
            }
        }
        ids_free(&got);
        gn_buf_reset(&sql);
    }
    if (!rc) rc = suql_emit_select(q, &fin, suql_hooks_calls(en, &h), &sql, e);
    if (!rc) rc = suql_run_sql(en, sql.data, 1, res, e);
    gn_buf_release(&sql);
    return rc;
}
