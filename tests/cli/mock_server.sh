#!/usr/bin/env bash
# mock_server.sh — the mock OpenAI-compatible server (tests/mock/llm_server.py)
# itself, checked with curl: its chat completions (script rules matched by
# X-Genie-Stage and by the last user message, "times", the default rule),
# the chat.completion and streamed chat.completion.chunk formats, every chat
# fault mode (429 with Retry-After, 500 then success, a drop mid-stream,
# garbage JSON, error objects mid-stream and as "event: error", an error with
# HTTP 200, a slow first byte, ": ping" keep-alives, CRLF, a missing [DONE],
# reasoning_content and <think>, a huge output), the request log, the control
# API, and that the embeddings route still answers.  The other test scripts
# trust this server; this one checks it says what its docstring promises.
#
# Prints "ok - NAME" or "not ok - NAME" (with the reason and the start of the
# reply as "#" lines) per check and ends with exactly one line
# "N passed, N failed"; exits 1 when anything failed.  Runs in about 10 s.
#
# Environment: GENIE_TOP (default: the repository holding this script),
# PYTHON (default python3), CURL (default curl).  Everything lives in a
# temporary directory, removed on exit together with the mock server.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init mock
CURL=${CURL:-curl}
export LC_ALL=C

pass=0 fail=0
crc=0

# result NAME WHY: WHY empty means passed.
result() {
    local name=$1 why=$2
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        echo "ok - $name"
        return 0
    fi
    fail=$((fail + 1))
    echo "not ok - $name"
    printf '%s\n' "$why" | sed 's/^/#   /'
    [ -s "$T/cerr" ] && sed -n '1,3s/^/#   curl: /p' "$T/cerr"
    [ -s "$T/body" ] && { head -c 600 "$T/body" | tr '\r' '~'; echo; } |
        sed -n '1,8s/^/#   body: /p'
    return 1
}

for tool in "$CURL" "$PY"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "not ok - $tool is installed"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# q.py: evaluates Python assertions over the last reply and the log.  Names:
#   RC curl's exit status; CODE the HTTP status; TTFB, TOTAL curl's times
#   H response headers (lower-case names); RAW the body (bytes); TEXT (str)
#   Z the body as JSON (None if it is not)
#   SEQ the SSE stream in order: ("c", comment) and ("e", type, data) items,
#       an event dispatched at its blank line (type None for no "event:")
#   D the data of the events; DONE whether one was "[DONE]"
#   J each data but [DONE] as JSON (None where it is not JSON)
#   C the concatenated content deltas; R the reasoning_content deltas
#   CH the chunks (JSON objects with "choices")
#   L the logged chat requests; h(e, NAME) a logged header
# Each argument is an expression that must be true; the first false one is
# printed with the values of its names that are short.
cat >"$T/q.py" <<'EOF'
import json, os, re, sys
T, RC = sys.argv[1], int(sys.argv[2])
RAW = open(os.path.join(T, "body"), "rb").read()
TEXT = RAW.decode("utf-8", "replace")
w = open(os.path.join(T, "w")).read().split()
CODE, TTFB, TOTAL = int(w[0]), float(w[1]), float(w[2])
H = {}
for line in open(os.path.join(T, "hdr"), "rb").read().decode("latin-1").split("\r\n"):
    if line.startswith("HTTP/"):
        H = {}
    elif ":" in line:
        k, v = line.split(":", 1)
        H[k.strip().lower()] = v.strip()
try:
    Z = json.loads(TEXT)
except ValueError:
    Z = None
# SSE, as the spec splits it: lines end with CRLF, LF or CR; an event is
# dispatched at a blank line; a last line without its end is dropped.
SEQ, etype, data = [], None, None
for line in re.split(r"\r\n|\r|\n", TEXT)[:-1]:
    if line == "":
        if data is not None:
            SEQ.append(("e", etype, "\n".join(data)))
        etype, data = None, None
    elif line.startswith(":"):
        SEQ.append(("c", line[1:].strip()))
    else:
        f, _, v = line.partition(":")
        v = v[1:] if v.startswith(" ") else v
        if f == "event":
            etype = v
        elif f == "data":
            data = (data or []) + [v]
D = [x[2] for x in SEQ if x[0] == "e"]
DONE = "[DONE]" in D
def parse(x):
    try:
        return json.loads(x)
    except ValueError:
        return None
J = [parse(x) for x in D if x != "[DONE]"]
CH = [j for j in J if isinstance(j, dict) and "choices" in j]
DELTAS = [c["delta"] for j in CH for c in j["choices"]]
C = "".join(d.get("content") or "" for d in DELTAS)
R = "".join(d.get("reasoning_content") or "" for d in DELTAS)
L = [json.loads(x) for x in open(os.path.join(T, "mock.log")) if x.strip()]
L = [e for e in L if e.get("route") == "chat"]
def h(e, name):
    return {k.lower(): v for k, v in e["headers"].items()}.get(name.lower())
for expr in sys.argv[3:]:
    try:
        ok = eval(expr)
    except Exception as ex:
        print("%s: %s: %s" % (expr, type(ex).__name__, ex))
        sys.exit(1)
    if not ok:
        print("false: %s" % expr)
        for n in sorted(set(re.findall(r"\b[A-Z]+\b", expr))):
            v = globals().get(n)
            if v is not None and len(repr(v)) < 300:
                print("  %s = %r" % (n, v))
        sys.exit(1)
EOF

log_reset() { : >"$T/mock.log"; }

# post STAGE JSON [CURL ARGS...]: POST JSON to /v1/chat/completions, with
# "X-Genie-Stage: STAGE" unless STAGE is empty.  Body in $T/body, headers in
# $T/hdr, curl's exit status in $crc.
post() {
    local stage=$1 data=$2 hs=()
    shift 2
    [ -n "$stage" ] && hs=(-H "X-Genie-Stage: $stage")
    rm -f "$T/body" "$T/hdr" "$T/w"
    "$CURL" -sS -N --max-time 20 -D "$T/hdr" -o "$T/body" \
        -w '%{http_code} %{time_starttransfer} %{time_total}\n' \
        -H 'Content-Type: application/json' "${hs[@]}" \
        --data-binary "$data" "$@" "$URL/chat/completions" >"$T/w" 2>"$T/cerr"
    crc=$?
    [ -s "$T/w" ] || echo "000 0 0" >"$T/w"
    [ -e "$T/hdr" ] || : >"$T/hdr"
    [ -e "$T/body" ] || : >"$T/body"
}

# body MODE TEXT: a request body with one user message TEXT; MODE is
# "plain", "stream" or "usage" (stream with stream_options.include_usage).
body() {
    local s=
    case $1 in
    stream) s=',"stream":true' ;;
    usage) s=',"stream":true,"stream_options":{"include_usage":true}' ;;
    esac
    printf '{"model":"mock-model"%s,"messages":[{"role":"user","content":"%s"}]}' "$s" "$2"
}

# chat STAGE MODE TEXT [CURL ARGS...]
chat() { local st=$1 m=$2 tx=$3; shift 3; post "$st" "$(body "$m" "$tx")" "$@"; }

# ctl ROUTE JSON: POST to a control route; the reply in $T/ctl, the HTTP
# status in $ctl_code.
ctl() {
    ctl_code=$("$CURL" -sS --max-time 10 -o "$T/ctl" -w '%{http_code}' \
        -H 'Content-Type: application/json' --data-binary "$2" \
        "http://127.0.0.1:$PORT/_mock/$1" 2>"$T/cerr")
}
# script JSON: replace the script; a failure is reported as a check.
script() {
    ctl script "$1"
    [ "$ctl_code" = 200 ] || result "load script $1" "HTTP $ctl_code: $(cat "$T/ctl")"
}

# check NAME [ASSERTION]...: assert on the last post.  Assertions:
#   curl=N          curl exited with N (0 ok, 18 partial transfer, 28 timeout)
#   status=N        the HTTP status
#   hdr~ERE hdr!~ERE  a response header line matches / none does
#                   (case-insensitive)
#   body~ERE body!~ERE  a line of the body matches / none does
#   anything else   a Python expression over the reply (see q.py above)
check() {
    local name=$1 why= a code pys=()
    shift
    code=$(cut -d' ' -f1 "$T/w")
    for a in "$@"; do
        case $a in
        curl=*) [ "$crc" = "${a#curl=}" ] || why="curl exit status $crc, expected ${a#curl=}" ;;
        status=*) [ "$code" = "${a#status=}" ] || why="HTTP status $code, expected ${a#status=}" ;;
        hdr~*) tr -d '\r' <"$T/hdr" | grep -Eiq -- "${a#hdr~}" || why="no header /${a#hdr~}/" ;;
        hdr!~*) ! tr -d '\r' <"$T/hdr" | grep -Eiq -- "${a#hdr!~}" || why="a header /${a#hdr!~}/" ;;
        body~*) grep -Eq -- "${a#body~}" "$T/body" || why="body lacks /${a#body~}/" ;;
        body!~*) ! grep -Eq -- "${a#body!~}" "$T/body" || why="body has /${a#body!~}/" ;;
        *) pys+=("$a") ;;
        esac
        [ -n "$why" ] && break
    done
    if [ -z "$why" ] && [ "${#pys[@]}" -gt 0 ]; then
        why=$("$PY" "$T/q.py" "$T" "$crc" "${pys[@]}" 2>&1)
    fi
    result "$name" "$why"
}

# ---- start-up ------------------------------------------------------------

cat >"$T/script.json" <<'EOF'
{"chat": {"rules": [{"name": "from-file", "stage": "kb_parse", "reply": "SELECT 1"}],
          "default": {"name": "file-default", "reply": "default from the file"}}}
EOF
if ! start_mock --script "$T/script.json"; then
    result "mock server starts and reports its port" "no port; $(cat "$T/mock.err")"
    echo "$pass passed, $fail failed"
    exit 1
fi
result "mock server starts and reports its port on stdout and in the port file" \
    "$([ "$(cat "$T/mock.out")" = "$PORT" ] || echo "stdout '$(cat "$T/mock.out")', port file $PORT")"

chat kb_parse plain 'list the places'
check "--script file: its rule answers by stage" curl=0 status=200 \
    'Z["choices"][0]["message"]["content"] == "SELECT 1"' 'L[-1]["rule"] == "from-file"'
chat answer plain 'anything'
check "--script file: its default rule answers the rest" status=200 \
    'Z["choices"][0]["message"]["content"] == "default from the file"' \
    'L[-1]["rule"] == "file-default"'

printf '{"chat": [{"stag": "parse"}]}' >"$T/bad.json"
"$PY" "$MOCK" --script "$T/bad.json" >"$T/bad.out" 2>"$T/bad.err"
brc=$?
result "a bad --script file: exit 2 naming the unknown key" \
    "$([ "$brc" = 2 ] && grep -q "unknown chat rule key 'stag'" "$T/bad.err" ||
       echo "exit $brc: $(cat "$T/bad.err")")"

# ---- formats ---------------------------------------------------------------

script '{}'
log_reset
chat '' plain 'hello there'
check "no script: the built-in default, a chat.completion with usage" curl=0 status=200 \
    'hdr~^Content-Type: application/json' 'hdr~^Content-Length: [0-9]+' \
    'Z["object"] == "chat.completion"' 'Z["id"].startswith("chatcmpl-")' \
    'Z["model"] == "mock-model"' \
    'Z["choices"][0]["message"] == {"role": "assistant", "content": "mock reply", "refusal": None}' \
    'Z["choices"][0]["finish_reason"] == "stop"' 'Z["choices"][0]["index"] == 0' \
    'Z["usage"]["prompt_tokens"] > 0 and Z["usage"]["completion_tokens"] == 2' \
    'Z["usage"]["total_tokens"] == Z["usage"]["prompt_tokens"] + Z["usage"]["completion_tokens"]' \
    'L[-1]["rule"] == "default"'

script '{"chat": {"rules": [{"stage": "answer", "reply": "Lot Diner has a big parking lot.", "chunk": 5}]}}'
chat answer usage 'is parking easy'
check "stream: SSE over chunked HTTP, no Content-Length" curl=0 status=200 \
    'hdr~^Content-Type: text/event-stream' 'hdr~^Transfer-Encoding: chunked' \
    'hdr~^Cache-Control: no-cache' 'hdr!~^Content-Length'
check "stream: every line is 'data: ...' and every event ends with a blank line" \
    'all(x[0] == "e" and x[1] is None for x in SEQ)' \
    'all(ln.startswith("data: ") for ln in TEXT.split("\n\n")[:-1])' \
    'TEXT.endswith("\n\n") and "\r" not in TEXT'
check "stream: chat.completion.chunk objects with one id, model and created" \
    'all(j["object"] == "chat.completion.chunk" for j in J)' \
    'len({(j["id"], j["model"], j["created"]) for j in J}) == 1' 'J[0]["model"] == "mock-model"'
check "stream: the role delta first, with empty content" \
    'CH[0]["choices"][0]["delta"] == {"role": "assistant", "content": "", "refusal": None}' \
    'CH[0]["choices"][0]["finish_reason"] is None'
check "stream: content deltas of the configured size (5 characters) make the reply" \
    'C == "Lot Diner has a big parking lot."' \
    '[len(d["content"]) for d in DELTAS[1:-1]] == [5] * 6 + [2]'
check "stream: a final chunk with an empty delta and finish_reason stop" \
    'CH[-2]["choices"][0]["delta"] == {} and CH[-2]["choices"][0]["finish_reason"] == "stop"' \
    'all(c["finish_reason"] is None for j in CH[:-2] for c in j["choices"])'
check "stream: with include_usage, a usage chunk with empty choices, then [DONE]" \
    'CH[-1]["choices"] == [] and CH[-1]["usage"]["completion_tokens"] == 7' \
    'D[-1] == "[DONE]" and D.count("[DONE]") == 1' 'TEXT.endswith("data: [DONE]\n\n")'
chat answer stream 'is parking easy'
check "stream: without include_usage, no usage chunk" curl=0 \
    'all("usage" not in j for j in J)' 'CH[-1]["choices"][0]["finish_reason"] == "stop"' \
    'DONE and C == "Lot Diner has a big parking lot."'

ctl config '{"chunk": 3}'
script '{"chat": [{"reply": "abcdefghij"}]}'
chat '' stream 'x'
check "/_mock/config chunk sets the default delta size" \
    '[d.get("content") for d in DELTAS] == ["", "abc", "def", "ghi", "j", None]'
ctl config '{"chunk": 8}'

script '{"chat": [{"reply": "héllo wörld ☃ ok", "chunk": 2}]}'
chat '' stream 'x'
check "stream: deltas are cut in characters, not bytes" curl=0 \
    'C == "héllo wörld ☃ ok"' '[d["content"] for d in DELTAS[1:-1]][:3] == ["hé", "ll", "o "]'

script '{"chat": [{"reply": "one two three four five six", "chunk": 4, "chunk_delay": 0.1}]}'
chat '' stream 'x'
check "stream: chunk_delay paces the events (9 events, 8 gaps of 0.1 s)" curl=0 \
    'TOTAL >= 0.8' 'TTFB < 0.8' 'len(CH) == 9'

script '{"chat": [{"reply": "{\"a\": 1}", "ignore_stream": true}]}'
chat '' stream 'x'
check "ignore_stream: one chat.completion although a stream was asked" curl=0 status=200 \
    'hdr~^Content-Type: application/json' 'Z["object"] == "chat.completion"' \
    'Z["choices"][0]["message"]["content"] == "{\"a\": 1}"'

post '' '{"model": "m"}'
check "a request without messages: HTTP 400" status=400 'Z["error"]["type"] == "invalid_request_error"'

# ---- rule matching ---------------------------------------------------------

script '{"chat": {"rules": [
  {"name": "parse", "stage": ["parse", "kb_parse"], "reply": "P"},
  {"name": "parking-answer", "stage": "answer", "contains": "parking", "reply": "A1"},
  {"name": "answer", "stage": "answer", "reply": "A2"},
  {"name": "any-parking", "contains": "parking", "reply": "X1"},
  {"name": "any-parking-lot", "contains": "parking lot", "reply": "X2"},
  {"name": "summary", "stage": "summary", "reply": "S"}],
  "default": {"name": "dflt", "reply": "D"}}}'
log_reset
chat parse plain 'is parking easy'
check "stage parse picks the parse rule (first match wins over contains)" \
    'Z["choices"][0]["message"]["content"] == "P"' 'L[-1]["rule"] == "parse"'
chat kb_parse plain 'x'
check "stage kb_parse matches a rule's list of stages" 'Z["choices"][0]["message"]["content"] == "P"'
chat ANSWER plain 'where can I park'
check "stage compare is case-insensitive; contains not matched: the next rule" \
    'Z["choices"][0]["message"]["content"] == "A2"' 'L[-1]["rule"] == "answer"'
chat answer plain 'is parking easy'
check "stage and contains both match: that rule" 'Z["choices"][0]["message"]["content"] == "A1"'
chat '' plain 'a parking lot nearby'
check "no stage header: stage rules are skipped; the first contains rule wins" \
    'Z["choices"][0]["message"]["content"] == "X1"' 'L[-1]["rule"] == "any-parking"'
post '' '{"messages": [{"role": "user", "content": "parking please"}, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "and the menu?"}]}'
check "contains looks at the last user message only" \
    'Z["choices"][0]["message"]["content"] == "D"' 'L[-1]["rule"] == "dflt"'
post '' '{"messages": [{"role": "user", "content": [{"type": "text", "text": "big "}, {"type": "text", "text": "parking lot"}]}]}'
check "contains sees a content list's text parts joined" 'Z["choices"][0]["message"]["content"] == "X1"'
chat verify plain 'x'
check "no rule matches: the default rule" 'Z["choices"][0]["message"]["content"] == "D"' \
    'L[-1]["rule"] == "dflt"'
chat summary stream 'x'
check "stage summary, streamed" curl=0 'C == "S"' DONE

script '{"chat": {"rules": [
  {"name": "fail-once", "stage": "answer", "times": 1, "status": 500},
  {"name": "ok", "stage": "answer", "reply": "recovered"}]}}'
log_reset
chat answer stream 'x'
check "times 1: the first request gets HTTP 500 with an OpenAI error object" curl=0 status=500 \
    'hdr~^Content-Type: application/json' 'Z["error"]["type"] == "server_error"' \
    'isinstance(Z["error"]["message"], str) and "param" in Z["error"] and "code" in Z["error"]'
"$CURL" -sS -o "$T/ctl" "http://127.0.0.1:$PORT/_mock/state"
result "/_mock/state shows the used-up rule" \
    "$("$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); r=s["chat_rules"]
print("" if r == [{"name": "fail-once", "left": 0}, {"name": "ok", "left": None}] else r)' "$T/ctl")"
chat answer stream 'x'
check "... then the rule is used up and the next one succeeds (500 then success)" \
    curl=0 status=200 'C == "recovered"' DONE 'L[-1]["rule"] == "ok"'
chat answer plain 'x'
check "... and keeps succeeding" status=200 'Z["choices"][0]["message"]["content"] == "recovered"' \
    '[e["status"] for e in L] == [500, 200, 200]'

ctl script '{"chat": [{"stage": "answer", "drop_afterr": 1}]}'
result "/_mock/script rejects an unknown rule key with HTTP 400" \
    "$([ "$ctl_code" = 400 ] && grep -q "unknown chat rule key 'drop_afterr'" "$T/ctl" ||
       echo "HTTP $ctl_code: $(cat "$T/ctl")")"
ctl script '{"chat": [{"times": -1}]}'
result "/_mock/script rejects a bad value with HTTP 400" "$([ "$ctl_code" = 400 ] || echo "HTTP $ctl_code")"
ctl script '{"chat": {"rules": [], "default": {"stage": "answer"}}}'
result "/_mock/script rejects match keys in the default rule" "$([ "$ctl_code" = 400 ] || echo "HTTP $ctl_code")"
chat answer plain 'x'
check "a rejected script leaves the previous one in force" 'Z["choices"][0]["message"]["content"] == "recovered"'

# ---- faults ------------------------------------------------------------------

script '{"chat": [{"stage": "parse", "times": 1, "status": 429, "retry_after": 2, "retry_after_ms": 1500, "error_message": "slow down"},
                  {"stage": "parse", "times": 1, "status": 429, "retry_after_ms": 250},
                  {"stage": "parse", "reply": "ok"}]}'
chat parse stream 'x'
check "429 with Retry-After and retry-after-ms" curl=0 status=429 \
    'hdr~^Retry-After: 2$' 'hdr~^retry-after-ms: 1500$' \
    'Z["error"]["code"] == "rate_limit_exceeded" and Z["error"]["message"] == "slow down"'
chat parse stream 'x'
check "429 with only retry-after-ms" status=429 'hdr~^retry-after-ms: 250$' 'hdr!~^Retry-After:'
chat parse stream 'x'
check "... then success" status=200 'C == "ok"' 'hdr!~^retry-after'

script '{"chat": [{"stage": "answer", "reply": "abcdefghijklmnopqrstuvwxyz", "chunk": 4, "drop_after": 3},
                  {"stage": "summary", "reply": "abc", "drop_after": 99},
                  {"stage": "verify", "reply": "abcdefgh", "chunk": 2, "drop_after": 2, "framing": "close"},
                  {"stage": "classify", "reply": "abcdefgh", "drop_after": 40}]}'
chat answer stream 'x'
check "drop_after 3: the connection closes mid-stream, curl reports a transfer error (18)" \
    curl=18 status=200 'len(D) == 3 and not DONE' 'C == "abcdefgh"' \
    'all(j is not None for j in J)'
chat summary usage 'x'
check "drop_after past the end: every event but no [DONE], curl error 18" curl=18 \
    'C == "abc" and not DONE' 'CH[-1]["choices"] == [] and "usage" in CH[-1]'
chat verify stream 'x'
check "drop with framing close: a clean end for HTTP, a partial body without [DONE]" \
    curl=0 'hdr!~^Transfer-Encoding' 'hdr~^Connection: close' 'C == "ab" and not DONE'
chat classify plain 'x'
check "drop_after on a reply not streamed: 40 bytes of the body, curl error 18" curl=18 \
    status=200 'len(RAW) == 40 and Z is None' 'TEXT.startswith("{\"id\": \"chatcmpl-")'

script '{"chat": [{"stage": "answer", "reply": "abcdefgh", "chunk": 4, "garbage_after": 2}]}'
chat answer stream 'x'
check "garbage_after 2: the third data line is not JSON, the stream goes on" curl=0 \
    'len(J) == 5 and J[2] is None and all(j is not None for i, j in enumerate(J) if i != 2)' \
    'D[2].startswith("{") and DONE and C == "abcdefgh"'

script '{"chat": [{"stage": "answer", "reply": "abcdefgh", "chunk": 4, "error_after": 2, "error_message": "overloaded"},
                  {"stage": "summary", "reply": "abcdefgh", "chunk": 4, "error_after": 2, "error_event": true, "no_done": true}]}'
chat answer stream 'x'
check "error_after 2: data: {\"error\": ...} mid-stream, then [DONE]" curl=0 status=200 \
    'len(D) == 4 and D[-1] == "[DONE]"' 'J[2] == {"error": {"message": "overloaded", "type": "server_error", "param": None, "code": 500}}' \
    'SEQ[2][1] is None and C == "abcd"'
chat summary stream 'x'
check "error_event: the error as 'event: error', here without [DONE]" curl=0 \
    'body~^event: error$' '[x[1] for x in SEQ] == [None, None, "error"]' \
    'J[-1]["error"]["type"] == "server_error" and not DONE'

script '{"chat": [{"stage": "answer", "error_200": true, "error_message": "context too long"}]}'
chat answer stream 'x'
check "error_200: HTTP 200 with a JSON error body, though a stream was asked" curl=0 status=200 \
    'hdr~^Content-Type: application/json' 'Z["error"]["message"] == "context too long"' \
    'set(Z) == {"error"}'

script '{"chat": [{"stage": "answer", "first_byte_delay": 1.0, "reply": "late"}]}'
log_reset
chat answer stream 'x'
check "first_byte_delay 1.0: nothing, not even headers, for a second" curl=0 \
    'TTFB >= 1.0' 'C == "late" and DONE'
chat answer stream 'x' --max-time 0.4
check "first_byte_delay: a client timing out first gets no headers (curl 28)" curl=28 \
    'CODE == 0 and RAW == b""' 'len(L) == 2'

script '{"chat": [{"stage": "answer", "stall": 0.8, "ping": 0.25, "reply": "ab", "chunk": 1, "chunk_delay": 0.3}]}'
chat answer stream 'x'
check "stall 0.8 with ping 0.25: headers at once, 3 ': ping' lines before the first event" curl=0 \
    'TTFB < 0.7 and TOTAL >= 1.4' 'body~^: ping$' \
    '[x[0] for x in SEQ[:4]] == ["c", "c", "c", "e"]' 'all(x[1] == "ping" for x in SEQ if x[0] == "c")'
check "ping: also one during each 0.3 s chunk_delay, each comment followed by a blank line" \
    '[x[0] for x in SEQ] == ["c"] * 3 + ["e", "c", "e", "c", "e", "c", "e", "e"]' \
    'TEXT.count(": ping\n\n") == 6' 'C == "ab" and DONE'

script '{"chat": [{"stage": "answer", "crlf": true, "reply": "abcdef", "chunk": 3, "chunk_delay": 0.1, "ping": 0.1},
                  {"stage": "summary", "crlf": true, "error_after": 1, "error_event": true}]}'
chat answer usage 'x'
check "crlf: every line of the stream ends with CRLF, pings too" curl=0 \
    'RAW.count(b"\n") == RAW.count(b"\r\n") > 0' 'b"\r\n\r\n: ping\r\n\r\n" in RAW' \
    'RAW.endswith(b"data: [DONE]\r\n\r\n")' 'C == "abcdef" and DONE and "usage" in CH[-1]'
chat summary stream 'x'
check "crlf: an 'event: error' with CRLF" curl=0 'b"event: error\r\ndata: {" in RAW' \
    'RAW.count(b"\n") == RAW.count(b"\r\n")' 'SEQ[1][1] == "error"'

script '{"chat": [{"stage": "answer", "reply": "abc", "no_done": true}]}'
chat answer usage 'x'
check "no_done: a complete stream without [DONE], cleanly ended (curl 0)" curl=0 \
    'not DONE' 'body!~DONE' 'CH[-2]["choices"][0]["finish_reason"] == "stop" and "usage" in CH[-1]'

script '{"chat": [{"stage": "answer", "reasoning": "The lot is big.", "reply": "Yes.", "chunk": 4},
                  {"stage": "summary", "think": "plan it", "reply": "Done.", "chunk": 3}]}'
chat answer usage 'x'
check "reasoning: reasoning_content deltas before the content deltas" curl=0 \
    'R == "The lot is big." and C == "Yes."' \
    '[k for d in DELTAS[1:-1] for k in d] == ["reasoning_content"] * 4 + ["content"]' \
    'CH[-1]["usage"]["completion_tokens_details"]["reasoning_tokens"] == 4'
chat answer plain 'x'
check "reasoning, not streamed: message.reasoning_content" \
    'Z["choices"][0]["message"]["reasoning_content"] == "The lot is big."' \
    'Z["choices"][0]["message"]["content"] == "Yes."'
chat summary stream 'x'
check "think: an inline <think> block, its tags split across deltas" curl=0 \
    'C == "<think>\nplan it\n</think>\n\nDone."' 'R == ""' \
    'any(d.get("content", "").endswith("<th") for d in DELTAS)'

script '{"chat": [{"stage": "answer", "huge": 1000000}, {"stage": "summary", "huge": 300000, "chunk": 100000}]}'
chat answer stream 'x'
check "huge 1000000: a streamed answer of exactly 1,000,000 bytes in 1024-character deltas" curl=0 \
    'len(C) == 1000000 and len(C.encode()) == 1000000' \
    'max(len(d.get("content") or "") for d in DELTAS) == 1024' DONE
chat answer plain 'x'
check "huge, not streamed: content of 1,000,000 bytes" status=200 \
    'len(Z["choices"][0]["message"]["content"]) == 1000000'
chat summary stream 'x'
check "huge with chunk 100000: three deltas" curl=0 \
    '[len(d.get("content") or "") for d in DELTAS] == [0, 100000, 100000, 100000, 0]'

# ---- the request log -------------------------------------------------------

script '{"chat": [{"stage": "verify", "times": 1, "status": 429, "retry_after": 1}, {"stage": "verify", "reply": "yes"}]}'
log_reset
post verify '{"model": "gpt-test", "temperature": 0.2, "stream": true, "messages": [{"role": "system", "content": "Check."}, {"role": "user", "content": "Is it true?"}]}' \
    -H 'Authorization: Bearer sk-mock'
post verify '{"model": "gpt-test", "temperature": 0.2, "messages": [{"role": "user", "content": "again"}]}'
check "log: every request, with its status and rule" \
    'len(L) == 2 and [e["status"] for e in L] == [429, 200]' \
    '[e["rule"] for e in L] == ["rules[0]", "rules[1]"]' \
    '[e["seq"] for e in L] == sorted(e["seq"] for e in L)'
check "log: headers (stage, authorization), method, path" \
    '[h(e, "X-Genie-Stage") for e in L] == ["verify", "verify"]' \
    'h(L[0], "Authorization") == "Bearer sk-mock" and h(L[1], "Authorization") is None' \
    '{(e["method"], e["path"]) for e in L} == {("POST", "/v1/chat/completions")}'
check "log: the parsed body (model, temperature, stream, messages)" \
    'L[0]["json"]["model"] == "gpt-test" and L[0]["json"]["temperature"] == 0.2' \
    'L[0]["json"]["stream"] is True and "stream" not in L[1]["json"]' \
    '[m["role"] for m in L[0]["json"]["messages"]] == ["system", "user"]' \
    'L[0]["json"]["messages"][1]["content"] == "Is it true?"' \
    'json.loads(L[1]["body"]) == L[1]["json"]'

# ---- the embeddings route still answers -------------------------------------

"$CURL" -sS --max-time 10 -o "$T/emb" -w '%{http_code}' -H 'X-Genie-Stage: embed' \
    --data-binary '{"model": "e", "input": ["big parking lot", "sushi"]}' \
    "$URL/embeddings" >"$T/emb.code" 2>"$T/cerr"
result "embeddings: two normalized vectors of dimension 32" \
    "$("$PY" -c 'import json, sys
z = json.load(open(sys.argv[1])); v = [d["embedding"] for d in z["data"]]
ok = open(sys.argv[2]).read() == "200" and len(v) == 2 and all(len(x) == 32 for x in v) \
    and all(abs(sum(c * c for c in x) - 1) < 1e-4 for x in v)
print("" if ok else z)' "$T/emb" "$T/emb.code" 2>&1)"

pid=$MOCK_PID
stop_mock
result "the server stops on SIGTERM" "$(! kill -0 "$pid" 2>/dev/null || echo "still running")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
