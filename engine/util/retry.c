/*
 * retry.c — the retry policy (see retry.h).
 *
 * Jitter keeps concurrent calls that failed together (a 429 burst of the
 * verification pool) from retrying together.  Half the backoff is kept
 * fixed so a retry never comes back immediately.
 */

#include "retry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int gn_retry_status(long s)
{
    return s == 408 || s == 409 || s == 429 || (s >= 500 && s <= 599);
}

/* A non-negative decimal number, whole string (spaces around allowed). */
static int number(const char *s, double *out)
{
    while (isspace((unsigned char)*s)) s++;
    if (!isdigit((unsigned char)*s) && *s != '.') return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (*end || errno || !isfinite(d) || d < 0) return -1;
    *out = d;
    return 0;
}

/* IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 5.6.7), plus the
 * obsolete RFC 850 and asctime forms through strptime's lenience. */
static int http_date(const char *s, time_t *out)
{
    static const char *const fmts[] = {
        "%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y",
    };
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        struct tm tm;
        memset(&tm, 0, sizeof tm);
        const char *end = strptime(s, fmts[i], &tm);
        if (!end) continue;
        while (isspace((unsigned char)*end)) end++;
        if (*end) continue;
        *out = timegm(&tm);
        return 0;
    }
    return -1;
}

double gn_retry_after(const char *retry_after_ms, const char *retry_after, time_t now)
{
    double d;
    if (retry_after_ms && !number(retry_after_ms, &d)) return d / 1000.0;
    if (!retry_after) return -1;
    if (!number(retry_after, &d)) return d;
    time_t t;
    while (isspace((unsigned char)*retry_after)) retry_after++;
    if (!http_date(retry_after, &t)) return t > now ? (double)(t - now) : 0;
    return -1;
}

double gn_retry_delay(int attempt, double server_wait, double cap, unsigned *seed)
{
    if (cap < 0) cap = 0;
    if (server_wait >= 0) return server_wait < cap ? server_wait : cap;
    if (attempt < 1) attempt = 1;
    double d = 0.5 * ldexp(1.0, attempt > 30 ? 30 : attempt - 1);
    if (d > cap) d = cap;
    double r = (double)rand_r(seed) / ((double)RAND_MAX + 1.0);
    return d * (0.5 + 0.5 * r);
}
