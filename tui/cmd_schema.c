/*
 * cmd_schema.c — `genie --schema`: the schema as the LLM sees it, so a
 * person can see what the parser is told (and debug a knowledge base whose
 * genie_columns is wrong).
 */
#include "cli.h"

#include <stdio.h>

int cli_schema(const cfg_t *c)
{
    gn_err e;
    gn_err_clear(&e);
    genie_kb k;
    genie_hooks h = cli_hooks(c);
    int rc = genie_kb_open(&k, c, NULL, GENIE_KB_SCHEMA, 0, &h, &e);
    if (!rc) {
        gn_buf b;
        gn_buf_init(&b);
        genie_kb_schema(&k, GENIE_SCHEMA_MAX_ENUM, &b);
        fputs(b.data ? b.data : "", stdout);
        gn_buf_release(&b);
    }
    genie_kb_close(&k);
    return rc ? cli_fail(&e) : EXIT_OK;
}
