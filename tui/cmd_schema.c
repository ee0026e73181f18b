/*
 * cmd_schema.c — `genie --schema`: the schema as the LLM sees it, so a
 * person can see what the parser is told (and debug a knowledge base whose
 * genie_columns is wrong).
 */
#include "cli.h"

#include "store/kb.h"

#include <stdio.h>
#include <stdlib.h>

int cli_schema(const cfg_t *c)
{
    gn_err e;
    gn_err_clear(&e);
    char *path = cli_db_path(c, &e);
    if (!path) return cli_fail(&e);
    cli_agent_sync(c, path);
    sqlite3 *db = NULL;
    st_schema *s = NULL;
    int rc = st_open(path, 0, &db, &e);
    if (!rc) rc = st_schema_load(db, &s, &e);
    if (!rc) {
        gn_buf b;
        gn_buf_init(&b);
        st_schema_sql(s, CLI_SCHEMA_MAX_ENUM, &b);
        fputs(b.data ? b.data : "", stdout);
        gn_buf_release(&b);
    }
    st_schema_free(s);
    sqlite3_close(db);
    free(path);
    return rc ? cli_fail(&e) : EXIT_OK;
}
