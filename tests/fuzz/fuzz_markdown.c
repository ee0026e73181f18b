/*
 * fuzz_markdown.c — libFuzzer target for what the screen and line mode do
 * with a model's reply: tui/text.c's Markdown (tables, fences, lists,
 * inline markup, wrapping, the ASCII drawing), tui/view_conv.c's code
 * blocks (/copy code) and tui/plainout.c's line mode (a table held until
 * its last row), all fed bytes no model was asked to keep to.
 *
 * The first byte gives the width (1..120), the second the drawing (odd:
 * ASCII) and the size of the stream's pieces; the rest is the reply.
 * Beyond the sanitizers' checks the target aborts when a line is not its
 * own width, holds a NUL or a newline, or (at 12 columns and more) is
 * wider than the pane; when the code blocks counted and copied disagree;
 * and when line mode prints differently for two ways of cutting the
 * stream.
 */
#include "tui/plainout.h"
#include "tui/text.h"
#include "tui/view.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Line mode's output for TEXT fed in pieces of K bytes. */
static char *line_mode(const char *text, size_t k)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) abort();
    plain_out o;
    plain_out_init(&o, f, 0);
    size_t len = strlen(text);
    char *piece = malloc(k + 1);
    if (!piece) abort();
    for (size_t i = 0; i < len; i += k) {
        size_t m = len - i < k ? len - i : k;
        memcpy(piece, text + i, m);
        piece[m] = 0;
        plain_out_feed(&o, piece);
    }
    free(piece);
    plain_out_flush(&o);
    plain_out_release(&o);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 8192) return 0;
    int width = 1 + data[0] % 120, ascii = data[1] & 1;
    size_t k = 1 + (data[1] >> 1) % 64;
    char *text = malloc(size - 1);
    if (!text) return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = 0;                   /* a NUL ends the reply, as a C string does */

    tx_set_ascii(ascii);
    tx_lines out;
    tx_lines_init(&out);
    tx_markdown(text, width, 2, TX_PLAIN, &out);
    for (int i = 0; i < out.n; i++) {
        const tx_line *l = &out.v[i];
        if ((int)strlen(l->s) != l->len || memchr(l->s, '\n', (size_t)l->len)) abort();
        if (l->width != tx_width(l->s, l->len)) abort();
        if (width >= 12 && l->width > width) abort();
        for (int j = 0; j < l->len; j++)
            if (l->st[j] >= TX__COUNT) abort();
    }
    tx_lines_release(&out);
    tx_set_ascii(0);

    /* Code blocks: each one counted can be copied, none past the count. */
    int n = vc_code(text, 0, NULL);
    for (int i = 1; i <= n + 1; i++) {
        gn_buf b;
        gn_buf_init(&b);
        if (vc_code(text, i, &b) != n) abort();
        if (i > n && b.len) abort();
        gn_buf_release(&b);
    }

    /* Line mode prints the same whatever the pieces. */
    char *whole = line_mode(text, 8192), *cut = line_mode(text, k);
    if (strcmp(whole, cut)) abort();
    free(whole);
    free(cut);
    free(text);
    return 0;
}
