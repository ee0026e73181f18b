#!/usr/bin/env bash
# crash.sh — a booking survives kill -9 without being made twice, even
#   when the resumed conversation confirms turns later; a new history
#   (the sessions file deleted) never collides with an old one.
#   A loop of conversations, each killed with SIGKILL at a random moment
#   while the reply to "yes" streams (the reservation is written, its turn
#   not yet saved), then resumed with --resume and confirmed again: every
#   conversation ends with exactly one reservation, the one the resumed
#   turn reports and saves (no duplicate, no orphan), and the resume says
#   what ran before genie stopped.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN, CRASH_ROUNDS (default 6).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init crash
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache XDG_STATE_HOME=$T/state
mkdir -p "$HOME"
ROUNDS=${CRASH_ROUNDS:-6}

for x in "" .faiss .vec .lex; do cp "$TOP/sample_db/restaurants.db$x" "$T/r.db$x"; done
start_mock || { notok "the mock server starts"; finish; }
G=(--plain --format json --agent restaurants --db "$T/r.db" --sessions "$T/s.db" --today 2026-03-13
   --llm-url "$URL" -m mock --no-cache --retries 0)
booked() { sqlq "$T/r.db" "SELECT count(*) FROM reservations" 2>/dev/null || echo 0; }

# responds N FILE: FILE has N "respond" stage events.
responds() { [ "$(grep -c '"stage":"respond"}' "$2" 2>/dev/null)" -ge "$1" ]; }

# book_and_kill PEOPLE DATE WAIT OUT ERR: a conversation whose turn 1
# asks for the go-ahead and whose turn 2's reply streams slowly; genie is
# killed with SIGKILL WAIT seconds into that reply (the reservation
# written, its turn not saved).  True when the kill found genie running.
book_and_kill() {
    script '{"chat": [
      {"stage": "parse", "times": 1, "reply": "Book_Restaurant(restaurant=\"Papa Nino'"'"'s Trattoria\", num_people='$1', date=\"'$2'\", time=\"19:00\")"},
      {"stage": "parse", "reply": "book_restaurant.confirm = True"},
      {"stage": "respond", "times": 1, "reply": "Shall I book it?"},
      {"stage": "respond", "reply": "Your table is booked, see you then.", "stall": 6, "ping": 0.1}]}'
    rm -f "$T/in" "$4"
    mkfifo "$T/in"
    "$BIN" "${G[@]}" <"$T/in" >"$4" 2>"$5" &
    local gp=$! ok=1
    exec 3>"$T/in"
    echo "book it" >&3
    for _ in $(seq 200); do responds 1 "$4" && grep -q '"event":"timings"' "$4" && break; sleep 0.05; done
    echo "yes" >&3
    for _ in $(seq 200); do responds 2 "$4" && break; sleep 0.05; done
    sleep "$3"
    kill -9 "$gp" 2>/dev/null || ok=0
    wait "$gp" 2>/dev/null
    exec 3>&-
    [ $ok = 1 ]
}

dups=0 orphans=0 killed=0 noted=0 replayed=0
for round in $(seq "$ROUNDS"); do
    before=$(booked)
    # a random moment while the reply streams (0 to 0.9 s into it)
    book_and_kill $((round + 1)) 2026-03-20 "0.$((RANDOM % 10))" "$T/o$round" "$T/e$round" &&
        killed=$((killed + 1))
    [ "$(booked)" -eq $((before + 1)) ] || { echo "# round $round: $(booked) reservations after the kill, $before before"; }
    # Resumed: the go-ahead again.
    script '{"chat": [{"stage": "parse", "reply": "book_restaurant.confirm = True"},
      {"stage": "respond", "reply": "Your table is booked."}]}'
    printf 'yes\n' | "$BIN" "${G[@]}" --resume >"$T/r$round" 2>"$T/re$round"
    after=$(booked)
    [ "$after" -eq $((before + 1)) ] || dups=$((dups + after - before - 1))
    grep "before genie stopped, book_restaurant (" "$T/re$round" | grep -q "restaurant: .*; transaction .*) ran in a turn that was not saved: it was done" && noted=$((noted + 1))
    # The reservation written before the kill is the one the resumed turn
    # reports and saves.
    txn=$(sqlq "$T/r.db" "SELECT txn_id FROM reservations ORDER BY rowid DESC LIMIT 1")
    grep -q "$txn" "$T/r$round" && replayed=$((replayed + 1))
done
# Every reservation is recorded by a saved turn.
for txn in $(sqlq "$T/r.db" "SELECT txn_id FROM reservations"); do
    n=$(sqlq "$T/s.db" "SELECT count(*) FROM turns WHERE state LIKE '%$txn%' OR acts LIKE '%$txn%'")
    [ "$n" -gt 0 ] || orphans=$((orphans + 1))
done

loop_booked=$(booked)
# Killed after the booking was written; resumed, the user first asks
# something else, and only then says yes: the lost call is found in any
# later turn, not only the next one.
before=$(booked)
book_and_kill 9 2026-03-21 0.3 "$T/ol" "$T/el"
script '{"chat": [
  {"stage": "parse", "times": 1, "reply": "answer(\"is there parking at Papa Nino'"'"'s Trattoria\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name FROM restaurants WHERE name = '"'"'Papa Nino'"''"'s Trattoria'"'"'"},
  {"stage": "parse", "reply": "book_restaurant.confirm = True"},
  {"stage": "respond", "reply": "Here you go."}]}'
printf 'is there parking?\nyes\n' | "$BIN" "${G[@]}" --resume >"$T/rl" 2>"$T/rel"
check "killed after booking, resumed, another question first, then yes: still one reservation" \
  eq "$(booked)" $((before + 1))
txn=$(sqlq "$T/r.db" "SELECT txn_id FROM reservations ORDER BY rowid DESC LIMIT 1")
check "... and the later yes reports the booking made before the kill" grep -q "$txn" "$T/rl"

# A new history (the sessions file deleted, its ids starting again) making
# the same booking books it: it is not told "booked" with the old id.
# (Session 1 of the deleted file made this booking, round 1, in its turn 2.)
rm -f "$T/s.db"
script '{"chat": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(restaurant=\"Papa Nino'"'"'s Trattoria\", num_people=2, date=\"2026-03-20\", time=\"19:00\")"},
  {"stage": "parse", "reply": "book_restaurant.confirm = True"},
  {"stage": "respond", "reply": "Done."}]}'
before=$(booked)
printf 'book it\nyes\n' | "$BIN" "${G[@]}" >"$T/nh" 2>"$T/enh"
check "a new history's same booking is written, not answered from an old one's record" \
  eq "$(booked)" $((before + 1))
new=$(sqlq "$T/r.db" "SELECT txn_id FROM reservations ORDER BY rowid DESC LIMIT 1")
check "... with its own id" sh -c "[ '$new' != '$txn' ] && grep -q '$new' '$T/nh'"

check "$ROUNDS conversations killed with SIGKILL while the booking's reply streamed" eq "$killed" "$ROUNDS"
check "one reservation per conversation ($loop_booked)" eq "$loop_booked" "$ROUNDS"
check "no duplicate reservation" eq "$dups" 0
check "no orphan: every reservation is in a saved turn" eq "$orphans" 0
check "the resumed turn reports the booking made before the kill" eq "$replayed" "$ROUNDS"
check "the resume says what ran before genie stopped" eq "$noted" "$ROUNDS"
finish
