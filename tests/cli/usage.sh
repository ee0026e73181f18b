#!/usr/bin/env bash
# usage.sh — one definition of an LLM call, a cache hit and a memo hit
# (engine/llm/account.h), checked against what the mock server was really
# sent, wherever genie counts them: --analyze, the timings event, --verbose,
# the sessions file and --export-session; and cost with --prices.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN, PYTHON.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init usage
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache XDG_DATA_HOME=$T/data
mkdir -p "$HOME"
g() { "$BIN" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
sent() { wc -l <"$T/mock.log" 2>/dev/null | tr -d ' '; }
has() { grep -qF -- "$2" "$T/$1"; }
# timing KEY: the KEY of the last timings event in $T/out.
timing() { grep '"event":"timings"' "$T/out" | tail -n1 | "$PY" -c 'import json, sys
d = json.loads(sys.stdin.read())["data"]; print(d.get(sys.argv[1], "none"))' "$1"; }

cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done
start_mock || { notok "mock server starts"; finish; }
script '{"chat": [{"stage": "answer", "reply": "Yes, it is quiet."}]}'

# ---- a query: the same question twice a row is asked once ------------------
Q="SELECT name, answer(reviews, 'is it quiet?') AS a, answer(reviews, 'is it quiet?') AS b
   FROM restaurants WHERE location = 'Palo Alto' ORDER BY name LIMIT 3"
n0=$(sent)
g --db "$T/r.db" --llm-url "$URL" -m mock --suql "$Q" --analyze
check "--analyze counts each request sent, and the twins as memo hits" \
    has err "6 evaluations of 40 allowed (3 LLM calls, 0 from the cache, 3 memo hits"
check "... and the server got exactly 3 requests" eq "$(( $(sent) - n0 ))" 3
n0=$(sent)
g --db "$T/r.db" --llm-url "$URL" -m mock --suql "$Q" --analyze
check "again: no LLM call, 3 from the cache" has err "(0 LLM calls, 3 from the cache, 3 memo hits"
check "... and the server got nothing" eq "$(( $(sent) - n0 ))" 0
g --db "$T/r.db" --llm-url "$URL" -m mock --suql "$Q" --analyze --no-cache
check "--no-cache: 3 LLM calls again, none from the cache" has err "(3 LLM calls, 0 from the cache, 3 memo hits"

# ---- a turn: the timings event, --verbose, the sessions file ----------------
script '{"chat": [{"stage": "parse", "reply": "answer(\"quiet places in Palo Alto\")",
   "usage": {"prompt_tokens": 1000, "completion_tokens": 10}},
  {"stage": "kb_parse", "reply": "SELECT name, answer(reviews, '\''is it quiet?'\'') AS q FROM restaurants WHERE location = '\''Palo Alto'\'' ORDER BY name LIMIT 2;",
   "usage": {"prompt_tokens": 800, "completion_tokens": 20}},
  {"stage": "answer", "reply": "Yes, it is quiet.", "usage": {"prompt_tokens": 100, "completion_tokens": 5}},
  {"stage": "respond", "reply": "Two quiet places.", "usage": {"prompt_tokens": 500, "completion_tokens": 100}}]}'
turn() { printf 'quiet places in Palo Alto?\n' | "$BIN" --plain --agent restaurants --db "$T/r.db" \
    --today 2026-03-13 --llm-url "$URL" -m mock --prices "mock=2/10" --sessions "$T/s.db" "$@" \
    >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rm -rf "$XDG_CACHE_HOME"
n0=$(sent)
turn --format json
calls=$(timing llm_calls)
check "the turn's LLM calls are the requests the server got" eq "$calls" "$(( $(sent) - n0 ))"
check "... parse, kb_parse, respond and two answers" eq "$calls" 5
check "... none from the cache" eq "$(timing cache_hits)" 0
# 1000*2+10*10 + 800*2+20*10 + 2*(100*2+5*10) + 500*2+100*10 = 6400 micro-dollars
check "the turn's cost, from the tokens and --prices" eq "$(timing cost)" 0.0064
# The turn's timeline: its four phases in order, each timed, the phases
# adding up to about the whole turn.
check "the timings event has each phase's milliseconds, in order" sh -c "grep '\"event\":\"timings\"' '$T/out' | tail -n1 | '$PY' -c '
import json, sys
d = json.loads(sys.stdin.read())[\"data\"]; p = d[\"ms_by_stage\"]
assert list(p) == [\"parse\", \"knowledge\", \"policy\", \"respond\"], p
assert all(v >= 0 for v in p.values()), p
assert abs(sum(p.values()) - d[\"ms_total\"]) <= 0.05 * d[\"ms_total\"] + 5, (p, d[\"ms_total\"])'"
check "... and no tokens_estimated when the server reported usage" eq "$(timing tokens_estimated)" none
n0=$(sent)
turn --format json
check "the same turn again: its LLM calls are the requests the server got" \
    eq "$(timing llm_calls)" "$(( $(sent) - n0 ))"
check "... and the rest came from the cache" eq "$(( $(timing llm_calls) + $(timing cache_hits) ))" 5
turn --verbose --no-cache
check "--verbose prints the turn's usage" grep -q "^genie: usage: [0-9]* LLM calls*.*tokens in.*\\\$0\\.00" "$T/err"
check "the sessions file keeps calls and cost" \
    eq "$(sqlq "$T/s.db" "SELECT llm_calls, round(cost, 4) FROM turns ORDER BY session LIMIT 1")" "5|0.0064"
g --export-session 1 --sessions "$T/s.db"
check "--export-session shows each turn's usage" has out "Usage: 5 LLM calls, 2500 tokens in, 140 out, \$0.0064."
check "... and the session's" has out "Started "
check "... the session's total in its first lines" sh -c "head -n 4 '$T/out' | grep -q '1 turn; 5 LLM calls, 2500 tokens in, 140 out, \\\$0.0064'"

# ---- a reply the parsers refused is not kept in the cache --------------------
# The parse and its repair answer with a field that does not exist; saying the
# same again must ask again, not replay the refused reply from the cache.
script '{"chat": [{"stage": "parse", "times": 2, "reply": "Book_Restaurant(colour=\"red\")"},
  {"stage": "parse", "reply": "answer(\"quiet places in Palo Alto\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELEC name FROM restaurants"},
  {"stage": "repair", "times": 1, "reply": "SELECT nam FROM restaurants WHERE location = '\''Palo Alto'\'' LIMIT 2;"},
  {"stage": "kb_parse", "reply": "SELECT name FROM restaurants WHERE location = '\''Palo Alto'\'' LIMIT 2;"},
  {"stage": "repair", "reply": "SELECT name FROM restaurants WHERE location = '\''Palo Alto'\'' LIMIT 2;"},
  {"stage": "respond", "reply": "Two places."}]}'
rm -rf "$XDG_CACHE_HOME"
say() { printf '%s\n' "$1" | "$BIN" --plain --format json --agent restaurants --db "$T/r.db" --today 2026-03-13 \
    --llm-url "$URL" -m mock --sessions "$T/s3.db" >"$T/out" 2>"$T/err"; }
say "quiet places in Palo Alto, please"
check "a refused parse: the turn says so" grep -q '"event":"refused"' "$T/out"
say "quiet places in Palo Alto, please"
check "the same words again: the parser is asked again, not the cache" \
    grep -q '"event":"statements".*quiet places in Palo Alto' "$T/out"
say "quiet places in Palo Alto?"
check "a SUQL reply that did not parse, and its failed repair: not replayed either" \
    grep -q '"event":"result".*"count":2' "$T/out"

# ---- a server that is not there: nothing was sent ---------------------------
printf 'hello\n' | "$BIN" --plain --format json --agent restaurants --db "$T/r.db" --llm-url http://127.0.0.1:9/v1 \
    -m mock --retries 0 --no-cache --sessions "$T/s2.db" >"$T/out" 2>"$T/err"
check "a dead endpoint: no LLM call counted" eq "$(timing llm_calls)" 0
finish
