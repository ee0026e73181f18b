/*
 * cmd_init.c — `genie --init DIR FILE...`: an agent made from someone's
 * own data files (genie_init in genie.h makes it, aside, and puts it in
 * place only once it loads), reported.
 *
 * Progress and warnings go to stderr; what was inferred (a table of
 * column, type, examples and why) and the next commands go to stdout.
 * Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) cancels: nothing half-made is left.
 */
#include "cli.h"
#include "plainout.h"
#include "text.h"

#include "util/xmem.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_int interrupted;   /* lock-free: safe in a handler */

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
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

/* How to run this genie again, for the Next: lines: "genie" when that
 * name on PATH is this very program, else its path (relative to the
 * current directory when under it: "build/genie" in a build tree). */
static const char *self_command(char *buf, size_t n)
{
    struct stat me, st;
    static char exe[4096];            /* shell_word may return a pointer into it */
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0 || stat("/proc/self/exe", &me)) return "genie";
    exe[k] = 0;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        size_t l = strcspn(p, ":");
        char cand[4200];
        snprintf(cand, sizeof cand, "%.*s/genie", (int)l, l ? p : ".");
        if (!stat(cand, &st) && st.st_dev == me.st_dev && st.st_ino == me.st_ino) return "genie";
        p += l;
        if (*p == ':') p++;
    }
    char cwd[4096];
    size_t cl;
    if (getcwd(cwd, sizeof cwd) && (cl = strlen(cwd)) && !strncmp(exe, cwd, cl) && exe[cl] == '/') {
        /* "genie" alone would be looked up on PATH: "./genie". */
        if (!strchr(exe + cl + 1, '/')) {
            static char here[4200];
            snprintf(here, sizeof here, "./%s", exe + cl + 1);
            return shell_word(here, buf, n);
        }
        return shell_word(exe + cl + 1, buf, n);
    }
    return shell_word(exe, buf, n);
}

static void print_next(const char *dir_, const ig_table *t, int n)
{
    char qbuf[4200], sbuf[4200];
    const char *self = self_command(sbuf, sizeof sbuf);
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
    printf("  %s --agent %s                talk to it (--offline: type SUQL yourself)\n", self, dir);
    if (show)
        printf("  %s --agent %s --suql 'SELECT %s FROM %s LIMIT 5'\n", self, dir, show->name, t[0].name);
    if (fc && fc->type == IG_FREE)
        printf("  %s --agent %s --suql \"SELECT %s FROM %s WHERE answer(%s, 'your question?') = 'Yes'\"\n",
               self, dir, show ? show->name : "*", ft->name, fc->name);
    if (fc) printf("  %s --agent %s --search 'words to look for'\n", self, dir);
    printf("  Edit %s/worksheet.csv to correct a type, the enum values or a description\n"
           "  (genie-worksheet(5)); the next start takes the changes.\n", dir_);
}

int cli_init(const cfg_t *c)
{
    gn_err e;
    gn_err_clear(&e);
    const char *dir = cfg_str(c, OPT_INIT);
    size_t nfiles;
    const char *const *files = cfg_operands(c, &nfiles);
    /* Ctrl-C from here on cancels and cleans up; so do SIGTERM, and
     * SIGHUP (the terminal closed: it used to leave a hidden directory
     * with a partial database). */
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    struct sigaction sa = { .sa_handler = on_signal }, old[4];
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 4; i++) sigaction(sigs[i], &sa, &old[i]);
    genie_hooks h = cli_hooks(c);
    genie_init_result r;
    int rc = genie_init(c, dir, files, nfiles, cfg_bool(c, OPT_FORCE), &h, &interrupted, &r, &e);
    for (int i = 0; i < 4; i++) sigaction(sigs[i], &old[i], NULL);
    int status = EXIT_OK;
    if (!rc) {
        printf("Made the agent %s from %zu file%s:\n", dir, nfiles, nfiles == 1 ? "" : "s");
        for (int i = 0; i < r.ntables; i++) print_table(&r.tables[i]);
        print_next(dir, r.tables, r.ntables);
    } else if (r.made) {
        char m[1024];
        plain_printf(stderr, "genie: the agent is in %s, but its index could not be built (%s); "
                     "the next start builds it\n", dir, gn_err_str(&e, m, sizeof m));
        status = EXIT_RUNTIME;
    } else if (e.code == GN_ECANCEL) {
        fprintf(stderr, "genie: interrupted; nothing was written\n");
        status = 130;
    } else {
        status = cli_fail(&e);
    }
    genie_init_result_release(&r);
    return status;
}
