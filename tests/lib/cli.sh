# cli.sh — shared prelude of the tests/cli/*.sh scripts (sourced, not run).
#
# cli_init NAME sets TOP (the repository), PY, MOCK (the mock LLM server)
# and T (a fresh temporary directory, removed on exit together with a mock
# server whose pid the script keeps in MOCK_PID; stop_mock stops it early).
cli_init() {
    HERE=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
    TOP=${GENIE_TOP:-$(cd "$HERE/../.." && pwd)}
    PY=${PYTHON:-python3}
    MOCK=$TOP/tests/mock/llm_server.py
    T=$(mktemp -d "${TMPDIR:-/tmp}/genie-$1.XXXXXX") || exit 1
    MOCK_PID=
    trap cleanup EXIT
    trap 'exit 130' INT TERM
}

stop_mock() {
    if [ -n "$MOCK_PID" ]; then
        kill -TERM "$MOCK_PID" 2>/dev/null
        wait "$MOCK_PID" 2>/dev/null
        MOCK_PID=
    fi
}

cleanup() { stop_mock; rm -rf "$T"; }
