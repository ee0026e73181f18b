/*
 * cmd_suql.c — `genie --suql QUERY`, `genie --explain QUERY [--analyze]`.
 *
 * The query connection is guarded (read-only wall, store/kb.h) after the
 * session has had its chance to rebuild a stale index.  Without an
 * up-to-date index (a read-only database whose index is stale) queries
 * still run, their candidates in SQL order, and a warning says so.  Query
 * errors print the message with line and column, then the line of the
 * query with a caret under the spot.
 */
#include "cli.h"
#include "plainout.h"

#include "llm/prompt.h"
#include "suql/engine.h"
#include "suql/parse.h"
#include "util/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *const tpl_names[CLI_T__COUNT] = { "answer", "verify", "summary", "classify",
                                                     "verify_rows" };

void cli_suql_close(cli_suql_ctx *x)
{
    suql_engine_free(x->en);
    for (int i = 0; i < CLI_T__COUNT; i++) llm_tpl_free(x->tpl[i]);
    llm_client_free(x->cl);
    cli_session_close(&x->s);
}

static int load_prompts(cli_suql_ctx *x, const cfg_t *c, gn_err *e)
{
    char *user, *shipped;
    cli_prompt_dirs(c, &user, &shipped);
    int rc = 0;
    for (int i = 0; i < CLI_T__COUNT && !rc; i++)
        rc = llm_prompt_load(user, shipped, tpl_names[i], &x->tpl[i], e);
    free(user);
    free(shipped);
    return rc;
}

int cli_suql_open(cli_suql_ctx *x, const cfg_t *c, const char *path, int conversation, gn_err *e)
{
    memset(x, 0, sizeof *x);
    int rc = cli_session_open_at(&x->s, c, path, 1, e);
    if (rc == GN_ESTALE && x->s.db) {
        fprintf(stderr, "genie: warning: %s; candidates will not be ranked by retrieval\n", e->msg);
        rc = 0;
    }
    if (!rc) rc = st_guard(x->s.db, e);
    if (!rc) rc = cli_llm_open(c, &x->cl, e);
    if (!rc && x->cl) rc = load_prompts(x, c, e);
    if (rc) return rc;
    suql_engine_config ec = {
        .db = x->s.db, .schema = x->s.schema, .ix = x->s.ix, .em = x->s.em, .client = x->cl,
        .answer_tpl = x->tpl[CLI_T_ANSWER], .verify_tpl = x->tpl[CLI_T_VERIFY],
        .summary_tpl = x->tpl[CLI_T_SUMMARY], .classify_tpl = x->tpl[CLI_T_CLASSIFY],
        .offline_threshold = cfg_double(c, OPT_OFFLINE_THRESHOLD),
        .budget = (int)cfg_int(c, OPT_BUDGET),
        .verify_rows_tpl = x->tpl[CLI_T_VERIFY_ROWS],
        .verify_batch = (int)cfg_int(c, OPT_VERIFY_BATCH),
        .window = (int)cfg_int(c, OPT_LLM_CONCURRENCY),
        .time_limit = cfg_double(c, OPT_QUERY_TIMEOUT),
        .today = cfg_str(c, OPT_TODAY),
        .count_matched = conversation,
        .summary_extractive = !strcmp(cfg_str(c, OPT_SUMMARIES), "extractive") ||
                              (conversation && !strcmp(cfg_str(c, OPT_SUMMARIES), "auto")),
    };
    return suql_engine_new(&ec, &x->en, e);
}

/* The query: the option's value, or standard input for "-". */
static char *query_text(const char *arg, gn_err *e)
{
    if (strcmp(arg, "-")) return xstrdup(arg);
    gn_buf b;
    gn_buf_init(&b);
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, stdin)) > 0) {
        gn_buf_add(&b, tmp, n);
        if (b.len > SUQL_MAX_QUERY) {
            gn_buf_release(&b);
            gn_err_set(e, GN_ELIMIT, "the query on standard input is larger than %zu bytes",
                       SUQL_MAX_QUERY);
            return NULL;
        }
    }
    if (!b.len) {
        gn_buf_release(&b);
        gn_err_set(e, GN_EUSAGE, "no query on standard input");
        return NULL;
    }
    return gn_buf_detach(&b);
}

/* Print E; for errors with a position, the query line and a caret. */
static int query_fail(const char *text, const gn_err *e)
{
    int st = cli_fail(e);
    if (text && e->line > 0) {
        gn_buf b;
        gn_buf_init(&b);
        suql_error_caret(text, e, &b);
        if (b.len) plain_out_inert(stderr, b.data, b.len);
        gn_buf_release(&b);
    }
    return st == EXIT_USAGE ? EXIT_USAGE : EXIT_RUNTIME;
}

static int term_width(void)
{
    struct winsize ws;
    if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w > 0 ? w : 120;
}

static void print_result(const cfg_t *c, const suql_result *r)
{
    gn_buf b;
    gn_buf_init(&b);
    const char *f = cfg_str(c, OPT_FORMAT);
    if (!strcmp(f, "json")) suql_result_json(r, &b);
    else if (!strcmp(f, "csv")) suql_result_csv(r, &b);
    else suql_result_table(r, term_width(), &b);
    /* Rows are text from the database: ESC or a bidi override in a
     * review must not reach the terminal (JSON escapes them already). */
    plain_out_inert(stdout, b.data ? b.data : "", b.len);
    if (strcmp(f, "table") && r->note) fprintf(stderr, "genie: note: %s\n", r->note);
    gn_buf_release(&b);
}

static int run(const cfg_t *c, const char *arg, int explain)
{
    gn_err e;
    gn_err_clear(&e);
    char *text = query_text(arg, &e);
    if (!text) return cli_fail(&e);
    cli_suql_ctx x;
    int rc = cli_suql_open(&x, c, NULL, 0, &e);
    if (rc) {
        cli_suql_close(&x);
        free(text);
        return cli_fail(&e);
    }
    /* --explain alone calls nothing: being offline changes nothing it says. */
    const char *offline = cli_offline_reason(c);
    if (offline && !cfg_bool(c, OPT_QUIET) && (!explain || cfg_bool(c, OPT_ANALYZE)))
        fprintf(stderr, "genie: %s; free-text answers are extractive\n", offline);
    gn_buf out;
    gn_buf_init(&out);
    int analyze = cfg_bool(c, OPT_ANALYZE);
    if (explain) {
        rc = suql_explain(x.en, text, &out, &e);
        if (!rc) plain_out_inert(stdout, out.data, out.len);
    }
    if (!rc && (!explain || analyze)) {
        suql_result r;
        suql_run_stats st;
        rc = suql_execute(x.en, text, &r, &st, &e);
        if (!rc) {
            if (explain) fputs("\nresult:\n", stdout);
            print_result(c, &r);
            if (analyze) {
                gn_buf_reset(&out);
                suql_stats_print(&st, &out);
                plain_out_inert(explain ? stdout : stderr, out.data, out.len);
            }
            suql_result_release(&r);
        }
    }
    int status = rc ? query_fail(text, &e) : EXIT_OK;
    gn_buf_release(&out);
    cli_suql_close(&x);
    free(text);
    return status;
}

int cli_suql(const cfg_t *c)
{
    return run(c, cfg_str(c, OPT_SUQL), 0);
}

int cli_explain(const cfg_t *c)
{
    return run(c, cfg_str(c, OPT_EXPLAIN), 1);
}
