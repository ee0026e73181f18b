/*
 * paths.c — where genie's shipped data lives.
 *
 * The binary finds its data relative to itself (/proc/self/exe), so both the
 * build tree (build/genie, build/share/genie, sample_db/) and an installed
 * tree (PREFIX/bin/genie, PREFIX/share/genie) work from any directory without
 * configuration; the compiled-in prefix is the last resort.
 */
#include "cli.h"
#include "util/xmem.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef GENIE_PREFIX
#define GENIE_PREFIX "/usr/local"
#endif

static char *exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return xstrdup(".");
    buf[n] = 0;
    return xstrdup(dirname(buf));
}

static char *first_existing(const char *const *cands, int n)
{
    for (int i = 0; i < n; i++)
        if (cands[i] && access(cands[i], R_OK) == 0) return xstrdup(cands[i]);
    return NULL;
}

char *cli_data_file(const char *name)
{
    char *dir = exe_dir();
    char *c[3] = {
        xasprintf("%s/share/genie/%s", dir, name),
        xasprintf("%s/../share/genie/%s", dir, name),
        xasprintf("%s/share/genie/%s", GENIE_PREFIX, name),
    };
    char *r = first_existing((const char *const *)c, 3);
    for (int i = 0; i < 3; i++) free(c[i]);
    free(dir);
    return r;
}

char *cli_sample_file(const char *name)
{
    char *rel = xasprintf("sample_db/%s", name);
    char *r = cli_data_file(rel);
    free(rel);
    return r;
}

char *cli_db_path(const cfg_t *c, gn_err *e)
{
    const char *db = cfg_str(c, OPT_DB);
    if (db[0]) return xstrdup(db);
    char *r = cli_sample_file("restaurants.db");
    if (!r)
        gn_err_set(e, GN_ENOTFOUND, "no database given (--db FILE) and the sample "
                   "restaurants database is not built (run 'make samples')");
    return r;
}

void cli_prompt_dirs(const cfg_t *c, char **user, char **shipped)
{
    gn_err e;
    char *cfgdir = cfg_xdg_dir(c, CFG_XDG_CONFIG, &e);
    *user = cfgdir ? xasprintf("%s/prompts", cfgdir) : NULL;
    free(cfgdir);
    *shipped = cli_data_file("prompts/answer.prompt");
    if (*shipped) *strrchr(*shipped, '/') = 0;
}
