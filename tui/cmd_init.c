/*
 * cmd_init.c — `genie --init DIR FILE...`: an agent made from someone's
 * own data files.
 *
 * Everything is made in a hidden directory beside DIR (.DIR.init-XXXXXX):
 * the database (each file's tables, read twice: once to infer the column
 * types, once to import the rows; see ingest/ingest.h), worksheet.csv and
 * agent.ini (the descriptions drafted by the LLM when an endpoint is
 * configured, from the data otherwise).  The agent is then loaded from there as any agent is, which
 * checks the drafted spec and describes the tables in genie_columns; only
 * then is the directory renamed to DIR, so a failure or Ctrl-C leaves
 * nothing half-made.  An existing DIR is replaced only with --force, and
 * only when it is an agent directory (it has agent.ini) or empty.  The
 * retrieval index is built last, in DIR: it is derived data, and an
 * interrupted build is simply redone at the next start.
 *
 * Progress and warnings go to stderr; what was inferred (a table of
 * column, type, examples and why) and the next commands go to stdout.
 */
#include "cli.h"
#include "plainout.h"
#include "text.h"

#include "agent/agent.h"
#include "ingest/ingest.h"
#include "llm/prompt.h"
#include "util/clock.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct init_run {
    int quiet, tty;
    const char *pass;     /* "reading" or "importing" */
    double last;          /* when progress was last shown */
} init_run;

static int progress(void *ud, const ig_table *t, const char *stage, long done, long total)
{
    init_run *r = ud;
    (void)stage;
    if (interrupted) return 1;
    if (r->quiet) return 0;
    double now = gn_now();
    if (!r->tty && now - r->last < 5.0) return 0;
    r->last = now;
    if (total > 0)
        fprintf(stderr, r->tty ? "\r  %s %s: %ld/%ld rows (%ld%%)\033[K" : "  %s %s: %ld/%ld rows (%ld%%)\n",
                r->pass, t->label, done, total, done * 100 / total);
    else
        fprintf(stderr, r->tty ? "\r  %s %s: %ld rows\033[K" : "  %s %s: %ld rows\n", r->pass,
                t->label, done);
    return 0;
}

static void progress_done(init_run *r)
{
    if (r->tty && !r->quiet && r->last > 0) fputs("\r\033[K", stderr);
    r->last = 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* 0: DIR does not exist or is empty; 1: an agent directory; -1: other. */
static int dir_state(const char *dir, int *exists)
{
    struct stat sb;
    *exists = stat(dir, &sb) == 0;
    if (!*exists) return 0;
    if (!S_ISDIR(sb.st_mode)) return -1;
    char *ini = xasprintf("%s/agent.ini", dir);
    int agent = access(ini, F_OK) == 0;
    free(ini);
    if (agent) return 1;
    DIR *d = opendir(dir);
    if (!d) return -1;                  /* unreadable: never taken for empty */
    int empty = 1;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) empty = 0;
    closedir(d);
    return empty ? 0 : -1;
}

static int write_file(const char *dir, const char *name, const gn_buf *b, gn_err *e)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f || fwrite(b->data, 1, b->len, f) != b->len || fflush(f) || fsync(fileno(f)))
        rc = gn_err_set(e, GN_EIO, "%s: %s", path, strerror(errno));
    if (f && fclose(f) && !rc) rc = gn_err_set(e, GN_EIO, "%s: %s", path, strerror(errno));
    free(path);
    return rc;
}

/* The database in TMP: every table, imported in one transaction. */
static int import_all(init_run *r, ig_table *t, int n, const char *dbpath, gn_err *e)
{
    r->pass = "importing";
    int rc = ig_write_db(t, n, dbpath, progress, r, e);
    progress_done(r);
    return rc;
}

/* Load the drafted agent as genie will, and describe its tables. */
static int check_agent(const char *dir, const char *dbpath, gn_err *e)
{
    ag_agent *a = NULL;
    int rc = ag_agent_load(dir, &a, e);
    if (rc) {
        char m[1024];
        return gn_err_set(e, GN_ECORRUPT, "the drafted agent does not load (a bug): %s",
                          gn_err_str(e, m, sizeof m));
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) rc = st_dberr(db, e, dbpath);
    if (!rc) rc = ag_schema_sync(a, db, NULL, e);
    sqlite3_close(db);
    ag_agent_free(a);
    return rc;
}

/* S cut to WIDTH display columns (an ellipsis where cut) and padded. */
static void put_cell(gn_buf *b, const char *s, int width)
{
    int n = (int)strlen(s);
    int fit = tx_fit(s, n, width);
    if (fit < n) fit = tx_fit(s, n, width - 1);
    gn_buf_add(b, s, (size_t)fit);
    int used = tx_width(s, fit);
    if (fit < n) gn_buf_puts(b, "\xe2\x80\xa6"), used++;
    for (; used < width; used++) gn_buf_putc(b, ' ');
}

/* What was inferred, a column a line.  Names, values and examples come
 * from the data file: printed inert (plain_out_inert). */
static void print_table(const ig_table *t)
{
    int key = -1;
    for (int k = 0; k < t->ncols; k++)
        if (t->cols[k].key) key = k;
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "\n%s: %ld row%s from %s", t->name, t->rows, t->rows == 1 ? "" : "s", t->label);
    if (key >= 0) gn_buf_printf(&b, ", key %s", t->cols[key].name);
    gn_buf_printf(&b, "\n  %-20s %-18s %-32s %s\n", "column", "type", "examples", "why");
    for (int k = 0; k < t->ncols; k++) {
        const ig_column *c = &t->cols[k];
        char ty[64];
        gn_buf ex;
        gn_buf_init(&ex);
        for (int i = 0; i < c->nexamples; i++) gn_buf_printf(&ex, "%s%s", i ? ", " : "", c->examples[i]);
        ig_column_type_str(c, ty, sizeof ty);
        gn_buf_puts(&b, "  ");
        put_cell(&b, c->name, 20);
        gn_buf_putc(&b, ' ');
        put_cell(&b, ty, 18);
        gn_buf_putc(&b, ' ');
        put_cell(&b, ex.data, 32);
        gn_buf_printf(&b, " %s", c->why);
        char *plain = ig_ident(c->src, "");
        if (strcmp(plain, c->name)) gn_buf_printf(&b, " (\"%s\" in the file)", c->src);
        free(plain);
        gn_buf_putc(&b, '\n');
        gn_buf_release(&ex);
    }
    plain_out_inert(stdout, b.data, b.len);
    gn_buf_release(&b);
    for (int k = 0; k < t->ncols; k++) {
        const ig_column *c = &t->cols[k];
        if (!c->bad) continue;
        char line[32];
        snprintf(line, sizeof line, t->format == IG_SQLITE ? "row %ld" : "%ld", c->bad_line);
        plain_printf(stderr, "genie: warning: %s:%s: %s '%.60s' is not %s %s; %ld such value%s kept "
                     "as text\n", t->format == IG_SQLITE ? t->label : t->path, line, c->name,
                     c->bad_value, c->type == IG_INT ? "an" : "a", ig_type_name(c->type), c->bad,
                     c->bad == 1 ? "" : "s");
    }
}

/* S as one shell word: as it is when it is plain, else in single quotes. */
static const char *shell_word(const char *s, char *buf, size_t n)
{
    if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+:,@%")] == 0)
        return s;
    size_t k = 0;
    buf[k++] = '\'';
    for (; *s && k + 6 < n; s++) {
        if (*s == '\'') { memcpy(buf + k, "'\\''", 4); k += 4; }
        else buf[k++] = *s;
    }
    buf[k++] = '\'';
    buf[k] = 0;
    return buf;
}

static void print_next(const char *dir_, const ig_table *t, int n)
{
    char qbuf[4200];
    const char *dir = shell_word(dir_, qbuf, sizeof qbuf);
    const ig_table *ft = NULL;
    const ig_column *fc = NULL;
    for (int i = 0; i < n && !fc; i++)
        for (int k = 0; k < t[i].ncols && !fc; k++)
            if (t[i].cols[k].type == IG_FREE || (t[i].cols[k].type == IG_LIST &&
                                                 t[i].cols[k].elem == IG_FREE)) {
                ft = &t[i];
                fc = &t[i].cols[k];
            }
    const ig_column *show = t[0].ncols ? &t[0].cols[0] : NULL;
    for (int k = 0; k < t[0].ncols; k++)
        if (t[0].cols[k].key) show = &t[0].cols[k];
    printf("\nNext:\n");
    printf("  genie --agent %s                talk to it (--offline: type SUQL yourself)\n", dir);
    if (show)
        printf("  genie --agent %s --suql 'SELECT %s FROM %s LIMIT 5'\n", dir, show->name, t[0].name);
    if (fc && fc->type == IG_FREE)
        printf("  genie --agent %s --suql \"SELECT %s FROM %s WHERE answer(%s, 'your question?') = 'Yes'\"\n",
               dir, show ? show->name : "*", ft->name, fc->name);
    if (fc) printf("  genie --agent %s --search 'words to look for'\n", dir);
    printf("  Edit %s/worksheet.csv to correct a type, the enum values or a description\n"
           "  (genie-worksheet(5)); the next start takes the changes.\n", dir_);
}

/* The LLM's descriptions, when an endpoint is configured: one DRAFT call.
 * Any failure is a warning; the drafts from the data stand in. */
static void llm_drafts(const cfg_t *c, const init_run *r, const ig_table *t, int n, ig_drafts *d)
{
    gn_err e;
    gn_err_clear(&e);
    llm_client *cl = NULL;
    llm_tpl *tpl = NULL;
    char *user, *shipped;
    int rc = cli_llm_open(c, &cl, &e);
    if (rc || !cl) {
        if (rc) {
            char m[1024];
            fprintf(stderr, "genie: warning: no LLM drafts (%s); descriptions drafted from the "
                    "data\n", gn_err_str(&e, m, sizeof m));
        }
        llm_client_free(cl);
        return;
    }
    cli_prompt_dirs(c, &user, &shipped);
    rc = llm_prompt_load(user, shipped, "draft", &tpl, &e);
    free(user);
    free(shipped);
    cJSON *data = ig_draft_prompt_data(t, n);
    llm_prompt p = { 0 };
    if (!rc) rc = llm_prompt_render(tpl, data, &p, &e);
    cJSON_Delete(data);
    if (!rc && !r->quiet)
        fprintf(stderr, "genie: drafting the descriptions with the LLM (%s)\n",
                llm_client_stage(cl, LLM_STAGE_DRAFT)->model);
    /* Waited for here, so that Ctrl-C cancels it at once. */
    llm_group *g = rc ? NULL : llm_group_new(cl);
    llm_call *call = NULL;
    if (!rc) {
        llm_call_opts o = { .stage = LLM_STAGE_DRAFT, .msgs = p.msgs, .nmsgs = p.n };
        rc = llm_group_submit(g, &o, &call, &e);
    }
    while (!rc && !llm_call_done(call)) {
        if (interrupted) llm_group_cancel(g);
        usleep(20000);
    }
    if (!rc) rc = llm_call_status(call, &e);
    if (!rc) {
        const char *text = llm_call_text(call);
        ig_drafts_parse(t, n, text, d);
        if (!d->found)
            rc = gn_err_set(&e, GN_EPARSE, "its reply had no 'name: description' lines "
                            "(\"%.60s\")", text);
    }
    if (rc && !interrupted) {
        char m[1024];
        fprintf(stderr, "genie: warning: the LLM's drafts cannot be used (%s); descriptions "
                "drafted from the data\n", gn_err_str(&e, m, sizeof m));
    }
    if (rc) ig_drafts_free(d);
    llm_group_free(g);
    llm_prompt_release(&p);
    llm_tpl_free(tpl);
    llm_client_free(cl);
}

int cli_init(const cfg_t *c)
{
    gn_err e;
    gn_err_clear(&e);
    const char *dir = cfg_str(c, OPT_INIT);
    size_t nfiles;
    const char *const *files = cfg_operands(c, &nfiles);
    if (!nfiles) {
        fprintf(stderr, "genie: --init %s needs the data files to make the agent from "
                "(CSV, TSV, JSON, JSON Lines or SQLite), e.g. genie --init %s wines.csv\n", dir, dir);
        return EXIT_USAGE;
    }
    int exists, st = dir_state(dir, &exists);
    if (st < 0) {
        fprintf(stderr, "genie: %s exists and is not an agent directory (it has no agent.ini); "
                "choose another directory\n", dir);
        return EXIT_USAGE;
    }
    if (st == 1 && !cfg_bool(c, OPT_FORCE)) {
        fprintf(stderr, "genie: %s already holds an agent; give --force to replace it\n", dir);
        return EXIT_USAGE;
    }
    /* --force replaces DIR whole: a data file inside it would be lost. */
    char *rdir = exists ? realpath(dir, NULL) : NULL;
    for (size_t i = 0; rdir && i < nfiles; i++) {
        char *rf = realpath(files[i], NULL);
        int inside = rf && !strncmp(rf, rdir, strlen(rdir)) && rf[strlen(rdir)] == '/';
        free(rf);
        if (inside) {
            fprintf(stderr, "genie: %s is inside %s, which --init replaces; move it out first\n",
                    files[i], dir);
            free(rdir);
            return EXIT_USAGE;
        }
    }
    free(rdir);
    init_run run = { .quiet = cfg_bool(c, OPT_QUIET), .tty = isatty(2) };
    double t0 = gn_now();
    ig_table *tables = NULL;
    int ntables = 0, rc = 0;
    for (size_t i = 0; !rc && i < nfiles; i++) rc = ig_open(files[i], &tables, &ntables, &e);

    /* Ctrl-C from here on cancels and cleans up. */
    struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    run.pass = "reading";
    for (int i = 0; !rc && i < ntables; i++) {
        rc = ig_infer(&tables[i], progress, &run, &e);
        progress_done(&run);
    }

    char *dcopy = xstrdup(dir), *bcopy = xstrdup(dir);
    char *parent = dirname(dcopy), *base = basename(bcopy);
    char *name = ig_ident(base, "agent");
    char *tmp = xasprintf("%s/.%s.init-XXXXXX", parent, base);
    char *dbfile = xasprintf("%s.db", name);
    int made = 0, index_failed = 0;
    if (!rc && strcmp(parent, ".")) rc = gn_mkdirs(parent, &e);      /* as mkdir -p */
    if (!rc && !mkdtemp(tmp)) rc = gn_err_set(&e, GN_EIO, "%s: %s", tmp, strerror(errno));
    else if (!rc) made = 1;
    char *dbtmp = xasprintf("%s/%s", tmp, dbfile);
    if (!rc) rc = import_all(&run, tables, ntables, dbtmp, &e);
    double t_import = gn_now() - t0;
    if (!rc) {
        gn_buf ws, ini;
        gn_buf_init(&ws);
        gn_buf_init(&ini);
        ig_drafts dr = { 0 };
        llm_drafts(c, &run, tables, ntables, &dr);
        ig_draft_worksheet(tables, ntables, dr.found ? &dr : NULL, &ws);
        ig_draft_agent_ini(tables, ntables, name, dbfile, dr.found ? &dr : NULL, &ini);
        ig_drafts_free(&dr);
        rc = write_file(tmp, "worksheet.csv", &ws, &e);
        if (!rc) rc = write_file(tmp, "agent.ini", &ini, &e);
        gn_buf_release(&ws);
        gn_buf_release(&ini);
    }
    if (!rc) rc = check_agent(tmp, dbtmp, &e);
    if (!rc && interrupted) rc = gn_err_set(&e, GN_ECANCEL, "cancelled");
    if (!rc) {
        /* Into place: the old agent aside, the new one in, the old one gone. */
        char *aside = NULL;
        if (exists) {
            aside = xasprintf("%s/.%s.old-XXXXXX", parent, base);
            if (!mkdtemp(aside) || rename(dir, aside)) {
                rc = gn_err_set(&e, GN_EIO, "%s: %s", dir, strerror(errno));
                if (aside[0]) rmdir(aside);
                free(aside);
                aside = NULL;
            }
        }
        if (!rc && rename(tmp, dir)) {
            rc = gn_err_set(&e, GN_EIO, "%s: %s", dir, strerror(errno));
            if (aside) rename(aside, dir);
        } else if (!rc) {
            made = 0;
            if (aside) remove_tree(aside);
        }
        free(aside);
    }
    if (made) remove_tree(tmp);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    if (!rc) {
        if (!run.quiet)
            fprintf(stderr, "genie: imported %d table%s in %.1f s\n", ntables,
                    ntables == 1 ? "" : "s", t_import);
        /* The index: structured first (session open), then retrieval. */
        cli_session s;
        char *dbpath = xasprintf("%s/%s", dir, dbfile);
        rc = cli_session_open_at(&s, c, dbpath, 0, &e);
        if (!rc) rc = cli_session_build(&s, &e);
        cli_session_close(&s);
        free(dbpath);
        if (!rc) {
            printf("Made the agent %s from %zu file%s:\n", dir, nfiles, nfiles == 1 ? "" : "s");
            for (int i = 0; i < ntables; i++) print_table(&tables[i]);
            print_next(dir, tables, ntables);
        } else {
            char m[1024];
            fprintf(stderr, "genie: the agent is in %s, but its index could not be built (%s); "
                    "the next start builds it\n", dir, gn_err_str(&e, m, sizeof m));
            index_failed = 1;
        }
    }
    free(dbtmp);
    free(dbfile);
    free(tmp);
    free(name);
    free(dcopy);
    free(bcopy);
    ig_tables_free(tables, ntables);
    if (index_failed) return EXIT_RUNTIME;
    if (rc && e.code == GN_ECANCEL) {
        fprintf(stderr, "genie: interrupted; nothing was written\n");
        return 130;
    }
    return rc ? cli_fail(&e) : EXIT_OK;
}
