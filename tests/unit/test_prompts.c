/*
 * test_prompts.c — the shipped prompt templates, config/prompts/NAME.prompt.
 *
 * Every template in the directory must have sample data here (a new file
 * without it fails), render with it into one `## system` message followed
 * by one `## user` message holding the user input, leave no tag or blank-
 * line pile-up behind, fail naming itself and the variable when any
 * variable is missing, and take exactly the variables its section of
 * config/prompts/README.md lists.
 */
#include "harness.h"
#include "llm/template.h"

#include <dirent.h>
#include <stdlib.h>

typedef struct prompt_case {
    const char *file;    /* name in config/prompts/ */
    const char *data;    /* every variable, lists non-empty */
    const char *minimal; /* the same with optional content empty or null */
    const char *input;   /* the user input, which must land in the user message */
} prompt_case;

#define STATE_JSON "\"book_restaurant = Book_Restaurant(date=\\\"2026-03-20\\\", num_people=2)\""

static const prompt_case cases[] = {
    { "answer.prompt",
      "{\"question\":\"is there a quiet patio in the back?\","
      "\"documents\":[\"Lovely patio out back, very calm.\",\"The pasta was overcooked.\"],"
      "\"excerpt\":{\"shown\":2,\"total\":9,\"cut\":true},"
      "\"type_hint\":\"Reply with Yes or No.\"}",
      "{\"question\":\"is there a quiet patio in the back?\",\"documents\":[],\"excerpt\":null,"
      "\"type_hint\":null}",
      "Question: is there a quiet patio in the back?" },
    { "verify.prompt",
      "{\"field\":\"reviews\",\"question\":\"is parking easy around here?\",\"operator\":\"=\","
      "\"value\":\"'Yes'\",\"documents\":[\"Parking is a nightmare on weekends.\"],"
      "\"excerpt\":{\"shown\":1,\"total\":6,\"cut\":false}}",
      "{\"field\":\"reviews\",\"question\":\"is parking easy around here?\",\"operator\":\"=\","
      "\"value\":\"'Yes'\",\"documents\":[],\"excerpt\":null}",
      "answer(reviews, 'is parking easy around here?') = 'Yes'" },
    { "verify_rows.prompt",
      "{\"field\":\"reviews\",\"question\":\"is parking easy around here?\",\"operator\":\"=\","
      "\"value\":\"'Yes'\",\"count\":2,\"rows\":[{\"n\":1,\"documents\":[\"Parking is a nightmare.\"],"
      "\"excerpt\":{\"shown\":1,\"total\":8,\"cut\":false}},"
      "{\"n\":2,\"documents\":[\"Big free lot behind.\",\"Great tacos.\"],\"excerpt\":null}]}",
      "{\"field\":\"reviews\",\"question\":\"is parking easy around here?\",\"operator\":\"=\","
      "\"value\":\"'Yes'\",\"count\":2,\"rows\":[{\"n\":1,\"documents\":[],\"excerpt\":null},"
      "{\"n\":2,\"documents\":[\"Big free lot behind.\"],\"excerpt\":null}]}",
      "answer(reviews, 'is parking easy around here?') = 'Yes'" },
    { "classify.prompt",
      "{\"table\":\"restaurants\",\"column\":\"cuisines\",\"description\":\"Cuisines and categories.\","
      "\"term\":\"espresso bar\",\"choices\":[{\"index\":1,\"value\":\"cafe\"},"
      "{\"index\":2,\"value\":\"coffee & tea\"},{\"index\":3,\"value\":\"pizza\"}]}",
      "{\"table\":\"restaurants\",\"column\":\"cuisines\",\"description\":null,"
      "\"term\":\"espresso bar\",\"choices\":[{\"index\":1,\"value\":\"cafe\"}]}",
      "Search term: \"espresso bar\"" },
    { "draft.prompt",
      "{\"tables\":[{\"name\":\"wines\",\"rows\":8,\"file\":\"wines.csv\",\"columns\":["
      "{\"name\":\"name\",\"type\":\"text, key\",\"examples\":\"'Opus One', 'Tignanello'\"},"
      "{\"name\":\"price\",\"type\":\"real\",\"examples\":\"'420', '130'\"}]},"
      "{\"name\":\"shops\",\"rows\":2,\"file\":\"shops.json\",\"columns\":["
      "{\"name\":\"city\",\"type\":\"enum (2)\",\"examples\":\"'Lyon', 'Paris'\"}]}]}",
      "{\"tables\":[{\"name\":\"wines\",\"rows\":0,\"file\":\"wines.csv\",\"columns\":["
      "{\"name\":\"name\",\"type\":\"text\",\"examples\":\"\"}]}]}",
      "- name (text" },
    { "summary.prompt",
      "{\"field\":\"reviews\",\"max_words\":60,"
      "\"documents\":[\"Great ramen, long lines at lunch.\",\"Broth is rich; service is slow.\"]}",
      "{\"field\":\"reviews\",\"max_words\":60,\"documents\":[\"Great ramen, long lines at lunch.\"]}",
      "- Great ramen, long lines at lunch." },
    { "consult.prompt",
      "{\"kb_description\":\"Restaurants in four cities: cuisines, price, rating, hours, dishes and reviews.\","
      "\"history\":[{\"user\":\"find me tacos in Sunnyvale\","
      "\"agent\":\"I found El Farolito, a 4 star taqueria.\"},{\"user\":\"hello?\",\"agent\":null}],"
      "\"user_utterance\":\"do they take reservations on weekends?\"}",
      "{\"kb_description\":\"Restaurants.\",\"history\":[],"
      "\"user_utterance\":\"do they take reservations on weekends?\"}",
      "User: do they take reservations on weekends?" },
    { "kb_parse.prompt",
      "{\"today\":\"Friday, 2026-03-13\","
      "\"schema\":\"CREATE TABLE restaurants (name TEXT, cuisines TEXT[], reviews FREE_TEXT[]);\","
      "\"domain_examples\":\"User: Any ramen?\\nSUQL: SELECT *, summary(reviews) FROM restaurants "
      "WHERE 'ramen' = ANY (cuisines) LIMIT 1;\","
      "\"history\":[{\"user\":\"ramen in Palo Alto?\",\"target\":\"SELECT * FROM restaurants LIMIT 1;\","
      "\"agent\":\"I found Ramen Nagi.\"},{\"user\":\"hi\",\"target\":null,\"agent\":null}],"
      "\"question\":\"which of them has the shortest wait on a Friday night?\"}",
      "{\"today\":\"Friday, 2026-03-13\",\"schema\":\"CREATE TABLE t (a TEXT);\","
      "\"domain_examples\":null,\"history\":[],"
      "\"question\":\"which of them has the shortest wait on a Friday night?\"}",
      "User: which of them has the shortest wait on a Friday night?\nSUQL:" },
    { "repair.prompt",
      "{\"schema\":\"CREATE TABLE restaurants (name TEXT, rating NUMERIC(2,1), reviews FREE_TEXT[]);\","
      "\"question\":\"a five star brunch spot with bottomless mimosas\","
      "\"attempts\":[{\"suql\":\"SELECT * FROM restaurants WHERE rating = 5 LIMIT 1;\",\"error\":null,"
      "\"why_empty\":\"the free-text checks stopped at their budget\"},"
      "{\"suql\":\"SELECT * FROM restaurant LIMIT 1;\",\"error\":\"1:15: unknown table 'restaurant'\","
      "\"why_empty\":null}]}",
      "{\"schema\":\"CREATE TABLE t (a TEXT);\","
      "\"question\":\"a five star brunch spot with bottomless mimosas\","
      "\"attempts\":[{\"suql\":\"SELECT * FROM t LIMIT 1;\",\"error\":\"\",\"why_empty\":null}]}",
      "Request: a five star brunch spot with bottomless mimosas" },
    { "parse.prompt",
      "{\"agent_description\":\"You help people find restaurants and book tables.\","
      "\"today\":\"Friday, 2026-03-13\","
      "\"worksheets\":\"class Book_Restaurant:\\n    restaurant: str  # name of the restaurant\","
      "\"tasks\":true,"
      "\"state\":" STATE_JSON ","
      "\"agent_acts\":[\"AskField(book_restaurant, restaurant, \\\"name of the restaurant\\\")\"],"
      "\"agent_utterance\":\"Which restaurant would you like to book?\","
      "\"user_utterance\":\"Kaito please, and is it kid friendly?\",\"repair\":null}",
      "{\"agent_description\":\"\",\"today\":\"Friday, 2026-03-13\","
      "\"worksheets\":\"class Book_Restaurant:\\n    restaurant: str\",\"tasks\":false,"
      "\"state\":\"\",\"agent_acts\":[],\"agent_utterance\":\"\","
      "\"user_utterance\":\"Kaito please, and is it kid friendly?\",\"repair\":null}",
      "User: Kaito please, and is it kid friendly?\nStatements:" },
    { "respond.prompt",
      "{\"agent_description\":\"You help people find restaurants and book tables.\","
      "\"today\":\"Friday, 2026-03-13\",\"state\":" STATE_JSON ","
      "\"acts\":[\"Report(answer(\\\"is Kaito kid friendly\\\"), result=[])\","
      "\"AskField(book_restaurant, time, \\\"time of the reservation\\\")\"],"
      "\"agent_utterance\":\"Which restaurant would you like to book?\","
      "\"user_utterance\":\"Kaito please, and is it kid friendly?\"}",
      "{\"agent_description\":\"\",\"today\":\"Friday, 2026-03-13\",\"state\":\"\","
      "\"acts\":[\"Say(\\\"Hello!\\\")\"],\"agent_utterance\":\"\",\"user_utterance\":\"hi there\"}",
      NULL /* input differs between the two: see case_input */ },
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

static const prompt_case *find_case(const char *file)
{
    for (int i = 0; i < NCASES; i++)
        if (!strcmp(cases[i].file, file)) return &cases[i];
    return NULL;
}

/* The user input a render with DATA must carry into the user message. */
static const char *case_input(const prompt_case *c, int minimal)
{
    if (c->input) return c->input;
    return minimal ? "User: hi there\nAgent:" : "User: Kaito please, and is it kid friendly?\nAgent:";
}

static llm_tpl *load(const char *file, gn_err *e)
{
    const char *dirs[] = { th_path("config/prompts") };
    llm_tpl *t = NULL;
    gn_err_clear(e);
    if (llm_tpl_load(dirs, 1, file, &t, e) != 0) return NULL;
    return t;
}

/* Render FILE with DATA (JSON text) into a malloc'd string; NULL with e set
 * on failure. */
static char *render_json(const char *file, const cJSON *data, gn_err *e)
{
    llm_tpl *t = load(file, e);
    if (!t) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    int rc = llm_tpl_render(t, data, &b, e);
    llm_tpl_free(t);
    if (rc) {
        gn_buf_release(&b);
        return NULL;
    }
    return gn_buf_detach(&b);
}

/* The *.prompt files of config/prompts, as a NULL-terminated array of
 * malloc'd names (at most 63). */
static int list_prompts(char *names[64])
{
    int n = 0;
    DIR *d = opendir(th_path("config/prompts"));
    if (!d) return 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < 63) {
        size_t len = strlen(de->d_name);
        if (len > 7 && !strcmp(de->d_name + len - 7, ".prompt")) names[n++] = strdup(de->d_name);
    }
    closedir(d);
    names[n] = NULL;
    return n;
}

static void free_names(char *names[64])
{
    for (int i = 0; names[i]; i++) free(names[i]);
}

/* Structural checks of one rendered prompt; reports failures under FILE. */
static void check_rendered(const char *file, const char *out, const char *input)
{
    if (!out || !*out) {
        th_fail(__FILE__, __LINE__, "%s: empty render", file);
        return;
    }
    if (strncmp(out, "## system\n", 10))
        th_fail(__FILE__, __LINE__, "%s: does not start with the '## system' line", file);
    const char *user = strstr(out, "\n## user\n");
    if (!user) {
        th_fail(__FILE__, __LINE__, "%s: no '## user' line", file);
        return;
    }
    /* Exactly the two markers, in order, and no other line that looks
     * like one (a typo such as "##user" or "## User" would split wrongly). */
    int markers = 0;
    for (const char *p = out; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, "##", 2)) markers++;
    if (markers != 2) th_fail(__FILE__, __LINE__, "%s: %d marker-like lines, expected 2", file, markers);
    if (user - out < 40) th_fail(__FILE__, __LINE__, "%s: system message nearly empty", file);
    if (strlen(user) < 20) th_fail(__FILE__, __LINE__, "%s: user message nearly empty", file);
    if (!strstr(user, input))
        th_fail(__FILE__, __LINE__, "%s: user message lacks \"%s\"", file, input);
    if (strstr(out, "{{")) th_fail(__FILE__, __LINE__, "%s: leftover '{{'", file);
    if (strstr(out, "}}")) th_fail(__FILE__, __LINE__, "%s: leftover '}}'", file);
    if (strstr(out, "\n\n\n")) th_fail(__FILE__, __LINE__, "%s: two blank lines in a row", file);
    if (strstr(out, "\n\n## user")) th_fail(__FILE__, __LINE__, "%s: blank line before '## user'", file);
    if (out[strlen(out) - 1] != '\n') th_fail(__FILE__, __LINE__, "%s: no final newline", file);
    if (strstr(out, " \n")) th_fail(__FILE__, __LINE__, "%s: trailing space on a line", file);
}

static void render_and_check(const prompt_case *c, int minimal)
{
    gn_err e;
    char buf[1024];
    cJSON *data = cJSON_Parse(minimal ? c->minimal : c->data);
    if (!data) {
        th_fail(__FILE__, __LINE__, "%s: sample data is not JSON", c->file);
        return;
    }
    char *out = render_json(c->file, data, &e);
    if (!out)
        th_fail(__FILE__, __LINE__, "%s: %s", c->file, gn_err_str(&e, buf, sizeof buf));
    else
        check_rendered(c->file, out, case_input(c, minimal));
    free(out);
    cJSON_Delete(data);
}

TEST(prompts_every_file_renders)
{
    char *names[64];
    int n = list_prompts(names);
    CHECK(n >= 9);
    for (int i = 0; i < n; i++) {
        const prompt_case *c = find_case(names[i]);
        if (!c) {
            th_fail(__FILE__, __LINE__, "%s: no sample data in test_prompts.c", names[i]);
            continue;
        }
        render_and_check(c, 0);
    }
    free_names(names);
    /* And every case names a file that exists. */
    for (int i = 0; i < NCASES; i++) {
        gn_err e;
        llm_tpl *t = load(cases[i].file, &e);
        if (!t) th_fail(__FILE__, __LINE__, "%s: %s", cases[i].file, e.msg);
        llm_tpl_free(t);
    }
}

TEST(prompts_render_with_optional_content_empty)
{
    for (int i = 0; i < NCASES; i++) render_and_check(&cases[i], 1);
}

/* Dropping any one top-level variable fails, and the error names the
 * template and the variable. */
TEST(prompts_missing_variable_fails_with_name)
{
    for (int i = 0; i < NCASES; i++) {
        cJSON *data = cJSON_Parse(cases[i].data);
        REQUIRE(data);
        for (const cJSON *it = data->child; it; it = it->next) {
            cJSON *copy = cJSON_Duplicate(data, 1);
            cJSON_DeleteItemFromObjectCaseSensitive(copy, it->string);
            gn_err e;
            char buf[1024], want[160];
            char *out = render_json(cases[i].file, copy, &e);
            if (out) {
                th_fail(__FILE__, __LINE__, "%s: renders without '%s'", cases[i].file, it->string);
            } else {
                CHECK_INT(e.code, GN_ENOTFOUND);
                const char *msg = gn_err_str(&e, buf, sizeof buf);
                snprintf(want, sizeof want, "/%s:", cases[i].file);
                CHECK_CONTAINS(msg, want);
                snprintf(want, sizeof want, "undefined variable '%s'", it->string);
                CHECK_CONTAINS(msg, want);
                CHECK(e.line > 0 && e.col > 0);
            }
            free(out);
            cJSON_Delete(copy);
        }
        cJSON_Delete(data);
    }
}

/* The backquoted names in the first column of the README table under
 * "### FILE", appended to LIST (space-separated, each followed by ' '). */
static void readme_names(const char *readme, const char *file, char *list, size_t size)
{
    char head[128];
    snprintf(head, sizeof head, "\n### %s\n", file);
    const char *p = strstr(readme, head);
    list[0] = 0;
    if (!p) return;
    p += strlen(head);
    const char *end = strstr(p, "\n### ");
    if (!end) end = p + strlen(p);
    /* Only the first table: it ends at the first line that is not a row. */
    int in_table = 0;
    for (const char *line = p; line && line < end; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (line[0] == '|') in_table = 1;
        else if (in_table) break;
        if (strncmp(line, "| `", 3)) continue;
        const char *q = strchr(line + 3, '`');
        if (!q || q - line > 80) continue;
        size_t len = strlen(list);
        snprintf(list + len, size - len, "%.*s ", (int)(q - line - 3), line + 3);
    }
}

static int in_list(const char *list, const char *name)
{
    char w[160];
    snprintf(w, sizeof w, "%.150s ", name);
    for (const char *p = list; (p = strstr(p, w)) != NULL; p++)
        if (p == list || p[-1] == ' ') return 1;
    return 0;
}

/* Each documented name "x" is a top-level key of the sample data and each
 * "x[].m" a member of its first element; and the reverse. */
static void check_against_readme(const prompt_case *c, const char *list)
{
    cJSON *data = cJSON_Parse(c->data);
    if (!data) return;
    char name[128];
    for (const cJSON *it = data->child; it; it = it->next) {
        if (!in_list(list, it->string))
            th_fail(__FILE__, __LINE__, "%s: '%s' not in README", c->file, it->string);
        const cJSON *first = cJSON_IsArray(it) ? it->child : NULL;
        if (!cJSON_IsObject(first)) continue;
        for (const cJSON *m = first->child; m; m = m->next) {
            snprintf(name, sizeof name, "%s[].%s", it->string, m->string);
            if (!in_list(list, name))
                th_fail(__FILE__, __LINE__, "%s: '%s' not in README", c->file, name);
        }
    }
    for (const char *p = list; *p;) {
        const char *sp = strchr(p, ' ');
        snprintf(name, sizeof name, "%.*s", (int)(sp - p), p);
        p = sp + 1;
        /* "a[].b[].c": each level the first element of a list */
        char path[128];
        snprintf(path, sizeof path, "%s", name);
        const cJSON *v = data;
        char *seg = name;
        for (;;) {
            char *br = strstr(seg, "[].");
            if (br) *br = 0;
            v = cJSON_GetObjectItemCaseSensitive(v, seg);
            if (!br || !cJSON_IsArray(v)) break;
            v = v->child;
            seg = br + 3;
        }
        if (!v)
            th_fail(__FILE__, __LINE__, "%s: README lists '%s', the %s", c->file, path,
                    strstr(path, "[].") ? "sample lacks it" : "test does not set it");
    }
    cJSON_Delete(data);
}

TEST(prompts_variables_match_readme)
{
    FILE *f = fopen(th_path("config/prompts/README.md"), "r");
    REQUIRE(f);
    static char readme[65536];
    size_t n = fread(readme, 1, sizeof readme - 1, f);
    fclose(f);
    readme[n] = 0;
    REQUIRE(n > 0 && n < sizeof readme - 1);
    for (int i = 0; i < NCASES; i++) {
        char list[2048];
        readme_names(readme, cases[i].file, list, sizeof list);
        if (!list[0]) {
            th_fail(__FILE__, __LINE__, "README has no variable table for %s", cases[i].file);
            continue;
        }
        check_against_readme(&cases[i], list);
    }
}

/* A value that contains tags is inserted verbatim, never expanded. */
TEST(prompts_values_are_not_templates)
{
    gn_err e;
    cJSON *data = cJSON_Parse(cases[0].data);
    REQUIRE(data);
    cJSON_ReplaceItemInObjectCaseSensitive(data, "question", cJSON_CreateString("what is {{x}}?"));
    char *out = render_json("answer.prompt", data, &e);
    REQUIRE(out);
    CHECK_CONTAINS(out, "Question: what is {{x}}?");
    free(out);
    cJSON_Delete(data);
}
