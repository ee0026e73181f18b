/*
 * suql_fixture.h — the schema the SUQL analyzer and emitter tests share:
 * two visible tables (restaurants, dishes), a column SQLite has but the
 * schema hides (restaurants.secret), and bookkeeping tables no query may
 * see (genie_meta, _truth_answers).  SQL text to run on an empty database;
 * tests add their own rows.
 */
#ifndef GENIE_TEST_SUQL_FIXTURE_H
#define GENIE_TEST_SUQL_FIXTURE_H

extern const char th_suql_schema_sql[];

#endif
