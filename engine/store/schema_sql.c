/*
 * schema_sql.c — the exposed schema as CREATE TABLE text (see kb.h).
 *
 * The form follows the SUQL paper's prompt: the LLM writes better SUQL when
 * it sees types it knows from PostgreSQL (TEXT[], ENUM (...)) and a
 * FREE_TEXT marker on the columns it must query with answer().  Columns
 * are aligned so the comments read as a table.
 */
#include "kb.h"

#include <string.h>

static const struct { const char *type, *sql; } types[] = {
    { "text", "TEXT" }, { "int", "INT" }, { "real", "REAL" }, { "date", "DATE" },
    { "time", "TIME" }, { "bool", "BOOLEAN" }, { "enum", "TEXT" },
};

static const char *sql_type(const st_column *c)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(types[i].type, c->type)) return types[i].sql;
    return "TEXT";
}

static void column_type(const st_column *c, int max_enum, gn_buf *b)
{
    if (c->free_text) gn_buf_puts(b, "FREE_TEXT");
    else if (c->nenum > 0 && c->nenum <= max_enum) {
        gn_buf_puts(b, "ENUM (");
        for (int i = 0; i < c->nenum; i++) {
            if (i) gn_buf_puts(b, ", ");
            st_literal(b, c->enum_vals[i]);
        }
        gn_buf_putc(b, ')');
    } else gn_buf_puts(b, sql_type(c));
    if (c->is_array) gn_buf_puts(b, "[]");
}

static void comment(const st_column *c, int max_enum, gn_buf *b)
{
    int big = c->nenum > max_enum;
    if (!(c->desc && *c->desc) && !big) return;
    gn_buf_puts(b, "  -- ");
    if (c->desc && *c->desc) {
        for (const char *p = c->desc; *p; p++) gn_buf_putc(b, *p == '\n' ? ' ' : *p);
    }
    if (big) {
        gn_buf_printf(b, "%sone of %d values, e.g. ", c->desc && *c->desc ? " " : "", c->nenum);
        for (int i = 0; i < 3 && i < c->nenum; i++) {
            if (i) gn_buf_puts(b, ", ");
            st_literal(b, c->enum_vals[i]);
        }
    }
}

void st_schema_sql(const st_schema *s, int max_enum, gn_buf *out)
{
    for (int t = 0; t < s->ntables; t++) {
        const st_table *tb = &s->tables[t];
        if (t) gn_buf_putc(out, '\n');
        gn_buf_printf(out, "CREATE TABLE %s (\n", tb->name);
        /* Column width for aligned comments: the longest "name type," that
         * is not an enum list (those are long and would push every
         * comment to the right). */
        size_t width = 0;
        for (int i = 0; i < tb->ncols; i++) {
            gn_buf tmp;
            gn_buf_init(&tmp);
            column_type(&tb->cols[i], max_enum, &tmp);
            size_t w = strlen(tb->cols[i].name) + 1 + tmp.len + 1;
            if (w > width && w <= 40) width = w;
            gn_buf_release(&tmp);
        }
        for (int i = 0; i < tb->ncols; i++) {
            const st_column *c = &tb->cols[i];
            size_t start = out->len;
            gn_buf_printf(out, "    %s ", c->name);
            column_type(c, max_enum, out);
            if (i + 1 < tb->ncols) gn_buf_putc(out, ',');
            size_t w = out->len - start - 4;
            gn_buf m;
            gn_buf_init(&m);
            comment(c, max_enum, &m);
            if (m.len) {
                for (; w < width; w++) gn_buf_putc(out, ' ');
                gn_buf_puts(out, m.data);
            }
            gn_buf_release(&m);
            gn_buf_putc(out, '\n');
        }
        gn_buf_puts(out, ");\n");
    }
}
