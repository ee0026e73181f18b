/*
 * gen_main.c — genie-gen, the deterministic sample database generator.
 *
 *   genie-gen restaurants|courses [--scale N] [--seed S] [-q] -o FILE
 *
 * The database is built in FILE.tmp and renamed over FILE only when complete,
 * so FILE is never seen half-written and a failed run leaves the old one.
 * This is the only file that prints: datasets report progress through a
 * callback and errors through gn_err.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dbwrite.h"
#include "engine/util/xmem.h"
#include "gen.h"

static const struct dataset {
    const char *name;
    int (*run)(sqlite3 *db, const gen_opts *o, gn_err *e);
    const char *what;
} DATASETS[] = {
    {"restaurants", gen_restaurants, "1,800 restaurants per unit of scale, 20 reviews each"},
    {"courses", gen_courses, "300 CS courses per unit of scale, with offerings, ratings, programs"},
};

static const struct option_doc {
    const char *flags, *help;
} OPTIONS[] = {
    {"-o, --output FILE", "write the database to FILE (required)"},
    {"--scale N", "size multiplier, fractions allowed (default 1)"},
    {"--seed S", "random seed, a non-negative integer (default 1)"},
    {"-q, --quiet", "no progress messages"},
    {"-h, --help", "show this help"},
};

long gen_scaled(const gen_opts *o, long base, long min)
{
    double n = floor((double)base * o->scale + 0.5);
    return n < (double)min ? min : (long)n;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: genie-gen restaurants|courses [--scale N] [--seed S] [-q] -o FILE\n\n"
               "Builds a sample SQLite database for genie, deterministically: the same\n"
               "dataset, seed and scale always give the same table contents.\n\ndatasets:\n");
    for (size_t i = 0; i < sizeof DATASETS / sizeof DATASETS[0]; i++)
        fprintf(f, "  %-13s %s\n", DATASETS[i].name, DATASETS[i].what);
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++)
        fprintf(f, "  %-19s %s\n", OPTIONS[i].flags, OPTIONS[i].help);
}

typedef struct args {
    const struct dataset *ds;
    const char *out;
    double scale;
    unsigned long long seed;
    int quiet, help;
} args;

/* The value of option `name` given as "--name V" or "--name=V". */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *matched)
{
    size_t n = strlen(name);
    *matched = 0;
    if (strncmp(argv[*i], name, n)) return NULL;
    if (argv[*i][n] == '=') {
        *matched = 1;
        return argv[*i] + n + 1;
    }
    if (argv[*i][n]) return NULL;
    *matched = 1;
    return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse_number(const char *s, double *d, unsigned long long *u)
{
    char *end;
    errno = 0;
    if (d) {
        *d = strtod(s, &end);
        return !*s || *end || errno || !isfinite(*d);
    }
    if (*s == '-') return 1;
    *u = strtoull(s, &end, 10);
    return !*s || *end || errno;
}

static int parse_args(int argc, char **argv, args *a, gn_err *e)
{
    memset(a, 0, sizeof *a);
    a->scale = 1;
    a->seed = 1;
    for (int i = 1; i < argc; i++) {
        int m;
        const char *v;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            a->help = 1;
        } else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
            a->quiet = 1;
        } else if ((v = opt_value(argc, argv, &i, "--scale", &m)) || m) {
            if (!v || parse_number(v, &a->scale, NULL) || a->scale <= 0 || a->scale > 10000)
                return gn_err_set(e, GN_EUSAGE, "--scale wants a number in (0, 10000], got '%s'", v ? v : "");
        } else if ((v = opt_value(argc, argv, &i, "--seed", &m)) || m) {
            if (!v || parse_number(v, NULL, &a->seed))
                return gn_err_set(e, GN_EUSAGE, "--seed wants a non-negative integer, got '%s'", v ? v : "");
        } else if ((v = opt_value(argc, argv, &i, "--output", &m)) || m ||
                   (v = opt_value(argc, argv, &i, "-o", &m)) || m) {
            if (!v || !*v) return gn_err_set(e, GN_EUSAGE, "-o wants a file name");
            a->out = v;
        } else if (argv[i][0] == '-') {
            return gn_err_set(e, GN_EUSAGE, "unknown option '%s'", argv[i]);
        } else if (a->ds) {
            return gn_err_set(e, GN_EUSAGE, "one dataset at a time ('%s' after '%s')", argv[i], a->ds->name);
        } else {
            for (size_t k = 0; k < sizeof DATASETS / sizeof DATASETS[0]; k++)
                if (!strcmp(argv[i], DATASETS[k].name)) a->ds = &DATASETS[k];
            if (!a->ds) return gn_err_set(e, GN_EUSAGE, "unknown dataset '%s' (restaurants or courses)", argv[i]);
        }
    }
    if (a->help) return 0;
    if (!a->ds) return gn_err_set(e, GN_EUSAGE, "which dataset? restaurants or courses");
    if (!a->out) return gn_err_set(e, GN_EUSAGE, "no output file: use -o FILE");
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Progress only for runs long enough to wonder about. */
static void progress(void *ud, const char *what, long done, long total)
{
    (void)ud;
    if (total < 10000) return;
    fprintf(stderr, "genie-gen: %s %3ld%% (%ld/%ld)\n", what, done * 100 / total, done, total);
}

static int build(const args *a, gn_err *e)
{
    char *tmp = xasprintf("%s.tmp", a->out);
    sqlite3 *db = NULL;
    gen_opts o = {.scale = a->scale, .seed = a->seed, .progress = a->quiet ? NULL : progress};
    int rc = gen_db_create(&db, tmp, e);
    if (!rc) rc = a->ds->run(db, &o, e);
    int crc = gen_db_close(db, rc ? NULL : e);
    if (!rc) rc = crc;
    if (!rc && rename(tmp, a->out) != 0)
        rc = gn_err_set(e, GN_EIO, "cannot rename '%s' to '%s': %s", tmp, a->out, strerror(errno));
    if (rc) unlink(tmp);
    free(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    gn_err e;
    char msg[1200];
    args a;
    gn_err_clear(&e);
    if (parse_args(argc, argv, &a, &e)) {
        fprintf(stderr, "genie-gen: %s\n", gn_err_str(&e, msg, sizeof msg));
        fprintf(stderr, "usage: genie-gen restaurants|courses [--scale N] [--seed S] [-q] -o FILE\n");
        return 2;
    }
    if (a.help) {
        usage(stdout);
        return 0;
    }
    double t0 = now_s();
    if (build(&a, &e)) {
        fprintf(stderr, "genie-gen: error: %s\n", gn_err_str(&e, msg, sizeof msg));
        return 1;
    }
    if (!a.quiet && a.scale >= 5)
        fprintf(stderr, "genie-gen: wrote %s (%s, scale %g, seed %llu) in %.1f s\n", a.out, a.ds->name,
                a.scale, a.seed, now_s() - t0);
    return 0;
}
