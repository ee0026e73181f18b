/*
 * draft.c — first drafts of the worksheet spec and agent.ini for imported
 * tables, from the data alone.
 *
 * Each table is a db worksheet; each column a field of kind `internal`
 * (`internal; primary` for the key) with the spec type of its inferred
 * type (str, int, float, bool, date, time, Enum, text, List[...]), the
 * enum values on the rows below it, and a description made from the
 * column's name and a few of its values, which the parsers show the LLM.
 * They are meant to be edited: genie-worksheet(5) says how.
 */
#include "ingest/ingest_int.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* One CSV cell, quoted when it must be. */
static void cell(gn_buf *b, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        gn_buf_puts(b, s);
        return;
    }
    gn_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') gn_buf_putc(b, '"');
        gn_buf_putc(b, *s);
    }
    gn_buf_putc(b, '"');
}

/* A row of the 11 spec columns. */
static void row(gn_buf *b, const char *form, const char *kind, const char *type,
                const char *name, const char *enumv, const char *desc)
{
    const char *v[6] = { form, kind, type, name, enumv, desc };
    for (int i = 0; i < 6; i++) {
        if (i) gn_buf_putc(b, ',');
        cell(b, v[i]);
    }
    gn_buf_puts(b, ",,,,,\n");
}

/* The column's name as people write it: "tasting_notes" → "Tasting notes". */
static void human(gn_buf *b, const char *src)
{
    size_t start = b->len;
    int space = 0;
    for (const char *p = src; *p; p++) {
        int sep = *p == '_' || *p == '-' || *p == ' ' || *p == '\t';
        if (sep) { space = b->len > start; continue; }
        if (space) gn_buf_putc(b, ' ');
        space = 0;
        gn_buf_putc(b, *p);
    }
    if (b->len == start) gn_buf_puts(b, "Column");
    b->data[start] = (char)toupper((unsigned char)b->data[start]);
}

static void examples(gn_buf *b, const ig_column *c, int quote)
{
    int shown = 0;
    for (int i = 0; i < c->nexamples && shown < 2; i++) {
        const char *x = c->examples[i];
        if (strlen(x) > 40) continue;
        gn_buf_puts(b, shown ? ", " : ", e.g. ");
        if (quote) gn_buf_printf(b, "'%s'", x);
        else gn_buf_puts(b, x);
        shown++;
    }
}

static void describe(gn_buf *b, const ig_column *c)
{
    human(b, c->src);
    switch (c->type) {
    case IG_TEXT:
        if (c->key) gn_buf_puts(b, ", which names each row");
        examples(b, c, 1);
        break;
    case IG_INT: gn_buf_puts(b, ", a whole number"); examples(b, c, 0); break;
    case IG_REAL: gn_buf_puts(b, ", a number"); examples(b, c, 0); break;
    case IG_BOOL: gn_buf_puts(b, ": true or false"); break;
    case IG_DATE: gn_buf_puts(b, ", a date (YYYY-MM-DD)"); break;
    case IG_TIME: gn_buf_puts(b, ", a time of day (24-hour HH:MM)"); break;
    case IG_ENUM: break;
    case IG_FREE: gn_buf_puts(b, " (free text)"); break;
    case IG_LIST:
        gn_buf_puts(b, c->elem == IG_FREE ? " (a list of free texts)" : ", a list");
        if (c->elem == IG_TEXT) examples(b, c, 1);
        break;
    }
    gn_buf_putc(b, '.');
}

static const char *spec_type(const ig_column *c)
{
    static const char *const names[] = { "str", "int", "float", "bool", "date", "time", "Enum",
                                         "text", "List" };
    if (c->type != IG_LIST) return names[c->type];
    return c->elem == IG_ENUM ? "List[Enum]" : c->elem == IG_FREE ? "List[text]" : "List[str]";
}

void ig_draft_worksheet(const ig_table *tables, int n, char **const *descs, gn_buf *out)
{
    gn_buf_puts(out, "Form Name,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,"
                     "Confirm,Actions,Form Actions\n");
    gn_buf d;
    gn_buf_init(&d);
    for (int i = 0; i < n; i++) {
        const ig_table *t = &tables[i];
        gn_buf_reset(&d);
        human(&d, t->name);
        gn_buf_printf(&d, ", from %s (%ld row%s).", t->label, t->rows, t->rows == 1 ? "" : "s");
        row(out, t->name, "", "db", "", "", d.data);
        for (int k = 0; k < t->ncols; k++) {
            const ig_column *c = &t->cols[k];
            gn_buf_reset(&d);
            if (descs && descs[i] && descs[i][k]) gn_buf_puts(&d, descs[i][k]);
            else describe(&d, c);
            row(out, "", c->key ? "internal; primary" : "internal", spec_type(c), c->name, "",
                d.data);
            for (int v = 0; v < c->nvals; v++) row(out, "", "", "", "", c->vals[v], "");
        }
    }
    gn_buf_release(&d);
}

/* One line: newlines and the comment markers of an ini value made spaces. */
static void ini_value(gn_buf *b, const char *s)
{
    for (; *s; s++) gn_buf_putc(b, *s == '\n' || *s == '\r' || *s == ';' || *s == '#' ? ' ' : *s);
}

void ig_draft_agent_ini(const ig_table *tables, int n, const char *name, const char *database,
                        const char *description, const char *greeting, gn_buf *out)
{
    gn_buf d;
    gn_buf_init(&d);
    gn_buf_puts(out, "; Drafted by genie --init from");
    for (int i = 0; i < n; i++)
        if (!i || strcmp(tables[i].path, tables[i - 1].path)) gn_buf_printf(out, " %s", tables[i].label);
    gn_buf_puts(out, ".\n; Edit freely: genie-worksheet(5) describes every key.\n[agent]\n");
    gn_buf_printf(out, "name = %s\n", name);
    if (!description) {
        gn_buf_puts(&d, "You answer questions about ");
        for (int i = 0; i < n; i++) {
            const ig_table *t = &tables[i];
            if (i) gn_buf_puts(&d, i + 1 == n ? " and " : ", ");
            gn_buf_printf(&d, "%s (", t->name);
            int shown = 0;
            for (int k = 0; k < t->ncols && shown < 6; k++, shown++) {
                if (shown) gn_buf_puts(&d, ", ");
                for (const char *p = t->cols[k].name; *p; p++) gn_buf_putc(&d, *p == '_' ? ' ' : *p);
            }
            if (t->ncols > 6) gn_buf_puts(&d, ", ...");
            gn_buf_putc(&d, ')');
        }
        gn_buf_puts(&d, ", from the data you were given.");
        description = d.data;
    }
    gn_buf_puts(out, "description = ");
    ini_value(out, description);
    gn_buf_puts(out, "\ngreeting = ");
    if (greeting) {
        ini_value(out, greeting);
    } else {
        gn_buf_puts(out, "Hello! Ask me anything about the ");
        for (int i = 0; i < n; i++) {
            if (i) gn_buf_puts(out, i + 1 == n ? " and the " : ", the ");
            for (const char *p = tables[i].name; *p; p++) gn_buf_putc(out, *p == '_' ? ' ' : *p);
        }
        gn_buf_putc(out, '.');
    }
    gn_buf_printf(out, "\ndatabase = %s\nspec = worksheet.csv\n", database);
    gn_buf_release(&d);
}
