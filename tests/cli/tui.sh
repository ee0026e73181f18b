#!/usr/bin/env bash
# tui.sh — the full-screen interface, run for real under tmux against the
# mock LLM server: screens compared with golden files at 80x24 and 160x48
# (tests/data/screens; GENIE_UPDATE_GOLDEN=1 rewrites them), and the keys,
# commands, signals and exits checked on the live screen.
#
# GENIE_SCREEN_TEST=1 keeps the clock off the screen; the mock's port is
# masked before comparing.  With GENIE_VALGRIND=1 genie runs under
# valgrind and no run's log may show a leak or an invalid access in
# genie's own code (make test-valgrind).  Prints "N passed, N failed" last.
set -u
VALGRIND=${GENIE_VALGRIND:-0}     # read before cli_init clears GENIE_*
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init tui
BIN=${GENIE_BIN:-$TOP/build/genie}
GOLD=$TOP/tests/data/screens
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() {
    echo "not ok - $1"
    [ -f "$T/screen" ] && sed 's/^/#   |/' "$T/screen" | head -50
    fail=$((fail + 1))
}
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }

if ! command -v tmux >/dev/null 2>&1; then
    notok "tmux is installed (scripts/setup.sh installs it)"
    echo "$pass passed, $fail failed"; exit 1
fi
SOCK=genie-tui-$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup_tui() { tm kill-server 2>/dev/null; cleanup; }
trap cleanup_tui EXIT

SLOW=1
VG=()
if [ "$VALGRIND" = 1 ]; then
    SLOW=20
    VG=(valgrind -q --leak-check=full --show-leak-kinds=definite --num-callers=30
        --log-file="$T/vg.%p")
fi

ENVS=(HOME="$T" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data" XDG_STATE_HOME="$T/state"
      XDG_CACHE_HOME="$T/cache" LANG=C.UTF-8 LC_ALL=C.UTF-8 GENIE_SCREEN_TEST=1 TERM=screen-256color)
cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done
BASE=(--agent restaurants --db "$T/r.db" --today 2026-11-21 --sessions "$T/s.db")

# run W H ARGS...: genie in a fresh tmux session of W x H; a line
# "[exit N]" follows its end, and "[tty ok]" when the terminal modes are
# back (echo and canonical input on).  SHELL_PRE is put before the command
# (trap '' INT: the shell outlives a Ctrl-C that line mode gets, as an
# interactive shell does).
run() {
    local w=$1 h=$2; shift 2
    tm kill-server 2>/dev/null
    while tm has-session 2>/dev/null; do sleep 0.05; done
    printf '%q ' env "${ENVS[@]}" "${VG[@]}" "$BIN" "${BASE[@]}" "$@" >"$T/cmd"
    tm new-session -d -x "$w" -y "$h" -s g \
        "sh -c '${SHELL_PRE:-}$(cat "$T/cmd") 2>\"$T/err\"; echo \"[exit \$?]\"; stty -a | grep -q \" icanon\" && stty -a | grep -q \" echo \" && echo \"[tty ok]\"; sleep 600'"
    tm set-option -t g status off >/dev/null
    waitfor "ready" || waitfor "[exit"
}
cap() { tm capture-pane -p -t g | sed "s/127\.0\.0\.1:[0-9]*/127.0.0.1:PORT/g" >"$T/screen"; }
# waitfor TEXT [SECONDS]: the screen shows TEXT within the time.
waitfor() {
    local i n=$(( ${2:-10} * 20 * SLOW ))
    for ((i = 0; i < n; i++)); do
        cap
        grep -qF -- "$1" "$T/screen" && return 0
        sleep 0.05
    done
    return 1
}
# waituntil SECONDS CMD...: CMD succeeds within the time (polled, no
# fixed sleep).
waituntil() {
    local i n=$(( $1 * 20 * SLOW )); shift
    for ((i = 0; i < n; i++)); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}
# settle: the turn in progress has ended (the status says ready).
settle() { waitfor "· ready" 10; }
shows() { cap; grep -qF -- "$1" "$T/screen"; }
hides() { ! shows "$1"; }
# gone TEXT [SECONDS]: the screen stops showing TEXT within the time.
gone() {
    local i n=$(( ${2:-5} * 20 * SLOW ))
    for ((i = 0; i < n; i++)); do
        hides "$1" && return 0
        sleep 0.05
    done
    return 1
}
keys() { tm send-keys -t g "$@"; }
# golden NAME: the screen equals tests/data/screens/NAME.txt.
golden() {
    cap
    if [ "${GENIE_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$T/screen" "$GOLD/$1.txt"; return 0; fi
    diff -u "$GOLD/$1.txt" "$T/screen" >"$T/diff" && return 0
    sed 's/^/#   /' "$T/diff" | head -40
    return 1
}
script() { cat >"$T/chat.json"; curl -s -X POST --data-binary @"$T/chat.json" "$URL/../_mock/script" >/dev/null; }
LLM=(--llm-url "URL" -m mock --no-cache --retries 0)
online() { LLM[1]=$URL; }

# ---- offline start ------------------------------------------------------------
run 80 24 --offline
check "offline start at 80x24" golden offline-80x24
check "the status line says offline" shows "restaurants · offline"
run 160 48 --offline
check "offline start at 160x48" golden offline-160x48

# ---- a locale that is not UTF-8; a terminal that cannot address the screen -------------
# ascii: no byte of the screen is past ASCII.
ascii() { cap; ! LC_ALL=C grep -q '[^ -~]' "$T/screen"; }
SAVED=("${ENVS[@]}")
ENVS=("${ENVS[@]/#LANG=C.UTF-8/LANG=C}")
ENVS=("${ENVS[@]/#LC_ALL=C.UTF-8/LC_ALL=}")
run 120 30 --offline
keys "/suql SELECT name, rating FROM restaurants WHERE location = 'Palo Alto' LIMIT 3" Enter
waitfor "(3 rows)"
check "LANG=C: the screen is drawn in ASCII, the panes whole (golden)" golden ascii-120x30
check "LANG=C: no byte past ASCII reaches the terminal" ascii
check "LANG=C: the screen says once why it is ASCII" shows "LANG=C is not a UTF-8 locale"
keys "/quit" Enter
check "LANG=C: /quit leaves genie with status 0" waitfor "[exit 0]" 10
run 80 24 --offline
keys 'Book_Restaurant(num_people=2, date="2026-11-27")' Enter
waitfor "What is the name of the restaurant"
keys Tab
waitfor "Worksheet"
check "LANG=C at 80x24: the worksheet tab in ASCII" golden ascii-ws-80x24
check "LANG=C at 80x24: no byte past ASCII" ascii
ENVS=("${SAVED[@]}")
ENVS=("${ENVS[@]/#TERM=screen-256color/TERM=dumb}")
run 80 24 --offline
waitfor "What are you in the mood for?" 5
check "TERM=dumb: line mode instead of a broken full screen, said once" \
    grep -qxF "genie: TERM=dumb cannot show the full screen; line mode instead (--plain)" "$T/err"
keys "SELECT count(*) FROM restaurants" Enter
check "TERM=dumb: line mode answers" waitfor "count 1800" 10
# The next prompt first: a Ctrl-D typed before readline reads again is
# the terminal's end of a line, not readline's key.
waituntil 5 sh -c "tmux -L $SOCK capture-pane -p -t g | grep -v '^\$' | tail -1 | grep -qx '>'"
keys C-d
check "TERM=dumb: Ctrl-D ends line mode" waitfor "[exit 0]" 10
ENVS=("${SAVED[@]}")

# ---- help, slash commands, typed SUQL ---------------------------------------------
run 80 24 --offline
keys F1
waitfor "any other key closes it"
check "F1 shows the help screen" golden help-80x24
keys PageDown
waitfor "/export FILE"
check "PgDn shows the rest of the help" golden help2-80x24
keys x
waitfor "Enter send"
check "a key closes the help" shows "Conversation"
keys "?"
check "? on an empty input shows the help" waitfor "any other key closes it" 3
keys x
keys "SELECT 42 AS searched" Enter
waitfor "1 row" 10
keys C-r
keys "searc"
check "Ctrl-R shows the history search and its keys" waitfor "(reverse-i-search)\`searc': · Ctrl-R older" 5
check "... and the line it found" shows "› SELECT 42 AS searched"
keys C-g
check "Ctrl-G ends the search" waitfor "Enter send" 5
keys "/sch" Tab
check "Tab completes a slash command" waitfor "› /schema" 5
keys Enter
check "/schema prints the schema" waitfor "CREATE TABLE restaurant_hours" 5
keys "/suql SELECT name FROM restaurants WHERE location = 'Cupertino' ORDER BY rating DESC LIMIT 2" Enter
check "/suql runs SUQL and prints a table" waitfor "(2 rows)" 10
keys "/suql SELECT name FROM WHERE rating > 3" Enter
check "/suql with an error shows where" waitfor "^" 5
keys "/explian SELECT 1" Enter
check "an unknown command suggests the right one" waitfor "did you mean /explain?" 5
keys "/quit" Enter
check "/quit leaves genie with status 0" waitfor "[exit 0]" 10
check "the terminal is restored after /quit" waitfor "[tty ok]" 5

# ---- worksheet statements typed offline; the worksheet pane --------------------------
run 160 48 --offline
keys 'Book_Restaurant(num_people=2, date="2026-11-27")' Enter
waitfor "What is the name of the restaurant"
settle
check "the worksheet pane after a field is filled (offline)" golden worksheet-160x48
keys "SELECT name, rating FROM restaurants WHERE location = 'Palo Alto' ORDER BY rating DESC LIMIT 2" Enter
waitfor "2 rows"
settle
check "the SUQL pane after a search (offline)" golden suql-offline-160x48
keys C-d
check "Ctrl-D on an empty input quits" waitfor "[exit 0]" 10
check "history is kept in \$XDG_STATE_HOME/genie/history" grep -qF "Book_Restaurant(num_people=2" "$T/state/genie/history"
check "the history file is private" sh -c "[ \"\$(stat -c %a '$T/state/genie/history')\" = 600 ]"

# ---- with the mock LLM: a streamed turn ------------------------------------------------
start_mock || notok "mock server"
online
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(restaurant=\"Papa Nino's Trattoria\", num_people=2)"},
  {"stage": "respond", "times": 1, "chunk": 3, "chunk_delay": 0.03, "reply": "Happy to book **Papa Nino's Trattoria** for two. Which day would you like?\n\n- any day this week\n- or next week"},
  {"stage": "parse", "times": 1, "reply": "answer(\"romantic italian restaurants in palo alto\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name, rating FROM restaurants WHERE location = 'Palo Alto' ORDER BY rating DESC LIMIT 3"},
  {"stage": "respond", "times": 1, "reply": "Here are three: Hilo Cafe, Jukebox Grill and one more."}
]}}
JSON
run 160 48 "${LLM[@]}"
check "the status line shows the model and endpoint" shows "mock @ 127.0.0.1:PORT/v1"
keys "Book a table for two at Papa Nino's" Enter
waitfor "or next week"
settle
check "a streamed turn at 160x48 (Markdown, worksheet)" golden turn-160x48
keys "Any romantic Italian places in Palo Alto?" Enter
waitfor "one more."
settle
check "the SUQL pane after a search" golden suql-160x48
keys C-c
check "Ctrl-C once on an empty input asks again" waitfor "Press Ctrl-C again to quit" 3
keys C-c
check "Ctrl-C twice on an empty input quits" waitfor "[exit 0]" 10
check "the terminal is restored after Ctrl-C Ctrl-C" waitfor "[tty ok]" 5

# ---- sessions and state commands; retries; a queued line; scrolling ----------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(restaurant=\"Kaito\")"},
  {"stage": "respond", "times": 1, "status": 503, "retry_after": 2},
  {"stage": "respond", "times": 1, "reply": "Kaito it is. For how many people?"},
  {"stage": "parse", "times": 1, "reply": "book_restaurant.num_people = 5"},
  {"stage": "respond", "times": 1, "chunk": 2, "chunk_delay": 0.2, "reply": "Five people. Which day?"},
  {"stage": "parse", "times": 1, "reply": "book_restaurant.date = \"2026-11-28\""},
  {"stage": "respond", "times": 1, "reply": "Saturday it is."}
]}}
JSON
run 80 24 --llm-url "$URL" -m mock --no-cache --retries 1
keys "Kaito please" Enter
check "a retry shows in the status line" waitfor "retrying (respond: HTTP 503" 10
waitfor "For how many people?"
settle
keys "Five of us" Enter
waitfor "Five"
keys "Saturday" Enter
check "a line sent during a turn is queued" waitfor "queued: it is sent when" 5
check "... and sent when the turn ends" waitfor "Saturday it is." 10
settle
check "... and the queued hint is gone once it is sent" hides "queued: it is sent when"
keys Tab
waitfor " Worksheet " 5
keys "/usage" Enter
check "under 100 columns, the Conversation tab is marked when output arrives on it" waitfor " Conversation * " 5
keys BTab
check "... and the mark goes once it is shown" waitfor "/usage: the LLM use of the last turn" 5
check "... (no mark now)" hides "Conversation *"
keys "/state" Enter
check "/state prints the state as JSON" waitfor '"num_people": {' 5
keys "/model gpt-test" Enter
check "/model changes the model" waitfor "gpt-test @ 127.0.0.1:PORT/v1" 5
keys PageUp
waitfor "more below" 5
keys "/sessions" Enter
check "new output while scrolled up shows a marker" waitfor "new output (End: back to it)" 5
keys End
check "End goes back to the newest output" waitfor "(/resume ID continues one;" 5
keys "/export $T/export.md" Enter
check "/export writes the conversation as Markdown" waitfor "exported to" 5
check "... with the turns in it" grep -qF "Kaito please" "$T/export.md"
tm set-option -s set-clipboard on
keys "/copy" Enter
check "/copy puts the last reply on the clipboard (OSC 52)" waituntil 5 sh -c "tmux -L $SOCK show-buffer 2>/dev/null | grep -qF 'Saturday it is.'"
# clip TEXT: the newest tmux buffer (what OSC 52 set) holds TEXT.
clip() { waituntil 5 sh -c "tmux -L $SOCK show-buffer 2>/dev/null | grep -qF -- \"\$1\"" _ "$1"; }
keys "/copy 2" Enter
check "/copy 2 copies the reply before the last" clip "Five people. Which day?"
keys "/copy 9" Enter
check "/copy N past the replies says so" waitfor "there are fewer replies than that" 5
check "by default the terminal reports clicks and the wheel" \
    sh -c "[ \"\$(tmux -L $SOCK display -p -t g '#{mouse_standard_flag}')\" = 1 ]"
keys F2
check "F2 enters copy mode and says its keys" waitfor "copy: Up/Down choose" 5
keys y
check "y in copy mode copies the newest output (the /sessions table)" clip "(/resume ID continues one;"
check "... and copy mode ends, saying what it copied" waitfor "copied the message" 5
keys F2 Up Up y
check "Up, Up, y copies the message chosen (the /state JSON)" clip '"next_id": 2,'
keys F2 Escape
check "Esc leaves copy mode" waitfor "Enter send" 5
tm set-option -s set-clipboard external
keys "/copy" Enter
check "inside tmux without set-clipboard on, /copy says the copy may stay in tmux" \
    waitfor "set-clipboard is external" 5
tm set-option -s set-clipboard on
keys "/rename Kaito for five" Enter
check "/rename names this conversation" waitfor 'is now named "Kaito for five"' 5
keys "/delete 1" Enter
check "/delete ID deletes a saved conversation" waitfor "session 1 deleted" 5
keys "/sessions" Enter
check "/sessions shows the name" waitfor "3 turns  Kaito for five" 5
check "... and not the deleted one" \
    sh -c "! tmux -L $SOCK capture-pane -p -t g | sed -n '/session 1 deleted/,\$p' | grep -q '^ *1  2026'"
keys "/re" Tab
check "one Tab on /re lists /rename, /reset and /resume" waitfor "/rename  /reset  /resume" 5
keys C-u
keys "/reset" Enter
check "/reset starts a new conversation" waitfor "a new conversation" 5
keys "/resume" Enter
check "/resume brings the saved turns back" waitfor "(3 turns)" 5
check "... with their words" shows "› Five of us"
keys "/resume 999" Enter
check "/resume of no such session is an error" waitfor "999" 5
check "... and the conversation on screen stays" shows "› Five of us"
keys Tab
check "... and their state" waitfor "2026-11-28" 5
keys "/quit" Enter
waitfor "[exit 0]"
run 80 24 "${LLM[@]}" --resume
check "--resume opens the screen on the saved conversation" waitfor "(3 turns)" 5
keys "/quit" Enter
waitfor "[exit 0]"

# ---- the worksheet pane follows the task being worked on -------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "answer(\"places in Palo Alto\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Palo Alto' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in Palo Alto."},
  {"stage": "parse", "times": 1, "reply": "answer(\"places in Cupertino\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Cupertino' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in Cupertino."},
  {"stage": "parse", "times": 1, "reply": "answer(\"places in Sunnyvale\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Sunnyvale' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in Sunnyvale."},
  {"stage": "parse", "times": 1, "reply": "answer(\"places in San Francisco\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'San Francisco' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in San Francisco."},
  {"stage": "parse", "times": 1, "reply": "answer(\"places in Palo Alto again\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Palo Alto' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in Palo Alto again."},
  {"stage": "parse", "times": 1, "reply": "answer(\"places in Cupertino again\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Cupertino' LIMIT 2"},
  {"stage": "respond", "times": 1, "reply": "Two places in Cupertino again."},
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=2)"},
  {"stage": "respond", "times": 1, "reply": "For two. Which restaurant?"}
]}}
JSON
run 120 24 "${LLM[@]}"
for c in "Palo Alto" "Cupertino" "Sunnyvale" "San Francisco" "Palo Alto again" "Cupertino again"; do
    keys "places in $c?" Enter
    waitfor "Two places in $c." 10
    settle
done
keys "Book a table for two" Enter
waitfor "Which restaurant?" 10
settle
check "120x24: the new task is in view below six questions" shows "Book_Restaurant book_restaurant"
check "... with what it still needs" shows "restaurant   ? required"
check "... down to its last field" shows "confirm      ? awaiting confirmation"
check "... and the questions above it are marked" shows "↑ more above"
keys "/quit" Enter
waitfor "[exit 0]"
# Under 100 columns a tab whose content changed while another was shown
# says so.
script <<'JSON'
{"chat": {"rules": [{"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=2)"},
  {"stage": "respond", "times": 1, "reply": "For two. Which restaurant?"}]}}
JSON
run 80 24 "${LLM[@]}"
keys "Book a table for two" Enter
waitfor "Which restaurant?" 10
settle
check "80x24: the Worksheet tab is marked as changed" shows " Worksheet * "
keys Tab
check "... until it is shown" gone " Worksheet * "
keys "/quit" Enter
waitfor "[exit 0]"

# ---- while waiting: an elapsed timer (the clock is on screen only outside
# the screen tests' mode); a narrow status line keeps its left part -------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "stall": 3, "reply": "Book_Restaurant(num_people=2)",
   "usage": {"prompt_tokens": 1000, "completion_tokens": 10}},
  {"stage": "respond", "times": 1, "reply": "For two. Which restaurant?",
   "usage": {"prompt_tokens": 500, "completion_tokens": 100}}
]}}
JSON
SAVED=("${ENVS[@]}")
ENVS=("${ENVS[@]/GENIE_SCREEN_TEST=1/GENIE_SCREEN_TEST=}")
run 60 20 "${LLM[@]}" --prices "mock=2/10"
keys "A table for two" Enter
check "an elapsed timer while the turn waits" waitfor "parsing 2 s" 10
waitfor "Which restaurant?" 10
settle
check "60 columns: the status line keeps the agent, the model and the state" shows " restaurants · mock @ 127.0.0.1:PORT/v1 · ready"
check "... and the last turn's tokens where they fit" sh -c "grep -q 'ready  *last: 1610 tok' '$T/screen' || ! grep -q 'last:' '$T/screen'"
check "... never over the left part" sh -c "! grep -q 'readylast\\|v1last' '$T/screen'"
keys "/quit" Enter
waitfor "[exit 0]"
ENVS=("${SAVED[@]}")

# ---- a turn the cache answered says so ------------------------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=3)"},
  {"stage": "respond", "times": 1, "reply": "For three. Which restaurant?"}
]}}
JSON
run 160 48 --llm-url "$URL" -m mock --retries 0
keys "A table for three" Enter
waitfor "For three. Which restaurant?" 10
settle
check "a turn the server answered is not said to come from the cache" hides "from the cache"
keys "/reset" Enter
waitfor "a new conversation" 5
keys "A table for three" Enter
waitfor "For three. Which restaurant?" 10
settle
check "the same turn again, answered by the cache, says so" shows "last: from the cache"
keys "/quit" Enter
waitfor "[exit 0]"

# ---- usage and cost; typed queries in the SUQL pane ---------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=2)",
   "usage": {"prompt_tokens": 1000, "completion_tokens": 10}},
  {"stage": "respond", "times": 1, "reply": "For two. Which restaurant?",
   "usage": {"prompt_tokens": 500, "completion_tokens": 100}}
]}}
JSON
run 160 48 "${LLM[@]}" --prices "mock=2/10"
keys "A table for two" Enter
waitfor "Which restaurant?"
settle
check "the status line shows the turn's tokens and cost" shows "last: 1610 tok, \$0.0041"
check "... and the conversation's cost" shows "session \$0.0041"
keys "/usage" Enter
check "/usage shows the last turn's calls, tokens and cost" \
    waitfor "last turn: 2 LLM calls, 1500 tokens in, 110 out, \$0.0041" 5
check "/usage shows the conversation's" shows "this conversation (1 turn): 2 LLM calls"
check "/usage shows the last turn's timeline, phase by phase" \
    sh -c "tmux -L $SOCK capture-pane -p -t g | grep -q \"last turn's timeline:\" && tmux -L $SOCK capture-pane -p -t g | grep -qE '^    parse +│' && tmux -L $SOCK capture-pane -p -t g | grep -qE '^    respond +│'"
check "... and its LLM calls by stage" shows "LLM calls: parse 1, respond 1"
keys "/suql SELECT name FROM restaurants LIMIT 1" Enter
waitfor "(1 row)"
keys "/explain SELECT name FROM restaurants LIMIT 1" Enter
check "a typed /explain is marked planned, not run" waitfor "planned, not run" 5
check "/explain draws the plan as a tree in the conversation" shows "├─ mode:   plain"
check "a typed /suql is headed by its command, not a turn" shows "── /suql (typed)"
keys "/quit" Enter
waitfor "[exit 0]"

# ---- a server that reports no token usage: the counts are estimated, and say so ----------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "no_usage": true, "reply": "Book_Restaurant(num_people=2)"},
  {"stage": "respond", "times": 1, "no_usage": true, "reply": "For two. Which restaurant?"}
]}}
JSON
run 160 48 "${LLM[@]}"
keys "A table for two" Enter
waitfor "Which restaurant?"
settle
check "without usage from the server the status line shows estimated tokens (~N, N in the thousands)" \
    sh -c "tmux -L $SOCK capture-pane -p -t g | grep -qE 'last: ~[0-9]{4,} tok'"
keys "/usage" Enter
check "... and /usage says they are estimated" waitfor "out (partly estimated)" 5
keys "/quit" Enter
waitfor "[exit 0]"

# ---- line mode on a terminal: Ctrl-C cancels a reply that is streaming -------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=2)"},
  {"stage": "respond", "times": 1, "chunk": 2, "chunk_delay": 0.5, "reply": "A slow reply that would take half a minute to arrive in full, two letters at a time."}
]}}
JSON
SHELL_PRE="trap \"\" INT; " run 100 20 "${LLM[@]}" --plain
waitfor "What are you in the mood for?" 5
responds() { grep -c 'X-Genie-Stage.: .respond\|"stage": *"respond"' "$T/mock.log" 2>/dev/null; }
n0=$(responds)
keys "A table for two" Enter
waituntil 10 sh -c "[ \$(grep -c 'X-Genie-Stage.: .respond\|\"stage\": *\"respond\"' '$T/mock.log') -gt $n0 ]"
sleep 0.5                                       # a few letters of the reply have come
keys C-c
check "line mode: Ctrl-C during a streaming reply cancels the turn at once" \
    waituntil 3 grep -q "genie: the turn was cancelled" "$T/err"
check "... and the prompt comes back on a line of its own" \
    waituntil 3 sh -c "tmux -L $SOCK capture-pane -p -t g | grep -v '^\$' | tail -1 | grep -qx '>'"
keys Up
check "line mode on a terminal edits with readline: Up recalls the last line" waitfor "> A table for two" 3
keys C-u "/help" Enter
check "line mode has slash commands: /help" waitfor "Commands: /help, /reset" 5
keys "/state" Enter
check "... /state prints the state as JSON" waitfor '"records":' 5
keys C-c
check "Ctrl-C at the prompt ends line mode (status 0)" waitfor "[exit 0]" 5

# ---- code blocks: /copy code, c in copy mode; --no-mouse ------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=2)"},
  {"stage": "respond", "times": 1, "reply": "Two ways:\n\n```sql\nSELECT 1 AS first_block;\n```\n\nor\n\n~~~\necho second_block\n~~~\n\nEither works."}
]}}
JSON
run 100 30 "${LLM[@]}" --no-mouse
tm set-option -s set-clipboard on
keys "Show me code" Enter
waitfor "Either works."
settle
keys "/copy code" Enter
check "/copy code copies the last code block, without its fences" clip "echo second_block"
check "... only that block" sh -c "! tmux -L $SOCK show-buffer | grep -qe '~~~' -e first_block"
keys "/copy code 2" Enter
check "/copy code 2 copies the block before" clip "SELECT 1 AS first_block;"
keys "/copy code 3" Enter
check "/copy code past the blocks says so" waitfor "no code block in the replies to copy" 5
keys F2 c
check "c in copy mode copies the reply's code blocks" \
    waituntil 5 sh -c "tmux -L $SOCK show-buffer | tr '\n' ' ' | grep -qF 'SELECT 1 AS first_block;  echo second_block'"
check "--no-mouse: the terminal is not asked for mouse reports" \
    sh -c "[ \"\$(tmux -L $SOCK display -p -t g '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}')\" = 000 ]"
keys F1
waitfor "any other key closes it" 5
keys PageDown
check "the help tells how to select with the terminal's mouse" waitfor "Shift while dragging" 5
keys x
waitfor "Enter send" 5
keys "/quit" Enter
check "--no-mouse: the screen runs and quits" waitfor "[exit 0]" 10

# ---- resize while streaming ------------------------------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=4)"},
  {"stage": "respond", "times": 1, "chunk": 4, "chunk_delay": 0.05, "reply": "Sure, a table for four. There are many good places in town and I can look for one that suits you: quiet or lively, cheap or expensive, near the station or by the water. Which restaurant would you like, and on which day?"}
]}}
JSON
run 160 48 "${LLM[@]}"
keys "A table for four please" Enter
waitfor "Sure, a table"
# Each resize while the reply streams on: the next words appear at the
# new size before the next resize.
tm resize-window -t g -x 80 -y 24
waitfor "many good" 10
tm resize-window -t g -x 100 -y 30
waitfor "lively" 10
tm resize-window -t g -x 80 -y 24
waitfor "on which day?" 15
settle
check "resizing while streaming re-lays out the screen" golden resize-80x24
keys "/quit" Enter
waitfor "[exit 0]"

# ---- Ctrl-C cancels a turn ----------------------------------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(num_people=3)"},
  {"stage": "respond", "times": 1, "chunk": 2, "chunk_delay": 1, "reply": "Right away, let me see what tables there are for three people tonight."}
]}}
JSON
run 80 24 "${LLM[@]}"
keys "Three people tonight" Enter
waitfor "Right" 10
keys C-c
check "Ctrl-C marks the partial reply interrupted" waitfor "[interrupted]" 5
check "a cancelled turn leaves the state as before" waitfor "cancelled: the state is as it was" 5
keys Tab
check "the worksheet is back to before the turn" waitfor "no task or question yet" 5
keys BTab
waitfor "› Three people tonight"
check "Ctrl-C cancel at 80x24" golden cancel-80x24
keys "/quit" Enter
waitfor "[exit 0]"
check "the cancelled turn is not saved" sh -c "! '$BIN' --list-sessions --sessions '$T/s.db' 2>/dev/null | grep -q 'Three people'"

# ---- wide characters --------------------------------------------------------------------------
script <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "answer(\"sushi\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Cupertino' LIMIT 1"},
  {"stage": "respond", "times": 1, "reply": "東京の寿司はとても美味しいです。私たちの街にも素晴らしい寿司屋があります 🍣🍣 — ぜひ試してみてください。Enjoy your 寿司 dinner 🎉 with friends and family this weekend!"}
]}}
JSON
run 80 24 "${LLM[@]}"
keys "寿司が食べたい 🍣" Enter
waitfor "this weekend!"
settle
check "wide characters wrap inside the pane" golden wide-80x24
keys "日本語" Left
waitfor "› 日本語" 5
cx=$(tm display-message -p -t g '#{cursor_x}')
check "the cursor sits after wide characters (column 6)" sh -c "[ '$cx' = 6 ]"
keys C-u "/quit" Enter
waitfor "[exit 0]"

# ---- emoji joined into one glyph on some terminals ------------------------------------------
# A family emoji is man, ZWJ, woman, ZWJ, girl: tmux draws it as one 2-column
# glyph, xterm as three people.  The screen leaves out the joiners (and
# variation selectors, skin tones), so every terminal draws what was
# measured: the pane's border stays in its column on every line.
FAM=$(printf '\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7')
script <<JSON
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "answer(\\"family\\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE location = 'Cupertino' LIMIT 1"},
  {"stage": "respond", "times": 1, "reply": "Fun for the whole family $FAM$FAM$FAM$FAM$FAM$FAM$FAM$FAM$FAM$FAM and more \u2764\ufe0f \ud83d\udc4d\ud83c\udffd end"}
]}}
JSON
run 100 24 "${LLM[@]}"
keys "family places" Enter
waitfor "end"
settle
border_ok() {
    cap
    python3 - "$T/screen" <<'PY'
import sys, unicodedata
def w(c):
    o = ord(c)
    if o in (0x200d, 0xfe0f, 0xfe0e) or 0x1f3fb <= o <= 0x1f3ff: return 0
    if o >= 0x1f300 or unicodedata.east_asian_width(c) in "WF": return 2
    return 1
cols = set()
for line in open(sys.argv[1], encoding="utf-8").read().split("\n")[:20]:
    col = 0
    for c in line:
        if c == "\u2502":
            cols.add(col)
            break
        col += w(c)
sys.exit(0 if len(cols) == 1 else 1)
PY
}
check "a ZWJ emoji sequence does not push text across the pane border" border_ok
check "... the joiners are not sent to the terminal" sh -c "! grep -q \"\$(printf '\\xe2\\x80\\x8d')\" '$T/screen'"
keys "/quit" Enter
waitfor "[exit 0]"

# ---- multi-line input, paste, editor ---------------------------------------------------------
printf '#!/bin/sh\nprintf "edited in the editor" > "$1"\n' >"$T/ed.sh"
chmod +x "$T/ed.sh"
ENVS+=(VISUAL="$T/ed.sh")
run 80 24 --offline
keys "line one" C-j "line two"
check "Ctrl-J adds a line to the input" waituntil 5 sh -c "tmux -L $SOCK capture-pane -p -t g | grep -q '^› line one' && tmux -L $SOCK capture-pane -p -t g | grep -q '^  line two'"
keys C-u C-h C-u
tm set-buffer -b p "$(printf 'pasted one\npasted two')"
tm paste-buffer -p -b p -t g
check "a bracketed paste keeps its newline and is not sent" waituntil 5 sh -c "tmux -L $SOCK capture-pane -p -t g | grep -q '^› pasted one' && tmux -L $SOCK capture-pane -p -t g | grep -q '^  pasted two'"
keys C-x C-e
check "Ctrl-X Ctrl-E edits the input in \$VISUAL" waitfor "› edited in the editor" 10
keys C-u "/quit" Enter
waitfor "[exit 0]"

# ---- colours -------------------------------------------------------------------------------
run 80 24 --offline
tm capture-pane -e -p -t g >"$T/colour"
coloured() { grep -qE $'\033\\[([0-9;]*;)?(3[0-7]|38;5)[;m]' "$T/colour"; }
check "colours by default" coloured
keys "/quit" Enter
waitfor "[exit 0]"
ENVS+=(NO_COLOR=1)
run 80 24 --offline
tm capture-pane -e -p -t g >"$T/colour"
check "NO_COLOR: no colour" eval '! coloured'
keys "/quit" Enter
waitfor "[exit 0]"
unset 'ENVS[${#ENVS[@]}-1]'

# ---- a sessions file locked by another process, across /reset ----------------------------------
# The turn waits in memory; /reset starts a new conversation; once the
# lock goes, both conversations are saved, each in its own session.
LS=$T/locked-s.db
run 120 30 --offline --sessions "$LS"
keys "SELECT name FROM restaurants WHERE location = 'Palo Alto' LIMIT 1" Enter
waitfor "1 row"
hold_lock "$LS" "$T/lock"
keys "SELECT name FROM restaurants WHERE location = 'Cupertino' LIMIT 1" Enter
check "locked: the screen says the turn waits" waitfor "not saved yet (1 turn waiting" 15
keys "/reset" Enter
waitfor "a new conversation" 10                # /reset done while still locked
rm -f "$T/lock"; wait $LOCK_PID
keys "SELECT name FROM restaurants WHERE location = 'Sunnyvale' LIMIT 1" Enter
waitfor "1 row"
keys "/quit" Enter
waitfor "[exit 0]"
"$BIN" --list-sessions --sessions "$LS" >"$T/ls" 2>&1
check "after the lock: the first conversation has both its turns" grep -q "  2 turns " "$T/ls"
check "... and the one after /reset its own session" grep -q "  1 turn .*Sunnyvale" "$T/ls"

# ---- sizes, signals ----------------------------------------------------------------------------
run 80 24 --offline
tm resize-window -t g -x 20 -y 5
check "a tiny terminal says it is too small" waitfor "terminal too small" 5
tm resize-window -t g -x 80 -y 24
check "back to 80x24 the screen comes back" waitfor "Enter send" 5
# Out-of-range sizes, one after another without waiting, then a normal
# one: genie survives each and draws the normal screen again.
for size in "1 1" "2 200" "400 2" "1 60" "500 200" "31 8" "99 30" "100 30"; do
    tm resize-window -t g -x "${size% *}" -y "${size#* }"
done
tm resize-window -t g -x 80 -y 24
check "after sizes from 1x1 to 500x200 the screen comes back" waitfor "Enter send" 10
keys "/suql SELECT name FROM restaurants LIMIT 1" Enter
check "... and genie still works" waitfor "(1 row)" 10
pid=$(pgrep -f "^([^ ]*valgrind.* )?$BIN .*sessions $T/s.db" | head -1)
kill -SEGV "$pid" 2>/dev/null
check "a fatal signal restores the terminal" waitfor "[tty ok]" 10
run 80 24 --offline
pid=$(pgrep -f "^([^ ]*valgrind.* )?$BIN .*sessions $T/s.db" | head -1)
kill -TERM "$pid" 2>/dev/null
check "SIGTERM ends genie cleanly, exit status 143 (128 + SIGTERM)" waitfor "[exit 143]" 10
check "... with the terminal restored" waitfor "[tty ok]" 5
# The other signals whose default ends a process leave the terminal as it
# was too (they used to leave it on the alternate screen).
for sig in USR1 XFSZ ALRM; do
    run 80 24 --offline
    pid=$(pgrep -f "^([^ ]*valgrind.* )?$BIN .*sessions $T/s.db" | head -1)
    kill -"$sig" "$pid" 2>/dev/null
    check "SIG$sig restores the terminal" waitfor "[tty ok]" 10
done

# ---- valgrind -----------------------------------------------------------------------------------
# A leak or an invalid access counts when one of its frames is in genie's
# own sources (engine/, tui/, config/); the libraries' own are not ours.
if [ "$VALGRIND" = 1 ]; then
    tm kill-server 2>/dev/null
    # Valgrind writes its report as genie exits: wait for the processes.
    waituntil 30 sh -c "! pgrep -f '[l]og-file=$T/vg' >/dev/null"
    "$PY" - "$TOP" "$T"/vg.* >"$T/vg.report" <<'PY'
import os, re, sys
top, logs = sys.argv[1], sys.argv[2:]
ours = set()
for d in ("engine", "tui", "config"):
    for root, _, files in os.walk(os.path.join(top, d)):
        ours.update(f for f in files if f.endswith(".c"))
bad = 0
for log in logs:
    for block in re.split(r"\n==\d+== \n", open(log, errors="replace").read()):
        kind = "definitely lost" in block or re.search(r"Invalid (read|write|free)|uninitialised", block)
        if kind and any(f in ours for f in re.findall(r"\(([\w.]+\.c):\d+\)", block)):
            bad += 1
            print(block[:1500])
print(f"{len(logs)} runs, {bad} problems in genie's code")
PY
    if grep -q " 0 problems" "$T/vg.report"; then
        ok "valgrind: no leak or invalid access in genie's code ($(tail -1 "$T/vg.report"))"
    else
        notok "valgrind: no leak or invalid access in genie's code"
        head -80 "$T/vg.report" | sed 's/^/#   /'
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
