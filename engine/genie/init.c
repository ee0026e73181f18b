/*
 * init.c — an agent made from someone's own data files (genie_init).
 *
 * Everything is made in a hidden directory beside DIR (.DIR.init-XXXXXX):
 * the database (each file's tables, read twice: once to infer the column
 * types, once to import the rows; see ingest/ingest.h), worksheet.csv and
 * agent.ini (the descriptions drafted by the LLM when an endpoint is
 * configured, from the data otherwise).  The agent is then loaded from
 * there as any agent is, which checks the drafted spec and describes the
 * tables in genie_columns; only then is the directory renamed to DIR, so a
 * failure or a cancel leaves nothing half-made.  An existing DIR is
 * replaced only when asked, and only when it is an agent directory (it has
 * agent.ini) or empty.  The retrieval index is built last, in DIR: it is
 * derived data, and an interrupted build is simply redone at the next
 * start.
 */
#include "genie_int.h"

#include "util/clock.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct init_run {
    const genie_hooks *h;
    const atomic_int *cancel;
    const char *pass;     /* "reading" or "importing" */
    char *stage;          /* "reading wines.csv" */
    long done;            /* rows of the table last told */
} init_run;

static int cancelled(const init_run *r)
{
    return r->cancel && atomic_load(r->cancel);
}

/* The rows read or imported so far; a non-zero return stops the pass. */
static int progress(void *ud, const ig_table *t, const char *stage, long done, long total)
{
    init_run *r = ud;
    (void)stage;
    if (cancelled(r)) return 1;
    if (!r->h || !r->h->progress) return 0;
    if (!r->stage) r->stage = xasprintf("%s %s", r->pass, t->label);
    r->done = done;
    r->h->progress(r->h->ud, r->stage, "rows", done, total);
    return 0;
}

/* The end of a pass over a table: its line completed. */
static void progress_done(init_run *r)
{
    if (r->stage && r->done > 0 && r->h->progress && !cancelled(r))
        r->h->progress(r->h->ud, r->stage, "rows", r->done, r->done);
    free(r->stage);
    r->stage = NULL;
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

/* Whether NAME is a file --init makes in an agent directory (or SQLite
 * and the index beside the database). */
static int ours(const char *name)
{
    static const char *const ends[] = { ".db", ".db.faiss", ".db.lex", ".db.vec", ".db-wal",
                                        ".db-shm", ".db-journal", ".db.vec.tmp",
                                        ".db.faiss.tmp", ".db.lex.tmp" };
    if (!strcmp(name, "agent.ini") || !strcmp(name, "worksheet.csv")) return 1;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t k = strlen(ends[i]);
        if (n > k && !strcmp(name + n - k, ends[i])) return 1;
    }
    return 0;
}

/* The entries of agent directory DIR that --init did not make, as a
 * list for a message ("apis.ini, notes.txt"); NULL when there are none. */
static char *foreign_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || ours(de->d_name)) continue;
        if (n++ < 5) gn_buf_printf(&b, "%s%s", b.len ? ", " : "", de->d_name);
    }
    closedir(d);
    if (n > 5) gn_buf_printf(&b, " and %d more", n - 5);
    if (n) return gn_buf_detach(&b);
    gn_buf_release(&b);
    return NULL;
}

/* Can DIR be made (or replaced) from FILES?  0, or GN_EUSAGE saying why. */
static int check_target(const char *dir, const char *const *files, size_t nfiles, int force,
                        int *exists, gn_err *e)
{
    if (!nfiles)
        return gn_err_set(e, GN_EUSAGE, "--init %s needs the data files to make the agent from "
                          "(CSV, TSV, JSON, JSON Lines or SQLite), e.g. genie --init %s wines.csv",
                          dir, dir);
    int st = dir_state(dir, exists);
    if (st < 0)
        return gn_err_set(e, GN_EUSAGE, "%s exists and is not an agent directory (it has no "
                          "agent.ini); choose another directory", dir);
    if (st == 1 && !force)
        return gn_err_set(e, GN_EUSAGE, "%s already holds an agent; give --force to replace it",
                          dir);
    /* --force replaces what --init made, never what someone put beside it
     * (an apis.ini, prompts, notes): those would go with the directory. */
    char *foreign = st == 1 ? foreign_entries(dir) : NULL;
    if (foreign) {
        gn_err_set(e, GN_EUSAGE, "%s holds files --init did not make (%s); --force would "
                   "delete them with the agent: move them out first", dir, foreign);
        free(foreign);
        return e->code;
    }
    /* Replacing DIR whole: a data file inside it would be lost. */
    char *rdir = *exists ? realpath(dir, NULL) : NULL;
    int rc = 0;
    for (size_t i = 0; rdir && !rc && i < nfiles; i++) {
        char *rf = realpath(files[i], NULL);
        if (rf && !strncmp(rf, rdir, strlen(rdir)) && rf[strlen(rdir)] == '/')
            rc = gn_err_set(e, GN_EUSAGE, "%s is inside %s, which --init replaces; move it out "
                            "first", files[i], dir);
        free(rf);
    }
    free(rdir);
    return rc;
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

/* The LLM's one DRAFT call, waited for here so that a cancel ends it at
 * once.  0 with D filled, or the error. */
static int ask_drafts(const cfg_t *c, init_run *r, llm_client *cl, const ig_table *t, int n,
                      ig_drafts *d, gn_err *e)
{
    char *user, *shipped;
    llm_tpl *tpl = NULL;
    genie_prompt_dirs(c, &user, &shipped);
    int rc = llm_prompt_load(user, shipped, "draft", &tpl, e);
    free(user);
    free(shipped);
    cJSON *data = ig_draft_prompt_data(t, n);
    llm_prompt p = { 0 };
    if (!rc) rc = llm_prompt_render(tpl, data, &p, e);
    cJSON_Delete(data);
    if (!rc)
        genie_tell(r->h, 0, "drafting the descriptions with the LLM (%s)",
             llm_client_stage(cl, LLM_STAGE_DRAFT)->model);
    llm_group *g = rc ? NULL : llm_group_new(cl);
    llm_call *call = NULL;
    if (!rc) {
        llm_call_opts o = { .stage = LLM_STAGE_DRAFT, .msgs = p.msgs, .nmsgs = p.n };
        rc = llm_group_submit(g, &o, &call, e);
    }
    while (!rc && !llm_call_done(call)) {
        if (cancelled(r)) llm_group_cancel(g);
        usleep(20000);
    }
    if (!rc) rc = llm_call_status(call, e);
    if (!rc) {
        const char *text = llm_call_text(call);
        ig_drafts_parse(t, n, text, d);
        if (!d->found)
            rc = gn_err_set(e, GN_EPARSE, "its reply had no 'name: description' lines "
                            "(\"%.60s\")", text);
    }
    llm_group_free(g);
    llm_prompt_release(&p);
    llm_tpl_free(tpl);
    return rc;
}

/* The LLM's descriptions, when an endpoint is configured.  Any failure
 * is a warning; the drafts from the data stand in. */
static void llm_drafts(const cfg_t *c, init_run *r, const ig_table *t, int n, ig_drafts *d)
{
    gn_err e;
    gn_err_clear(&e);
    llm_client *cl = NULL;
    char m[1024];
    int rc = genie_llm_open(c, r->h, &cl, &e);
    if (rc) genie_tell(r->h, 1, "no LLM drafts (%s); descriptions drafted from the data",
                 gn_err_str(&e, m, sizeof m));
    else if (cl && (rc = ask_drafts(c, r, cl, t, n, d, &e)) && !cancelled(r))
        genie_tell(r->h, 1, "the LLM's drafts cannot be used (%s); descriptions drafted from the data",
             gn_err_str(&e, m, sizeof m));
    if (rc) ig_drafts_free(d);
    llm_client_free(cl);
}

/* The drafted worksheet.csv and agent.ini, written into TMP. */
static int write_spec(const cfg_t *c, init_run *r, const ig_table *t, int n, const char *name,
                      const char *dbfile, const char *tmp, gn_err *e)
{
    gn_buf ws, ini;
    gn_buf_init(&ws);
    gn_buf_init(&ini);
    ig_drafts dr = { 0 };
    llm_drafts(c, r, t, n, &dr);
    ig_draft_worksheet(t, n, dr.found ? &dr : NULL, &ws);
    ig_draft_agent_ini(t, n, name, dbfile, dr.found ? &dr : NULL, &ini);
    ig_drafts_free(&dr);
    int rc = write_file(tmp, "worksheet.csv", &ws, e);
    if (!rc) rc = write_file(tmp, "agent.ini", &ini, e);
    gn_buf_release(&ws);
    gn_buf_release(&ini);
    return rc;
}

/* Into place: the old agent aside, the new one in, the old one gone. */
static int put_in_place(const char *tmp, const char *dir, const char *parent, const char *base,
                        int exists, gn_err *e)
{
    char *aside = NULL;
    int rc = 0;
    if (exists) {
        aside = xasprintf("%s/.%s.old-XXXXXX", parent, base);
        if (!mkdtemp(aside) || rename(dir, aside)) {
            rc = gn_err_set(e, GN_EIO, "%s: %s", dir, strerror(errno));
            if (aside[0]) rmdir(aside);
            free(aside);
            return rc;
        }
    }
    if (rename(tmp, dir)) {
        rc = gn_err_set(e, GN_EIO, "%s: %s", dir, strerror(errno));
        if (aside) rename(aside, dir);
    } else if (aside) {
        remove_tree(aside);
    }
    free(aside);
    return rc;
}

/* Read and infer every file's tables. */
static int infer_all(init_run *r, const char *const *files, size_t nfiles, genie_init_result *res,
                     gn_err *e)
{
    int rc = 0;
    for (size_t i = 0; !rc && i < nfiles; i++) rc = ig_open(files[i], &res->tables, &res->ntables, e);
    r->pass = "reading";
    for (int i = 0; !rc && i < res->ntables; i++) {
        rc = ig_infer(&res->tables[i], progress, r, e);
        progress_done(r);
    }
    return rc;
}

/* The database in TMP: every table, imported in one transaction. */
static int import_all(init_run *r, genie_init_result *res, const char *dbpath, gn_err *e)
{
    r->pass = "importing";
    int rc = ig_write_db(res->tables, res->ntables, dbpath, progress, r, e);
    progress_done(r);
    return rc;
}

/* Make the agent in a new hidden directory beside DIR, then put it in place. */
static int make_agent(const cfg_t *c, init_run *r, const char *dir, int exists,
                      genie_init_result *res, gn_err *e)
{
    /* A symbolic link to the agent is followed: the directory it names is
     * replaced, and the link stays. */
    char *place = exists ? realpath(dir, NULL) : NULL;
    char *dcopy = xstrdup(place ? place : dir), *bcopy = xstrdup(place ? place : dir);
    char *ncopy = xstrdup(dir);
    char *parent = dirname(dcopy), *base = basename(bcopy);
    char *name = ig_ident(basename(ncopy), "agent");
    char *tmp = xasprintf("%s/.%s.init-XXXXXX", parent, base);
    res->dbfile = xasprintf("%s.db", name);
    double t0 = gn_now();
    int made = 0, rc = 0;
    if (strcmp(parent, ".")) rc = gn_mkdirs(parent, e);              /* as mkdir -p */
    if (!rc && !mkdtemp(tmp)) rc = gn_err_set(e, GN_EIO, "%s: %s", tmp, strerror(errno));
    else if (!rc) made = 1;
    char *dbtmp = xasprintf("%s/%s", tmp, res->dbfile);
    if (!rc) rc = import_all(r, res, dbtmp, e);
    res->import_seconds = gn_now() - t0;
    if (!rc) rc = write_spec(c, r, res->tables, res->ntables, name, res->dbfile, tmp, e);
    if (!rc) rc = check_agent(tmp, dbtmp, e);
    if (!rc && cancelled(r)) rc = gn_err_set(e, GN_ECANCEL, "cancelled");
    if (!rc) rc = put_in_place(tmp, place ? place : dir, parent, base, exists, e);
    if (!rc) made = 0;
    if (made) remove_tree(tmp);
    free(dbtmp);
    free(tmp);
    free(name);
    free(dcopy);
    free(bcopy);
    free(ncopy);
    free(place);
    return rc;
}

int genie_init(const cfg_t *c, const char *dir, const char *const *files, size_t nfiles, int force,
               const genie_hooks *h, const atomic_int *cancel, genie_init_result *res, gn_err *e)
{
    memset(res, 0, sizeof *res);
    static const genie_hooks none;
    init_run r = { .h = h ? h : &none, .cancel = cancel };
    int exists = 0;
    int rc = check_target(dir, files, nfiles, force, &exists, e);
    if (!rc) rc = infer_all(&r, files, nfiles, res, e);
    if (!rc) rc = make_agent(c, &r, dir, exists, res, e);
    if (rc && cancelled(&r)) {
        gn_err_clear(e);
        rc = gn_err_set(e, GN_ECANCEL, "cancelled");
    }
    if (rc) return rc;
    res->made = 1;
    genie_tell(r.h, 0, "imported %d table%s in %.1f s", res->ntables, res->ntables == 1 ? "" : "s",
         res->import_seconds);
    /* The index: structured first (opening the data), then retrieval. */
    genie_kb k;
    char *dbpath = xasprintf("%s/%s", dir, res->dbfile);
    rc = genie_kb_open(&k, c, dbpath, GENIE_KB_DATA, 0, r.h, e);
    if (!rc) rc = genie_kb_build(&k, r.cancel, e);
    genie_kb_close(&k);
    free(dbpath);
    return rc;
}

void genie_init_result_release(genie_init_result *res)
{
    ig_tables_free(res->tables, res->ntables);
    free(res->dbfile);
    memset(res, 0, sizeof *res);
}
