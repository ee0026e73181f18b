/*
 * cmd_suql.c — `genie --suql QUERY`, `genie --explain QUERY [--analyze]`.
 *
 * The knowledge base opens at the SUQL level (genie.h): the query
 * connection read-only, a stale index rebuilt first where it can be, and
 * without one queries still run, their candidates in SQL order, after a
 * warning.  Query errors print the message with line and column, then the
 * line of the query with a caret under the spot.
 */
#include "cli.h"
#include "plainout.h"
#include "plantree.h"

#include "util/locale.h"
#include "util/xmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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
    const char *nul = memchr(b.data, 0, b.len);
    if (nul) {
        /* The text would end there unseen: refuse it, saying where. */
        int line = 1, col = 1;
        for (const char *p = b.data; p < nul; p++) {
            if (*p == '\n') line++, col = 1;
            else if (((unsigned char)*p & 0xC0) != 0x80) col++;
        }
        gn_buf_release(&b);
        gn_err_set(e, GN_EUSAGE, "the query on standard input holds a NUL byte at line %d, column %d "
                   "(a query is text)", line, col);
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

/* The plan PLAN as a tree (plantree.h), ST's counts on its nodes; box
 * lines where the locale shows UTF-8, ASCII otherwise. */
static void print_plan(const char *plan, const suql_run_stats *st)
{
    gn_buf t;
    gn_buf_init(&t);
    pt_render(plan ? plan : "", st, !gn_locale_utf8(), &t);
    plain_out_inert(stdout, t.data ? t.data : "", t.len);
    gn_buf_release(&t);
}

static int run(const cfg_t *c, const char *arg, int explain)
{
    gn_err e;
    gn_err_clear(&e);
    char *text = query_text(arg, &e);
    if (!text) return cli_fail(&e);
    genie_kb x;
    genie_hooks h = cli_hooks(c);
    int rc = genie_kb_open(&x, c, NULL, GENIE_KB_SUQL, 0, &h, &e);
    if (rc) {
        genie_kb_close(&x);
        free(text);
        return cli_fail(&e);
    }
    /* --explain alone calls nothing: being offline changes nothing it says. */
    const char *offline = genie_offline_reason(c);
    if (offline && !cfg_bool(c, OPT_QUIET) && (!explain || cfg_bool(c, OPT_ANALYZE)))
        fprintf(stderr, "genie: %s; free-text answers are extractive\n", offline);
    gn_buf out;
    gn_buf_init(&out);
    int analyze = cfg_bool(c, OPT_ANALYZE);
    /* The plan is drawn as a tree; with --analyze after the run, so that
     * each step's node carries what it did. */
    if (explain) rc = genie_suql_explain(&x, text, &out, &e);
    if (explain && !rc && !analyze) print_plan(out.data, NULL);
    if (!rc && (!explain || analyze)) {
        suql_result r;
        suql_run_stats st;
        rc = genie_suql_run(&x, text, &r, &st, &e);
        if (!rc) {
            if (explain) {
                print_plan(out.data, &st);
                fputs("\nresult:\n", stdout);
            }
            print_result(c, &r);
            if (analyze) {
                gn_buf_reset(&out);
                suql_stats_print(&st, &out);
                plain_out_inert(explain ? stdout : stderr, out.data, out.len);
            }
            suql_result_release(&r);
        }
    }
    if (rc && explain && analyze && out.len) print_plan(out.data, NULL);   /* the run failed: the plan still */
    int status = rc ? query_fail(text, &e) : EXIT_OK;
    gn_buf_release(&out);
    genie_kb_close(&x);
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
