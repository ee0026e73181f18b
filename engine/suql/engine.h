/*
 * engine.h — running SUQL queries: plan, optimize, execute, explain.
 *
 * A query is parsed (parse.h), its names resolved (analyze.h), and then run
 * one of three ways, the plan `--explain` shows:
 *
 *   plain      no free text in WHERE: the whole query in SQLite; answer()
 *              and summary() in the select list are computed for the rows
 *              returned only, concurrently, before the final SELECT reads
 *              them from the memo.
 *   optimized  one base table with free-text filters in WHERE: the WHERE
 *              clause in DNF; per conjunct the structured atoms select the
 *              candidate rows in SQLite (in ORDER BY order when there is
 *              one, else ranked by the retrieval index's aggregated
 *              similarity to the conjunct's questions); the free-text atoms
 *              are then checked candidate by candidate, a window at a time
 *              and concurrently (a window's verifications of one filter in
 *              shared LLM calls), until the rows LIMIT (plus OFFSET) asks
 *              for are known or the budget is spent; the final SELECT runs
 *              over the rows that passed.
 *   per-row    anything else with free text (joins, subqueries, free text
 *              inside aggregates): the query as written in SQLite, answer()
 *              and summary() evaluated row by row through SQLite functions,
 *              still memoized and budgeted.
 *
 * The budget bounds the free-text evaluations (LLM calls, or offline
 * computations) of one query; when it runs out the result carries a note
 * saying so and how far it got, never a silent truncation.
 */
#ifndef GENIE_SUQL_ENGINE_H
#define GENIE_SUQL_ENGINE_H

#include "llm/client.h"
#include "llm/template.h"
#include "retrieval/index.h"
#include "store/kb.h"
#include "suql/result.h"

#include <stdatomic.h>

/* LLM calls in flight at once when the configuration gives no number
 * (the client's bound, llm/client.h). */
#define SUQL_CONCURRENCY 8
/* Default budget: SUQL_BUDGET_PER_ROW evaluations per row asked for by
 * LIMIT (+ OFFSET), at least SUQL_BUDGET_MIN; SUQL_BUDGET_NOLIMIT when the
 * query has no LIMIT, and at most that with one. */
#define SUQL_BUDGET_PER_ROW 10
#define SUQL_BUDGET_MIN 40
#define SUQL_BUDGET_NOLIMIT 200
/* The random sample of the unchecked candidates that estimates an
 * aggregate's matches: at most this many rows, and a third of the budget. */
#define SUQL_SAMPLE 60

typedef struct suql_engine suql_engine;

typedef struct suql_engine_config {
    sqlite3 *db;                 /* the knowledge base, guarded (st_guard) */
    const st_schema *schema;
    rt_index *ix;                /* may be NULL: candidates stay in SQL order */
    rt_embedder *em;             /* required (passages, offline, CLASSIFY) */
    llm_client *client;          /* NULL: offline */
    const llm_tpl *answer_tpl, *verify_tpl, *summary_tpl, *classify_tpl;
    const llm_tpl *verify_rows_tpl;   /* several rows a verify call; NULL: one */
    int verify_batch;            /* rows a verify call (freetext.h); 0: the default */
    int legacy_checks;           /* the checks as they were before they went
                                    most relevant first under ORDER BY and
                                    short-circuited ANDed filters: every
                                    filter of a candidate, in ORDER BY order
                                    (the benchmark's baseline, bench/suql.c) */
    int relevance_stop;          /* ORDER BY ... LIMIT past the budget as it
                                    was before the exact walk: most relevant
                                    first, stopping at LIMIT passes (the
                                    benchmark's baseline of exactness) */
    int embed_passages;          /* rank a row's passages for a prompt by
                                    embedding each, not with the index's
                                    stored vectors (the benchmark's baseline) */
    double offline_threshold;    /* <= 0: the default */
    int (*verdict)(void *ud, const char *value, const char *question);
    void *verdict_ud;            /* offline verify by an oracle (freetext.h) */
    int budget;                  /* evaluations per query; 0: the default */
    int concurrency;             /* LLM calls in flight at once (the
                                    client's bound): a window of candidates
                                    is sized to fill them; 0: SUQL_CONCURRENCY */
    int window;                  /* candidates a window checks: 0, sized
                                    window by window from the pass rate
                                    (optimize.c); > 0, always that many (the
                                    fixed window of before, bench/suql.c) */
    int summary_extractive;      /* summary() from the passages, no LLM
                                    call (freetext.h) */
    int count_matched;           /* count the rows a LIMIT cut (stats'
                                    matched), for a reply that says "3 of
                                    10"; one more statement a run */
    const char *today;           /* what CURRENT_DATE is, YYYY-MM-DD (NULL
                                    or "": the system's date); copied */
    double time_limit;           /* seconds a query may work, from its
                                    parse to its last row (LLM waits not
                                    counted); <= 0: the default,
                                    SUQL_TIME_LIMIT */
    long long memory_limit;      /* bytes of SQLite memory a query may use
                                    beyond what was in use when it began;
                                    <= 0: SUQL_MEMORY_LIMIT.  A text value
                                    may hold a sixteenth of it (at most
                                    SQLite's 1e9 bytes) */
} suql_engine_config;

/* The default time limit of a query, in seconds of work. */
#define SUQL_TIME_LIMIT 30.0
/* The default memory limit of a query: 1 GiB.  SQLite's memory is one
 * heap for the process (sqlite3_hard_heap_limit64), so while a query runs
 * the limit holds for every connection: the query's own allocations are
 * what can reach it. */
#define SUQL_MEMORY_LIMIT (1LL << 30)
/* Rows and bytes a result may hold (text by its length, a number as 8);
 * past them it is cut, with a note (a cross join of four tables must not
 * take the memory). */
#define SUQL_MAX_ROWS 100000
#define SUQL_MAX_BYTES (64L << 20)
/* The most rows a count of the matches goes to (stats' matched). */
#define SUQL_COUNT_MAX 10000

/* What one step of an optimized run did (--explain --analyze): a conjunct
 * of the WHERE (its structured query, then its free-text checks), or the
 * final query with the select list's free text. */
typedef struct suql_step_stats {
    int conjunct;                /* 1.., or 0 for the final step */
    long candidates, checked, passed;
    long evaluations, llm_calls, cache_hits, memo_hits;
    double ms_total, ms_llm;
} suql_step_stats;

#define SUQL_TIED_MAX 50          /* ties at a LIMIT's cut counted */
#define SUQL_MAX_STEPS 17         /* conjuncts shown one by one, then the final step */

/* What one run did (for --explain --analyze and the UI). */
typedef struct suql_run_stats {
    const char *mode;            /* "plain", "optimized", "per-row" */
    long conjuncts, candidates, checked, passed, rows;
    long matched;                /* rows the query selects without its LIMIT,
                                    when counted (a plain run whose LIMIT
                                    cut the result; past SUQL_COUNT_MAX
                                    means more than that); 0: not known */
    long tied;                   /* of the rows a LIMIT cut, those that tie
                                    with the last row kept on the ORDER BY
                                    keys (counted with matched; at most
                                    SUQL_TIED_MAX) */
    int cut;                     /* the result was cut at SUQL_MAX_ROWS or
                                    SUQL_MAX_BYTES */
    /* llm_calls: requests sent to the LLM server; cache_hits: replies
     * the LLM cache gave instead; memo_hits: free-text questions this run
     * had already answered, which asked nothing (llm.h's account.h defines
     * the first two for every front end). */
    long evaluations, llm_calls, cache_hits, memo_hits, offline, failures;
    long rounds;                 /* batches of free-text requests that sent
                                    calls: the LLM waits one after another
                                    (a batch's calls are in flight together) */
    long classify_calls;         /* of llm_calls: CLASSIFY mapping enum literals */
    long classify_cached;        /* of cache_hits: the same */
    int budget, budget_hit;
    int relevance_first;         /* an ORDER BY query's candidates were checked
                                    most relevant first: the budget could not
                                    check them all in its order (optimize.c) */
    /* An aggregate over a free-text filter the budget could not check
     * whole: a random sample of the unchecked candidates estimates the
     * matches among them (optimize.c, run_sampled). */
    long sampled, sample_passed; /* rows of the sample; of those, passing */
    long sample_rest;            /* candidates neither ranked-checked nor sampled */
    long confirmed;              /* passing rows found in all */
    long est_total, est_lo, est_hi;   /* matches in all: estimate, 95% interval */
    int unmatched;               /* a literal was none of its column's values
                                    (the note says which, and the values) */
    int inexact;                 /* an ORDER BY ... LIMIT answer may not be the
                                    first rows of all that pass: a candidate
                                    placed before the last row kept was not
                                    checked */
    long bound;                  /* explain: the most evaluations the
                                    filters could need (candidates x
                                    free-text requests per candidate) */
    double ms_total, ms_llm;     /* wall time; time waiting for the LLM */
    suql_step_stats steps[SUQL_MAX_STEPS];   /* optimized runs: per step; */
    int nsteps;                  /* conjuncts past the 16th add to the 16th */
} suql_run_stats;

/* A new engine; borrowed pointers must outlive it.  Registers the SQLite
 * functions suql_answer and suql_summary and a progress handler (the time
 * limit, cancel) on the connection: one engine a connection.  Returns 0 or
 * GN_EDB. */
int suql_engine_new(const suql_engine_config *cfg, suql_engine **out, gn_err *e);
void suql_engine_free(suql_engine *en);

/* Progress of the free-text checks of a run: called on the running thread
 * after each window of candidates with the candidates checked so far and
 * the candidates there are. */
typedef void (*suql_progress_fn)(void *ud, long checked, long candidates);

/* Watch the runs of EN: FN (may be NULL) gets their progress, and CANCEL
 * (may be NULL) is polled between windows of candidates: once it is set
 * the run fails with GN_ECANCEL.  Set them around a run; NULLs clear. */
void suql_engine_watch(suql_engine *en, suql_progress_fn fn, void *ud, const atomic_int *cancel);

/* Run TEXT into RES (initialized here; caller releases; its columns carry
 * the analyzed types of the select list); STATS (may be NULL) gets what
 * the run did.  Returns 0, or the error of parsing,
 * analysis (with the position), SQLite, or an LLM failure that left a
 * filter undecided (GN_ENET...). */
int suql_execute(suql_engine *en, const char *text, suql_result *res, suql_run_stats *stats,
                 gn_err *e);

/* Append the plan of TEXT to OUT without calling any LLM: the normalized
 * query, the mode, the DNF, the SQL of each conjunct with its candidate
 * count, the retrieval step, the enum mappings already known, the
 * verification order, the budget and an upper bound on LLM calls. */
int suql_explain(suql_engine *en, const char *text, gn_buf *out, gn_err *e);

/* The plan's counts of STATS as JSON (caller frees): {candidates,
 * verified, passed, llm_calls, cache_hits, budget_hit (only when true)}. */
cJSON *suql_stats_json(const suql_run_stats *stats);

/* Append the --analyze report of STATS to OUT. */
void suql_stats_print(const suql_run_stats *stats, gn_buf *out);

#endif
