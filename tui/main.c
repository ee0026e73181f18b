/*
 * main.c — genie's entry point: load the configuration, then dispatch to
 * the requested mode.  Exit statuses: 0 ok, 1 runtime error, 2 usage
 * error (cli_fail in fail.c maps an error to its status).
 */
#include "cli.h"

#include "util/locale.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int print_buf(void (*fn)(gn_buf *))
{
    gn_buf b;
    gn_buf_init(&b);
    fn(&b);
    fputs(b.data, stdout);
    gn_buf_release(&b);
    return EXIT_OK;
}

static int dispatch(const cfg_t *c)
{
    switch (cfg_action(c)) {
    case CFG_HELP: return print_buf(cfg_help);
    case CFG_VERSION: return print_buf(cfg_version);
    case CFG_PRINT_CONFIG: {
        gn_buf b;
        gn_buf_init(&b);
        cfg_print(c, &b);
        fputs(b.data, stdout);
        gn_buf_release(&b);
        return EXIT_OK;
    }
    case CFG_RUN: break;
    }
    /* A command given an empty text on the command line is a mistake,
     * not a conversation. */
    static const int texts[] = { OPT_EXPLAIN, OPT_SUQL, OPT_SEARCH, OPT_EXPORT_SESSION,
                                 OPT_DELETE_SESSION, OPT_RENAME_SESSION, OPT_INIT };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        if (cfg_source_kind(c, texts[i]) == CFG_SRC_FLAG && !cfg_str(c, texts[i])[0]) {
            fprintf(stderr, "genie: --%s needs a non-empty argument\n", cfg_opt(texts[i])->name);
            return EXIT_USAGE;
        }
    /* LLM settings that are wrong are wrong offline too: said at once,
     * not when the first call is made. */
    {
        gn_err e;
        gn_err_clear(&e);
        if (genie_llm_check_settings(c, &e)) {
            cli_fail(&e);
            return EXIT_USAGE;
        }
    }
    if (cfg_bool(c, OPT_FORCE) && !cfg_str(c, OPT_INIT)[0]) {
        fputs("genie: --force only goes with --init DIR FILE...\n", stderr);
        return EXIT_USAGE;
    }
    if (cfg_str(c, OPT_INIT)[0]) {
        static const int modes[] = { OPT_SUQL, OPT_EXPLAIN, OPT_SEARCH, OPT_REINDEX, OPT_SCHEMA,
                                     OPT_CHECK_LLM, OPT_LIST_SESSIONS, OPT_EXPORT_SESSION,
                                     OPT_DELETE_SESSION, OPT_RENAME_SESSION, OPT_RESUME };
        for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
            if (cfg_source_kind(c, modes[i]) == CFG_SRC_FLAG) {
                fprintf(stderr, "genie: --init makes an agent and exits; run --%s after it\n",
                        cfg_opt(modes[i])->name);
                return EXIT_USAGE;
            }
        return cli_init(c);
    }
    if (cfg_bool(c, OPT_CHECK_LLM)) return cli_check_llm(c);
    if (cfg_bool(c, OPT_SCHEMA)) return cli_schema(c);
    if (cfg_str(c, OPT_EXPLAIN)[0]) return cli_explain(c);
    if (cfg_str(c, OPT_SUQL)[0]) return cli_suql(c);
    if (cfg_bool(c, OPT_REINDEX)) return cli_reindex(c);
    if (cfg_str(c, OPT_SEARCH)[0]) return cli_search(c);
    if (cfg_bool(c, OPT_LIST_SESSIONS)) return cli_list_sessions(c);
    if (cfg_str(c, OPT_EXPORT_SESSION)[0]) return cli_export_session(c);
    if (cfg_str(c, OPT_DELETE_SESSION)[0]) return cli_delete_session(c);
    if (cfg_str(c, OPT_RENAME_SESSION)[0]) return cli_rename_session(c);
    /* genie "a question": one turn in line mode, its reply on stdout. */
    size_t nq;
    const char *const *qw = cfg_operands(c, &nq);
    if (nq) {
        gn_buf q;
        gn_buf_init(&q);
        for (size_t i = 0; i < nq; i++) gn_buf_printf(&q, "%s%s", i ? " " : "", qw[i]);
        int st = cli_chat_plain(c, q.data);
        gn_buf_release(&q);
        return st;
    }
    if (cfg_bool(c, OPT_PLAIN) || !strcmp(cfg_str(c, OPT_FORMAT), "json") || !isatty(0) || !isatty(1))
        return cli_chat_plain(c, NULL);
    /* A terminal that cannot address the screen (an Emacs shell says
     * TERM=dumb) gets line mode, said once. */
    const char *term = getenv("TERM");
    if (!term || !*term || !strcmp(term, "dumb")) {
        if (!cfg_bool(c, OPT_QUIET))
            fprintf(stderr, "genie: TERM=%s cannot show the full screen; line mode instead (--plain)\n",
                    term && *term ? term : "(not set)");
        return cli_chat_plain(c, NULL);
    }
    return cli_chat_screen(c);
}

int main(int argc, char **argv)
{
    /* No core dump: it would hold the API key.  (Not PR_SET_DUMPABLE,
     * which also stops LeakSanitizer from inspecting the process.) */
    setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
    /* cJSON allocates as everything else does: exhaustion is a message
     * and an exit (xmalloc), never a NULL read later. */
    cJSON_InitHooks(&(cJSON_Hooks){ .malloc_fn = xmalloc, .free_fn = free });
    gn_locale_init();
    curl_global_init(CURL_GLOBAL_DEFAULT);
    cfg_t *c = cfg_new();
    gn_err e;
    gn_err_clear(&e);
    int status;
    if (cfg_load(c, argc, argv, &e)) {
        status = cli_fail(&e);
        if (e.code == GN_EUSAGE) fputs("Try 'genie --help'.\n", stderr);
        else status = e.code == GN_EPARSE || e.code == GN_ELIMIT ? EXIT_USAGE : status;
    } else {
        size_t nw;
        const char *const *w = cfg_warnings(c, &nw);
        for (size_t i = 0; i < nw; i++) fprintf(stderr, "genie: warning: %s\n", w[i]);
        status = dispatch(c);
    }
    cfg_free(c);
    curl_global_cleanup();
    return status;
}
