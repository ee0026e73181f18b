/*
 * test_suql_golden.c — the golden SUQL cases of the .t files of tests/suql/t (their
 * format is in tests/suql/t/README.md), on a five-row fixture knowledge
 * base with its retrieval index, against the mock LLM server.
 */
#include "harness.h"
#include "mock.h"

#include "llm/prompt.h"
#include "retrieval/index.h"
#include "suql/engine.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char *fixture_sql =
    "CREATE TABLE places(_id INTEGER PRIMARY KEY, name TEXT, city TEXT, rating REAL, reviews TEXT,"
    "  dishes TEXT);"
    "CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,"
    "  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));"
    "INSERT INTO genie_columns VALUES"
    " ('places','_id',0,'int',0,0,NULL,NULL), ('places','name',1,'text',0,0,NULL,NULL),"
    " ('places','city',2,'enum',0,0,'[\"north\",\"south\"]',NULL),"
    " ('places','rating',3,'real',0,0,NULL,NULL),"
    " ('places','reviews',4,'text',1,1,NULL,NULL), ('places','dishes',5,'text',1,1,NULL,NULL);"
    "INSERT INTO places VALUES"
    " (1,'Candle Bistro','north',4.5,'[\"Perfect spot for a date night, candlelit and intimate.\",\"The pasta was decent.\"]','[\"spaghetti carbonara\",\"tiramisu\"]'),"
    " (2,'Lot Diner','north',3.5,'[\"Plenty of parking in the big lot out back.\",\"Burgers are greasy but good.\"]','[\"cheeseburger\",\"french fries\"]'),"
    " (3,'Noisy Pub','south',4.0,'[\"Loud music and crowded, we could not hear each other.\",\"Great beer selection.\"]','[\"fish and chips\",\"pale ale\"]'),"
    " (4,'Family Taqueria','south',4.2,'[\"Our kids loved it, very family friendly with a play area.\",\"Tacos were fresh.\"]','[\"carnitas tacos\",\"horchata\"]'),"
    " (5,'Sushi Zen','south',4.8,'[\"Fresh fish, the omakase was wonderful.\",\"A bit pricey.\"]','[\"salmon nigiri\",\"tuna sashimi\"]');";

typedef struct {
    char *mock, *query, *error;
    int offline, calls;
    char *plans[16];
    int nplans;
    gn_buf rows;
} tcase;

static int parse_case(const char *path, tcase *t)
{
    memset(t, 0, sizeof *t);
    t->calls = -1;
    gn_buf_init(&t->rows);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[4096];
    int in_rows = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (in_rows) {
            gn_buf_printf(&t->rows, "%s\r\n", line);
            continue;
        }
        if (line[0] == '#' || !line[0]) continue;
        if (!strncmp(line, "mock: ", 6)) t->mock = strdup(line + 6);
        else if (!strncmp(line, "query: ", 7)) t->query = strdup(line + 7);
        else if (!strncmp(line, "error: ", 7)) t->error = strdup(line + 7);
        else if (!strncmp(line, "offline: ", 9)) t->offline = !strcmp(line + 9, "true");
        else if (!strncmp(line, "calls: ", 7)) t->calls = atoi(line + 7);
        else if (!strncmp(line, "plan: ", 6) && t->nplans < 16) t->plans[t->nplans++] = strdup(line + 6);
        else if (!strcmp(line, "rows:")) in_rows = 1;
        else {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return t->query ? 0 : -1;
}

static void free_case(tcase *t)
{
    free(t->mock);
    free(t->query);
    free(t->error);
    for (int i = 0; i < t->nplans; i++) free(t->plans[i]);
    gn_buf_release(&t->rows);
}

typedef struct {
    sqlite3 *db;
    st_schema *s;
    rt_embedder *em;
    rt_index *ix;
    llm_client *cl;
    llm_tpl *tpl[4];
} fx;

static int fx_open(fx *f)
{
    memset(f, 0, sizeof *f);
    char path[700];
    snprintf(path, sizeof path, "%s/places.db", th_tmpdir());
    sqlite3 *db;
    gn_err e;
    if (sqlite3_open(path, &db) || sqlite3_exec(db, fixture_sql, NULL, NULL, NULL)) return -1;
    sqlite3_close(db);
    rt_opts o;
    rt_opts_default(&o);
    if (st_open(path, 1, &f->db, &e) || st_schema_load(f->db, &f->s, &e) ||
        rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &f->em, &e) ||
        rt_index_build(f->db, path, f->em, &o, NULL, NULL, &e) ||
        rt_index_open(f->db, path, f->em, &o, &f->ix, &e) || st_guard(f->db, &e)) {
        th_fail(__FILE__, __LINE__, "fixture: %s", e.msg);
        return -1;
    }
    llm_config lc = { .url = th_mock_url(), .defaults = { "m", 0, 0, 1 }, .concurrency = 4,
                      .connect_timeout = 2, .stall_timeout = 10 };
    if (!lc.url || llm_client_new(&lc, &f->cl, &e)) return -1;
    const char *names[4] = { "answer", "verify", "summary", "classify" };
    for (int i = 0; i < 4; i++)
        if (llm_prompt_load(NULL, th_path("config/prompts"), names[i], &f->tpl[i], &e)) return -1;
    return 0;
}

static void fx_close(fx *f)
{
    for (int i = 0; i < 4; i++) llm_tpl_free(f->tpl[i]);
    llm_client_free(f->cl);
    rt_index_close(f->ix);
    rt_embedder_free(f->em);
    st_schema_free(f->s);
    sqlite3_close(f->db);
}

static void run_case(fx *f, const char *name, tcase *t)
{
    static const char *def = "{\"chat\": [{\"stage\": \"verify\", \"reply\": \"Yes\"}, {\"reply\": \"ok\"}]}";
    if (th_mock_script(t->mock ? t->mock : def)) return;
    suql_engine_config ec = { .db = f->db, .schema = f->s, .ix = f->ix, .em = f->em,
                              .client = t->offline ? NULL : f->cl, .answer_tpl = f->tpl[0],
                              .verify_tpl = f->tpl[1], .summary_tpl = f->tpl[2],
                              .classify_tpl = f->tpl[3] };
    suql_engine *en;
    gn_err e;
    if (suql_engine_new(&ec, &en, &e)) {
        th_fail(__FILE__, __LINE__, "%s: engine: %s", name, e.msg);
        return;
    }
    gn_buf plan;
    gn_buf_init(&plan);
    int rc = suql_explain(en, t->query, &plan, &e);
    for (int i = 0; !rc && i < t->nplans; i++)
        if (!strstr(plan.data, t->plans[i]))
            th_fail(__FILE__, __LINE__, "%s: the plan lacks \"%s\":\n%s", name, t->plans[i], plan.data);
    gn_buf_release(&plan);
    suql_result r;
    if (!rc) rc = suql_execute(en, t->query, &r, NULL, &e);
    if (t->error) {
        if (!rc) {
            th_fail(__FILE__, __LINE__, "%s: succeeded, expected the error \"%s\"", name, t->error);
            suql_result_release(&r);
        } else if (!strstr(e.msg, t->error)) {
            th_fail(__FILE__, __LINE__, "%s: error \"%s\", expected \"%s\"", name, e.msg, t->error);
        }
    } else if (rc) {
        th_fail(__FILE__, __LINE__, "%s: %s", name, e.msg);
    } else {
        gn_buf got;
        gn_buf_init(&got);
        suql_result_csv(&r, &got);
        if (strcmp(got.data, t->rows.data ? t->rows.data : ""))
            th_fail(__FILE__, __LINE__, "%s: rows\n%s\nexpected\n%s", name, got.data,
                    t->rows.data ? t->rows.data : "");
        gn_buf_release(&got);
        suql_result_release(&r);
    }
    if (t->calls >= 0) {
        cJSON *req = th_mock_requests();
        if (cJSON_GetArraySize(req) != t->calls)
            th_fail(__FILE__, __LINE__, "%s: %d LLM requests, expected %d", name,
                    cJSON_GetArraySize(req), t->calls);
        cJSON_Delete(req);
    }
    suql_engine_free(en);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

TEST(suql_golden_cases)
{
    fx f;
    REQUIRE(fx_open(&f) == 0);
    struct dirent **list;
    const char *dir = th_path("tests/suql/t");
    int n = scandir(dir, &list, NULL, by_name), ran = 0;
    REQUIRE(n > 0);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(list[i]->d_name);
        if (l > 2 && !strcmp(list[i]->d_name + l - 2, ".t")) {
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
            tcase t;
            if (parse_case(path, &t)) th_fail(__FILE__, __LINE__, "%s: malformed case", path);
            else run_case(&f, list[i]->d_name, &t);
            free_case(&t);
            ran++;
        }
        free(list[i]);
    }
    free(list);
    CHECK(ran >= 7);
    fx_close(&f);
}
