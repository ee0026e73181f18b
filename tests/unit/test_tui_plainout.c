/*
 * test_tui_plainout.c — replies in line mode (tui/plainout.c): Markdown
 * rendered a line at a time however the stream is cut, and the model's
 * control characters made inert.
 */
#include "harness.h"

#include "tui/plainout.h"

#include <stdlib.h>

/* Feed TEXT in fragments of K bytes, flush; what was printed. */
static char *render(const char *text, int k, int ansi)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    plain_out o;
    plain_out_init(&o, f, ansi);
    for (size_t i = 0; i < strlen(text); i += (size_t)k) {
        char frag[64];
        snprintf(frag, sizeof frag, "%.*s", k, text + i);
        plain_out_feed(&o, frag);
    }
    plain_out_flush(&o);
    plain_out_release(&o);
    fclose(f);
    return buf;
}

TEST(tui_plainout_markdown_at_any_split)
{
    const char *reply = "I found **Kaito** and *Zen*:\n- sushi, 4.5 stars\n2 * 3 stays";
    for (int k = 1; k <= 7; k++) {
        char *s = render(reply, k, 0);
        CHECK_STR(s, "I found Kaito and Zen:\n- sushi, 4.5 stars\n2 * 3 stays\n");
        free(s);
    }
    char *s = render(reply, 3, 1);
    CHECK_STR(s, "I found \033[1mKaito\033[0m and \033[3mZen\033[0m:\n- sushi, 4.5 stars\n"
                 "2 * 3 stays\n");
    free(s);
}

TEST(tui_plainout_control_characters_are_inert)
{
    /* a title change (OSC 0), a bell, a C1 CSI and a right-to-left
     * override, in a reply and in a code block */
    char *s = render("Hi\033]0;pwned\007 there \xc2\x9b" "2J \xe2\x80\xae" "evil\n```\n\033[2Jcode\n```\n", 5, 1);
    CHECK(!strchr(s, '\007'));
    CHECK(!strstr(s, "\033]"));
    CHECK(!strstr(s, "\033[2J"));
    CHECK(!strstr(s, "\xc2\x9b"));
    CHECK(!strstr(s, "\xe2\x80\xae"));
    CHECK_CONTAINS(s, "Hi\xef\xbf\xbd]0;pwned\xef\xbf\xbd there \xef\xbf\xbd" "2J \xef\xbf\xbd" "evil\n");
    CHECK_CONTAINS(s, "\xef\xbf\xbd[2Jcode\n");
    free(s);
}

/* Paragraphs keep the blank line between them, however the stream is cut
 * (a pipe read them run together once). */
TEST(tui_plainout_blank_lines_between_paragraphs)
{
    const char *reply = "First paragraph.\n\nSecond **one**.\n\n\n- a list\n";
    for (int k = 1; k <= 7; k++) {
        char *s = render(reply, k, 0);
        CHECK_STR(s, "First paragraph.\n\nSecond one.\n\n\n- a list\n");
        free(s);
    }
}

/* A table is held until its last row, then printed aligned, however the
 * stream is cut. */
TEST(tui_plainout_tables_aligned)
{
    const char *reply = "Found:\n| name | rating |\n|---|---|\n| Kaito | 4.5 |\n| Hilo Cafe | 3 |\nEnjoy.";
    for (int k = 1; k <= 9; k++) {
        char *s = render(reply, k, 0);
        CHECK_STR(s, "Found:\nname       rating\n---------  ------\nKaito      4.5\nHilo Cafe  3\nEnjoy.\n");
        free(s);
    }
    char *s = render("| a | b |\n|---|---|\n| 1 | 2 |", 4, 0);   /* a table at the very end */
    CHECK_STR(s, "a  b\n-  -\n1  2\n");
    free(s);
}
