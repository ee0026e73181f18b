/*
 * freetext.h — evaluating answer(), summary() and free-text filters on
 * values of free-text columns, online (LLM) or offline, memoized.
 *
 * A request names what to compute on one value of a column: the text of
 * answer(value, question), the text of summary(value), or whether the
 * filter `answer(value, question) <op> <rhs>` holds (VERIFY, the
 * optimizer's per-candidate check with the verify prompt).  A value is the
 * column's text, or the JSON array of texts of an array column; its
 * elements are the passages.  The passages shown to the LLM are the
 * SUQL_FT_DOCS most similar to the question (all of them for summary, up
 * to a size bound), each cut at SUQL_FT_DOC_CHARS.
 *
 * A batch of requests runs at once: memo hits and offline requests are
 * answered immediately, the rest go to the LLM concurrently (the client's
 * concurrency bound applies).  Every result is memoized by (kind, value,
 * question, operator, right side, type hint) for the life of the evaluator,
 * so a query that asks the same thing twice, or a later query, pays once.
 * Failures are not memoized.
 *
 * Verifications of the same filter on several rows share LLM calls: up to
 * verify_batch rows a call with the verify_rows prompt, which lists the
 * rows and asks for one "N: Yes|No" line each (suql_ft_verdicts).  A row
 * the reply gives no clear verdict for is asked again alone, with the
 * verify prompt; a failed call fails its rows.  Each row's verdict is
 * memoized on its own, as if it had been asked alone.
 *
 * Offline (no client): answer → llm_offline_answer, summary →
 * llm_offline_summary, verify → llm_offline_match at the configured
 * threshold, inverted for `<> 'Yes'` and `= 'No'`; results are flagged.
 * With summary_extractive, summary() is always llm_offline_summary's: in
 * a conversation the response generator reads and phrases it, so an LLM
 * summary would only add a round of calls before the reply.
 */
#ifndef GENIE_SUQL_FREETEXT_H
#define GENIE_SUQL_FREETEXT_H

#include "llm/client.h"
#include "llm/template.h"
#include "retrieval/embed.h"
#include "retrieval/index.h"

#include <stdint.h>

#define SUQL_FT_DOCS 5
#define SUQL_FT_DOC_CHARS 1200
#define SUQL_FT_SUMMARY_CHARS 6000
#define SUQL_FT_SUMMARY_WORDS 60
/* Rows a verify call checks at once by default. */
#define SUQL_FT_BATCH 8
#define SUQL_FT_BATCH_MAX 64

typedef struct suql_ft suql_ft;

typedef struct suql_ft_config {
    rt_embedder *em;                  /* ranks passages; required */
    rt_index *ix;                     /* the passages' stored vectors, for a
                                         request that names its row (may be
                                         NULL: every passage embedded) */
    llm_client *client;               /* NULL: offline */
    const llm_tpl *answer_tpl, *verify_tpl, *summary_tpl;  /* with a client */
    const llm_tpl *verify_rows_tpl;   /* NULL: one row a verify call */
    int verify_batch;                 /* rows a verify call; 0: SUQL_FT_BATCH,
                                         1: one (the SUQL paper's way) */
    double offline_threshold;         /* verify offline; <= 0: the default */
    /* Offline, VERIFY's "is the answer Yes?" for a value (text or JSON
     * array text) and a question, instead of llm_offline_match: a
     * deterministic oracle for tests and fuzzers (NULL: the similarity
     * test).  Must be pure: the same arguments, the same verdict. */
    int (*verdict)(void *ud, const char *value, const char *question);
    void *verdict_ud;
    int summary_extractive;           /* summary() without the LLM */
} suql_ft_config;

typedef enum { SUQL_FT_ANSWER, SUQL_FT_SUMMARY, SUQL_FT_VERIFY } suql_ft_kind;

typedef struct suql_ft_req {
    /* in */
    suql_ft_kind kind;
    const char *field;      /* the column's name, for the prompts */
    const char *value;      /* text or JSON array text; NULL = SQL NULL */
    const char *question;   /* ANSWER, VERIFY */
    const char *op;         /* VERIFY: "=", "<>", ... */
    const char *rhs;        /* VERIFY: the right side as SUQL text, "'Yes'" */
    const char *type_hint;  /* ANSWER: e.g. "Reply with a whole number."; NULL */
    const char *tbl;        /* the value is column FIELD of row ROW of TBL, */
    int64_t row;            /* whose passages the index holds; NULL/0: unknown */
    /* out */
    const char *text;       /* ANSWER, SUMMARY: owned by the evaluator */
    int yes;                /* VERIFY: the filter holds */
    int offline;            /* computed by an offline fallback */
    int memo;               /* answered from the memo */
    int status;             /* 0 or a GN_* code, detail in err */
    gn_err err;
} suql_ft_req;

/* Counters since the evaluator was made. */
/* llm_calls: requests sent to the server; cache_hits: replies the
 * LLM cache gave instead; memo_hits: requests this evaluator had already
 * answered (the same text and question), which asked nothing at all. */
typedef struct suql_ft_stats {
    long requests, memo_hits, llm_calls, cache_hits, offline, failures;
    long batched;           /* verifications answered in a call of several rows */
} suql_ft_stats;

/* A new evaluator; the pointers in CFG are borrowed and must outlive it. */
suql_ft *suql_ft_new(const suql_ft_config *cfg);
void suql_ft_free(suql_ft *ft);

/* Evaluate REQS[N] (see above); each request gets its own status.  A
 * NULL value gives NULL text (ANSWER, SUMMARY) or does not hold (VERIFY).
 * Returns 0, or GN_EUSAGE for a malformed request. */
int suql_ft_run(suql_ft *ft, suql_ft_req *reqs, int n, gn_err *e);

/* The verdicts of a reply to the verify_rows prompt for N rows: lines of
 * a row number (after an optional "Row", list bullet or emphasis) and Yes
 * or No, separated by ':', '.', ')', '-' or spaces; other lines are
 * skipped.  OUT[I] gets 1 (Yes), 0 (No) or -1 for row I + 1 when the reply
 * gives it no verdict, or two different ones.  A reply with no numbered
 * verdict is read as models also write it: JSON ({"1": "Yes"}, an array
 * of N verdicts, or of objects with a row number and a verdict), or
 * exactly N lines each a verdict alone, in row order.  Returns the rows
 * decided. */
int suql_ft_verdicts(const char *reply, int n, int *out);

/* Is R's result already known (memoized)?  A NULL value counts as known. */
int suql_ft_known(suql_ft *ft, const suql_ft_req *r);

/* Is the filter `answer(...) OP RHS` one VERIFY can decide (RHS 'Yes' or
 * 'No', any case, OP = or <>)? */
int suql_ft_verifiable(const char *op, const char *rhs_text);

void suql_ft_get_stats(const suql_ft *ft, suql_ft_stats *out);

/* Is the evaluator offline? */
int suql_ft_offline(const suql_ft *ft);

/* Rows one verify call carries: the configured batch, or 1 offline or
 * without the verify_rows prompt. */
int suql_ft_batch(const suql_ft *ft);

#endif
