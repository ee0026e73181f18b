/*
 * test_agent_extract.c — the parsers' replies as models write them: SUQL
 * wrapped in prose or fences, statements in lists (agent/extract.c).
 */
#include "harness.h"

#include "agent/turn_int.h"

#include <stdlib.h>

/* EXTRACT (one of the two extractors) of REPLY gives WANT. */
static void gives(char *(*extract)(const char *), const char *reply, const char *want)
{
    char *got = extract(reply);
    CHECK_STR(got, want);
    free(got);
}

static void suql_is(const char *reply, const char *want) { gives(ag_suql_extract, reply, want); }
static void stmts_are(const char *reply, const char *want) { gives(ag_statements_extract, reply, want); }

TEST(extract_suql_plain_and_fenced)
{
    suql_is("SELECT name FROM restaurants LIMIT 1;", "SELECT name FROM restaurants LIMIT 1");
    suql_is("```sql\nSELECT name FROM restaurants LIMIT 1;\n```", "SELECT name FROM restaurants LIMIT 1");
    suql_is("SUQL: SELECT 1", "SELECT 1");
}

TEST(extract_suql_prose_before_and_after)
{
    suql_is("Here is the SUQL query:\n\nSELECT name FROM restaurants WHERE name ILIKE '%a;b%' LIMIT 1;\n\n"
            "This query looks the name up.",
            "SELECT name FROM restaurants WHERE name ILIKE '%a;b%' LIMIT 1");
    /* "with" in the preamble is no CTE */
    suql_is("Here is the query with the ratings:\nSELECT rating FROM restaurants LIMIT 2",
            "SELECT rating FROM restaurants LIMIT 2");
    /* no semicolon: the sentence after the query is cut, the query kept */
    suql_is("SELECT name\nFROM restaurants\nLIMIT 1\nThis returns one restaurant by name.",
            "SELECT name\nFROM restaurants\nLIMIT 1");
    suql_is("SELECT name FROM restaurants LIMIT 3\nThese are places that aren't loud.",
            "SELECT name FROM restaurants LIMIT 3");
    /* a real CTE is kept whole */
    suql_is("WITH t AS (SELECT 1 AS a) SELECT a FROM t;", "WITH t AS (SELECT 1 AS a) SELECT a FROM t");
}

TEST(extract_suql_never_shortens_a_broken_query)
{
    /* The last line is SQL, not prose: cutting it would drop a condition,
     * so the query goes on whole, to fail with its own error. */
    suql_is("SELECT name FROM restaurants WHERE rating > 4\nAND price = ",
            "SELECT name FROM restaurants WHERE rating > 4\nAND price =");
    /* nothing that parses: the first candidate, for the repair's error */
    suql_is("Sorry, I cannot SELECT that.", "SELECT that.");
    suql_is("I don't know.", "I don't know.");
}

TEST(extract_statements_lists_fences_prose)
{
    stmts_are("Pass\n\n(The user is just saying thanks, so nothing changes.)", "pass");
    stmts_are("pass.", "pass");
    /* a reply written as JSON: its strings are the statements */
    stmts_are("{\"statements\": [\"Book_Restaurant(restaurant=\\\"Krung House\\\", num_people=2)\"]}",
              "Book_Restaurant(restaurant=\"Krung House\", num_people=2)");
    stmts_are("```json\n[\"book_restaurant.time = \\\"20:00\\\"\", \"book_restaurant.confirm = True\"]\n```",
              "book_restaurant.time = \"20:00\"\nbook_restaurant.confirm = True");
    stmts_are("{\"reasoning\": \"the user says thanks\", \"code\": \"pass\"}", "pass");
    stmts_are("Passenger(name=\"x\")", "Passenger(name=\"x\")");
    stmts_are("book_restaurant.num_people = 5", "book_restaurant.num_people = 5");
    stmts_are("```python\nBook_Restaurant(restaurant=\"Kaito\")\n```", "Book_Restaurant(restaurant=\"Kaito\")");
    stmts_are("Here are the statements:\n- book_restaurant.time = \"20:00\"\n- answer(\"Is Kaito open?\")",
              "book_restaurant.time = \"20:00\"\nanswer(\"Is Kaito open?\")");
    stmts_are("1. a.b = 1\n2) c.d = 2\n* pass\n\xe2\x80\xa2 e.f = 3", "a.b = 1\nc.d = 2\npass\ne.f = 3");
    stmts_are("Statements:\n`x.y = True`\nThese update the booking.", "x.y = True");
    /* prose with parentheses or an equals sign is still prose */
    stmts_are("```\nBook_Restaurant(restaurant=\"Kaito\")\n```\nThe user picked the second one (Kaito) "
              "and gave the time.\n(The booking is already done, so pass.)",
              "Book_Restaurant(restaurant=\"Kaito\")");
    stmts_are("pass\n(The booking is already done, so the note can't be added.)", "pass");
    /* a negative number is no list marker */
    stmts_are("a.b = -1", "a.b = -1");
    /* a preamble with the statement quoted inline (a chatty model's reply) */
    stmts_are("Sure! `answer(\"Which shops in Paris offer delivery?\")`",
              "answer(\"Which shops in Paris offer delivery?\")");
    stmts_are("Set `x.y = 2` and `answer(\"q\")`, not `the word` alone.", "x.y = 2\nanswer(\"q\")");
}
