/*
 * init.c — import benchmark: what `genie --init DIR FILE...` does before
 * it indexes (ingest/ingest.h: ig_open, pass 1 ig_infer, pass 2 ig_import
 * in one transaction, ig_write_db as genie --init runs it), against the sqlite3
 * command-line shell's `.import --csv` of the same file into a new
 * database, run in the same benchmark.
 *
 * The data is generated here, deterministically (own PRNG), into
 * build/bench/: a CSV of N rows (default 1,000,000) and 10 columns of the
 * kinds genie infers: id (integer), name (unique, "item-000123"), category
 * (12 values), price (2 decimals), qty (integer), added (YYYY-MM-DD),
 * in_stock (yes/no), city (30 values), tags (2-3 of 20 tags, ';'),
 * note (2-5 words).  Generation is not timed.
 *
 * Each genie import runs in a child (this program re-executed with
 * --child), so its peak RSS is its own: the import of N/10 rows and of N
 * rows are compared, which shows whether memory grows with the rows.  The
 * parent stays small (Linux carries the parent's RSS at fork into the
 * child's ru_maxrss).  Each round runs sqlite3 .import then genie, each
 * into a fresh database file; the best of the rounds (5 by default) is
 * reported, and the median.  The indexes genie builds after the import (structured and
 * retrieval) are not timed here: bench-retrieval times index builds.
 *
 * Usage: bench-init [--rows N] [--runs N] [--dir DIR] [--sqlite3 PATH]
 *        bench-init --child CSV DB      (one genie import; internal)
 */
#include "ingest/ingest.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const gn_err *e)
{
    char b[1200];
    fprintf(stderr, "bench: %s\n", gn_err_str(e, b, sizeof b));
    exit(1);
}

/* ---- the data ---------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)       /* xorshift64* */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ull;
}

static unsigned pick(unsigned n) { return (unsigned)((next() >> 32) % n); }

static const char *const categories[] = {
    "books", "music", "garden", "toys", "kitchen", "sports", "tools", "beauty", "grocery",
    "office", "pets", "outdoor",
};
static const char *const cities[] = {
    "Palo Alto", "San Jose", "Oakland", "Berkeley", "Fremont", "Sunnyvale", "Mountain View",
    "Santa Clara", "Redwood City", "San Mateo", "Daly City", "Hayward", "Concord", "Walnut Creek",
    "Napa", "Sonoma", "Santa Rosa", "Petaluma", "Vallejo", "Richmond", "Alameda", "Cupertino",
    "Milpitas", "Menlo Park", "Los Gatos", "Campbell", "Saratoga", "Gilroy", "Monterey",
    "Santa Cruz",
};
static const char *const tags[] = {
    "new", "sale", "gift", "eco", "handmade", "imported", "local", "organic", "limited",
    "bestseller", "vintage", "premium", "budget", "bundle", "refurbished", "seasonal", "fragile",
    "bulky", "kids", "clearance",
};
static const char *const words[] = {
    "ships", "fast", "from", "our", "warehouse", "in", "small", "boxes", "customers", "love",
    "this", "one", "great", "for", "home", "and", "office", "use", "sturdy", "light", "easy",
    "to", "clean", "comes", "with", "a", "manual", "two", "year", "warranty", "back", "order",
    "soon", "only", "few", "left", "best", "value", "classic", "design",
};
#define COUNT(a) (unsigned)(sizeof(a) / sizeof *(a))
#define NCOLS 10

static void generate(const char *path, long rows)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)rows;
    static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    fputs("id,name,category,price,qty,added,in_stock,city,tags,note\n", f);
    for (long i = 0; i < rows; i++) {
        unsigned cents = 99 + pick(50000), m = pick(12);
        fprintf(f, "%ld,item-%06ld,%s,%u.%02u,%u,%u-%02u-%02u,%s,%s,", i + 1, i,
                categories[pick(COUNT(categories))], cents / 100, cents % 100, pick(500),
                2015 + pick(10), m + 1, 1 + pick((unsigned)mdays[m]), pick(3) ? "yes" : "no",
                cities[pick(COUNT(cities))]);
        unsigned nt = 2 + pick(2), t0 = pick(COUNT(tags)), step = 1 + pick(COUNT(tags) - 1);
        for (unsigned k = 0; k < nt; k++)   /* distinct: steps mod 20 never repeat in 3 */
            fprintf(f, "%s%s", k ? ";" : "", tags[(t0 + k * step) % COUNT(tags)]);
        unsigned nw = 2 + pick(4);
        for (unsigned k = 0; k < nw; k++) fprintf(f, "%c%s", k ? ' ' : ',', words[pick(COUNT(words))]);
        putc('\n', f);
    }
    if (fflush(f) || ferror(f) || fclose(f)) {
        fprintf(stderr, "bench: %s: write failed\n", path);
        exit(1);
    }
}

static void remove_db(const char *db)
{
    char p[4096];
    unlink(db);
    snprintf(p, sizeof p, "%s-journal", db);
    unlink(p);
    snprintf(p, sizeof p, "%s-wal", db);
    unlink(p);
}

static long count_rows(const char *db, const char *table)
{
    sqlite3 *h;
    long n = -1;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\"", table);
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_free(sql);
    }
    sqlite3_close(h);
    return n;
}

/* ---- one genie import (the child) ------------------------------------------- */

static int child(const char *csv, const char *dbpath)
{
    gn_err e;
    gn_err_clear(&e);
    remove_db(dbpath);
    ig_table *t = NULL;
    int n = 0;
    double t0 = gn_now();
    if (ig_open(csv, &t, &n, &e)) die(&e);
    for (int i = 0; i < n; i++)
        if (ig_infer(&t[i], NULL, NULL, &e)) die(&e);
    double t1 = gn_now();
    /* what genie --init runs (tui/cmd_init.c) */
    if (ig_write_db(t, n, dbpath, NULL, NULL, &e)) die(&e);
    double t2 = gn_now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sqlite3_int64 cur, sqlite_hi;
    sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &cur, &sqlite_hi, 0);
    long bad = 0;
    for (int k = 0; k < t[0].ncols; k++) {
        char ty[64];
        ig_column_type_str(&t[0].cols[k], ty, sizeof ty);
        printf("col\t%s\t%s\t%s\n", t[0].cols[k].name, ty, t[0].cols[k].why);
        bad += t[0].cols[k].bad;
    }
    printf("table\t%s\n", t[0].name);
    printf("result %.6f %.6f %ld %ld %ld %lld %d\n", t1 - t0, t2 - t1, t[0].rows, bad,
           ru.ru_maxrss, (long long)sqlite_hi, t[0].ncols);
    ig_tables_free(t, n);
    return 0;
}

/* ---- the parent --------------------------------------------------------------- */

typedef struct genie_run {
    double infer, import, cpu;   /* cpu: the child's user + system seconds */
    long rows, db_rows, bad, maxrss_kb;
    long long sqlite_hi;
    int ncols;
    char cols[4096];      /* the "col" lines */
    char table[256];
} genie_run;

static void run_genie(const char *csv, const char *db, genie_run *g)
{
    int fd[2];
    if (pipe(fd)) { perror("bench: pipe"); exit(1); }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("bench: fork"); exit(1); }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execl("/proc/self/exe", "bench-init", "--child", csv, db, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char line[1024];
    int got = 0;
    memset(g, 0, sizeof *g);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "col\t", 4) && strlen(g->cols) + strlen(line) < sizeof g->cols)
            strcat(g->cols, line + 4);
        else if (!strncmp(line, "table\t", 6))
            snprintf(g->table, sizeof g->table, "%.*s", (int)strcspn(line + 6, "\n"), line + 6);
        else if (sscanf(line, "result %lf %lf %ld %ld %ld %lld %d", &g->infer, &g->import,
                        &g->rows, &g->bad, &g->maxrss_kb, &g->sqlite_hi, &g->ncols) == 7)
            got = 1;
    }
    fclose(f);
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    g->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
             ru.ru_stime.tv_usec / 1e6;
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "bench: the genie import of %s failed\n", csv);
        exit(1);
    }
    g->db_rows = count_rows(db, g->table);
}

/* sqlite3 DB '.import --csv CSV t': seconds; the child's peak RSS in *KB,
 * its user + system seconds in *CPU. */
static double run_sqlite3(const char *cli, const char *csv, const char *db, long *kb, double *cpu)
{
    remove_db(db);
    char *cmd = xasprintf(".import --csv \"%s\" t", csv);
    fflush(stdout);
    double t0 = gn_now();
    pid_t pid = fork();
    if (pid < 0) { perror("bench: fork"); exit(1); }
    if (pid == 0) {
        execlp(cli, cli, "-bail", db, cmd, (char *)NULL);
        fprintf(stderr, "bench: %s: %s\n", cli, strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    double dt = gn_now() - t0;
    free(cmd);
    if (!WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "bench: %s .import failed (status %d)\n", cli, status);
        exit(1);
    }
    *kb = ru.ru_maxrss;
    *cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
    return dt;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[64];
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_d);
    return s[(n - 1) / 2];     /* the lower median: a time that was measured */
}

static double file_mb(const char *path)
{
    struct stat sb;
    return stat(path, &sb) ? 0 : (double)sb.st_size / 1e6;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--child")) return child(argv[2], argv[3]);
    long rows = 1000000;
    int runs = 5;
    const char *dir = "build/bench", *cli = "sqlite3";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows = atol(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--sqlite3") && i + 1 < argc) cli = argv[++i];
        else {
            fprintf(stderr, "usage: bench-init [--rows N] [--runs N] [--dir DIR] [--sqlite3 PATH]\n");
            return 2;
        }
    }
    if (rows < 20 || runs < 1 || runs > 64) {
        fprintf(stderr, "bench: --rows at least 20, --runs 1 to 64\n");
        return 2;
    }
    long small = rows / 10;
    char *csv = xasprintf("%s/init-items-%ld.csv", dir, rows);
    char *csv_small = xasprintf("%s/init-items-%ld.csv", dir, small);
    char *db_sqlite = xasprintf("%s/init-sqlite3.db", dir);
    char *db_genie = xasprintf("%s/init-genie.db", dir);
    mkdir(dir, 0777);

    double t0 = gn_now();
    generate(csv, rows);
    generate(csv_small, small);
    printf("data: %s, %ld rows x %d cols, %.1f MB (generated in %.1f s, not timed; %ld rows for "
           "the memory comparison)\n", csv, rows, NCOLS, file_mb(csv), gn_now() - t0, small);

    double sq[64], gi[64], gp[64], gt[64], sqc[64], gc[64];
    long sq_kb = 0;
    genie_run g, gs;
    printf("import into a new database file (%d round%s: sqlite3, then genie):\n", runs,
           runs == 1 ? "" : "s");
    for (int r = 0; r < runs; r++) {
        long kb;
        sq[r] = run_sqlite3(cli, csv, db_sqlite, &kb, &sqc[r]);
        if (kb > sq_kb) sq_kb = kb;
        long n = count_rows(db_sqlite, "t");
        if (n != rows) {
            fprintf(stderr, "bench: sqlite3 .import left %ld rows in t, not %ld\n", n, rows);
            return 1;
        }
        run_genie(csv, db_genie, &g);
        if (g.rows != rows || g.db_rows != rows) {
            fprintf(stderr, "bench: genie read %ld rows and its table holds %ld, not %ld\n",
                    g.rows, g.db_rows, rows);
            return 1;
        }
        gi[r] = g.infer;
        gp[r] = g.import;
        gt[r] = g.infer + g.import;
        gc[r] = g.cpu;
        printf("  round %d: sqlite3 %.2f s (cpu %.2f), genie %.2f s (infer %.2f + import %.2f; "
               "cpu %.2f)\n", r + 1, sq[r], sqc[r], gt[r], gi[r], gp[r], gc[r]);
    }
    printf("columns inferred (pass 1):\n");
    for (char *l = g.cols, *nl; *l; l = nl + 1) {
        nl = strchr(l, '\n');
        *nl = '\0';
        char *name = l, *ty = strchr(l, '\t'), *why;
        *ty++ = '\0';
        why = strchr(ty, '\t');
        *why++ = '\0';
        printf("  %-10s %-16s %s\n", name, ty, why);
    }
    printf("rows: %ld read, %ld in genie's table, %ld in sqlite3's; values kept as text: %ld\n",
           g.rows, g.db_rows, rows, g.bad);

    double db_mb_sqlite = file_mb(db_sqlite), db_mb_genie = file_mb(db_genie);
    printf("database files: sqlite3 %.1f MB (every column TEXT), genie %.1f MB\n", db_mb_sqlite,
           db_mb_genie);
    run_genie(csv_small, db_genie, &gs);
    if (gs.rows != small || gs.db_rows != small) {
        fprintf(stderr, "bench: genie read %ld rows of %s and its table holds %ld, not %ld\n",
                gs.rows, csv_small, gs.db_rows, small);
        return 1;
    }
    remove_db(db_sqlite);
    remove_db(db_genie);

    /* Best of the rounds: the least disturbed by other work on the machine
     * (while tests ran beside it on this 2-core machine, the ratio of
     * medians ranged from 1.9x to 2.6x over seven runs, the best-of
     * ratio from 2.11x to 2.23x).  Medians in brackets; genie's passes are those
     * of the round of the best (the median) total. */
    int best = 0, mid = 0;
    for (int r = 0; r < runs; r++) {
        int below = 0, same = 0;
        for (int k = 0; k < runs; k++) below += gt[k] < gt[r], same += k < r && gt[k] == gt[r];
        if (below + same == (runs - 1) / 2) mid = r;
        if (gt[r] < gt[best]) best = r;
    }
    double bsq = sq[0], msq = median(sq, runs);
    for (int r = 1; r < runs; r++)
        if (sq[r] < bsq) bsq = sq[r];
    double bt = gt[best], mt = gt[mid];
    char label[64];
    printf("time, best of %d rounds [median]:\n", runs);
    printf("  %-28s %6.2f s  %9.0f rows/s  [%.2f s]\n", "sqlite3 .import --csv", bsq, rows / bsq, msq);
    printf("  %-28s %6.2f s  %9.0f rows/s  [%.2f s]\n", "genie pass 1, infer", gi[best],
           rows / gi[best], gi[mid]);
    printf("  %-28s %6.2f s  %9.0f rows/s  [%.2f s]\n", "genie pass 2, import", gp[best],
           rows / gp[best], gp[mid]);
    printf("  %-28s %6.2f s  %9.0f rows/s  [%.2f s]  %.2fx of sqlite3 .import [%.2fx]\n",
           "genie total", bt, rows / bt, mt, bt / bsq, mt / msq);
    snprintf(label, sizeof label, "genie total, %ld rows", small);
    printf("  %-28s %6.2f s  %9.0f rows/s  (infer %.2f + import %.2f, one run)\n", label,
           gs.infer + gs.import, small / (gs.infer + gs.import), gs.infer, gs.import);
    double msqc = median(sqc, runs), mgc = median(gc, runs);
    printf("cpu time, user + system, median: sqlite3 %.2f s, genie %.2f s (%.2fx); both CPU-bound\n",
           msqc, mgc, mgc / msqc);
    printf("peak memory (RSS; in brackets SQLite's heap peak, its default page cache):\n");
    snprintf(label, sizeof label, "genie, %ld rows", small);
    printf("  %-28s %6.1f MB  [%.1f MB]\n", label, gs.maxrss_kb / 1024.0, gs.sqlite_hi / 1048576.0);
    snprintf(label, sizeof label, "genie, %ld rows", rows);
    printf("  %-28s %6.1f MB  [%.1f MB]  x%.2f for %ldx the rows\n", label, g.maxrss_kb / 1024.0,
           g.sqlite_hi / 1048576.0, (double)g.maxrss_kb / (double)gs.maxrss_kb, rows / small);
    printf("  %-28s %6.1f MB -> %.1f MB\n", "genie outside SQLite's heap",
           (gs.maxrss_kb * 1024.0 - (double)gs.sqlite_hi) / 1048576.0,
           (g.maxrss_kb * 1024.0 - (double)g.sqlite_hi) / 1048576.0);
    snprintf(label, sizeof label, "sqlite3 .import, %ld rows", rows);
    printf("  %-28s %6.1f MB\n", label, sq_kb / 1024.0);
    printf("target, genie at most 2.0x of sqlite3 .import (best of %d): %s\n", runs,
           bt / bsq <= 2.0 ? "met" : "MISSED");
    printf("import %ld rows x %d cols: sqlite3 .import %.2f s, genie %.2f s (infer %.2f s + "
           "import %.2f s) = %.2fx\n", rows, g.ncols, bsq, bt, gi[best], gp[best], bt / bsq);
    free(csv);
    free(csv_small);
    free(db_sqlite);
    free(db_genie);
    return 0;
}
