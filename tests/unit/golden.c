/*
 * golden.c — splitting golden files into cases (see golden.h).
 */
#include "golden.h"

#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

int th_golden_cases(char *text, th_gcase **out)
{
    th_gcase *v = NULL;
    int n = 0;
    gn_buf head, query;
    gn_buf_init(&head);
    gn_buf_init(&query);
    for (char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        char save = line[len];
        line[len] = 0;
        if (!strncmp(line, "->", 2)) {
            v = realloc(v, (size_t)(n + 1) * sizeof *v);
            v[n].head = gn_buf_detach(&head);
            v[n].query = gn_buf_detach(&query);
            v[n].expect = strdup(line[2] == ' ' ? line + 3 : line + 2);
            n++;
            gn_buf_init(&head);
            gn_buf_init(&query);
        } else if (line[0] || head.len) {
            gn_buf_puts(&head, line);
            gn_buf_putc(&head, '\n');
            if (line[0] != '#' && line[0]) {
                if (query.len) gn_buf_putc(&query, '\n');
                gn_buf_puts(&query, line);
            }
        }
        line[len] = save;
        line += len + (save == '\n');
    }
    gn_buf_release(&head);
    gn_buf_release(&query);
    *out = v;
    return n;
}

void th_golden_free(th_gcase *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].head);
        free(v[i].query);
        free(v[i].expect);
    }
    free(v);
}
