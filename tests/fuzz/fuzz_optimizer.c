/*
 * fuzz_optimizer.c — libFuzzer target for the whole free-text optimizer:
 * a SUQL query made of everyday parts runs through suql_execute on the
 * sample restaurants (offline, with the retrieval index) and its rows are
 * compared with a deterministic in-process oracle.
 *
 * The input's bytes choose the parts: structured filters (enum, array,
 * number, IN list), free-text filters (verify forms: = 'Yes', = 'No',
 * <> 'Yes'), how they combine (AND, OR of conjuncts, an OR of two
 * questions), ORDER BY, LIMIT, OFFSET, the shape (one table, a CTE, a join
 * with restaurant_hours), and the engine's budget, verify batch and
 * window.
 *
 * The verdicts come from a pure function of the row's text and the
 * question (verdict(): a hash, with a "Yes" rate that differs by question,
 * from one in two to one in three hundred), given to the engine's offline
 * evaluator as its oracle (suql_engine_config.verdict), so a run costs
 * what the optimizer costs, not what the similarity test does.  The oracle
 * is the same query as plain SQLite on a second connection, each
 * free-text filter replaced by fz_holds(col, question, negated), the same
 * function row by row (the naive per-row evaluation).  It aborts when
 *   - a row returned does not pass the filters (every row, whatever the
 *     budget: the multiset of rows is contained in the oracle's);
 *   - more rows come back than LIMIT asks for;
 *   - the run was exact (no budget note, no relevance-first order) but
 *     its rows differ from the oracle's: without ORDER BY as many as the
 *     oracle has (up to LIMIT), with ORDER BY the same sort keys in the
 *     same order;
 *   - the run used more evaluations than its budget (the bound --explain
 *     prints);
 *   - suql_execute fails on a query that is valid.
 * Needs GENIE_TOP (or the current directory) with sample_db/restaurants.db,
 * its index, and build/share/genie/wordvec.bin.
 *
 *   make build/fuzz/fuzz_optimizer
 *   GENIE_TOP=$PWD build/fuzz/fuzz_optimizer -max_total_time=300 CORPUS tests/fuzz/seeds/fuzz_optimizer
 */
#include "retrieval/index.h"
#include "store/kb.h"
#include "suql/engine.h"
#include "suql/freetext.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the fixture: opened once a process ----------------------------------------- */

static struct {
    int ready;
    sqlite3 *db, *odb;          /* the engine's (guarded), the oracle's */
    st_schema *s;
    rt_embedder *em;
    rt_index *ix;
} fx;

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "fuzz_optimizer: %s: %s\n", what, msg ? msg : "");
    abort();
}

/* The question's "Yes" rate: one in RATE[i] rows. */
static const char *const questions[] = {
    "is it romantic?", "good for kids?", "does it have a patio?", "is the service friendly?",
    "is it quiet?", "do they have vegan options?", "is it good for groups?",
};
static const unsigned rate[] = { 2, 3, 5, 9, 30, 100, 300 };
#define NQ (sizeof questions / sizeof *questions)

/* Is the answer to QUESTION about VALUE "Yes"?  FNV-1a of both. */
static int verdict(void *ud, const char *value, const char *question)
{
    (void)ud;
    uint32_t h = 2166136261u;
    for (const char *p = value; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    h = (h ^ 0xff) * 16777619u;
    unsigned r = 7;
    for (size_t i = 0; i < NQ; i++)
        if (!strcmp(questions[i], question)) r = rate[i];
    for (const char *p = question; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    return (h >> 8) % r == 0;
}

/* fz_holds(value, question, negated): the filter `answer(value, question)
 * = 'Yes'` (negated: `= 'No'`) for this row; a NULL value never holds. */
static void fz_holds(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    const char *val = (const char *)sqlite3_value_text(v[0]);
    const char *q = (const char *)sqlite3_value_text(v[1]);
    int neg = sqlite3_value_int(v[2]);
    sqlite3_result_int(c, val && q ? verdict(NULL, val, q) != neg : 0);
}

static void open_fixture(void)
{
    const char *top = getenv("GENIE_TOP");
    char db[4096], vec[4096];
    snprintf(db, sizeof db, "%s/sample_db/restaurants.db", top ? top : ".");
    snprintf(vec, sizeof vec, "%s/build/share/genie/wordvec.bin", top ? top : ".");
    gn_err e;
    rt_opts o;
    rt_opts_default(&o);
    if (st_open(db, 0, &fx.db, &e) || st_schema_load(fx.db, &fx.s, &e) ||
        rt_embedder_glove_new(vec, &fx.em, &e) || rt_index_open(fx.db, db, fx.em, &o, &fx.ix, &e) ||
        st_guard(fx.db, &e))
        die("fixture", e.msg);
    if (sqlite3_open_v2(db, &fx.odb, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) die("oracle db", db);
    sqlite3_create_function(fx.odb, "fz_holds", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            fz_holds, NULL, NULL);
    fx.ready = 1;
}

/* ---- the query, from the input ------------------------------------------------------ */

typedef struct {
    const uint8_t *p;
    size_t n;
} bytes;

static unsigned pick(bytes *b, unsigned k)
{
    if (!b->n) return 0;
    unsigned v = *b->p++;
    b->n--;
    return v % k;
}

/* Each structured filter as SUQL and as SQLite, over the alias "r". */
static const char *const structured[][2] = {
    { "r.price = 'cheap'", "r.price = 'cheap'" },
    { "r.location = 'Palo Alto'", "r.location = 'Palo Alto'" },
    { "r.location = 'Cupertino'", "r.location = 'Cupertino'" },
    { "r.rating >= 4", "r.rating >= 4" },
    { "r.rating >= 4.7", "r.rating >= 4.7" },
    { "'bars' = ANY (r.cuisines)",
      "EXISTS (SELECT 1 FROM json_each(r.cuisines) WHERE value = 'bars')" },
    { "'italian' = ANY (r.cuisines)",
      "EXISTS (SELECT 1 FROM json_each(r.cuisines) WHERE value = 'italian')" },
    { "r.num_reviews > 200", "r.num_reviews > 200" },
    { "r.location IN ('Sunnyvale', 'Mountain View')", "r.location IN ('Sunnyvale', 'Mountain View')" },
    { "r.price <> 'luxury'", "r.price <> 'luxury'" },
};
#define NSTRUCT (sizeof structured / sizeof *structured)

/* A free-text filter in both dialects. */
static void freetext(bytes *b, gn_buf *sq, gn_buf *ol)
{
    const char *q = questions[pick(b, NQ)];
    unsigned form = pick(b, 3);
    static const char *const suql_form[] = { "= 'Yes'", "= 'No'", "<> 'Yes'" };
    gn_buf_printf(sq, "answer(r.reviews, '%s') %s", q, suql_form[form]);
    gn_buf_printf(ol, "fz_holds(r.reviews, '%s', %d) = 1", q, form != 0);
}

static void structured_atom(bytes *b, gn_buf *sq, gn_buf *ol)
{
    unsigned i = pick(b, NSTRUCT);
    gn_buf_puts(sq, structured[i][0]);
    gn_buf_puts(ol, structured[i][1]);
}

/* The same text into both dialects. */
static void both(gn_buf *sq, gn_buf *ol, const char *text)
{
    gn_buf_puts(sq, text);
    gn_buf_puts(ol, text);
}

/* The WHERE clause: at least one free-text filter. */
static void where(bytes *b, gn_buf *sq, gn_buf *ol)
{
    switch (pick(b, 4)) {
    case 0:          /* s AND f */
    case 1: {
        unsigned ns = pick(b, 3);
        for (unsigned i = 0; i < ns; i++) {
            structured_atom(b, sq, ol);
            both(sq, ol, " AND ");
        }
        freetext(b, sq, ol);
        if (pick(b, 2)) {
            both(sq, ol, " AND ");
            freetext(b, sq, ol);
        }
        break;
    }
    case 2:          /* (s AND f) OR (s AND f) */
        for (int i = 0; i < 2; i++) {
            both(sq, ol, i ? " OR (" : "(");
            structured_atom(b, sq, ol);
            both(sq, ol, " AND ");
            freetext(b, sq, ol);
            both(sq, ol, ")");
        }
        break;
    default:         /* s AND (f OR f) */
        structured_atom(b, sq, ol);
        both(sq, ol, " AND (");
        freetext(b, sq, ol);
        both(sq, ol, " OR ");
        freetext(b, sq, ol);
        both(sq, ol, ")");
        break;
    }
}

/* ORDER BY choices: SUQL, SQLite (PostgreSQL puts NULLs first on DESC). */
static const char *const orders[][2] = {
    { "", "" },
    { " ORDER BY r.rating DESC", " ORDER BY r.rating DESC NULLS FIRST" },
    { " ORDER BY r.num_reviews", " ORDER BY r.num_reviews NULLS LAST" },
    { " ORDER BY r.name", " ORDER BY r.name NULLS LAST" },
};
#define NORDER (sizeof orders / sizeof *orders)

typedef struct {
    gn_buf suql, oracle;
    unsigned order;
    long limit, offset;           /* -1: none */
    int budget, batch, window;
} query;

static void make_query(bytes *b, query *q)
{
    gn_buf w, wo;
    gn_buf_init(&w);
    gn_buf_init(&wo);
    where(b, &w, &wo);
    q->order = pick(b, NORDER);
    q->limit = pick(b, 3) ? (long)pick(b, 12) + 1 : -1;
    q->offset = q->limit > 0 && !pick(b, 4) ? (long)pick(b, 4) : 0;
    static const int budgets[] = { 0, 0, 5000, 5000, 1, 8, 20, 40, 100 };
    q->budget = budgets[pick(b, sizeof budgets / sizeof *budgets)];
    q->batch = (int)pick(b, 17);                  /* 0: the default */
    q->window = (int)pick(b, 41);                 /* 0: the default */
    unsigned shape = pick(b, 3);
    char tail[64] = "";
    if (q->limit > 0) snprintf(tail, sizeof tail, " LIMIT %ld", q->limit);
    if (q->offset > 0) snprintf(tail + strlen(tail), sizeof tail - strlen(tail), " OFFSET %ld", q->offset);
    gn_buf_init(&q->suql);
    gn_buf_init(&q->oracle);
    const char *cols = "r.name, r.address, r.rating, r.num_reviews";
    /* one table; a CTE whose WHERE holds the free text, the order outside
     * it; a join whose free text reads one table (pushed down) */
    static const char *const shapes[] = {
        "SELECT %1$s FROM restaurants AS r WHERE %2$s%3$s%4$s",
        "WITH c AS (SELECT * FROM restaurants AS r WHERE %2$s) SELECT %1$s FROM c AS r%3$s%4$s",
        "SELECT %1$s FROM restaurants AS r JOIN restaurant_hours AS h ON h.restaurant_id = r._id "
        "WHERE h.day = 'Fri' AND h.closes >= '22:00' AND (%2$s)%3$s%4$s",
    };
    gn_buf_printf(&q->suql, shapes[shape], cols, w.data, orders[q->order][0], tail);
    gn_buf_printf(&q->oracle, shapes[shape], cols, wo.data, orders[q->order][1], tail);
    gn_buf_release(&w);
    gn_buf_release(&wo);
}

/* ---- rows, compared ----------------------------------------------------------------- */

/* A row as one line of text: name|address|rating|num_reviews. */
typedef struct {
    char **v;
    int n;
} rows;

static void rows_add(rows *r, char *line)
{
    r->v = xrealloc(r->v, sizeof *r->v * (size_t)(r->n + 1));
    r->v[r->n++] = line;
}

static void rows_free(rows *r)
{
    for (int i = 0; i < r->n; i++) free(r->v[i]);
    free(r->v);
}

static char *fmt_real(double d)
{
    return xasprintf("%.6g", d);
}

static void oracle_rows(const char *sql, rows *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(fx.odb, sql, -1, &st, NULL) != SQLITE_OK) die(sqlite3_errmsg(fx.odb), sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char *rt = sqlite3_column_type(st, 2) == SQLITE_NULL ? xstrdup("NULL")
                                                              : fmt_real(sqlite3_column_double(st, 2));
        const char *nr = (const char *)sqlite3_column_text(st, 3);
        rows_add(out, xasprintf("%s|%s|%s|%s", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
                                rt, nr ? nr : "NULL"));
        free(rt);
    }
    sqlite3_finalize(st);
}

static void engine_rows(const suql_result *res, rows *out)
{
    for (int i = 0; i < res->nrows; i++) {
        const suql_cell *c = &res->cells[i * res->ncols];
        char b3[64];
        char *rt = c[2].type == SUQL_NULL ? xstrdup("NULL")
                                          : fmt_real(c[2].type == SUQL_INT ? (double)c[2].i : c[2].d);
        rows_add(out, xasprintf("%s|%s|%s|%s", c[0].text ? c[0].text : "NULL",
                                c[1].text ? c[1].text : "NULL", rt, suql_cell_text(&c[3], b3)));
        free(rt);
    }
}

/* The sort key of a row for ORDER choice O: its field as text. */
static const char *key_of(const char *row, unsigned o, char *buf, size_t n)
{
    int field = o == 1 ? 2 : o == 2 ? 3 : 0;
    const char *s = row;
    for (int f = 0; f < field; f++) s = strchr(s, '|') + 1;
    size_t len = strcspn(s, "|");
    if (len >= n) len = n - 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return buf;
}

static void fail(const query *q, const char *what, const rows *got, const rows *want)
{
    fprintf(stderr, "fuzz_optimizer: %s\n  query:  %s\n  oracle: %s\n  budget %d batch %d window %d\n",
            what, q->suql.data, q->oracle.data, q->budget, q->batch, q->window);
    for (int i = 0; i < got->n; i++) fprintf(stderr, "  got  %s\n", got->v[i]);
    for (int i = 0; i < want->n && i < 40; i++) fprintf(stderr, "  want %s\n", want->v[i]);
    abort();
}

/* Is every row of GOT in ALL, each as often as ALL has it at most? */
static int contained(const rows *got, const rows *all)
{
    char *used = xcalloc((size_t)all->n + 1, 1);
    int ok = 1;
    for (int i = 0; i < got->n && ok; i++) {
        int j = 0;
        while (j < all->n && (used[j] || strcmp(got->v[i], all->v[j]))) j++;
        if (j == all->n) ok = 0;
        else used[j] = 1;
    }
    free(used);
    return ok;
}

static void compare(const query *q, const suql_result *res, const suql_run_stats *st)
{
    rows got = { 0 }, want = { 0 }, all = { 0 };
    engine_rows(res, &got);
    oracle_rows(q->oracle.data, &want);
    /* every row that passes, whatever LIMIT and OFFSET */
    char *cut = strstr(q->oracle.data, " LIMIT ");
    char *full = cut ? xstrndup(q->oracle.data, (size_t)(cut - q->oracle.data)) : xstrdup(q->oracle.data);
    oracle_rows(full, &all);
    free(full);
    if (!contained(&got, &all)) fail(q, "a row that does not pass the filters", &got, &all);
    if (q->limit > 0 && got.n > q->limit) fail(q, "more rows than LIMIT", &got, &want);
    int budget = q->budget ? q->budget : st->budget;
    if (st->evaluations > budget) fail(q, "more evaluations than the budget", &got, &want);
    int exact = !res->note && !st->budget_hit && !st->relevance_first;
    if (exact && got.n != want.n) fail(q, "an exact run with another number of rows", &got, &want);
    if (exact && q->order) {
        char a[512], b[512];
        for (int i = 0; i < got.n; i++)
            if (strcmp(key_of(got.v[i], q->order, a, sizeof a), key_of(want.v[i], q->order, b, sizeof b)))
                fail(q, "an exact run in another order", &got, &want);
    }
    rows_free(&got);
    rows_free(&want);
    rows_free(&all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fx.ready) open_fixture();
    bytes b = { data, size };
    query q;
    make_query(&b, &q);
    suql_engine_config ec = { .db = fx.db, .schema = fx.s, .ix = fx.ix, .em = fx.em,
                              .budget = q.budget, .verify_batch = q.batch, .window = q.window,
                              .today = "2026-12-01", .verdict = verdict };
    suql_engine *en;
    gn_err e;
    if (suql_engine_new(&ec, &en, &e)) die("engine", e.msg);
    suql_result res;
    suql_run_stats st;
    if (suql_execute(en, q.suql.data, &res, &st, &e)) {
        fprintf(stderr, "fuzz_optimizer: %s\n  query: %s\n", e.msg, q.suql.data);
        abort();
    }
    compare(&q, &res, &st);
    suql_result_release(&res);
    suql_engine_free(en);
    gn_buf_release(&q.suql);
    gn_buf_release(&q.oracle);
    return 0;
}
