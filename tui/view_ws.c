/*
 * view_ws.c — the worksheet pane: the dialogue state as a tree.
 *
 *   Book_Restaurant book_restaurant
 *     restaurant   Papa Nino's        (changed this turn: highlighted, "*")
 *     date         ? required
 *     num_people   2 (to confirm)
 *     ✓ done  transaction_id: 7QH2K9X1LB
 *   ? answer_1  "romantic italian in palo alto"  3 rows
 *
 * The fields come from the spec, in its order, so a required field that
 * was never mentioned still shows as missing; values come from the state's
 * JSON.  A field holding another task record shows that record under it.
 *
 * Records are listed as they were made, so after a few questions the task
 * being worked on is at the bottom: vw_render_focus says which lines the
 * pane keeps in view (the newest record the turn changed, else the newest
 * open task).
 */
#include "view.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

typedef struct vw {
    const ws_spec *spec;
    const cJSON *records, *changes;
    int width;
    tx_lines *out;
    gn_buf line;
    gn_buf st;                /* a style per byte of line */
} vw;

/* Append S in STYLE; a line break or tab in it (a multi-line question or
 * value) is a space, as the pane's lines are one record's line each. */
static void put(vw *w, const char *s, int style)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        gn_buf_putc(&w->line, s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i]);
        gn_buf_putc(&w->st, (char)style);
    }
}

static void flush(vw *w, int indent)
{
    char pre[64], rest[64];
    if (indent > 56) indent = 56;
    memset(pre, ' ', (size_t)indent);
    pre[indent] = 0;
    memset(rest, ' ', (size_t)indent + 3);     /* continuation lines under the name */
    rest[indent + 3] = 0;
    tx_wrap(w->line.data ? w->line.data : "", (const unsigned char *)w->st.data, (int)w->line.len,
            w->width, pre, rest, TX_PLAIN, w->out);
    gn_buf_reset(&w->line);
    gn_buf_reset(&w->st);
}


static const char *jstr(const cJSON *o, const char *k)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static int is(const cJSON *o, const char *key, const char *want)
{
    const char *s = jstr(o, key);
    return s && !strcmp(s, want);
}

/* Did the last turn change VAR (FIELD NULL: add the record) or VAR.FIELD?
 * (The changes: {"var", "what": added | field | done, "field", ...},
 * agent/turn.c.) */
static int changed(const vw *w, const char *var, const char *field)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, w->changes) {
        if (!is(c, "var", var)) continue;
        if (field ? is(c, "what", "field") && is(c, "field", field) : is(c, "what", "added")) return 1;
    }
    return 0;
}

static const cJSON *record(const vw *w, int id)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, w->records)
        if ((int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "id")) == id) return r;
    return NULL;
}


static int jtrue(const cJSON *o, const char *k)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* A value as a person reads it: strings bare, the rest as JSON. */
static char *value_text(const cJSON *v)
{
    if (cJSON_IsString(v)) return xstrdup(v->valuestring);
    char *s = cJSON_PrintUnformatted(v);
    return s ? s : xstrdup("?");
}

static void task(vw *w, const cJSON *r, int depth);

static void field_line(vw *w, const ws_field *f, const cJSON *slot, const char *var, int depth)
{
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(slot, "value");
    int set = jtrue(slot, "set");
    const char *why = jstr(slot, "why");
    if (f->kind == WFK_INTERNAL && !set) return;
    if (f->dont_ask && !set) return;           /* never asked: not missing either */
    int ch = changed(w, var, f->name);
    char name[80];
    snprintf(name, sizeof name, "%-12s ", f->name);
    put(w, ch ? "*" : " ", ch ? TX_CHANGED : TX_PLAIN);
    put(w, name, TX_FIELD);
    const cJSON *ref = cJSON_IsObject(val) ? cJSON_GetObjectItemCaseSensitive(val, "$record") : NULL;
    if (set && ref) {
        const cJSON *sub = record(w, (int)cJSON_GetNumberValue(ref));
        put(w, sub ? jstr(sub, "var") : "?", ch ? TX_CHANGED : TX_PLAIN);
        flush(w, 2 * depth);
        if (sub) task(w, sub, depth + 1);
        return;
    }
    if (set) {
        char *t = value_text(val);
        put(w, t, ch ? TX_CHANGED : TX_PLAIN);
        free(t);
        if (f->confirm && !jtrue(slot, "confirmed")) put(w, " (to confirm)", TX_CONFIRM);
    } else if (f->required) {
        put(w, f->type.kind == WT_CONFIRM ? "? awaiting confirmation" : "? required", TX_MISSING);
    } else {
        put(w, "-", TX_DIM);
    }
    if (why) {
        put(w, "  \xe2\x9c\x97 ", TX_ERROR);     /* "✗" */
        put(w, why, TX_ERROR);
    }
    flush(w, 2 * depth);
}

static void task(vw *w, const cJSON *r, int depth)
{
    const char *var = jstr(r, "var"), *ws = jstr(r, "worksheet");
    const ws_sheet *sh = ws ? ws_spec_sheet(w->spec, ws) : NULL;
    if (!var || !sh) return;
    int ch = changed(w, var, NULL);
    put(w, ch ? "*" : " ", ch ? TX_CHANGED : TX_PLAIN);
    put(w, ws, TX_HEADING);
    put(w, " ", TX_PLAIN);
    put(w, var, TX_DIM);
    if (jtrue(r, "done")) put(w, "  \xe2\x9c\x93 done", TX_DONE);       /* "✓" */
    else if (jtrue(r, "abandoned")) put(w, "  abandoned", TX_DIM);
    flush(w, 2 * depth);
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(r, "fields");
    for (int i = 0; i < sh->nfields; i++)
        field_line(w, &sh->fields[i], cJSON_GetObjectItemCaseSensitive(fields, sh->fields[i].name),
                   var, depth + 1);
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "api_result");
    if (res && !cJSON_IsNull(res)) {
        put(w, " ", TX_PLAIN);
        put(w, "\xe2\x86\x92 ", TX_DONE);                                 /* "→" */
        if (cJSON_IsObject(res)) {
            const cJSON *kv;
            int first = 1;
            cJSON_ArrayForEach(kv, res) {
                char *t = value_text(kv);
                if (!first) put(w, ", ", TX_PLAIN);
                put(w, kv->string, TX_FIELD);
                put(w, ": ", TX_PLAIN);
                put(w, t, TX_DONE);
                free(t);
                first = 0;
            }
        } else {
            char *t = value_text(res);
            put(w, t, TX_DONE);
            free(t);
        }
        flush(w, 2 * (depth + 1));
    }
}

static void knowledge(vw *w, const cJSON *r)
{
    const char *var = jstr(r, "var"), *q = jstr(r, "question");
    int ch = changed(w, var ? var : "", NULL);
    put(w, ch ? "*" : " ", ch ? TX_CHANGED : TX_PLAIN);
    put(w, "? ", TX_FUNC);
    put(w, var ? var : "answer", TX_DIM);
    put(w, " ", TX_PLAIN);
    if (q) {
        put(w, "\"", TX_STRING);
        put(w, q, TX_STRING);
        put(w, "\"", TX_STRING);
    }
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "result");
    const char *err = jstr(r, "error"), *missing = jstr(r, "missing");
    char n[64];
    if (missing) {
        put(w, "  needs ", TX_MISSING);
        put(w, missing, TX_MISSING);
    } else if (err) {
        put(w, "  \xe2\x9c\x97 ", TX_ERROR);
        put(w, err, TX_ERROR);
    } else if (cJSON_IsArray(res)) {
        int k = cJSON_GetArraySize(res);
        snprintf(n, sizeof n, "  %d row%s", k, k == 1 ? "" : "s");
        put(w, n, TX_DONE);
    } else if (!jtrue(r, "ran")) {
        put(w, "  not run", TX_DIM);
    }
    flush(w, 0);
}

/* Did the last turn change record VAR or anything in it (its fields, or
 * a record a field of it holds, named "VAR." or "+ ..." under it)? */
static int touched(const vw *w, const cJSON *r)
{
    const char *var = jstr(r, "var");
    if (!var) return 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, w->changes)
        if (is(c, "var", var)) return 1;
    const cJSON *fields = cJSON_GetObjectItemCaseSensitive(r, "fields"), *slot;
    cJSON_ArrayForEach(slot, fields) {          /* a task record in a field */
        const cJSON *ref = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(slot, "value"),
                                                            "$record");
        const cJSON *sub = ref ? record(w, (int)cJSON_GetNumberValue(ref)) : NULL;
        if (sub && sub != r && touched(w, sub)) return 1;
    }
    return 0;
}

/* Render the records; *FIRST, *LAST get the focus lines (vw_focus). */
static void render(vw *w, int *first, int *last)
{
    int shown = 0, open_first = -1, open_last = -1;
    *first = *last = -1;
    const cJSON *r;
    cJSON_ArrayForEach(r, w->records) {
        const char *kind = jstr(r, "kind");
        int at = w->out->n, is_task = kind && !strcmp(kind, "task");
        if (is_task) {
            if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "parent")) >= 0) continue;
            task(w, r, 0);
        } else {
            knowledge(w, r);
        }
        shown++;
        if (touched(w, r)) {
            *first = at;
            *last = w->out->n - 1;
        }
        if (is_task && !jtrue(r, "done") && !jtrue(r, "abandoned")) {
            open_first = at;
            open_last = w->out->n - 1;
        }
    }
    if (*first < 0) {
        *first = open_first;
        *last = open_last;
    }
    if (!shown) {
        put(w, " no task or question yet", TX_DIM);
        flush(w, 0);
    }
}

void vw_render_focus(const ws_spec *spec, const cJSON *state, int width, tx_lines *out, int *first,
                     int *last)
{
    vw w = { spec, cJSON_GetObjectItemCaseSensitive(state, "records"),
             cJSON_GetObjectItemCaseSensitive(state, "changes"), width < 10 ? 10 : width, out,
             { 0 }, { 0 } };
    gn_buf_init(&w.line);
    gn_buf_init(&w.st);
    render(&w, first, last);
    gn_buf_release(&w.line);
    gn_buf_release(&w.st);
}

void vw_render(const ws_spec *spec, const cJSON *state, int width, tx_lines *out)
{
    int first, last;
    vw_render_focus(spec, state, width, out, &first, &last);
}
