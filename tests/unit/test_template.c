/*
 * test_template.c — prompt templates: every construct, outer-name
 * resolution, standalone lines, each error with its exact position, the
 * render limits, and the override order of llm_tpl_load.
 */
#include "harness.h"
#include "llm/template.h"

#include <stdlib.h>
#include <sys/stat.h>

/* Render TEXT with DATA (JSON text); returns a static string: the output,
 * or "ERR <code> <line>:<col> <message>" on failure. */
static const char *render(const char *text, const char *data)
{
    static char res[4096];
    gn_err e;
    llm_tpl *t;
    gn_err_clear(&e);
    if (llm_tpl_parse("t.prompt", text, &t, &e) == 0) {
        cJSON *d = cJSON_Parse(data);
        gn_buf b;
        gn_buf_init(&b);
        if (llm_tpl_render(t, d, &b, &e) == 0) snprintf(res, sizeof res, "%s", b.data);
        gn_buf_release(&b);
        cJSON_Delete(d);
        llm_tpl_free(t);
    }
    if (e.code)
        snprintf(res, sizeof res, "ERR %d %d:%d %s", e.code, e.line, e.col, e.msg);
    return res;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

TEST(template_variables_and_paths)
{
    const char *d = "{\"name\":\"Ada\",\"a\":{\"b\":{\"c\":\"deep\"}},"
                    "\"list\":[\"x\",{\"t\":\"y\"}],\"@k\":\"odd key\"}";
    CHECK_STR(render("Hi {{name}}!", d), "Hi Ada!");
    CHECK_STR(render("{{ name }}|{{a.b.c}}|{{ a.b.c }}", d), "Ada|deep|deep");
    CHECK_STR(render("{{&name}} {{{name}}} {{{ name }}}", d), "Ada Ada Ada");
    CHECK_STR(render("{{list.0}} {{list.1.t}} {{@k}}", d), "x y odd key");
    CHECK_STR(render("no tags { at } all }}", d), "no tags { at } all }}");
    CHECK_STR(render("", d), "");
}

TEST(template_value_formatting)
{
    const char *d = "{\"i\":42,\"neg\":-7,\"f\":0.1,\"g\":2.50,\"big\":1e20,\"tiny\":2.5e-7,"
                    "\"z\":-0.0,\"t\":true,\"no\":false,\"nil\":null,"
                    "\"o\":{\"a\":[1,2],\"b\":\"s\"},\"arr\":[1,\"two\"]}";
    CHECK_STR(render("{{i}} {{neg}} {{f}} {{g}} {{z}}", d), "42 -7 0.1 2.5 0");
    CHECK_STR(render("{{big}} {{tiny}}", d), "1e+20 2.5e-07");
    CHECK_STR(render("{{t}} {{no}} [{{nil}}]", d), "true false []");
    CHECK_STR(render("{{o}} {{arr}}", d), "{\"a\":[1,2],\"b\":\"s\"} [1,\"two\"]");
}

TEST(template_no_escaping_and_no_reparse)
{
    const char *d = "{\"h\":\"<b>&\\\"'</b>\",\"inj\":\"{{h}} {{#x}}\"}";
    CHECK_STR(render("{{h}}", d), "<b>&\"'</b>");
    CHECK_STR(render("[{{inj}}]", d), "[{{h}} {{#x}}]");
}

TEST(template_section_list_with_outer_names)
{
    const char *d = "{\"who\":\"Bob\",\"sep\":\";\",\"items\":[{\"n\":\"a\"},{\"n\":\"b\",\"who\":\"Eve\"}],"
                    "\"tags\":[\"x\",\"y\"],"
                    "\"rows\":[{\"cells\":[1,2]},{\"cells\":[3]}]}";
    CHECK_STR(render("{{#items}}{{n}}:{{who}}{{sep}}{{/items}}", d), "a:Bob;b:Eve;");
    CHECK_STR(render("{{#tags}}<{{.}}>{{/tags}}", d), "<x><y>");
    CHECK_STR(render("{{#rows}}[{{#cells}}{{.}}{{who}}{{/cells}}]{{/rows}}", d),
              "[1Bob2Bob][3Bob]");
    /* the inner item's names are gone once its section ends */
    CHECK_STR(render("{{#items}}{{/items}}{{n}}", d), "ERR 6 1:21 undefined variable 'n'");
    /* a dotted name resolves its first segment outward, the rest inside */
    CHECK_STR(render("{{#items}}{{items.0.n}}{{/items}}", d), "aa");
}

TEST(template_section_truthiness)
{
    const char *d = "{\"t\":true,\"f\":false,\"n\":null,\"e\":[],\"es\":\"\",\"zero\":0,"
                    "\"s\":\"Bob\",\"o\":{\"k\":\"v\"},\"eo\":{}}";
    CHECK_STR(render("{{#t}}T{{.}}{{/t}}{{#f}}F{{/f}}{{#n}}N{{/n}}{{#e}}E{{/e}}{{#es}}S{{/es}}", d),
              "Ttrue");
    CHECK_STR(render("{{#zero}}z={{.}}{{/zero}}|{{#s}}hi {{.}}{{/s}}", d), "z=0|hi Bob");
    CHECK_STR(render("{{#o}}{{k}}{{/o}}|{{#eo}}empty obj{{/eo}}", d), "v|empty obj");
}

TEST(template_inverted_sections)
{
    const char *d = "{\"t\":true,\"f\":false,\"n\":null,\"e\":[],\"es\":\"\",\"l\":[1],\"who\":\"X\"}";
    CHECK_STR(render("{{^f}}F{{/f}}{{^n}}N{{/n}}{{^e}}E{{/e}}{{^es}}S{{/es}}", d), "FNES");
    CHECK_STR(render("{{^t}}no{{/t}}{{^l}}no{{/l}}.", d), ".");
    CHECK_STR(render("{{#l}}{{^f}}{{who}}{{.}}{{/f}}{{/l}}", d), "X1");
}

TEST(template_comments_and_literal_braces)
{
    const char *d = "{\"x\":\"v\"}";
    CHECK_STR(render("a{{! a comment }}b{{!multi\nline\n}}c", d), "abc");
    CHECK_STR(render("{{ ! spaced comment }}ok", d), "ok");
    CHECK_STR(render("{{'{{'}}x{{\"}}\"}} {{'{{x}}'}}={{x}}", d), "{{x}} {{x}}=v");
    CHECK_STR(render("json: {\"a\": {\"b\": 1}}", d), "json: {\"a\": {\"b\": 1}}");
}

TEST(template_standalone_lines)
{
    const char *d = "{\"items\":[\"a\",\"b\"],\"f\":false,\"x\":\"v\"}";
    CHECK_STR(render("Items:\n{{#items}}\n- {{.}}\n{{/items}}\nEnd\n", d),
              "Items:\n- a\n- b\nEnd\n");
    CHECK_STR(render("  {{#items}}  \n  * {{.}}\n\t{{/items}}\nEnd", d), "  * a\n  * b\nEnd");
    CHECK_STR(render("A\r\n{{^f}}\r\nB\r\n{{/f}}\r\nC", d), "A\r\nB\r\nC");
    CHECK_STR(render("A\n{{! note\n   over lines }}\nB\n", d), "A\nB\n");
    CHECK_STR(render("A\n{{#items}}{{/items}}\nB", d), "A\n\nB");   /* two tags: not standalone */
    CHECK_STR(render("A\n{{x}}\nB", d), "A\nv\nB");                 /* variables never are */
    CHECK_STR(render("A {{#f}}\nB{{/f}} C", d), "A  C");           /* text on the line */
    CHECK_STR(render("{{#items}}\n{{.}}\n{{/items}}", d), "a\nb\n");  /* start and end of text */
}

TEST(template_undefined_variable_position)
{
    const char *text = "System prompt.\n\n\n\n\n\n\n\n\n\n\nQ:  {{question}}\n";
    llm_tpl *t;
    gn_err e;
    REQUIRE(llm_tpl_parse("answer.prompt", text, &t, &e) == 0);
    CHECK_STR(llm_tpl_name(t), "answer.prompt");
    cJSON *d = cJSON_Parse("{\"q\":1}");
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "kept");
    CHECK_INT(llm_tpl_render(t, d, &b, &e), GN_ENOTFOUND);
    CHECK_STR(b.data, "kept");
    char s[1100];
    CHECK_STR(gn_err_str(&e, s, sizeof s), "answer.prompt:12:5: undefined variable 'question'");
    CHECK_INT(llm_tpl_render(t, NULL, &b, &e), GN_ENOTFOUND);
    gn_buf_release(&b);
    cJSON_Delete(d);
    llm_tpl_free(t);

    const char *d2 = "{\"a\":{\"b\":{\"c\":1}},\"s\":\"str\",\"l\":[1]}";
    CHECK_STR(render("x\n {{a.b.d}}", d2),
              "ERR 6 2:2 undefined variable 'a.b.d': 'a.b' has no member 'd'");
    CHECK_STR(render("{{s.len}}", d2), "ERR 6 1:1 undefined variable 's.len': 's' has no member 'len'");
    CHECK_STR(render("{{l.1}}", d2), "ERR 6 1:1 undefined variable 'l.1': 'l' has no member '1'");
    CHECK_STR(render("ok {{#nope}}x{{/nope}}", d2), "ERR 6 1:4 undefined variable 'nope'");
    CHECK_STR(render("{{^nope}}x{{/nope}}", d2), "ERR 6 1:1 undefined variable 'nope'");
    /* columns count characters, not bytes */
    CHECK_STR(render("\xc3\xa9t\xc3\xa9 {{zz}}", d2), "ERR 6 1:5 undefined variable 'zz'");
}

TEST(template_parse_errors_positions)
{
    static const struct { const char *text; const char *want; } cases[] = {
        { "a\n  {{#s}}x", "ERR 3 2:3 unclosed section 's'" },
        { "{{#a}}{{#b}}\n{{/a}}", "ERR 3 2:1 '{{/a}}' does not match the open section 'b' (opened at 1:7)" },
        { "x {{/a}}", "ERR 3 1:3 '{{/a}}' closes nothing: no section is open" },
        { "ab\ncd {{name\n}}", "ERR 3 2:4 unterminated tag: no '}}' on the same line" },
        { "{{name", "ERR 3 1:1 unterminated tag: no '}}' on the same line" },
        { "{{{name}}", "ERR 3 1:1 unterminated tag: no '}}}' on the same line" },
        { "z\n\n {{! never closed", "ERR 3 3:2 unterminated comment: no '}}'" },
        { "{{'abc}}", "ERR 3 1:1 unterminated literal: no closing '" },
        { "{{'abc' x}}", "ERR 3 1:1 expected '}}' after the quoted literal" },
        { "a{{ }}", "ERR 3 1:2 empty tag" },
        { "{{#}}{{/}}", "ERR 3 1:1 empty tag" },
        { "{{first name}}", "ERR 3 1:1 invalid name 'first name'" },
        { "{{a..b}}", "ERR 3 1:1 invalid name 'a..b'" },
        { "{{.a}}", "ERR 3 1:1 invalid name '.a'" },
        { "{{> other}}", "ERR 3 1:1 partials ('{{>') are not supported" },
        { "{{=<% %>=}}", "ERR 3 1:1 delimiter changes ('{{=') are not supported; "
                         "write {{'{{'}} for literal braces" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_STR(render(cases[i].text, "{}"), cases[i].want);
    llm_tpl *t = (llm_tpl *)1;
    gn_err e;
    CHECK_INT(llm_tpl_parse("p", "{{#a}}", &t, &e), GN_EPARSE);
    CHECK(t == NULL);
    CHECK_STR(e.file, "p");
}

TEST(template_nesting_limit)
{
    gn_buf ok, deep;
    gn_buf_init(&ok);
    gn_buf_init(&deep);
    for (int i = 0; i < LLM_TPL_MAX_DEPTH; i++) gn_buf_puts(&ok, "{{#a}}");
    gn_buf_puts(&ok, "{{x}}");
    for (int i = 0; i < LLM_TPL_MAX_DEPTH; i++) gn_buf_puts(&ok, "{{/a}}");
    CHECK_STR(render(ok.data, "{\"a\":true,\"x\":1}"), "1");
    for (int i = 0; i <= LLM_TPL_MAX_DEPTH; i++) gn_buf_puts(&deep, "{{#a}}\n");
    char want[128];
    snprintf(want, sizeof want, "ERR %d %d:1 sections nested deeper than %d", GN_ELIMIT,
             LLM_TPL_MAX_DEPTH + 1, LLM_TPL_MAX_DEPTH);
    CHECK_STR(render(deep.data, "{}"), want);
    gn_buf_release(&ok);
    gn_buf_release(&deep);
}

TEST(template_output_and_step_limits)
{
    llm_tpl *t;
    gn_err e;
    REQUIRE(llm_tpl_parse("lim", "{{#l}}\n{{#l}}{{#l}}{{#l}}0123456789{{/l}}{{/l}}{{/l}}{{/l}}",
                          &t, &e) == 0);
    cJSON *d = cJSON_CreateObject(), *l = cJSON_AddArrayToObject(d, "l");
    for (int i = 0; i < 1000; i++) cJSON_AddItemToArray(l, cJSON_CreateNumber(i));
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "pre");
    /* 10^13 bytes if unbounded: stops at the default 4 MiB */
    CHECK_INT(llm_tpl_render(t, d, &b, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "output exceeds the limit of 4194304 bytes");
    CHECK_STR(e.file, "lim");
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 19);
    CHECK_STR(b.data, "pre");
    llm_tpl_set_limits(t, 25, 0);
    cJSON *small = cJSON_Parse("{\"l\":[1,2]}");
    CHECK_INT(llm_tpl_render(t, small, &b, &e), GN_ELIMIT);   /* 160 bytes > 25 */
    llm_tpl_set_limits(t, 160, 0);
    CHECK_INT(llm_tpl_render(t, small, &b, &e), 0);
    CHECK_INT(b.len, 163);
    llm_tpl_free(t);

    /* no output at all, yet 10^12 iterations: the step budget stops it */
    REQUIRE(llm_tpl_parse("spin", "{{#l}}{{#l}}{{#l}}{{#l}}{{/l}}{{/l}}{{/l}}{{/l}}", &t, &e) == 0);
    CHECK_INT(llm_tpl_render(t, d, &b, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "rendering exceeds the limit of 16777216 steps");
    CHECK_INT(b.len, 163);
    llm_tpl_set_limits(t, 0, 6);   /* 3 tags + 3 entries: the 4th tag is step 7 */
    CHECK_INT(llm_tpl_render(t, small, &b, &e), GN_ELIMIT);
    CHECK_STR(e.msg, "rendering exceeds the limit of 6 steps");
    CHECK_INT(e.col, 19);
    llm_tpl_free(t);
    gn_buf_release(&b);
    cJSON_Delete(small);
    cJSON_Delete(d);
}

TEST(template_compile_once_render_many)
{
    llm_tpl *t;
    gn_err e;
    REQUIRE(llm_tpl_parse(NULL, "[{{#xs}}{{.}}{{/xs}}]", &t, &e) == 0);
    CHECK_STR(llm_tpl_name(t), "<template>");
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < 3; i++) {
        char js[64];
        snprintf(js, sizeof js, "{\"xs\":[%d,%d]}", i, i + 1);
        cJSON *d = cJSON_Parse(js);
        CHECK_INT(llm_tpl_render(t, d, &b, &e), 0);
        cJSON_Delete(d);
    }
    CHECK_STR(b.data, "[01][12][23]");
    gn_buf_release(&b);
    llm_tpl_free(t);
    llm_tpl_free(NULL);
}

TEST(template_load_override_order)
{
    char user[600], shipped[600], p[700];
    snprintf(user, sizeof user, "%s/user", th_tmpdir());
    snprintf(shipped, sizeof shipped, "%s/shipped/", th_tmpdir());
    mkdir(user, 0700);
    mkdir(shipped, 0700);
    snprintf(p, sizeof p, "%sa.prompt", shipped);
    write_file(p, "shipped A {{x}}");
    snprintf(p, sizeof p, "%sb.prompt", shipped);
    write_file(p, "shipped B");
    snprintf(p, sizeof p, "%s/b.prompt", user);
    write_file(p, "user B\n{{#x}}");
    snprintf(p, sizeof p, "%s/c.prompt", user);
    mkdir(p, 0700);

    const char *dirs[3] = { NULL, user, shipped };
    llm_tpl *t;
    gn_err e;
    gn_buf b;
    gn_buf_init(&b);
    cJSON *d = cJSON_Parse("{\"x\":1}");
    REQUIRE(llm_tpl_load(dirs, 3, "a.prompt", &t, &e) == 0);
    CHECK(llm_tpl_render(t, d, &b, &e) == 0);
    CHECK_STR(b.data, "shipped A 1");
    CHECK_CONTAINS(llm_tpl_name(t), "shipped/a.prompt");
    llm_tpl_free(t);

    /* the user's copy wins; its errors name its full path */
    CHECK_INT(llm_tpl_load(dirs, 3, "b.prompt", &t, &e), GN_EPARSE);
    CHECK(t == NULL);
    snprintf(p, sizeof p, "%s/b.prompt", user);
    CHECK_STR(e.file, p);
    CHECK_INT(e.line, 2);
    CHECK_STR(e.msg, "unclosed section 'x'");
    CHECK_INT(llm_tpl_load(dirs + 2, 1, "b.prompt", &t, &e), 0);
    llm_tpl_free(t);

    CHECK_INT(llm_tpl_load(dirs, 3, "zz.prompt", &t, &e), GN_ENOTFOUND);
    char want[1500];
    snprintf(want, sizeof want, "prompt template 'zz.prompt' not found in: %s, %s", user, shipped);
    CHECK_STR(e.msg, want);
    CHECK_INT(llm_tpl_load(dirs, 1, "zz.prompt", &t, &e), GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "(no directories)");
    CHECK_INT(llm_tpl_load(dirs, 3, "c.prompt", &t, &e), GN_EIO);
    CHECK_CONTAINS(e.msg, "is a directory");
    CHECK_INT(llm_tpl_load(dirs, 3, "../shipped/a.prompt", &t, &e), GN_EUSAGE);
    CHECK_INT(llm_tpl_load(dirs, 3, "/etc/passwd", &t, &e), GN_EUSAGE);
    CHECK_INT(llm_tpl_load(dirs, 3, "", &t, &e), GN_EUSAGE);
    gn_buf_release(&b);
    cJSON_Delete(d);
}

TEST(template_load_size_limit)
{
    char dir[600], p[700];
    snprintf(dir, sizeof dir, "%s", th_tmpdir());
    snprintf(p, sizeof p, "%s/big.prompt", dir);
    FILE *f = fopen(p, "w");
    REQUIRE(f != NULL);
    for (size_t i = 0; i <= LLM_TPL_MAX_FILE / 64; i++)
        fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
    fclose(f);
    const char *dirs[1] = { dir };
    llm_tpl *t;
    gn_err e;
    CHECK_INT(llm_tpl_load(dirs, 1, "big.prompt", &t, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "big.prompt");
}
