/*
 * kbcheck.c — the knowledge base's required parameters.
 *
 * A `db` worksheet field marked Required (the restaurant's location) must
 * constrain every search of its table: a query that does not mention it
 * is not run, and the policy asks the user for it instead of returning
 * restaurants from anywhere.  The parameter narrows searches for rows, so
 * a query that names a primary field (a lookup of one known row) needs
 * nothing more, and neither does a question across the parameter's values
 * (GROUP BY it: "which city has the most ramen places?") or an aggregate
 * over the whole table ("how many Thai places are there?").  The check reads the SUQL syntax
 * tree, not the text, so a column named in a string literal or in the
 * select list does not count.
 */
#include "agent/agent.h"
#include "suql/ast.h"
#include "suql/parse.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <string.h>
#include <strings.h>

typedef struct refs {
    const char *tables[16];
    int ntables;
    const char *cols[64];
    int ncols;
} refs;

static int add_col(const suql_expr *x, void *ud)
{
    refs *r = ud;
    if (x->kind == SUQL_E_COLUMN && r->ncols < 64) r->cols[r->ncols++] = x->name;
    return 0;
}

static int add_table(const suql_from *f, void *ud)
{
    refs *r = ud;
    if (f->table && r->ntables < 16) r->tables[r->ntables++] = f->table;
    return 0;
}

static int is_aggregate(const suql_expr *x)
{
    static const char *const aggs[] = { "count", "avg", "sum", "min", "max", "string_agg", "array_agg", NULL };
    if (!x || x->kind != SUQL_E_FUNC || !x->name || x->over) return 0;   /* OVER: per row */
    for (const char *const *a = aggs; *a; a++)
        if (!strcasecmp(*a, x->name)) return 1;
    return 0;
}

/* A question across rows, not a search for some: every select-list item
 * an aggregate, or a GROUP BY. */
static int across_rows(const suql_select *s)
{
    if (s->op != SUQL_SET_NONE) return across_rows(s->larg) && across_rows(s->rarg);
    if (s->ngroup) return 1;
    for (int i = 0; i < s->ntargets; i++)
        if (!is_aggregate(s->targets[i].expr)) return 0;
    return 1;
}

static int mentioned(const refs *r, const char *col)
{
    for (int i = 0; i < r->ncols; i++)
        if (!strcasecmp(r->cols[i], col)) return 1;
    return 0;
}

void ag_kb_missing(const ws_spec *spec, const char *suql, char **out)
{
    suql_query *q = NULL;
    refs r = { 0 };
    gn_buf miss;
    *out = NULL;
    if (suql_parse(suql, &q, NULL)) return;
    if (across_rows(q->select)) {
        suql_query_free(q);
        return;
    }
    /* the conditions and FROM items, not the select lists */
    suql_visit v = { add_col, add_table, 0, &r };
    suql_visit_select(q->select, &v);
    gn_buf_init(&miss);
    for (int t = 0; t < r.ntables; t++) {
        const ws_sheet *w = NULL;
        for (int i = 0; i < spec->nsheets && !w; i++)
            if (spec->sheets[i].kind == WSK_DB && !strcasecmp(spec->sheets[i].name, r.tables[t]))
                w = &spec->sheets[i];
        if (!w) continue;
        int lookup = 0;
        for (int i = 0; i < w->nfields; i++)
            if (w->fields[i].primary && mentioned(&r, w->fields[i].name)) lookup = 1;
        for (int i = 0; i < w->nfields && !lookup; i++) {
            const ws_field *f = &w->fields[i];
            if (!f->required || mentioned(&r, f->name) || ws_list_has(miss.data, f->name)) continue;
            gn_buf_printf(&miss, "%s%s", miss.len ? ", " : "", f->name);
        }
    }
    suql_query_free(q);
    if (miss.len) *out = gn_buf_detach(&miss);
    else gn_buf_release(&miss);
}
