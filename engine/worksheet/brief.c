/*
 * brief.c — knowledge-base rows cut to what a prompt needs (brief.h).
 *
 * Sizes: a value is "short" up to KEY_CHARS characters (a name, an
 * address, a time), a list item up to ITEM_CHARS (a cuisine, a code); the
 * parser sees KEY_ITEMS items of a short list.  Columns named with a
 * leading underscore (_id) are genie's, shown to no model.  In
 * FACTS mode a long text keeps FACT_CHARS characters (the rows shown
 * share FACT_BUDGET when that is more: a single row's text keeps 1,500)
 * and a list of
 * passages its PASSAGES most relevant ones: relevance is how often the
 * question's words (three letters or more) occur in a passage, ties
 * kept in stored order, so with no question the first passages stay.
 * The reply generator is told the texts are excerpts by the "…" they end
 * with and by the prompt, and a list cut ends with "… and N more".  Rejected: the retrieval index's ranking
 * (a worksheet value has no row id or vectors, and this runs per prompt
 * on at most a few dozen passages) and sending every passage (a 3-row
 * search made the response prompt 18,000 characters).
 */
#include "worksheet/brief.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KEY_CHARS 80
#define ITEM_CHARS 40
#define KEY_ITEMS 3
#define FACT_CHARS 300
#define FACT_BUDGET 1500
#define FACT_ITEMS 8
#define PASSAGES 2
#define MAX_PASSAGES 4

/* A list of passages (reviews), not of items (dishes): most of its
 * strings are long.  One long dish name does not make the dishes
 * passages (it cut 16 dishes to 2): it is cut like a long value. */
static int is_long_list(const ws_val *v)
{
    int longs = 0;
    for (int i = 0; i < v->u.c.n; i++)
        if (v->u.c.items[i]->kind == WV_STR && strlen(v->u.c.items[i]->u.s) > ITEM_CHARS) longs++;
    return longs > 0 && 2 * longs >= v->u.c.n;
}

/* The marker of a list cut: what it leaves out, counted. */
static ws_val *more(int n)
{
    return ws_str_own(xasprintf("… and %d more", n));
}

/* S cut to N bytes (not inside a UTF-8 character), with "…". */
static ws_val *cut(const char *s, size_t n)
{
    if (strlen(s) <= n) return ws_str(s);
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return ws_str_own(xasprintf("%.*s…", (int)n, s));
}

/* How often QUESTION's words (3+ letters, any case) occur in TEXT, each
 * at the start of a word of TEXT (so "dog" finds "dogs"): a passage about
 * the question tends to repeat its words. */
static int relevance(const char *question, const char *text)
{
    int score = 0;
    char w[64];
    for (const char *q = question; q && *q;) {
        while (*q && !isalnum((unsigned char)*q)) q++;
        size_t n = 0;
        while (isalnum((unsigned char)*q)) {
            if (n + 1 < sizeof w) w[n++] = *q;
            q++;
        }
        w[n] = 0;
        if (n < 3) continue;
        for (const char *p = text; (p = strcasestr(p, w)) != NULL; p++)
            if (p == text || !isalnum((unsigned char)p[-1])) score++;
    }
    return score;
}

typedef struct ranked {
    int score, pos;
} ranked;

static int by_score(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->score != y->score ? y->score - x->score : x->pos - y->pos;
}

/* The passages of list V most relevant to QUESTION, cut: first the best
 * one for each line after its first (a query's conditions: "romantic",
 * then "patio", so each condition shows its evidence; at most
 * MAX_PASSAGES), then by the whole question, PASSAGES at least. */
static ws_val *passages(const ws_val *v, const char *question)
{
    int n = v->u.c.n, want = PASSAGES;
    ranked *r = xmalloc((size_t)(n ? n : 1) * sizeof *r);
    char *pick = xcalloc((size_t)(n ? n : 1), 1);
    int *order = xmalloc((size_t)(n ? n : 1) * sizeof *order), k = 0;
    const char *conds = question ? strchr(question, '\n') : NULL;   /* past the question's own line */
    for (const char *line = conds ? conds + 1 : NULL; line && *line && k < MAX_PASSAGES;) {
        size_t len = strcspn(line, "\n");
        char *cond = xstrndup(line, len);
        int best = -1, bs = 0;
        for (int i = 0; i < n; i++) {
            const ws_val *it = v->u.c.items[i];
            int sc = !pick[i] && it->kind == WV_STR ? relevance(cond, it->u.s) : 0;
            if (sc > bs) bs = sc, best = i;
        }
        free(cond);
        if (best >= 0) {
            pick[best] = 1;
            order[k++] = best;
        }
        line += len;
        if (*line) line++;
    }
    if (k > want) want = k;
    for (int i = 0; i < n; i++) {
        const ws_val *it = v->u.c.items[i];
        r[i] = (ranked){ it->kind == WV_STR ? relevance(question, it->u.s) : 0, i };
    }
    if (n > 1) qsort(r, (size_t)n, sizeof *r, by_score);
    for (int i = 0; i < n && k < want; i++)
        if (!pick[r[i].pos]) {
            pick[r[i].pos] = 1;
            order[k++] = r[i].pos;
        }
    ws_val *out = ws_list();
    for (int i = 0; i < k; i++) {
        const ws_val *it = v->u.c.items[order[i]];
        ws_list_add(out, it->kind == WV_STR ? cut(it->u.s, FACT_CHARS) : ws_val_copy(it));
    }
    if (n > k) ws_list_add(out, more(n - k));
    free(order);
    free(pick);
    free(r);
    return out;
}

/* One column's value for MODE, or NULL when KEYS mode leaves it out; a
 * long text keeps FACTS characters. */
static ws_val *column(const ws_val *v, enum ws_brief mode, const char *question, size_t facts)
{
    if (v->kind == WV_STR) {
        if (strlen(v->u.s) <= KEY_CHARS) return ws_val_copy(v);
        return mode == WS_BRIEF_KEYS ? NULL : cut(v->u.s, facts);
    }
    if (v->kind == WV_LIST) {
        if (is_long_list(v)) return mode == WS_BRIEF_KEYS ? NULL : passages(v, question);
        int max = mode == WS_BRIEF_KEYS ? KEY_ITEMS : FACT_ITEMS;
        ws_val *out = ws_list();
        for (int i = 0; i < v->u.c.n && i < max; i++) {
            const ws_val *it = v->u.c.items[i];
            ws_list_add(out, it->kind == WV_STR ? cut(it->u.s, KEY_CHARS) : ws_val_copy(it));
        }
        if (v->u.c.n > max) ws_list_add(out, more(v->u.c.n - max));     /* every cut marked */
        return out;
    }
    if (v->kind == WV_DICT) return mode == WS_BRIEF_KEYS ? NULL : ws_val_copy(v);
    return ws_val_copy(v);
}

ws_val *ws_brief(const ws_val *rows, int max_rows, enum ws_brief mode, const char *question)
{
    if (!rows || rows->kind != WV_LIST) return rows ? ws_val_copy(rows) : ws_list();
    ws_val *out = ws_list();
    /* a text of one row or two is most of the answer (a program's
     * requirements): the rows share FACT_BUDGET, FACT_CHARS each at least */
    int shown = rows->u.c.n < max_rows ? rows->u.c.n : max_rows;
    size_t facts = shown > 0 && FACT_BUDGET / shown > FACT_CHARS ? FACT_BUDGET / (size_t)shown : FACT_CHARS;
    for (int i = 0; i < rows->u.c.n && i < max_rows; i++) {
        const ws_val *row = rows->u.c.items[i];
        if (row->kind != WV_DICT) {
            ws_val *c = column(row, mode, question, facts);
            ws_list_add(out, c ? c : ws_str("…"));
            continue;
        }
        ws_val *d = ws_dict();
        for (int k = 0; k < row->u.c.n; k++) {
            if (row->u.c.keys[k][0] == '_') continue;          /* _id: genie's own */
            ws_val *c = column(row->u.c.items[k], mode, question, facts);
            if (c) ws_dict_set(d, row->u.c.keys[k], c);
        }
        ws_list_add(out, d);
    }
    return out;
}
