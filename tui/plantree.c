/*
 * plantree.c — a SUQL plan as a tree (see plantree.h).
 *
 * Lines are read into nodes: the first line ("query: ...") is the root;
 * a line at the left margin is a child of the root; a line indented under
 * a block line (one ending in ':') is that block's child; a line indented
 * further than the node before it continues that node's text.  Then each
 * node is printed after its branch: "├─ " for one with siblings after it,
 * "└─ " for the last, "│  " down the side of a block that goes on.
 */
#include "plantree.h"

#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

typedef struct node {
    gn_buf text;
    int parent;               /* index, or -1 for the root */
    int block;                /* it ends in ':' and has children */
} node;

enum { MAX_NODES = 256 };

static int indent_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    return (int)i;
}

/* What a run did at node TEXT, for the tree: "conjunct N:" gets its step,
 * "final:" the rows returned.  Appended to OUT as " [...]". */
static void counts(const char *text, const suql_run_stats *st, gn_buf *out)
{
    if (!st) return;
    int k;
    if (sscanf(text, "conjunct %d:", &k) == 1) {
        for (int i = 0; i < st->nsteps; i++)
            if (st->steps[i].conjunct == k) {
                const suql_step_stats *p = &st->steps[i];
                gn_buf_printf(out, "  [%ld candidates, %ld checked, %ld passed; %ld evaluation%s, "
                              "%ld LLM call%s]", p->candidates, p->checked, p->passed, p->evaluations,
                              p->evaluations == 1 ? "" : "s", p->llm_calls, p->llm_calls == 1 ? "" : "s");
                return;
            }
    } else if (!strncmp(text, "final:", 6)) {
        gn_buf_printf(out, "  [%ld row%s]", st->rows, st->rows == 1 ? "" : "s");
    }
}

void pt_render(const char *plan, const suql_run_stats *st, int ascii, gn_buf *out)
{
    node *v = xcalloc(MAX_NODES, sizeof *v);
    int n = 0, ind[MAX_NODES];
    const char *tee = ascii ? "|- " : "\xe2\x94\x9c\xe2\x94\x80 ", *elbow = ascii ? "`- " : "\xe2\x94\x94\xe2\x94\x80 ",
               *bar = ascii ? "|  " : "\xe2\x94\x82  ";
    for (const char *p = plan; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int in = indent_of(p, len);
        const char *t = p + in;
        size_t tl = len - (size_t)in;
        p = e ? e + 1 : p + len;
        if (!tl) continue;
        int parent = -1;
        if (n) {
            /* Continuation: indented past the node before it, which is
             * not a block waiting for children. */
            node *last = &v[n - 1];
            int last_open = tl && last->text.len && last->text.data[last->text.len - 1] == ':' &&
                            !last->block;
            if (in > ind[n - 1] && !last_open && n > 1) {
                gn_buf_putc(&last->text, ' ');
                gn_buf_add(&last->text, t, tl);
                continue;
            }
            /* The nearest block before it, less indented, is its parent;
             * at the margin, the root. */
            parent = 0;
            for (int j = n - 1; j > 0; j--)
                if (ind[j] < in && v[j].text.len && v[j].text.data[v[j].text.len - 1] == ':') {
                    parent = j;
                    break;
                }
            if (parent) v[parent].block = 1;
        }
        if (n == MAX_NODES) break;
        gn_buf_init(&v[n].text);
        gn_buf_add(&v[n].text, t, tl);
        v[n].parent = parent;
        ind[n] = in;
        n++;
    }
    for (int i = 0; i < n; i++) {
        /* The branches: for each ancestor below the root, a bar when it has
         * siblings after it; then this node's tee or elbow. */
        int chain[32], depth = 0;
        for (int a = v[i].parent; a > 0 && depth < 32; a = v[a].parent) chain[depth++] = a;
        if (i > 0) {
            for (int d = depth - 1; d >= 0; d--) {
                int a = chain[d], later = 0;
                for (int j = a + 1; j < n && !later; j++) later = v[j].parent == v[a].parent;
                gn_buf_puts(out, later ? bar : "   ");
            }
            int later = 0;
            for (int j = i + 1; j < n && !later; j++) later = v[j].parent == v[i].parent;
            gn_buf_puts(out, later ? tee : elbow);
        }
        gn_buf_add(out, v[i].text.data, v[i].text.len);
        counts(v[i].text.data, st, out);
        gn_buf_putc(out, '\n');
        gn_buf_release(&v[i].text);
    }
    free(v);
}
