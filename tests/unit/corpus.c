/*
 * corpus.c — reading the paper's query corpus with libcsv (see corpus.h).
 * The column is found by its header, not by position.
 */
#include "corpus.h"

#include "harness.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    th_corpus *c;
    int row, col, want;
} state;

static void on_field(void *s, size_t len, void *data)
{
    state *st = data;
    if (st->row == 0 && len == strlen("Predicted SUQL") && !memcmp(s, "Predicted SUQL", len))
        st->want = st->col;
    if (st->row > 0 && st->col == st->want) {
        th_corpus *c = st->c;
        c->queries = realloc(c->queries, (size_t)(c->n + 1) * sizeof *c->queries);
        c->queries[c->n++] = strndup(s, len);
    }
    st->col++;
}

static void on_row(int ch, void *data)
{
    (void)ch;
    state *st = data;
    st->row++;
    st->col = 0;
}

int th_corpus_load(th_corpus *c)
{
    memset(c, 0, sizeof *c);
    const char *path = th_path("tests/data/suql-restaurant-queries/restaurants_single_turn_SUQL.csv");
    FILE *f = fopen(path, "rb");
    if (!f) {
        th_fail(__FILE__, __LINE__, "cannot read %s", path);
        return -1;
    }
    state st = { c, 0, 0, -1 };
    struct csv_parser p;
    csv_init(&p, CSV_APPEND_NULL);
    char buf[4096];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_row, &st) != n) rc = -1;
    csv_fini(&p, on_field, on_row, &st);
    csv_free(&p);
    fclose(f);
    if (rc || st.want < 0) {
        th_fail(__FILE__, __LINE__, "%s: malformed CSV or no 'Predicted SUQL' column", path);
        th_corpus_free(c);
        return -1;
    }
    return 0;
}

void th_corpus_free(th_corpus *c)
{
    for (int i = 0; i < c->n; i++) free(c->queries[i]);
    free(c->queries);
    c->queries = NULL;
    c->n = 0;
}
