/* test_config.c — the options table, loading layers and their precedence,
 * every error and warning form, XDG paths, and the text renderers.
 * The environment is always injected, never the real one. */
#include "harness.h"
#include "../../config/config.h"
#include "../../engine/util/xmem.h"

#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

/* ---- helpers --------------------------------------------------------- */

static const char *write_file(const char *name, const char *text)
{
    static char paths[4][1024];
    static int k;
    char *p = paths[k++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", th_tmpdir(), name);
    FILE *f = fopen(p, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return p;
}

/* Runs cfg_load with env (NULL-terminated) and the NULL-terminated flags
 * after the program name. */
static int load(cfg_t *c, const char *const *env, gn_err *e, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = xstrdup("genie");
    va_list ap;
    va_start(ap, e);
    for (const char *a; argc < 31 && (a = va_arg(ap, const char *));)
        argv[argc++] = xstrdup(a);
    va_end(ap);
    argv[argc] = NULL;
    cfg_set_environ(c, env);
    int rc = cfg_load(c, argc, argv, e);
    for (int i = 0; i < argc; i++) free(argv[i]);
    return rc;
}

/* An environment whose HOME is the scratch dir, plus up to 4 extras. */
static const char *const *env_home(const char *a, const char *b, const char *c)
{
    static char home[1100];
    static const char *env[8];
    snprintf(home, sizeof home, "HOME=%s", th_tmpdir());
    int n = 0;
    env[n++] = home;
    if (a) env[n++] = a;
    if (b) env[n++] = b;
    if (c) env[n++] = c;
    env[n] = NULL;
    return env;
}

/* The default config file location under env_home(). */
static const char *default_config(const char *text)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/.config/genie", th_tmpdir());
    if (cfg_mkdirs(dir, NULL)) return NULL;
    return write_file(".config/genie/config.ini", text);
}

static const char *errstr(const gn_err *e)
{
    static char buf[1200];
    return gn_err_str(e, buf, sizeof buf);
}

static int has_warning(const cfg_t *c, const char *needle)
{
    size_t n;
    const char *const *w = cfg_warnings(c, &n);
    for (size_t i = 0; i < n; i++)
        if (strstr(w[i], needle)) return 1;
    return 0;
}

/* ---- the table -------------------------------------------------------- */

TEST(config_table_is_consistent)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = cfg_opt(i);
        REQUIRE(o->group && o->help);
        /* A row without a flag must be settable some other way. */
        REQUIRE(o->name || (o->section && o->key));
        if (o->name) CHECK_INT(cfg_opt_by_name(o->name), i);
        if (o->section) CHECK(o->key != NULL);
        if (o->type == CFG_ACTION) CHECK(!o->key && !o->section && !o->arg);
        if (o->type == CFG_ENUM) CHECK(o->values && o->values[0]);
        if (o->section) CHECK_INT(cfg_opt_by_key(o->section, o->key), i);
        for (int j = 0; j < i; j++) {
            const cfg_option *p = cfg_opt(j);
            if (o->shortopt) CHECK(o->shortopt != p->shortopt);
            if (o->key && p->key) CHECK(strcmp(o->key, p->key) != 0);
        }
    }
    char env[CFG_ENV_MAX];
    CHECK_STR(cfg_opt_env(OPT_TOP_K, env, sizeof env), "GENIE_TOP_K");
    CHECK_STR(cfg_opt_env(OPT_CONFIG, env, sizeof env), "GENIE_CONFIG");
    CHECK(cfg_opt_env(OPT_HELP, env, sizeof env) == NULL);
    CHECK_INT(cfg_opt_by_key("Retrieval", "ef-search"), OPT_EF_SEARCH);
    CHECK_INT(cfg_opt_by_key("general", "ef_search"), -1);
}

TEST(config_defaults)
{
    cfg_t *c = cfg_new();
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    CHECK_INT(cfg_int(c, OPT_EF_SEARCH), 64);
    CHECK_INT(cfg_int(c, OPT_HNSW_THRESHOLD), 200000);
    CHECK_STR(cfg_str(c, OPT_EMBEDDER), "glove");
    CHECK_STR(cfg_str(c, OPT_EMBED_MODEL), "text-embedding-3-small");
    CHECK_STR(cfg_str(c, OPT_DB), "");
    CHECK(cfg_double(c, OPT_FUSION_DENSE_WEIGHT) == 0.5);
    CHECK_INT(cfg_bool(c, OPT_QUIET), 0);
    CHECK_STR(cfg_source(c, OPT_TOP_K), "default");
    CHECK_INT(cfg_action(c), CFG_RUN);
    cfg_free(c);
    cfg_free(NULL);
}

/* A default the C library reads otherwise (LC_NUMERIC left at a comma
 * locale by the program) fails the load with a message, not an abort;
 * the accessors still answer. */
TEST(config_default_rejected_is_an_error)
{
    char saved[256];
    snprintf(saved, sizeof saved, "%s", setlocale(LC_NUMERIC, NULL));
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
        th_fail(__FILE__, __LINE__, "de_DE.UTF-8: no such locale (scripts/setup.sh generates it)");
        return;
    }
    cfg_t *c = cfg_new();
    gn_err e;
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "--version", NULL), GN_ECORRUPT);
    CHECK_STR(e.msg, "bug: the default of option 'fusion-dense-weight' is rejected: "
              "invalid number '0.5' (LC_NUMERIC is de_DE.UTF-8)");
    CHECK_STR(cfg_text(c, OPT_FUSION_DENSE_WEIGHT), "0.5");
    CHECK_STR(cfg_source(c, OPT_TEMPERATURE), "default");
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    cfg_free(c);
    setlocale(LC_NUMERIC, saved);
}

/* ---- precedence ------------------------------------------------------- */

TEST(config_precedence_default_file_env_flag)
{
    const char *path = default_config(
        "[general]\ntop_k = 7\n"
        "[retrieval]\nef_search = 100\nembed_model = from-file\nhnsw_m = 16\n");
    REQUIRE(path);
    cfg_t *c = cfg_new();
    gn_err e;
    int rc = load(c, env_home("GENIE_EF_SEARCH=200", "GENIE_EMBED_MODEL=from-env", NULL),
                  &e, "--embed-model", "from-flag", NULL);
    REQUIRE(rc == 0);
    CHECK_INT(cfg_int(c, OPT_RRF_K), 60);
    CHECK_STR(cfg_source(c, OPT_RRF_K), "default");
    CHECK_INT(cfg_int(c, OPT_HNSW_M), 16);
    char want[1200];
    snprintf(want, sizeof want, "file %s:6", path);
    CHECK_STR(cfg_source(c, OPT_HNSW_M), want);
    CHECK_INT(cfg_source_kind(c, OPT_HNSW_M), CFG_SRC_FILE);
    CHECK_INT(cfg_int(c, OPT_EF_SEARCH), 200);
    CHECK_STR(cfg_source(c, OPT_EF_SEARCH), "env GENIE_EF_SEARCH");
    CHECK_STR(cfg_str(c, OPT_EMBED_MODEL), "from-flag");
    CHECK_STR(cfg_source(c, OPT_EMBED_MODEL), "flag --embed-model");
    CHECK_INT(cfg_int(c, OPT_TOP_K), 7);
    CHECK(cfg_file_loaded(c));
    CHECK_STR(cfg_file(c), path);
    CHECK_STR(cfg_str(c, OPT_CONFIG), path);
    cfg_free(c);
}

TEST(config_flags_short_long_and_bools)
{
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "-qk5", "--no-color",
                 "--fusion-dense-weight=0.25", "--embedder", "remote", NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 5);
    CHECK_STR(cfg_source(c, OPT_TOP_K), "flag --top-k");
    CHECK_INT(cfg_bool(c, OPT_QUIET), 1);
    CHECK_INT(cfg_bool(c, OPT_NO_COLOR), 1);
    CHECK(cfg_double(c, OPT_FUSION_DENSE_WEIGHT) == 0.25);
    CHECK_STR(cfg_str(c, OPT_EMBEDDER), "remote");
    static const char *const yes[] = { "1", "true", "YES", "on" };
    static const char *const no[] = { "0", "False", "no", "off" };
    for (int i = 0; i < 4; i++) {
        char a[40], b[40];
        snprintf(a, sizeof a, "--quiet=%s", yes[i]);
        snprintf(b, sizeof b, "--no-color=%s", no[i]);
        REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, a, b, NULL) == 0);
        CHECK_INT(cfg_bool(c, OPT_QUIET), 1);
        CHECK_INT(cfg_bool(c, OPT_NO_COLOR), 0);
    }
    cfg_free(c);
}

TEST(config_no_color_variable)
{
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home("NO_COLOR=1", NULL, NULL), &e, NULL) == 0);
    CHECK_INT(cfg_bool(c, OPT_NO_COLOR), 1);
    CHECK_STR(cfg_source(c, OPT_NO_COLOR), "env NO_COLOR");
    REQUIRE(load(c, env_home("NO_COLOR=1", "GENIE_NO_COLOR=no", NULL), &e, NULL) == 0);
    CHECK_INT(cfg_bool(c, OPT_NO_COLOR), 0);
    REQUIRE(load(c, env_home("NO_COLOR=", NULL, NULL), &e, NULL) == 0);
    CHECK_INT(cfg_bool(c, OPT_NO_COLOR), 0);
    cfg_free(c);
}

TEST(config_reload_resets_and_keeps_argv)
{
    cfg_t *c = cfg_new();
    gn_err e;
    char *argv[] = { xstrdup("genie"), xstrdup("stray"), xstrdup("--schema"), xstrdup("-k"),
                     xstrdup("3"), NULL };
    cfg_set_environ(c, env_home(NULL, NULL, NULL));
    CHECK_INT(cfg_load(c, 5, argv, &e), GN_EUSAGE);
    /* GNU getopt permutes; cfg_load works on a copy. */
    CHECK_STR(argv[1], "stray");
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "-k", "3", NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 3);
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    for (int i = 0; argv[i]; i++) free(argv[i]);
    cfg_free(c);
}

TEST(config_actions)
{
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "--print-config", "-V", NULL) == 0);
    CHECK_INT(cfg_action(c), CFG_VERSION);
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "--reindex", "-s", "thai food", NULL) == 0);
    CHECK_INT(cfg_action(c), CFG_RUN);
    CHECK_INT(cfg_bool(c, OPT_REINDEX), 1);
    CHECK_STR(cfg_str(c, OPT_SEARCH), "thai food");
    /* --help works even when the config file and environment are broken. */
    REQUIRE(default_config("[general\n"));
    REQUIRE(load(c, env_home("GENIE_TOP_K=x", NULL, NULL), &e, "-h", NULL) == 0);
    CHECK_INT(cfg_action(c), CFG_HELP);
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "--print-config", NULL), GN_EPARSE);
    cfg_free(c);
}

/* ---- config file errors and warnings ---------------------------------- */

TEST(config_file_bad_value_has_position)
{
    const char *path = default_config("; comment\n[general]\ntop_k = 12x\n");
    REQUIRE(path);
    cfg_t *c = cfg_new();
    gn_err e;
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_STR(e.file, path);
    CHECK_INT(e.line, 3);
    CHECK_STR(e.msg, "key 'top_k': invalid integer '12x'");
    char want[1200];
    snprintf(want, sizeof want, "%s:3: key 'top_k': invalid integer '12x'", path);
    CHECK_STR(errstr(&e), want);
    default_config("[retrieval]\nfusion_dense_weight = 1.5\n");
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_STR(e.msg, "key 'fusion_dense_weight': 1.5 is out of range (0..1)");
    default_config("[retrieval]\nembedder = bert\n");
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_STR(e.msg, "key 'embedder': invalid value 'bert' (allowed: glove, remote)");
    CHECK_INT(e.line, 2);
    /* After a failed load every value is still valid. */
    CHECK_STR(cfg_str(c, OPT_EMBEDDER), "glove");
    cfg_free(c);
}

TEST(config_file_syntax_error_line)
{
    const char *path = default_config("[general]\ntop_k = 5\n\n[retrieval\nhnsw_m = 8\n");
    REQUIRE(path);
    cfg_t *c = cfg_new();
    gn_err e;
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_INT(e.line, 4);
    CHECK_CONTAINS(e.msg, "syntax error");
    CHECK_CONTAINS(e.msg, "'[retrieval'");
    /* The earlier of a syntax error and a bad value is reported. */
    default_config("[general]\nnovalue\ntop_k = x\n");
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_INT(e.line, 2);
    default_config("[general]\ntop_k = x\nnovalue\n");
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_EPARSE);
    CHECK_INT(e.line, 2);
    CHECK_CONTAINS(e.msg, "invalid integer 'x'");
    cfg_free(c);
}

TEST(config_file_warnings)
{
    const char *path = default_config(
        "db = a.db\n"                       /* 1: outside any section */
        "[general]\n"
        "topk = 3\n"                        /* 3: typo */
        "ef_search = 9\n"                   /* 4: wrong section */
        "[bogus]\n"
        "a = 1\n"                           /* 6: unknown section, once */
        "b = 2\n"
        "[general]\n"
        "  top_k = 4\n"                     /* 9: indented is fine */
        "top-k = 5\n");                     /* 10: repeated */
    REQUIRE(path);
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, NULL) == 0);
    size_t n;
    cfg_warnings(c, &n);
    CHECK_INT(n, 5);
    char w[1200];
    snprintf(w, sizeof w, "%s:1: key 'db' is outside any section", path);
    CHECK(has_warning(c, w));
    snprintf(w, sizeof w, "%s:3: unknown key 'topk' in [general] (did you mean "
             "[general] top_k?)", path);
    CHECK(has_warning(c, w));
    snprintf(w, sizeof w, "%s:4: key 'ef_search' belongs in [retrieval]", path);
    CHECK(has_warning(c, w));
    snprintf(w, sizeof w, "%s:6: unknown section [bogus]", path);
    CHECK(has_warning(c, w));
    snprintf(w, sizeof w, "%s:10: key 'top-k' was already set on line 9", path);
    CHECK(has_warning(c, w));
    CHECK_INT(cfg_int(c, OPT_TOP_K), 5);
    CHECK_INT(cfg_int(c, OPT_EF_SEARCH), 64);
    /* Warnings do not survive a reload. */
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "--config=", NULL) == 0);
    CHECK(cfg_warnings(c, &n)[0] == NULL);
    CHECK_INT(n, 0);
    cfg_free(c);
}

TEST(config_file_limits)
{
    cfg_t *c = cfg_new();
    gn_err e;
    char line[400];
    snprintf(line, sizeof line, "[general]\ndb = %0250d\n", 0);
    REQUIRE(default_config(line));
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, NULL), GN_ELIMIT);
    CHECK_INT(e.line, 2);
    CHECK_CONTAINS(e.msg, "line too long");
    /* A long comment is only cut, not split into a bogus second line. */
    snprintf(line, sizeof line, "[general]\n; %0250d\ntop_k = 4\n", 0);
    REQUIRE(default_config(line));
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 4);
    const char *p = write_file("nul.ini", "[general]\n");
    FILE *f = fopen(p, "ab");
    REQUIRE(f);
    fputc(0, f);
    fclose(f);
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "-c", p, NULL), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "NUL byte");
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "-c", th_tmpdir(), NULL), GN_EIO);
    CHECK_CONTAINS(e.msg, "is a directory");
    cfg_free(c);
}

/* ---- which file ------------------------------------------------------- */

TEST(config_missing_files)
{
    cfg_t *c = cfg_new();
    gn_err e;
    /* No default file: fine. */
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, NULL) == 0);
    CHECK(!cfg_file_loaded(c));
    CHECK_CONTAINS(cfg_file(c), "/.config/genie/config.ini");
    /* A named file that is missing: an error, by flag or by variable. */
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "--config", "/nonexistent/x.ini", NULL), GN_EIO);
    CHECK_STR(e.msg, "cannot open config file '/nonexistent/x.ini': No such file or directory");
    CHECK_INT(load(c, env_home("GENIE_CONFIG=/nonexistent/y.ini", NULL, NULL), &e, NULL), GN_EIO);
    CHECK_CONTAINS(e.msg, "'/nonexistent/y.ini'");
    /* --config '' reads no file, even when the default exists. */
    REQUIRE(default_config("[general]\ntop_k = 9\n"));
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "--config=", NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    CHECK_STR(cfg_file(c), "");
    /* No HOME and no XDG_CONFIG_HOME: no default file, no error. */
    static const char *const bare[] = { "PATH=/bin", NULL };
    REQUIRE(load(c, bare, &e, NULL) == 0);
    CHECK_STR(cfg_file(c), "");
    cfg_free(c);
}

TEST(config_named_file_and_paths)
{
    const char *p = write_file("alt.ini", "[general]\ndb = kb/food.db\n"
                               "[retrieval]\nvectors = ~/vec.bin\n"
                               "embed_model = \"my model\"\n");
    REQUIRE(p);
    char env[1100];
    snprintf(env, sizeof env, "GENIE_CONFIG=%s", p);
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home(env, NULL, NULL), &e, NULL) == 0);
    char want[1200];
    snprintf(want, sizeof want, "%s/kb/food.db", th_tmpdir());
    CHECK_STR(cfg_str(c, OPT_DB), want);
    snprintf(want, sizeof want, "%s/vec.bin", th_tmpdir());
    CHECK_STR(cfg_str(c, OPT_VECTORS), want);
    CHECK_STR(cfg_source(c, OPT_CONFIG), "env GENIE_CONFIG");
    CHECK_STR(cfg_str(c, OPT_EMBED_MODEL), "my model");
    /* Flags: ~ expands, relative stays relative to the current directory. */
    REQUIRE(load(c, env_home(env, NULL, NULL), &e, "--db=rel.db", "--vectors=~", NULL) == 0);
    CHECK_STR(cfg_str(c, OPT_DB), "rel.db");
    CHECK_STR(cfg_str(c, OPT_VECTORS), th_tmpdir());
    cfg_free(c);
}

/* ---- environment and flag errors -------------------------------------- */

TEST(config_env_errors_name_the_variable)
{
    cfg_t *c = cfg_new();
    gn_err e;
    CHECK_INT(load(c, env_home("GENIE_TOP_K=12x", NULL, NULL), &e, NULL), GN_EUSAGE);
    CHECK_STR(e.msg, "environment variable GENIE_TOP_K: invalid integer '12x'");
    CHECK_INT(load(c, env_home("GENIE_EMBEDDER=bert", NULL, NULL), &e, NULL), GN_EUSAGE);
    CHECK_STR(e.msg, "environment variable GENIE_EMBEDDER: invalid value 'bert' "
              "(allowed: glove, remote)");
    CHECK_INT(load(c, env_home("GENIE_QUIET=maybe", NULL, NULL), &e, NULL), GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "GENIE_QUIET: invalid boolean 'maybe'");
    /* Empty counts as unset; a flag still overrides a variable. */
    REQUIRE(load(c, env_home("GENIE_TOP_K=", NULL, NULL), &e, NULL) == 0);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    CHECK_INT(load(c, env_home("GENIE_TOP_K=12x", NULL, NULL), &e, "-k", "2", NULL), GN_EUSAGE);
    cfg_free(c);
}

/* OPENAI_BASE_URL and OPENAI_API_KEY stand in for GENIE_LLM_URL and
 * GENIE_API_KEY when those are unset; the key has no flag at all. */
TEST(config_fallback_variables_and_flagless_key)
{
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home("OPENAI_BASE_URL=http://a/v1", "OPENAI_API_KEY=sk-1", NULL),
                 &e, NULL) == 0);
    CHECK_STR(cfg_str(c, OPT_LLM_URL), "http://a/v1");
    CHECK_STR(cfg_source(c, OPT_LLM_URL), "env OPENAI_BASE_URL");
    CHECK_STR(cfg_str(c, OPT_API_KEY), "sk-1");
    REQUIRE(load(c, env_home("OPENAI_BASE_URL=http://a/v1", "GENIE_LLM_URL=http://b/v1",
                             "GENIE_API_KEY=sk-2"), &e, NULL) == 0);
    CHECK_STR(cfg_str(c, OPT_LLM_URL), "http://b/v1");
    CHECK_STR(cfg_str(c, OPT_API_KEY), "sk-2");
    /* The flag beats both variables. */
    REQUIRE(load(c, env_home("OPENAI_BASE_URL=http://a/v1", NULL, NULL), &e,
                 "--llm-url", "http://c/v1", NULL) == 0);
    CHECK_STR(cfg_str(c, OPT_LLM_URL), "http://c/v1");
    /* A bad value in a fallback variable names that variable. */
    CHECK_INT(load(c, env_home("GENIE_LLM_CONCURRENCY=0", NULL, NULL), &e, NULL), GN_EUSAGE);
    CHECK_INT(load(c, env_home(NULL, NULL, NULL), &e, "--api-key=sk-3", NULL), GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "unknown option '--api-key'");
    /* --print-config hides it. */
    REQUIRE(load(c, env_home("OPENAI_API_KEY=sk-secret", NULL, NULL), &e, NULL) == 0);
    gn_buf b;
    gn_buf_init(&b);
    cfg_print(c, &b);
    CHECK_CONTAINS(b.data, "api_key = (set, hidden)");
    CHECK(!strstr(b.data, "sk-secret"));
    gn_buf_release(&b);
    cfg_free(c);
}

TEST(config_flag_errors)
{
    static const struct { const char *a, *b, *msg; } cases[] = {
        { "--bogus", NULL, "unknown option '--bogus'" },
        { "--topk=3", NULL, "unknown option '--topk' (did you mean '--top-k'?)" },
        { "--e", NULL, "option '--e' is ambiguous (could be --explain, --export-session, --editing-mode, --embedder, "
          "--embed-url, --embed-model, --embed-batch, --ef-search, --ef-construction)" },
        { "-x", NULL, "unknown option '-x'" },
        { "--top-k", NULL, "option '--top-k' requires an argument (N)" },
        { "-k", NULL, "option '-k' requires an argument (N)" },
        { "--help=yes", NULL, "option '--help' does not take an argument" },
        { "-k", "12x", "option '-k': invalid integer '12x'" },
        { "--top-k=0", NULL, "option '--top-k': 0 is out of range (1..1000)" },
        { "--ef-search", "99999999999999999999", "option '--ef-search': "
          "99999999999999999999 is out of range (1..4096)" },
        { "--fusion-dense-weight=nan", NULL, "option '--fusion-dense-weight': "
          "invalid number 'nan'" },
        { "--embedder", "bert", "option '--embedder': invalid value 'bert' "
          "(allowed: glove, remote)" },
        { "--quiet=2", NULL, "option '--quiet': invalid boolean '2' (use "
          "true/false, yes/no, on/off or 1/0)" },
        { "--schema", "italian", "unexpected argument 'italian' (to search the "
          "knowledge base, use --search TEXT)" },
        { "--reindex", "stray", "unexpected argument 'stray' (to search the knowledge "
          "base, use --search TEXT)" },
    };
    cfg_t *c = cfg_new();
    gn_err e;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = load(c, env_home(NULL, NULL, NULL), &e, cases[i].a, cases[i].b, NULL);
        CHECK_INT(rc, GN_EUSAGE);
        CHECK_STR(e.msg, cases[i].msg);
    }
    cfg_free(c);
}

/* ---- XDG -------------------------------------------------------------- */

TEST(config_xdg_dirs)
{
    cfg_t *c = cfg_new();
    gn_err e;
    const char *t = th_tmpdir();
    char want[1200];
    static const struct { enum cfg_xdg k; const char *sub; } fb[] = {
        { CFG_XDG_CONFIG, ".config" }, { CFG_XDG_DATA, ".local/share" },
        { CFG_XDG_STATE, ".local/state" }, { CFG_XDG_CACHE, ".cache" },
    };
    cfg_set_environ(c, env_home("XDG_STATE_HOME=relative/ignored", "XDG_DATA_HOME=", NULL));
    for (int i = 0; i < 4; i++) {
        char *p = cfg_xdg_dir(c, fb[i].k, &e);
        snprintf(want, sizeof want, "%s/%s/genie", t, fb[i].sub);
        CHECK_STR(p, want);
        free(p);
    }
    cfg_set_environ(c, env_home("XDG_DATA_HOME=/srv/data/", "XDG_CACHE_HOME=/var/c", NULL));
    char *p = cfg_xdg_dir(c, CFG_XDG_DATA, &e);
    CHECK_STR(p, "/srv/data/genie");
    free(p);
    p = cfg_xdg_dir(c, CFG_XDG_CACHE, &e);
    CHECK_STR(p, "/var/c/genie");
    free(p);
    static const char *const bare[] = { NULL };
    cfg_set_environ(c, bare);
    CHECK(cfg_xdg_dir(c, CFG_XDG_STATE, &e) == NULL);
    CHECK_INT(e.code, GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "XDG_STATE_HOME");
    cfg_free(c);
}

TEST(config_xdg_make_creates_private_dirs)
{
    cfg_t *c = cfg_new();
    gn_err e;
    cfg_set_environ(c, env_home(NULL, NULL, NULL));
    char *p = cfg_xdg_make(c, CFG_XDG_STATE, &e);
    REQUIRE(p);
    struct stat st;
    REQUIRE(stat(p, &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK_INT(st.st_mode & 0777, 0700);
    char *again = cfg_xdg_make(c, CFG_XDG_STATE, &e);
    CHECK_STR(again, p);
    free(again);
    free(p);
    /* A file in the way is reported. */
    char blocker[1100];
    snprintf(blocker, sizeof blocker, "%s/.cache", th_tmpdir());
    REQUIRE(write_file(".cache", "x"));
    CHECK(cfg_xdg_make(c, CFG_XDG_CACHE, &e) == NULL);
    CHECK_INT(e.code, GN_EIO);
    CHECK_CONTAINS(e.msg, blocker);
    CHECK_CONTAINS(e.msg, "not a directory");
    cfg_free(c);
}

/* ---- renderers -------------------------------------------------------- */

TEST(config_help_lists_every_option)
{
    gn_buf b;
    gn_buf_init(&b);
    cfg_help(&b);
    CHECK_CONTAINS(b.data, "Usage: genie");
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = cfg_opt(i);
        char s[CFG_ENV_MAX + 8];
        if (o->name) snprintf(s, sizeof s, "--%s", o->name);
        else snprintf(s, sizeof s, "[%s] %s", o->section, o->key);
        CHECK_CONTAINS(b.data, s);
        CHECK_CONTAINS(b.data, o->group);
        if (o->shortopt) {
            snprintf(s, sizeof s, "-%c, --%s", o->shortopt, o->name);
            CHECK_CONTAINS(b.data, s);
        }
        if (cfg_opt_env(i, s, sizeof s)) CHECK_CONTAINS(b.data, s);
    }
    CHECK_CONTAINS(b.data, "-k, --top-k=N");
    CHECK_CONTAINS(b.data, "--embedder=glove|remote");
    CHECK_CONTAINS(b.data, "default: 10 (1..1000); file: [general] top_k;");
    CHECK_CONTAINS(b.data, "Exit status:\n  0  success\n  1  runtime error\n  2  usage error");
    for (char *line = b.data; line; line = strchr(line, '\n')) {
        if (*line == '\n') line++;
        CHECK((int)strcspn(line, "\n") <= 79);
    }
    gn_buf_release(&b);
    gn_buf_init(&b);
    cfg_version(&b);
    CHECK(strncmp(b.data, "genie ", 6) == 0);
    gn_buf_release(&b);
}

TEST(config_print_shows_sources_and_reloads)
{
    const char *path = default_config("[retrieval]\nef_search = 100\n");
    REQUIRE(path);
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home("GENIE_HNSW_M=8", NULL, NULL), &e, "--top-k=3", NULL) == 0);
    gn_buf b;
    gn_buf_init(&b);
    cfg_print(c, &b);
    char want[1200];
    snprintf(want, sizeof want, "; file %s:2\n", path);
    CHECK_CONTAINS(b.data, want);
    snprintf(want, sizeof want, "; config file: %s (read)\n", path);
    CHECK_CONTAINS(b.data, want);
    CHECK_CONTAINS(b.data, "\ntop_k = 3 ");
    CHECK_CONTAINS(b.data, "; flag --top-k\n");
    CHECK_CONTAINS(b.data, "; env GENIE_HNSW_M\n");
    CHECK_CONTAINS(b.data, "\nrrf_k = 60 ");
    CHECK_CONTAINS(b.data, "[retrieval]\n");
    /* The output is a valid config file giving the same values. */
    const char *p = write_file("printed.ini", b.data);
    cfg_t *d = cfg_new();
    REQUIRE(load(d, env_home(NULL, NULL, NULL), &e, "-c", p, NULL) == 0);
    CHECK(cfg_warnings(d, NULL)[0] == NULL);
    for (int i = 0; i < OPT__COUNT; i++)
        if (cfg_opt(i)->section) CHECK_STR(cfg_text(d, i), cfg_text(c, i));
    cfg_free(d);
    gn_buf_release(&b);
    cfg_free(c);
}

TEST(config_secrets_are_hidden)
{
    cfg_option secret = *cfg_opt(OPT_EMBED_URL);
    secret.flags |= CFG_SECRET;
    gn_buf b;
    gn_buf_init(&b);
    cfg_format_value(&secret, "sk-123", &b);
    CHECK_STR(b.data, "(set, hidden)");
    gn_buf_reset(&b);
    cfg_format_value(&secret, "", &b);
    CHECK_STR(b.data, "");
    gn_buf_reset(&b);
    cfg_format_value(cfg_opt(OPT_EMBED_URL), "http://x/v1", &b);
    CHECK_STR(b.data, "http://x/v1");
    gn_buf_release(&b);
    /* A bad secret value is not echoed in the error. */
    cfg_option num = *cfg_opt(OPT_TOP_K);
    num.flags |= CFG_SECRET;
    cfg_value v = { 0 };
    char why[256];
    CHECK_INT(cfg_opt_parse(&num, "sk-12x", &v, why, sizeof why), -1);
    CHECK(!strstr(why, "sk-12x"));
    CHECK_CONTAINS(why, "secret");
    CHECK(v.text == NULL);
    /* Every row marked secret is hidden by --print-config. */
    cfg_t *c = cfg_new();
    gn_buf_init(&b);
    cfg_print(c, &b);
    for (int i = 0; i < OPT__COUNT; i++)
        if (cfg_opt(i)->flags & CFG_SECRET && *cfg_text(c, i))
            CHECK(!strstr(b.data, cfg_text(c, i)));
    gn_buf_release(&b);
    cfg_free(c);
}

/* config/config.ini.example is cfg_example()'s output; GENIE_UPDATE_GOLDEN=1
 * rewrites it.  Uncommented, it loads without warnings to the defaults. */
TEST(config_example_file_is_current)
{
    gn_buf b;
    gn_buf_init(&b);
    cfg_example(&b);
    const char *path = th_path("config/config.ini.example");
    if (getenv("GENIE_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "w");
        REQUIRE(f);
        fputs(b.data, f);
        fclose(f);
    }
    char *disk = th_read(path);
    CHECK(disk && !strcmp(disk, b.data));
    if (disk && strcmp(disk, b.data))
        th_fail(__FILE__, __LINE__, "%s is stale: run the unit tests with "
                "GENIE_UPDATE_GOLDEN=1", path);
    free(disk);
    gn_buf uncommented;
    gn_buf_init(&uncommented);
    for (const char *s = b.data; *s;) {
        size_t n = strcspn(s, "\n");
        int setting = s[0] == ';' && n > 1 && s[1] != ' ' && memchr(s, '=', n);
        gn_buf_add(&uncommented, s + setting, n - (size_t)setting);
        gn_buf_putc(&uncommented, '\n');
        s += n + (s[n] == '\n');
    }
    for (int i = 0; i < OPT__COUNT; i++) {
        char key[80];
        if (!cfg_opt(i)->section) continue;
        snprintf(key, sizeof key, "\n%s =", cfg_opt(i)->key);
        CHECK_CONTAINS(uncommented.data, key);
    }
    const char *p = write_file("example.ini", uncommented.data);
    cfg_t *c = cfg_new();
    gn_err e;
    REQUIRE(load(c, env_home(NULL, NULL, NULL), &e, "-c", p, NULL) == 0);
    CHECK(cfg_warnings(c, NULL)[0] == NULL);
    CHECK_INT(cfg_source_kind(c, OPT_TOP_K), CFG_SRC_FILE);
    CHECK_INT(cfg_int(c, OPT_TOP_K), 10);
    CHECK_STR(cfg_str(c, OPT_EMBED_MODEL), "text-embedding-3-small");
    cfg_free(c);
    gn_buf_release(&uncommented);
    gn_buf_release(&b);
}
