/*
 * agent_int.h — what the agent's files share and the front end does not
 * see: the declared APIs (apis.ini) and the INI reading both agent.ini and
 * apis.ini go through.
 */
#ifndef GENIE_AGENT_INT_H
#define GENIE_AGENT_INT_H

#include "agent/agent.h"

#include <stddef.h>

enum ag_api_kind { AG_API_SQL, AG_API_HTTP };

/* One [section] of apis.ini.  Owned by the agent's apis array. */
struct ag_api {
    char *name;               /* the section name, an identifier */
    enum ag_api_kind kind;
    char *sql;                /* SQL: the statements, as written */
    char *url;                /* HTTP: http:// or https:// */
    int get;                  /* HTTP: 1 for GET, 0 for POST */
    double timeout;           /* HTTP: seconds; 0: the host's http_timeout */
    char **headers;           /* HTTP: "Name: value" lines */
    int nheaders;
    int line;                 /* of its [section] line in apis.ini */
};

/* ---- INI files (load.c) ------------------------------------------------- */

/* One thing the INI reader found.  KEY is NULL for a [section] line (SECTION
 * then names it); CONT is set for an indented line continuing KEY's value
 * (inih's multi-line values: VALUE is that line, stripped). */
typedef struct ag_ini_item {
    const char *path;         /* the file, for errors */
    const char *section, *key, *value;
    int line, cont;
    const char *raw;          /* the line as written (not NUL-terminated) */
    size_t rawlen;
} ag_ini_item;

/* Called for each item; returns 0 or an error code with E set (the first
 * error of the file is the one reported). */
typedef int (*ag_ini_fn)(void *ud, const ag_ini_item *it, gn_err *e);

/* Parse TEXT (LEN bytes; the file PATH) with inih, calling FN for every
 * section line, key and continuation line.  Returns 0, FN's error, GN_EPARSE
 * for a syntax error or GN_ELIMIT for a line longer than inih's buffer,
 * with E's file and line set. */
int ag_ini_parse(const char *path, const char *text, size_t len, ag_ini_fn fn,
                 void *ud, gn_err *e);

/* The known name closest to NAME (edit distance <= 2, and less than half
 * NAME's length), or NULL. */
const char *ag_closest(const char *name, const char *const *names, int n);

/* ---- APIs (apis.c) ------------------------------------------------------ */

/* Parse apis.ini's TEXT (the file PATH): *out gets *n APIs (free with
 * ag_apis_free).  Returns 0 or GN_EPARSE/GN_ELIMIT with E's file and line
 * set. */
int ag_apis_parse(const char *path, const char *text, size_t len,
                  ag_api **out, int *n, gn_err *e);
void ag_apis_free(ag_api *apis, int n);

/* The API named NAME (case-sensitive), or NULL. */
const ag_api *ag_api_find(const ag_agent *a, const char *name);

#endif
