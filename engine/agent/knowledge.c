/*
 * knowledge.c — the knowledge records of a turn: question -> SUQL -> rows.
 *
 * Each answer("...") the parser wrote becomes SUQL through the knowledge
 * parser (or is SUQL already, when typed offline), is checked for the
 * knowledge base's required parameters (kbcheck.c), and runs on the SUQL
 * engine over the read-only connection.  One repair is allowed per cause:
 * a query that does not compile is sent back with its error, an empty
 * result is sent back to be relaxed; both show in the events and the
 * record.  Rows become a list of dicts in the record; a record that fills
 * a field (Worksheet(field=answer(...))) gives it a value only when
 * exactly one row came back, otherwise the rows are reported and the user
 * chooses.
 */
#include "agent/turn_int.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <string.h>

/* Rows as a list of dicts (the result's JSON form, so repeated column
 * names stay apart); text holding a JSON array (an array column) becomes
 * a list. */
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
    cJSON_AddArrayToObject(d, "history");
    cJSON_AddStringToObject(d, "question", r->question);
    gn_buf_release(&schema);
    return ag_llm(t, LLM_STAGE_KB_PARSE, c->kb_tpl, d, NULL, NULL, suql, e);
}

static int repair(ag_tturn *t, ws_record *r, const char *suql, const char *error, char **out, gn_err *e)
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
    cJSON_AddItemToArray(at, a);
    gn_buf_release(&schema);
    return ag_llm(t, LLM_STAGE_REPAIR, c->repair_tpl, d, NULL, NULL, out, e);
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

/* One execution, reported: 0 and *rows set, or the error (in E). */
static int execute(ag_tturn *t, ws_record *r, const char *suql, int attempt, ws_val **rows, gn_err *e)
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
    d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "question", r->question);
    cJSON_AddNumberToObject(d, "ms", (gn_now() - t0) * 1000.0);
    if (rc) {
        char msg[1024];
        cJSON_AddStringToObject(d, "error", gn_err_str(e, msg, sizeof msg));
    } else {
        *rows = rows_val(&res, 50);
        cJSON_AddNumberToObject(d, "count", res.nrows);
        cJSON_AddItemToObject(d, "rows", ws_val_to_json(*rows));
        cJSON_AddStringToObject(d, "mode", stats.mode ? stats.mode : "");
        cJSON_AddItemToObject(d, "plan", suql_stats_json(&stats));
        if (res.note) cJSON_AddStringToObject(d, "note", res.note);
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

/* The value a one-row result gives field F: the column of the same name,
 * else a name-like column, else the first. */
static const ws_val *pick(const ws_val *row, const ws_field *f)
{
    static const char *const names[] = { "name", "title", "course_codes" };
    const ws_val *v = ws_dict_get(row, f->name);
    for (size_t i = 0; i < 3 && !v; i++) v = ws_dict_get(row, names[i]);
    if (!v && row->kind == WV_DICT && row->u.c.n) v = row->u.c.items[0];
    if (v && v->kind == WV_LIST && v->u.c.n && f->type.kind != WT_LIST) v = v->u.c.items[0];
    return v;
}

static void fill_target(ag_tturn *t, ws_record *kb)
{
    ws_state *st = t->cv->st;
    ws_record *r = kb->target >= 0 ? ws_state_rec(st, kb->target) : NULL;
    if (!r || kb->target_field < 0 || !kb->result || kb->result->u.c.n != 1) return;
    const ws_field *f = &st->spec->sheets[r->sheet].fields[kb->target_field];
    const ws_val *v = pick(kb->result->u.c.items[0], f);
    char why[256];
    if (v) ws_state_set(st, r, kb->target_field, v, why, sizeof why);
}

static int is_empty(const ws_val *rows) { return !rows || rows->kind != WV_LIST || rows->u.c.n == 0; }

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
    ag_unfence(suql);
    /* SUQL a person typed is run as written; the parser's must carry the
     * knowledge base's required parameters. */
    if (!typed) ag_kb_missing(t->cv->st->spec, suql, &r->missing);
    free(r->suql);
    r->suql = xstrdup(suql);
    if (r->missing) {
        ag_emit(t, AG_EV_SUQL, "suql", suql, "not run: the search needs the missing parameter(s)", NULL);
        log_query(t, r);
        free(suql);
        return;
    }
    int rc = execute(t, r, suql, 1, &rows, &e);
    int online = t->cv->cfg.client != NULL, tries = 1;
    if (rc == GN_EPARSE && online) {
        char *fixed = NULL;
        gn_err e2;
        gn_err_clear(&e2);
        if (!repair(t, r, suql, gn_err_str(&e, msg, sizeof msg), &fixed, &e2)) {
            free(suql);
            suql = ag_unfence(fixed);
            gn_err_clear(&e);
            rc = execute(t, r, suql, ++tries, &rows, &e);
        } else {
            ag_stage_error(t, "repair", &e2);
        }
    }
    if (!rc && is_empty(rows) && online) {
        char *relaxed = NULL;
        gn_err e2;
        gn_err_clear(&e2);
        if (!repair(t, r, suql, NULL, &relaxed, &e2)) {
            ag_unfence(relaxed);
            ws_val *rows2 = NULL;
            gn_err e3;
            gn_err_clear(&e3);
            if (!execute(t, r, relaxed, ++tries, &rows2, &e3) && !is_empty(rows2)) {
                ws_val_free(rows);
                rows = rows2;
                free(suql);
                suql = relaxed;
                relaxed = NULL;
            } else {
                ws_val_free(rows2);
            }
            free(relaxed);
        } else {
            ag_stage_error(t, "repair", &e2);
        }
    }
    free(r->suql);
    r->suql = suql;
    if (rc) {
        r->error = xstrdup(gn_err_str(&e, msg, sizeof msg));
        ag_stage_error(t, "suql", &e);
    } else {
        r->result = rows;
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
