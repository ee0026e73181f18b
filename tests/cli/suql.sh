#!/usr/bin/env bash
# suql.sh — the SUQL commands of genie on the sample databases: --schema
# (the schema as the parser's prompt shows it).
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
