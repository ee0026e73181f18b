/*
 * fuzz_config.c — libFuzzer target for the settings loader: the config
 * file (config/config.c through libinih), the command line (getopt_long)
 * and the environment layer, the one value validator (config/options.c)
 * and --print-config (config/help.c).
 *
 * cfg_load reads its file by name only, so the input is written to an
 * anonymous memory file (memfd_create) once per run and named by its
 * /proc/self/fd path: no file on disk, nothing to clean up.  The same
 * input is also split into lines: lines NAME=VALUE with an upper-case NAME
 * become the environment (cfg_set_environ), the others the command-line
 * words.  A final "--config=" keeps that run from reading any file the
 * words name (a word that swallows it as its argument names the file
 * "--config=", which does not exist); the environment is always injected,
 * never the process's own.  The loader never exits (errors come back in a
 * gn_err; config.c aborts only on its own bugs).
 * Beyond the sanitizers' checks, the target aborts when:
 *   - the load fails with a code the header does not list for that layer
 *     (file: GN_EPARSE, GN_ELIMIT; command line: GN_EUSAGE, GN_EIO), with an
 *     empty message, or a file error without the file's name and a line of
 *     the text (a NUL byte aside, which is refused for the whole file);
 *   - after the load, whatever failed, an option lacks its text or its
 *     source, or holds text its own validator refuses or would write
 *     differently (config.h: "after cfg_load every option holds a valid
 *     value and a source string");
 *   - a warning is empty or does not name the file and line;
 *   - a file that loads prints (--print-config) as a file that does not
 *     load again without warnings to the same values (test_config.c:
 *     "The output is a valid config file giving the same values"); secret
 *     rows, printed hidden, are not compared.
 * A value no config line can hold (a line break, ' ;', too long) is
 * printed as a comment naming it, and is not compared.
 * Seeds: tests/fuzz/seeds/fuzz_config (config/config.ini.example and
 * variants, and a few command lines).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iengine tests/fuzz/fuzz_config.c \
 *       config/{config,options,help}.c engine/util/{buf,err,fs,strdist,xmem}.c -linih \
 *       -o /tmp/fuzz_config
 *   /tmp/fuzz_config -max_total_time=60 CORPUS_DIR tests/fuzz/seeds/fuzz_config
 */
#include "config/config.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

static const char *const base_env[] = { "HOME=/nonexistent-fuzz-home", NULL };

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_config: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* The memory file's path ("/proc/self/fd/N"), made on first use. */
static int mem_fd = -1;
static char mem_path[64];

static const char *put_file(const void *p, size_t n)
{
    if (mem_fd < 0) {
        mem_fd = memfd_create("fuzz_config.ini", 0);
        if (mem_fd < 0) fail("memfd_create failed", NULL);
        snprintf(mem_path, sizeof mem_path, "/proc/self/fd/%d", mem_fd);
    }
    if (ftruncate(mem_fd, 0) || (n && pwrite(mem_fd, p, n, 0) != (ssize_t)n))
        fail("cannot write the memory file", NULL);
    return mem_path;
}

static int load(cfg_t *c, const char *const *env, int argc, char **argv, gn_err *e)
{
    cfg_set_environ(c, env);
    return cfg_load(c, argc, argv, e);
}

static int load_file(cfg_t *c, const char *path, gn_err *e)
{
    char *argv[] = { (char *)"genie", (char *)"--config", (char *)path, NULL };
    return load(c, base_env, 3, argv, e);
}

/* ---- checks --------------------------------------------------------- */

/* Every option holds text its validator takes and writes back alike. */
static void check_values(const cfg_t *c)
{
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = cfg_opt(i);
        const char *t = cfg_text(c, i), *src = cfg_source(c, i);
        if (!t || !src || !src[0]) fail("an option without text or source", o->key);
        cfg_value v = { 0 };
        char why[512];
        if (cfg_opt_parse(o, t, &v, why, sizeof why)) fail("an option holds an invalid value", why);
        if (o->type != CFG_PATH && strcmp(v.text, t)) fail("an option's text is not canonical", t);
        free(v.text);
    }
    if ((unsigned)cfg_action(c) > CFG_PRINT_CONFIG) fail("an action out of range", NULL);
}

static void check_warnings(const cfg_t *c, const char *path)
{
    size_t n = 0, k = 0;
    const char *const *w = cfg_warnings(c, &n);
    size_t pl = strlen(path);
    for (; w[k]; k++)
        if (strncmp(w[k], path, pl) || w[k][pl] != ':' || !isdigit((unsigned char)w[k][pl + 1]))
            fail("a warning that does not name the file and line", w[k]);
    if (k != n) fail("the warning count is wrong", NULL);
}

static int count_lines(const uint8_t *p, size_t n)
{
    int lines = 1;
    for (size_t i = 0; i + 1 < n; i++) lines += p[i] == '\n';
    return lines;
}

/* Is setting KEY named as not printable in the --print-config text? */
static int not_shown(const char *text, const char *key)
{
    char want[96];
    snprintf(want, sizeof want, "\n; %s: not shown, ", key);
    return strstr(text, want) != NULL;
}

/* --print-config of C, loaded again, gives the same values. */
static void reprint(const cfg_t *c)
{
    gn_buf b;
    gn_buf_init(&b);
    cfg_print(c, &b);
    const char *path = put_file(b.data, b.len);
    cfg_t *d = cfg_new();
    gn_err e;
    if (load_file(d, path, &e)) {
        fprintf(stderr, "%s\n", b.data);
        fail("the printed config does not load", e.msg);
    }
    if (cfg_warnings(d, NULL)[0]) {
        fprintf(stderr, "%s\n", b.data);
        fail("the printed config loads with a warning", cfg_warnings(d, NULL)[0]);
    }
    for (int i = 0; i < OPT__COUNT; i++) {
        const cfg_option *o = cfg_opt(i);
        if (!o->section || (o->flags & CFG_SECRET) || not_shown(b.data, o->key)) continue;
        if (strcmp(cfg_text(c, i), cfg_text(d, i))) {
            fprintf(stderr, "%s\n[%s] %s: '%s' became '%s'\n", b.data, o->section, o->key,
                    cfg_text(c, i), cfg_text(d, i));
            fail("the printed config loads to another value", o->key);
        }
    }
    cfg_free(d);
    gn_buf_release(&b);
}

/* ---- the two layers ----------------------------------------------------- */

static void file_layer(const uint8_t *data, size_t size)
{
    const char *path = put_file(data, size);
    cfg_t *c = cfg_new();
    gn_err e;
    int rc = load_file(c, path, &e);
    check_values(c);
    if (rc) {
        if (!e.msg[0]) fail("an error without a message", NULL);
        if (memchr(data, 0, size)) {
            if (rc != GN_EPARSE || !strstr(e.msg, "NUL")) fail("a NUL byte not refused", e.msg);
        } else if ((rc != GN_EPARSE && rc != GN_ELIMIT) || strcmp(e.file, path) || e.line < 1 ||
                   e.line > count_lines(data, size)) {
            fprintf(stderr, "code %d, %s:%d\n", rc, e.file, e.line);
            fail("a file error of another kind or place", e.msg);
        }
        if (cfg_file_loaded(c)) fail("a file that failed counts as loaded", NULL);
    } else {
        if (!cfg_file_loaded(c) || strcmp(cfg_file(c), path))
            fail("the file is not recorded", NULL);
        if (cfg_action(c) != CFG_RUN) fail("a file asked for an action", NULL);
        check_warnings(c, path);
        reprint(c);
    }
    cfg_free(c);
}

static void command_line(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    char *argv[MAX_WORDS + 3];
    const char *env[MAX_WORDS + 2];
    int argc = 0, nenv = 0;
    argv[argc++] = (char *)"genie";
    env[nenv++] = base_env[0];
    for (char *line = text, *next; line && argc < MAX_WORDS + 1; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        size_t name = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
        if (name && line[name] == '=' && nenv < MAX_WORDS) env[nenv++] = line;
        else argv[argc++] = line;
    }
    argv[argc++] = (char *)"--config=";
    argv[argc] = NULL;
    env[nenv] = NULL;
    cfg_t *c = cfg_new();
    gn_err e;
    int rc = load(c, env, argc, argv, &e);
    check_values(c);
    if (rc && ((rc != GN_EUSAGE && rc != GN_EIO) || !e.msg[0])) {
        fprintf(stderr, "code %d\n", rc);
        fail("a command-line error of another kind", e.msg);
    }
    if (!rc) {
        gn_buf b;
        gn_buf_init(&b);
        cfg_print(c, &b);
        gn_buf_release(&b);
    }
    cfg_free(c);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    file_layer(data, size);
    command_line(data, size);
    return 0;
}
