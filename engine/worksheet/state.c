/*
 * state.c — records of the dialogue state, assignment with coercion, the
 * prompt form of the state, and its JSON form.
 *
 * Invariant: a slot holds either NULL or a value already coerced to its
 * field's type, so every reader (policy, prompts, APIs) sees canonical
 * values.  The prompt form shows every task record and the last
 * KB_SHOWN knowledge records: the latest two with the short values of
 * their rows (brief.h; the one before the latest with its first
 * ROWS_NAMED), the ones before with their questions and the first value of
 * each row, enough for "the sushi place you suggested first" and never
 * the rows' long texts.  The parser needs the tasks in progress and the
 * results it may refer to, not the whole history, which keeps the prompt
 * nearly flat as a conversation grows.
 */
#include "worksheet/state.h"
#include "worksheet/brief.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Knowledge records in the prompt form, and rows named in the older ones. */
#define KB_SHOWN 5
#define ROWS_NAMED 5

ws_state *ws_state_new(const ws_spec *spec, ws_date today)
{
    ws_state *st = xcalloc(1, sizeof *st);
    st->spec = spec;
    st->next_id = 1;
    st->today = today;
    return st;
}

static void rec_free(ws_record *r, const ws_spec *spec)
{
    if (!r) return;
    if (r->slots) {
        int n = spec->sheets[r->sheet].nfields;
        for (int i = 0; i < n; i++) {
            ws_val_free(r->slots[i].val);
            free(r->slots[i].why);
        }
    }
    free(r->slots);
    free(r->var);
    free(r->question);
    free(r->suql);
    free(r->error);
    free(r->missing);
    free(r->note);
    free(r->conditions);
    ws_val_free(r->result);
    ws_val_free(r->api_result);
    free(r);
}

void ws_state_free(ws_state *st)
{
    if (!st) return;
    for (int i = 0; i < st->n; i++) rec_free(st->recs[i], st->spec);
    free(st->recs);
    free(st);
}

ws_record *ws_state_rec(const ws_state *st, int id)
{
    for (int i = 0; i < st->n; i++)
        if (st->recs[i]->id == id) return st->recs[i];
    return NULL;
}

ws_record *ws_state_var(const ws_state *st, const char *var)
{
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->recs[i]->var, var)) return st->recs[i];
    return NULL;
}

static ws_record *add(ws_state *st, enum ws_rec_kind kind, char *var)
{
    ws_record *r = xcalloc(1, sizeof *r);
    r->id = st->next_id++;
    r->kind = kind;
    r->var = var;
    r->created_turn = st->turn;
    r->parent = r->parent_field = r->target = r->target_field = -1;
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 8;
        st->recs = xrealloc(st->recs, (size_t)st->cap * sizeof *st->recs);
    }
    st->recs[st->n++] = r;
    return r;
}

static char *fresh_var(const ws_state *st, const char *base)
{
    char *b = xstrdup(base), *v;
    for (char *p = b; *p; p++) *p = (char)tolower((unsigned char)*p);
    v = xstrdup(b);
    for (int k = 2; ws_state_var(st, v); k++) {
        free(v);
        v = xasprintf("%s_%d", b, k);
    }
    free(b);
    return v;
}

ws_record *ws_state_new_task(ws_state *st, int sheet, int parent, int field)
{
    const ws_sheet *w = &st->spec->sheets[sheet];
    const char *base = w->name;
    if (parent >= 0) {
        const ws_record *p = ws_state_rec(st, parent);
        const ws_sheet *pw = &st->spec->sheets[p->sheet];
        base = pw->fields[field].name;
    }
    ws_record *r = add(st, WR_TASK, fresh_var(st, base));
    r->sheet = sheet;
    r->slots = xcalloc((size_t)(w->nfields ? w->nfields : 1), sizeof *r->slots);
    r->parent = parent;
    r->parent_field = field;
    return r;
}

ws_record *ws_state_new_kb(ws_state *st, const char *question)
{
    /* One past the highest number in use: forgetting old records
     * (ws_state_forget keeps the latest) never brings a name back. */
    int k = 1;
    for (int i = 0; i < st->n; i++) {
        int m;
        if (st->recs[i]->kind == WR_KB && sscanf(st->recs[i]->var, "answer_%d", &m) == 1 && m >= k)
            k = m + 1;
    }
    char *var = xasprintf("answer_%d", k);
    while (ws_state_var(st, var)) { free(var); var = xasprintf("answer_%d", ++k); }
    ws_record *r = add(st, WR_KB, var);
    r->question = xstrdup(question);
    return r;
}

int ws_slot_filled(const ws_slot *s) { return s->val && s->val->kind != WV_NONE; }

/* A change to R invalidates the go-ahead given for R and for the records
 * that contain it. */
static void unconfirm_up(ws_state *st, ws_record *r, int changed)
{
    for (int up = 0; r && up < 64; up++) {     /* bounded: never trust a chain */
        r->changed_turn = st->turn;
        const ws_sheet *w = &st->spec->sheets[r->sheet];
        for (int i = 0; i < w->nfields; i++)
            if (i != changed && w->fields[i].type.kind == WT_CONFIRM && r->slots[i].val) {
                ws_val_free(r->slots[i].val);
                r->slots[i].val = NULL;
                r->slots[i].set_turn = 0;
            }
        changed = r->parent_field;
        r = r->parent >= 0 ? ws_state_rec(st, r->parent) : NULL;
    }
}

/* The internal and output fields F's actions set, derived from its old
 * value (a course's title and unit range): cleared when the value
 * changes, so the state never shows the last course's title beside the
 * new course, and the new value's actions set them again. */
static void clear_derived(ws_state *st, ws_record *r, const ws_field *f)
{
    const ws_sheet *w = &st->spec->sheets[r->sheet];
    for (int i = 0; i < w->nfields && i < 64; i++)
        if ((f->sets >> i & 1) && w->fields[i].kind != WFK_INPUT && r->slots[i].val) {
            ws_val_free(r->slots[i].val);
            r->slots[i].val = NULL;
        }
}

int ws_state_set(ws_state *st, ws_record *r, int fi, const ws_val *v, char *why, size_t nwhy)
{
    const ws_field *f = &st->spec->sheets[r->sheet].fields[fi];
    ws_val *c = NULL;
    ws_slot *s = &r->slots[fi];
    int rc = ws_coerce(st->spec, f, &f->type, v, st->today, &c, why, nwhy);
    if (!rc && f->type.kind == WT_KB && st->ground && c->kind == WV_STR) {
        char *name = NULL;
        rc = st->ground(st->ground_ud, st->spec, &f->type, c->u.s, &name, why, nwhy);
        ws_val_free(c);
        c = rc ? NULL : ws_str_own(name);
    }
    if (rc) {
        ws_val_free(s->val);
        s->val = NULL;
        s->confirmed = s->acted = 0;
        free(s->why);
        s->why = xstrdup(why);
        return -1;
    }
    free(s->why);
    s->why = NULL;
    int same = s->val && ws_val_equal(s->val, c);
    ws_val_free(s->val);
    s->val = c;
    s->set_turn = st->turn;
    if (!same) {
        s->confirmed = s->acted = 0;
        if (f->type.kind != WT_CONFIRM && f->kind == WFK_INPUT) unconfirm_up(st, r, fi);
        clear_derived(st, r, f);
    }
    return 0;
}

void ws_state_arg(const ws_state *st, const ws_type *t, const char *key, const ws_val *v, ws_val *args,
                  int parts)
{
    ws_val *row = t && t->kind == WT_KB && st->row && v && v->kind == WV_STR
        ? st->row(st->ground_ud, st->spec, t, v->u.s) : NULL;
    const char *col = row ? st->spec->sheets[t->sheet].fields[t->col].name : NULL;
    const ws_val *own = col ? ws_dict_get(row, col) : NULL;
    ws_dict_set(args, key, ws_val_copy(own ? own : v));
    for (int i = 0; parts && row && i < row->u.c.n; i++) {
        if (!strcmp(row->u.c.keys[i], col)) continue;
        char *k = xasprintf("%s::%s", key, row->u.c.keys[i]);
        ws_dict_set(args, k, ws_val_copy(row->u.c.items[i]));
        free(k);
    }
    ws_val_free(row);
}

int ws_list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ' || p[-1] == ',') && (p[n] == ',' || !p[n])) return 1;
    return 0;
}

void ws_state_clear(ws_state *st, ws_record *r, int fi)
{
    ws_slot *s = &r->slots[fi];
    ws_val_free(s->val);
    s->val = NULL;
    s->confirmed = s->acted = 0;
    s->set_turn = st->turn;
}

ws_record *ws_state_latest_kb(const ws_state *st)
{
    for (int i = st->n - 1; i >= 0; i--)
        if (st->recs[i]->kind == WR_KB) return st->recs[i];
    return NULL;
}

/* ---- forgetting --------------------------------------------------------- */

/* The last turn R was touched: created, a field set, or (for a task) the
 * last turn any record nested in it was. */
static int last_active(const ws_state *st, const ws_record *r, int depth)
{
    int t = r->created_turn;
    if (r->kind == WR_TASK && depth < 64) {          /* a saved state may loop */
        int nf = st->spec->sheets[r->sheet].nfields;
        for (int i = 0; i < nf; i++)
            if (r->slots[i].set_turn > t) t = r->slots[i].set_turn;
        for (int i = 0; i < st->n; i++)
            if (st->recs[i]->parent == r->id) {
                int c = last_active(st, st->recs[i], depth + 1);
                if (c > t) t = c;
            }
    }
    return t;
}

/* Mark (keep[] = 1) every record V refers to, and what those refer to. */
static void mark_refs(const ws_state *st, const ws_val *v, char *keep);

static void mark_rec(const ws_state *st, int idx, char *keep)
{
    if (keep[idx] == 2) return;        /* already walked */
    keep[idx] = 2;
    const ws_record *r = st->recs[idx];
    if (r->kind == WR_TASK) {
        int nf = st->spec->sheets[r->sheet].nfields;
        for (int i = 0; i < nf; i++) mark_refs(st, r->slots[i].val, keep);
        mark_refs(st, r->api_result, keep);
        for (int i = 0; i < st->n; i++)      /* nested records go with it, */
            if (st->recs[i]->parent == r->id) mark_rec(st, i, keep);
        for (int i = 0; r->parent >= 0 && i < st->n; i++)   /* and so does its parent */
            if (st->recs[i]->id == r->parent) mark_rec(st, i, keep);
    } else {
        mark_refs(st, r->result, keep);
    }
}

static void mark_refs(const ws_state *st, const ws_val *v, char *keep)
{
    if (!v) return;
    if (v->kind == WV_REC) {
        for (int i = 0; i < st->n; i++)
            if (st->recs[i]->id == v->u.rec) mark_rec(st, i, keep);
    } else if (v->kind == WV_LIST || v->kind == WV_DICT) {
        for (int i = 0; i < v->u.c.n; i++) mark_refs(st, v->u.c.items[i], keep);
    }
}

int ws_state_forget(ws_state *st, int keep_turns)
{
    if (st->n == 0 || keep_turns < 1) return 0;
    char *keep = xcalloc((size_t)st->n, 1);
    const ws_record *latest = ws_state_latest_kb(st);
    int cut = st->turn - keep_turns;
    /* Roots: what is still in use or recent; then whatever they refer to. */
    for (int i = 0; i < st->n; i++) {
        const ws_record *r = st->recs[i];
        if (r->kind == WR_KB)
            keep[i] = r == latest || r->created_turn > cut;
        else if (r->parent < 0)
            keep[i] = !(r->done || r->abandoned) || last_active(st, r, 0) > cut;
    }
    for (int i = 0; i < st->n; i++)
        if (keep[i] == 1) mark_rec(st, i, keep);
    int j = 0, gone = 0;
    for (int i = 0; i < st->n; i++) {
        if (keep[i]) st->recs[j++] = st->recs[i];
        else { rec_free(st->recs[i], st->spec); gone++; }
    }
    st->n = j;
    free(keep);
    return gone;
}

const char *ws_state_recname(int id, void *ud)
{
    const ws_record *r = ws_state_rec(ud, id);
    return r ? r->var : NULL;
}

/* A copy of V with strings longer than MAX cut ("…") and lists longer
 * than ROWS cut, for prompts. */
static ws_val *shorten(const ws_val *v, int rows, int max)
{
    if (v->kind == WV_STR && (int)strlen(v->u.s) > max) {
        int k = max;
        while (k > 0 && ((unsigned char)v->u.s[k] & 0xC0) == 0x80) k--;
        return ws_str_own(xasprintf("%.*s…", k, v->u.s));
    }
    if (v->kind == WV_LIST || v->kind == WV_DICT) {
        ws_val *c = v->kind == WV_LIST ? ws_list() : ws_dict();
        for (int i = 0; i < v->u.c.n && (v->kind == WV_DICT || i < rows); i++) {
            ws_val *it = shorten(v->u.c.items[i], rows, max);
            if (v->kind == WV_LIST) ws_list_add(c, it);
            else ws_dict_set(c, v->u.c.keys[i], it);
        }
        return c;
    }
    return ws_val_copy(v);
}

static void print_task(const ws_state *st, const ws_record *r, gn_buf *out)
{
    const ws_sheet *w = &st->spec->sheets[r->sheet];
    int first = 1;
    gn_buf_printf(out, "%s = %s(", r->var, w->name);
    for (int i = 0; i < w->nfields; i++) {
        if (!r->slots[i].val) continue;
        gn_buf_printf(out, "%s%s=", first ? "" : ", ", w->fields[i].name);
        ws_val *s = shorten(r->slots[i].val, 5, 200);
        ws_val_print(s, out, ws_state_recname, (void *)st);
        ws_val_free(s);
        first = 0;
    }
    gn_buf_putc(out, ')');
    if (r->abandoned) gn_buf_puts(out, "  # abandoned");
    else if (r->done) gn_buf_puts(out, "  # done");
    gn_buf_putc(out, '\n');
    if (r->api_result) {
        gn_buf_printf(out, "%s.result = ", r->var);
        ws_val_print(r->api_result, out, ws_state_recname, (void *)st);
        gn_buf_putc(out, '\n');
    }
}

/* One knowledge record: its question, and its rows (FULL: the short
 * values of MAX_ROWS rows; otherwise the first short value of each of the
 * first ROWS_NAMED, enough to say "the first one") or its error. */
static void print_kb_rec(const ws_state *st, const ws_record *kb, int full, int max_rows, gn_buf *out)
{
    gn_buf_printf(out, "%s = answer(", kb->var);
    ws_val q = { .kind = WV_STR, .u.s = kb->question };
    ws_val_print(&q, out, NULL, NULL);
    gn_buf_puts(out, ")\n");
    if (kb->result) {
        gn_buf_printf(out, "%s.result = ", kb->var);
        ws_val *s = ws_brief(kb->result, full ? max_rows : ROWS_NAMED, WS_BRIEF_KEYS, NULL);
        if (!full && s->kind == WV_LIST)
            for (int i = 0; i < s->u.c.n; i++) {
                ws_val *row = s->u.c.items[i];
                if (row->kind != WV_DICT || !row->u.c.n) continue;
                ws_val *d = ws_dict();
                ws_dict_set(d, row->u.c.keys[0], ws_val_copy(row->u.c.items[0]));
                ws_val_free(row);
                s->u.c.items[i] = d;
            }
        ws_val_print(s, out, ws_state_recname, (void *)st);
        int shown = s->kind == WV_LIST ? s->u.c.n : 0;
        ws_val_free(s);
        if (kb->result->kind == WV_LIST && kb->result->u.c.n > shown)
            gn_buf_printf(out, "  # %d rows, first %d shown", kb->result->u.c.n, shown);
        gn_buf_putc(out, '\n');
    } else if (kb->error) {
        gn_buf_printf(out, "%s.error = ", kb->var);
        ws_val e = { .kind = WV_STR, .u.s = kb->error };
        ws_val_print(&e, out, NULL, NULL);
        gn_buf_putc(out, '\n');
    }
}

/* The last KB_SHOWN knowledge records, oldest first: the latest in full,
 * the one before with the short values of its first ROWS_NAMED rows (the
 * phone number of a place found a question ago), the older ones by the
 * first value of each row. */
static void print_kb(const ws_state *st, int max_rows, gn_buf *out)
{
    int idx[KB_SHOWN], n = 0;
    for (int i = st->n - 1; i >= 0 && n < KB_SHOWN; i--)
        if (st->recs[i]->kind == WR_KB) idx[n++] = i;
    for (int k = n - 1; k >= 0; k--)
        print_kb_rec(st, st->recs[idx[k]], k <= 1, k == 0 ? max_rows : ROWS_NAMED, out);
}

static void print_tasks(const ws_state *st, gn_buf *out)
{
    /* Nested records print before the records that refer to them. */
    for (int depth = 8; depth >= 0; depth--)
        for (int i = 0; i < st->n; i++) {
            const ws_record *r = st->recs[i];
            if (r->kind != WR_TASK) continue;
            int d = 0;
            for (const ws_record *p = r; p && p->parent >= 0 && d < 8; d++) p = ws_state_rec(st, p->parent);
            if (d == depth) print_task(st, r, out);
        }
}

void ws_state_print(const ws_state *st, int max_rows, gn_buf *out)
{
    print_tasks(st, out);
    print_kb(st, max_rows, out);
}

void ws_state_print_earlier(const ws_state *st, gn_buf *out)
{
    print_tasks(st, out);
    int idx[2], n = 0;
    for (int i = st->n - 1; i >= 0 && n < 2; i--)
        if (st->recs[i]->kind == WR_KB && st->recs[i]->created_turn < st->turn) idx[n++] = i;
    for (int k = n - 1; k >= 0; k--) print_kb_rec(st, st->recs[idx[k]], 1, ROWS_NAMED, out);
}

/* ---- JSON ------------------------------------------------------------- */

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v) cJSON_AddStringToObject(o, k, v);
}

static cJSON *rec_json(const ws_state *st, const ws_record *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", r->id);
    cJSON_AddStringToObject(o, "kind", r->kind == WR_TASK ? "task" : "kb");
    cJSON_AddStringToObject(o, "var", r->var);
    cJSON_AddNumberToObject(o, "created_turn", r->created_turn);
    if (r->by_agent) cJSON_AddBoolToObject(o, "by_agent", 1);
    if (r->kind == WR_KB) {
        add_str(o, "question", r->question);
        add_str(o, "suql", r->suql);
        add_str(o, "error", r->error);
        add_str(o, "missing", r->missing);
        add_str(o, "note", r->note);
        add_str(o, "conditions", r->conditions);
        if (r->result) cJSON_AddItemToObject(o, "result", ws_val_to_json(r->result));
        cJSON_AddBoolToObject(o, "ran", r->ran);
        cJSON_AddNumberToObject(o, "target", r->target);
        cJSON_AddNumberToObject(o, "target_field", r->target_field);
        return o;
    }
    const ws_sheet *w = &st->spec->sheets[r->sheet];
    cJSON_AddStringToObject(o, "worksheet", w->name);
    cJSON_AddNumberToObject(o, "parent", r->parent);
    cJSON_AddNumberToObject(o, "parent_field", r->parent_field);
    cJSON_AddBoolToObject(o, "done", r->done);
    cJSON_AddBoolToObject(o, "abandoned", r->abandoned);
    if (r->api_result) cJSON_AddItemToObject(o, "api_result", ws_val_to_json(r->api_result));
    cJSON *fs = cJSON_AddObjectToObject(o, "fields");
    for (int i = 0; i < w->nfields; i++) {
        const ws_slot *s = &r->slots[i];
        if (!s->val && !s->asked && !s->set_turn && !s->why) continue;
        cJSON *f = cJSON_AddObjectToObject(fs, w->fields[i].name);
        cJSON_AddItemToObject(f, "value", s->val ? ws_val_to_json(s->val) : cJSON_CreateNull());
        cJSON_AddBoolToObject(f, "set", s->val != NULL);
        cJSON_AddNumberToObject(f, "set_turn", s->set_turn);
        cJSON_AddBoolToObject(f, "confirmed", s->confirmed);
        cJSON_AddBoolToObject(f, "acted", s->acted);
        if (s->acted_sig) cJSON_AddNumberToObject(f, "acted_sig", s->acted_sig);
        cJSON_AddBoolToObject(f, "asked", s->asked);
        if (s->asked_turn) cJSON_AddNumberToObject(f, "asked_turn", s->asked_turn);
        add_str(f, "why", s->why);
    }
    return o;
}

cJSON *ws_state_to_json(const ws_state *st)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "turn", st->turn);
    cJSON_AddNumberToObject(o, "next_id", st->next_id);
    cJSON *a = cJSON_AddArrayToObject(o, "records");
    for (int i = 0; i < st->n; i++) cJSON_AddItemToArray(a, rec_json(st, st->recs[i]));
    return o;
}

static int jint(const cJSON *o, const char *k, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valueint : cJSON_IsBool(v) ? cJSON_IsTrue(v) : dflt;
}

static char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static int rec_from_json(ws_state *st, const cJSON *o, gn_err *e)
{
    char *var = jstr(o, "var");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
    if (!var || !cJSON_IsString(kind)) {
        free(var);
        return gn_err_set(e, GN_ECORRUPT, "saved state: a record without kind or name");
    }
    ws_record *r;
    if (!strcmp(kind->valuestring, "kb")) {
        r = add(st, WR_KB, var);
        r->question = jstr(o, "question");
        r->suql = jstr(o, "suql");
        r->error = jstr(o, "error");
        r->missing = jstr(o, "missing");
        r->note = jstr(o, "note");
        r->conditions = jstr(o, "conditions");
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(o, "result");
        if (res) r->result = ws_val_from_json(res);
        r->ran = jint(o, "ran", 0);
        r->target = jint(o, "target", -1);
        r->target_field = jint(o, "target_field", -1);
        if (!r->question) r->question = xstrdup("");
    } else {
        const cJSON *wn = cJSON_GetObjectItemCaseSensitive(o, "worksheet");
        int sheet = cJSON_IsString(wn) ? ws_spec_sheet_index(st->spec, wn->valuestring) : -1;
        if (sheet < 0) {
            gn_err_set(e, GN_ECORRUPT, "saved state: worksheet %s is not in the spec",
                       cJSON_IsString(wn) ? wn->valuestring : "(none)");
            free(var);
            return e ? e->code : GN_ECORRUPT;
        }
        const ws_sheet *w = &st->spec->sheets[sheet];
        r = add(st, WR_TASK, var);
        r->sheet = sheet;
        r->slots = xcalloc((size_t)(w->nfields ? w->nfields : 1), sizeof *r->slots);
        r->parent = jint(o, "parent", -1);
        r->parent_field = jint(o, "parent_field", -1);
        r->done = jint(o, "done", 0);
        r->abandoned = jint(o, "abandoned", 0);
        const cJSON *ar = cJSON_GetObjectItemCaseSensitive(o, "api_result");
        if (ar) r->api_result = ws_val_from_json(ar);
        const cJSON *fs = cJSON_GetObjectItemCaseSensitive(o, "fields");
        for (const cJSON *f = fs ? fs->child : NULL; f; f = f->next) {
            int fi = ws_sheet_field_index(w, f->string);
            if (fi < 0) continue;                /* a field since removed */
            ws_slot *s = &r->slots[fi];
            if (jint(f, "set", 0)) s->val = ws_val_from_json(cJSON_GetObjectItemCaseSensitive(f, "value"));
            /* JSON has one kind of number: 3.0 comes back as 3, so the
             * value is fitted to its field again (canonical values keep). */
            ws_val *c = NULL;
            char why[256];
            if (s->val && !ws_coerce(st->spec, &w->fields[fi], &w->fields[fi].type, s->val, st->today, &c,
                                     why, sizeof why)) {
                ws_val_free(s->val);
                s->val = c;
            }
            s->why = jstr(f, "why");
            s->set_turn = jint(f, "set_turn", 0);
            s->confirmed = jint(f, "confirmed", 0);
            s->acted = jint(f, "acted", 0);
            cJSON *sig = cJSON_GetObjectItemCaseSensitive(f, "acted_sig");
            s->acted_sig = cJSON_IsNumber(sig) && sig->valuedouble >= 0 && sig->valuedouble < 4294967296.0
                ? (unsigned)sig->valuedouble : 0;
            s->asked = jint(f, "asked", 0);
            s->asked_turn = jint(f, "asked_turn", 0);
        }
    }
    r->id = jint(o, "id", r->id);
    r->created_turn = jint(o, "created_turn", 0);
    r->by_agent = jint(o, "by_agent", 0);
    return 0;
}

int ws_state_from_json(const ws_spec *spec, const cJSON *j, ws_date today, ws_state **out, gn_err *e)
{
    ws_state *st = ws_state_new(spec, today);
    const cJSON *recs = cJSON_GetObjectItemCaseSensitive(j, "records");
    if (!cJSON_IsObject(j) || !cJSON_IsArray(recs)) {
        ws_state_free(st);
        return gn_err_set(e, GN_ECORRUPT, "saved state is not a dialogue state");
    }
    for (const cJSON *r = recs->child; r; r = r->next)
        if (rec_from_json(st, r, e)) {
            ws_state_free(st);
            return e ? e->code : GN_ECORRUPT;
        }
    st->turn = jint(j, "turn", 0);
    st->next_id = jint(j, "next_id", st->n + 1);
    /* A nested record whose parent is gone (a state saved by a version that
     * could forget one) stands on its own. */
    for (int i = 0; i < st->n; i++)
        if (st->recs[i]->parent >= 0 && !ws_state_rec(st, st->recs[i]->parent))
            st->recs[i]->parent = st->recs[i]->parent_field = -1;
    *out = st;
    return 0;
}
