/*
 * knowledge.c — the knowledge records of a turn: question -> SUQL -> rows.
 *
 * Each answer("...") the parser wrote becomes SUQL through the knowledge
 * parser (or is SUQL already, when typed offline), is checked for the
 * knowledge base's required parameters (kbcheck.c), and runs on the SUQL
 * engine over the read-only connection.  One repair is allowed per cause:
 * a query that does not compile or run (a syntax error, an unknown
 * column, table or function: query_error) is sent back with its error, its
 * position and the analyzer's suggestion, an empty
 * result is sent back to be relaxed; both show in the events and the
 * record.  Rows become a list of dicts in the record; a record that fills
 * a field (Worksheet(field=answer(...))) gives it a value only when
 * exactly one row came back, otherwise the rows are reported and the user
 * chooses.
 */
#include "agent/turn_int.h"
#include "suql/analyze.h"
#include "suql/ast.h"
#include "suql/parse.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Earlier questions the knowledge parser sees. */
#define KB_HISTORY 3

/* Rows as a list of dicts (the result's JSON form, so repeated column
 * names stay apart; its numbers are raw items, which ws_val_from_json
 * reads exactly); text holding a JSON array in a column whose type the
 * result does not know becomes a list too. */
static ws_val *rows_val(const suql_result *res, int max)
{
    cJSON *j = suql_result_cjson(res, max);
    for (cJSON *row = j->child; row; row = row->next)
        for (cJSON *c = row->child; c; c = c->next) {
            if (!cJSON_IsString(c) || c->valuestring[0] != '[') continue;
            cJSON *arr = cJSON_Parse(c->valuestring);
            if (!cJSON_IsArray(arr)) {
                cJSON_Delete(arr);
                continue;
            }
            cJSON_ReplaceItemInObjectCaseSensitive(row, c->string, arr);
            c = arr;
        }
    ws_val *v = ws_val_from_json(j);
    cJSON_Delete(j);
    return v;
}

/* What names ROW in a summary line: its name or title, else its first
 * text value that is not genie's own (_id), else the row. */
static const ws_val *row_name(const ws_val *row)
{
    if (row->kind != WV_DICT) return row;
    const ws_val *v = ws_dict_get(row, "name");
    if (!v) v = ws_dict_get(row, "title");
    for (int i = 0; i < row->u.c.n && !v; i++)
        if (row->u.c.keys[i][0] != '_' && row->u.c.items[i]->kind == WV_STR) v = row->u.c.items[i];
    for (int i = 0; i < row->u.c.n && !v; i++)
        if (row->u.c.keys[i][0] != '_') v = row->u.c.items[i];
    return v ? v : row;
}

/* The knowledge parser's history: the last KB_HISTORY questions before R
 * that ran, oldest first, each with its SUQL and what it found (the name
 * of each of its first rows), so "the second one" or "another" can be
 * resolved and what was shown excluded. */
static cJSON *history(ag_tturn *t, const ws_record *r)
{
    const ws_state *st = t->cv->st;
    const ws_record *recs[KB_HISTORY];
    int n = 0;
    for (int i = st->n - 1; i >= 0 && n < KB_HISTORY; i--) {
        const ws_record *k = st->recs[i];
        if (k != r && k->kind == WR_KB && k->ran && k->suql) recs[n++] = k;
    }
    cJSON *h = cJSON_CreateArray();
    for (int i = n - 1; i >= 0; i--) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "user", recs[i]->question);
        cJSON_AddStringToObject(o, "target", recs[i]->suql);
        gn_buf b;
        gn_buf_init(&b);
        const ws_val *res = recs[i]->result;
        if (recs[i]->error || !res || res->kind != WV_LIST) {
            cJSON_AddNullToObject(o, "agent");
        } else {
            gn_buf_puts(&b, res->u.c.n ? "Found: " : "Found nothing.");
            for (int j = 0; j < res->u.c.n && j < 5; j++) {
                const ws_val *v = row_name(res->u.c.items[j]);
                gn_buf_puts(&b, j ? ", " : "");
                ws_val_print(v, &b, NULL, NULL);
            }
            if (res->u.c.n > 5) gn_buf_printf(&b, " and %d more", res->u.c.n - 5);
            cJSON_AddStringToObject(o, "agent", b.data);
        }
        gn_buf_release(&b);
        cJSON_AddItemToArray(h, o);
    }
    return h;
}

/* The select list's answer() and summary() without an alias come back as
 * columns named answer, answer:2, summary...: the reply's writer cannot
 * tell which question each answers.  Each is renamed after its call,
 * "answer(reviews, 'is there parking?')", in ROWS (a list of dicts). */
static void name_freetext_columns(const char *suql, ws_val *rows)
{
    suql_query *q = NULL;
    if (!rows || rows->kind != WV_LIST || !rows->u.c.n || suql_parse(suql, &q, NULL)) {
        suql_query_free(q);
        return;
    }
    /* Another output of that name (an alias, a column "summary") would
     * shift the numbering: then the names stay as they are. */
    for (int i = 0; i < q->select->ntargets; i++) {
        const suql_target *tg = &q->select->targets[i];
        const char *nm = tg->alias ? tg->alias : tg->expr->kind == SUQL_E_COLUMN ? tg->expr->name : NULL;
        if (nm && (!strcasecmp(nm, "answer") || !strcasecmp(nm, "summary"))) {
            suql_query_free(q);
            return;
        }
    }
    for (int kind = 0; kind < 2; kind++) {
        const char *base = kind ? "summary" : "answer";
        int k = 0;
        for (int i = 0; i < q->select->ntargets; i++) {
            const suql_target *tg = &q->select->targets[i];
            if (tg->alias || tg->expr->kind != (kind ? SUQL_E_SUMMARY : SUQL_E_ANSWER)) continue;
            char key[32];
            if (k++) snprintf(key, sizeof key, "%s:%d", base, k);
            else snprintf(key, sizeof key, "%s", base);
            gn_buf name;
            gn_buf_init(&name);
            suql_print_expr(tg->expr, &name);
            for (int j = 0; j < rows->u.c.n; j++) {
                ws_val *row = rows->u.c.items[j];
                for (int c = 0; row->kind == WV_DICT && c < row->u.c.n; c++)
                    if (!strcmp(row->u.c.keys[c], key)) {
                        free(row->u.c.keys[c]);
                        row->u.c.keys[c] = xstrdup(name.data);
                    }
            }
            gn_buf_release(&name);
        }
    }
    suql_query_free(q);
}

static int kb_parse(ag_tturn *t, ws_record *r, char **suql, gn_err *e)
{
    const ag_conv_config *c = &t->cv->cfg;
    gn_buf schema;
    gn_buf_init(&schema);
    st_schema_sql(c->schema, 12, &schema);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "today", ag_today(t->cv));
    cJSON_AddStringToObject(d, "schema", schema.data);
    if (c->agent->kb_examples) cJSON_AddStringToObject(d, "domain_examples", c->agent->kb_examples);
    else cJSON_AddNullToObject(d, "domain_examples");
    cJSON_AddItemToObject(d, "history", history(t, r));
    cJSON_AddStringToObject(d, "question", r->question);
    gn_buf_release(&schema);
    return ag_llm(t, LLM_STAGE_KB_PARSE, c->kb_tpl, d, NULL, NULL, suql, e);
}

/* One more try at R's query: SUQL failed with ERROR, or (ERROR NULL) ran
 * and found no row, WHY saying why when the engine knows (a budget).
 * *out gets the new statement, extracted from the reply. */
static int repair(ag_tturn *t, ws_record *r, const char *suql, const char *error, const char *why,
                  char **out, gn_err *e)
{
    const ag_conv_config *c = &t->cv->cfg;
    gn_buf schema;
    gn_buf_init(&schema);
    st_schema_sql(c->schema, 12, &schema);
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "schema", schema.data);
    cJSON_AddStringToObject(d, "question", r->question);
    cJSON *at = cJSON_AddArrayToObject(d, "attempts");
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "suql", suql);
    if (error) cJSON_AddStringToObject(a, "error", error);
    else cJSON_AddNullToObject(a, "error");
    if (why) cJSON_AddStringToObject(a, "why_empty", why);
    else cJSON_AddNullToObject(a, "why_empty");
    cJSON_AddItemToArray(at, a);
    gn_buf_release(&schema);
    char *reply = NULL;
    int rc = ag_llm(t, LLM_STAGE_REPAIR, c->repair_tpl, d, NULL, NULL, &reply, e);
    *out = rc ? NULL : ag_suql_extract(reply);
    free(reply);
    return rc;
}

/* Why a run found no row, in words for the repair prompt, or NULL when
 * simply nothing matched: the free-text checks stopped at their budget
 * with candidates left unchecked. */
static char *why_empty(const suql_run_stats *s)
{
    if (!s->budget_hit) return NULL;
    /* Row by row (joins, CTEs) the engine counts checks, not candidates. */
    if (s->candidates <= 0)
        return xasprintf("the free-text checks stopped at their budget of %d checks before every row "
                         "was checked, so matches may exist among the rows not checked", s->budget);
    return xasprintf("the free-text checks stopped at their budget of %d after checking %ld of %ld "
                     "candidate rows, so matches may exist among the rows not checked",
                     s->budget, s->checked, s->candidates);
}

/* The engine's progress through the candidates, as "verify" stage events
 * (the front end shows "verifying 3 of 8"). */
static void on_progress(void *ud, long checked, long candidates)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "checked", (double)checked);
    cJSON_AddNumberToObject(d, "candidates", (double)candidates);
    ag_emit(ud, AG_EV_STAGE, "verify", NULL, NULL, d);
    cJSON_Delete(d);
}

/* What the reply must say of a run's rows, or NULL: that the checks'
 * budget ran out (there may be more), that the result was cut, or how
 * many rows a LIMIT left out ("kept 3 of the 10"). */
static char *result_note(const suql_result *res, const suql_run_stats *s)
{
    /* The engine's own words where it wrote them: a value that matched
     * nothing, a count's estimate, an ORDER BY answer that may not be
     * the best (engine.c). */
    if ((s->unmatched || s->sampled || s->inexact) && res->note) return xstrdup(res->note);
    if (s->budget_hit)
        return xstrdup("the search stopped at its budget of checks: there may be more matches than these");
    if (s->cut) return xstrdup(res->note ? res->note : "the result was cut");
    /* Worded so that a top-1 of all rows is not read as "8 matched". */
    if (s->matched > SUQL_COUNT_MAX)
        return xasprintf("the query's LIMIT kept %d of the more than %d rows that meet its "
                         "conditions", res->nrows, SUQL_COUNT_MAX);
    if (s->matched > res->nrows && s->tied)
        return xasprintf("the query's LIMIT kept %d of the %ld rows that meet its conditions; "
                         "%s%ld more tie%s with the last one kept on its ORDER BY, so its place is "
                         "shared", res->nrows, s->matched, s->tied > SUQL_TIED_MAX ? "over " : "",
                         s->tied > SUQL_TIED_MAX ? SUQL_TIED_MAX : s->tied, s->tied == 1 ? "s" : "");
    if (s->matched > res->nrows)
        return xasprintf("the query's LIMIT kept %d of the %ld rows that meet its conditions",
                         res->nrows, s->matched);
    return NULL;
}

/* One execution, reported: 0 and *rows set, or the error (in E).  WHY
 * (may be NULL) gets why_empty's words for an empty result (caller frees). */
/* Append X's question, when it is answer(col, 'q') not yet in B, as a
 * line of B (a suql_visit callback). */
static int add_condition(const suql_expr *x, void *ud)
{
    gn_buf *b = ud;
    if (x->kind != SUQL_E_ANSWER || x->nargs < 2 || x->args[1]->kind != SUQL_E_STRING) return 0;
    const char *q = x->args[1]->text;
    for (const char *p = b->data; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
        size_t n = strcspn(p, "\n");
        if (n == strlen(q) && !strncmp(p, q, n)) return 0;
    }
    gn_buf_printf(b, "%s%s", b->len ? "\n" : "", q);
    return 0;
}

/* The record's conditions (ws_record.conditions) for SUQL. */
static void set_conditions(ws_record *r, const char *suql)
{
    suql_query *q = NULL;
    free(r->conditions);
    r->conditions = NULL;
    if (!suql_parse(suql, &q, NULL)) {
        gn_buf b;
        gn_buf_init(&b);
        suql_visit v = { add_condition, NULL, 1, &b };
        suql_visit_select(q->select, &v);
        if (b.len) r->conditions = gn_buf_detach(&b);
        else gn_buf_release(&b);
    }
    suql_query_free(q);
}

static int execute(ag_tturn *t, ws_record *r, const char *suql, int attempt, ws_val **rows,
                   char **why, gn_err *e)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "question", r->question);
    cJSON_AddNumberToObject(d, "attempt", attempt);
    ag_emit(t, AG_EV_SUQL, "suql", suql, NULL, d);
    cJSON_Delete(d);

    suql_result res;
    suql_run_stats stats;
    memset(&stats, 0, sizeof stats);
    double t0 = gn_now();
    suql_engine_watch(t->cv->cfg.suql, on_progress, t, t->cancel);
    int rc = suql_execute(t->cv->cfg.suql, suql, &res, &stats, e);
    suql_engine_watch(t->cv->cfg.suql, NULL, NULL, NULL);
    t->ms_llm += stats.ms_llm;
    t->memo_hits += stats.memo_hits;
    d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "question", r->question);
    cJSON_AddNumberToObject(d, "ms", (gn_now() - t0) * 1000.0);
    if (rc) {
        char msg[1024];
        cJSON_AddStringToObject(d, "error", gn_err_str(e, msg, sizeof msg));
    } else {
        *rows = rows_val(&res, 50);
        name_freetext_columns(suql, *rows);
        if (why && !res.nrows) *why = stats.unmatched && res.note ? xstrdup(res.note)
                                                                : why_empty(&stats);
        cJSON_AddNumberToObject(d, "count", res.nrows);
        cJSON_AddItemToObject(d, "rows", ws_val_to_json(*rows));
        cJSON_AddStringToObject(d, "mode", stats.mode ? stats.mode : "");
        cJSON_AddItemToObject(d, "plan", suql_stats_json(&stats));
        if (res.note) cJSON_AddStringToObject(d, "note", res.note);
        /* A later attempt that replaces these rows replaces the note too. */
        free(r->note);
        r->note = result_note(&res, &stats);
        suql_result_release(&res);
    }
    ag_emit(t, AG_EV_RESULT, "suql", NULL, NULL, d);
    cJSON_Delete(d);
    return rc;
}

static void log_query(ag_tturn *t, const ws_record *r)
{
    cJSON *q = cJSON_CreateObject();
    cJSON_AddStringToObject(q, "question", r->question);
    if (r->suql) cJSON_AddStringToObject(q, "suql", r->suql);
    if (r->error) cJSON_AddStringToObject(q, "error", r->error);
    if (r->missing) cJSON_AddStringToObject(q, "missing", r->missing);
    if (r->result && r->result->kind == WV_LIST) cJSON_AddNumberToObject(q, "rows", r->result->u.c.n);
    cJSON_AddItemToArray(t->queries, q);
}

/* The value a one-row result gives field F: the column F names when it
 * names knowledge-base rows (restaurants.name, courses.course_codes),
 * else the column of F's own name, else a db worksheet's primary column,
 * else a name or title; never just the first column (a course's title is
 * not its code).  A list gives its first item to a field that is not one. */
static const ws_val *pick(const ws_spec *spec, const ws_val *row, const ws_field *f)
{
    const ws_val *v = NULL;
    if (f->type.kind == WT_KB) v = ws_dict_get(row, spec->sheets[f->type.sheet].fields[f->type.col].name);
    if (!v) v = ws_dict_get(row, f->name);
    for (int i = 0; i < spec->nsheets && !v; i++)
        for (int j = 0; spec->sheets[i].kind == WSK_DB && j < spec->sheets[i].nfields && !v; j++)
            if (spec->sheets[i].fields[j].primary) v = ws_dict_get(row, spec->sheets[i].fields[j].name);
    if (!v) v = ws_dict_get(row, "name");
    if (!v) v = ws_dict_get(row, "title");
    if (v && v->kind == WV_LIST && v->u.c.n && f->type.kind != WT_LIST) v = v->u.c.items[0];
    return v;
}

static void fill_target(ag_tturn *t, ws_record *kb)
{
    ws_state *st = t->cv->st;
    ws_record *r = kb->target >= 0 ? ws_state_rec(st, kb->target) : NULL;
    if (!r || kb->target_field < 0 || !kb->result || kb->result->u.c.n != 1) return;
    const ws_field *f = &st->spec->sheets[r->sheet].fields[kb->target_field];
    const ws_val *v = pick(st->spec, kb->result->u.c.items[0], f);
    char why[256];
    if (v) ws_state_set(st, r, kb->target_field, v, why, sizeof why);
}

static int is_empty(const ws_val *rows) { return !rows || rows->kind != WV_LIST || rows->u.c.n == 0; }

/* Whether SUQL parses and its names resolve in the knowledge base. */
static int analyzes(ag_tturn *t, const char *suql)
{
    if (!t->cv->cfg.schema) return 1;
    suql_query *q = NULL;
    int ok = !suql_parse(suql, &q, NULL) && !suql_analyze(q, t->cv->cfg.schema, NULL);
    suql_query_free(q);
    return ok;
}

/* Whether SUQL's empty result is itself the answer: its WHERE names one
 * row by its key (name = 'Papa Nino''s Trattoria'), and that row exists,
 * so nothing came back because the row fails the other conditions ("is
 * it open on Monday?": it is not).  Relaxing such a query would answer
 * another question. */
static int empty_is_answer(ag_tturn *t, const char *suql)
{
    suql_query *q = NULL;
    int yes = 0;
    if (!t->cv->cfg.schema || suql_parse(suql, &q, NULL) || suql_analyze(q, t->cv->cfg.schema, NULL) ||
        !q->select || !q->select->where) {
        suql_query_free(q);
        return 0;
    }
    const suql_expr *x = ag_kb_key_eq(t->cv->st->spec, q->select, NULL);
    if (x) {
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_printf(&b, "SELECT 1 FROM \"%s\" WHERE ", x->l->rtab->name);
        suql_expr cond = *x;             /* the condition on the bare column */
        cond.l = &(suql_expr){ .kind = SUQL_E_COLUMN, .name = x->l->rcol->name };
        suql_print_expr(&cond, &b);
        gn_buf_puts(&b, " LIMIT 1");
        suql_result res;
        gn_err e;
        if (!suql_execute(t->cv->cfg.suql, b.data, &res, NULL, &e)) {
            yes = res.nrows > 0;
            suql_result_release(&res);
        }
        gn_buf_release(&b);
    }
    suql_query_free(q);
    return yes;
}

/* Whether the word-bounded, case-ignored TEXT occurs in S. */
static int said(const char *s, const char *text)
{
    size_t n = strlen(text);
    if (!n) return 0;
    for (const char *p = s; (p = strcasestr(p, text)) != NULL; p++) {
        int before = p == s || !isalnum((unsigned char)p[-1]);
        int after = !isalnum((unsigned char)p[n]);
        if (before && after) return 1;
    }
    return 0;
}

/* A value of a required parameter MISSING (a comma list of column names)
 * that the user said in UTTERANCE: the first of the column's values (its
 * enum values, else its first 500 distinct ones) that occurs in it, as
 * "location 'Sunnyvale'", or NULL. */
static char *given_now(ag_tturn *t, const char *missing, const char *utterance)
{
    const st_schema *schema = t->cv->cfg.schema;
    if (!schema || !missing || !utterance) return NULL;
    char *found = NULL;
    for (const char *m = missing; *m && !found;) {
        size_t k = strcspn(m, ",");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name ? k : sizeof name - 1), m);
        for (int i = 0; i < schema->ntables && !found; i++) {
            const st_table *tb = &schema->tables[i];
            const st_column *c = st_table_column(tb, name);
            if (!c || c->is_array || c->free_text) continue;
            for (int j = 0; j < c->nenum && !found; j++)
                if (said(utterance, c->enum_vals[j])) found = xasprintf("%s '%s'", name, c->enum_vals[j]);
            if (found || c->nenum || strcmp(c->type, "text")) continue;
            char *q = xasprintf("SELECT DISTINCT \"%s\" FROM \"%s\" LIMIT 500", c->name, tb->name);
            suql_result res;
            gn_err e;
            if (!suql_execute(t->cv->cfg.suql, q, &res, NULL, &e)) {
                for (int row = 0; row < res.nrows && !found; row++) {
                    const char *v = res.cells[(size_t)row * (size_t)res.ncols].text;
                    if (v && strlen(v) >= 3 && said(utterance, v)) found = xasprintf("%s '%s'", name, v);
                }
                suql_result_release(&res);
            }
            free(q);
        }
        m += k;
        while (*m == ',' || *m == ' ') m++;
    }
    return found;
}

/* A search not run for a required parameter it lacks (the policy asks). */
static void not_run(ag_tturn *t, ws_record *r, const char *suql)
{
    ag_emit(t, AG_EV_SUQL, "suql", suql, "not run: the search needs the missing parameter(s)", NULL);
    log_query(t, r);
}

/* Is RC an error of the query itself, which a rewrite can mend: it does
 * not parse, names a column, table or function that is not there, or
 * SQLite refuses it?  Not an LLM failure, a cancel, or a limit (time,
 * memory, the budget), which a rewrite would only meet again. */
static int query_error(int rc)
{
    return rc == GN_EPARSE || rc == GN_ENOTFOUND || rc == GN_EDB || rc == GN_EUSAGE;
}

/* A query about a name several rows share, answered for one of them or
 * without saying which (shared.c): run widened, and the reply told.  The
 * note of a rewrite that found the rows (REWRITTEN) stays with them. */
static void widen_shared(ag_tturn *t, ws_record *r, char **suql, ws_val **rows, int attempt,
                         int rewritten)
{
    char *wide = NULL, *note = NULL;
    if (!ag_kb_shared(t, *suql, *rows, &wide, &note)) return;
    ws_val *rows2 = NULL;
    gn_err e;
    gn_err_clear(&e);
    char *was = r->note;
    r->note = NULL;
    if (!execute(t, r, wide, attempt, &rows2, NULL, &e) && !is_empty(rows2)) {
        ws_val_free(*rows);
        *rows = rows2;
        free(*suql);
        *suql = wide;
        wide = NULL;
        char *run = r->note;
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_puts(&b, note);
        if (run) gn_buf_printf(&b, "; %s", run);
        if (rewritten && was) gn_buf_printf(&b, "; %s", was);
        r->note = gn_buf_detach(&b);
        free(run);
        free(was);
    } else {
        ws_val_free(rows2);
        free(r->note);
        r->note = was;
    }
    free(wide);
    free(note);
}

static void run_one(ag_tturn *t, ws_record *r)
{
    gn_err e;
    char msg[1024];
    char *suql = NULL;
    ws_val *rows = NULL;
    gn_err_clear(&e);
    r->ran = 1;
    if (r->suql) {
        suql = xstrdup(r->suql);
    } else if (!t->cv->cfg.client) {
        r->error = xstrdup("without a language model a question cannot become a query; type the SUQL "
                           "query itself (SELECT ...)");
        log_query(t, r);
        return;
    } else if (kb_parse(t, r, &suql, &e)) {
        ag_stage_error(t, "kb_parse", &e);
        r->error = xasprintf("the knowledge parser failed: %s", e.msg);
        log_query(t, r);
        return;
    }
    int typed = r->suql != NULL;
    if (typed) {
        ag_unfence(suql);
    } else {
        char *reply = suql;
        suql = ag_suql_extract(reply);
        free(reply);
    }
    /* SUQL a person typed is run as written; the parser's must carry the
     * knowledge base's required parameters.  Checked on a query whose
     * names resolve: `city = 'Sunnyvale'` for location is a name to
     * repair, not a location to ask for (the check then reads the repair). */
    int resolves = analyzes(t, suql);
    if (!typed && resolves) ag_kb_missing(t->cv->st->spec, suql, &r->missing);
    /* Never asked for what the user just said: a parameter the query left
     * out but the message names ("... in Sunnyvale") goes to the repair. */
    char *given = r->missing && t->cv->cfg.client
                      ? given_now(t, r->missing, t->utterance) : NULL;
    if (given) {
        char *fixed = NULL, *why = xasprintf("the query must filter on %s: the user said it in "
                                             "this message, and the search needs it", given);
        gn_err e2;
        gn_err_clear(&e2);
        if (!repair(t, r, suql, why, NULL, &fixed, &e2)) {
            free(suql);
            suql = fixed;
            free(r->missing);
            r->missing = NULL;
            if (analyzes(t, suql)) ag_kb_missing(t->cv->st->spec, suql, &r->missing);
        } else {
            ag_stage_error(t, "repair", &e2);
        }
        free(why);
        free(given);
    }
    free(r->suql);
    r->suql = xstrdup(suql);
    if (r->missing) {
        not_run(t, r, suql);
        free(suql);
        return;
    }
    char *why = NULL;
    int rc = execute(t, r, suql, 1, &rows, &why, &e);
    int online = t->cv->cfg.client != NULL, tries = 1;
    if (query_error(rc) && !typed) ag_llm_forget(t, LLM_STAGE_KB_PARSE);
    if (query_error(rc) && online) {
        char *fixed = NULL;
        gn_err e2;
        gn_err_clear(&e2);
        if (!repair(t, r, suql, gn_err_str(&e, msg, sizeof msg), NULL, &fixed, &e2)) {
            free(suql);
            suql = fixed;
            gn_err_clear(&e);
            if (!typed && !resolves) ag_kb_missing(t->cv->st->spec, suql, &r->missing);
            if (r->missing) {
                free(r->suql);
                r->suql = xstrdup(suql);
                not_run(t, r, suql);
                free(suql);
                return;
            }
            rc = execute(t, r, suql, ++tries, &rows, &why, &e);
            if (query_error(rc)) ag_llm_forget(t, LLM_STAGE_REPAIR);
        } else {
            ag_stage_error(t, "repair", &e2);
        }
    }
    int rewritten = 0;
    if (!rc && is_empty(rows) && online && !empty_is_answer(t, suql)) {
        char *relaxed = NULL;
        gn_err e2;
        gn_err_clear(&e2);
        if (!repair(t, r, suql, NULL, why, &relaxed, &e2)) {
            ws_val *rows2 = NULL;
            gn_err e3;
            gn_err_clear(&e3);
            char *note = r->note;              /* the first run's, should this one fail */
            r->note = NULL;
            if (!execute(t, r, relaxed, ++tries, &rows2, NULL, &e3) && !is_empty(rows2)) {
                ws_val_free(rows);
                rows = rows2;
                free(suql);
                suql = relaxed;
                relaxed = NULL;
                /* Said to the user: these rows answer a rewritten query,
                 * which may be looser than the question (or only fixed a
                 * literal's format: the reply judges from the query). */
                char *was = r->note;
                r->note = xasprintf("the first query found nothing and was rewritten; these rows "
                                    "answer the rewritten query (%s), which may ask for less than "
                                    "the user did: say what it left out%s%s",
                                    suql, was ? "; " : "", was ? was : "");
                free(was);
                free(note);
                note = NULL;
                rewritten = 1;
            } else {
                ws_val_free(rows2);
                free(r->note);
                r->note = note;
                note = NULL;
            }
            free(note);
            free(relaxed);
        } else {
            ag_stage_error(t, "repair", &e2);
        }
    }
    if (!rc && !typed) widen_shared(t, r, &suql, &rows, ++tries, rewritten);
    free(why);
    free(r->suql);
    r->suql = suql;
    if (rc) {
        r->error = xstrdup(gn_err_str(&e, msg, sizeof msg));
        ag_stage_error(t, "suql", &e);
    } else {
        r->result = rows;
        set_conditions(r, suql);
        fill_target(t, r);
    }
    log_query(t, r);
}

/* Run the knowledge records of this turn not run yet; REPORT: also add
 * each one's act (for records the policy's actions made, after it ran). */
static void run_new(ag_tturn *t, int report)
{
    ws_state *st = t->cv->st;
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (r->kind != WR_KB || r->ran || r->created_turn != st->turn) continue;
        if (t->cancel && *t->cancel) return;
        run_one(t, r);
        if (!report) continue;
        if (r->missing) ws_acts_add(&t->acts, WA_ASK, r->id, -1, r->missing, NULL);
        else ws_acts_add(&t->acts, WA_REPORT, r->id, -1, NULL, NULL);
    }
}

void ag_run_knowledge(ag_tturn *t) { run_new(t, 0); }
void ag_run_late_knowledge(ag_tturn *t) { run_new(t, 1); }
