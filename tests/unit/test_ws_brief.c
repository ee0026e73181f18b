/*
 * test_ws_brief.c — rows cut for the prompts (worksheet/brief.c): the
 * parser gets the short values, the response generator the passages that
 * answer the question.
 */
#include "harness.h"

#include "util/buf.h"
#include "worksheet/brief.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static char *brief_text(const char *rows_json, int max, enum ws_brief mode, const char *q)
{
    cJSON *j = cJSON_Parse(rows_json);
    ws_val *v = ws_val_from_json(j);
    cJSON_Delete(j);
    ws_val *b = ws_brief(v, max, mode, q);
    gn_buf out;
    gn_buf_init(&out);
    ws_val_print(b, &out, NULL, NULL);
    ws_val_free(b);
    ws_val_free(v);
    return gn_buf_detach(&out);
}

#define LONG_A "The pasta was fine and the staff friendly, though the room was loud on a Friday night and we waited."
#define LONG_B "We brought our dog to the patio: dogs are welcome outside, they even brought water bowls for them."
#define LONG_C "Great tiramisu. The wine list is short but well chosen, and the prices are fair for the neighbourhood."

TEST(ws_brief_keys_keep_the_short_values)
{
    char *s = brief_text("[{\"_id\": 7, \"name\": \"Kaito\", \"rating\": 4.5, \"cuisines\": [\"a\", \"b\", \"c\", \"d\"],"
                         " \"summary\": \"" LONG_A "\", \"reviews\": [\"" LONG_A "\", \"" LONG_B "\"]},"
                         " {\"name\": \"Zen\"}]",
                         1, WS_BRIEF_KEYS, NULL);
    CHECK_STR(s, "[{\"name\": \"Kaito\", \"rating\": 4.5, \"cuisines\": [\"a\", \"b\", \"c\", \"… and 1 more\"]}]");
    free(s);
}

TEST(ws_brief_facts_choose_passages_for_the_question)
{
    char *s = brief_text("[{\"name\": \"Kaito\", \"reviews\": [\"" LONG_A "\", \"" LONG_C "\", \"" LONG_B "\"]}]",
                         10, WS_BRIEF_FACTS, "is it dog-friendly?");
    /* the review about dogs first, then the first in stored order */
    CHECK_STR(s, "[{\"name\": \"Kaito\", \"reviews\": [\"" LONG_B "\", \"" LONG_A "\", \"… and 1 more\"]}]");
    free(s);
    char big[700];
    memset(big, 'w', sizeof big - 1);
    big[sizeof big - 1] = 0;
    char *rows = NULL;
    if (asprintf(&rows, "[{\"description\": \"%s\"}]", big) < 0) rows = NULL;
    s = brief_text(rows, 10, WS_BRIEF_FACTS, NULL);      /* one row: the text whole */
    CHECK_INT(strlen(s), strlen("[{\"description\": \"\"}]") + 699);
    free(s);
    free(rows);
    /* one row's text keeps 1,500 characters, each of ten rows' 300 */
    char huge[2000];
    memset(huge, 'w', sizeof huge - 1);
    huge[sizeof huge - 1] = 0;
    if (asprintf(&rows, "[{\"d\": \"%s\"}]", huge) < 0) rows = NULL;
    s = brief_text(rows, 10, WS_BRIEF_FACTS, NULL);
    CHECK_INT(strlen(s), strlen("[{\"d\": \"\"}]") + 1500 + strlen("…"));
    free(s);
    free(rows);
    gn_buf many;
    gn_buf_init(&many);
    gn_buf_putc(&many, '[');
    for (int i = 0; i < 10; i++) gn_buf_printf(&many, "%s{\"d\": \"%s\"}", i ? ", " : "", big);
    gn_buf_putc(&many, ']');
    s = brief_text(many.data, 10, WS_BRIEF_FACTS, NULL);
    CHECK_INT(strlen(s), 2 + 10 * (strlen("{\"d\": \"\"}") + 300 + strlen("…")) + 9 * 2);
    free(s);
    gn_buf_release(&many);
}

/* A query with two free-text conditions shows a passage for each: the
 * patio review and the wine review, though the question's own words
 * would rank the loud-room review (it shares "friday night") second. */
#define LONG_D "Romantic candlelit room, a real date night spot; quiet enough to talk on a Friday night."
TEST(ws_brief_facts_a_passage_for_each_condition)
{
    const char *rows = "[{\"name\": \"Kaito\", \"reviews\": [\"" LONG_A "\", \"" LONG_C "\", \"" LONG_B "\", \""
                       LONG_D "\"]}]";
    char *s = brief_text(rows, 10, WS_BRIEF_FACTS,
                         "romantic places for a friday night with a patio and good wine\n"
                         "is it romantic?\ndoes it have a patio?\nis the wine list good?");
    CHECK_CONTAINS(s, LONG_D);
    CHECK_CONTAINS(s, LONG_B);
    CHECK_CONTAINS(s, LONG_C);
    CHECK_CONTAINS(s, "\"… and 1 more\"]");
    free(s);
    /* one line: the two best by the question, as before */
    s = brief_text(rows, 10, WS_BRIEF_FACTS, "is it dog-friendly?");
    CHECK_CONTAINS(s, "[\"" LONG_B "\", \"" LONG_A "\", \"… and 2 more\"]");
    free(s);
}

/* Every cut list is marked, and one long item does not make a list of
 * items (dishes) a list of passages: 13 dishes keep 8 and say 5 more. */
TEST(ws_brief_lists_cut_are_marked)
{
    char *s = brief_text("[{\"dishes\": [\"Pad Thai\", \"Green curry with chicken, Thai basil, bamboo shoots and "
                         "jasmine rice on the side\", \"c3\", \"c4\", \"c5\", \"c6\", \"c7\", \"c8\", \"c9\", "
                         "\"c10\", \"c11\", \"c12\", \"c13\"]}]", 10, WS_BRIEF_FACTS, NULL);
    CHECK_CONTAINS(s, "\"Pad Thai\", \"Green curry");
    CHECK_CONTAINS(s, "\"c8\", \"… and 5 more\"]");
    free(s);
}
