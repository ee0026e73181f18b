/*
 * interp.c — evaluation of worksheet expressions and statements.
 *
 * Invariant: every effect goes through a name this file resolves — a
 * record variable of the state, a declared worksheet (constructor), a
 * built-in of the table below, or an API the host declares — and a
 * statement's targets and call names are checked before any part of it is
 * evaluated, and a parser statement that still fails while evaluated is
 * undone, so a refused statement leaves the state untouched.  Built-ins
 * receive their argument nodes, not values: confirm() needs the place
 * (record and field) rather than the value, propose() a worksheet name.
 * Rejected: mapping the parser's output to a generic Python evaluator; the
 * reference implementation does that, and it executes whatever an LLM
 * writes.
 */
#include "worksheet/interp.h"
#include "worksheet/consent.h"
#include "util/xmem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ERR(in, n, ...) ((void)(in), gn_err_setpos(e, GN_EPARSE, NULL, (n)->line, (n)->col, __VA_ARGS__))

typedef int (*builtin_fn)(ws_interp *in, const ws_node *call, ws_val **out, gn_err *e);

typedef struct builtin {
    const char *name;
    int min, max;             /* positional argument counts */
    int parser_ok;            /* allowed in the parser's output */
    builtin_fn fn;
} builtin;

static const builtin *find_builtin(const char *name);

/* ---- places: record + field ------------------------------------------- */

/* Resolve N (NAME of a record, or ATTR chains through record-valued
 * fields) to a record; NULL with e set when it is not one. */
static ws_record *eval_record(ws_interp *in, const ws_node *n, gn_err *e)
{
    ws_val *v = NULL;
    if (ws_eval(in, n, &v, e)) return NULL;
    ws_record *r = v->kind == WV_REC ? ws_state_rec(in->st, v->u.rec) : NULL;
    if (!r) {
        gn_buf b;
        gn_buf_init(&b);
        ws_node_print(n, &b);
        ERR(in, n, "'%s' is not a record of the dialogue state", b.data);
        gn_buf_release(&b);
    }
    ws_val_free(v);
    return r;
}

/* N must be record.field of a task record; sets *r and *fi. */
static int resolve_field(ws_interp *in, const ws_node *n, ws_record **r, int *fi, gn_err *e)
{
    if (n->kind != WN_ATTR) return ERR(in, n, "expected record.field");
    if (!(*r = eval_record(in, n->a, e))) return GN_EPARSE;
    if ((*r)->kind != WR_TASK)
        return ERR(in, n, "the knowledge record %s has no field %s to set", (*r)->var, n->name);
    const ws_sheet *w = &in->st->spec->sheets[(*r)->sheet];
    *fi = ws_sheet_field_index(w, n->name);
    if (*fi < 0) return ERR(in, n, "worksheet %s has no field '%s'", w->name, n->name);
    return 0;
}

static int may_assign(ws_interp *in, const ws_node *n, const ws_record *r, int fi, gn_err *e)
{
    const ws_field *f = &in->st->spec->sheets[r->sheet].fields[fi];
    if (in->mode == WS_MODE_PARSER && f->kind != WFK_INPUT)
        return ERR(in, n, "field %s.%s is %s: only the agent sets it", r->var, f->name,
                   f->kind == WFK_INTERNAL ? "internal" : "an output");
    if (in->mode == WS_MODE_PARSER && (r->done || r->abandoned))
        return ERR(in, n, "%s is already %s", r->var, r->done ? "done" : "abandoned");
    return 0;
}

/* ---- checking a statement before running it --------------------------- */

static int vet(ws_interp *in, const ws_node *n, gn_err *e)
{
    if (!n) return 0;
    if (n->kind == WN_NAME) {
        if (!strcmp(n->name, "self") && in->self >= 0) return 0;
        if (ws_state_var(in->st, n->name)) return 0;
        if (ws_spec_sheet(in->st->spec, n->name)) return 0;  /* propose(Sheet, ...) */
        return ERR(in, n, "unknown name '%s'", n->name);
    }
    if (n->kind == WN_CALL) {
        if (n->a->kind != WN_NAME) return ERR(in, n, "only declared functions can be called");
        const char *f = n->a->name;
        const builtin *b = find_builtin(f);
        const ws_sheet *w = ws_spec_sheet(in->st->spec, f);
        if (b && (b->parser_ok || in->mode == WS_MODE_ACTION)) {
            /* fine */
        } else if (w && w->kind != WSK_DB) {
            for (int i = 0; i < n->nargs; i++) {
                if (!n->kw[i]) return ERR(in, n->args[i], "%s() takes field=value arguments", f);
                int k = ws_sheet_field_index(w, n->kw[i]);
                if (k < 0) return ERR(in, n->args[i], "worksheet %s has no field '%s'", f, n->kw[i]);
                if (in->mode == WS_MODE_PARSER && w->fields[k].kind != WFK_INPUT)
                    return ERR(in, n->args[i], "field %s.%s is %s: only the agent sets it", f,
                               n->kw[i], w->fields[k].kind == WFK_INTERNAL ? "internal" : "an output");
            }
        } else if (in->mode == WS_MODE_ACTION && in->host && in->host->has_api(in->host->ud, f)) {
            /* a declared API */
        } else if (b || (in->host && in->host->has_api(in->host->ud, f))) {
            return ERR(in, n, "%s() is not allowed here", f);
        } else {
            return ERR(in, n, "unknown function '%s'", f);
        }
        for (int i = 0; i < n->nargs; i++)
            if (vet(in, n->args[i], e)) return GN_EPARSE;
        return 0;
    }
    if (vet(in, n->a, e) || vet(in, n->b, e) || vet(in, n->c, e)) return GN_EPARSE;
    if (n->kind == WN_LIST || n->kind == WN_DICT)
        for (int i = 0; i < n->nargs; i++)
            if (vet(in, n->args[i], e)) return GN_EPARSE;
    return 0;
}

/* ---- evaluation -------------------------------------------------------- */

static int num(const ws_val *v, double *d)
{
    if (v->kind == WV_INT) *d = (double)v->u.i;
    else if (v->kind == WV_FLOAT) *d = v->u.f;
    else if (v->kind == WV_BOOL) *d = v->u.b;
    else return 0;
    return 1;
}

static int attr(ws_interp *in, const ws_node *n, const ws_val *obj, ws_val **out, gn_err *e)
{
    if (obj->kind == WV_DICT) {
        const ws_val *v = ws_dict_get(obj, n->name);
        *out = v ? ws_val_copy(v) : ws_none();
        return 0;
    }
    const ws_record *r = obj->kind == WV_REC ? ws_state_rec(in->st, obj->u.rec) : NULL;
    if (!r) return ERR(in, n, "%s has no attribute '%s'", ws_val_type(obj), n->name);
    if (!strcmp(n->name, "result")) {
        const ws_val *res = r->kind == WR_KB ? r->result : r->api_result;
        *out = res ? ws_val_copy(res) : ws_none();
        return 0;
    }
    if (r->kind == WR_KB) return ERR(in, n, "a knowledge record has no attribute '%s'", n->name);
    const ws_sheet *w = &in->st->spec->sheets[r->sheet];
    int fi = ws_sheet_field_index(w, n->name);
    if (fi < 0) return ERR(in, n, "worksheet %s has no field '%s'", w->name, n->name);
    const ws_val *v = r->slots[fi].val;
    *out = v ? ws_val_copy(v) : ws_none();
    return 0;
}

static int index_of(ws_interp *in, const ws_node *n, const ws_val *o, const ws_val *k, ws_val **out,
                    gn_err *e)
{
    if (o->kind == WV_DICT && k->kind == WV_STR) {
        const ws_val *v = ws_dict_get(o, k->u.s);
        if (!v) return ERR(in, n, "no key \"%s\"", k->u.s);
        *out = ws_val_copy(v);
        return 0;
    }
    if ((o->kind == WV_LIST || o->kind == WV_STR) && k->kind == WV_INT) {
        long long len = o->kind == WV_LIST ? o->u.c.n : (long long)strlen(o->u.s), i = k->u.i;
        if (i < 0) i += len;
        if (i < 0 || i >= len) return ERR(in, n, "index %lld out of range (length %lld)", k->u.i, len);
        *out = o->kind == WV_LIST ? ws_val_copy(o->u.c.items[i]) : ws_strn(o->u.s + i, 1);
        return 0;
    }
    return ERR(in, n, "cannot index %s with %s", ws_val_type(o), ws_val_type(k));
}

static int contains(const ws_val *hay, const ws_val *x, int *out)
{
    if (hay->kind == WV_STR && x->kind == WV_STR) { *out = strstr(hay->u.s, x->u.s) != NULL; return 0; }
    if (hay->kind == WV_LIST) {
        *out = 0;
        for (int i = 0; i < hay->u.c.n && !*out; i++) *out = ws_val_equal(hay->u.c.items[i], x);
        return 0;
    }
    if (hay->kind == WV_DICT && x->kind == WV_STR) { *out = ws_dict_get(hay, x->u.s) != NULL; return 0; }
    if (hay->kind == WV_NONE) { *out = 0; return 0; }
    return -1;
}

static int compare(ws_interp *in, const ws_node *n, const ws_val *a, const ws_val *b, int *res,
                   gn_err *e)
{
    const char *op = n->op;
    int c;
    if (!strcmp(op, "==")) *res = ws_val_equal(a, b);
    else if (!strcmp(op, "!=")) *res = !ws_val_equal(a, b);
    else if (!strcmp(op, "is")) *res = a->kind == b->kind && ws_val_equal(a, b);
    else if (!strcmp(op, "is not")) *res = !(a->kind == b->kind && ws_val_equal(a, b));
    else if (!strcmp(op, "in") || !strcmp(op, "not in")) {
        if (contains(b, a, res)) return ERR(in, n, "'in' needs a list, text or dict, not %s", ws_val_type(b));
        if (op[0] == 'n') *res = !*res;
    } else {
        /* An unset field compares false rather than failing, so a
         * predicate over fields not yet filled is simply not true. */
        if (a->kind == WV_NONE || b->kind == WV_NONE) { *res = 0; return 0; }
        if (ws_val_compare(a, b, &c))
            return ERR(in, n, "cannot compare %s with %s", ws_val_type(a), ws_val_type(b));
        *res = !strcmp(op, "<") ? c < 0 : !strcmp(op, "<=") ? c <= 0 : !strcmp(op, ">") ? c > 0 : c >= 0;
    }
    return 0;
}

static int arith(ws_interp *in, const ws_node *n, const ws_val *a, const ws_val *b, ws_val **out,
                 gn_err *e)
{
    const char *op = n->op;
    double x, y;
    if (!strcmp(op, "+") && a->kind == WV_STR && b->kind == WV_STR) {
        *out = ws_str_own(xasprintf("%s%s", a->u.s, b->u.s));
        return 0;
    }
    if (!strcmp(op, "+") && a->kind == WV_LIST && b->kind == WV_LIST) {
        ws_val *l = ws_val_copy(a);
        for (int i = 0; i < b->u.c.n; i++) ws_list_add(l, ws_val_copy(b->u.c.items[i]));
        *out = l;
        return 0;
    }
    if (!num(a, &x) || !num(b, &y))
        return ERR(in, n, "cannot apply '%s' to %s and %s", op, ws_val_type(a), ws_val_type(b));
    int ints = a->kind != WV_FLOAT && b->kind != WV_FLOAT;
    if ((!strcmp(op, "/") || !strcmp(op, "//") || !strcmp(op, "%")) && y == 0)
        return ERR(in, n, "division by zero");
    double r;
    switch (op[0]) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '%': r = x - y * floor(x / y); break;
    default: r = op[1] == '/' ? floor(x / y) : x / y; if (op[1] != '/') ints = 0; break;
    }
    *out = ints && fabs(r) < 9e15 ? ws_int((long long)r) : ws_float(r);
    return 0;
}

static int call(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e);

int ws_eval(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *a = NULL, *b = NULL;
    int rc = 0, t = 0;
    *out = NULL;
    switch (n->kind) {
    case WN_LIT:
        *out = ws_val_copy(n->lit);
        return 0;
    case WN_NAME: {
        if (!strcmp(n->name, "self") && in->self >= 0) { *out = ws_recref(in->self); return 0; }
        const ws_record *r = ws_state_var(in->st, n->name);
        if (r) { *out = ws_recref(r->id); return 0; }
        return ERR(in, n, "unknown name '%s'", n->name);
    }
    case WN_ATTR:
        if (ws_eval(in, n->a, &a, e)) return GN_EPARSE;
        rc = attr(in, n, a, out, e);
        break;
    case WN_INDEX:
        if (ws_eval(in, n->a, &a, e) || ws_eval(in, n->b, &b, e)) { rc = e ? e->code : GN_EPARSE; break; }
        rc = index_of(in, n, a, b, out, e);
        break;
    case WN_CALL:
        return call(in, n, out, e);
    case WN_LIST: case WN_DICT: {
        ws_val *c = n->kind == WN_LIST ? ws_list() : ws_dict();
        for (int i = 0; i < n->nargs; i++) {
            if (ws_eval(in, n->args[i], &a, e)) { ws_val_free(c); return GN_EPARSE; }
            if (n->kind == WN_LIST) ws_list_add(c, a);
            else ws_dict_set(c, n->kw[i], a);
            a = NULL;
        }
        *out = c;
        return 0;
    }
    case WN_UNARY:
        if (ws_eval(in, n->a, &a, e)) return GN_EPARSE;
        if (!strcmp(n->op, "not")) *out = ws_bool(!ws_val_truthy(a));
        else if (a->kind == WV_INT) *out = ws_int(n->op[0] == '-' ? -a->u.i : a->u.i);
        else if (a->kind == WV_FLOAT) *out = ws_float(n->op[0] == '-' ? -a->u.f : a->u.f);
        else rc = ERR(in, n, "cannot apply unary '%s' to %s", n->op, ws_val_type(a));
        break;
    case WN_BINARY:
        if (ws_eval(in, n->a, &a, e)) return GN_EPARSE;
        if (!strcmp(n->op, "and") || !strcmp(n->op, "or")) {
            int tv = ws_val_truthy(a);
            if ((n->op[0] == 'a') != tv) { *out = a; return 0; }
            ws_val_free(a);
            return ws_eval(in, n->b, out, e);
        }
        if (ws_eval(in, n->b, &b, e)) { rc = GN_EPARSE; break; }
        rc = arith(in, n, a, b, out, e);
        break;
    case WN_CMP:
        if (ws_eval(in, n->a, &a, e) || ws_eval(in, n->b, &b, e)) { rc = GN_EPARSE; break; }
        if (!(rc = compare(in, n, a, b, &t, e))) *out = ws_bool(t);
        break;
    case WN_COND:
        if (ws_eval(in, n->a, &a, e)) return GN_EPARSE;
        t = ws_val_truthy(a);
        ws_val_free(a);
        return ws_eval(in, t ? n->b : n->c, out, e);
    }
    ws_val_free(a);
    ws_val_free(b);
    return rc;
}

int ws_eval_pred(ws_interp *in, const ws_node *n, int *out, gn_err *e)
{
    ws_val *v;
    *out = 0;
    if (vet(in, n, e) || ws_eval(in, n, &v, e)) return GN_EPARSE;
    *out = ws_val_truthy(v);
    ws_val_free(v);
    return 0;
}

/* ---- assignment ---------------------------------------------------------- */

static void assign_value(ws_interp *in, ws_record *r, int fi, ws_val *v);

/* Values written as a dict (or a list of dicts) for a field of worksheet
 * type become records nested in R. */
static ws_val *nest(ws_interp *in, ws_record *r, int fi, const ws_type *t, ws_val *v)
{
    if (t->kind == WT_LIST && v->kind == WV_LIST) {
        for (int i = 0; i < v->u.c.n; i++) v->u.c.items[i] = nest(in, r, fi, t->elem, v->u.c.items[i]);
        return v;
    }
    if (t->kind != WT_SHEET) return v;
    if (v->kind == WV_REC) {
        ws_record *c = ws_state_rec(in->st, v->u.rec);
        /* A record cannot hold itself, nor a record that holds it. */
        ws_record *a = r;
        for (int up = 0; c && a && up < 64; up++, a = a->parent >= 0 ? ws_state_rec(in->st, a->parent) : NULL)
            if (a == c) {
                ws_val_free(v);
                return ws_none();
            }
        if (c && c->kind == WR_TASK && c->parent < 0 && c->sheet == t->sheet) {
            c->parent = r->id;
            c->parent_field = fi;
        }
        return v;
    }
    if (v->kind != WV_DICT) return v;
    ws_record *c = ws_state_new_task(in->st, t->sheet, r->id, fi);
    const ws_sheet *w = &in->st->spec->sheets[t->sheet];
    for (int i = 0; i < v->u.c.n; i++) {
        int k = ws_sheet_field_index(w, v->u.c.keys[i]);
        if (k >= 0) assign_value(in, c, k, ws_val_copy(v->u.c.items[i]));
    }
    ws_val_free(v);
    return ws_recref(c->id);
}

/* Store V (taken) in R.FI: a pending knowledge record becomes the field's
 * source, anything else is coerced (a misfit is noted in the slot). */
static void assign_value(ws_interp *in, ws_record *r, int fi, ws_val *v)
{
    char why[256];
    ws_record *kb = v->kind == WV_REC ? ws_state_rec(in->st, v->u.rec) : NULL;
    if (kb && kb->kind == WR_KB && !kb->ran) {
        kb->target = r->id;
        kb->target_field = fi;
        ws_state_clear(in->st, r, fi);
        ws_val_free(v);
        return;
    }
    const ws_field *f = &in->st->spec->sheets[r->sheet].fields[fi];
    v = nest(in, r, fi, &f->type, v);
    if (ws_state_set(in->st, r, fi, v, why, sizeof why) && in->mode == WS_MODE_PARSER && in->acts &&
        f->type.kind != WT_KB) {
        /* Said at once, not found two turns later when the field is asked
         * (a name not in the knowledge base is asked about at once anyway). */
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_printf(&b, "%s.%s = ", ws_state_recname(r->id, in->st), f->name);
        ws_val_print(v, &b, ws_state_recname, in->st);
        ws_acts_add(in->acts, WA_REFUSE, -1, -1, why, ws_str_own(gn_buf_detach(&b)));
    }
    ws_val_free(v);
    /* What the parser set is the user's agreement only under the
     * confirmation rule (consent.h). */
    if (in->mode == WS_MODE_PARSER) ws_consent_hold(in->st, r, fi, in->utterance, in->typed, in->acts);
}

/* answer_N.location = "Cupertino", the parser's natural reply when the
 * agent asked for a search's missing parameter: the question is asked
 * again with it ("... (location: Cupertino)"), as a new knowledge record.
 * 1 when S was that (0 in E's code, or the error), 0 when it is not. */
static int answer_missing(ws_interp *in, const ws_stmt *s, gn_err *e)
{
    ws_val *rv = NULL;
    const ws_node *t = s->target;
    gn_err quiet;
    gn_err_clear(&quiet);
    if (t->a->kind != WN_NAME || ws_eval(in, t->a, &rv, &quiet)) {
        ws_val_free(rv);
        return 0;
    }
    ws_record *kb = rv->kind == WV_REC ? ws_state_rec(in->st, rv->u.rec) : NULL;
    ws_val_free(rv);
    if (!kb || kb->kind != WR_KB || !kb->missing || !ws_list_has(kb->missing, t->name)) return 0;
    ws_val *v = NULL;
    if (vet(in, s->value, e) || ws_eval(in, s->value, &v, e)) return 1;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "%s (%s: ", kb->question, t->name);
    if (v->kind == WV_STR) gn_buf_puts(&b, v->u.s);
    else ws_val_print(v, &b, NULL, NULL);
    gn_buf_putc(&b, ')');
    ws_val_free(v);
    ws_record *again = ws_state_new_kb(in->st, b.data);
    again->target = kb->target;                   /* the field it was to fill */
    again->target_field = kb->target_field;
    gn_buf_release(&b);
    if (e) gn_err_clear(e);
    return 1;
}

/* A dict the parser gives a field of worksheet type T (or a list of
 * them) becomes a record: each key must be an input field of that
 * worksheet, as in Course(...) (a dict is no way around the rule that
 * only the agent sets internal fields, such as a course's units range). */
static int dict_fields(ws_interp *in, const ws_node *at, const ws_type *t, const ws_val *v, gn_err *e)
{
    if (t->kind == WT_LIST && v->kind == WV_LIST) {
        for (int i = 0; i < v->u.c.n; i++)
            if (dict_fields(in, at, t->elem, v->u.c.items[i], e)) return GN_EPARSE;
        return 0;
    }
    if (t->kind != WT_SHEET || v->kind != WV_DICT) return 0;
    const ws_sheet *w = &in->st->spec->sheets[t->sheet];
    for (int i = 0; i < v->u.c.n; i++) {
        int k = ws_sheet_field_index(w, v->u.c.keys[i]);
        if (k < 0) return ERR(in, at, "worksheet %s has no field '%s'", w->name, v->u.c.keys[i]);
        if (w->fields[k].kind != WFK_INPUT)
            return ERR(in, at, "field %s.%s is %s: only the agent sets it", w->name, w->fields[k].name,
                       w->fields[k].kind == WFK_INTERNAL ? "internal" : "an output");
        if (dict_fields(in, at, &w->fields[k].type, v->u.c.items[i], e)) return GN_EPARSE;
    }
    return 0;
}

static int run_assign(ws_interp *in, const ws_stmt *s, gn_err *e)
{
    ws_record *r;
    int fi;
    ws_val *v;
    if (s->target->kind != WN_ATTR)
        return ERR(in, s->target, s->target->kind == WN_NAME
                   ? "cannot assign to a variable; assign a field: record.field = value"
                   : "cannot assign to an item; assign a whole field");
    if (in->mode == WS_MODE_PARSER && answer_missing(in, s, e)) return e && e->code ? e->code : 0;
    if (resolve_field(in, s->target, &r, &fi, e) || may_assign(in, s->target, r, fi, e)) return GN_EPARSE;
    if (in->mode == WS_MODE_ACTION && in->self >= 0 && r->id != in->self) {
        /* actions may set fields of self and of records nested in it */
        const ws_record *p = r;
        while (p && p->id != in->self) p = p->parent >= 0 ? ws_state_rec(in->st, p->parent) : NULL;
        if (!p) return ERR(in, s->target, "an action may only set fields of self");
    }
    if (vet(in, s->value, e) || ws_eval(in, s->value, &v, e)) return GN_EPARSE;
    if (in->mode == WS_MODE_PARSER &&
        dict_fields(in, s->value, &in->st->spec->sheets[r->sheet].fields[fi].type, v, e)) {
        ws_val_free(v);
        return GN_EPARSE;
    }
    assign_value(in, r, fi, v);
    return 0;
}

static int run_stmt(ws_interp *in, const ws_stmt *s, gn_err *e)
{
    ws_val *v = NULL;
    switch (s->kind) {
    case WS_PASS:
        return 0;
    case WS_ASSIGN:
        return run_assign(in, s, e);
    case WS_EXPR:
        if (in->mode == WS_MODE_PARSER && s->value->kind != WN_CALL)
            return ERR(in, s->value, "a statement must assign a field or call answer(), confirm() or a worksheet");
        if (vet(in, s->value, e) || ws_eval(in, s->value, &v, e)) return e ? e->code : GN_EPARSE;
        ws_val_free(v);
        return 0;
    }
    return 0;
}

/* Put ST back as SNAP (its JSON form) had it.  Records are only ever
 * appended, so the first records of ST are those of SNAP: their contents
 * are swapped back in place (pointers to them stay valid) and the records
 * made since are freed. */
static void restore(ws_state *st, const cJSON *snap)
{
    ws_state *old = NULL;
    if (ws_state_from_json(st->spec, snap, st->today, &old, NULL)) return;
    int m = old->n < st->n ? old->n : st->n;
    for (int i = 0; i < m; i++) {
        ws_record tmp = *st->recs[i];
        *st->recs[i] = *old->recs[i];
        st->recs[i]->hold_turn = tmp.hold_turn;    /* not in the JSON; */
        st->recs[i]->changed_turn = tmp.changed_turn;   /* kept as marked: safer */
        *old->recs[i] = tmp;
    }
    if (st->n > old->n) {
        old->recs = xrealloc(old->recs, (size_t)st->n * sizeof *old->recs);
        old->cap = st->n;
        for (int i = old->n; i < st->n; i++) old->recs[i] = st->recs[i];
        old->n = st->n;
    }
    st->n = m;
    st->next_id = old->next_id;
    ws_state_free(old);                           /* frees what the statement made */
}

int ws_run_stmt(ws_interp *in, const ws_stmt *s, gn_err *e)
{
    if (in->mode != WS_MODE_PARSER) return run_stmt(in, s, e);
    /* Checking comes first, but a statement can still fail while it is
     * evaluated (1/0, indexing None) after an answer() or a constructor
     * inside it ran: a refused statement leaves no trace. */
    cJSON *snap = ws_state_to_json(in->st);
    int rc = run_stmt(in, s, e);
    if (rc) restore(in->st, snap);
    cJSON_Delete(snap);
    return rc;
}

int ws_run_prog(ws_interp *in, const ws_prog *p, gn_err *e)
{
    for (int i = 0; p && i < p->n; i++)
        if (ws_run_stmt(in, &p->stmts[i], e)) return e ? e->code : GN_EPARSE;
    return 0;
}

/* ---- calls ----------------------------------------------------------------- */

static int positional(ws_interp *in, const ws_node *n, const builtin *b, gn_err *e)
{
    int np = 0;
    for (int i = 0; i < n->nargs; i++) {
        if (n->kw[i]) return ERR(in, n->args[i], "%s() takes no keyword arguments", b->name);
        np++;
    }
    if (np < b->min || np > b->max) {
        if (b->min == b->max) return ERR(in, n, "%s() takes %d argument%s", b->name, b->min, b->min == 1 ? "" : "s");
        return ERR(in, n, "%s() takes %d to %d arguments", b->name, b->min, b->max);
    }
    return 0;
}

static int arg_str(ws_interp *in, const ws_node *n, int i, char **out, gn_err *e)
{
    ws_val *v;
    if (ws_eval(in, n->args[i], &v, e)) return GN_EPARSE;
    if (v->kind != WV_STR) {
        const char *type = ws_val_type(v);     /* a static string */
        ws_val_free(v);
        return ERR(in, n->args[i], "expected text, not %s", type);
    }
    *out = xstrdup(v->u.s);
    ws_val_free(v);
    return 0;
}

static int bi_answer(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    char *q;
    if (arg_str(in, n, 0, &q, e)) return GN_EPARSE;
    if (!*q) { free(q); return ERR(in, n, "answer() needs a question"); }
    ws_record *r = ws_state_new_kb(in->st, q);
    r->by_agent = in->mode == WS_MODE_ACTION;
    free(q);
    *out = ws_recref(r->id);
    return 0;
}

static int bi_confirm(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_record *r;
    int fi;
    if (resolve_field(in, n->args[0], &r, &fi, e)) return GN_EPARSE;
    /* confirm(booking.confirm), for a field that is itself the go-ahead,
     * means what booking.confirm = True means, under the same rules; the
     * models write it for "yes, book it" as often as the assignment.  (A
     * refusal returns no value: the caller frees none then.) */
    if (r->kind == WR_TASK && in->st->spec->sheets[r->sheet].fields[fi].type.kind == WT_CONFIRM) {
        if (may_assign(in, n->args[0], r, fi, e)) return GN_EPARSE;
        assign_value(in, r, fi, ws_bool(1));
    } else if (ws_slot_filled(&r->slots[fi])) {
        r->slots[fi].confirmed = 1;
    }
    *out = ws_none();
    return 0;
}

static int bi_say(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *v;
    if (ws_eval(in, n->args[0], &v, e)) return GN_EPARSE;
    gn_buf b;
    gn_buf_init(&b);
    if (v->kind == WV_STR) gn_buf_puts(&b, v->u.s);
    else ws_val_print(v, &b, ws_state_recname, in->st);
    ws_acts_add(in->acts, WA_SAY, -1, -1, b.data, NULL);
    gn_buf_release(&b);
    ws_val_free(v);
    *out = ws_none();
    return 0;
}

static int bi_propose(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    const ws_node *w = n->args[0];
    int sheet = w->kind == WN_NAME ? ws_spec_sheet_index(in->st->spec, w->name) : -1;
    if (sheet < 0 || in->st->spec->sheets[sheet].kind != WSK_TASK)
        return ERR(in, w, "propose() takes a task worksheet's name first");
    ws_val *vals = NULL;
    if (n->nargs > 1) {
        if (ws_eval(in, n->args[1], &vals, e)) return GN_EPARSE;
        if (vals->kind != WV_DICT) {
            ws_val_free(vals);
            return ERR(in, n->args[1], "propose() takes a dict of field values second");
        }
    }
    ws_act *a = ws_acts_add(in->acts, WA_PROPOSE, -1, -1, NULL, vals ? vals : ws_dict());
    a->sheet = sheet;
    *out = ws_none();
    return 0;
}

static void abandon(ws_state *st, ws_record *r)
{
    r->abandoned = 1;
    for (int i = 0; i < st->n; i++)
        if (st->recs[i]->parent == r->id) abandon(st, st->recs[i]);
}

static int bi_exitws(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_record *r = in->self >= 0 ? ws_state_rec(in->st, in->self) : NULL;
    if (!r) return ERR(in, n, "exitws() needs a worksheet to leave");
    for (int up = 0; r->parent >= 0 && up < 64; up++) {     /* the top-level task */
        ws_record *p = ws_state_rec(in->st, r->parent);
        if (!p) break;
        r = p;
    }
    abandon(in->st, r);
    *out = ws_none();
    return 0;
}

/* abandon(record), from the parser: the user no longer wants that task
 * (its top-level task, with every record nested in it); a done task
 * cannot be, its effects having happened. */
static int bi_abandon(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *v;
    if (ws_eval(in, n->args[0], &v, e)) return GN_EPARSE;
    ws_record *r = v->kind == WV_REC ? ws_state_rec(in->st, v->u.rec) : NULL;
    ws_val_free(v);
    if (!r || r->kind != WR_TASK) return ERR(in, n->args[0], "abandon() takes a task record");
    for (int up = 0; r->parent >= 0 && up < 64; up++) {
        ws_record *p = ws_state_rec(in->st, r->parent);
        if (!p) break;
        r = p;
    }
    if (r->done || r->abandoned)
        return ERR(in, n, "%s is already %s", r->var, r->done ? "done" : "abandoned");
    abandon(in->st, r);
    const ws_sheet *w = &in->st->spec->sheets[r->sheet];
    char *say = xasprintf("Stopped, as asked: %s Nothing was sent.", *w->desc ? w->desc : w->name);
    ws_acts_add(in->acts, WA_SAY, -1, -1, say, NULL);
    free(say);
    *out = ws_none();
    return 0;
}

/* check(condition, "why"): in a field's actions, a false condition refuses
 * the value: the field is emptied and the reason said when asked again. */
static int bi_check(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *c;
    char *why;
    if (ws_eval(in, n->args[0], &c, e)) return GN_EPARSE;
    int ok = ws_val_truthy(c);
    ws_val_free(c);
    if (ok) { *out = ws_bool(1); return 0; }
    if (arg_str(in, n, 1, &why, e)) return GN_EPARSE;
    *out = ws_bool(0);
    ws_record *r = in->self >= 0 ? ws_state_rec(in->st, in->self) : NULL;
    if (r && in->self_field >= 0) {
        ws_state_clear(in->st, r, in->self_field);
        ws_slot *s = &r->slots[in->self_field];
        free(s->why);
        s->why = why;
    } else {
        ws_acts_add(in->acts, WA_SAY, -1, -1, why, NULL);
        free(why);
    }
    return 0;
}

static int bi_len(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *v;
    if (ws_eval(in, n->args[0], &v, e)) return GN_EPARSE;
    long long k = v->kind == WV_STR ? (long long)strlen(v->u.s)
                : v->kind == WV_LIST || v->kind == WV_DICT ? v->u.c.n
                : v->kind == WV_NONE ? 0 : -1;
    const char *type = ws_val_type(v);         /* a static string */
    ws_val_free(v);
    if (k < 0) return ERR(in, n, "len() of %s", type);
    *out = ws_int(k);
    return 0;
}

static int bi_str(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *v;
    if (ws_eval(in, n->args[0], &v, e)) return GN_EPARSE;
    if (v->kind == WV_STR) { *out = v; return 0; }
    gn_buf b;
    gn_buf_init(&b);
    ws_val_print(v, &b, ws_state_recname, in->st);
    ws_val_free(v);
    *out = ws_str_own(gn_buf_detach(&b));
    return 0;
}

static const builtin builtins[] = {
    { "answer", 1, 1, 1, bi_answer },
    { "confirm", 1, 1, 1, bi_confirm },
    { "len", 1, 1, 1, bi_len },
    { "str", 1, 1, 1, bi_str },
    { "say", 1, 1, 0, bi_say },
    { "propose", 1, 2, 0, bi_propose },
    { "exitws", 0, 0, 0, bi_exitws },
    { "abandon", 1, 1, 1, bi_abandon },
    { "check", 2, 2, 0, bi_check },
};

static const builtin *find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        if (!strcmp(builtins[i].name, name)) return &builtins[i];
    return NULL;
}

int ws_builtin_known(const char *name) { return find_builtin(name) != NULL; }

static int construct(ws_interp *in, const ws_node *n, int sheet, ws_val **out, gn_err *e)
{
    ws_val **vals = xcalloc((size_t)n->nargs + 1, sizeof *vals);
    int rc = 0;
    const ws_sheet *ws = &in->st->spec->sheets[sheet];
    for (int i = 0; i < n->nargs && !rc; i++) {
        rc = ws_eval(in, n->args[i], &vals[i], e);
        int fi = rc ? -1 : ws_sheet_field_index(ws, n->kw[i]);
        if (!rc && fi >= 0 && in->mode == WS_MODE_PARSER)
            rc = dict_fields(in, n->args[i], &ws->fields[fi].type, vals[i], e);
    }
    if (!rc) {
        ws_record *r = ws_state_new_task(in->st, sheet, -1, -1);
        r->by_agent = in->mode == WS_MODE_ACTION;
        const ws_sheet *w = &in->st->spec->sheets[sheet];
        for (int i = 0; i < n->nargs; i++) {
            int fi = ws_sheet_field_index(w, n->kw[i]);
            if (in->mode == WS_MODE_PARSER && w->fields[fi].kind != WFK_INPUT) continue;
            assign_value(in, r, fi, vals[i]);
            vals[i] = NULL;
        }
        *out = ws_recref(r->id);
    }
    for (int i = 0; i < n->nargs; i++) ws_val_free(vals[i]);
    free(vals);
    return rc;
}

/* The type of the task field N names (record.field), or NULL: N is any
 * other expression. */
static const ws_type *field_type(ws_interp *in, const ws_node *n)
{
    if (n->kind != WN_ATTR) return NULL;
    for (const ws_node *a = n->a; a->kind != WN_NAME; a = a->a)   /* names only: no calls twice */
        if (a->kind != WN_ATTR) return NULL;
    ws_val *v = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ws_eval(in, n->a, &v, &e)) return NULL;
    const ws_record *r = v->kind == WV_REC ? ws_state_rec(in->st, v->u.rec) : NULL;
    ws_val_free(v);
    if (!r || r->kind != WR_TASK) return NULL;
    const ws_sheet *w = &in->st->spec->sheets[r->sheet];
    int fi = ws_sheet_field_index(w, n->name);
    return fi >= 0 ? &w->fields[fi].type : NULL;
}

static int call_api(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    ws_val *args = ws_dict(), *v;
    int pos = 0;
    for (int i = 0; i < n->nargs; i++) {
        if (ws_eval(in, n->args[i], &v, e)) { ws_val_free(args); return GN_EPARSE; }
        char key[16];
        if (!n->kw[i]) snprintf(key, sizeof key, "$%d", ++pos);
        /* record.field naming a knowledge-base row: its key and parts */
        const ws_type *t = field_type(in, n->args[i]);
        ws_state_arg(in->st, t, n->kw[i] ? n->kw[i] : key, v, args, 1);
        ws_val_free(v);
    }
    in->api_calls++;
    int rc = in->host->call_api(in->host->ud, n->a->name, args, out, e);
    ws_val_free(args);
    if (rc && e && !e->line) { e->line = n->line; e->col = n->col; }
    return rc;
}

static int call(ws_interp *in, const ws_node *n, ws_val **out, gn_err *e)
{
    const char *f = n->a->kind == WN_NAME ? n->a->name : NULL;
    if (!f) return ERR(in, n, "only declared functions can be called");
    const builtin *b = find_builtin(f);
    if (b && (b->parser_ok || in->mode == WS_MODE_ACTION)) {
        if (positional(in, n, b, e)) return GN_EPARSE;
        return b->fn(in, n, out, e);
    }
    int sheet = ws_spec_sheet_index(in->st->spec, f);
    if (sheet >= 0 && in->st->spec->sheets[sheet].kind != WSK_DB) return construct(in, n, sheet, out, e);
    if (in->mode == WS_MODE_ACTION && in->host && in->host->has_api(in->host->ud, f))
        return call_api(in, n, out, e);
    return ERR(in, n, b || (in->host && in->host->has_api(in->host->ud, f)) ? "%s() is not allowed here"
                                                                           : "unknown function '%s'", f);
}
