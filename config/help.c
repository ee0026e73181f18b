/*
 * help.c — text renderers over the options table: --help, --version,
 * --print-config and the sample config file.
 *
 * Invariant: everything shown about an option (flags, argument, default,
 * range, config key, environment variable) comes from its table row, so the
 * help, the sample file and the loader cannot disagree.  Renderers append to
 * a gn_buf and never print: only the front end writes to the terminal.
 * Secret rows go through cfg_format_value, the one place that decides what
 * of a value may be shown.
 *
 * Rejected: a hand-written help text (it drifts from the options the day a
 * row is added); printing through a FILE* (the engine never prints, and a
 * buffer is what tests compare); terminal-width-aware wrapping (help is
 * often piped into less or grep; 80 columns is the convention of man-like
 * output).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#ifndef GENIE_VERSION
#define GENIE_VERSION "unknown"
#endif

#define WIDTH 79       /* last usable column */
#define HELP_COL 32    /* where help text starts in --help */
#define PRINT_COL 34   /* where the source comment starts in --print-config */
#define INI_LINE 190   /* longest --print-config line (the loader takes 197) */
#define NBSP '\x1f'     /* a space wrap() does not break at */

static const char help_intro[] =
    "Usage: genie [OPTION]...                 chat in the terminal\n"
    "       genie [OPTION]... QUESTION...     answer one question and exit\n"
    "       genie --search TEXT [OPTION]...   print ranked rows and exit\n"
    "       genie --reindex [OPTION]...       rebuild the retrieval index\n"
    "       genie --init DIR FILE...          make an agent from data files\n"
    "\n"
    "Chat with a task-and-knowledge agent over a local knowledge base; the\n"
    "conversation, the agent's worksheet and the generated SUQL side by side.\n";

static const char help_outro[] =
    "\n"
    "Boolean options take an optional =yes or =no in long form (--quiet=no).\n"
    "Settings are read, each overriding the one before, from: defaults, the\n"
    "config file (shown as file: [section] key), the environment (env:),\n"
    "then the command line.  --print-config shows the result.\n"
    "\n"
    "Files:\n"
    "  $XDG_CONFIG_HOME/genie/config.ini   settings (~/.config/genie/config.ini)\n"
    "  $XDG_DATA_HOME/genie                data (~/.local/share/genie)\n"
    "  $XDG_STATE_HOME/genie               state, such as history\n"
    "                                      (~/.local/state/genie)\n"
    "  $XDG_CACHE_HOME/genie               caches (~/.cache/genie)\n"
    "\n"
    "Examples:\n"
    "  genie --offline\n"
    "      a conversation without an LLM: type SUQL or worksheet statements\n"
    "  genie --llm-url http://127.0.0.1:8080/v1 --check-llm\n"
    "      check an OpenAI-compatible endpoint with one request\n"
    "  genie \"quiet Thai places in Sunnyvale?\"\n"
    "      one question: its answer on standard output, then exit\n"
    "  genie --suql \"SELECT name FROM restaurants WHERE location = 'Cupertino'\"\n"
    "      SUQL typed directly, offline too\n"
    "  genie --init ~/agents/shops shops.csv\n"
    "      an agent made from a CSV file, then genie --agent ~/agents/shops\n"
    "  genie --list-sessions; genie --resume 3\n"
    "      the saved conversations; continue one\n"
    "The manual has the rest: man genie (in a build tree, man -l man/genie.1).\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  runtime error\n"
    "  2  usage error (unknown option, bad value, stray argument)\n";

static const char example_intro[] =
    "; genie configuration file\n"
    ";\n"
    "; Copy to $XDG_CONFIG_HOME/genie/config.ini (usually\n"
    "; ~/.config/genie/config.ini), or name another file with --config FILE or\n"
    "; GENIE_CONFIG.  GENIE_* environment variables override this file and\n"
    "; command-line flags override both.  Each setting below is commented out\n"
    "; and shows its default: remove the leading ';' to change it.\n"
    ";\n"
    "; Lines starting with ';' or '#' are comments.  A value may be put in\n"
    "; double quotes.  Booleans are true/false, yes/no, on/off or 1/0.  In\n"
    "; paths, ~/ is your home directory and a relative path is relative to the\n"
    "; directory of this file.\n"
    ";\n"
    "; Generated from the options table by cfg_example() (config/help.c);\n"
    "; a unit test keeps it up to date.\n";

/* ---- layout helpers --------------------------------------------------- */

static void pad_to(gn_buf *out, int *col, int target)
{
    for (; *col < target; (*col)++) gn_buf_putc(out, ' ');
}

/* Appends text word by word from column *col, breaking before WIDTH and
 * starting continuation lines with lead (spaces, or "; " in config files).
 * NBSP joins words that must stay on one line; it is output as a space. */
static void wrap(gn_buf *out, const char *text, int *col, const char *lead)
{
    int lead_len = (int)strlen(lead);
    for (const char *s = text; *s;) {
        while (*s == ' ') s++;
        int w = (int)strcspn(s, " ");
        if (!w) break;
        int at_start = *col <= lead_len;
        if (!at_start && *col + 1 + w > WIDTH) {
            gn_buf_putc(out, '\n');
            gn_buf_puts(out, lead);
            *col = lead_len;
            at_start = 1;
        }
        if (!at_start) {
            gn_buf_putc(out, ' ');
            (*col)++;
        }
        for (int k = 0; k < w; k++) gn_buf_putc(out, s[k] == NBSP ? ' ' : s[k]);
        *col += w;
        s += w;
    }
}

/* The argument as shown: the row's name, or "a|b" for enums. */
static void arg_name(const cfg_option *o, char *dst, size_t n)
{
    dst[0] = 0;
    if (o->arg) snprintf(dst, n, "%s", o->arg);
    else if (o->type == CFG_ENUM) cfg_opt_values(o, "|", dst, n);
}

/* "-k, --top-k=N", "    --no-color", or for a row without a flag
 * "    [llm] api_key" (file and environment only). */
static void flag_spec(const cfg_option *o, char *dst, size_t n)
{
    char arg[128];
    if (!o->name) {
        snprintf(dst, n, "    [%s] %s", o->section, o->key);
        return;
    }
    arg_name(o, arg, sizeof arg);
    int len = o->shortopt ? snprintf(dst, n, "-%c, ", o->shortopt)
                          : snprintf(dst, n, "    ");
    if (o->flags & CFG_OPTARG)   /* --resume[=ID] */
        snprintf(dst + len, n - (size_t)len, "--%s[=%s]", o->name, arg);
    else
        snprintf(dst + len, n - (size_t)len, "--%s%s%s", o->name, *arg ? "=" : "", arg);
}

static void range_str(const cfg_option *o, char *dst, size_t n)
{
    dst[0] = 0;
    if (!(o->min < o->max)) return;
    if (o->type == CFG_INT) snprintf(dst, n, "%.0f..%.0f", o->min, o->max);
    else snprintf(dst, n, "%g..%g", o->min, o->max);
}

/* "default: 10 (1..1000); file: [general] top_k; env: GENIE_TOP_K", each
 * fact kept on one line.  A bool's default is shown only when true. */
static void facts(int opt, gn_buf *out)
{
    const cfg_option *o = cfg_opt(opt);
    char range[64], env[CFG_ENV_MAX];
    range_str(o, range, sizeof range);
    const char *sep = "";
    if (o->def && *o->def && !(o->type == CFG_BOOL && !strcmp(o->def, "false"))) {
        gn_buf_printf(out, "default:\x1f%s", o->def);
        sep = "; ";
    }
    if (*range) {
        gn_buf_printf(out, "%s%s", *sep ? "\x1f(" : "range:\x1f", range);
        if (*sep) gn_buf_putc(out, ')');
        sep = "; ";
    }
    if (o->section) {
        gn_buf_printf(out, "%sfile:\x1f[%s]\x1f%s", sep, o->section, o->key);
        sep = "; ";
    }
    if (cfg_opt_env(opt, env, sizeof env)) {
        gn_buf_printf(out, "%senv:\x1f%s", sep, env);
        if (o->env_also) gn_buf_printf(out, "\x1for\x1f%s", o->env_also);
    }
}

/* ---- --help and --version -------------------------------------------- */

static void help_option(int opt, gn_buf *out)
{
    const cfg_option *o = cfg_opt(opt);
    char spec[160], lead[HELP_COL + 1];
    memset(lead, ' ', HELP_COL);
    lead[HELP_COL] = 0;
    flag_spec(o, spec, sizeof spec);
    gn_buf_printf(out, "  %s", spec);
    int col = 2 + (int)strlen(spec);
    if (col + 2 > HELP_COL) {
        gn_buf_printf(out, "\n%s", lead);
        col = HELP_COL;
    }
    pad_to(out, &col, HELP_COL);
    wrap(out, o->help, &col, lead);
    gn_buf f;
    gn_buf_init(&f);
    facts(opt, &f);
    if (f.len) {
        gn_buf_printf(out, "\n%s", lead);
        col = HELP_COL;
        wrap(out, f.data, &col, lead);
    }
    gn_buf_release(&f);
    gn_buf_putc(out, '\n');
}

/* Has group g already appeared in a row before index i? */
static int group_seen(int i, const char *g)
{
    for (int j = 0; j < i; j++)
        if (!strcmp(cfg_opt(j)->group, g)) return 1;
    return 0;
}

void cfg_help(gn_buf *out)
{
    gn_buf_puts(out, help_intro);
    for (int i = 0; i < OPT__COUNT; i++) {
        const char *g = cfg_opt(i)->group;
        if (group_seen(i, g)) continue;
        gn_buf_printf(out, "\n%s:\n", g);
        for (int j = i; j < OPT__COUNT; j++)
            if (!strcmp(cfg_opt(j)->group, g)) help_option(j, out);
    }
    gn_buf_puts(out, help_outro);
}

void cfg_version(gn_buf *out)
{
    gn_buf_puts(out, "genie " GENIE_VERSION "\n");
}

/* ---- --print-config and the sample file ------------------------------ */

void cfg_format_value(const cfg_option *o, const char *value, gn_buf *out)
{
    if ((o->flags & CFG_SECRET) && value && *value)
        gn_buf_puts(out, "(set, hidden)");
    else if (value)
        gn_buf_puts(out, value);
}

/* Has section s already appeared in a file-settable row before index i? */
static int section_seen(int i, const char *s)
{
    for (int j = 0; j < i; j++)
        if (cfg_opt(j)->section && !strcmp(cfg_opt(j)->section, s)) return 1;
    return 0;
}

/* Calls fn for every file-settable option, grouped by section in table
 * order, after emitting each "[section]" heading. */
static void each_setting(gn_buf *out, void (*fn)(int opt, gn_buf *out, const void *ctx),
                         const void *ctx)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        const char *s = cfg_opt(i)->section;
        if (!s || section_seen(i, s)) continue;
        gn_buf_printf(out, "\n[%s]\n", s);
        for (int j = i; j < OPT__COUNT; j++)
            if (cfg_opt(j)->section && !strcmp(cfg_opt(j)->section, s))
                fn(j, out, ctx);
    }
}

/* One `key = value  ; source` line that the config loader reads back as
 * the same value: a value the loader would change (one pair of quotes
 * around it is dropped, outer spaces are trimmed, a leading ';' after
 * "key = " starts a comment) is quoted, a source
 * that would make the line too long to load goes on a comment line of
 * its own, and a value no line can hold is named in a comment instead. */
static void print_setting(int opt, gn_buf *out, const void *ctx)
{
    const cfg_t *c = ctx;
    const cfg_option *o = cfg_opt(opt);
    gn_buf v;
    gn_buf_init(&v);
    cfg_format_value(o, cfg_text(c, opt), &v);
    size_t n = v.len;
    int quote = n && (v.data[0] == ' ' || v.data[n - 1] == ' ' || v.data[0] == ';' ||
                      (n >= 2 && v.data[0] == '"' && v.data[n - 1] == '"'));
    const char *src = cfg_source(c, opt);
    int len = (int)(strlen(o->key) + 3 + n + (quote ? 2 : 0));
    /* What no config line can hold (from a flag or the environment) is
     * named, not printed. */
    const char *cannot = !n ? NULL
        : strpbrk(v.data, "\r\n") ? "it has a line break"
        : strstr(v.data, " ;") || strstr(v.data, "\t;") ? "' ;' would start a comment"
        : len > INI_LINE ? "it is too long for one line" : NULL;
    if (cannot) {
        gn_buf_printf(out, "; %s: not shown, a config file cannot hold it (%s); %s\n", o->key,
                      cannot, src);
        gn_buf_release(&v);
        return;
    }
    int apart = (len < PRINT_COL ? PRINT_COL : len + 1) + 2 + (int)strlen(src) > INI_LINE;
    if (apart) gn_buf_printf(out, "; %s\n", src);
    size_t start = out->len;
    gn_buf_printf(out, quote ? "%s = \"%s\"" : "%s = %s", o->key, n ? v.data : "");
    gn_buf_release(&v);
    if (apart) {
        gn_buf_putc(out, '\n');
        return;
    }
    int col = (int)(out->len - start);
    if (col >= PRINT_COL) gn_buf_putc(out, ' ');
    pad_to(out, &col, PRINT_COL);
    gn_buf_printf(out, "; %s\n", src);
}

void cfg_print(const cfg_t *c, gn_buf *out)
{
    const char *file = cfg_file(c);
    gn_buf_puts(out, "; genie settings in effect, each with where it came from\n");
    if (!*file) {
        gn_buf_puts(out, "; config file: none\n");
    } else {
        gn_buf_printf(out, "; config file: %s (%s", file,
                      cfg_file_loaded(c) ? "read" : "not found");
        if (cfg_source_kind(c, OPT_CONFIG) != CFG_SRC_DEFAULT)
            gn_buf_printf(out, ", named by %s", cfg_source(c, OPT_CONFIG));
        gn_buf_puts(out, ")\n");
    }
    each_setting(out, print_setting, c);
}

static void example_setting(int opt, gn_buf *out, const void *ctx)
{
    (void)ctx;
    const cfg_option *o = cfg_opt(opt);
    char spec[160], range[64], env[CFG_ENV_MAX];
    int col = 2;
    gn_buf_puts(out, "\n; ");
    wrap(out, o->help, &col, "; ");
    range_str(o, range, sizeof range);
    if (*range) {
        char r[80];
        snprintf(r, sizeof r, "(%s)", range);
        wrap(out, r, &col, "; ");
    }
    flag_spec(o, spec, sizeof spec);
    if (o->name) gn_buf_printf(out, "\n; flag %s", spec[0] == ' ' ? spec + 4 : spec);
    else gn_buf_puts(out, "\n; no flag");
    if (cfg_opt_env(opt, env, sizeof env)) gn_buf_printf(out, "; env %s", env);
    if (o->env_also) gn_buf_printf(out, " or %s", o->env_also);
    gn_buf_printf(out, "\n;%s =%s%s\n", o->key, o->def && *o->def ? " " : "",
                  o->def ? o->def : "");
}

void cfg_example(gn_buf *out)
{
    gn_buf_puts(out, example_intro);
    each_setting(out, example_setting, NULL);
}
