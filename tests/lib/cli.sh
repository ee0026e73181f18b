# cli.sh — shared prelude of the tests/cli/*.sh scripts (sourced, not run).
#
# cli_init NAME sets TOP (the repository), PY, MOCK (the mock LLM server)
# and T (a fresh temporary directory, removed on exit together with a mock
# server started by start_mock; stop_mock stops it early).  It unsets the
# caller's GENIE_* and OPENAI_* settings (but GENIE_TOP and GENIE_BIN).
# KEEP_T=1 keeps T after the run, to look at what a failing test left.
cli_init() {
    HERE=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
    TOP=${GENIE_TOP:-$(cd "$HERE/../.." && pwd)}
    PY=${PYTHON:-python3}
    MOCK=$TOP/tests/mock/llm_server.py
    T=$(mktemp -d "${TMPDIR:-/tmp}/genie-$1.XXXXXX") || exit 1
    MOCK_PID=
    # The settings of whoever runs the tests must not leak into them.
    unset $(env | sed -n 's/^\(GENIE_[A-Z0-9_]*\|OPENAI_[A-Z0-9_]*\)=.*/\1/p' |
            grep -vx 'GENIE_TOP\|GENIE_BIN\|GENIE_UPDATE_GOLDEN')
    trap cleanup EXIT
    trap 'exit 130' INT TERM
}

# start_mock ARGS...: start the mock server (log in $T/mock.log) and wait
# for its port; sets PORT and URL (its /v1 base).  False if it did not start.
start_mock() {
    rm -f "$T/mock.port"
    "$PY" "$MOCK" --port-file "$T/mock.port" --log "$T/mock.log" "$@" \
        >"$T/mock.out" 2>"$T/mock.err" &
    MOCK_PID=$!
    local i
    for i in $(seq 200); do
        [ -s "$T/mock.port" ] && break
        kill -0 "$MOCK_PID" 2>/dev/null || break
        sleep 0.05
    done
    PORT=$(cat "$T/mock.port" 2>/dev/null)
    URL=http://127.0.0.1:$PORT/v1
    [ -n "$PORT" ]
}

# script JSON: replace the mock server's whole script (POST /_mock/script).
script() { curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/../_mock/script" -d "$1"; }

# sqlq DB SQL: the rows of SQL in DB, one a line, columns joined by '|'.
sqlq() { "$PY" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(str(v) for v in r))' "$@"; }

stop_mock() {
    if [ -n "$MOCK_PID" ]; then
        kill -TERM "$MOCK_PID" 2>/dev/null
        wait "$MOCK_PID" 2>/dev/null
        MOCK_PID=
    fi
}

# The checks' bookkeeping, for scripts that take it (older ones define
# their own): pass/fail counts, one "ok - NAME" / "not ok - NAME" line per
# check (notok's further arguments are printed as "#   " lines), and
# finish, which prints "N passed, N failed" and exits 1 on a failure.
# check NAME CMD... runs CMD and shows $T/out and $T/err when it fails.
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; shift; for l in "$@"; do printf '#   %s\n' "$l"; done; fail=$((fail + 1)); }
skip() { echo "ok - $1 # SKIP $2"; }
check() {
    local name=$1; shift
    if "$@"; then ok "$name"
    else notok "$name" "out: $(tail -c 800 "$T/out" 2>/dev/null)" "err: $(tail -c 800 "$T/err" 2>/dev/null)"; fi
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
eq() { [ "$1" = "$2" ]; }
lt() { [ "$1" -lt "$2" ]; }

# hold_lock DB FLAG: in the background, another process takes DB's write
# lock and holds it while the file FLAG exists (at most 60 s); returns once
# the lock is taken, with its pid in LOCK_PID.  `rm FLAG; wait $LOCK_PID`
# lets go.
hold_lock() {
    "$PY" -c 'import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
for _ in range(1200):
    if not os.path.exists(sys.argv[2]):
        break
    time.sleep(0.05)' "$1" "$2" &
    LOCK_PID=$!
    local i
    for i in $(seq 100); do [ -f "$2" ] && break; sleep 0.05; done
}

cleanup() { stop_mock; [ -n "${KEEP_T:-}" ] || rm -rf "$T"; }
