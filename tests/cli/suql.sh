#!/usr/bin/env bash
# suql.sh — the SUQL commands of genie on the sample databases: --schema
# (the schema as the parser's prompt shows it), --suql with its formats and
# errors, --explain [--analyze], offline and against the mock LLM server.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init suql
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C HOME=$T XDG_CONFIG_HOME=$T/config
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; printf '#   %s\n' "$(head -c 400 "$T/out")" "$(head -c 400 "$T/err")"; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }
g() { "$BIN" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { [ "$(cat "$T/rc")" = "$1" ]; }
has() { grep -qF -- "$1" "$T/out"; }

RDB=$TOP/sample_db/restaurants.db CDB=$TOP/sample_db/courses.db
g --schema --db "$RDB"
check "--schema exits 0" rc 0
check "--schema shows the restaurants table" has "CREATE TABLE restaurants ("
check "--schema marks free text" has "reviews FREE_TEXT[]"
check "--schema lists small enums" has "price ENUM ('cheap', 'moderate', 'expensive', 'luxury')"
check "--schema shows arrays" has "cuisines TEXT[]"
check "--schema shows descriptions" has "-- Customer reviews"
check "--schema hides bookkeeping and ground truth" sh -c "! grep -q 'genie_\|_truth' '$T/out'"
g --schema --db "$CDB"
check "--schema shows every table of a database" sh -c "[ \$(grep -c '^CREATE TABLE' '$T/out') = 4 ]"
check "--schema shows enum arrays" has "grading_options ENUM ('Letter', 'Credit/No Credit')[]"
g --schema --db "$T/missing.db"
check "--schema of a missing file exits 1" rc 1
printf 'not a database at all, just text that is long enough to be read\n' >"$T/junk.db"
g --schema --db "$T/junk.db"
check "--schema of a non-database exits 1 naming it" sh -c "[ \$(cat '$T/rc') = 1 ] && grep -q 'junk.db' '$T/err'"

# ---- --suql, offline ------------------------------------------------------
# A writable copy, so a stale index can be rebuilt.
cp "$RDB" "$T/r.db"
RQ="SELECT name, rating FROM restaurants WHERE location = 'Palo Alto' AND 'italian' = ANY (cuisines) ORDER BY rating DESC, name LIMIT 3"
g -q --db "$T/r.db" --suql "$RQ"
check "--suql runs a structured query" rc 0
check "--suql prints a table with a row count" has "(3 rows)"
g --db "$T/r.db" --suql "$RQ"
check "--suql says it is offline (unless -q)" sh -c "grep -q 'offline: no LLM endpoint' '$T/err'"
g -q --db "$T/r.db" --suql "$RQ" --format json
check "--format json is JSON" sh -c "python3 -c 'import json,sys; d=json.load(open(\"$T/out\")); assert len(d)==3 and \"rating\" in d[0]'"
g -q --db "$T/r.db" --suql "$RQ" --format csv
check "--format csv has a header and 3 rows" sh -c "[ \$(wc -l <'$T/out') = 4 ] && head -1 '$T/out' | grep -q '^name,rating'"
JQ="SELECT 9007199254740993 AS big, 0.1::float8 + 0.2::float8 AS r, 4.0::float8 AS f, 1e300::float8 AS e, rating > 4 AS good, cuisines, NULL AS n FROM restaurants WHERE name = 'Acropolis Souvlaki'"
g -q --db "$T/r.db" --suql "$JQ" --format json
check "--format json writes values as PostgreSQL's row_to_json" sh -c "tr -d ' \t\n' <'$T/out' | grep -qxF '[{\"big\":9007199254740993,\"r\":0.30000000000000004,\"f\":4,\"e\":1e+300,\"good\":false,\"cuisines\":[\"greek\"],\"n\":null}]'"
g -q --db "$T/r.db" --suql "$JQ" --format csv
check "--format csv writes booleans as true/false and integers exactly" has "9007199254740993,0.30000000000000004,4.0,1e+300,false,"
printf '%s\n' "$RQ" | "$BIN" -q --db "$T/r.db" --suql - >"$T/out" 2>"$T/err"; echo $? >"$T/rc"
check "--suql - reads the query from stdin" has "(3 rows)"
FQ="SELECT name, answer(reviews, 'is there parking?') FROM restaurants WHERE location = 'Cupertino' AND answer(reviews, 'is it romantic?') = 'Yes' LIMIT 2"
g -q --db "$T/r.db" --suql "$FQ" --analyze
check "--suql with answer() filters runs offline" sh -c "[ \$(cat '$T/rc') = 0 ] && grep -q '(2 rows)' '$T/out'"
check "--analyze reports on stderr" sh -c "grep -q 'mode:        optimized' '$T/err' && grep -q 'offline' '$T/err'"
check "--analyze reports per step" sh -c "grep -qE '^  conjunct 1: [0-9]+ candidates, [0-9]+ checked, [0-9]+ passed; [0-9]+ evaluations' '$T/err' && grep -qE '^  final: .* 2 evaluations' '$T/err'"
OQ="SELECT name FROM restaurants WHERE (location = 'Cupertino' AND answer(reviews, 'is it romantic?') = 'Yes') OR (location = 'Sunnyvale' AND answer(reviews, 'good for kids?') = 'Yes') LIMIT 40"
g -q --db "$T/r.db" --explain "$OQ" --analyze
check "--explain --analyze: a step for each conjunct" sh -c "grep -q '^  conjunct 1: ' '$T/out' && grep -q '^  conjunct 2: ' '$T/out' && grep -q '^  final: ' '$T/out'"
check "--explain --analyze: the plan's tree carries each step's counts" \
    sh -c "grep -qE '^(├─|\\|-) conjunct 1:  \[[0-9]+ candidates, [0-9]+ checked, [0-9]+ passed; [0-9]+ evaluations?, [0-9]+ LLM calls?\]' '$T/out' && grep -qE '^(└─|\\\`-|├─|\\|-) final: .*\[[0-9]+ rows?\]' '$T/out'"
g -q --db "$T/r.db" --explain "$FQ"
check "--explain shows the plan" sh -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'mode:   optimized' '$T/out' && grep -q 'structured: SELECT' '$T/out' && grep -q 'budget:' '$T/out'"
check "--explain draws the plan as a tree: the query at its root, a conjunct's steps under it" \
    sh -c "head -n1 '$T/out' | grep -q '^query:  ' && grep -A1 -E '^(├─|\\|-) conjunct 1:\$' '$T/out' | grep -qE '^(│  |\\|  )(├─|\\|-) structured: SELECT'"
LANG=C LC_ALL=C "$BIN" -q --db "$T/r.db" --explain "$FQ" >"$T/ascii.out" 2>&1
LC_ALL=C.UTF-8 "$BIN" -q --db "$T/r.db" --explain "$FQ" >"$T/utf8.out" 2>&1
check "... with box lines in a UTF-8 locale" grep -q '^├─ conjunct 1:$' "$T/utf8.out"
check "... in ASCII where the locale cannot show the box lines" \
    sh -c "grep -qE '^\\|- conjunct 1:\$' '$T/ascii.out' && ! LC_ALL=C grep -q '[^ -~]' '$T/ascii.out'"
g -q --db "$T/r.db" --suql "SELECT name FROM restaurant WHERE rating > 4"
check "an unknown table is an error with a suggestion" sh -c "[ \$(cat '$T/rc') = 1 ] && grep -q \"did you mean 'restaurants'\" '$T/err'"
check "... and a caret under it" sh -c "grep -q '^                 \\^' '$T/err'"
g -q --db "$T/r.db" --suql "SELECT name FORM restaurants"
check "a syntax error gives line and column" sh -c "[ \$(cat '$T/rc') = 1 ] && grep -q 'genie: 1:' '$T/err'"
g -q --db "$T/r.db" --suql "DROP TABLE restaurants"
check "a statement other than SELECT is refused" sh -c "[ \$(cat '$T/rc') != 0 ] && grep -qi 'only a single SELECT' '$T/err'"
g -q --db "$T/r.db" --suql "SELECT count(*) FROM restaurants"
check "... and nothing was dropped" has "1800"

# ---- --suql against the mock LLM ----------------------------------------------
# stage_calls STAGE: requests of that stage in the mock's log.
stage_calls() {
    "$PY" -c 'import json,sys
print(sum(1 for l in open(sys.argv[1]) if {k.lower(): v for k, v in json.loads(l)["headers"].items()}.get("x-genie-stage") == sys.argv[2]))' "$T/mock.log" "$1"
}
if start_mock; then
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" -d \
        '{"chat": [{"stage": "verify", "reply": "Yes"}, {"stage": "answer", "reply": "Plenty of parking."}]}'
    g -q --db "$T/r.db" --llm-url "$URL" --no-cache --suql "$FQ" --analyze
    check "online: --suql runs" sh -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'Plenty of parking.' '$T/out'"
    check "online: few LLM calls (one window of checks, two answers)" sh -c "n=\$(wc -l <'$T/mock.log'); [ \$n -le 10 ] && [ \$n -ge 3 ]"
    n=$(stage_calls verify)
    check "online: the window's rows are verified 8 a call, in one round" sh -c "[ $n -ge 1 ] && [ $n -le 5 ] && grep -q 'Row 2, text of reviews' '$T/mock.log' && grep -q 'calls in 2 rounds)' '$T/err'"
    : >"$T/mock.log"
    g -q --db "$T/r.db" --llm-url "$URL" --no-cache --verify-batch 1 --suql "$FQ" --analyze
    n=$(stage_calls verify)
    check "online: --verify-batch 1 asks about one row a call" sh -c "[ $n -gt 1 ] && grep -q 'checked $n,' '$T/err' && ! grep -q 'Row 1, text of' '$T/mock.log'"
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" -d \
        '{"chat": [{"stage": "verify", "status": 401, "error_message": "bad key"}]}'
    g -q --db "$T/r.db" --llm-url "$URL" --no-cache --retries 0 --suql "SELECT name FROM restaurants WHERE answer(reviews, 'vegan?') = 'Yes' LIMIT 1"
    check "online: an LLM failure mid-query is a clear error" sh -c "[ \$(cat '$T/rc') = 1 ] && grep -q 'bad key' '$T/err'"
    stop_mock
else
    notok "mock server starts"
fi

# ---- an empty argument is a usage error, not a conversation --------------------
for o in --suql --explain --search; do
    g --db "$RDB" --offline $o '' </dev/null
    check "$o '' is a usage error" sh -c "[ \"\$(cat '$T/rc')\" = 2 ] && grep -q -- '$o needs a non-empty argument' '$T/err'"
done

# ---- limits: a runaway query stops, a huge result is cut -----------------------
# timed CMD...: run CMD, its wall time in milliseconds into MS.
timed() { local t0; t0=$(date +%s%N); "$@"; MS=$(( ($(date +%s%N) - t0) / 1000000 )); }
timed g --db "$RDB" --offline -q --query-timeout 0.5 --suql \
  "SELECT count(*) FROM restaurants a, restaurants b, restaurants c WHERE a.rating + b.rating + c.rating > 0"
check "a runaway join stops at --query-timeout with an error naming it" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q 'time limit of 0.5 s of database work (--query-timeout)' '$T/err'"
check "... within seconds" [ $MS -lt 5000 ]
# Everything a query does is bounded: its compile (a chain of WITH queries
# that each read the one before twice compiled 2^n copies), one value's
# length (repeat('x', 1e9) took 3 GB), its memory, and a long IN list
# (80,000 strings took 7.5 s: its duplicates were found by a linear scan).
cte="WITH c0 AS (SELECT 1 AS x)"
for i in $(seq 1 25); do cte="$cte, c$i AS (SELECT x FROM c$((i-1)) UNION ALL SELECT x FROM c$((i-1)))"; done
timed g --db "$RDB" --offline -q --query-timeout 3 --suql "$cte SELECT count(*) FROM c25"
check "a query that would compile 2^25 copies of a WITH query is refused, naming it" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q \"WITH query 'c[0-9]*' is copied into each query that reads it\" '$T/err'"
check "... at once" [ $MS -lt 2000 ]
timed g --db "$RDB" --offline -q --query-timeout 3 --suql "SELECT length(repeat('x', 1e9)), length(repeat('y', 1e9))"
check "repeat() past the longest value a query may make is an error naming the limit" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q 'requested length too large (a text value may hold at most 64 MB, a sixteenth of --query-memory)' '$T/err'"
check "... at once" [ $MS -lt 2000 ]
g --db "$RDB" --offline -q --query-memory 256 --format csv --suql "SELECT length(lpad('x', 10000000, 'ab'))"
check "lpad() within the limit (a sixteenth of --query-memory 256)" sh -c "[ \"\$(cat '$T/rc')\" = 0 ] && tail -n1 '$T/out' | tr -d '\\r' | grep -qx '10000000'"
python3 -c "print('SELECT count(*) FROM restaurants WHERE name IN (' + ','.join(\"'n%d'\" % i for i in range(80000)) + ')')" >"$T/in.sql"
g --db "$RDB" --offline -q --query-timeout 2 --format csv --suql - <"$T/in.sql"
check "an IN list of 80,000 strings compiles and runs within --query-timeout 2" sh -c "[ \"\$(cat '$T/rc')\" = 0 ] && tail -n1 '$T/out' | tr -d '\\r' | grep -qx '0'"
g --db "$RDB" --offline -q --query-memory 16 --suql - <"$T/in.sql"
check "a query past --query-memory stops with an error naming the limit" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q 'needed more than its memory limit of 16 MB (--query-memory)' '$T/err'"
# From an outside campaign: answer() over a cross join queued a text for
# every row (2.5 KB each, gigabytes in seconds) and read its rows without
# a time check; one call walking a huge value could not be interrupted.
# (AddressSanitizer reserves terabytes of address space: there its own
# RSS cap stands in for ulimit -v.)
if [ -n "${ASAN_OPTIONS:-}" ]; then
    g_limited() { ( export ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=4000"; g "$@" ); }
else
    g_limited() { ( ulimit -v 4000000; g "$@" ); }
fi
timed g_limited --db "$RDB" --offline -q --query-timeout 3 --format csv --suql \
  "SELECT answer(a.reviews, 'what is the best dish?') FROM restaurants a, restaurants b"
check "answer() over a cross join stays within memory (under 4 GB)" sh -c "[ \"\$(cat '$T/rc')\" -le 1 ]"
check "... and time" [ $MS -lt 15000 ]
timed g --db "$RDB" --offline -q --query-timeout 0.5 --budget 10 --format csv --suql \
  "SELECT answer(a.reviews, 'what is the best dish?') FROM restaurants a, restaurants b LIMIT 100000"
check "a per-row answer() list stops near --query-timeout 0.5 (the budget's evaluations are not counted)" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q 'time limit of 0.5 s' '$T/err'"
check "... within 3 s" [ $MS -lt 3000 ]
timed g --db "$RDB" --offline -q --query-timeout 0.5 --suql "SELECT length(translate(repeat('abcd', 60000000), 'abcd', 'bcda'))"
check "a 240 MB value for translate() is refused at once (a sixteenth of --query-memory)" sh -c \
  "[ \"\$(cat '$T/rc')\" = 1 ] && grep -q 'requested length too large' '$T/err'"
check "... within 2 s" [ $MS -lt 2000 ]
# The heap overflow in the ranking of candidates: everyday filters with an
# everyday question, offline with the index.
for f in "price = 'cheap'" "'bars' = ANY (cuisines)" "rating >= 4"; do
    g --db "$RDB" --offline -q --suql "SELECT name FROM restaurants WHERE $f AND answer(reviews, 'is it romantic?') = 'Yes' LIMIT 4"
    check "ranked candidates: $f and a free-text question run" sh -c "[ \"\$(cat '$T/rc')\" = 0 ]"
done
g --db "$RDB" --offline -q --format csv --suql "SELECT a.name FROM restaurants a, restaurants b"
check "a result past 100,000 rows is cut, with a note" sh -c \
  "[ \"\$(cat '$T/rc')\" = 0 ] && [ \$(wc -l <'$T/out') = 100001 ] && grep -q 'cut at 100000 rows' '$T/err'"

# An enum value written in another case is the vocabulary's value, offline
# too ('spring 2027' is Spring 2027), not a value that matches nothing.
g --offline --db "$CDB" --format csv --suql "SELECT count(*) FROM offerings WHERE quarter = 'spring 2027'"
lower=$(tail -n1 "$T/out" | tr -d '\r')
g --offline --db "$CDB" --format csv --suql "SELECT count(*) FROM offerings WHERE quarter = 'Spring 2027'"
check "an enum value in another case matches the vocabulary's" sh -c "[ '$lower' = \"\$(tail -n1 '$T/out' | tr -d '\\r')\" ] && [ '$lower' -gt 0 ]"
# PostgreSQL's meaning: a one-digit hour is a time, CURRENT_DATE is --today,
# a date plus days is a date, a double's text is PostgreSQL's.
g --offline --db "$CDB" --today 2026-11-26 --format csv --suql \
  "SELECT CURRENT_DATE + 7 AS d, DATE '2026-12-25' - CURRENT_DATE AS n, (SELECT count(*) FROM offerings WHERE start_time < '9:30') > 0 AS t, 4.0::float8::text AS f"
check "SUQL dates, times and number text as PostgreSQL's" sh -c "tail -n1 '$T/out' | tr -d '\\r' | grep -qx '2026-12-03,29,true,4'"
g --offline --db "$CDB" --suql "SELECT title FROM courses WHERE title = 5"
check "text compared with a number is PostgreSQL's error, with its position" sh -c \
  "[ \"\$(cat '$T/rc')\" != 0 ] && grep -q '1:39: operator does not exist: text = integer' '$T/err'"

# --explain calls nothing: no offline warning; a query without free text
# has no budget line.
g --db "$RDB" --explain "SELECT name FROM restaurants WHERE rating > 4 LIMIT 2"
check "--explain of a structured query: no budget, no offline warning" sh -c \
  "[ \"\$(cat '$T/rc')\" = 0 ] && ! grep -q budget '$T/out' && ! grep -q offline '$T/err' && grep -qE '^(├─|\\|-) mode:   plain' '$T/out'"
g --db "$RDB" --explain "SELECT name FROM restaurants WHERE answer(reviews, 'is it quiet?') = 'Yes' LIMIT 2"
check "--explain of a free-text query shows its budget" has "budget: 40 free-text evaluations"
check "--explain offline says it makes no LLM call (not 'at most 40')" \
    has "LLM calls: none (offline: 40 free-text evaluations of"
# A name looked up by a pattern finds the name itself first ("Dusty Lantern
# Bar & Grill" came first for '%lantern bar%').
g --db "$RDB" --offline -q --format csv --suql "SELECT name FROM restaurants WHERE name ILIKE '%lantern bar%' LIMIT 1"
check "a name looked up by ILIKE '%...%' LIMIT 1: the exact name wins" sh -c "tail -n 1 '$T/out' | tr -d '\\r' | grep -qx 'Lantern Bar'"
g --db "$RDB" --explain "SELECT name FROM restaurants WHERE name ILIKE '%lantern bar%' LIMIT 1"
check "... and --explain shows the order it gets" has "ORDER BY (suql_lower(\"restaurants\".\"name\") LIKE 'lantern bar') DESC"
# A value that stands for none of its column's values: said, with the values.
g --db "$RDB" --offline -q --suql "SELECT name FROM restaurants WHERE price = 'inexpensive' LIMIT 3"
check "a value that matches nothing is named, with the column's values" has "note: 'inexpensive' is none of the values of restaurants.price, so it matched nothing (its values: 'cheap', 'moderate', 'expensive', 'luxury')"
g --db "$RDB" --offline -q --suql "SELECT count(*) FROM restaurant_hours WHERE day = 'Monday'"
check "... 'Monday' for Mon too" has "'Monday' is none of the values of restaurant_hours.day"
# A model's LIMIT 100000 buys no more than no LIMIT (it bought 100,000).
g --db "$RDB" --explain "SELECT name FROM restaurants WHERE answer(reviews, 'is it quiet?') = 'Yes' LIMIT 100000"
check "--explain: a huge LIMIT's budget is the no-LIMIT one" has "budget: 200 free-text evaluations"

# --explain says which enum literals the run maps, and to what, calling
# nothing: the vocabulary's spelling, the offline similarity, or that the
# run would ask the LLM.
Q="SELECT name FROM restaurants WHERE 'coffee' = ANY (cuisines) AND price = 'Cheap' LIMIT 3"
g --offline --db "$RDB" --explain "$Q"
check "--explain shows an enum literal in another case mapped to the vocabulary's spelling" \
  has "restaurants.price: 'Cheap' -> 'cheap' (the vocabulary's spelling)"
check "--explain offline shows the similarity mapping the run applies" \
  has "restaurants.cuisines: 'coffee' -> 'coffee & tea' (by similarity, offline)"
g --db "$RDB" --llm-url http://127.0.0.1:9/v1 --explain "$Q"
check "--explain with an LLM says the run would ask it, and asks nothing" sh -c \
  "grep -q \"restaurants.cuisines: 'coffee' is not one of its values: the run asks the LLM\" '$T/out' && [ \"\$(cat '$T/rc')\" = 0 ]"

# A result is cut at 100,000 rows, with a note that says so.
g --offline --db "$RDB" --format csv --suql "SELECT a._id FROM restaurants a, restaurants b LIMIT 150000"
check "a result is cut at 100,000 rows, and says so" sh -c \
  "[ \"\$(wc -l <'$T/out')\" = 100001 ] && grep -q 'the result was cut at 100000 rows' '$T/err'"
# ... with its size counted (numbers too: 100,000 ids are not "0 MB").
check "... and the note gives the size of what it holds" grep -q 'cut at 100000 rows (782 KB)' "$T/err"

# A NUL byte in a query on standard input would end the text unseen.
printf 'SELECT 1,\n  2\0 FROM x' | "$BIN" --offline --db "$RDB" --suql - >"$T/out" 2>"$T/err"; echo $? >"$T/rc"
check "a NUL byte in a query on standard input is refused, with where it is" sh -c \
  "[ \"\$(cat '$T/rc')\" = 2 ] && grep -q 'NUL byte at line 2, column 4' '$T/err' && [ ! -s '$T/out' ]"

# A conversation over another agent's database without --agent is a usage
# error that names the agent to use, not the default agent's worksheet.
printf 'hi\n' | "$BIN" -q --offline --db "$TOP/sample_db/courses.db" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"
check "--db of the courses agent without --agent: exit 2, says --agent courses" sh -c \
  "[ \"\$(cat '$T/rc')\" = 2 ] && grep -q 'is the database of the agent courses, not of the default agent restaurants: add --agent courses' '$T/err' && ! grep -q worksheet.csv '$T/err'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
