/*
 * err.h — the one error pattern of genie.
 *
 * Functions return an int status (0 = success, otherwise a GN_E* code) and
 * write detail into a caller-provided gn_err: the code, a message, and where
 * known a position (file, line, column).  Only front ends print errors.
 * A NULL gn_err pointer is allowed everywhere: the detail is then dropped.
 */
#ifndef GENIE_ERR_H
#define GENIE_ERR_H

enum gn_code {
    GN_OK = 0,
    GN_EUSAGE,     /* bad argument or option */
    GN_EIO,        /* file system or OS error */
    GN_EPARSE,     /* malformed input (config, query, spec, ...) */
    GN_EDB,        /* SQLite error */
    GN_ECORRUPT,   /* a file exists but its content is invalid */
    GN_ENOTFOUND,  /* a named thing does not exist */
    GN_ENET,       /* network or remote service error */
    GN_ESTALE,     /* derived data out of date with its source */
    GN_ELIMIT,     /* an input-size or budget limit was reached */
    GN_ECANCEL     /* the operation was cancelled */
};

typedef struct gn_err {
    int code;
    int line, col;        /* 1-based; 0 when unknown */
    char file[256];       /* empty when unknown */
    char msg[768];
} gn_err;

/* Reset to "no error". */
void gn_err_clear(gn_err *e);

/* Set code and printf-style message; returns code so callers can write
 * `return gn_err_set(e, GN_EIO, "...")`. */
int gn_err_set(gn_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like gn_err_set, with a source position (file may be NULL). */
int gn_err_setpos(gn_err *e, int code, const char *file, int line, int col,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Prepend context ("opening x: ") to an existing message; returns e->code. */
int gn_err_prefix(gn_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Render as "file:line:col: message" (parts omitted when unknown) into buf. */
const char *gn_err_str(const gn_err *e, char *buf, unsigned size);

#endif
