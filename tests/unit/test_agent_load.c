/*
 * test_agent_load.c — agent directories (agent.ini, the spec, apis.ini)
 * and the APIs they declare: loading and its errors (file, line, message),
 * the init SQL, SQL APIs (binding, results, all-or-nothing), transaction
 * ids, and HTTP APIs against tests/mock/api_server.py.
 *
 * Every test writes its agent directories under th_tmpdir().
 */
#include "harness.h"
#include "agent/agent_int.h"
#include "util/xmem.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A task worksheet without an API, and one naming API book_api. */
static const char csv_plain[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,"
    "Don't Ask,Required,Confirm,Actions,Form Actions\n"
    ",Book,,,worksheet,,,Book a table,,,,,\n"
    ",,,input,str,restaurant,,name of the restaurant,,TRUE,,,\n";
static const char csv_api[] =
    "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,"
    "Don't Ask,Required,Confirm,Actions,Form Actions\n"
    ",Book,,,worksheet,book_api,,Book a table,,,,,\n"
    ",,,input,str,restaurant,,name of the restaurant,,TRUE,,,\n";

static void put(const char *dir, const char *name, const char *text)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    } else {
        th_fail(__FILE__, __LINE__, "cannot write %s", p);
    }
    free(p);
}

/* A fresh agent directory under the test's tmpdir (caller frees). */
static char *agent_dir(const char *ini, const char *csv, const char *apis)
{
    static int n;
    char *dir = xasprintf("%s/agent%d", th_tmpdir(), ++n);
    mkdir(dir, 0700);
    if (ini) put(dir, "agent.ini", ini);
    if (csv) put(dir, "worksheet.csv", csv);
    if (apis) put(dir, "apis.ini", apis);
    return dir;
}

/* Load an agent made of these files; returns the status. */
static int load(const char *ini, const char *csv, const char *apis, ag_agent **a, gn_err *e)
{
    char *dir = agent_dir(ini, csv, apis);
    gn_err_clear(e);
    int rc = ag_agent_load(dir, a, e);
    free(dir);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

TEST(agent_load_valid)
{
    char *dir = agent_dir(
        "; a restaurant agent\n"
        "[agent]\n"
        "name = restaurants\n"
        "description = Finds restaurants\n"
        "   and books tables.\n"
        "greeting = Hi! I can help.   ; a comment\n"
        "database = ../restaurants.db\n"
        "init_sql = init.sql\n"
        "kb_examples = kb.txt\n"
        "prompts = prompts\n",
        csv_api,
        "[book_api]\n"
        "sql = INSERT INTO reservations(txn_id, restaurant)\n"
        "      VALUES (:txn_id, :restaurant)\n"
        "[check_weather]\n"
        "url = http://127.0.0.1:8080/weather\n"
        "method = get\n"
        "timeout = 2.5\n"
        "header = X-Api-Key: abc\n"
        "header = X-Other: d=e\n");
    put(dir, "init.sql", "CREATE TABLE IF NOT EXISTS t(x);\n");
    put(dir, "kb.txt", "example one\n");
    char *pd = xasprintf("%s/prompts", dir);
    mkdir(pd, 0700);
    ag_agent *a = NULL;
    gn_err e;
    int rc = ag_agent_load(dir, &a, &e);
    REQUIRE(rc == 0 || (printf("  %s:%d: %s\n", e.file, e.line, e.msg), 0));
    CHECK_STR(a->dir, dir);
    CHECK_STR(a->name, "restaurants");
    CHECK_STR(a->description, "Finds restaurants and books tables.");
    CHECK_STR(a->greeting, "Hi! I can help.");
    char *db = xasprintf("%s/../restaurants.db", dir);
    CHECK_STR(a->db_path, db);
    CHECK_STR(a->prompt_dir, pd);
    CHECK_STR(a->init_sql, "CREATE TABLE IF NOT EXISTS t(x);\n");
    CHECK_STR(a->kb_examples, "example one\n");
    REQUIRE(a->spec && a->spec->nsheets == 1);
    CHECK_STR(a->spec->sheets[0].api, "book_api");
    REQUIRE(a->napis == 2);
    const ag_api *b = ag_api_find(a, "book_api"), *w = ag_api_find(a, "check_weather");
    REQUIRE(b && w);
    CHECK(!ag_api_find(a, "Book_api"));
    CHECK_INT(b->kind, AG_API_SQL);
    CHECK_STR(b->sql, "INSERT INTO reservations(txn_id, restaurant)\n"
                      "VALUES (:txn_id, :restaurant)");
    CHECK_INT(b->line, 1);
    CHECK_INT(w->kind, AG_API_HTTP);
    CHECK_STR(w->url, "http://127.0.0.1:8080/weather");
    CHECK_INT(w->get, 1);
    CHECK(w->timeout == 2.5);
    REQUIRE(w->nheaders == 2);
    CHECK_STR(w->headers[0], "X-Api-Key: abc");
    CHECK_STR(w->headers[1], "X-Other: d=e");
    CHECK_INT(w->line, 4);
    ag_agent_free(a);
    free(db);
    free(pd);
    free(dir);
}

TEST(agent_load_defaults)
{
    /* Name from the directory, the JSON spec when there is no CSV, no
     * apis.ini, absolute paths kept. */
    char *dir = agent_dir("[agent]\ndatabase = /srv/x.db\n", NULL, NULL);
    put(dir, "worksheet.json", "{\"worksheets\": [{\"name\": \"Ask\", \"kind\": \"worksheet\", "
                               "\"fields\": [{\"name\": \"q\", \"kind\": \"input\", "
                               "\"type\": \"str\"}]}]}");
    ag_agent *a = NULL;
    gn_err e;
    int rc = ag_agent_load(dir, &a, &e);
    REQUIRE(rc == 0 || (printf("  %s:%d: %s\n", e.file, e.line, e.msg), 0));
    CHECK_STR(a->name, strrchr(dir, '/') + 1);
    CHECK_STR(a->db_path, "/srv/x.db");
    CHECK_STR(a->description, "");
    CHECK_STR(a->greeting, "");
    CHECK(!a->init_sql && !a->kb_examples && !a->prompt_dir);
    CHECK(ends_with(a->spec->path, "worksheet.json"));
    CHECK_INT(a->napis, 0);
    ag_agent_free(a);
    /* A trailing slash does not change the name. */
    char *slash = xasprintf("%s/", dir);
    rc = ag_agent_load(slash, &a, &e);
    REQUIRE(rc == 0);
    CHECK_STR(a->name, strrchr(dir, '/') + 1);
    ag_agent_free(a);
    free(slash);
    free(dir);
}

TEST(agent_load_missing_ini)
{
    char *dir = agent_dir(NULL, csv_plain, NULL);
    ag_agent *a = (ag_agent *)1;
    gn_err e;
    CHECK_INT(ag_agent_load(dir, &a, &e), GN_ENOTFOUND);
    CHECK(a == NULL);
    char *want = xasprintf("%s is not an agent directory (no agent.ini)", dir);
    CHECK_STR(e.msg, want);
    free(want);
    char *none = xasprintf("%s/nothing", dir);
    CHECK_INT(ag_agent_load(none, &a, &e), GN_ENOTFOUND);
    CHECK_CONTAINS(e.msg, "is not an agent directory");
    free(none);
    free(dir);
}

/* agent.ini texts and the error each gives: line and message. */
static const struct { const char *ini; int code, line; const char *msg; } ini_errors[] = {
    { "[agent]\nname = x\ndescription = d\ndatabse = x.db\n", GN_EPARSE, 4,
      "unknown key 'databse' (did you mean 'database'?)" },
    { "[agent]\ndatabase = x.db\nflavour = sweet\n", GN_EPARSE, 3, "unknown key 'flavour'" },
    { "[agnet]\ndatabase = x.db\n", GN_EPARSE, 1, "unknown section [agnet] (did you mean [agent]?)" },
    { "[agent]\ndatabase = x.db\n[other]\n", GN_EPARSE, 3, "unknown section [other]" },
    { "database = x.db\n[agent]\n", GN_EPARSE, 1, "key 'database' is outside any section" },
    { "[agent]\ndatabase = x.db\n\ndatabase = y.db\n", GN_EPARSE, 4,
      "key 'database' is already set on line 2" },
    { "[agent]\ndatabase = x.db\n  spec = w.csv\n", GN_EPARSE, 3,
      "indented line continues 'database', which takes one line" },
    { "[agent]\ndatabase =\n", GN_EPARSE, 2, "key 'database' is empty" },
    { "[agent]\nname = x\n", GN_EPARSE, 0, "missing 'database = FILE' in [agent]" },
    { "[agent]\ndatabase = x.db\nthis is not a pair\n", GN_EPARSE, 3,
      "syntax error: expected '[section]' or 'key = value', got 'this is not a pair'" },
    { "[agent]\ndatabase = x.db\ninit_sql = nope.sql\n", GN_ENOTFOUND, 3, "init_sql: '" },
    { "[agent]\ndatabase = x.db\nkb_examples = nope.txt\n", GN_ENOTFOUND, 3, "kb_examples: '" },
    { "[agent]\ndatabase = x.db\nprompts = nope\n", GN_ENOTFOUND, 3, "is not a directory" },
    { "[agent]\ndatabase = x.db\napis = nope.ini\n", GN_ENOTFOUND, 3, "apis: '" },
    { "[agent]\ndatabase = x.db\nspec = nope.csv\n", GN_ENOTFOUND, 3, "spec: '" },
};

TEST(agent_load_ini_errors)
{
    for (size_t i = 0; i < sizeof ini_errors / sizeof *ini_errors; i++) {
        ag_agent *a = NULL;
        gn_err e;
        int rc = load(ini_errors[i].ini, csv_plain, NULL, &a, &e);
        if (rc != ini_errors[i].code || e.line != ini_errors[i].line ||
            !strstr(e.msg, ini_errors[i].msg) || !ends_with(e.file, "agent.ini"))
            th_fail(__FILE__, __LINE__, "case %zu: got %d %s:%d: %s", i, rc, e.file, e.line, e.msg);
        CHECK(a == NULL);
        ag_agent_free(a);
    }
}

TEST(agent_load_long_line)
{
    /* Past inih's default 200 bytes is fine ... */
    char *desc = xmalloc(20001);
    memset(desc, 'a', 20000);
    desc[20000] = 0;
    char *ini = xasprintf("[agent]\ndatabase = x.db\ndescription = %.400s\n", desc);
    ag_agent *a = NULL;
    gn_err e;
    REQUIRE(load(ini, csv_plain, NULL, &a, &e) == 0);
    CHECK_INT(strlen(a->description), 400);
    ag_agent_free(a);
    free(ini);
    /* ... past 16 KiB is not. */
    ini = xasprintf("[agent]\ndatabase = x.db\ndescription = %s\n", desc);
    CHECK_INT(load(ini, csv_plain, NULL, &a, &e), GN_ELIMIT);
    CHECK_INT(e.line, 3);
    CHECK_CONTAINS(e.msg, "line too long");
    free(ini);
    /* The same text over indented lines is fine. */
    ini = xasprintf("[agent]\ndatabase = x.db\ndescription = %.10000s\n  %.9998s\n", desc, desc);
    REQUIRE(load(ini, csv_plain, NULL, &a, &e) == 0);
    CHECK_INT(strlen(a->description), 20000 - 1);
    ag_agent_free(a);
    free(ini);
    free(desc);
}

/* A predicate or action that calls a function genie does not have (a
 * system() a spec's author hoped for, a misspelt API) is refused when the
 * agent loads, at its line; built-ins, APIs and worksheets are calls. */
TEST(agent_load_unknown_call)
{
    static const char csv[] =
        "Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,"
        "Required,Confirm,Actions,Form Actions\n"
        ",Order,,,worksheet,,,,,,,,\n"
        ",,,input,str,name,,,,,,\"check(len(self.name) > 1, \"\"short\"\")\n"
        "system(\"\"rm -rf x\"\")\",\n";
    ag_agent *a = NULL;
    gn_err e;
    CHECK_INT(load("[agent]\ndatabase = x.db\n", csv, NULL, &a, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "Order.name calls system(), which is not a built-in function, an API of "
                          "apis.ini or a worksheet");
    CHECK(ends_with(e.file, "worksheet.csv"));
    CHECK_INT(e.line, 4);
    ag_agent_free(a);
}

TEST(agent_load_undeclared_api)
{
    ag_agent *a = NULL;
    gn_err e;
    CHECK_INT(load("[agent]\ndatabase = x.db\n", csv_api, "[other]\nurl = http://x/\n", &a, &e),
              GN_EPARSE);
    CHECK_CONTAINS(e.msg, "worksheet Book names API book_api, not declared in apis.ini");
    CHECK(ends_with(e.file, "worksheet.csv"));
    CHECK_INT(e.line, 2);
    /* No apis.ini at all; a near miss gets a hint. */
    CHECK_INT(load("[agent]\ndatabase = x.db\n", csv_api, NULL, &a, &e), GN_EPARSE);
    CHECK_CONTAINS(e.msg, "not declared in apis.ini (the agent declares no APIs)");
    CHECK_INT(load("[agent]\ndatabase = x.db\n", csv_api, "[book_apj]\nsql = SELECT 1\n", &a, &e),
              GN_EPARSE);
    CHECK_CONTAINS(e.msg, "(did you mean book_apj?)");
    CHECK(a == NULL);
}

/* apis.ini texts and the error each gives: line and message. */
static const struct { const char *apis; int line; const char *msg; } api_errors[] = {
    { "[b]\nsql = SELECT 1\nurl = http://x/\n", 3,
      "API b has both sql (line 2) and url; an API is SQL or HTTP (url), not both" },
    { "[b]\nurl = http://x/\nmethod = GET\nsql = SELECT 1\n", 4, "API b has both sql and url (line 2)" },
    { "[b]\nsql = SELECT 1\ntimeout = 3\n", 3, "API b has both sql (line 2) and timeout" },
    { "[a]\nsql = SELECT 1\n[b]\nmethod = GET\n", 3, "API b has neither 'sql' nor 'url'" },
    { "[b]\n", 1, "API b has neither 'sql' nor 'url'" },
    { "[b]\nsql =\n", 1, "API b: sql is empty" },
    { "[b]\nurll = http://x/\n", 2, "API b: unknown key 'urll' (did you mean 'url'?)" },
    { "[b]\nurl = ftp://x/\n", 2, "url 'ftp://x/' is not http:// or https://" },
    { "[b]\nurl = http://x/\nmethod = PUT\n", 3, "method 'PUT' is not GET or POST" },
    { "[b]\nurl = http://x/\ntimeout = soon\n", 3, "timeout 'soon' is not a number" },
    { "[b]\nurl = http://x/\ntimeout = 0\n", 3, "timeout '0' is not a number" },
    { "[b]\nurl = http://x/\nheader = NoColon\n", 3, "header 'NoColon' is not 'Name: value'" },
    { "[b]\nurl = http://x/\nurl = http://y/\n", 3, "key 'url' is already set on line 2" },
    { "[b]\nurl = http://x/\n  /more\n", 3, "indented line continues 'url'" },
    { "[book-it]\nsql = SELECT 1\n", 1, "API name 'book-it' is not an identifier" },
    { "[b]\nsql = SELECT 1\n[b]\nsql = SELECT 2\n", 3, "API b is declared twice (first on line 1)" },
    { "sql = SELECT 1\n[b]\n", 1, "key 'sql' is outside any API section" },
    { "[b]\nsql = INSERT INTO t VALUES (1) ; INSERT INTO t VALUES (2)\n", 2,
      "API b: ' ;' starts a comment in an INI file and would cut the SQL here" },
    { "[b]\nsql = INSERT INTO t VALUES (1);\n  INSERT INTO t VALUES (2) ;\n", 3,
      "API b: ' ;' starts a comment" },
};

TEST(agent_load_api_errors)
{
    for (size_t i = 0; i < sizeof api_errors / sizeof *api_errors; i++) {
        ag_agent *a = NULL;
        gn_err e;
        int rc = load("[agent]\ndatabase = x.db\n", csv_plain, api_errors[i].apis, &a, &e);
        if (rc != GN_EPARSE || e.line != api_errors[i].line ||
            !strstr(e.msg, api_errors[i].msg) || !ends_with(e.file, "apis.ini"))
            th_fail(__FILE__, __LINE__, "case %zu: got %d %s:%d: %s", i, rc, e.file, e.line, e.msg);
        ag_agent_free(a);
    }
}

/* ---- the init SQL and SQL APIs ------------------------------------------ */

static const char rest_init[] =
    "CREATE TABLE IF NOT EXISTS log(txn_id TEXT, what TEXT);\n"
    "CREATE TABLE IF NOT EXISTS reservations(txn_id TEXT, restaurant TEXT NOT NULL,\n"
    "  people INTEGER CHECK (people > 0), ok INTEGER, score REAL, requests TEXT);\n";

static const char rest_apis[] =
    "[book_api]\n"
    "sql = INSERT INTO log(txn_id, what) VALUES (:txn_id, 'booking');\n"
    "      INSERT INTO reservations(txn_id, restaurant, people, ok, score, requests)\n"
    "      VALUES (:txn_id, :restaurant, @num_people, $ok, :score, :special_requests);\n"
    "      -- a trailing comment\n"
    "[count_api]\n"
    "sql = SELECT count(*) AS n, max(people) AS most FROM reservations WHERE restaurant = ?\n"
    "[list_api]\n"
    "sql = SELECT restaurant, people FROM reservations ORDER BY people\n"
    "[log_api]\n"
    "sql = INSERT INTO log(what) VALUES (?1 || '/' || :what)\n";

static ag_agent *rest_agent(const char *dir_init)
{
    char *ini = xasprintf("[agent]\ndatabase = r.db\n%s", dir_init ? "init_sql = init.sql\n" : "");
    char *dir = agent_dir(ini, csv_api, rest_apis);
    if (dir_init) put(dir, "init.sql", dir_init);
    ag_agent *a = NULL;
    gn_err e;
    if (ag_agent_load(dir, &a, &e))
        th_fail(__FILE__, __LINE__, "%s:%d: %s", e.file, e.line, e.msg);
    free(dir);
    free(ini);
    return a;
}

static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    char *p = xasprintf("%s/w.db", th_tmpdir());
    if (sqlite3_open(p, &db) != SQLITE_OK) th_fail(__FILE__, __LINE__, "cannot open %s", p);
    free(p);
    return db;
}

static long long count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static int valid_txn(const char *s)
{
    if (!s || strlen(s) != 10) return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) return 0;
    return 1;
}

TEST(agent_load_init_sql)
{
    ag_agent *a = rest_agent(rest_init);
    REQUIRE(a);
    sqlite3 *db = open_db();
    gn_err e;
    CHECK_INT(ag_agent_init_db(a, db, &e), 0);
    CHECK_INT(ag_agent_init_db(a, db, &e), 0);     /* idempotent */
    CHECK_INT(count(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('log', 'reservations')"), 2);
    CHECK(sqlite3_get_autocommit(db));
    ag_agent_free(a);
    /* A failing script leaves nothing behind. */
    a = rest_agent("CREATE TABLE fresh(x);\nCREATE TABLE log(y);\n");
    REQUIRE(a);
    CHECK_INT(ag_agent_init_db(a, db, &e), GN_EDB);
    CHECK_STR(e.msg, "init.sql: table log already exists");
    CHECK_INT(count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'fresh'"), 0);
    CHECK(sqlite3_get_autocommit(db));
    ag_agent_free(a);
    /* No init SQL: nothing to do. */
    a = rest_agent(NULL);
    CHECK_INT(ag_agent_init_db(a, db, &e), 0);
    ag_agent_free(a);
    sqlite3_close(db);
}

static ws_val *booking(const char *restaurant, long long people)
{
    ws_val *args = ws_dict();
    if (restaurant) ws_dict_set(args, "restaurant", ws_str(restaurant));
    ws_dict_set(args, "num_people", ws_int(people));
    ws_dict_set(args, "ok", ws_bool(1));
    ws_dict_set(args, "score", ws_float(4.5));
    ws_val *req = ws_list();
    ws_list_add(req, ws_str("window"));
    ws_list_add(req, ws_str("quiet"));
    ws_dict_set(args, "special_requests", req);
    return args;
}

TEST(agent_load_sql_api)
{
    ag_agent *a = rest_agent(rest_init);
    REQUIRE(a);
    sqlite3 *db = open_db();
    gn_err e;
    REQUIRE(ag_agent_init_db(a, db, &e) == 0);
    ag_api_host h;
    ag_api_host_init(&h, a, db);
    CHECK(h.host.ud == &h);
    CHECK(h.host.has_api(h.host.ud, "book_api"));
    CHECK(!h.host.has_api(h.host.ud, "nope"));
    ws_val *args = booking("Nopa", 4), *out = NULL;
    REQUIRE(h.host.call_api(h.host.ud, "book_api", args, &out, &e) == 0);
    REQUIRE(out && out->kind == WV_DICT && out->u.c.n == 1);
    const ws_val *txn = ws_dict_get(out, "transaction_id");
    REQUIRE(txn && txn->kind == WV_STR);
    CHECK(valid_txn(txn->u.s));
    char *q = xasprintf("SELECT count(*) FROM reservations r JOIN log l USING (txn_id) WHERE "
                        "txn_id = '%s' AND restaurant = 'Nopa' AND people = 4 AND ok = 1 AND "
                        "score = 4.5 AND requests = '[\"window\",\"quiet\"]' AND what = 'booking'",
                        txn->u.s);
    CHECK_INT(count(db, q), 1);
    free(q);
    ws_val_free(out);
    ws_val_free(args);

    /* A second booking gets another id. */
    args = booking("Zuni", 2);
    REQUIRE(h.host.call_api(h.host.ud, "book_api", args, &out, &e) == 0);
    ws_val_free(args);
    ws_val_free(out);

    /* One row: its columns; positional arguments bind `?`. */
    args = ws_dict();
    ws_dict_set(args, "$1", ws_str("Nopa"));
    REQUIRE(h.host.call_api(h.host.ud, "count_api", args, &out, &e) == 0);
    CHECK(!ws_dict_get(out, "transaction_id"));
    const ws_val *n = ws_dict_get(out, "n"), *most = ws_dict_get(out, "most");
    CHECK(n && n->kind == WV_INT && n->u.i == 1);
    CHECK(most && most->kind == WV_INT && most->u.i == 4);
    ws_val_free(out);
    ws_val_free(args);

    /* Several rows: "rows". */
    REQUIRE(h.host.call_api(h.host.ud, "list_api", NULL, &out, &e) == 0);
    const ws_val *rows = ws_dict_get(out, "rows");
    REQUIRE(rows && rows->kind == WV_LIST && rows->u.c.n == 2);
    CHECK_STR(ws_dict_get(rows->u.c.items[0], "restaurant")->u.s, "Zuni");
    CHECK_INT(ws_dict_get(rows->u.c.items[1], "people")->u.i, 4);
    ws_val_free(out);

    /* ?1 and :name together; a missing argument is NULL. */
    args = ws_dict();
    ws_dict_set(args, "$1", ws_str("a"));
    ws_dict_set(args, "what", ws_str("b"));
    REQUIRE(h.host.call_api(h.host.ud, "log_api", args, &out, &e) == 0);
    CHECK_INT(count(db, "SELECT count(*) FROM log WHERE what = 'a/b'"), 1);
    CHECK_INT(out->u.c.n, 0);
    ws_val_free(out);
    ws_val_free(args);

    CHECK_INT(h.host.call_api(h.host.ud, "nope", NULL, &out, &e), GN_ENOTFOUND);
    CHECK(out == NULL);
    ag_agent_free(a);
    sqlite3_close(db);
}

TEST(agent_load_sql_api_rollback)
{
    ag_agent *a = rest_agent(rest_init);
    REQUIRE(a);
    sqlite3 *db = open_db();
    gn_err e;
    REQUIRE(ag_agent_init_db(a, db, &e) == 0);
    ag_api_host h;
    ag_api_host_init(&h, a, db);
    /* The second INSERT violates CHECK (people > 0): the first one's log
     * row must not remain. */
    ws_val *args = booking("Nopa", 0), *out = NULL;
    CHECK_INT(h.host.call_api(h.host.ud, "book_api", args, &out, &e), GN_EDB);
    CHECK_CONTAINS(e.msg, "API book_api: CHECK constraint failed");
    CHECK(out == NULL);
    ws_val_free(args);
    /* NOT NULL restaurant. */
    args = booking(NULL, 2);
    CHECK_INT(h.host.call_api(h.host.ud, "book_api", args, &out, &e), GN_EDB);
    CHECK_CONTAINS(e.msg, "NOT NULL constraint failed");
    ws_val_free(args);
    CHECK_INT(count(db, "SELECT count(*) FROM log"), 0);
    CHECK_INT(count(db, "SELECT count(*) FROM reservations"), 0);
    CHECK(sqlite3_get_autocommit(db));
    /* Without a writable database. */
    ag_api_host_init(&h, a, NULL);
    args = booking("Nopa", 2);
    CHECK_INT(h.host.call_api(h.host.ud, "book_api", args, &out, &e), GN_EDB);
    CHECK_STR(e.msg, "API book_api: no writable database");
    ws_val_free(args);
    ag_agent_free(a);
    sqlite3_close(db);
}

TEST(agent_load_txn_id)
{
    char ids[64][11];
    gn_err e;
    for (int i = 0; i < 64; i++) {
        REQUIRE(ag_txn_id(ids[i], sizeof ids[i], &e) == 0);
        CHECK(valid_txn(ids[i]));
        for (int j = 0; j < i; j++) CHECK(strcmp(ids[i], ids[j]) != 0);
    }
    char small[10];
    CHECK_INT(ag_txn_id(small, sizeof small, &e), GN_EUSAGE);
}

/* ---- HTTP APIs against tests/mock/api_server.py ------------------------- */

static pid_t srv_pid;
static int srv_port;

static void srv_stop(void)
{
    if (srv_pid > 0) {
        kill(srv_pid, SIGTERM);
        waitpid(srv_pid, NULL, 0);
        srv_pid = 0;
    }
}

/* Start the server once; its port, or 0 (after a th_fail).  Its stdin is
 * a pipe we hold: it exits when this process does, however that ends. */
static int srv_start(void)
{
    if (srv_port) return srv_port;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
        th_fail(__FILE__, __LINE__, "pipe failed");
        return 0;
    }
    const char *py = getenv("PYTHON") ? getenv("PYTHON") : "python3";
    char server[1024];
    snprintf(server, sizeof server, "%s", th_path("tests/mock/api_server.py"));
    char *argv[] = { (char *)py, server, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    int bad = posix_spawnp(&srv_pid, py, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (bad) {
        srv_pid = 0;
        close(in[1]);
        close(out[0]);
        th_fail(__FILE__, __LINE__, "cannot run %s %s", py, server);
        return 0;
    }
    atexit(srv_stop);
    FILE *f = fdopen(out[0], "r");
    char line[32];
    if (f && fgets(line, sizeof line, f)) srv_port = atoi(line);
    if (f) fclose(f);
    else close(out[0]);
    if (!srv_port) th_fail(__FILE__, __LINE__, "the API server did not start");
    return srv_port;
}

static ag_agent *http_agent(int port)
{
    char *apis = xasprintf(
        "[echo]\nurl = http://127.0.0.1:%d/echo\nheader = X-Api-Key: abc\n"
        "[echo_get]\nurl = http://127.0.0.1:%d/echo?fixed=1\nmethod = GET\n"
        "[fail]\nurl = http://127.0.0.1:%d/fail\nmethod = GET\n"
        "[slow]\nurl = http://127.0.0.1:%d/slow\ntimeout = 1\n"
        "[text]\nurl = http://127.0.0.1:%d/text\n"
        "[list]\nurl = http://127.0.0.1:%d/list\n"
        "[big]\nurl = http://127.0.0.1:%d/big\n"
        "[closed]\nurl = http://127.0.0.1:1/x\n"
        "[p500]\nurl = http://127.0.0.1:%d/flaky?tag=p500&status=500&times=1\n"
        "[p503]\nurl = http://127.0.0.1:%d/flaky?tag=p503&status=503&times=1\n"
        "[p503ra]\nurl = http://127.0.0.1:%d/flaky?tag=p503ra&status=503&times=1&retry_after=0\n"
        "[p429]\nurl = http://127.0.0.1:%d/flaky?tag=p429&status=429&times=1\n"
        "[g503]\nurl = http://127.0.0.1:%d/flaky?tag=g503&status=503&times=1\nmethod = GET\n"
        "[g503x]\nurl = http://127.0.0.1:%d/flaky?tag=g503x&status=503&times=9\nmethod = GET\n",
        port, port, port, port, port, port, port, port, port, port, port, port, port);
    char *dir = agent_dir("[agent]\ndatabase = x.db\n", csv_plain, apis);
    ag_agent *a = NULL;
    gn_err e;
    if (ag_agent_load(dir, &a, &e))
        th_fail(__FILE__, __LINE__, "%s:%d: %s", e.file, e.line, e.msg);
    free(dir);
    free(apis);
    return a;
}

static int call(ag_api_host *h, const char *name, const ws_val *args, ws_val **out, gn_err *e)
{
    *out = NULL;
    gn_err_clear(e);
    return h->host.call_api(h->host.ud, name, args, out, e);
}

/* The HTTP agent on the API server, and H the host it calls it
 * through (the defaults); NULL (after a failure) when either is missing. */
static ag_agent *http_host(ag_api_host *h)
{
    int port = srv_start();
    ag_agent *a = port ? http_agent(port) : NULL;
    if (!port) th_fail(__FILE__, __LINE__, "the API server did not start");
    if (a) ag_api_host_init(h, a, NULL);
    return a;
}

TEST(agent_load_http_api)
{
    ag_api_host h;
    ag_agent *a = http_host(&h);
    REQUIRE(a);
    CHECK(h.http_timeout == 15);
    gn_err e;
    ws_val *out = NULL, *args = ws_dict();
    ws_dict_set(args, "city", ws_str("San Francisco & Oakland"));
    ws_dict_set(args, "days", ws_int(3));
    ws_dict_set(args, "nothing", ws_none());
    /* the parts of a knowledge-base row (ws_state_arg): its context goes,
     * its _id, the knowledge base's own, does not */
    ws_dict_set(args, "place::location", ws_str("Palo Alto"));
    ws_dict_set(args, "place::_id", ws_int(1351));

    /* POST: the arguments as the JSON body, the section's headers. */
    REQUIRE(call(&h, "echo", args, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    const ws_val *echo = ws_dict_get(out, "echo");
    REQUIRE(echo && echo->kind == WV_DICT);
    CHECK_STR(ws_dict_get(echo, "city")->u.s, "San Francisco & Oakland");
    CHECK_INT(ws_dict_get(echo, "days")->u.i, 3);
    CHECK(ws_dict_get(echo, "nothing")->kind == WV_NONE);
    CHECK_STR(ws_dict_get(echo, "place::location")->u.s, "Palo Alto");
    CHECK(!ws_dict_get(echo, "place::_id"));
    CHECK_STR(ws_dict_get(out, "x_api_key")->u.s, "abc");
    CHECK_STR(ws_dict_get(out, "content_type")->u.s, "application/json");
    ws_val_free(out);

    /* GET: the arguments as query parameters after the URL's own. */
    REQUIRE(call(&h, "echo_get", args, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    echo = ws_dict_get(out, "echo");
    REQUIRE(echo && echo->kind == WV_DICT);
    CHECK_STR(ws_dict_get(echo, "fixed")->u.s, "1");
    CHECK_STR(ws_dict_get(echo, "city")->u.s, "San Francisco & Oakland");
    CHECK_STR(ws_dict_get(echo, "days")->u.s, "3");
    CHECK(!ws_dict_get(echo, "nothing"));
    CHECK(!ws_dict_get(echo, "place::_id"));
    ws_val_free(out);

    /* Replies that are not JSON objects. */
    REQUIRE(call(&h, "text", NULL, &out, &e) == 0);
    CHECK_STR(ws_dict_get(out, "text")->u.s, "plain words");
    ws_val_free(out);
    REQUIRE(call(&h, "list", NULL, &out, &e) == 0);
    const ws_val *res = ws_dict_get(out, "result");
    CHECK(res && res->kind == WV_LIST && res->u.c.n == 3);
    ws_val_free(out);

    /* Errors. */
    CHECK_INT(call(&h, "fail", args, &out, &e), GN_ENET);
    CHECK_STR(e.msg, "API fail: HTTP 503: backend unavailable");
    CHECK(out == NULL);
    CHECK_INT(call(&h, "big", NULL, &out, &e), GN_ELIMIT);
    CHECK_CONTAINS(e.msg, "API big: response larger than");
    CHECK_INT(call(&h, "closed", NULL, &out, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "API closed: ");
    ws_val_free(args);
    ag_agent_free(a);
}

TEST(agent_load_http_timeout)
{
    ag_api_host h;
    ag_agent *a = http_host(&h);
    REQUIRE(a);
    gn_err e;
    ws_val *out = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_INT(call(&h, "slow", NULL, &out, &e), GN_ENET);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK_CONTAINS(e.msg, "API slow: ");
    CHECK_CONTAINS(e.msg, "timed out");
    CHECK(s >= 0.9 && s < 2.5);
    ag_agent_free(a);
}

/* The attempt number a /flaky reply reports, or -1. */
static long long attempt_of(const ws_val *out)
{
    const ws_val *a = out ? ws_dict_get(out, "attempt") : NULL;
    return a && a->kind == WV_INT ? a->u.i : -1;
}

TEST(agent_load_http_post_is_not_sent_twice)
{
    ag_api_host h;
    ag_agent *a = http_host(&h);
    REQUIRE(a);
    CHECK_INT(h.http_retries, 2);
    h.http_retry_max_wait = 0.05;
    gn_err e;
    ws_val *out = NULL;
    /* A 500 to a POST may come after the booking was made: no retry.  The
     * next call is the server's second request. */
    CHECK_INT(call(&h, "p500", NULL, &out, &e), GN_ENET);
    CHECK_STR(e.msg, "API p500: HTTP 500: flaky failure 1");
    REQUIRE(call(&h, "p500", NULL, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    CHECK_INT(attempt_of(out), 2);
    ws_val_free(out);
    /* Nor a 503 that does not say when to come back (a gateway whose
     * backend timed out says 503 too). */
    CHECK_INT(call(&h, "p503", NULL, &out, &e), GN_ENET);
    CHECK_STR(e.msg, "API p503: HTTP 503: flaky failure 1");
    /* 429, and 503 with Retry-After, are the server's "not now": sent
     * again, once. */
    REQUIRE(call(&h, "p429", NULL, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    CHECK_INT(attempt_of(out), 2);
    ws_val_free(out);
    REQUIRE(call(&h, "p503ra", NULL, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    CHECK_INT(attempt_of(out), 2);
    ws_val_free(out);
    ag_agent_free(a);
}

TEST(agent_load_http_get_is_retried)
{
    ag_api_host h;
    ag_agent *a = http_host(&h);
    REQUIRE(a);
    h.http_retry_max_wait = 0.05;
    gn_err e;
    ws_val *out = NULL;
    /* A GET only reads: a 503 is tried again. */
    REQUIRE(call(&h, "g503", NULL, &out, &e) == 0 || (printf("  %s\n", e.msg), 0));
    CHECK_INT(attempt_of(out), 2);
    ws_val_free(out);
    /* Until the retries are spent: three requests, the last one's error. */
    CHECK_INT(call(&h, "g503x", NULL, &out, &e), GN_ENET);
    CHECK_STR(e.msg, "API g503x: HTTP 503: flaky failure 3");
    h.http_retries = 0;
    CHECK_INT(call(&h, "g503x", NULL, &out, &e), GN_ENET);
    CHECK_STR(e.msg, "API g503x: HTTP 503: flaky failure 4");
    ag_agent_free(a);
}
