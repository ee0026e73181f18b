/*
 * paths.c — where genie's shipped data lives.
 *
 * The binary finds its data relative to itself (/proc/self/exe), so both the
 * build tree (build/genie, build/share/genie, sample_db/) and an installed
 * tree (PREFIX/bin/genie, PREFIX/share/genie) work from any directory without
 * configuration; the compiled-in prefix is the last resort.
 */
#include "genie.h"

#include "agent/agent.h"
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

char *genie_data_file(const char *name)
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

char *genie_sample_file(const char *name)
{
    char *rel = xasprintf("sample_db/%s", name);
    char *r = genie_data_file(rel);
    free(rel);
    return r;
}

static int is_agent_dir(const char *d)
{
    char *p = xasprintf("%s/agent.ini", d);
    int ok = access(p, R_OK) == 0;
    free(p);
    return ok;
}

char *genie_agent_dir(const cfg_t *c, gn_err *e)
{
    const char *a = cfg_str(c, OPT_AGENT);
    if (strchr(a, '/') || is_agent_dir(a)) return xstrdup(a);
    char *rel = xasprintf("%s/agent.ini", a), *f = genie_sample_file(rel);
    free(rel);
    if (f) {
        *strrchr(f, '/') = 0;
        return f;
    }
    char *cfgdir = cfg_xdg_dir(c, CFG_XDG_CONFIG, NULL);
    char *user = cfgdir ? xasprintf("%s/agents/%s", cfgdir, a) : NULL;
    free(cfgdir);
    if (user && is_agent_dir(user)) return user;
    free(user);
    gn_err_set(e, GN_ENOTFOUND, "no agent '%s': give a directory with agent.ini, or one of the "
               "shipped agents (restaurants, courses)", a);
    return NULL;
}

char *genie_db_path(const cfg_t *c, gn_err *e)
{
    const char *db = cfg_str(c, OPT_DB);
    if (db[0]) return xstrdup(db);
    char *dir = genie_agent_dir(c, e);
    char *r = NULL;
    if (dir) ag_agent_database(dir, &r, e);
    free(dir);
    return r;
}

char *genie_agent_of_db(const char *db)
{
    static const char *const shipped[] = { "restaurants", "courses" };
    char *want = realpath(db, NULL), *r = NULL;
    for (size_t i = 0; want && !r && i < sizeof shipped / sizeof *shipped; i++) {
        char *rel = xasprintf("%s/agent.ini", shipped[i]), *f = genie_sample_file(rel), *path = NULL;
        free(rel);
        gn_err e;
        if (f) *strrchr(f, '/') = 0;
        if (f && !ag_agent_database(f, &path, &e)) {
            char *real = realpath(path, NULL);
            if (real && !strcmp(real, want)) r = xstrdup(shipped[i]);
            free(real);
        }
        free(path);
        free(f);
    }
    free(want);
    return r;
}

void genie_prompt_dirs(const cfg_t *c, char **user, char **shipped)
{
    gn_err e;
    char *cfgdir = cfg_xdg_dir(c, CFG_XDG_CONFIG, &e);
    *user = cfgdir ? xasprintf("%s/prompts", cfgdir) : NULL;
    free(cfgdir);
    *shipped = genie_data_file("prompts/answer.prompt");
    if (*shipped) *strrchr(*shipped, '/') = 0;
}
