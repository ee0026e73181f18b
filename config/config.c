/*
 * config.c — loading settings: defaults, INI file, environment, flags.
 *
 * Every value passes through one validator (cfg_opt_parse) whatever its layer,
 * so a setting accepted on the command line is accepted in the file and the
 * environment, and errors read alike; only the prefix naming the place
 * differs ("FILE:LINE: key 'k':", "environment variable GENIE_K:",
 * "option '--k':").  Invariant: after cfg_load every option holds a valid
 * value and a source string, whatever failed (but for a default its own
 * validator rejects, which keeps its text and fails the load).
 *
 * Flags are parsed first (into a staging list, validated) but applied last:
 * the command line names the config file and may ask for --help, which must
 * work even when the file is broken.
 *
 * The file is read whole (bounded) and fed to inih through our own reader,
 * which counts lines (the distribution's inih passes no line number to the
 * handler) and reports lines too long for inih's fixed buffer, which it
 * would otherwise split silently into two lines.
 *
 * Rejected: calling getenv() directly (tests would depend on the real
 * environment); letting getopt print its messages (they name argv[0] and
 * cannot suggest the intended option); treating unknown keys as errors (a
 * config file shared between genie versions would break on every new key).
 */
#include "config.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_FILE_BYTES (1 << 20)

struct slot {
    cfg_value val;       /* the parsed value, val.text its canonical text */
    enum cfg_src src;
    char *where;         /* "default", "file P:L", "env X", "flag --x" */
};

struct cfg {
    struct slot slot[OPT__COUNT];
    const char *const *envp;   /* NULL: the process environment */
    char *file;          /* config file used, "" for none */
    int file_loaded;
    char **warn;         /* NULL-terminated */
    size_t nwarn;
    char **operands;     /* the words after the options (--init's files) */
    size_t noperands;
};

/* Where a value is being set from, for source strings and messages. */
struct origin {
    enum cfg_src src;
    const char *name;    /* file path, variable, or flag as typed */
    int line;            /* file only */
    const char *base;    /* file only: directory for relative paths */
};

/* ---- small helpers -------------------------------------------------- */

static const char *env_get(const cfg_t *c, const char *name)
{
    if (!c || !c->envp) return getenv(name);
    size_t n = strlen(name);
    for (const char *const *p = c->envp; *p; p++)
        if (!strncmp(*p, name, n) && (*p)[n] == '=') return *p + n + 1;
    return NULL;
}

/* An environment value, or NULL when unset or empty. */
static const char *env_nonempty(const cfg_t *c, const char *name)
{
    const char *v = env_get(c, name);
    return v && *v ? v : NULL;
}

static void warnf(cfg_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(cfg_t *c, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    c->warn = xrealloc(c->warn, (c->nwarn + 2) * sizeof *c->warn);
    c->warn[c->nwarn++] = xstrdup(tmp);
    c->warn[c->nwarn] = NULL;
}

/* ---- values --------------------------------------------------------- */

/* "~" and "~/x" become $HOME/x; a relative path from a file is taken
 * relative to the file's directory.  Returns a new string. */
static char *expand_path(const cfg_t *c, const char *p, const char *base)
{
    const char *home = env_nonempty(c, "HOME");
    if (home && p[0] == '~' && (p[1] == '/' || !p[1]))
        return xasprintf("%s%s", home, p + 1);
    if (base && p[0] && p[0] != '/' && p[0] != '~')
        return xasprintf("%s/%s", base, p);
    return xstrdup(p);
}

static char *origin_str(const cfg_option *o, const struct origin *org)
{
    switch (org->src) {
    case CFG_SRC_FILE: return xasprintf("file %s:%d", org->name, org->line);
    case CFG_SRC_ENV: return xasprintf("env %s", org->name);
    case CFG_SRC_FLAG: return xasprintf("flag --%s", o->name);
    case CFG_SRC_DEFAULT: break;
    }
    return xstrdup("default");
}

/* Validates and stores a value of opt; returns -1 with why on failure. */
static int set_value(cfg_t *c, int opt, const char *s, const struct origin *org,
                     char *why, size_t n)
{
    const cfg_option *o = &cfg_options[opt];
    struct slot nv = { { 0 }, org->src, NULL };
    if (cfg_opt_parse(o, s, &nv.val, why, n)) return -1;
    if (o->type == CFG_PATH) {
        char *p = expand_path(c, nv.val.text,
                              org->src == CFG_SRC_FILE ? org->base : NULL);
        free(nv.val.text);
        nv.val.text = p;
    }
    nv.where = origin_str(o, org);
    free(c->slot[opt].val.text);
    free(c->slot[opt].where);
    c->slot[opt] = nv;
    return 0;
}

static void free_values(cfg_t *c)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        free(c->slot[i].val.text);
        free(c->slot[i].where);
        c->slot[i].val.text = c->slot[i].where = NULL;
    }
    for (size_t i = 0; i < c->nwarn; i++) free(c->warn[i]);
    free(c->warn);
    c->warn = NULL;
    c->nwarn = 0;
    free(c->file);
    c->file = NULL;
    for (size_t i = 0; i < c->noperands; i++) free(c->operands[i]);
    free(c->operands);
    c->operands = NULL;
    c->noperands = 0;
}

/* The error of a default its own validator rejects. */
static int bad_default(const cfg_option *o, const char *why, gn_err *e)
{
    const char *num = setlocale(LC_NUMERIC, NULL);
    char where[128] = "";
    if (num && strcmp(num, "C")) snprintf(where, sizeof where, " (LC_NUMERIC is %s)", num);
    return gn_err_set(e, GN_ECORRUPT, "bug: the default of option '%s' is rejected: %s%s",
                      o->name ? o->name : o->key, why, where);
}

/* Back to the defaults.  The table's defaults are valid (a test checks),
 * unless the C library reads them otherwise than the test did: a program
 * that left LC_NUMERIC at a comma locale rejected "0.5".  Such a default
 * keeps its text (no accessor ever returns NULL) and fails the load with
 * a message rather than an abort without one. */
static int reset(cfg_t *c, gn_err *e)
{
    static const struct origin def = { CFG_SRC_DEFAULT, NULL, 0, NULL };
    char why[256];
    int rc = 0;
    free_values(c);
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = &cfg_options[i];
        const char *d = o->def ? o->def : (o->type == CFG_ACTION ? "false" : "");
        if (!set_value(c, i, d, &def, why, sizeof why)) continue;
        c->slot[i].val.text = xstrdup(d);
        c->slot[i].where = xstrdup("default");
        if (!rc) rc = bad_default(o, why, e);
    }
    c->file = xstrdup("");
    c->file_loaded = 0;
    c->warn = xcalloc(1, sizeof *c->warn);
    return rc;
}

/* ---- lifecycle and accessors --------------------------------------- */

cfg_t *cfg_new(void)
{
    cfg_t *c = xcalloc(1, sizeof *c);
    reset(c, NULL);     /* cfg_load says what is wrong with a default */
    return c;
}

void cfg_free(cfg_t *c)
{
    if (!c) return;
    free_values(c);
    free(c);
}

const char *const *cfg_operands(const cfg_t *c, size_t *n)
{
    *n = c->noperands;
    return (const char *const *)c->operands;
}

void cfg_set_environ(cfg_t *c, const char *const *envp)
{
    c->envp = envp;
}

/* The value of opt, aborting when the accessor does not fit its type. */
static const struct slot *get(const cfg_t *c, int opt, unsigned types, const char *fn)
{
    if (opt < 0 || opt >= OPT__COUNT || !(types & (1u << cfg_options[opt].type))) {
        fprintf(stderr, "genie: bug: %s() on option %d of another type\n", fn, opt);
        abort();
    }
    return &c->slot[opt];
}

#define T(t) (1u << (t))

const char *cfg_str(const cfg_t *c, int opt)
{
    return get(c, opt, T(CFG_STRING) | T(CFG_PATH) | T(CFG_ENUM), "cfg_str")->val.text;
}

long cfg_int(const cfg_t *c, int opt)
{
    return get(c, opt, T(CFG_INT), "cfg_int")->val.i;
}

double cfg_double(const cfg_t *c, int opt)
{
    return get(c, opt, T(CFG_DOUBLE), "cfg_double")->val.d;
}

int cfg_bool(const cfg_t *c, int opt)
{
    return get(c, opt, T(CFG_BOOL) | T(CFG_ACTION), "cfg_bool")->val.b;
}

const char *cfg_text(const cfg_t *c, int opt)
{
    return get(c, opt, ~0u, "cfg_text")->val.text;
}

const char *cfg_source(const cfg_t *c, int opt)
{
    return get(c, opt, ~0u, "cfg_source")->where;
}

enum cfg_src cfg_source_kind(const cfg_t *c, int opt)
{
    return get(c, opt, ~0u, "cfg_source_kind")->src;
}

enum cfg_action cfg_action(const cfg_t *c)
{
    static const struct { int opt; enum cfg_action act; } acts[] = {
        { OPT_HELP, CFG_HELP },
        { OPT_VERSION, CFG_VERSION },
        { OPT_PRINT_CONFIG, CFG_PRINT_CONFIG },
    };
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (c->slot[acts[i].opt].val.b) return acts[i].act;
    return CFG_RUN;
}

const char *cfg_file(const cfg_t *c) { return c->file; }
int cfg_file_loaded(const cfg_t *c) { return c->file_loaded; }

const char *const *cfg_warnings(const cfg_t *c, size_t *n)
{
    if (n) *n = c->nwarn;
    return (const char *const *)c->warn;
}

/* ---- XDG base directories ------------------------------------------ */

char *cfg_xdg_dir(const cfg_t *c, enum cfg_xdg kind, gn_err *e)
{
    static const struct { const char *var, *fallback; } xdg[] = {
        [CFG_XDG_CONFIG] = { "XDG_CONFIG_HOME", ".config" },
        [CFG_XDG_DATA] = { "XDG_DATA_HOME", ".local/share" },
        [CFG_XDG_STATE] = { "XDG_STATE_HOME", ".local/state" },
        [CFG_XDG_CACHE] = { "XDG_CACHE_HOME", ".cache" },
    };
    const char *base = env_get(c, xdg[kind].var);
    /* The specification says relative values are invalid and ignored. */
    if (base && base[0] == '/') {
        size_t n = strlen(base);
        while (n > 1 && base[n - 1] == '/') n--;
        return xasprintf("%.*s/genie", (int)n, base);
    }
    const char *home = env_get(c, "HOME");
    if (!home || home[0] != '/') {
        gn_err_set(e, GN_ENOTFOUND, "cannot locate the %s directory: neither "
                   "%s nor HOME is set", xdg[kind].var, xdg[kind].var);
        return NULL;
    }
    size_t n = strlen(home);
    while (n > 1 && home[n - 1] == '/') n--;
    return xasprintf("%.*s/%s/genie", (int)n, home, xdg[kind].fallback);
}

int cfg_mkdirs(const char *path, gn_err *e)
{
    return gn_mkdirs(path, e);
}

char *cfg_xdg_make(const cfg_t *c, enum cfg_xdg kind, gn_err *e)
{
    char *p = cfg_xdg_dir(c, kind, e);
    if (p && cfg_mkdirs(p, e)) {
        free(p);
        return NULL;
    }
    return p;
}

/* ---- the config file ------------------------------------------------ */

/* State of one file parse: the reader's cursor and line count, and what the
 * handler found.  inih calls both with this as its user pointer. */
struct fctx {
    cfg_t *c;
    const char *path;
    char *dir;                /* for relative paths; NULL: current dir */
    const char *p, *end;      /* unread text */
    int line;                 /* number of the line last handed to inih */
    int toolong;              /* first line longer than inih's buffer */
    int limit;                /* the longest line inih takes */
    gn_err err;               /* first bad value */
    int err_line;
    int seen[OPT__COUNT];     /* line where each key was last set */
    char badsec[128];         /* last unknown section warned about */
};

/* inih's fgets-like reader.  Leading blanks are dropped, so an indented
 * "key = value" is a key and not a continuation of the previous value
 * (inih's multi-line mode, which no genie option needs). */
static char *read_line(char *str, int num, void *stream)
{
    struct fctx *f = stream;
    if (f->p >= f->end) return NULL;
    const char *nl = memchr(f->p, '\n', (size_t)(f->end - f->p));
    size_t len = nl ? (size_t)(nl - f->p) + 1 : (size_t)(f->end - f->p);
    const char *s = f->p;
    f->p += len;
    f->line++;
    while (len > 0 && (*s == ' ' || *s == '\t')) s++, len--;
    size_t body = len;
    while (body > 0 && (s[body - 1] == '\n' || s[body - 1] == '\r')) body--;
    /* inih needs room for "\r\n\0" after the text. */
    f->limit = num > 3 ? num - 3 : 0;
    if (body > (size_t)f->limit) {
        /* A long comment is harmless once cut; a long setting is not. */
        if (!f->toolong && *s != ';' && *s != '#') f->toolong = f->line;
        len = num > 1 ? (size_t)num - 1 : 0;
    }
    memcpy(str, s, len);
    str[len] = 0;
    return str;
}

/* Is there an option with this key in some section?  Returns it or -1. */
static int key_anywhere(const char *key)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        if (!cfg_options[i].section) continue;
        int o = cfg_opt_by_key(cfg_options[i].section, key);
        if (o >= 0) return o;
    }
    return -1;
}

static int section_known(const char *section)
{
    for (int i = 0; i < OPT__COUNT; i++)
        if (cfg_options[i].section && !strcasecmp(cfg_options[i].section, section))
            return 1;
    return 0;
}

static void warn_unknown(struct fctx *f, const char *section, const char *key)
{
    int other = key_anywhere(key);
    int near = cfg_opt_closest(key, 1);
    const char *p = f->path;
    if (!*section && other >= 0)
        warnf(f->c, "%s:%d: key '%s' is outside any section and is ignored "
              "(put it under [%s])", p, f->line, key, cfg_options[other].section);
    else if (!*section)
        warnf(f->c, "%s:%d: unknown key '%s' outside any section", p, f->line, key);
    else if (!section_known(section)) {
        if (!strcmp(f->badsec, section)) return;
        snprintf(f->badsec, sizeof f->badsec, "%s", section);
        warnf(f->c, "%s:%d: unknown section [%s]; its keys are ignored",
              p, f->line, section);
    } else if (other >= 0)
        warnf(f->c, "%s:%d: key '%s' belongs in [%s], not [%s]; ignored", p,
              f->line, key, cfg_options[other].section, section);
    else if (near >= 0)
        warnf(f->c, "%s:%d: unknown key '%s' in [%s] (did you mean [%s] %s?)",
              p, f->line, key, section, cfg_options[near].section,
              cfg_options[near].key);
    else
        warnf(f->c, "%s:%d: unknown key '%s' in [%s]", p, f->line, key, section);
}

/* inih's handler: one "key = value" of the file. */
static int on_pair(void *user, const char *section, const char *key,
                   const char *value)
{
    struct fctx *f = user;
    int opt = cfg_opt_by_key(section, key);
    if (opt < 0) {
        warn_unknown(f, section, key);
        return 1;
    }
    if (f->seen[opt])
        warnf(f->c, "%s:%d: key '%s' was already set on line %d; the last "
              "value wins", f->path, f->line, key, f->seen[opt]);
    f->seen[opt] = f->line;
    struct origin org = { CFG_SRC_FILE, f->path, f->line, f->dir };
    char why[512], *unq = NULL;
    size_t len = strlen(value);
    /* key = "value": one pair of double quotes around the value is dropped. */
    if (len >= 2 && value[0] == '"' && value[len - 1] == '"')
        value = unq = xstrndup(value + 1, len - 2);
    int bad = set_value(f->c, opt, value, &org, why, sizeof why);
    free(unq);
    if (!bad) return 1;
    if (!f->err_line) {
        f->err_line = f->line;
        gn_err_setpos(&f->err, GN_EPARSE, f->path, f->line, 0, "key '%s': %s",
                      key, why);
    }
    return 0;
}

/* Copies line n (1-based) of text, trimmed and shortened, into out. */
static void nth_line(const char *text, int n, char *out, size_t size)
{
    const char *s = text;
    for (int i = 1; i < n && (s = strchr(s, '\n')); i++) s++;
    if (!s) s = "";
    while (*s == ' ' || *s == '\t') s++;
    size_t len = strcspn(s, "\r\n");
    int cut = len > 60;
    snprintf(out, size, "%.*s%s", cut ? 60 : (int)len, s, cut ? "..." : "");
}

/* Parses the file's text; the first error by line number wins. */
static int parse_ini(cfg_t *c, const char *path, const gn_buf *text, gn_err *e)
{
    struct fctx f = { .c = c, .path = path, .p = text->data,
                      .end = text->data + text->len };
    const char *slash = strrchr(path, '/');
    f.dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
    gn_err_clear(&f.err);
    int ret = ini_parse_stream(read_line, &f, on_pair, &f);
    int rc = 0;
    if (f.toolong && (ret <= 0 || f.toolong <= ret))
        rc = gn_err_setpos(e, GN_ELIMIT, path, f.toolong, 0, "line too long "
                           "(the limit is %d characters)", f.limit);
    else if (ret > 0 && ret == f.err_line) {
        if (e) *e = f.err;
        rc = f.err.code;
    } else if (ret > 0) {
        char got[80];
        nth_line(text->data, ret, got, sizeof got);
        rc = gn_err_setpos(e, GN_EPARSE, path, ret, 0, "syntax error: expected "
                           "'[section]' or 'key = value', got '%s'", got);
    } else if (ret < 0)
        rc = gn_err_set(e, GN_EIO, "cannot parse config file '%s'", path);
    free(f.dir);
    return rc;
}

/* Reads a whole file of at most MAX_FILE_BYTES into out.  A missing file
 * sets *found = 0 and is an error only when explicit. */
static int read_file(const char *path, int explicit, gn_buf *out, int *found,
                     gn_err *e)
{
    struct stat st;
    FILE *fp = fopen(path, "rb");
    *found = 0;
    if (!fp && !explicit && (errno == ENOENT || errno == ENOTDIR)) return 0;
    if (!fp)
        return gn_err_set(e, GN_EIO, "cannot open config file '%s': %s", path,
                          strerror(errno));
    int rc = 0;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))
        rc = gn_err_set(e, GN_EIO, "config file '%s' is a directory", path);
    char chunk[4096];
    size_t n;
    while (!rc && (n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (out->len + n > MAX_FILE_BYTES)
            rc = gn_err_set(e, GN_ELIMIT, "config file '%s' is larger than "
                            "%d KiB", path, MAX_FILE_BYTES >> 10);
        else
            gn_buf_add(out, chunk, n);
    }
    if (!rc && ferror(fp))
        rc = gn_err_set(e, GN_EIO, "cannot read config file '%s': %s", path,
                        strerror(errno));
    fclose(fp);
    if (!rc && memchr(out->data, 0, out->len))
        rc = gn_err_set(e, GN_EPARSE, "config file '%s' contains a NUL byte "
                        "(not a text file?)", path);
    *found = !rc;
    return rc;
}

/* ---- the command line ----------------------------------------------- */

/* Flags seen on the command line, validated, in order. */
struct flag {
    int opt;
    char *arg;
    char spelled[80];       /* "--top-k" or "-k", as typed */
};

struct flags {
    struct flag *v;
    int n;
    char **operands;     /* the words left after the options */
    int noperands;
};

static void flags_release(struct flags *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->v[i].arg);
    free(fl->v);
    for (int i = 0; i < fl->noperands; i++) free(fl->operands[i]);
    free(fl->operands);
}

/* The argument of the last occurrence of opt, or NULL when absent. */
static const char *flags_last(const struct flags *fl, int opt)
{
    for (int i = fl->n - 1; i >= 0; i--)
        if (fl->v[i].opt == opt) return fl->v[i].arg;
    return NULL;
}

static int flags_want(const struct flags *fl, int opt)
{
    return flags_last(fl, opt) != NULL;
}

/* getopt_long tables from the options table: long options return 256 +
 * their index; bools take an optional "=BOOL" in long form only, so short
 * bool flags still bundle (-qk 5). */
static void build_getopt(struct option *lo, char *shorts)
{
    *shorts++ = ':';        /* silent; ':' reports a missing argument */
    int n = 0;
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = &cfg_options[i];
        if (!o->name) continue;     /* file and environment only */
        int has = o->type == CFG_ACTION ? no_argument
                : o->type == CFG_BOOL || (o->flags & CFG_OPTARG) ? optional_argument
                : required_argument;
        lo[n++] = (struct option){ o->name, has, NULL, 256 + i };
        if (!o->shortopt) continue;
        *shorts++ = o->shortopt;
        if (has == required_argument) *shorts++ = ':';
    }
    lo[n] = (struct option){ NULL, 0, NULL, 0 };
    *shorts = 0;
}

static int short_opt(int ch)
{
    for (int i = 0; i < OPT__COUNT; i++)
        if (cfg_options[i].shortopt == ch) return i;
    return -1;
}

/* "--name" for getopt's 256 + index, "-c" for a short letter. */
static void spell(int val, char *out, size_t n)
{
    if (val >= 256) snprintf(out, n, "--%s", cfg_options[val - 256].name);
    else snprintf(out, n, "-%c", val);
}

static int missing_arg(gn_err *e)
{
    char s[80];
    spell(optopt, s, sizeof s);
    int opt = optopt >= 256 ? optopt - 256 : short_opt(optopt);
    return gn_err_set(e, GN_EUSAGE, "option '%s' requires an argument (%s)",
                      s, opt >= 0 && cfg_options[opt].arg ? cfg_options[opt].arg
                                                          : "a value");
}

/* An unknown or ambiguous long option: av is the word as typed. */
static int bad_long(const char *word, gn_err *e)
{
    char name[80], list[400] = "";
    const char *s = word + strspn(word, "-");
    snprintf(name, sizeof name, "%.*s", (int)strcspn(s, "="), s);
    int matches = 0;
    for (int i = 0; i < OPT__COUNT; i++) {
        if (!cfg_options[i].name || strncmp(cfg_options[i].name, name, strlen(name)))
            continue;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s--%s", matches++ ? ", " : "",
                 cfg_options[i].name);
    }
    if (matches > 1)
        return gn_err_set(e, GN_EUSAGE, "option '--%s' is ambiguous (could be "
                          "%s)", name, list);
    int near = cfg_opt_closest(name, 0);
    if (near >= 0)
        return gn_err_set(e, GN_EUSAGE, "unknown option '--%s' (did you mean "
                          "'--%s'?)", name, cfg_options[near].name);
    return gn_err_set(e, GN_EUSAGE, "unknown option '--%s'", name);
}

static int bad_option(char **av, gn_err *e)
{
    if (optopt >= 256)
        return gn_err_set(e, GN_EUSAGE, "option '--%s' does not take an "
                          "argument", cfg_options[optopt - 256].name);
    if (optopt > 0)
        return gn_err_set(e, GN_EUSAGE, "unknown option '-%c'", optopt);
    return bad_long(av[optind - 1], e);
}

/* Validates one recognized flag and appends it to fl. */
static int add_flag(struct flags *fl, int ch, gn_err *e)
{
    int opt = ch >= 256 ? ch - 256 : short_opt(ch);
    const cfg_option *o = &cfg_options[opt];
    struct flag *f = &fl->v[fl->n];
    spell(ch, f->spelled, sizeof f->spelled);
    const char *arg = optarg ? optarg : "true";
    cfg_value tmp = { 0 };
    char why[512];
    if (cfg_opt_parse(o, arg, &tmp, why, sizeof why))
        return gn_err_set(e, GN_EUSAGE, "option '%s': %s", f->spelled, why);
    free(tmp.text);
    f->opt = opt;
    f->arg = xstrdup(arg);
    fl->n++;
    return 0;
}

/* Parses argv into fl (released by the caller even on error).  argv is
 * copied because GNU getopt permutes the array it is given. */
/* Is WORD the argument of an option whose argument is optional ("--resume
 * 12", "--resume latest")?  Only a number or "latest": "--resume what
 * about Friday?" leaves the question its words. */
static int optional_word(const char *w)
{
    if (!strcmp(w, "latest")) return 1;
    if (!*w) return 0;
    for (const char *p = w; *p; p++)
        if (*p < '0' || *p > '9') return 0;
    return 1;
}

static int parse_flags(struct flags *fl, int argc, char **argv, gn_err *e)
{
    struct option lo[OPT__COUNT + 1];
    char shorts[2 * OPT__COUNT + 2];
    fl->v = xcalloc(argc > 0 ? (size_t)argc : 1, sizeof *fl->v);
    fl->n = 0;
    fl->operands = NULL;
    fl->noperands = 0;
    if (argc < 1 || !argv) return 0;
    build_getopt(lo, shorts);
    char **av = xmalloc(((size_t)argc + 1) * sizeof *av);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    av[argc] = NULL;
    optind = 0;             /* glibc: full reset, so cfg_load can rerun */
    opterr = 0;
    int rc = 0, ch;
    while (!rc && (ch = getopt_long(argc, av, shorts, lo, NULL)) != -1) {
        /* An optional argument may also be the next word ("--resume 12"). */
        if (ch >= 256 && (cfg_options[ch - 256].flags & CFG_OPTARG) && !optarg)
            optarg = optind < argc && optional_word(av[optind]) ? av[optind++] : (char *)"latest";
        rc = ch == ':' ? missing_arg(e)
           : ch == '?' ? bad_option(av, e) : add_flag(fl, ch, e);
    }
    /* Words after the options are --init's data files, --rename-session's
     * title, or with no mode at all a question to answer once; beside
     * any other mode they are a mistake. */
    static const int modes[] = { OPT_SEARCH, OPT_REINDEX, OPT_SUQL, OPT_EXPLAIN, OPT_SCHEMA,
                                 OPT_CHECK_LLM, OPT_LIST_SESSIONS, OPT_EXPORT_SESSION,
                                 OPT_DELETE_SESSION, OPT_PRINT_CONFIG };
    int stray = 0;
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) stray |= flags_want(fl, modes[i]);
    if (!rc && optind < argc && stray && !flags_want(fl, OPT_INIT))
        rc = gn_err_set(e, GN_EUSAGE, "unexpected argument '%s' (to search "
                        "the knowledge base, use --search TEXT)", av[optind]);
    for (; !rc && optind < argc; optind++) {
        if (!fl->operands) fl->operands = xcalloc((size_t)argc, sizeof *fl->operands);
        fl->operands[fl->noperands++] = xstrdup(av[optind]);
    }
    free(av);
    return rc;
}

static int apply_flags(cfg_t *c, const struct flags *fl, gn_err *e)
{
    char why[512];
    for (int i = 0; i < fl->n; i++) {
        const struct flag *f = &fl->v[i];
        struct origin org = { CFG_SRC_FLAG, f->spelled, 0, NULL };
        if (set_value(c, f->opt, f->arg, &org, why, sizeof why))
            return gn_err_set(e, GN_EUSAGE, "option '%s': %s", f->spelled, why);
    }
    return 0;
}

/* ---- the layers ------------------------------------------------------ */

/* The config file to read: --config, else $GENIE_CONFIG, else the XDG
 * default; *explicit says whether it was named.  Returns a new string, or
 * NULL for no file (--config '', or no home directory). */
static char *config_path(const cfg_t *c, const struct flags *fl, int *explicit)
{
    char name[CFG_ENV_MAX];
    const char *s = flags_last(fl, OPT_CONFIG);
    *explicit = 1;
    if (s) return *s ? expand_path(c, s, NULL) : NULL;
    if ((s = env_nonempty(c, cfg_opt_env(OPT_CONFIG, name, sizeof name))))
        return expand_path(c, s, NULL);
    *explicit = 0;
    char *dir = cfg_xdg_dir(c, CFG_XDG_CONFIG, NULL);
    char *p = dir ? xasprintf("%s/config.ini", dir) : NULL;
    free(dir);
    return p;
}

static int load_file(cfg_t *c, const struct flags *fl, gn_err *e)
{
    int explicit, found;
    char *path = config_path(c, fl, &explicit);
    if (!path) return 0;
    gn_buf text;
    gn_buf_init(&text);
    int rc = read_file(path, explicit, &text, &found, e);
    if (!rc && found) rc = parse_ini(c, path, &text, e);
    gn_buf_release(&text);
    free(c->file);
    c->file = path;
    c->file_loaded = found && !rc;
    return rc;
}

/* OPT_CONFIG shows the file actually used, the XDG default included. */
static void record_config_path(cfg_t *c)
{
    struct slot *v = &c->slot[OPT_CONFIG];
    if (v->src != CFG_SRC_DEFAULT) return;
    free(v->val.text);
    v->val.text = xstrdup(c->file);
}

/* ---- cfg_load ------------------------------------------------------- */

/* The environment layer: GENIE_<KEY> for every option with a key, then the
 * fallback variables (NO_COLOR, OPENAI_API_KEY) where GENIE_<KEY> is unset:
 * for a bool its presence means true, for other types it is the value. */
static int load_env(cfg_t *c, gn_err *e)
{
    char name[CFG_ENV_MAX], why[512];
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = &cfg_options[i];
        if (!cfg_opt_env(i, name, sizeof name)) continue;
        const char *s = env_nonempty(c, name);
        struct origin org = { CFG_SRC_ENV, name, 0, NULL };
        if (s && set_value(c, i, s, &org, why, sizeof why))
            return gn_err_set(e, GN_EUSAGE, "environment variable %s: %s", name, why);
        const char *also = !s && o->env_also ? env_nonempty(c, o->env_also) : NULL;
        if (!also) continue;
        org.name = o->env_also;
        if (set_value(c, i, o->type == CFG_BOOL ? "true" : also, &org, why, sizeof why))
            return gn_err_set(e, GN_EUSAGE, "environment variable %s: %s", o->env_also, why);
    }
    return 0;
}

int cfg_load(cfg_t *c, int argc, char **argv, gn_err *e)
{
    struct flags fl;
    gn_err_clear(e);
    if (reset(c, e)) return e->code;
    int rc = parse_flags(&fl, argc, argv, e);
    if (!rc && !flags_want(&fl, OPT_HELP) && !flags_want(&fl, OPT_VERSION)) {
        rc = load_file(c, &fl, e);
        if (!rc) rc = load_env(c, e);
    }
    if (!rc) rc = apply_flags(c, &fl, e);
    if (!rc) record_config_path(c);
    if (!rc && fl.noperands) {
        c->operands = fl.operands;
        c->noperands = (size_t)fl.noperands;
        fl.operands = NULL;
        fl.noperands = 0;
    }
    flags_release(&fl);
    return rc;
}
