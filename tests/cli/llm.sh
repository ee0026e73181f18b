#!/usr/bin/env bash
# llm.sh — genie's LLM settings end to end, against the mock server:
# --check-llm online and offline, the endpoint and key from flags, GENIE_*
# and OPENAI_* variables, the config file and api_key_cmd; the key kept out
# of --print-config, errors and --llm-log; the stage header; exit statuses;
# prompt overrides checked by --check-llm.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN, PYTHON.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init llm
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; shift; for l in "$@"; do printf '#   %s\n' "$l"; done; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name" "command: $*" "out: $(head -c 600 "$T/out")" "err: $(head -c 600 "$T/err")"; fi; }

# A clean environment: no user config, cache or keys of whoever runs this.
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache
unset GENIE_LLM_URL OPENAI_BASE_URL GENIE_API_KEY OPENAI_API_KEY GENIE_CONFIG GENIE_MODEL
mkdir -p "$HOME"
g() { "$BIN" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { [ "$(cat "$T/rc")" = "$1" ]; }
has() { grep -qF -- "$2" "$T/$1"; }
hasnt() { ! grep -qF -- "$2" "$T/$1"; }

# ---- offline --------------------------------------------------------------
g --check-llm
check "offline --check-llm exits 2" rc 2
check "offline --check-llm says why" has err "offline: no LLM endpoint configured"
g --check-llm --llm-url http://127.0.0.1:9/v1 --offline
check "--offline wins over an endpoint" has err "offline (--offline)"

start_mock || { notok "mock server starts"; echo "$pass passed, $((fail)) failed"; exit 1; }
log_lines() { wc -l <"$T/mock.log" 2>/dev/null || echo 0; }
last_req() { tail -n 1 "$T/mock.log"; }

# ---- online ---------------------------------------------------------------
GENIE_API_KEY=sk-cli-secret-1 g --check-llm --llm-url "$URL" -m tiny-model
check "--check-llm succeeds" rc 0
check "--check-llm shows the reply" has out "reply:    mock reply"
check "--check-llm shows the model" has out "model:    tiny-model"
check "--check-llm shows timings" has out "first token"
check "--check-llm finds the prompts" has out "prompts:  10 loaded from"
check "the request names its stage" sh -c "tail -n1 '$T/mock.log' | grep -q '\"X-Genie-Stage\": \"check\"'"
check "the key is sent as a bearer token" sh -c "tail -n1 '$T/mock.log' | grep -q 'Bearer sk-cli-secret-1'"

OPENAI_BASE_URL=$URL OPENAI_API_KEY=sk-openai-2 g --check-llm
check "OPENAI_BASE_URL and OPENAI_API_KEY are honoured" sh -c "[ \$(cat '$T/rc') = 0 ] && tail -n1 '$T/mock.log' | grep -q 'Bearer sk-openai-2'"

OPENAI_API_KEY=sk-openai-3 g --print-config --llm-url "$URL"
check "--print-config hides the key" hasnt out "sk-openai-3"
check "--print-config says it is set" has out "api_key = (set, hidden)"

mkdir -p "$XDG_CONFIG_HOME/genie"
cat >"$XDG_CONFIG_HOME/genie/config.ini" <<INI
[llm]
llm_url = $URL
api_key_cmd = printf 'sk-from-cmd-4\n'
INI
g --check-llm
check "api_key_cmd supplies the key" sh -c "[ \$(cat '$T/rc') = 0 ] && tail -n1 '$T/mock.log' | grep -q 'Bearer sk-from-cmd-4'"
cat >"$XDG_CONFIG_HOME/genie/config.ini" <<INI
[llm]
llm_url = $URL
api_key_cmd = echo sk-leaky-5; exit 3
INI
g --check-llm
check "a failing api_key_cmd exits 1" rc 1
check "a failing api_key_cmd gives its status" has err "api_key_cmd failed (exit status 3)"
check "a failing api_key_cmd does not print its output" hasnt err "sk-leaky-5"
cat >"$XDG_CONFIG_HOME/genie/config.ini" <<INI
[llm]
llm_url = $URL
api_key_cmd = sleep 30; echo sk-late-7
api_key_cmd_timeout = 0.5
INI
t0=$(date +%s)
g --check-llm
t1=$(date +%s)
check "a hanging api_key_cmd is stopped at its timeout" sh -c "[ $((t1 - t0)) -lt 10 ] && [ \$(cat '$T/rc') = 1 ]"
check "... and genie says so" has err "api_key_cmd gave no key within 0.5 s"
rm "$XDG_CONFIG_HOME/genie/config.ini"

# ---- an HTML page with HTTP 200 (a proxy's sign-in) --------------------------
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" \
    -d '{"chat": [{"html_200": true}]}'
for mode in --no-stream --stream; do
    [ "$mode" = --stream ] && mode=
    g --check-llm --llm-url "$URL" -m mock --retries 0 $mode
    check "an HTML page${mode:+ ($mode)}: said so, with its title" \
        has err 'HTTP 200 with an HTML page ("Sign in to the gateway"), not the API'"'"'s JSON'
done

# ---- settings checked at start, online or not ------------------------------
g --offline --stage pars.model=x --suql "SELECT 1"
check "a --stage typo fails at start, offline too" sh -c "[ \$(cat '$T/rc') = 2 ] && grep -q \"unknown stage 'pars'\" '$T/err'"
g --offline --prices "m=abc" --suql "SELECT 1"
check "bad --prices fail at start, offline too" rc 2

# ---- failures and the log ---------------------------------------------------
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" \
    -d '{"chat": [{"status": 401, "error_message": "Incorrect API key provided: sk-bad-6"}]}'
GENIE_API_KEY=sk-bad-6 g --check-llm --llm-url "$URL" --llm-log "$T/llm.jsonl"
check "HTTP 401 exits 1" rc 1
check "HTTP 401 is explained" has err "HTTP 401"
check "HTTP 401 points at the key" has err "(check the API key: GENIE_API_KEY, OPENAI_API_KEY, or api_key or api_key_cmd in the config file)"
check "the key is scrubbed from the error" hasnt err "sk-bad-6"
check "the log has the call" sh -c "grep -q '\"stage\":\"check\"' '$T/llm.jsonl' && grep -q '\"status\":\"error\"' '$T/llm.jsonl'"
check "the log does not have the key" sh -c "! grep -q 'sk-bad-6' '$T/llm.jsonl'"

curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" \
    -d '{"chat": [{"status": 404, "error_message": "The model `nope` does not exist"}]}'
g --check-llm --llm-url "$URL" -m nope
check "HTTP 404 points at the model name" has err "does not exist (check the model name, -m, and that the endpoint URL ends in /v1)"

curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" \
    -d '{"chat": [{"times": 1, "status": 429, "retry_after_ms": 100}, {"reply": "OK"}]}'
g --check-llm --llm-url "$URL"
check "a 429 is retried and reported" sh -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'HTTP 429; retrying in 0.1 s (retry 1)' '$T/err' && grep -q 'reply:    OK' '$T/out'"

g --check-llm --llm-url "$URL" --stage 'chek.model=x'
check "a bad --stage is a usage error" rc 2
check "a bad --stage gets a hint" has err "did you mean 'check'?"
g --check-llm --llm-url "not a url"
check "a bad URL is a usage error" sh -c "[ \$(cat '$T/rc') = 2 ] && grep -q 'is not an http:// or https:// URL' '$T/err'"
g --check-llm --llm-url "localhost:8080/v1"
check "a URL without its scheme gets the suggestion" \
    sh -c "[ \$(cat '$T/rc') = 2 ] && grep -qF \"did you mean 'http://localhost:8080/v1'?\" '$T/err'"
# A port nothing listens on: said at once, not after the retries.
CLOSED=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
g --check-llm --llm-url "http://127.0.0.1:$CLOSED/v1" --retries 4
check "--check-llm on a closed port fails (status 1)" rc 1
check "--check-llm does not retry a refused connection" \
    sh -c "grep -q 'connect' '$T/err' && ! grep -q 'retrying' '$T/err'"

# ---- prompt overrides -------------------------------------------------------
mkdir -p "$XDG_CONFIG_HOME/genie/prompts"
printf '## system\nMine.\n## user\n{{question}\n' >"$XDG_CONFIG_HOME/genie/prompts/answer.prompt"
g --check-llm --llm-url "$URL"
check "a broken override fails --check-llm" rc 1
check "a broken override is named with its position" has err "prompts/answer.prompt:4:"
printf '## system\nMine.\n## user\n{{question}}\n' >"$XDG_CONFIG_HOME/genie/prompts/answer.prompt"
g --check-llm --llm-url "$URL"
check "an override is reported" sh -c "[ \$(cat '$T/rc') = 0 ] && grep -q 'overridden in .*: answer' '$T/out'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
