/*
 * agent.c — the agent benchmark: a long scripted conversation (50 turns:
 * ten rounds of search, book, set the date, ask a question, confirm) with
 * the restaurant agent against the mock LLM server.
 *
 * Reports, per turn: the engine's time excluding LLM waits (parsing and
 * applying statements, SUQL, the policy, the APIs, prompt rendering) and
 * the LLM calls by stage; and the size of the contextual parser's prompt
 * at turns 5, 20 and 50 against the size the same prompt would have if it
 * carried the full conversation history instead of the worksheet state
 * (the baseline, computed in the same run from the same turns).  Tokens
 * are estimated as bytes / 4.  The database is a temporary copy, since
 * the conversation books tables.  The conversation is opened as genie's
 * own front end opens one (genie.h), from a configuration of flags.
 *
 * Then one search turn ("a romantic Italian place", SELECT *,
 * summary(reviews) ... LIMIT 3) on a fresh conversation: the largest
 * prompt of each agent stage in characters (the timings event's
 * prompt_chars) and the next turn's parse prompt; and, with the mock
 * answering every call after CALL_S seconds, the turn's wall time and the
 * time to its first reply token, as multiples of one call's latency.
 */
#include "genie.h"
#include "tests/mock/mockctl.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 10
/* The mock's latency per call in the latency run, in seconds. */
#define CALL_S 0.25
#define TURNS (5 * ROUNDS)

static const char *const cities[] = { "Palo Alto", "Cupertino", "Sunnyvale", "San Francisco" };
static const char *const kinds[] = { "italian", "thai", "mexican", "japanese", "indian" };
/* Restaurants of the sample knowledge base (seed 1), one of each name: a
 * booking's restaurant is grounded in the knowledge base. */
static const char *const places[] = { "Ayutthaya Orchid", "Bamboo Dragon", "Bombay Express",
                                      "Bramble Social", "Brasserie Paris", "Broken Barrel Tavern",
                                      "Cocina Catalana", "Cocina Los Amigos", "Enzo's Slice Shop",
                                      "Gus's Hamburgers" };

static void rule(cJSON *rules, const char *stage, const char *reply)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "stage", stage);
    cJSON_AddNumberToObject(r, "times", 1);
    cJSON_AddStringToObject(r, "reply", reply);
    cJSON_AddItemToArray(rules, r);
}

/* The utterances, and the mock's replies in the order they are asked. */
static char *script(char *utt[TURNS])
{
    cJSON *root = cJSON_CreateObject(), *chat = cJSON_AddObjectToObject(root, "chat");
    cJSON *rules = cJSON_AddArrayToObject(chat, "rules");
    cJSON *def = cJSON_AddObjectToObject(chat, "default");
    cJSON_AddStringToObject(def, "reply", "Done. Anything else?");
    for (int k = 0; k < ROUNDS; k++) {
        const char *city = cities[k % 4], *kind = kinds[k % 5];
        char var[32], buf[512];
        /* A booking done ten turns ago is forgotten and its name taken
         * again: two bookings are live when the next starts, so the names
         * come round every three. */
        if (k % 3) snprintf(var, sizeof var, "book_restaurant_%d", k % 3 + 1);
        else snprintf(var, sizeof var, "book_restaurant");
        int t = 5 * k;
        utt[t] = xasprintf("Find %s places in %s, round %d", kind, city, k);
        snprintf(buf, sizeof buf, "answer(\"%s restaurants in %s (round %d)\")", kind, city, k);
        rule(rules, "parse", buf);
        snprintf(buf, sizeof buf, "SELECT name, rating, price FROM restaurants WHERE '%s' = ANY (cuisines) "
                 "AND location = '%s' ORDER BY rating DESC LIMIT 3;", kind, city);
        rule(rules, "kb_parse", buf);
        utt[t + 1] = xasprintf("Book the first one for %d, round %d", 2 + k % 4, k);
        snprintf(buf, sizeof buf, "Book_Restaurant(restaurant=\"%s\", num_people=%d)", places[k % 10],
                 2 + k % 4);
        rule(rules, "parse", buf);
        utt[t + 2] = xasprintf("On April %d at 7pm, round %d", 10 + k, k);
        snprintf(buf, sizeof buf, "%s.date = \"2026-04-%02d\"\n%s.time = \"19:00\"", var, 10 + k, var);
        rule(rules, "parse", buf);
        utt[t + 3] = xasprintf("Are they open late? round %d", k);
        snprintf(buf, sizeof buf, "answer(\"opening hours of the best %s restaurant in %s (round %d)\")",
                 kind, city, k);
        rule(rules, "parse", buf);
        snprintf(buf, sizeof buf, "SELECT name, opening_hours FROM restaurants WHERE '%s' = ANY (cuisines) "
                 "AND location = '%s' ORDER BY rating DESC LIMIT 1;", kind, city);
        rule(rules, "kb_parse", buf);
        utt[t + 4] = xasprintf("Yes, book it, round %d", k);
        snprintf(buf, sizeof buf, "%s.confirm = True", var);
        rule(rules, "parse", buf);
    }
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
    char buf[1 << 16];
    size_t n;
    int rc = a && b ? 0 : -1;
    while (!rc && (n = fread(buf, 1, sizeof buf, a)) > 0)
        if (fwrite(buf, 1, n, b) != n) rc = -1;
    if (a) fclose(a);
    if (b && fclose(b)) rc = -1;
    return rc;
}

/* ---- one search turn ------------------------------------------------------- */

typedef struct probe {
    double t0, first_token;
    cJSON *timings;
} probe;

static void on_probe(const ag_event *ev, void *ud)
{
    probe *p = ud;
    if (ev->kind == AG_EV_TOKEN && p->first_token == 0) p->first_token = gn_now() - p->t0;
    if (ev->kind == AG_EV_TIMINGS && ev->data) {
        cJSON_Delete(p->timings);
        p->timings = cJSON_Duplicate(ev->data, 1);
    }
}

static char *search_script(const char *city, const char *quality)
{
    char buf[1024];
    cJSON *root = cJSON_CreateObject(), *chat = cJSON_AddObjectToObject(root, "chat");
    cJSON *rules = cJSON_AddArrayToObject(chat, "rules");
    snprintf(buf, sizeof buf, "answer(\"a %s Italian place in %s\")", quality, city);
    rule(rules, "parse", buf);
    snprintf(buf, sizeof buf, "SELECT *, summary(reviews) FROM restaurants WHERE 'italian' = ANY (cuisines) "
             "AND location = '%s' AND answer(reviews, 'is this restaurant %s?') = 'Yes' LIMIT 3;", city, quality);
    rule(rules, "kb_parse", buf);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "stage", "verify");
    cJSON_AddStringToObject(v, "reply", "Yes");
    cJSON_AddItemToArray(rules, v);
    cJSON *sm = cJSON_CreateObject();
    cJSON_AddStringToObject(sm, "stage", "summary");
    cJSON_AddStringToObject(sm, "reply", "Reviewers praise the handmade pasta and the candle-lit room; service "
                            "is warm but can be slow on weekends.");
    cJSON_AddItemToArray(rules, sm);
    cJSON *def = cJSON_AddObjectToObject(chat, "default");
    cJSON_AddStringToObject(def, "reply", "I looked for a romantic Italian place and found three: ...");
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

/* One search turn on a fresh conversation: *wall and *first in seconds;
 * *timings (caller frees) the turn's timings; *next_parse the size of the
 * next turn's parse prompt. */
static int search_turn(genie_chat *ch, const char *url, const char *city, const char *quality,
                       double *wall, double *first, cJSON **timings, size_t *next_parse)
{
    char *js = search_script(city, quality);
    int rc = mock_post(url, "script", js, NULL, 0);
    free(js);
    if (rc) return -1;
    genie_chat_reset(ch);
    probe p = { gn_now(), 0, NULL };
    ag_turn_out o;
    gn_err e;
    gn_err_clear(&e);
    char utt[128];
    snprintf(utt, sizeof utt, "find me a %s Italian place in %s", quality, city);
    rc = genie_turn(ch, utt, on_probe, &p, &o, &e);
    *wall = gn_now() - p.t0;
    *first = p.first_token;
    *timings = p.timings;
    if (!rc) {
        ag_turn_out_release(&o);
        char *np = ag_conv_parse_prompt(ch->cv, "Book the second one for two on Friday at 7pm");
        *next_parse = strlen(np);
        free(np);
    }
    return rc;
}

static void report_search(genie_chat *ch, const char *url)
{
    double wall, first;
    cJSON *tj = NULL;
    size_t next = 0;
    printf("search turn: SELECT *, summary(reviews) ... LIMIT 3 (prompt characters, largest of each stage)\n");
    if (search_turn(ch, url, "Palo Alto", "romantic", &wall, &first, &tj, &next)) {
        printf("  the search turn failed\n");
        return;
    }
    const cJSON *pc = cJSON_GetObjectItemCaseSensitive(tj, "prompt_chars");
    printf(" ");
    for (const cJSON *it = pc ? pc->child : NULL; it; it = it->next)
        printf(" %s %d", it->string, (int)it->valuedouble);
    printf("; next turn's parse %zu\n", next);
    cJSON_Delete(tj);
    tj = NULL;
    char cfg[64];
    snprintf(cfg, sizeof cfg, "{\"delay\": %.2f}", CALL_S);
    if (mock_post(url, "config", cfg, NULL, 0)) return;
    /* One call's latency as the client sees it (the mock's delay, HTTP,
     * the client): the unit of the multiples. */
    llm_msg m = { "user", "Reply OK." };
    llm_call_opts o = { .stage = LLM_STAGE_CHECK, .msgs = &m, .nmsgs = 1, .no_cache = 1 };
    gn_err e;
    double t0 = gn_now();
    llm_complete(ch->kb.cl, &o, NULL, NULL, &e);
    double one = gn_now() - t0;
    if (!search_turn(ch, url, "Sunnyvale", "cozy", &wall, &first, &tj, &next)) {
        const cJSON *by = cJSON_GetObjectItemCaseSensitive(tj, "calls_by_stage");
        printf("  latency, one LLM call %.0f ms (the mock waits %.0f ms): turn %.2f s (%.2fx one call), "
               "first reply token %.2f s (%.2fx); calls:", one * 1000, CALL_S * 1000, wall, wall / one,
               first, first / one);
        for (const cJSON *it = by ? by->child : NULL; it; it = it->next)
            printf(" %s %d", it->string, (int)it->valuedouble);
        printf("\n");
    }
    cJSON_Delete(tj);
    mock_post(url, "config", "{\"delay\": 0}", NULL, 0);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The configuration of the run: the flags genie would be given, read in
 * an environment of the temporary directory alone (no config file, no
 * prompt overrides of the user's). */
static int configure(cfg_t *c, const char *tmp, const char *dir, const char *db,
                     const char *vectors, const char *url, gn_err *e)
{
    char *home = xasprintf("HOME=%s", tmp), *sessions = xasprintf("%s/sessions.db", tmp);
    static const char *env[2];
    env[0] = home;
    cfg_set_environ(c, env);
    const char *argv[] = { "bench-agent", "--agent", dir, "--db", db, "--vectors", vectors,
                     "--llm-url", url, "--model", "mock",
                     "--no-cache", "--llm-concurrency", "8", "--connect-timeout", "5",
                     "--stall-timeout", "60", "--summaries", "extractive",
                     "--today", "2026-03-13", "--sessions", sessions };
    int rc = cfg_load(c, (int)(sizeof argv / sizeof *argv), (char **)argv, e);
    free(sessions);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dir = "sample_db/restaurants", *src = "sample_db/restaurants.db", *url = NULL;
    const char *vectors = "build/share/genie/wordvec.bin";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--agent")) dir = argv[i + 1];
        else if (!strcmp(argv[i], "--db")) src = argv[i + 1];
        else if (!strcmp(argv[i], "--url")) url = argv[i + 1];
        else if (!strcmp(argv[i], "--vectors")) vectors = argv[i + 1];
    }
    if (!url) {
        fprintf(stderr, "usage: bench-agent --url MOCK_URL [--agent DIR] [--db FILE] [--vectors FILE]\n");
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char tmpl[] = "/tmp/genie-bench-agent.XXXXXX";
    char *tmp = mkdtemp(tmpl), *db = xasprintf("%s/r.db", tmp);
    static const char *const ext[] = { "", ".faiss", ".vec", ".lex" };
    for (int i = 0; i < 4; i++) {
        char *a = xasprintf("%s%s", src, ext[i]), *b = xasprintf("%s%s", db, ext[i]);
        if (copy_file(a, b)) fprintf(stderr, "bench-agent: cannot copy %s\n", a);
        free(a);
        free(b);
    }
    char *utt[TURNS];
    char *js = script(utt);
    if (mock_post(url, "script", js, NULL, 0)) { fprintf(stderr, "bench-agent: the mock server at %s does not answer\n", url); return 1; }
    free(js);

    cfg_t *c = cfg_new();
    genie_chat ch = { 0 };
    gn_err e;
    gn_err_clear(&e);
    if (configure(c, tmp, dir, db, vectors, url, &e) || genie_chat_open(&ch, c, NULL, &e)) {
        fprintf(stderr, "bench-agent: %s\n", e.msg);
        genie_chat_close(&ch);
        cfg_free(c);
        return 1;
    }
    double engine[TURNS];
    long calls[LLM_STAGE__COUNT] = { 0 };
    size_t history = 0, base = 0;
    int errors = 0, done = 0;
    llm_stats s0[LLM_STAGE__COUNT], s1[LLM_STAGE__COUNT];
    printf("agent: %d-turn scripted conversation with %s (mock LLM)\n", TURNS, ch.agent->name);
    printf("  turn  prompt tokens  full-history tokens  ratio\n");
    {
        char *p = ag_conv_parse_prompt(ch.cv, "");
        base = strlen(p);      /* the prompt with an empty state */
        free(p);
    }
    for (int t = 0; t < TURNS; t++) {
        char *prompt = ag_conv_parse_prompt(ch.cv, utt[t]);
        size_t now = strlen(prompt);
        free(prompt);
        int n = t + 1;
        if (n == 5 || n == 20 || n == 50) {
            size_t full = base + strlen(utt[t]) + history;
            printf("  %4d  %13zu  %19zu  %5.2f\n", n, now / 4, full / 4, (double)full / (double)now);
        }
        llm_client_stats(ch.kb.cl, s0);
        ag_turn_out o;
        if (genie_turn(&ch, utt[t], NULL, NULL, &o, &e)) { errors++; continue; }
        llm_client_stats(ch.kb.cl, s1);
        for (int s = 0; s < LLM_STAGE__COUNT; s++) calls[s] += s1[s].calls - s0[s].calls;
        engine[t] = o.ms_total - o.ms_llm;
        if (o.error) errors++;
        if (strstr(o.acts_json, "booked")) done++;
        /* What a full-history parser would carry for this turn. */
        history += strlen(utt[t]) + strlen(o.parse) + strlen(o.suql_json) + strlen(o.response) + 40;
        ag_turn_out_release(&o);
    }
    qsort(engine, TURNS, sizeof *engine, cmp_d);
    printf("  engine time per turn, LLM waits excluded: p50 %.2f ms, p95 %.2f ms, max %.2f ms\n",
           engine[TURNS / 2], engine[TURNS * 95 / 100], engine[TURNS - 1]);
    printf("  LLM calls per turn by stage:");
    long total = 0;
    for (int s = 0; s < LLM_STAGE__COUNT; s++)
        if (calls[s]) {
            printf(" %s %.2f", llm_stage_name(s), (double)calls[s] / TURNS);
            total += calls[s];
        }
    printf("; total %.2f\n", (double)total / TURNS);
    printf("  bookings completed: %d of %d; turns with an error: %d\n", done, ROUNDS, errors);
    report_search(&ch, url);
    genie_chat_close(&ch);
    cfg_free(c);
    for (int t = 0; t < TURNS; t++) free(utt[t]);
    for (int i = 0; i < 4; i++) {
        char *f = xasprintf("%s%s", db, ext[i]);
        unlink(f);
        free(f);
    }
    char *f = xasprintf("%s/sessions.db", tmp);
    unlink(f);
    free(f);
    free(db);
    rmdir(tmp);
    curl_global_cleanup();
    return errors ? 1 : 0;
}
