/*
 * shared.c — a question about a name several rows share.
 *
 * "Is Linden expensive?" becomes SELECT price FROM restaurants WHERE
 * name = 'Linden' LIMIT 1, and three restaurants are called Linden: the
 * row that came back answers for one of them, and nothing in it says
 * which.  A query whose WHERE names rows by their key (the db sheet's
 * primary field, compared with = to a string, or by LIKE or ILIKE with a
 * pattern that is a name between its % signs), says nothing of the
 * context that tells them apart (the sheet's first Required text field,
 * the location; else a name or title), and either was cut by its LIMIT
 * before every row of that name came back, or returned several of them
 * without the context, is run again with the LIMIT raised to cover them
 * (at most MAX_SHARED) and the context column added to its select list.
 * The reply is told that the rows answer for each place of that name, so
 * it answers for each or asks which one, as a booking does (ground.c).
 *
 * Only the knowledge parser's queries are widened: SUQL a person typed
 * runs as written.  Rejected: asking the user first (the answer for each
 * of three places is usually short, and the question may hold for all);
 * widening on a LIKE (a longer name containing the word is another
 * place, exactfirst.c's concern).
 */
#include "agent/turn_int.h"
#include "suql/analyze.h"
#include "suql/ast.h"
#include "suql/parse.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Places of one name answered for at once (and the rows that a LIKE's
 * longer names add: Linden Table beside the three Lindens). */
#define MAX_SHARED 8

const suql_expr *ag_kb_key_eq(const ws_spec *spec, const suql_select *s, const ws_sheet **sheet)
{
    if (!s || !s->where) return NULL;
    const suql_expr *w = s->where;
    suql_expr *const *cj = w->kind == SUQL_E_AND ? w->args : (suql_expr *const *)&s->where;
    int n = w->kind == SUQL_E_AND ? w->nargs : 1;
    for (int i = 0; i < n; i++) {
        const suql_expr *x = cj[i];
        int eq = x->kind == SUQL_E_CMP && x->op == SUQL_OP_EQ;
        int like = x->kind == SUQL_E_LIKE && (x->op == SUQL_OP_LIKE || x->op == SUQL_OP_ILIKE);
        if ((!eq && !like) || !x->l || x->l->kind != SUQL_E_COLUMN || !x->l->rtab || !x->l->rcol ||
            !x->r || x->r->kind != SUQL_E_STRING)
            continue;
        for (int k = 0; k < spec->nsheets; k++) {
            const ws_sheet *sh = &spec->sheets[k];
            if (sh->kind != WSK_DB || strcasecmp(sh->name, x->l->rtab->name)) continue;
            for (int f = 0; f < sh->nfields; f++)
                if (sh->fields[f].primary && !strcasecmp(sh->fields[f].name, x->l->rcol->name)) {
                    if (sheet) *sheet = sh;
                    return x;
                }
        }
    }
    return NULL;
}

typedef struct col_ref { const char *tab, *col; } col_ref;

static int is_col(const suql_expr *x, void *ud)
{
    const col_ref *c = ud;
    return x->kind == SUQL_E_COLUMN && x->rtab && x->rcol && !strcasecmp(x->rtab->name, c->tab) &&
           !strcasecmp(x->rcol->name, c->col);
}

/* Does X name column COL of table TAB anywhere (its subqueries' select
 * lists too)? */
static int names_col(const suql_expr *x, const char *tab, const char *col)
{
    col_ref c = { tab, col };
    suql_visit v = { is_col, NULL, 1, &c };
    return suql_visit_expr(x, &v);
}

/* Is any target an aggregate or a star (a count answers for the rows
 * together; a star shows the context already)? */
static int star_or_aggregate(const suql_select *s)
{
    static const char *const agg[] = { "count", "sum", "avg", "min", "max", "bool_and", "bool_or",
                                       "string_agg", "array_agg", NULL };
    for (int i = 0; i < s->ntargets; i++) {
        const suql_expr *x = s->targets[i].expr;
        if (x->kind == SUQL_E_STAR) return 1;
        if (x->kind != SUQL_E_FUNC || x->over) continue;
        for (int k = 0; agg[k]; k++)
            if (!strcasecmp(x->name, agg[k])) return 1;
    }
    return 0;
}

/* The name KEY (name = 'x', or name [I]LIKE '%x%') asks about, or NULL
 * for a pattern with wildcards inside it (caller frees). */
static char *core_name(const suql_expr *key)
{
    const char *p = key->r->text;
    if (key->kind != SUQL_E_LIKE) return xstrdup(p);
    size_t n = strlen(p);
    while (*p == '%') p++, n--;
    while (n && p[n - 1] == '%') n--;
    if (!n || memchr(p, '%', n)) return NULL;
    return xstrndup(p, n);
}

int ag_kb_shared(ag_tturn *t, const char *suql, const ws_val *rows, char **out, char **note)
{
    *out = *note = NULL;
    const st_schema *schema = t->cv->cfg.schema;
    if (!schema || !rows || rows->kind != WV_LIST || !rows->u.c.n) return 0;
    suql_query *q = NULL;
    if (suql_parse(suql, &q, NULL) || suql_analyze(q, schema, NULL)) {
        suql_query_free(q);
        return 0;
    }
    suql_select *s = q->select;
    const ws_sheet *sh = NULL;
    const suql_expr *key = s && s->op == SUQL_SET_NONE && !s->ngroup && !s->distinct &&
                                   !s->ndistinct_on && !s->offset && !star_or_aggregate(s)
                               ? ag_kb_key_eq(t->cv->st->spec, s, &sh) : NULL;
    int cx = key ? ag_context_field(sh, ws_sheet_field_index(sh, key->l->rcol->name)) : -1;
    const char *tab = key ? key->l->rtab->name : NULL, *ctx = cx >= 0 ? sh->fields[cx].name : NULL;
    if (!ctx || names_col(s->where, tab, ctx)) {
        suql_query_free(q);
        return 0;
    }
    /* How many rows share the name (a LIKE pattern's name: 'Linden',
     * '%Linden%', case aside), where they are, and how many rows the
     * condition itself matches (Linden Table too). */
    char *name = core_name(key);
    long shared = 0, matching = 0;
    char *where = NULL;
    if (name) {
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_printf(&b, "SELECT count(*), string_agg(c, ', ') FROM (SELECT DISTINCT \"%s\" AS c FROM \"%s\" "
                      "WHERE lower(\"%s\") = lower(", ctx, tab, key->l->rcol->name);
        gn_buf_quoted(&b, '\'', name);
        gn_buf_printf(&b, ") ORDER BY 1 LIMIT %d) AS s", MAX_SHARED);
        suql_result res;
        gn_err e;
        if (!suql_execute(t->cv->cfg.suql, b.data, &res, NULL, &e)) {
            shared = res.nrows && res.cells[0].type == SUQL_INT ? (long)res.cells[0].i : 0;
            where = res.nrows && res.ncols > 1 && res.cells[1].text ? xstrdup(res.cells[1].text) : NULL;
            suql_result_release(&res);
        }
        gn_buf_reset(&b);
        gn_buf_printf(&b, "SELECT count(*) FROM \"%s\" WHERE ", tab);
        suql_expr cond = *key;
        cond.l = &(suql_expr){ .kind = SUQL_E_COLUMN, .name = key->l->rcol->name };
        suql_print_expr(&cond, &b);
        if (!suql_execute(t->cv->cfg.suql, b.data, &res, NULL, &e)) {
            matching = res.nrows && res.cells[0].type == SUQL_INT ? (long)res.cells[0].i : 0;
            suql_result_release(&res);
        }
        gn_buf_release(&b);
    }
    int nrows = rows->u.c.n;
    int has_ctx = 0;
    for (int i = 0; i < s->ntargets; i++) has_ctx |= names_col(s->targets[i].expr, tab, ctx);
    if (matching < shared) matching = shared;
    int cut = s->limit && s->limit->kind == SUQL_E_INT && s->limit->ival < matching &&
              nrows >= s->limit->ival;
    if (shared < 2 || (!cut && (has_ctx || nrows < 2))) {
        free(where);
        free(name);
        suql_query_free(q);
        return 0;
    }
    if (cut) {
        long n = matching < MAX_SHARED ? matching : MAX_SHARED;
        char num[24];
        snprintf(num, sizeof num, "%ld", n);
        s->limit->ival = n;
        s->limit->text = suql_strdup(q, num);
    }
    if (!has_ctx) {
        suql_target *tg = suql_array_new(q, s->ntargets + 1, sizeof *tg);
        memcpy(tg, s->targets, (size_t)s->ntargets * sizeof *tg);
        suql_expr *c = suql_expr_new(q, SUQL_E_COLUMN, key->l->pos);
        c->name = suql_strdup(q, ctx);
        c->qual = key->l->qual;
        tg[s->ntargets].expr = c;
        tg[s->ntargets].alias = NULL;
        s->targets = tg;
        s->ntargets++;
    }
    gn_buf b;
    gn_buf_init(&b);
    suql_print(q, &b);
    *out = gn_buf_detach(&b);
    *note = xasprintf("%ld %s are called '%s'%s%s%s: the rows answer for each of them; tell them "
                      "apart by %s, or ask which one the user means",
                      shared, tab, name, where ? " (" : "", where ? where : "", where ? ")" : "", ctx);
    free(where);
    free(name);
    suql_query_free(q);
    return 1;
}
