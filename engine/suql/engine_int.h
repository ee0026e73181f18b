/*
 * engine_int.h — internals shared by the engine's files: engine.c
 * (lifecycle, the run's dispatch), evaluate.c (the budget and the SQLite
 * functions of answer() and summary()), hooks.c (emit hooks), runsql.c
 * (one statement), shape.c (a query's form), stats.c, optimize.c and
 * pushdown.c (the optimized run).  Not a public header.
 */
#ifndef GENIE_SUQL_ENGINE_INT_H
#define GENIE_SUQL_ENGINE_INT_H

#include "suql/analyze.h"
#include "suql/classify.h"
#include "suql/dnf.h"
#include "suql/emit.h"
#include "suql/engine.h"
#include "suql/freetext.h"
#include "suql/parse.h"

/* A value computed for one answer()/summary() node for the current row,
 * substituted into SQL as a literal by the "literal" emit hook. */
typedef struct node_value {
    const suql_expr *node;
    const char *text;             /* NULL: SQL NULL */
} node_value;

/* A type hint for an answer() under a cast. */
typedef struct node_hint {
    const suql_expr *node;
    const char *hint;
} node_hint;

struct suql_engine {
    suql_engine_config cfg;
    suql_ft *ft;
    suql_classifier *cls;
    /* the current run */
    suql_run_stats *st;
    int budget, used;
    int reserve;                  /* evaluations kept for the select list */
    int reserve_outer;            /* ... of the join a pushed-down run decides
                                     rows for (pushdown.c), else 0 */
    int nconj;                    /* conjuncts of the optimized run's WHERE */
    int explain;                  /* CLASSIFY: mappings that need no LLM only */
    gn_buf mapped;                /* explain: the enum values mapped, a line each */
    gn_buf unmatched;             /* literals that are none of their column's
                                     values, for the note ("'x' is none of ...") */
    gn_buf unranked;              /* why the retrieval index could not rank a
                                     conjunct's candidates, for the note */
    int collect;                  /* SQLite functions queue requests */
    int readback;                 /* the pass after collecting: the memo
                                     gives back what was just asked, which
                                     is not a memo hit (account.h) */
    suql_ft_req *queue;           /* collected requests (strings owned) */
    int nqueue, capqueue;
    node_value *vals;             /* literal hook: values of the row */
    int nvals;
    node_hint *hints;
    int nhints;
    gn_err ferr;                  /* an error inside a SQLite function */
    int ferr_set;
    suql_progress_fn progress;    /* suql_engine_watch */
    void *progress_ud;
    const atomic_int *cancel;
    double t_start;               /* this run's start (gn_now), 0: none */
    int stopped;                  /* the progress handler interrupted SQLite:
                                     STOP_TIME or STOP_CANCEL */
};

enum { STOP_NONE, STOP_TIME, STOP_CANCEL };

/* A name looked up by a pattern finds the name itself first: a query
 * without ORDER BY whose WHERE has `column ILIKE '%text%'` and a LIMIT is
 * ordered with the rows whose value is the text (case ignored) first
 * (exactfirst.c).  Nodes in Q's arena; SEL otherwise as it was. */
void suql_exact_first(suql_query *q, suql_select *sel);

/* Emit hooks: CLASSIFY for literals; answer()/summary() as calls of the
 * SQLite functions (hooks.c). */
extern const suql_emit_hooks *suql_hooks_calls(suql_engine *en, suql_emit_hooks *h);
/* The same, but answer()/summary() nodes found in en->vals are literals. */
extern const suql_emit_hooks *suql_hooks_literals(suql_engine *en, suql_emit_hooks *h);

/* Record the type hints of answer() nodes under casts in SEL. */
void suql_collect_hints(suql_engine *en, const suql_select *sel);

/* ---- evaluate.c ---- */

/* Register suql_answer() and suql_summary() on the engine's database:
 * SQLite's code (SQLITE_OK). */
int suql_register_freetext(suql_engine *en);
/* Drop the requests queued by a first pass. */
void suql_queue_free(suql_engine *en);

/* ---- runsql.c ---- */

/* GN_ELIMIT: the run went past its time limit (named, with the flag). */
int suql_time_error(const suql_engine *en, gn_err *e);
/* The error of stepping SQL: the limit or the cancel that stopped it, or
 * SQLite's message with the limits named. */
int suql_step_error(suql_engine *en, const char *sql, gn_err *e);
/* Has the current run worked past its time limit? */
int suql_past_time(const suql_engine *en);
/* SQLite's progress handler (UD: the engine): 1 stops the statement when
 * the run is past its time or cancelled. */
int suql_on_progress(void *ud);
/* After the final statement of SEL gave RES: how many rows matched in all
 * (st->matched), and those tied with the last one at a LIMIT (st->tied). */
void suql_count_matched(suql_engine *en, suql_query *q, const suql_select *sel, const suql_result *res);

/* Run SQL (one SELECT) into RES, naming the columns after the statement's.
 * With COLLECT, a first pass only queues the free-text requests of the
 * rows, which then run concurrently before the real pass. */
int suql_run_sql(suql_engine *en, const char *sql, int collect, suql_result *res, gn_err *e);

/* Evaluate REQS[N] within the budget: 0 and the statuses in the requests,
 * or GN_ELIMIT when the budget does not allow them all (nothing run). */
int suql_eval(suql_engine *en, suql_ft_req *reqs, int n, gn_err *e);

/* SEL's ORDER BY with select-list aliases (and positions) replaced by
 * their expressions, for statements whose select list is not SEL's. */
suql_order *suql_order_sans_alias(suql_query *q, const suql_select *sel);

/* The evaluations kept for a select list of NFT free-text calls over the
 * WANT rows a query returns (-1: all): at most half the budget. */
int suql_select_reserve(const suql_engine *en, long want, int nft);

/* The optimized run of SEL over table T, aliased A, whose WHERE clause
 * is DNF (optimize.c); the select list's share of the budget is kept
 * (en->reserve, or en->reserve_outer when larger).  With en->explain, PLAN gets the explanation
 * instead of running. */
int suql_run_optimized(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t,
                       const char *a, const suql_dnf *dnf, suql_result *res, gn_buf *plan,
                       gn_err *e);

/* Reorder the row ids V[N] (distinct) so that those of FIRST[NFIRST] (a
 * ranking; ids not in V and repeats are skipped) come first, in FIRST's
 * order, and the others keep their order after them.  V stays a
 * permutation of itself (asserted). */
void suql_rank_first(int64_t *v, long n, const int64_t *first, long nfirst);

/* Table T's _id column qualified by ALIAS, a new unannotated node. */
suql_expr *suql_id_column(suql_query *q, const struct st_table *t, const char *alias);
/* T._id IN (V[N]) as a new node (FALSE for no ids). */
suql_expr *suql_in_ids(suql_query *q, const struct st_table *t, const char *alias, const int64_t *v,
                       long n);

/* A join whose free-text filters all read one table (pushdown.c). */
typedef struct suql_pushdown {
    const struct st_table *t;
    const char *alias;
    suql_select inner;       /* SELECT alias._id FROM t AS alias WHERE the
                                conjuncts that read only t */
    suql_target target;
    suql_from *from;
    suql_dnf dnf;            /* inner's WHERE */
} suql_pushdown;

/* Can SEL's free-text filters run optimized over their one table?  1
 * with PD filled (its nodes in Q's arena), 0 when not: a single table,
 * a CTE, free text in ORDER BY, a free-text conjunct reading two tables,
 * a subquery or an outer query's column. */
int suql_pushdown_plan(suql_query *q, suql_select *sel, suql_pushdown *pd);

/* Run SEL through PD: the inner query optimized (ranked candidates,
 * batched checks, the budget), then SEL with its free-text conjuncts
 * replaced by alias._id IN (the ids that passed).  With en->explain, PLAN
 * gets the explanation instead. */
int suql_run_pushdown(suql_engine *en, suql_query *q, suql_select *sel, suql_pushdown *pd,
                      suql_result *res, gn_buf *plan, gn_err *e);

/* Each CTE of SEL that is one table with free-text filters in WHERE has
 * them decided first by the optimizer, its WHERE then replaced by
 * alias._id IN (the rows that passed), so the query around it runs in
 * SQLite (pushdown.c); *DONE counts them.  With en->explain, PLAN gets
 * the explanation.  Returns 0 or the error of a run. */
int suql_run_cte_filters(suql_engine *en, suql_query *q, suql_select *sel, int *done, gn_buf *plan,
                         gn_err *e);

/* Does SEL's ORDER BY hold free text? */
int suql_order_has_freetext(const suql_select *sel);

/* How many select-list items hold free text. */
int suql_freetext_targets(const suql_select *sel);

/* The final statement over table T (alias A): SEL with WHERE replaced by
 * _id IN (IDS) when NIDS >= 0 (no row when it is 0), SEL's own WHERE when
 * NIDS is -1; in the order of IDS when KEEP_ORDER and SEL has no ORDER BY.  Without aggregates the
 * rows are chosen first by a statement without free text, so answer()
 * and summary() run for the rows returned only.  Then run with the
 * collect pass (optimize.c). */
int suql_run_final(suql_engine *en, suql_query *q, suql_select *sel, const st_table *t,
                   const char *a, const int64_t *ids, long nids, int keep_order,
                   suql_result *res, gn_err *e);

/* Does SEL aggregate (GROUP BY, HAVING, DISTINCT, or an aggregate call in
 * the select list), so that LIMIT does not bound the rows needed? */
int suql_aggregates(const suql_select *sel);

/* The evaluations budget of SEL. */
int suql_budget_for(const suql_engine *en, const suql_select *sel);

/* LIMIT + OFFSET of SEL when both are constants, else -1. */
long suql_rows_wanted(const suql_select *sel);

#endif
