/*
 * hooks.c — the emit hooks of a run (engine_int.h): enum and vocabulary
 * literals mapped to the column's values (CLASSIFY, remembered; a literal
 * that stands for none is kept for the run's note), answer() and
 * summary() emitted as calls of the SQLite functions or as the literal
 * values a run has computed, and the type hints of answer() under a cast
 * (answer(...)::int asks the model for a number).
 */
#include "engine_int.h"
#include "suql/pgval.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- emit hooks ----------------------------------------------------------------- */

static int is_vocab(const st_column *c)
{
    return c && (c->nenum > 0 || (c->is_array && !c->free_text && !strcmp(c->type, "text")));
}

/* LIT stands for none of column C's values: said in the run's note, with
 * the values (the first 12). */
static void unmatched(suql_engine *en, const st_table *t, const st_column *c, const char *lit)
{
    gn_buf *b = &en->unmatched;
    gn_buf_printf(b, "%s'%s' is none of the values of %s.%s, so it matched nothing", b->len ? "; " : "",
                  lit, t->name, c->name);
    if (c->nenum > 0) {
        gn_buf_puts(b, " (its values:");
        for (int i = 0; i < c->nenum && i < 12; i++)
            gn_buf_printf(b, "%s '%s'", i ? "," : "", c->enum_vals[i]);
        if (c->nenum > 12) gn_buf_printf(b, " and %d more", c->nenum - 12);
        gn_buf_putc(b, ')');
    }
}

static int map_literal(const suql_expr *col, const char *lit, void *ud, const char *const **vals,
                       int *n, gn_err *e)
{
    suql_engine *en = ud;
    const st_column *c = col->rcol;
    const st_table *t = col->rtab;
    if (!t || !is_vocab(c)) return 0;
    suql_mapping m;
    if (en->explain) {
        int k = suql_classify_local(en->cls, t, c, lit, &m, e);
        if (k < 0) return k;
        if (!k) {
            gn_buf_printf(&en->mapped, "        %s.%s: '%s' is not one of its values: the run asks "
                          "the LLM which it means (CLASSIFY)\n", t->name, c->name, lit);
            return 0;
        }
    } else {
        double t0 = gn_now() * 1e3;
        int rc = suql_classify(en->cls, t, c, lit, &m, e);
        if (rc) return -rc;
        if (m.asked && en->st) {             /* CLASSIFY's call is an LLM call too */
            if (m.cached) {
                en->st->cache_hits++;
                en->st->classify_cached++;
            } else {
                en->st->llm_calls++;
                en->st->classify_calls++;
            }
            en->st->ms_llm += gn_now() * 1e3 - t0;
        }
    }
    /* A value as written stays; one in another case ('Cheap', 'spring
     * 2027') becomes the vocabulary's spelling, or it would match nothing. */
    if (m.exact && (m.nvalues != 1 || !strcmp(m.values[0], lit))) return 0;
    if (en->explain) {
        gn_buf_printf(&en->mapped, "        %s.%s: '%s' ->", t->name, c->name, lit);
        for (int i = 0; i < m.nvalues; i++) gn_buf_printf(&en->mapped, "%s '%s'", i ? "," : "", m.values[i]);
        if (!m.nvalues) gn_buf_puts(&en->mapped, " no value (matches nothing)");
        gn_buf_printf(&en->mapped, " (%s)\n", m.exact ? "the vocabulary's spelling"
                      : m.offline ? "by similarity, offline" : "as the LLM said earlier");
    }
    if (!m.nvalues) unmatched(en, t, c, lit);
    *vals = m.values;
    *n = m.nvalues;
    return 1;
}

static const char *hint_of(const suql_engine *en, const suql_expr *x)
{
    for (int i = 0; i < en->nhints; i++)
        if (en->hints[i].node == x) return en->hints[i].hint;
    return NULL;
}

/* answer(a, q) → suql_answer(a, q, 'field', hint); summary(a) →
 * suql_summary(a, 'field'). */
static int freetext_call(const suql_expr *x, void *ud, gn_buf *out, gn_err *e)
{
    suql_engine *en = ud;
    suql_emit_hooks h;
    const suql_expr *arg = x->args[0];
    const char *field = arg->kind == SUQL_E_COLUMN ? arg->name : "text";
    gn_buf_puts(out, x->kind == SUQL_E_ANSWER ? "suql_answer(" : "suql_summary(");
    int rc = suql_emit_expr(NULL, arg, suql_hooks_calls(en, &h), out, e);
    if (rc) return rc;
    if (x->kind == SUQL_E_ANSWER) {
        gn_buf_puts(out, ", ");
        rc = suql_emit_expr(NULL, x->args[1], &h, out, e);
        if (rc) return rc;
    }
    gn_buf_puts(out, ", ");
    suql_emit_string(field, out);
    if (x->kind == SUQL_E_ANSWER) {
        const char *hint = hint_of(en, x);
        gn_buf_puts(out, ", ");
        if (hint) suql_emit_string(hint, out);
        else gn_buf_puts(out, "NULL");
    }
    gn_buf_putc(out, ')');
    return 0;
}

static int freetext_literal(const suql_expr *x, void *ud, gn_buf *out, gn_err *e)
{
    suql_engine *en = ud;
    for (int i = 0; i < en->nvals; i++)
        if (en->vals[i].node == x) {
            if (en->vals[i].text) suql_emit_string(en->vals[i].text, out);
            else gn_buf_puts(out, "NULL");
            return 0;
        }
    return freetext_call(x, ud, out, e);
}

const suql_emit_hooks *suql_hooks_calls(suql_engine *en, suql_emit_hooks *h)
{
    h->freetext = freetext_call;
    h->map_literal = map_literal;
    h->ud = en;
    return h;
}

const suql_emit_hooks *suql_hooks_literals(suql_engine *en, suql_emit_hooks *h)
{
    h->freetext = freetext_literal;
    h->map_literal = map_literal;
    h->ud = en;
    return h;
}

/* ---- type hints ------------------------------------------------------------------ */

static const char *cast_hint(suql_cast_type t)
{
    switch (t) {
    case SUQL_T_INT: return "Reply with a whole number only.";
    case SUQL_T_REAL:
    case SUQL_T_NUMERIC: return "Reply with a number only.";
    case SUQL_T_BOOL: return "Reply with Yes or No only.";
    case SUQL_T_DATE: return "Reply with a date as YYYY-MM-DD only.";
    case SUQL_T_TIME: return "Reply with a time as HH:MM (24-hour) only.";
    case SUQL_T_TIMESTAMP: return "Reply with a date and time as YYYY-MM-DD HH:MM only.";
    default: return NULL;
    }
}

static void hints_expr(suql_engine *en, const suql_expr *x);

static void hints_select(suql_engine *en, const suql_select *s)
{
    if (!s) return;
    for (int i = 0; i < s->nctes; i++) hints_select(en, s->ctes[i].select);
    for (int i = 0; i < s->ntargets; i++) hints_expr(en, s->targets[i].expr);
    hints_expr(en, s->where);
    hints_expr(en, s->having);
    for (int i = 0; i < s->ngroup; i++) hints_expr(en, s->group[i]);
    for (int i = 0; i < s->norder; i++) hints_expr(en, s->order[i].expr);
    hints_select(en, s->larg);
    hints_select(en, s->rarg);
}

static void hints_expr(suql_engine *en, const suql_expr *x)
{
    if (!x) return;
    if (x->kind == SUQL_E_CAST && x->l && x->l->kind == SUQL_E_ANSWER && cast_hint(x->type)) {
        en->hints = xrealloc(en->hints, sizeof *en->hints * (size_t)(en->nhints + 1));
        en->hints[en->nhints++] = (node_hint){ x->l, cast_hint(x->type) };
    }
    hints_expr(en, x->l);
    hints_expr(en, x->r);
    for (int i = 0; i < x->nargs; i++) hints_expr(en, x->args[i]);
    hints_select(en, x->sub);
}

void suql_collect_hints(suql_engine *en, const suql_select *sel)
{
    en->nhints = 0;
    hints_select(en, sel);
}

