#!/usr/bin/env bash
# load.sh — one session of 1,000 scripted turns through the mock server
# (tests/lib/load.py): every turn answered, every booking made, memory
# flat, and the state and the sessions file bounded.  Memory and sizes are
# checked; time per turn is reported (make bench) but never checked here.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN, GENIE_LOAD_TURNS (default 1000).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init load
BIN=${GENIE_BIN:-$TOP/build/genie}
N=${GENIE_LOAD_TURNS:-1000}
# Under AddressSanitizer freed memory waits in a quarantine (256 MB by
# default) before reuse, which would read as growth: keep it small.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=1"
export LC_ALL=C HOME=$T XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache

start_mock || { notok "mock server starts"; finish; }
cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done
"$PY" "$TOP/tests/lib/load.py" "$BIN" --url "$URL" --db "$T/r.db" --sessions "$T/s.db" \
    --turns "$N" --report "10,$(( N < 100 ? N : 100 )),$N" --json "$T/load.json" >"$T/out" 2>"$T/err"
rc=$?
sed 's/^/# /' "$T/out"
if [ $rc -ne 0 ] || [ ! -s "$T/load.json" ]; then
    notok "$N turns run" "$(tail -c 1500 "$T/err")"
    finish
fi
ok "$N turns run in one session"

# field NAME: one figure of load.json.
field() { "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, d))' "$T/load.json" "$1"; }
cycles=$(( (N + 12) / 13 ))
[ "$(field replies)" = "$N" ] && ok "every turn has a reply" || notok "every turn has a reply" "replies: $(field replies)"
[ "$(field errors)" = 0 ] && ok "no turn reports an error" || notok "no turn reports an error" "errors: $(field errors)"
[ "$(field bookings)" = "$cycles" ] && ok "each cycle's booking is made ($cycles)" ||
    notok "each cycle's booking is made ($cycles)" "bookings: $(field bookings)"
# Memory: what turn 100 to turn N adds stays under 4 MB (before old answers
# were forgotten it grew by about 14 KB a turn).
M=$(( N < 100 ? N : 100 ))
grow=$(field "rss_kb['$N'] - rss_kb['$M']")
[ "$grow" -lt 4096 ] && ok "RSS flat from turn $M to $N (+$grow KB)" ||
    notok "RSS flat from turn $M to $N" "grew by $grow KB"
# The state saved with each turn stays small, so the file grows linearly.
sb=$(field state_bytes)
[ "$sb" -lt 16384 ] && ok "the state after $N turns is small ($sb bytes)" ||
    notok "the state after $N turns is small" "$sb bytes"
fb=$(field sessions_bytes)
[ "$fb" -lt $((N * 16384)) ] && ok "the sessions file grows linearly ($fb bytes)" ||
    notok "the sessions file grows linearly" "$fb bytes for $N turns"
finish
