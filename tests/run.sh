#!/usr/bin/env bash
# run.sh — every test suite, one closing line.
#
# Runs the unit binary and the script suites under tests/ (each prints its own
# "N passed, N failed" last), then prints the sum as the final closing line
# that CI reads.  Exit status 1 when anything failed.
set -u
B=${B:-build}
export GENIE_TOP=${GENIE_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
export GENIE_BIN=${GENIE_BIN:-$GENIE_TOP/$B/genie}
total_p=0 total_f=0
run_suite() {
    local name=$1; shift
    echo "== $name"
    local out rc
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    local last p f
    last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n1)
    if [ -z "$last" ]; then
        echo "$name: no closing line (exit $rc)"; total_f=$((total_f + 1)); return
    fi
    p=${last%% passed*}; f=${last#*passed, }; f=${f%% failed*}
    total_p=$((total_p + p)); total_f=$((total_f + f))
    [ "$rc" -eq 0 ] || [ "$f" -ne 0 ] || { echo "$name: exit $rc"; total_f=$((total_f + 1)); }
}
run_suite unit "$GENIE_TOP/$B/test-unit"
for s in "$GENIE_TOP"/tests/cli/*.sh; do
    [ -f "$s" ] && run_suite "cli/$(basename "$s" .sh)" bash "$s"
done
echo
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
