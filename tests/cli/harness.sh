#!/usr/bin/env bash
# harness.sh — the unit runner (tests/unit/main.c) keeps its promises: a
# test that crashes is reported with its signal and the rest of its file
# still runs, the mock server it started is stopped, its scratch directory
# is removed, and a file name picks that file's tests.
set -u
B=${B:-build}
TOP=${GENIE_TOP:?}
UNIT="$TOP/$B/test-unit"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; sed 's/^/#   /' "$T/out" | head -20; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }

mkdir "$T/tmp"
GENIE_TEST_CRASH=1 TMPDIR="$T/tmp" "$UNIT" harness_ >"$T/out" 2>&1; echo $? >"$T/rc"
check "a crashing test is reported with its signal" \
  grep -q 'FAIL harness_crash_is_reported (tests/unit/test_harness.c): crashed with signal 6' "$T/out"
check "... the next test of its file still runs, and the closing line counts both" \
  sh -c "tail -n 1 '$T/out' | grep -qx '1 passed, 1 failed' && [ \"\$(cat '$T/rc')\" = 1 ]"
check "... the mock server it started is stopped" \
  sh -c "! pgrep -f '[l]lm_server.py --port-file $T/tmp/' >/dev/null"
check "... and no scratch directory is left" sh -c "[ -z \"\$(ls -A '$T/tmp')\" ]"

"$UNIT" test_harness.c >"$T/out" 2>&1
check "a file name picks that file's tests" sh -c "tail -n 1 '$T/out' | grep -qx '2 passed, 0 failed'"
"$UNIT" test_retrieval >"$T/out" 2>&1
check "... test_retrieval runs the retrieval tests" sh -c "tail -n 1 '$T/out' | grep -Eq '^([1-9][0-9]*) passed, 0 failed$'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
