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

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A row of the 11 spec columns. */
static void row(gn_buf *b, const char *form, const char *kind, const char *type,
                const char *name, const char *enumv, const char *desc)
{
    const char *v[6] = { form, kind, type, name, enumv, desc };
    for (int i = 0; i < 6; i++) {
        if (i) gn_buf_putc(b, ',');
        gn_buf_csv(b, v[i]);
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
    case IG_TIME: gn_buf_puts(b, ", a time of day (24-hour HH:MM)"); examples(b, c, 1); break;
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

void ig_draft_worksheet(const ig_table *tables, int n, const ig_drafts *dr, gn_buf *out)
{
    gn_buf_puts(out, "Form Name,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,"
                     "Confirm,Actions,Form Actions\n");
    gn_buf d;
    gn_buf_init(&d);
    for (int i = 0; i < n; i++) {
        const ig_table *t = &tables[i];
        gn_buf_reset(&d);
        if (dr && i < dr->ntables && dr->table[i]) {
            gn_buf_puts(&d, dr->table[i]);
        } else {
            human(&d, t->name);
            gn_buf_printf(&d, ", from %s (%ld row%s).", t->label, t->rows, t->rows == 1 ? "" : "s");
        }
        row(out, t->name, "", "db", "", "", d.data);
        for (int k = 0; k < t->ncols; k++) {
            const ig_column *c = &t->cols[k];
            gn_buf_reset(&d);
            if (dr && i < dr->ntables && dr->column[i][k]) gn_buf_puts(&d, dr->column[i][k]);
            else describe(&d, c);
            row(out, "", c->key ? "internal; primary" : "internal", spec_type(c), c->name, "",
                d.data);
            for (int v = 0; v < c->nvals; v++) row(out, "", "", "", "", c->vals[v], "");
        }
    }
    gn_buf_release(&d);
}

/* One line: newlines and the comment markers of an ini value made
 * spaces, runs of spaces one. */
static void ini_value(gn_buf *b, const char *s)
{
    size_t start = b->len;
    for (; *s; s++) {
        char c = *s == '\n' || *s == '\r' || *s == '\t' || *s == ';' || *s == '#' ? ' ' : *s;
        if (c == ' ' && (b->len == start || b->data[b->len - 1] == ' ')) continue;
        gn_buf_putc(b, c);
    }
    while (b->len > start && b->data[b->len - 1] == ' ') b->data[--b->len] = '\0';
}

/* A SQL name as words: "in_stock" → "in stock", "order_" → "order". */
static void words_of_name(gn_buf *b, const char *name)
{
    size_t n = strlen(name);
    while (n > 1 && name[n - 1] == '_') n--;
    for (size_t i = 0; i < n; i++) gn_buf_putc(b, name[i] == '_' ? ' ' : name[i]);
}

void ig_draft_agent_ini(const ig_table *tables, int n, const char *name, const char *database,
                        const ig_drafts *dr, gn_buf *out)
{
    const char *description = dr ? dr->agent : NULL, *greeting = dr ? dr->greeting : NULL;
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
                words_of_name(&d, t->cols[k].name);
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
            words_of_name(out, tables[i].name);
        }
        gn_buf_putc(out, '.');
    }
    gn_buf_printf(out, "\ndatabase = %s\nspec = worksheet.csv\n", database);
    gn_buf_release(&d);
}

/* ---- the LLM's drafts ------------------------------------------------------ */

cJSON *ig_draft_prompt_data(const ig_table *tables, int n)
{
    cJSON *d = cJSON_CreateObject(), *ts = cJSON_AddArrayToObject(d, "tables");
    for (int i = 0; i < n; i++) {
        const ig_table *t = &tables[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", t->name);
        cJSON_AddNumberToObject(o, "rows", (double)t->rows);
        cJSON_AddStringToObject(o, "file", t->label);
        cJSON *cs = cJSON_AddArrayToObject(o, "columns");
        for (int k = 0; k < t->ncols; k++) {
            const ig_column *c = &t->cols[k];
            char ty[64];
            cJSON *co = cJSON_CreateObject();
            cJSON_AddStringToObject(co, "name", c->name);
            ig_column_type_str(c, ty, sizeof ty);
            cJSON_AddStringToObject(co, "type", ty);
            gn_buf ex;
            gn_buf_init(&ex);
            if (c->type == IG_ENUM || (c->type == IG_LIST && c->elem == IG_ENUM)) {
                for (int v = 0; v < c->nvals && v < 12; v++)
                    gn_buf_printf(&ex, "%s'%s'", v ? ", " : "", c->vals[v]);
                if (c->nvals > 12) gn_buf_puts(&ex, ", ...");
            } else {
                for (int v = 0; v < c->nexamples; v++) {
                    const char *x = c->examples[v];
                    int cut = strlen(x) > 80;
                    gn_buf_printf(&ex, "%s'%.*s%s'", v ? ", " : "", cut ? 77 : (int)strlen(x), x,
                                  cut ? "..." : "");
                }
            }
            cJSON_AddStringToObject(co, "examples", ex.data ? ex.data : "");
            gn_buf_release(&ex);
            cJSON_AddItemToArray(cs, co);
        }
        cJSON_AddItemToArray(ts, o);
    }
    return d;
}

/* S made one clean line of at most 300 bytes, or NULL when empty. */
static char *clean(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n >= 2 && ((s[0] == '"' && s[n - 1] == '"') || (s[0] == '`' && s[n - 1] == '`')))
        s++, n -= 2;
    if (!n) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    size_t i = 0;
    for (; i < n && b.len < 300; i++) {
        unsigned char c = (unsigned char)s[i];
        gn_buf_putc(&b, c < 0x20 || c == 0x7F ? ' ' : (char)c);
    }
    if (i < n) {          /* cut: never in the middle of a UTF-8 sequence */
        while (b.len && ((unsigned char)b.data[b.len - 1] & 0xC0) == 0x80) b.len--;
        if (b.len && (unsigned char)b.data[b.len - 1] >= 0xC0) b.len--;
        b.data[b.len] = '\0';
    }
    return gn_buf_detach(&b);
}

/* "grape" for "grapes", "specialty" for "specialties": a model's near
 * miss of a column's name. */
static int same_singular(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na < 3 || nb < 3) return 0;
    if (na > 3 && !strncasecmp(a + na - 3, "ies", 3)) na -= 3;
    else if (na > 1 && (a[na - 1] == 's' || a[na - 1] == 'S')) na--;
    else if (na > 1 && (a[na - 1] == 'y' || a[na - 1] == 'Y')) na--;
    if (nb > 3 && !strncasecmp(b + nb - 3, "ies", 3)) nb -= 3;
    else if (nb > 1 && (b[nb - 1] == 's' || b[nb - 1] == 'S')) nb--;
    else if (nb > 1 && (b[nb - 1] == 'y' || b[nb - 1] == 'Y')) nb--;
    return na == nb && !strncasecmp(a, b, na);
}

static void put(char **slot, char *text, int *found)
{
    if (!text) return;
    free(*slot);
    *slot = text;
    (*found)++;
}

void ig_drafts_parse(const ig_table *tables, int n, const char *reply, ig_drafts *d)
{
    memset(d, 0, sizeof *d);
    d->ntables = n;
    d->table = xcalloc((size_t)n + 1, sizeof *d->table);
    d->column = xcalloc((size_t)n + 1, sizeof *d->column);
    d->ncols = xcalloc((size_t)n + 1, sizeof *d->ncols);
    for (int i = 0; i < n; i++) {
        d->ncols[i] = tables[i].ncols;
        d->column[i] = xcalloc((size_t)tables[i].ncols + 1, sizeof **d->column);
    }
    for (const char *line = reply ? reply : ""; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *l = xstrndup(line, len), *k = l;
        line += len + (end != NULL);
        /* list markers and emphasis around the key */
        while (*k == ' ' || *k == '\t' || *k == '-' || *k == '*' || *k == '#' || *k == '>') k++;
        if (isdigit((unsigned char)*k)) {
            char *p = k;
            while (isdigit((unsigned char)*p)) p++;
            if (*p == '.' || *p == ')') k = p + 1;
        }
        while (*k == ' ' || *k == '`' || *k == '*') k++;
        char *colon = strchr(k, ':');
        if (!colon) { free(l); continue; }
        char *v = colon + 1;
        char *ke = colon;
        while (ke > k && (ke[-1] == ' ' || ke[-1] == '`' || ke[-1] == '*')) ke--;
        *ke = '\0';
        while (*v == ' ' || *v == '*') v++;
        char *text = clean(v, strlen(v));
        if (!strcasecmp(k, "agent") || !strcasecmp(k, "description")) put(&d->agent, text, &d->found);
        else if (!strcasecmp(k, "greeting")) put(&d->greeting, text, &d->found);
        else {
            int done = 0;
            char *dot = strchr(k, '.');
            for (int i = 0; i < n && !done; i++) {
                const ig_table *t = &tables[i];
                if (!dot && !strcasecmp(k, t->name)) {
                    put(&d->table[i], text, &d->found);
                    done = 1;
                    break;
                }
                const char *col = dot && (size_t)(dot - k) == strlen(t->name) &&
                                  !strncasecmp(k, t->name, (size_t)(dot - k)) ? dot + 1
                                : !dot && n == 1 ? k : NULL;
                for (int pass = 0; pass < 2 && col && !done; pass++)
                    for (int c = 0; c < t->ncols && !done; c++)
                        if (pass ? same_singular(col, t->cols[c].name)
                                 : !strcasecmp(col, t->cols[c].name)) {
                            put(&d->column[i][c], text, &d->found);
                            done = 1;
                        }
            }
            if (!done) free(text);
        }
        free(l);
    }
}

void ig_drafts_free(ig_drafts *d)
{
    free(d->agent);
    free(d->greeting);
    for (int i = 0; i < d->ntables; i++) {
        free(d->table[i]);
        for (int k = 0; k < d->ncols[i]; k++) free(d->column[i][k]);
        free(d->column[i]);
    }
    free(d->table);
    free(d->column);
    free(d->ncols);
    memset(d, 0, sizeof *d);
}
