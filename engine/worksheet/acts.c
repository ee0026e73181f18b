/*
 * acts.c — the agent acts: their prompt form and their template form.
 *
 * The prompt form is what the parser (next turn) and the response
 * generator read; it names records by their variables so the parser can
 * refer back to them.  The template form is the fallback reply, plain but
 * complete: it says what was searched and what was found, and asks the
 * question, so an LLM failure never leaves the user without an answer.
 */
#include "worksheet/acts.h"
#include "worksheet/brief.h"
#include "worksheet/consent.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void ws_acts_init(ws_acts *a) { memset(a, 0, sizeof *a); }

void ws_acts_release(ws_acts *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->v[i].text);
        ws_val_free(a->v[i].val);
    }
    free(a->v);
    memset(a, 0, sizeof *a);
}

ws_act *ws_acts_add(ws_acts *a, enum ws_act_kind kind, int rec, int field, const char *text,
                    ws_val *val)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 8;
        a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    ws_act *x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->rec = rec;
    x->field = field;
    x->sheet = -1;
    x->text = text ? xstrdup(text) : NULL;
    x->val = val;
    return x;
}

static const char *const names[WA__COUNT] = { "Report", "AskField", "Confirm", "Say", "Propose",
                                               "Refused" };

const char *ws_act_name(enum ws_act_kind k) { return names[k]; }

int ws_act_is_question(const ws_act *a) { return a->kind == WA_ASK || a->kind == WA_CONFIRM; }

static void pstr(gn_buf *out, const char *s)
{
    ws_val v = { .kind = WV_STR, .u.s = (char *)s };
    ws_val_print(&v, out, NULL, NULL);
}

static const ws_field *field_of(const ws_state *st, const ws_record *r, int fi)
{
    if (!r || r->kind != WR_TASK || fi < 0) return NULL;
    return &st->spec->sheets[r->sheet].fields[fi];
}

/* Report rows in prompts: up to 10 rows, long texts cut and passages
 * chosen for QUESTION (brief.h). */
static void print_result(const ws_state *st, const ws_val *res, const char *question, gn_buf *out)
{
    if (!res) { gn_buf_puts(out, "[]"); return; }
    ws_val *c = ws_brief(res, 10, WS_BRIEF_FACTS, question);
    ws_val_print(c, out, ws_state_recname, (void *)st);
    ws_val_free(c);
    if (res->kind == WV_LIST && res->u.c.n > 10) gn_buf_printf(out, " + %d more rows", res->u.c.n - 10);
}

void ws_act_print_brief(const ws_state *st, const ws_act *a, gn_buf *out)
{
    const ws_record *r = a->rec >= 0 ? ws_state_rec(st, a->rec) : NULL;
    if (a->kind == WA_REPORT && r && r->kind == WR_KB) {
        gn_buf_printf(out, "%s(%s)", names[a->kind], r->var);
        return;
    }
    ws_act_print(st, a, out);
}

void ws_act_print(const ws_state *st, const ws_act *a, gn_buf *out)
{
    const ws_record *r = a->rec >= 0 ? ws_state_rec(st, a->rec) : NULL;
    const ws_field *f = field_of(st, r, a->field);
    gn_buf_printf(out, "%s(", names[a->kind]);
    switch (a->kind) {
    case WA_REPORT:
        if (r && r->kind == WR_KB) {
            gn_buf_puts(out, "answer(");
            pstr(out, r->question);
            gn_buf_puts(out, "), ");
            if (r->error) { gn_buf_puts(out, "error="); pstr(out, r->error); }
            else {
                gn_buf_puts(out, "result=");
                char *q = r->conditions ? xasprintf("%s\n%s", r->question, r->conditions) : NULL;
                print_result(st, r->result, q ? q : r->question, out);
                free(q);
            }
            if (r->note) { gn_buf_puts(out, ", note="); pstr(out, r->note); }
        } else if (r) {
            gn_buf_printf(out, "%s, result=", r->var);
            print_result(st, a->val, NULL, out);
        }
        break;
    case WA_ASK:
        if (r && r->kind == WR_KB) {
            gn_buf_printf(out, "%s, %s, ", r->var, a->text ? a->text : "details");
            pstr(out, "needed before searching");
        } else if (r && f) {
            gn_buf_printf(out, "%s, %s, ", r->var, f->name);
            pstr(out, f->desc && *f->desc ? f->desc : f->name);
            if (a->text) { gn_buf_puts(out, ", problem="); pstr(out, a->text); }
        }
        break;
    case WA_CONFIRM:
        if (r && f) {
            gn_buf_printf(out, "%s, %s, ", r->var, f->name);
            ws_val_print(r->slots[a->field].val, out, ws_state_recname, (void *)st);
        }
        break;
    case WA_SAY:
        pstr(out, a->text ? a->text : "");
        break;
    case WA_PROPOSE:
        gn_buf_puts(out, a->sheet >= 0 ? st->spec->sheets[a->sheet].name : "?");
        gn_buf_puts(out, ", ");
        ws_val_print(a->val, out, ws_state_recname, (void *)st);
        break;
    case WA_REFUSE:
        pstr(out, a->val && a->val->kind == WV_STR ? a->val->u.s : "");
        gn_buf_puts(out, ", reason=");
        pstr(out, a->text ? a->text : "");
        break;
    case WA__COUNT:
        break;
    }
    gn_buf_putc(out, ')');
}

/* ---- templates ---------------------------------------------------------- */

static void say_value(const ws_state *st, const ws_val *v, gn_buf *out)
{
    if (!v || v->kind == WV_NONE) { gn_buf_puts(out, "(none)"); return; }
    if (v->kind == WV_STR) { gn_buf_puts(out, v->u.s); return; }
    if (v->kind == WV_BOOL) { gn_buf_puts(out, v->u.b ? "yes" : "no"); return; }
    ws_val_print(v, out, st ? ws_state_recname : NULL, (void *)st);
}

/* The columns that name a row, tried in order. */
static const char *const name_cols[] = { "name", "title", "course_codes" };

/* One row of a result in a line: the name-like column first, then up to
 * four short columns. */
static void say_row(const ws_val *row, gn_buf *out)
{
    const ws_val *nm = NULL;
    for (size_t i = 0; i < 3 && !nm; i++) nm = ws_dict_get(row, name_cols[i]);
    gn_buf_puts(out, "- ");
    if (nm) say_value(NULL, nm, out);
    int k = 0;
    for (int i = 0; row->kind == WV_DICT && i < row->u.c.n && k < 4; i++) {
        const ws_val *v = row->u.c.items[i];
        if (v == nm || v->kind == WV_NONE || v->kind == WV_LIST || v->kind == WV_DICT ||
            (v->kind == WV_STR && strlen(v->u.s) > 60))
            continue;
        gn_buf_puts(out, k ? ", " : nm ? " (" : "");
        gn_buf_printf(out, "%s ", row->u.c.keys[i]);
        say_value(NULL, v, out);
        k++;
    }
    if (k && nm) gn_buf_putc(out, ')');
    gn_buf_putc(out, '\n');
}

/* ---- several rows as a table ----------------------------------------------- */

enum { TABLE_ROWS = 10, TABLE_COLS = 5 };

/* Can column KEY of the rows be shown in a cell: a scalar, short, in the
 * first row? */
static int cell_column(const ws_val *v)
{
    return v && v->kind != WV_LIST && v->kind != WV_DICT &&
           !(v->kind == WV_STR && strlen(v->u.s) > 60);
}

/* V as a table cell: its text, bars escaped and line breaks as spaces. */
static void say_cell(const ws_val *v, gn_buf *out)
{
    gn_buf c;
    gn_buf_init(&c);
    if (v && v->kind != WV_NONE) say_value(NULL, v, &c);
    for (size_t i = 0; i < c.len; i++) {
        char ch = c.data[i];
        if (ch == '|') gn_buf_puts(out, "\\|");
        else gn_buf_putc(out, ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : ch);
    }
    gn_buf_release(&c);
}

/* The N rows of RESULT as a Markdown table (the screen aligns it): the
 * name-like column first, then up to four columns short enough for a cell
 * (scalars, texts up to 60 bytes) in some row shown, TABLE_ROWS rows at
 * most.  0 when the rows have no column besides
 * the name (a list of names reads better), else 1. */
static int say_table(const ws_val *result, int n, gn_buf *out)
{
    const ws_val *first = result->u.c.items[0];
    if (first->kind != WV_DICT) return 0;
    const char *cols[TABLE_COLS];
    int nc = 0;
    for (size_t i = 0; i < 3 && !nc; i++)
        if (cell_column(ws_dict_get(first, name_cols[i]))) cols[nc++] = name_cols[i];
    int named = nc;
    /* The columns short enough for a cell in some row shown, in the order
     * they first come. */
    for (int r = 0; r < n && r < TABLE_ROWS; r++) {
        const ws_val *row = result->u.c.items[r];
        for (int i = 0; row->kind == WV_DICT && i < row->u.c.n && nc < TABLE_COLS; i++) {
            const char *k = row->u.c.keys[i];
            int have = 0;
            for (int c = 0; c < nc && !have; c++) have = !strcmp(cols[c], k);
            if (!have && cell_column(row->u.c.items[i]) && row->u.c.items[i]->kind != WV_NONE) cols[nc++] = k;
        }
    }
    if (nc - named < 1 || nc < 2) return 0;
    gn_buf_puts(out, "\n|");
    for (int c = 0; c < nc; c++) {
        ws_val *k = ws_str(cols[c]);
        gn_buf_putc(out, ' ');
        say_cell(k, out);
        gn_buf_puts(out, " |");
        ws_val_free(k);
    }
    gn_buf_puts(out, "\n|");
    for (int c = 0; c < nc; c++) gn_buf_puts(out, "---|");
    gn_buf_putc(out, '\n');
    for (int r = 0; r < n && r < TABLE_ROWS; r++) {
        const ws_val *row = result->u.c.items[r];
        gn_buf_putc(out, '|');
        for (int c = 0; c < nc; c++) {
            gn_buf_putc(out, ' ');
            say_cell(row->kind == WV_DICT ? ws_dict_get(row, cols[c]) : NULL, out);
            gn_buf_puts(out, " |");
        }
        gn_buf_putc(out, '\n');
    }
    if (n > TABLE_ROWS) gn_buf_printf(out, "\n(%d more not shown)\n", n - TABLE_ROWS);
    return 1;
}

static void render_report(const ws_state *st, const ws_record *r, const ws_act *a, gn_buf *out)
{
    if (r->kind == WR_TASK) {
        gn_buf_printf(out, "Done: %s", st->spec->sheets[r->sheet].name);
        if (a->val) { gn_buf_puts(out, " — "); say_value(st, a->val, out); }
        gn_buf_puts(out, ".\n");
        return;
    }
    if (r->error) {
        gn_buf_printf(out, "I tried to look up \"%s\", but the search failed: %s\n", r->question, r->error);
        return;
    }
    int n = r->result && r->result->kind == WV_LIST ? r->result->u.c.n : 0;
    if (!n) {
        gn_buf_printf(out, "I searched for \"%s\" and found nothing that matches.\n", r->question);
        return;
    }
    gn_buf_printf(out, "I searched for \"%s\" and found %d result%s:\n", r->question, n, n == 1 ? "" : "s");
    /* Several rows with columns read as a table; one row, or names
     * alone, as a list. */
    if (n < 2 || !say_table(r->result, n, out)) {
        for (int i = 0; i < n && i < 5; i++) say_row(r->result->u.c.items[i], out);
        if (n > 5) gn_buf_printf(out, "(and %d more)\n", n - 5);
    }
    if (r->note) gn_buf_printf(out, "Note: %s.\n", r->note);
}

void ws_act_render(const ws_state *st, const ws_act *a, gn_buf *out)
{
    const ws_record *r = a->rec >= 0 ? ws_state_rec(st, a->rec) : NULL;
    const ws_field *f = field_of(st, r, a->field);
    switch (a->kind) {
    case WA_REPORT:
        if (r) render_report(st, r, a, out);
        break;
    case WA_ASK:
        if (r && r->kind == WR_KB) {
            gn_buf_printf(out, "To search for that I need to know the %s. Which %s?\n",
                          a->text ? a->text : "details", a->text ? a->text : "one");
            break;
        }
        if (!f) break;
        if (a->text) gn_buf_printf(out, "That did not fit: %s. ", a->text);
        if (f->type.kind == WT_CONFIRM) {
            ws_consent_render(st, r, out);
            gn_buf_putc(out, '\n');
            break;
        }
        gn_buf_printf(out, "What is the %s?", f->desc && *f->desc ? f->desc : f->name);
        if (f->nenums) {
            gn_buf_puts(out, " (");
            for (int i = 0; i < f->nenums; i++)
                gn_buf_printf(out, "%s%s", i ? (i + 1 == f->nenums ? " or " : ", ") : "", f->enums[i]);
            gn_buf_putc(out, ')');
        }
        gn_buf_putc(out, '\n');
        break;
    case WA_CONFIRM:
        if (!f) break;
        gn_buf_printf(out, "Just to confirm: the %s is ", f->desc && *f->desc ? f->desc : f->name);
        say_value(st, r->slots[a->field].val, out);
        gn_buf_puts(out, ". Is that right?\n");
        break;
    case WA_SAY:
        gn_buf_printf(out, "%s\n", a->text ? a->text : "");
        break;
    case WA_PROPOSE: {
        const ws_sheet *w = a->sheet >= 0 ? &st->spec->sheets[a->sheet] : NULL;
        if (!w) break;
        /* "Book a table." reads "Would you like to book a table?" */
        const char *d = w->desc && *w->desc ? w->desc : w->name;
        int n = (int)strlen(d);
        while (n > 0 && d[n - 1] == '.') n--;
        gn_buf_puts(out, "Would you like to ");
        if (d == w->desc && isupper((unsigned char)d[0]) && islower((unsigned char)d[1])) {
            gn_buf_putc(out, (char)tolower((unsigned char)d[0]));
            d++;
            n--;
        }
        gn_buf_printf(out, "%.*s", n, d);
        if (a->val && a->val->kind == WV_DICT && a->val->u.c.n) {
            gn_buf_puts(out, " with ");
            for (int i = 0; i < a->val->u.c.n; i++) {
                gn_buf_printf(out, "%s%s ", i ? ", " : "", a->val->u.c.keys[i]);
                say_value(st, a->val->u.c.items[i], out);
            }
        }
        gn_buf_puts(out, "?\n");
        break;
    }
    case WA_REFUSE:
        gn_buf_printf(out, "I could not do part of that: %s.\n", a->text ? a->text : "it was refused");
        break;
    case WA__COUNT:
        break;
    }
}
