#!/usr/bin/env bash
# run.sh — `make bench`: the LLM client benchmark, the SUQL optimizer
# benchmark and the agent benchmark (against the mock server on
# 127.0.0.1), the import benchmark (genie --init's two passes over a
# generated 1,000,000-row CSV against the sqlite3 shell's .import), then
# the retrieval benchmark at scale 1, 10 and 100.
# Databases for scale 10 and 100 are generated into build/bench/ on first
# use (scale 100 takes minutes to generate and index).  The load suite
# runs 1,000 scripted turns through the real binary in one session
# (tests/lib/load.py: RSS at turns 10, 100 and 1,000, time per turn).
# BENCH picks the suites (default "llm suql agent tui load init retrieval"); SCALES overrides the list of
# scales, e.g. BENCH=retrieval SCALES="1 10" make bench; INIT_ROWS the
# import benchmark's rows, e.g. BENCH=init INIT_ROWS=100000 make bench.
set -eu
B=${B:-build}
top=${GENIE_TOP:-$(pwd)}
cd "$top"
mkdir -p "$B/bench"
BENCH=${BENCH:-llm suql agent tui load init retrieval}

# One scratch directory for the whole run, removed at exit whatever the
# outcome; a suite's mock is stopped by stop_mock, or at exit.  (The exit
# status is the suites': cleaning up never changes it.)
d=$(mktemp -d "${TMPDIR:-/tmp}/genie-bench.XXXXXX")
mock=
cleanup() {
    local rc=$?
    [ -n "$mock" ] && kill "$mock" 2>/dev/null
    rm -rf "$d"
    exit $rc
}
trap cleanup EXIT

# start_mock: the mock LLM server on a free port; sets MOCK_URL.
start_mock() {
    rm -f "$d/port"
    python3 tests/mock/llm_server.py --port-file "$d/port" >/dev/null 2>"$d/err" &
    mock=$!
    for _ in $(seq 100); do [ -s "$d/port" ] && break; sleep 0.05; done
    MOCK_URL="http://127.0.0.1:$(cat "$d/port")/v1"
}
stop_mock() {
    kill "$mock" 2>/dev/null || true
    wait "$mock" 2>/dev/null || true
    mock=
}

# copy_db NAME: a copy of sample_db/NAME.db and its indexes in the scratch
# directory (a suite that opens a database may add its structured indexes,
# which would make the next run re-index the sample); prints its path.
copy_db() {
    cp "sample_db/$1.db" "$d/$1.db"
    for x in faiss vec lex; do
        if [ -f "sample_db/$1.db.$x" ]; then cp "sample_db/$1.db.$x" "$d/$1.db.$x"; fi
    done
    echo "$d/$1.db"
}

if [[ " $BENCH " == *" llm "* ]]; then
    echo "=== LLM client"
    start_mock
    "$B/bench-llm" --recordings tests/data/sse-recordings --url "$MOCK_URL"
    stop_mock
fi

if [[ " $BENCH " == *" suql "* ]]; then
    echo "=== SUQL optimizer vs naive per-row evaluation"
    start_mock
    big=()
    [ -f "$B/bench/restaurants-s100.db.faiss" ] && big=(--db100 "$B/bench/restaurants-s100.db")
    rdb=$(copy_db restaurants)
    cdb=$(copy_db courses)
    "$B/bench-suql" --db "$rdb" --vectors "$B/share/genie/wordvec.bin" \
        --corpus tests/data/suql-restaurant-queries/restaurants_single_turn_SUQL.csv \
        --url "$MOCK_URL" "${big[@]}"
    echo "=== the same for the searches of the conversation campaigns (bench/data/campaign_queries.csv:"
    echo "    ORDER BY over many candidates, two filters ANDed)"
    "$B/bench-suql" --db "$rdb" --vectors "$B/share/genie/wordvec.bin" \
        --corpus bench/data/campaign_queries.csv --url "$MOCK_URL"
    echo "=== the same for course questions (bench/data/course_queries.csv: free-text filters on"
    echo "    the ratings' reviews, in joins with courses as the courses agent's examples write them)"
    "$B/bench-suql" --db "$cdb" --vectors "$B/share/genie/wordvec.bin" \
        --corpus bench/data/course_queries.csv --url "$MOCK_URL"
    stop_mock
fi
if [[ " $BENCH " == *" agent "* ]]; then
    echo "=== agent: a long scripted conversation"
    start_mock
    "$B/bench-agent" --agent sample_db/restaurants --db sample_db/restaurants.db \
        --vectors "$B/share/genie/wordvec.bin" --url "$MOCK_URL"
    stop_mock
fi
if [[ " $BENCH " == *" tui "* ]]; then
    echo "=== the full-screen interface"
    big=()
    [ -f "$B/bench/restaurants-s100.db.faiss" ] && big=(--db100 "$B/bench/restaurants-s100.db")
    "$B/bench-tui" --genie "$B/genie" --agent sample_db/restaurants --db "$(copy_db restaurants)" "${big[@]}"
fi
if [[ " $BENCH " == *" load "* ]]; then
    echo "=== load: 1,000 turns in one session (the real binary, line mode)"
    start_mock
    python3 tests/lib/load.py "$B/genie" --url "$MOCK_URL" --db "$(copy_db restaurants)" --sessions "$d/s.db" \
        --turns 1000 --report 10,100,1000
    stop_mock
fi
if [[ " $BENCH " == *" init "* ]]; then
    echo "=== import: genie --init's two passes against sqlite3 .import"
    "$B/bench-init" --rows "${INIT_ROWS:-1000000}" --dir "$B/bench"
fi
[[ " $BENCH " == *" retrieval "* ]] || exit 0

for s in ${SCALES:-1 10 100}; do
    db=$B/bench/restaurants-s$s.db
    if [ ! -f "$db" ] || [ "$db" -ot "$B/genie-gen" ]; then
        rm -f "$db" "$db.vec" "$db.faiss"
        echo "generating scale $s..."
        "$B/genie-gen" restaurants --scale "$s" --seed 1 -o "$db"
    fi
    echo "=== retrieval, scale $s ($(du -h "$db" | cut -f1))"
    if [ "$s" = 1 ]; then
        "$B/bench-retrieval" --db "$db" --vectors "$B/share/genie/wordvec.bin"
    else
        "$B/bench-retrieval" --db "$db" --vectors "$B/share/genie/wordvec.bin" --speed
    fi
done
