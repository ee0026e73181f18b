/*
 * policy.c — Algorithm 1: from the updated dialogue state to agent acts.
 *
 * The policy is symbolic: what the agent does next follows from the spec
 * and the state alone, never from an LLM, so it cannot skip a required
 * field, forget a confirmation or book twice.  Invariants: at most one
 * question per turn (AskField or Confirm); reports of the user's own
 * questions come before anything the agent asks; a task's actions and
 * backend API run once, when the task is complete, and a failure leaves it
 * open.  A predicate that fails to evaluate counts as false and is
 * reported through the warning callback.
 */
#include "worksheet/policy.h"
#include "util/check.h"
#include "util/xmem.h"

#include <string.h>

typedef struct pol {
    ws_interp *in;
    ws_policy_warn_fn warn;
    void *ud;
    int asked;                /* a question was asked this turn */
} pol;

static void warn(pol *p, const gn_err *e)
{
    if (p->warn) p->warn(p->ud, e);
}

static const ws_sheet *sheet_of(const pol *p, const ws_record *r)
{
    return &p->in->st->spec->sheets[r->sheet];
}

/* Evaluate a predicate with SELF = record R; NULL predicate is true. */
static int holds(pol *p, const ws_record *r, const ws_node *pred)
{
    if (!pred) return 1;
    ws_interp *in = p->in;
    int save = in->self, save_f = in->self_field, v = 0;
    enum ws_mode m = in->mode;
    gn_err e;
    gn_err_clear(&e);
    in->self = r->id;
    in->self_field = -1;
    in->mode = WS_MODE_ACTION;
    if (ws_eval_pred(in, pred, &v, &e)) {
        gn_err_prefix(&e, "predicate of %s: ", r->var);
        warn(p, &e);
        v = 0;
    }
    in->self = save;
    in->self_field = save_f;
    in->mode = m;
    return v;
}

static int run_actions(pol *p, ws_record *r, int field, const ws_prog *prog)
{
    ws_interp *in = p->in;
    gn_err e;
    gn_err_clear(&e);
    in->self = r->id;
    in->self_field = field;
    in->mode = WS_MODE_ACTION;
    int rc = ws_run_prog(in, prog, &e);
    in->self = -1;
    in->self_field = -1;
    if (rc) {
        gn_err_prefix(&e, "actions of %s%s%s: ", r->var, field >= 0 ? "." : "",
                      field >= 0 ? sheet_of(p, r)->fields[field].name : "");
        warn(p, &e);
    }
    return rc;
}

static int live(const ws_record *r) { return r->kind == WR_TASK && !r->done && !r->abandoned; }

static ws_record *child(pol *p, const ws_val *v)
{
    ws_record *c = v && v->kind == WV_REC ? ws_state_rec(p->in->st, v->u.rec) : NULL;
    return c && c->kind == WR_TASK ? c : NULL;
}

/* Deeper than this, record values are taken to go round in a circle
 * (person.friend = person_2, person_2.friend = person): not complete. */
#define MAX_NESTING 32

static int complete(ws_interp *in, const ws_record *r, int depth)
{
    if (depth > MAX_NESTING) return 0;
    pol p = { in, NULL, NULL, 0 };
    const ws_sheet *w = sheet_of(&p, r);
    for (int i = 0; i < w->nfields; i++) {
        const ws_field *f = &w->fields[i];
        const ws_slot *s = &r->slots[i];
        if (f->kind != WFK_INPUT || !holds(&p, r, f->pred)) continue;
        if (f->type.kind == WT_CONFIRM) {
            if (!s->val || s->val->kind != WV_BOOL || !s->val->u.b) return 0;
            continue;
        }
        if (!ws_slot_filled(s)) {
            if (f->required) return 0;
            continue;
        }
        if (f->confirm && !s->confirmed) return 0;
        const ws_val *v = s->val;
        for (int k = 0; k < (v->kind == WV_LIST ? v->u.c.n : 1); k++) {
            const ws_record *c = child(&p, v->kind == WV_LIST ? v->u.c.items[k] : v);
            if (c && !c->abandoned && !complete(in, c, depth + 1)) return 0;
        }
    }
    return 1;
}

int ws_record_complete(ws_interp *in, const ws_record *r) { return complete(in, r, 0); }

/* 1. The knowledge records of this turn. */
static void report_kb(pol *p)
{
    ws_state *st = p->in->st;
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (r->kind != WR_KB || r->created_turn != st->turn) continue;
        if (r->missing) {
            if (!p->asked) ws_acts_add(p->in->acts, WA_ASK, r->id, -1, r->missing, NULL);
            p->asked = 1;
            continue;
        }
        /* Every result is shown, one that filled a field too: the reply
         * says what was found ("the best-rated NLP course is CS 336,
         * Language Modeling from Scratch") before the field's own flow
         * confirms or uses it. */
        ws_acts_add(p->in->acts, WA_REPORT, r->id, -1, NULL, NULL);
    }
}

/* Does field F of R wait for an input field its actions read: empty, or
 * not yet confirmed where it must be? */
static int waits(pol *p, const ws_record *r, const ws_field *f)
{
    const ws_sheet *w = sheet_of(p, r);
    for (int i = 0; i < w->nfields && i < 64; i++) {
        if (!(f->reads >> i & 1) || w->fields[i].kind != WFK_INPUT) continue;
        const ws_slot *s = &r->slots[i];
        if (!ws_slot_filled(s) || (w->fields[i].confirm && !s->confirmed)) return 1;
    }
    return 0;
}

/* A hash (FNV-1a) of the values of the fields F's actions read, 0 for
 * none: what its actions last ran for. */
static unsigned reads_sig(pol *p, const ws_record *r, const ws_field *f)
{
    if (!f->reads) return 0;
    const ws_sheet *w = sheet_of(p, r);
    unsigned h = 2166136261u;
    for (int i = 0; i < w->nfields && i < 64; i++) {
        if (!(f->reads >> i & 1)) continue;
        const ws_val *v = r->slots[i].val;
        cJSON *j = v ? ws_val_to_json(v) : NULL;
        char *t = j ? cJSON_PrintUnformatted(j) : NULL;
        for (const char *c = t ? t : "-"; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
        h = (h ^ 0xffu) * 16777619u;          /* between values */
        cJSON_free(t);
        cJSON_Delete(j);
    }
    return h ? h : 1;
}

/* 2. Confirmations, then the actions of assigned fields. */
static void fields_assigned(pol *p)
{
    ws_state *st = p->in->st;
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (!live(r)) continue;
        const ws_sheet *w = sheet_of(p, r);
        for (int k = 0; k < w->nfields; k++) {
            const ws_field *f = &w->fields[k];
            ws_slot *s = &r->slots[k];
            if (!ws_slot_filled(s)) continue;
            if (f->type.kind == WT_CONFIRM) {
                if (s->val->kind == WV_BOOL && !s->val->u.b && s->set_turn == st->turn) {
                    ws_acts_add(p->in->acts, WA_SAY, -1, -1,
                                "Not going ahead. Tell me what to change, or that you want to stop.",
                                NULL);
                    ws_state_clear(st, r, k);
                    r->hold_turn = st->turn;
                }
                continue;
            }
            if (f->confirm && !s->confirmed) {
                if (!p->asked) ws_acts_add(p->in->acts, WA_CONFIRM, r->id, k, NULL, NULL);
                p->asked = 1;
                continue;
            }
            /* A field's actions wait for its predicate and for the input
             * fields they read (a check of the booking's time against the
             * restaurant's hours that day runs once the day is in, and it
             * is confirmed where it needs confirming); they run again
             * when a field they read changes (another day). */
            if (!holds(p, r, f->pred) || (f->actions && waits(p, r, f))) continue;
            unsigned sig = reads_sig(p, r, f);
            GN_ASSERT(!f->reads || sig != 0);       /* 0 is "reads nothing" */
            if (s->acted && s->acted_sig == sig) continue;
            s->acted = 1;
            s->acted_sig = sig;
            if (f->actions) run_actions(p, r, k, f->actions);
        }
    }
}

/* The record's arguments for its backend API: its fields, nested records
 * as dicts, a row of the knowledge base by its key value (with its parts
 * at the top level; ws_state_arg). */
static ws_val *record_args(pol *p, const ws_record *r, int top)
{
    const ws_sheet *w = sheet_of(p, r);
    ws_val *d = ws_dict();
    for (int i = 0; i < w->nfields; i++) {
        const ws_val *v = r->slots[i].val;
        if (!v || w->fields[i].type.kind == WT_CONFIRM) continue;
        const ws_record *c = child(p, v);
        if (c) ws_dict_set(d, w->fields[i].name, record_args(p, c, 0));
        else ws_state_arg(p->in->st, &w->fields[i].type, w->fields[i].name, v, d, top);
    }
    return d;
}

static void finish(pol *p, ws_record *r)
{
    ws_interp *in = p->in;
    GN_ASSERT(ws_record_complete(in, r));   /* every go-ahead given (consent.h) */
    const ws_sheet *w = sheet_of(p, r);
    if (w->api && in->host && in->host->has_api(in->host->ud, w->api)) {
        ws_val *args = record_args(p, r, 1), *res = NULL;
        gn_err e;
        gn_err_clear(&e);
        in->api_calls++;
        int rc = in->host->call_api(in->host->ud, w->api, args, &res, &e);
        ws_val_free(args);
        if (rc) {
            char *msg = xasprintf("I could not complete that (%s): %s", w->name, e.msg);
            ws_acts_add(in->acts, WA_SAY, -1, -1, msg, NULL)->genie = 1;
            free(msg);
            warn(p, &e);
            return;               /* stays open: the next turn tries again */
        }
        ws_val_free(r->api_result);
        r->api_result = res;
    } else if (w->api && w->kind == WSK_TASK) {
        gn_err e;
        gn_err_set(&e, GN_ENOTFOUND, "worksheet %s names API %s, which is not declared", w->name, w->api);
        warn(p, &e);
    }
    r->done = 1;
    /* The worksheet's actions say what happened; without any (or when
     * they say nothing) the API's result is reported as it is. */
    int before = in->acts->n;
    if (w->actions) run_actions(p, r, -1, w->actions);
    /* What they say of it must reach the user (acts.h: genie). */
    for (int i = before; i < in->acts->n; i++)
        if (in->acts->v[i].kind == WA_SAY && r->api_result) {
            in->acts->v[i].genie = 1;
            in->acts->v[i].rec = r->id;
        }
    if (in->acts->n == before && r->api_result)
        ws_acts_add(in->acts, WA_REPORT, r->id, -1, NULL, ws_val_copy(r->api_result));
}

/* 3. Complete task records run their actions and API.  Records nested in
 * a task are part of it: they finish with it (and stay editable until
 * then). */
static void finish_nested(ws_state *st, const ws_record *root)
{
    for (int i = 0; i < st->n; i++)
        if (st->recs[i]->parent == root->id) {
            st->recs[i]->done = 1;
            finish_nested(st, st->recs[i]);
        }
}

static void complete_tasks(pol *p)
{
    ws_state *st = p->in->st;
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (!live(r) || r->parent >= 0 || sheet_of(p, r)->kind != WSK_TASK) continue;
        if (ws_record_complete(p->in, r)) {
            finish(p, r);
            if (r->done) finish_nested(st, r);
        }
    }
}

/* 4. The first field to ask in R (descending into nested records, making
 * them when a worksheet-typed field is empty); *fi gets it.  CONFIRMS:
 * whether `confirm` fields may be chosen (second pass). */
static ws_record *next_field(pol *p, ws_record *r, int confirms, int *fi, int depth)
{
    ws_state *st = p->in->st;
    const ws_sheet *w = sheet_of(p, r);
    if (depth > 8 || !live(r)) return NULL;
    for (int i = 0; i < w->nfields; i++) {
        const ws_field *f = &w->fields[i];
        ws_slot *s = &r->slots[i];
        if (f->kind != WFK_INPUT || f->dont_ask || (f->type.kind == WT_CONFIRM) != confirms) continue;
        if (f->type.kind == WT_CONFIRM && r->hold_turn == st->turn) continue;
        if (!holds(p, r, f->pred)) continue;
        if (ws_slot_filled(s)) {
            ws_record *c = child(p, s->val), *got;
            if (c && (got = next_field(p, c, confirms, fi, depth + 1))) return got;
            continue;
        }
        if (!f->required && s->asked && !s->why) continue;
        if (f->type.kind == WT_SHEET && !confirms) {
            ws_record *c = ws_state_new_task(st, f->type.sheet, r->id, i);
            c->by_agent = 1;
            ws_val *ref = ws_recref(c->id);
            char why[128];
            ws_state_set(st, r, i, ref, why, sizeof why);
            ws_val_free(ref);
            ws_record *got = next_field(p, c, confirms, fi, depth + 1);
            if (got) return got;
            continue;
        }
        *fi = i;
        return r;
    }
    return NULL;
}

/* Is there a Refuse act of this turn giving WHY already? */
static int refused_already(const ws_acts *acts, const char *why)
{
    for (int i = 0; i < acts->n; i++)
        if (acts->v[i].kind == WA_REFUSE && acts->v[i].text && !strcmp(acts->v[i].text, why)) return 1;
    return 0;
}

/* A value refused while another question is this turn's: said at once
 * (a Refused act), not two turns later when its field is asked ("a student ID
 * has at least 5 characters" while the course is being confirmed). */
static void say_refused(pol *p)
{
    ws_state *st = p->in->st;
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (!live(r)) continue;
        const ws_sheet *w = sheet_of(p, r);
        for (int k = 0; k < w->nfields; k++) {
            ws_slot *s = &r->slots[k];
            if (!s->why || ws_slot_filled(s)) continue;
            if (!refused_already(p->in->acts, s->why)) {
                char *what = xasprintf("%s.%s", r->var, w->fields[k].name);
                ws_acts_add(p->in->acts, WA_REFUSE, -1, -1, s->why, ws_str_own(what));
            }
            free(s->why);
            s->why = NULL;
        }
    }
}

static void ask(pol *p)
{
    ws_state *st = p->in->st;
    if (p->asked) {
        say_refused(p);
        return;
    }
    /* A field whose value was just refused is asked first, saying why. */
    for (int i = 0; i < st->n; i++) {
        ws_record *r = st->recs[i];
        if (!live(r)) continue;
        const ws_sheet *w = sheet_of(p, r);
        for (int k = 0; k < w->nfields; k++)
            if (r->slots[k].why && !ws_slot_filled(&r->slots[k])) {
                ws_acts_add(p->in->acts, WA_ASK, r->id, k, r->slots[k].why, NULL);
                free(r->slots[k].why);
                r->slots[k].why = NULL;
                r->slots[k].asked = 1;
                r->slots[k].asked_turn = st->turn;
                p->asked = 1;
                return;
            }
    }
    for (int confirms = 0; confirms < 2; confirms++)
        for (int i = 0; i < st->n; i++) {
            ws_record *r = st->recs[i], *got;
            int fi = -1;
            if (!live(r) || r->parent >= 0 || sheet_of(p, r)->kind != WSK_TASK) continue;
            if (!holds(p, r, sheet_of(p, r)->pred)) continue;   /* not active (Form Predicate) */
            if ((got = next_field(p, r, confirms, &fi, 0))) {
                ws_acts_add(p->in->acts, WA_ASK, got->id, fi, NULL, NULL);
                got->slots[fi].asked = 1;
                got->slots[fi].asked_turn = st->turn;
                p->asked = 1;
                return;
            }
        }
}

int ws_policy_run(ws_interp *in, ws_policy_warn_fn warnfn, void *ud)
{
    pol p = { in, warnfn, ud, 0 };
    in->self = -1;
    in->self_field = -1;
    report_kb(&p);
    fields_assigned(&p);
    complete_tasks(&p);
    /* Actions may have set fields (and refused values): settle them once. */
    fields_assigned(&p);
    ask(&p);
    in->mode = WS_MODE_ACTION;
    return 0;
}
