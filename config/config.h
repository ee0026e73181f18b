/*
 * config.h — genie's settings: defaults, config file, environment, flags.
 *
 * One cfg_t holds the effective value of every option of the table in
 * options.h, with where each value came from.  cfg_load applies the layers
 * in increasing precedence:
 *
 *   defaults < config file < environment (GENIE_*) < command-line flags
 *
 * The config file is the one named by --config FILE, else by $GENIE_CONFIG,
 * else $XDG_CONFIG_HOME/genie/config.ini (fallback ~/.config/genie/config.ini).
 * A missing default file is fine; a missing named file is an error.  Empty
 * environment variables count as unset.
 *
 * Nothing here prints: errors go into a gn_err, warnings are kept as strings,
 * help and --print-config are rendered into a gn_buf.  The front end prints
 * and picks the exit status (0 ok, 1 runtime error, 2 usage error, i.e. a
 * GN_EUSAGE from cfg_load, after which it adds "Try 'genie --help'.").
 *
 * Threads: cfg_load uses getopt_long, whose state is global; call it from one
 * thread at a time (normally once, in main).  A loaded cfg_t is read-only and
 * may then be read from any thread.
 */
#ifndef GENIE_CONFIG_H
#define GENIE_CONFIG_H

#include "options.h"
#include "util/buf.h"
#include "util/err.h"

typedef struct cfg cfg_t;

/* Where a value came from, in increasing precedence. */
enum cfg_src { CFG_SRC_DEFAULT, CFG_SRC_FILE, CFG_SRC_ENV, CFG_SRC_FLAG };

/* What the command line asked for besides running normally. */
enum cfg_action { CFG_RUN, CFG_HELP, CFG_VERSION, CFG_PRINT_CONFIG };

/* The XDG base directories, each with "/genie" appended. */
enum cfg_xdg { CFG_XDG_CONFIG, CFG_XDG_DATA, CFG_XDG_STATE, CFG_XDG_CACHE };

/* ---- lifecycle ------------------------------------------------------ */

/* A configuration holding the defaults, reading the process environment.
 * Free with cfg_free (NULL is a no-op). */
cfg_t *cfg_new(void);
void cfg_free(cfg_t *c);

/* Makes c read its environment (GENIE_*, HOME, XDG_*, NO_COLOR) from envp, a
 * NULL-terminated "NAME=value" array that must outlive c, instead of the
 * process environment; envp NULL restores the process environment.  For
 * tests and embedding. */
void cfg_set_environ(cfg_t *c, const char *const *envp);

/* ---- loading -------------------------------------------------------- */

/* Resets c to the defaults and applies config file, environment and flags
 * (argv[0] is the program name and is skipped; argv is not modified).
 * Returns 0 or an error code with detail in e:
 *   GN_EUSAGE  unknown flag, missing or bad flag argument, stray positional
 *              argument, bad value in a GENIE_* variable (message names it)
 *   GN_EPARSE  config file syntax error or bad value (e->file, e->line set;
 *              gn_err_str gives "FILE:LINE: key 'top_k': invalid integer
 *              '12x'"), or a NUL byte in the file
 *   GN_EIO     the named config file cannot be read (or the default exists
 *              but cannot be read)
 *   GN_ELIMIT  the config file is larger than 1 MiB or has a line too long
 *   GN_ECORRUPT  a default of the options table fails its own validation
 *              (a bug, or LC_NUMERIC not "C": see util/locale.h)
 * With --help or --version (cfg_action) the file and environment are not
 * read, so help works even with a broken config file.  Warnings (unknown
 * sections and keys, repeated keys) do not fail the load: see cfg_warnings.
 * Calling cfg_load again starts over from the defaults. */
int cfg_load(cfg_t *c, int argc, char **argv, gn_err *e);

/* ---- values (valid until the next cfg_load or cfg_free) -------------- */

/* The value of a string, path or enum option; never NULL ("" when empty).
 * Paths are expanded ("~/" and, from a file, relative to its directory). */
const char *cfg_str(const cfg_t *c, int opt);
/* The value of an integer option. */
long cfg_int(const cfg_t *c, int opt);
/* The value of a double option. */
double cfg_double(const cfg_t *c, int opt);
/* The value of a bool option, or whether an action switch was given. */
int cfg_bool(const cfg_t *c, int opt);
/* Calling an accessor on an option of another type is a programming error
 * and aborts. */

/* The value of any option as text ("10", "true", "glove"); never NULL.
 * This is the real value even for CFG_SECRET rows: show values to people
 * through cfg_format_value. */
const char *cfg_text(const cfg_t *c, int opt);

/* Where the value of opt came from: "default", "file PATH:LINE",
 * "env GENIE_X" or "flag --x"; never NULL. */
const char *cfg_source(const cfg_t *c, int opt);
enum cfg_src cfg_source_kind(const cfg_t *c, int opt);

/* Help, version or print-config when requested (in that priority), else
 * CFG_RUN. */
enum cfg_action cfg_action(const cfg_t *c);

/* The words after the options (only --init takes any: its data files);
 * *n gets how many.  NULL when there are none. */
const char *const *cfg_operands(const cfg_t *c, size_t *n);

/* The config file used by the last cfg_load ("" when none), and whether it
 * existed and was read. */
const char *cfg_file(const cfg_t *c);
int cfg_file_loaded(const cfg_t *c);

/* Warnings of the last cfg_load, each a full line without newline such as
 * "PATH:7: unknown key 'topk' in [general] (did you mean [general] top_k?)".
 * Returns a NULL-terminated array owned by c; *n (if n) gets the count. */
const char *const *cfg_warnings(const cfg_t *c, size_t *n);

/* ---- rendering (help.c); each appends to out ------------------------- */

/* The --help text: usage, options by group with short/long form, argument,
 * help, default, config key and environment variable, files, exit status. */
void cfg_help(gn_buf *out);

/* The --version text: "genie VERSION\n". */
void cfg_version(gn_buf *out);

/* The --print-config text: every file-settable setting as valid INI,
 * "key = value  ; source", secrets shown as "(set, hidden)". */
void cfg_print(const cfg_t *c, gn_buf *out);

/* A commented sample config file listing every file-settable option with
 * its default (the content of config/config.ini.example). */
void cfg_example(gn_buf *out);

/* Appends value as --print-config shows it for option row o: the value, or
 * "(set, hidden)" for a non-empty value of a CFG_SECRET row. */
void cfg_format_value(const cfg_option *o, const char *value, gn_buf *out);

/* ---- XDG base directories ------------------------------------------- */

/* The genie directory of kind: $XDG_CONFIG_HOME, $XDG_DATA_HOME,
 * $XDG_STATE_HOME or $XDG_CACHE_HOME + "/genie", falling back to
 * ~/.config, ~/.local/share, ~/.local/state, ~/.cache (relative or empty
 * XDG values are ignored, per the specification).  The environment is c's
 * (c NULL: the process environment).  Returns a new string the caller
 * frees, or NULL with GN_ENOTFOUND in e when neither variable nor HOME is
 * set. */
char *cfg_xdg_dir(const cfg_t *c, enum cfg_xdg kind, gn_err *e);

/* cfg_xdg_dir, then creates the directory and missing parents with mode
 * 0700.  Returns the path (caller frees) or NULL with e set (GN_EIO). */
char *cfg_xdg_make(const cfg_t *c, enum cfg_xdg kind, gn_err *e);

/* Creates path and its missing parents with mode 0700; an existing
 * directory is fine.  Returns 0 or GN_EIO naming the failing component. */
int cfg_mkdirs(const char *path, gn_err *e);

#endif
