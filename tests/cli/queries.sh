#!/usr/bin/env bash
# queries.sh — the benchmark query sets, whole, through the binary: the SUQL
# paper's 100 restaurant queries, the campaign's and the courses', offline
# (the extractive evaluator answers), at scale 1 with the default budget and
# with a budget far below the candidates, and a sample of them on a scale-10
# database (18,000 restaurants, a Flat index built here).  Under `make asan`
# the same runs are the sanitizers' test of the whole optimizer on the
# queries people ask: the ranking overflow showed on such queries first.
#
# Each set runs as one line-mode conversation (--format json), a query a
# turn.  Checked: the process exits 0, every query ends its turn, each gives
# a result (or, for a query the analyzer refuses, an error with its
# position), no "(a bug)", no sanitizer report, and no result has more rows
# than its LIMIT.  Environment: GENIE_TOP, GENIE_BIN, B.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init queries
BIN=${GENIE_BIN:-$TOP/build/genie}
GEN=$TOP/${B:-build}/genie-gen
[ -x "$GEN" ] || GEN=$TOP/build/genie-gen

# sets FILTER: the three query files, FILTER picking rows by index (Python).
"$PY" - "$TOP" "$T" <<'PY'
import csv, sys
top, t = sys.argv[1], sys.argv[2]
sets = {"paper": top + "/tests/data/suql-restaurant-queries/restaurants_single_turn_SUQL.csv",
        "campaign": top + "/bench/data/campaign_queries.csv",
        "course": top + "/bench/data/course_queries.csv"}
for name, path in sets.items():
    rows = [" ".join(r["Predicted SUQL"].split()) for r in csv.DictReader(open(path, encoding="utf-8"))]
    open("%s/%s.txt" % (t, name), "w").write("\n".join(rows) + "\n")
    # the scale-10 sample: every fifth query
    open("%s/%s-s10.txt" % (t, name), "w").write("\n".join(rows[::5]) + "\n")
PY

# over_limit OUT [BUDGET]: results with more rows than their query's
# LIMIT, or (with BUDGET) more free-text evaluations than it.
over_limit() {
    "$PY" - "$@" <<'PY'
import json, re, sys
bad = 0
budget = int(sys.argv[2]) if len(sys.argv) > 2 else None
for line in open(sys.argv[1], encoding="utf-8"):
    ev = json.loads(line)
    if ev.get("event") != "result": continue
    d = ev.get("data") or {}
    q = d.get("question") or ""
    m = re.search(r"\bLIMIT\s+(\d+)\s*;?\s*$", q, re.I)
    rows = d.get("rows")
    if m and isinstance(rows, list) and len(rows) > int(m.group(1)):
        print("%d rows for LIMIT %s: %s" % (len(rows), m.group(1), q[:120])); bad += 1
    evals = sum(st.get("evaluations", 0) for st in (d.get("plan") or {}).get("steps", []))
    if budget is not None and evals > budget:
        print("%d evaluations for a budget of %d: %s" % (evals, budget, q[:120])); bad += 1
sys.exit(1 if bad else 0)
PY
}

# run_set NAME FILE [--budget N] ARGS...: one conversation of FILE's
# queries.
run_set() {
    local name=$1 file=$2 budget=; shift 2
    [ "${1:-}" = --budget ] && budget=$2
    local n; n=$(grep -c . "$file")
    timeout 900 "$BIN" --offline --plain --format json -q --sessions "$T/s.db" --today 2026-03-13 \
        "$@" <"$file" >"$T/out" 2>"$T/err"
    local rc=$?
    check "$name: exits 0 ($n queries)" [ "$rc" = 0 ]
    check "$name: every query ends its turn" eq "$(grep -c '"event":"timings"' "$T/out")" "$n"
    local answered; answered=$(grep -c '"event":"\(result\|error\)","stage":"suql"' "$T/out")
    check "$name: every query gives rows or an error" [ "$answered" -ge "$n" ]
    check "$name: an error names its position" sh -c "! grep '\"event\":\"error\",\"stage\":\"suql\"' '$T/out' | grep -vq '\"error\":\"[0-9]*:[0-9]*: '"
    check "$name: no bug, no sanitizer report" sh -c "! grep -q '(a bug)\|AddressSanitizer\|LeakSanitizer\|runtime error:' '$T/err' '$T/out'"
    check "$name: no result past its LIMIT${budget:+ or budget}" over_limit "$T/out" $budget
}

# ---- scale 1 ---------------------------------------------------------------------
run_set "paper, scale 1" "$T/paper.txt"
run_set "campaign, scale 1" "$T/campaign.txt"
run_set "courses, scale 1" "$T/course.txt" --agent courses
# A budget far below the candidates: what scale 10 does to the default one.
run_set "paper, scale 1, budget 6" "$T/paper.txt" --budget 6
run_set "campaign, scale 1, budget 6" "$T/campaign.txt" --budget 6
run_set "courses, scale 1, budget 6" "$T/course.txt" --budget 6 --agent courses

# ---- a scale-10 sample -------------------------------------------------------------
"$GEN" restaurants --scale 10 --seed 1 -o "$T/r10.db" >"$T/out" 2>"$T/err"
check "scale 10: generated" [ -s "$T/r10.db" ]
"$BIN" --db "$T/r10.db" --reindex -q --hnsw-threshold 1000000000 >"$T/out" 2>"$T/err"
check "scale 10: indexed (Flat)" [ -s "$T/r10.db.faiss" ]
run_set "paper sample, scale 10" "$T/paper-s10.txt" --db "$T/r10.db"
run_set "campaign sample, scale 10" "$T/campaign-s10.txt" --db "$T/r10.db"
run_set "paper sample, scale 10, budget 20" "$T/paper-s10.txt" --budget 20 --db "$T/r10.db"

finish
