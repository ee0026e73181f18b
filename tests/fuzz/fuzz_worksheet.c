/*
 * fuzz_worksheet.c — libFuzzer target for the worksheet spec loaders: the
 * spreadsheet layout as CSV (engine/worksheet/spec_csv.c, libcsv), the same
 * content as JSON (spec_json.c, cJSON) and the checks both share (spec.c),
 * which parse every predicate and action (expr.c).
 *
 * The input is a spec's text, given to both loaders through their
 * in-memory entry points (ws_spec_parse_csv, ws_spec_parse_json; each
 * refuses the other's format at its first line, so trying both is cheap;
 * the JSON loader gets the text cut at a NUL byte, as it takes a C string).
 * Beyond the sanitizers' checks, the target aborts when:
 *   - a failed load leaves a spec behind, returns a code other than
 *     GN_EPARSE, or has an empty message, another file name or a line
 *     past the text; or a line of 0 where spec.h promises one (CSV: every
 *     error but "no header row" and "no worksheets"; JSON: every error
 *     once the text parses as a JSON object);
 *   - a loaded spec breaks spec.c's invariant: a name that is not an
 *     identifier, is reserved or repeats; a type not resolved (a sheet
 *     index out of range, a List of a List); an Enum without values or with
 *     duplicates, or values on a field that is not an Enum; `confirm` outside
 *     a task worksheet; a predicate or action without its tree; a lookup that
 *     does not find a sheet or field by its own name;
 *   - a loaded spec, written out as JSON, does not load again to the same
 *     content (spec_json.c: the two formats "load the same content to
 *     identical structures").
 * A loaded spec also runs one policy turn (policy.c) with a record of each
 * task worksheet, so its predicates and actions are evaluated, and is freed.
 * Seeds: tests/fuzz/seeds/fuzz_worksheet (the specs of tests/data/worksheets
 * and a few small ones).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iengine tests/fuzz/fuzz_worksheet.c \
 *       engine/worksheet/{acts,coerce,expr,expr_lex,expr_print,interp,policy}.c \
 *       engine/worksheet/{spec,spec_csv,spec_json,state,value}.c \
 *       engine/util/{buf,err,fs,strdist,xmem}.c -lcjson -lcsv -lm -o /tmp/fuzz_worksheet
 *   /tmp/fuzz_worksheet -max_total_time=60 CORPUS_DIR tests/fuzz/seeds/fuzz_worksheet
 */
#include "util/buf.h"
#include "worksheet/acts.h"
#include "worksheet/interp.h"
#include "worksheet/policy.h"
#include "worksheet/spec.h"
#include "worksheet/state.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_worksheet: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* ---- errors ------------------------------------------------------------- */

/* Lines of TEXT counting "\n", "\r\n" and "\r" each as a line end. */
static int count_lines(const char *text, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'))) n++;
    return n;
}

static void check_error(const char *name, const char *text, size_t len, int rc,
                        const gn_err *e, const ws_spec *s, int need_line)
{
    if (s) fail("a failed load returned a spec", e->msg);
    if (rc != GN_EPARSE || e->code != rc) fail("unexpected error code", e->msg);
    if (!e->msg[0]) fail("an error without a message", NULL);
    if (strcmp(e->file, name)) fail("the error names another file", e->file);
    if (e->line < 0 || e->line > count_lines(text, len) || e->col < 0)
        fail("the error's position is outside the text", e->msg);
    if (need_line && e->line == 0) fail("the error has no line", e->msg);
}

/* ---- the loaded spec's invariant ------------------------------------------ */

static const char *const reserved[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
};

static const char *const builtin_types[] = {
    "str", "int", "float", "bool", "date", "time", "confirm", "Enum", "text", "free_text", "list",
};

static void check_name(const char *name)
{
    if (!name || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
        fail("a name is not an identifier", name);
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_') fail("a name is not an identifier", name);
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (!strcmp(name, reserved[i])) fail("a name is a reserved word", name);
}

static void check_type(const ws_spec *s, const ws_type *t, int in_list)
{
    if ((unsigned)t->kind > WT_LIST) fail("a type kind out of range", NULL);
    if (t->kind == WT_SHEET && (t->sheet < 0 || t->sheet >= s->nsheets))
        fail("a worksheet type that is not a worksheet", NULL);
    if (t->kind == WT_LIST) {
        if (in_list || !t->elem) fail("a List without an element or of a List", NULL);
        check_type(s, t->elem, 1);
    } else if (t->elem) {
        fail("an element type on a type that is not a List", NULL);
    }
}

static void check_spec(const ws_spec *s)
{
    if (s->nsheets < 1) fail("a spec without worksheets", NULL);
    for (int i = 0; i < s->nsheets; i++) {
        const ws_sheet *w = &s->sheets[i];
        check_name(w->name);
        for (size_t k = 0; k < sizeof builtin_types / sizeof *builtin_types; k++)
            if (!strcasecmp(w->name, builtin_types[k]))
                fail("a worksheet named as a type", w->name);
        if (ws_spec_sheet_index(s, w->name) != i) fail("a worksheet name repeats", w->name);
        if ((unsigned)w->kind > WSK_TYPE) fail("a worksheet kind out of range", w->name);
        if (!w->desc) fail("a worksheet without a description string", w->name);
        if (!w->pred_src != !w->pred || !w->act_src != !w->actions)
            fail("worksheet code without its tree", w->name);
        for (int j = 0; j < w->nfields; j++) {
            const ws_field *f = &w->fields[j];
            check_name(f->name);
            if (ws_sheet_field_index(w, f->name) != j) fail("a field name repeats", f->name);
            if ((unsigned)f->kind > WFK_OUTPUT) fail("a field kind out of range", f->name);
            if (!f->type_src || !f->type_src[0] || !f->desc)
                fail("a field without type or description", f->name);
            check_type(s, &f->type, 0);
            const ws_type *base = f->type.kind == WT_LIST ? f->type.elem : &f->type;
            if (base->kind == WT_CONFIRM && w->kind != WSK_TASK)
                fail("confirm outside a task worksheet", f->name);
            if ((base->kind == WT_ENUM) != (f->nenums > 0))
                fail("enum values do not fit the type", f->name);
            for (int k = 0; k < f->nenums; k++) {
                if (!f->enums[k][0]) fail("an empty enum value", f->name);
                for (int m = 0; m < k; m++)
                    if (!strcmp(f->enums[k], f->enums[m]))
                        fail("a repeated enum value", f->enums[k]);
            }
            if (!f->pred_src != !f->pred || !f->act_src != !f->actions)
                fail("field code without its tree", f->name);
        }
    }
}

/* ---- the same spec as JSON ------------------------------------------------ */

static void add_opt(cJSON *o, const char *k, const char *v)
{
    if (v) cJSON_AddStringToObject(o, k, v);
}

static char *spec_json(const ws_spec *s)
{
    static const char *const skinds[] = { "worksheet", "db", "type" };
    static const char *const fkinds[] = { "input", "internal", "output" };
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "worksheets");
    for (int i = 0; i < s->nsheets; i++) {
        const ws_sheet *w = &s->sheets[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", w->name);
        cJSON_AddStringToObject(o, "kind", skinds[w->kind]);
        add_opt(o, "api", w->api);
        add_opt(o, "predicate", w->pred_src);
        add_opt(o, "actions", w->act_src);
        cJSON_AddStringToObject(o, "description", w->desc);
        cJSON *fs = cJSON_AddArrayToObject(o, "fields");
        for (int j = 0; j < w->nfields; j++) {
            const ws_field *f = &w->fields[j];
            cJSON *fo = cJSON_CreateObject();
            cJSON_AddStringToObject(fo, "name", f->name);
            cJSON_AddStringToObject(fo, "kind", fkinds[f->kind]);
            cJSON_AddBoolToObject(fo, "primary", f->primary);
            cJSON_AddStringToObject(fo, "type", f->type_src);
            if (f->nenums) {
                cJSON *en = cJSON_AddArrayToObject(fo, "enum");
                for (int k = 0; k < f->nenums; k++)
                    cJSON_AddItemToArray(en, cJSON_CreateString(f->enums[k]));
            }
            cJSON_AddStringToObject(fo, "description", f->desc);
            cJSON_AddBoolToObject(fo, "dont_ask", f->dont_ask);
            cJSON_AddBoolToObject(fo, "required", f->required);
            cJSON_AddBoolToObject(fo, "confirm", f->confirm);
            add_opt(fo, "predicate", f->pred_src);
            add_opt(fo, "actions", f->act_src);
            cJSON_AddItemToArray(fs, fo);
        }
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int type_eq(const ws_type *a, const ws_type *b)
{
    if (a->kind != b->kind || a->sheet != b->sheet || !a->elem != !b->elem) return 0;
    return !a->elem || type_eq(a->elem, b->elem);
}

static void same_spec(const ws_spec *a, const ws_spec *b, const char *json)
{
    int same = a->nsheets == b->nsheets;
    for (int i = 0; same && i < a->nsheets; i++) {
        const ws_sheet *x = &a->sheets[i], *y = &b->sheets[i];
        same = str_eq(x->name, y->name) && x->kind == y->kind && str_eq(x->api, y->api) &&
               str_eq(x->pred_src, y->pred_src) && str_eq(x->act_src, y->act_src) &&
               str_eq(x->desc, y->desc) && x->nfields == y->nfields;
        for (int j = 0; same && j < x->nfields; j++) {
            const ws_field *f = &x->fields[j], *g = &y->fields[j];
            same = str_eq(f->name, g->name) && f->kind == g->kind && f->primary == g->primary &&
                   type_eq(&f->type, &g->type) && str_eq(f->type_src, g->type_src) &&
                   f->nenums == g->nenums && str_eq(f->desc, g->desc) &&
                   f->dont_ask == g->dont_ask && f->required == g->required &&
                   f->confirm == g->confirm && str_eq(f->pred_src, g->pred_src) &&
                   str_eq(f->act_src, g->act_src);
            for (int k = 0; same && k < f->nenums; k++) same = str_eq(f->enums[k], g->enums[k]);
        }
    }
    if (!same) fail("the spec written as JSON loads differently", json);
}

static void json_round_trip(const ws_spec *s)
{
    char *json = spec_json(s);
    ws_spec *back = NULL;
    gn_err e;
    gn_err_clear(&e);
    if (ws_spec_parse_json("again.json", json, &back, &e)) {
        fprintf(stderr, "%d:%d: %s\n", e.line, e.col, e.msg);
        fail("the spec written as JSON does not load", json);
    }
    same_spec(s, back, json);
    ws_spec_free(back);
    free(json);
}

/* ---- one policy turn --------------------------------------------------- */

static int stub_has(void *ud, const char *name)
{
    (void)ud;
    return name[0] && name[0] != 'x';        /* every API but x... is declared */
}

static int stub_call(void *ud, const char *name, const ws_val *args, ws_val **out, gn_err *e)
{
    (void)ud;
    if (name[0] == 'f') return gn_err_set(e, GN_ENET, "%s failed", name);
    ws_val *d = ws_dict();
    ws_dict_set(d, "ok", ws_bool(1));
    ws_dict_set(d, "args", ws_val_copy(args));
    *out = d;
    return 0;
}

static void policy_turn(const ws_spec *s)
{
    static const ws_host host = { stub_has, stub_call, NULL };
    static const ws_date today = { 2026, 3, 13 };
    ws_state *st = ws_state_new(s, today);
    ws_acts acts;
    ws_acts_init(&acts);
    st->turn = 1;
    for (int i = 0; i < s->nsheets && i < 8; i++)
        if (s->sheets[i].kind == WSK_TASK) ws_state_new_task(st, i, -1, -1);
    ws_interp in = { .st = st, .acts = &acts, .host = &host, .mode = WS_MODE_PARSER,
                     .self = -1, .self_field = -1 };
    ws_policy_run(&in, NULL, NULL);
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < acts.n; i++) ws_act_render(st, &acts.v[i], &b);
    ws_state_print(st, 5, &b);
    gn_buf_release(&b);
    ws_acts_release(&acts);
    ws_state_free(st);
}

/* ---- the loaders --------------------------------------------------------- */

static void loaded(const ws_spec *s)
{
    check_spec(s);
    gn_buf b;
    gn_buf_init(&b);
    ws_spec_signatures(s, &b);
    for (int i = 0; i < s->nsheets; i++)
        for (int j = 0; j < s->sheets[i].nfields; j++) {
            const ws_field *f = &s->sheets[i].fields[j];
            ws_type_print(s, f, &f->type, &b);
        }
    gn_buf_release(&b);
    json_round_trip(s);
    policy_turn(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    ws_spec *s = NULL;
    gn_err e;

    gn_err_clear(&e);
    int rc = ws_spec_parse_csv("fuzz.csv", text, size, &s, &e);
    if (rc) {
        int whole = !strncmp(e.msg, "no header row", 13) || !strncmp(e.msg, "no worksheets", 13);
        check_error("fuzz.csv", text, size, rc, &e, s, !whole);
    } else {
        loaded(s);
        ws_spec_free(s);
    }

    s = NULL;
    gn_err_clear(&e);
    rc = ws_spec_parse_json("fuzz.json", text, &s, &e);
    if (rc) {
        cJSON *j = cJSON_ParseWithOpts(text, NULL, 1);
        check_error("fuzz.json", text, strlen(text), rc, &e, s, cJSON_IsObject(j));
        cJSON_Delete(j);
    } else {
        loaded(s);
        ws_spec_free(s);
    }
    free(text);
    return 0;
}
