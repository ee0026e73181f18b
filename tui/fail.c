/*
 * fail.c — how the front end reports an error that ends a command:
 * "genie: <error>" on standard error, and the exit status its code calls
 * for (2 for a usage error, else 1).
 */
#include "cli.h"
#include "plainout.h"

#include <stdio.h>

int cli_fail(const gn_err *e)
{
    char buf[1200];
    /* A message may quote a server, a model or a file: made inert. */
    plain_printf(stderr, "genie: %s\n", gn_err_str(e, buf, sizeof buf));
    return e->code == GN_EUSAGE ? EXIT_USAGE : EXIT_RUNTIME;
}
