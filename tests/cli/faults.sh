#!/usr/bin/env bash
# faults.sh — fault injection against a live conversation in line mode
# (--plain --format json, one genie process fed through a FIFO):
#   the LLM server dying mid-stream, killed and back on the same port,
#   answering 500 forever, taking minutes for the first byte, returning
#   10 MB; the sessions file locked by another process, read-only, on a
#   full file system (a 512 KB tmpfs; skipped where nothing can mount one),
#   corrupt or truncated; the knowledge base's vector file truncated.
# Each must give a clear message, keep the conversation going and lose no
# committed turn.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init faults
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C HOME=$T XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache
# has_last KIND TEXT: the last event of KIND contains TEXT (a regex).
has_last() { grep "\"event\":\"$1\"" "$T/out" | tail -n1 | grep -q -- "$2"; }
# The events of the last turn that ended (after the timings event before it).
last_turn_events() { awk '/"event":"timings"/ { prev = cur; cur = "" } { cur = cur $0 "\n" } END { printf "%s", prev }' "$T/out"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
# one_turn SESSIONS [COMMAND PREFIX...]: a one-turn conversation ("hello")
# in its own genie process, saving to SESSIONS; status in $T/rc.
one_turn() {
    local s=$1; shift
    printf 'hello\n' | "$@" "$BIN" --plain --agent restaurants --db "$T/r.db" --today 2026-03-13 \
        --sessions "$s" --llm-url "$URL" -m mock --no-cache >"$T/out" 2>"$T/err"
    echo $? >"$T/rc"
}
# soon FILE REGEX: FILE has a line matching REGEX within 10 s (a turn's
# saving, and its warning, come after its last event).
soon() { local i; for i in $(seq 200); do grep -q -- "$2" "$1" && return 0; sleep 0.05; done; return 1; }

start_mock || { notok "mock server starts"; finish; }
cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done

# script JSON: the mock's rules from now on.
GOOD='{"chat": [{"stage": "parse", "reply": "answer(\"Italian places in Palo Alto\")"},
  {"stage": "kb_parse", "reply": "SELECT name FROM restaurants WHERE location = '"'"'Palo Alto'"'"' LIMIT 2;"},
  {"stage": "respond", "reply": "Two places came up."}]}'

# gstart ARGS...: genie in line mode reading $T/in; gsay TEXT: one turn,
# waiting for its end (a "timings" event, or an error line in JSON);
# gstop: end of input, wait for the exit status (in $T/rc).
gstart() {
    rm -f "$T/in" "$T/out" "$T/err"
    mkfifo "$T/in"
    "$BIN" --plain --format json --agent restaurants --db "$T/r.db" --today 2026-03-13 \
        --llm-url "$URL" -m mock --no-cache -q "$@" <"$T/in" >"$T/out" 2>"$T/err" &
    GP=$!
    exec 3>"$T/in"
}
# (0 before genie has even opened its output: the job starts in the background)
turns_done() { local n; n=$(grep -c '"event":"timings"' "$T/out" 2>/dev/null); echo "${n:-0}"; }
gsay() {
    local before; before=$(turns_done)
    echo "$1" >&3
    local i
    for i in $(seq 600); do
        [ "$(turns_done)" -gt "$before" ] && return 0
        kill -0 "$GP" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
gstop() { exec 3>&-; wait "$GP"; echo $? >"$T/rc"; }
saved_turns() { sqlq "$1" "SELECT group_concat(user, '|') FROM (SELECT user FROM turns ORDER BY session, n)"; }

# ---- the LLM server ----------------------------------------------------------
script "$GOOD"
gstart --sessions "$T/s1.db" --retries 1 --retry-max-wait 0.1 --stall-timeout 1
check "a first turn works" gsay "one"
script '{"chat": [{"stage": "parse", "reply": "answer(\"x\")"},
  {"stage": "kb_parse", "reply": "SELECT name FROM restaurants LIMIT 1;"},
  {"stage": "respond", "reply": "a long reply that the server will cut off in the middle", "chunk": 4, "drop_after": 3}]}'
check "dying mid-stream: the turn ends" gsay "two"
check "dying mid-stream: the error names the stage" has_last error '"stage":"respond"'
check "dying mid-stream: a reply all the same" has_last response "."

stop_mock
check "server gone: the turn ends" gsay "three"
check "server gone: says the request failed" has_last error "request to .* failed: .*onnect"
# The parse's retries found nobody: the reply is not retried all over again.
respond_quiet() { ! last_turn_events | grep '"event":"\(retry\|error\)"' | grep -q '"stage":"respond"'; }
check "server gone: the reply is not asked of it again" respond_quiet
check "server gone: the templates answer" has_last response "the language model did not answer"
start_mock --port "$PORT" 3>&- || notok "the mock comes back on port $PORT"
script "$GOOD"
check "server back: the next turn works" gsay "four"
check "server back: its reply" has_last response "Two places came up"

script '{"chat": [{"status": 500, "error_message": "the model is on fire"}]}'
check "500 forever: a turn ends" gsay "five"
check "500 forever: another turn ends" gsay "six"
check "500 forever: the error names the status" has_last error "HTTP 500.*the model is on fire"

script '{"chat": [{"stage": "parse", "first_byte_delay": 120}, {"stage": "respond", "reply": "ok"}]}'
t0=$(date +%s)
check "2 minutes to the first byte: the turn ends" gsay "seven"
t1=$(date +%s)
check "2 minutes to the first byte: given up after the stall timeout" lt $((t1 - t0)) 60
check "2 minutes to the first byte: says so" has_last error "stall timeout"

# A slow but live head: the status line and headers come 16 bytes every
# 0.15 s, one header line taking 2 s, twice the stall timeout.  Bytes
# arrive all along, so the call is not stalled.
PAD=$(printf 'x%.0s' $(seq 300))
script '{"chat": [{"stage": "parse", "head_trickle": 0.15, "headers": {"X-Pad": "'$PAD'"},
   "reply": "answer(\"Italian places in Palo Alto\")"}, {"stage": "kb_parse", "reply": "SELECT name FROM restaurants LIMIT 2;"},
   {"stage": "respond", "reply": "Two places came up."}]}'
check "a header trickled for 3 s: the turn ends" gsay "trickle"
check "a header trickled for 3 s: not cut as a stall" has_last statements "Italian places in Palo Alto"
check "a header trickled for 3 s: answered" has_last response "Two places came up"
# Bytes further apart than the stall timeout are a stall all the same.
script '{"chat": [{"stage": "parse", "head_trickle": 5, "reply": "pass"}, {"stage": "respond", "reply": "ok"}]}'
t0=$(date +%s)
check "a head with 5 s between pieces: the turn ends" gsay "trickle slower"
t1=$(date +%s)
check "a head with 5 s between pieces: given up as a stall" has_last error "stall timeout"
check "a head with 5 s between pieces: soon" lt $((t1 - t0)) 15

# Keep-alives alone (comments, empty deltas, unknown fields) for 5 minutes:
# each byte resets the stall clock, but no content within twice the stall
# timeout ends the call.
for ka in comment empty unknown; do
    script '{"chat": [{"stage": "parse", "stall": 300, "ping": 0.1, "keepalive": "'$ka'", "reply": "pass"},
      {"stage": "respond", "reply": "ok"}]}'
    t0=$(date +%s)
    check "keep-alives ($ka) for 5 minutes: the turn ends" gsay "keepalive $ka"
    t1=$(date +%s)
    check "keep-alives ($ka): given up without content for twice the stall timeout" lt $((t1 - t0)) 30
    check "keep-alives ($ka): says so" has_last error "only keep-alives"
done

script '{"chat": [{"stage": "parse", "huge": 10000000}, {"stage": "respond", "huge": 10000000}]}'
sz0=$(stat -c %s "$T/out")
check "10 MB replies: the turn ends" gsay "eight"
sz1=$(stat -c %s "$T/out")
check "10 MB replies: cut, not printed whole" lt $((sz1 - sz0)) 2000000
check "10 MB replies: the error says why" grep -q "the reply passed 65536 bytes" "$T/out"

# A response header past curl's limit (100 KB a line): curl calls it "Out
# of memory"; the error says what it was.
BIG=$(printf 'x%.0s' $(seq 120000))
script '{"chat": [{"stage": "parse", "headers": {"X-Pad": "'$BIG'"}, "reply": "pass"}, {"stage": "respond", "reply": "ok"}]}'
check "a 120 KB response header: the turn ends" gsay "big header"
check "a 120 KB response header: named, not called out of memory" has_last error "the response's header is larger than curl accepts"

script "$GOOD"
check "after all that: a normal turn" gsay "nine"
gstop
check "exit status 0" rc_is 0
check "every turn is saved, in order" eq "$(saved_turns "$T/s1.db")" "one|two|three|four|five|six|seven|trickle|trickle slower|keepalive comment|keepalive empty|keepalive unknown|eight|big header|nine"
check "a cut 10 MB reply is not saved whole" lt "$(sqlq "$T/s1.db" "SELECT max(length(response)) FROM turns")" 200000

# ---- the sessions file -------------------------------------------------------
script "$GOOD"
gstart --sessions "$T/s2.db"
gsay "before the lock"
hold_lock "$T/s2.db" "$T/locked"
check "locked: a turn ends" gsay "locked one"
check "locked: says the turn waits" soon "$T/err" "not saved yet (1 turn waiting.*locked"
check "locked: another turn ends" gsay "locked two"
check "locked: two turns wait" soon "$T/err" "not saved yet (2 turns waiting"
rm -f "$T/locked"
wait $LOCK_PID
check "unlocked: a turn ends" gsay "after the lock"
gstop
check "locked: nothing lost, in order" eq "$(saved_turns "$T/s2.db")" "before the lock|locked one|locked two|after the lock"

# Read-only: as an unprivileged user where the tests run as root (root
# writes read-only files).
cp "$T/s2.db" "$T/ro.db"
chmod 444 "$T/ro.db"
as_user=()
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1; then
        chmod 755 "$T"; chmod 644 "$T"/r.db*
        as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent)
    fi
fi
if [ "$(id -u)" = 0 ] && [ ${#as_user[@]} -eq 0 ]; then
    skip "read-only sessions file" "running as root without setpriv"
else
    one_turn "$T/ro.db" "${as_user[@]}"
    check "read-only: exit status 0" rc_is 0
    check "read-only: says conversations will not be saved, and why" grep -q "conversations will not be saved: $T/ro.db is read-only for you" "$T/err"
    check "read-only: the turn is answered" grep -q "Two places came up" "$T/out"
    check "read-only: the file keeps its turns" eq "$(saved_turns "$T/ro.db")" "before the lock|locked one|locked two|after the lock"
    # Saved conversations stay readable: in a directory we may not write
    # (a WAL file without its -shm) and in one we may.
    mkdir -p "$T/rw"; chmod 777 "$T/rw"; cp -p "$T/ro.db" "$T/rw/ro.db"
    for f in "$T/ro.db" "$T/rw/ro.db"; do
        w=dir; [ "$f" = "$T/ro.db" ] || w=file
        sum0=$(cksum <"$f")
        "${as_user[@]}" "$BIN" --list-sessions --sessions "$f" >"$T/out" 2>"$T/err"
        echo $? >"$T/rc"
        check "read-only ($w): --list-sessions exits 0" rc_is 0
        check "read-only ($w): --list-sessions lists the conversation" grep -q "restaurants .* 4 turns  before the lock" "$T/out"
        "${as_user[@]}" "$BIN" --export-session 1 --sessions "$f" >"$T/out" 2>"$T/err"
        check "read-only ($w): --export-session shows its turns" grep -q "locked two" "$T/out"
        printf 'hello\n' | "${as_user[@]}" "$BIN" --plain --agent restaurants --db "$T/r.db" --today 2026-03-13 \
            --sessions "$f" --resume=1 --llm-url "$URL" -m mock --no-cache >"$T/out" 2>"$T/err"
        echo $? >"$T/rc"
        check "read-only ($w): --resume exits 0" rc_is 0
        check "read-only ($w): --resume resumes" grep -q "resumed session 1 (4 turns)" "$T/err"
        check "read-only ($w): --resume says the new turns will not be saved" grep -q "is read-only for you" "$T/err"
        check "read-only ($w): the resumed conversation goes on" grep -q "Two places came up" "$T/out"
        check "read-only ($w): the file is untouched" eq "$(cksum <"$f")" "$sum0"
    done
fi

# Full: a 512 KB tmpfs (root, or a user namespace where unprivileged ones
# are allowed).
FULL=$T/full
mkdir -p "$FULL"
mounted=
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=512k tmpfs "$FULL" 2>/dev/null; then
    mounted=1
fi
if [ -z "$mounted" ]; then
    skip "full file system" "cannot mount a tmpfs here"
else
    gstart --sessions "$FULL/s.db"
    gsay "full one"
    dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null
    check "full: a turn ends" gsay "full two"
    check "full: says the disk is full and the turn waits" soon "$T/err" "not saved yet (1 turn waiting.*the disk is full"
    check "full: another turn ends" gsay "full three"
    rm -f "$FULL/filler"
    check "space again: a turn ends" gsay "full four"
    gstop
    check "full: nothing lost, in order" eq "$(saved_turns "$FULL/s.db")" "full one|full two|full three|full four"
    # Full from the start: no sessions file can be made yet; the turns
    # wait and are saved once there is space.
    dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null
    gstart --sessions "$FULL/s0.db"
    check "full at start: says the disk is full and that turns wait" soon "$T/err" "not saved yet: $FULL/s0.db: the disk is full; turns wait"
    check "full at start: a turn ends" gsay "start one"
    check "full at start: the turn waits" soon "$T/err" "not saved yet (1 turn waiting.*the disk is full"
    rm -f "$FULL/filler"
    check "full at start, space again: a turn ends" gsay "start two"
    gstop
    check "full at start: exit status 0" rc_is 0
    check "full at start: nothing lost, in order" eq "$(saved_turns "$FULL/s0.db")" "start one|start two"
    # Full to the end: the exit status and the last words say what is lost.
    rm -f "$FULL"/s0.db*
    dd if=/dev/zero of="$FULL/filler" bs=4k 2>/dev/null
    one_turn "$FULL/s0.db"
    check "full to the end: exit status 1" rc_is 1
    check "full to the end: says the turn is lost, and why" grep -q "1 turn could not be saved: $FULL/s0.db: the disk is full" "$T/err"
    rm -f "$FULL/filler"
    umount "$FULL"
fi

# Corrupt: not SQLite, and a SQLite file cut short.  The conversation goes
# on unsaved; the file is left as it was.
head -c 8192 /dev/urandom >"$T/junk.db"
cp "$T/s2.db" "$T/cut.db"
truncate -s 5000 "$T/cut.db"
for f in junk cut; do
    sum0=$(cksum <"$T/$f.db")
    one_turn "$T/$f.db"
    check "corrupt ($f): exit status 0" rc_is 0
    check "corrupt ($f): says why nothing is saved" grep -q "conversations will not be saved: $T/$f.db: " "$T/err"
    check "corrupt ($f): the turn is answered" grep -q "Two places came up" "$T/out"
    check "corrupt ($f): the file is untouched" eq "$(cksum <"$T/$f.db")" "$sum0"
done
"$BIN" --list-sessions --sessions "$T/cut.db" >"$T/out" 2>"$T/err"
echo $? >"$T/rc"
check "corrupt: --list-sessions exits 1" rc_is 1
check "corrupt: --list-sessions says damaged" grep -q "^genie: $T/cut.db: damaged" "$T/err"
check "corrupt: the message names the file once" eq "$(grep -o "$T/cut.db" "$T/err" | wc -l)" 1

# ---- two genies resume one conversation --------------------------------------
# Both load its 2 turns; the first saves turn 3; the second's turn 3 then
# goes on as a new session holding turns 1-2 and its own (none is lost).
O=(--agent restaurants --db "$T/r.db" --offline --plain --sessions "$T/two.db")
printf '%s\n' "SELECT name FROM restaurants LIMIT 1" "SELECT name FROM restaurants LIMIT 2" |
    "$BIN" "${O[@]}" >/dev/null 2>&1
rm -f "$T/fifo"; mkfifo "$T/fifo"
"$BIN" "${O[@]}" --resume=1 <"$T/fifo" >"$T/outB" 2>"$T/errB" &
pb=$!
exec 4>"$T/fifo"
for _ in $(seq 100); do grep -q "resumed session 1" "$T/errB" 2>/dev/null && break; sleep 0.05; done
printf '%s\n' "SELECT name FROM restaurants LIMIT 3" | "$BIN" "${O[@]}" --resume=1 >"$T/outA" 2>"$T/errA"
echo "SELECT name FROM restaurants LIMIT 4" >&4
exec 4>&-
wait "$pb"; echo $? >"$T/rc"
check "two genies resume one conversation: the second exits 0" rc_is 0
check "... and says its conversation goes on as session 2" grep -q "another genie saved turn 3 of session 1 first: this conversation goes on as session 2" "$T/errB"
check "... session 1 has the first genie's 3 turns" eq "$(sqlq "$T/two.db" "SELECT count(*) FROM turns WHERE session = 1")" 3
check "... session 2 has turns 1-2 and the second genie's turn 3" \
    eq "$(sqlq "$T/two.db" "SELECT group_concat(n || ':' || substr(user, 36), ',') FROM (SELECT * FROM turns WHERE session = 2 ORDER BY n)")" "1:1,2:2,3:4"

# ---- the vector file ---------------------------------------------------------
truncate -s -100 "$T/r.db.vec"
script "$GOOD"
one_turn "$T/s3.db"
check "truncated vectors: exit status 0" rc_is 0
check "truncated vectors: detected and rebuilt" grep -q "vector file is truncated; rebuilding" "$T/err"
check "truncated vectors: the turn is answered" grep -q "Two places came up" "$T/out"
# A body damaged behind a valid header: garbage row ids must not become
# rows that do not exist.
"$PY" -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(512 + 8 * 5); f.write(b"\xff" * 4000); f.close()' "$T/r.db.vec"
"$BIN" --db "$T/r.db" --search "quiet patio" >"$T/out" 2>"$T/err"
check "damaged row ids in the vectors: detected and rebuilt" grep -q "r.db.vec is damaged (its row ids do not match the passages); rebuilding" "$T/err"
check "damaged row ids in the vectors: only rows that exist" sh -c "! grep -q '_id=-\|_id=[0-9]\{5,\}' '$T/out' && grep -q '_id=' '$T/out'"
finish
