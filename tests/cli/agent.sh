#!/usr/bin/env bash
# agent.sh — the agent in line mode: the scripted conversations of
# tests/agent/*.json (run.py), a crash mid-turn followed by --resume, the
# sessions commands, and the errors of a broken agent directory.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init agent
BIN=${GENIE_BIN:-$TOP/build/genie}
export LC_ALL=C HOME=$T XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; printf '#   %s\n' "$(head -c 600 "$T/out" 2>/dev/null)" "$(head -c 600 "$T/err" 2>/dev/null)"; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else notok "$name"; fi; }
has() { grep -qF -- "$1" "$T/out"; }
errhas() { grep -qF -- "$1" "$T/err"; }
# sqlx DB SCRIPT runs SQL; sqlq DB QUERY prints its rows ('|' between
# columns), through Python's sqlite3 (no sqlite3 command needed).
sqlx() { "$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }

# ---- the scripted conversations -------------------------------------------
out=$("$PY" "$TOP/tests/agent/run.py" "$BIN" "$TOP" "$TOP"/tests/agent/*.json)
printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
last=$(printf '%s\n' "$out" | tail -n1)
p=${last%% passed*}; f=${last#*passed, }; f=${f%% failed*}
pass=$((pass + p)); fail=$((fail + f))

# ---- a crash mid-turn, then --resume ----------------------------------------
cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done
cat >"$T/crash.json" <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "Book_Restaurant(restaurant=\"Papa Nino's Trattoria\")"},
  {"stage": "respond", "times": 1, "reply": "What day would you like?"},
  {"stage": "parse", "times": 1, "reply": "book_restaurant.num_people = 2"},
  {"stage": "respond", "times": 1, "stall": 30, "reply": "never seen"},
  {"stage": "parse", "times": 1, "reply": "book_restaurant.date = \"2026-03-20\""},
  {"stage": "respond", "times": 1, "reply": "How many people?"}
]}}
JSON
start_mock --script "$T/crash.json" || { echo "not ok - mock server"; }
G=("$BIN" --plain --format json --agent restaurants --db "$T/r.db" --today 2026-03-13
   --sessions "$T/s.db" --llm-url "$URL" -m mock --no-cache -q --retries 0)
mkfifo "$T/in"
"${G[@]}" <"$T/in" >"$T/crash.out" 2>"$T/crash.err" &
GP=$!
exec 3>"$T/in"
echo "Book a table at Papa Nino's Trattoria" >&3
for i in $(seq 200); do grep -q '"event":"timings"' "$T/crash.out" && break; sleep 0.05; done
echo "For two people" >&3
# Killed once the second turn's reply is asked for: mid-turn, unsaved.
for i in $(seq 200); do [ "$(grep -c 'X-Genie-Stage.: .respond\|"respond"' "$T/mock.log" 2>/dev/null)" -ge 2 ] && break; sleep 0.05; done
kill -9 $GP 2>/dev/null; wait $GP 2>/dev/null
exec 3>&-
"$BIN" --list-sessions --sessions "$T/s.db" >"$T/out" 2>"$T/err"
check "a crash mid-turn keeps the turns before it" sh -c "grep -q '  1 turn ' '$T/out'"
echo "On the 20th" | "${G[@]}" --resume >"$T/out" 2>"$T/err"
check "--resume continues the saved state" sh -c \
  "grep -q 'AskField(book_restaurant, time' '$T/out' && ! grep -q 'num_people' '$T/out' || grep -q '\"restaurant\":{\"value\":\"Papa Nino' '$T/out'"
check "--resume: the lost turn is not in the state" sh -c "! grep -q '\"num_people\":{\"value\":2' '$T/out'"
check "--resume: the date of the new turn is set" sh -c "grep -q '\"date\":{\"value\":\"2026-03-20\"' '$T/out'"
"$BIN" --list-sessions --sessions "$T/s.db" >"$T/out" 2>"$T/err"
check "--list-sessions shows the resumed session with 2 turns" sh -c "grep -q 'restaurants .* 2 turns  Book a table' '$T/out'"
"$BIN" --export-session 1 --sessions "$T/s.db" >"$T/out" 2>"$T/err"
check "--export-session prints Markdown" has "# Session 1"
check "--export-session shows the user's words" has "Book a table at Papa Nino"
check "--export-session shows the statements" has 'book_restaurant.date = "2026-03-20"'
"$BIN" --export-session 99 --sessions "$T/s.db" >"$T/out" 2>"$T/err"; rc=$?
check "--export-session of an unknown id fails" sh -c "[ $rc = 1 ]"
"$BIN" --resume 1 --agent courses --sessions "$T/s.db" --offline </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "--resume with another agent says which" sh -c "[ $rc = 2 ] && grep -q 'agent restaurants' '$T/err'"
stop_mock

# ---- naming and deleting sessions -------------------------------------------------
S=(--sessions "$T/names.db")
"$BIN" --list-sessions "${S[@]}" >"$T/out" 2>"$T/err"; rc=$?
check "an empty --list-sessions prints nothing on stdout" sh -c "[ $rc = 0 ] && [ ! -s '$T/out' ]"
check "... and says so on stderr" errhas "no saved conversations yet (in $T/names.db)"
for q in "SELECT 1 AS one" "SELECT 2 AS two"; do
    echo "$q" | "$BIN" --plain --offline --db "$T/r.db" "${S[@]}" >/dev/null 2>&1
done
"$BIN" --rename-session 1 "${S[@]}" Dinner on Friday >"$T/out" 2>"$T/err"; rc=$?
check "--rename-session ID TITLE names a session" sh -c "[ $rc = 0 ] && grep -qF 'session 1 is now named \"Dinner on Friday\"' '$T/err'"
"$BIN" --list-sessions "${S[@]}" >"$T/out" 2>"$T/err"
check "--list-sessions shows the name instead of the first words" \
    sh -c "grep -q '^ *1 .*1 turn   Dinner on Friday$' '$T/out' && grep -q '^ *2 .*SELECT 2 AS two$' '$T/out'"
"$BIN" --rename-session 1 "${S[@]}" >"$T/out" 2>"$T/err"
"$BIN" --list-sessions "${S[@]}" >"$T/out" 2>"$T/err"
check "--rename-session ID alone takes the name away" grep -q '^ *1 .*SELECT 1 AS one$' "$T/out"
"$BIN" --delete-session 2 "${S[@]}" >"$T/out" 2>"$T/err"; rc=$?
check "--delete-session ID deletes it" sh -c "[ $rc = 0 ] && grep -q 'session 2 deleted' '$T/err'"
"$BIN" --list-sessions "${S[@]}" >"$T/out" 2>"$T/err"
check "... it is gone from the listing, the other stays" sh -c "! grep -q 'SELECT 2' '$T/out' && grep -q 'SELECT 1' '$T/out'"
check "... and its turns are gone from the file" \
    sh -c "[ \"\$('$PY' -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT count(*) FROM turns WHERE session = 2\").fetchone()[0])' '$T/names.db')\" = 0 ]"
"$BIN" --delete-session 2 "${S[@]}" >"$T/out" 2>"$T/err"; rc=$?
check "--delete-session of no such session fails (status 1)" sh -c "[ $rc = 1 ] && grep -q 'no session 2' '$T/err'"
"$BIN" --delete-session two "${S[@]}" >"$T/out" 2>"$T/err"; rc=$?
check "--delete-session of a word is a usage error" sh -c "[ $rc = 2 ] && grep -q 'is not a session id' '$T/err'"
"$BIN" --list-sessions "${S[@]}" extra >"$T/out" 2>"$T/err"; rc=$?
check "words after another mode are still refused" sh -c "[ $rc = 2 ] && grep -q \"unexpected argument 'extra'\" '$T/err'"

# ---- a question on the command line ------------------------------------------------
"$BIN" --offline --db "$T/r.db" --sessions "$T/s3.db" \
    "SELECT name FROM restaurants WHERE location = 'Cupertino' ORDER BY rating DESC LIMIT 1" \
    </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "genie QUESTION answers once on stdout and exits 0" sh -c "[ $rc = 0 ] && grep -q 'found 1 result' '$T/out'"
check "... without the greeting" sh -c "! grep -q 'Hi! I can help' '$T/out'"
"$BIN" --offline --db "$T/r.db" --sessions "$T/s3.db" SELECT count "(*)" FROM restaurants \
    </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "... the words of the question may be separate arguments" sh -c "[ $rc = 0 ] && grep -q '1800' '$T/out'"
CLOSED=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" --db "$T/r.db" --sessions "$T/s3.db" --llm-url "http://127.0.0.1:$CLOSED/v1" --retries 0 \
    "quiet Thai places?" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "... and exits 1 when the turn failed (an LLM that is not there)" sh -c "[ $rc = 1 ]"
"$BIN" --offline --db "$T/r.db" --sessions "$T/s3.db" --resume "SELECT 5 AS five" \
    </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "--resume before a question: the question keeps its words, the last session goes on" \
    sh -c "[ $rc = 0 ] && grep -q 'five 5' '$T/out' && grep -q 'resumed session' '$T/err'"
check "... and only the answer is on stdout (not the last reply again)" sh -c "! grep -q '1800' '$T/out'"

# ---- text mode -----------------------------------------------------------------
printf '%s\n' "SELECT name FROM restaurants WHERE location = 'Cupertino' ORDER BY rating DESC LIMIT 1" |
  "$BIN" --plain --offline --db "$T/r.db" --sessions "$T/s2.db" >"$T/out" 2>"$T/err"; rc=$?
check "text mode prints the greeting and a reply" sh -c "[ $rc = 0 ] && grep -q '^Hi! I can help you find a restaurant' '$T/out' && grep -q 'found 1 result' '$T/out'"
check "text mode says it is offline" errhas "offline"

# ---- broken agents ----------------------------------------------------------------
mkdir -p "$T/bad"
cp "$TOP/sample_db/restaurants/"* "$T/bad/"
sed -i 's/^database = .*/database = r.db/' "$T/bad/agent.ini"
cp "$T/r.db" "$T/bad/r.db"
sed -i 's/,input,int,num_people,/,input,integr,num_people,/' "$T/bad/worksheet.csv"
"$BIN" --plain --offline --agent "$T/bad" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a spec with an unknown type does not start" sh -c "[ $rc != 0 ]"
check "the error names the file, line and column" sh -c "grep -q 'worksheet.csv:8:5:' '$T/err'"
check "the error says what is wrong" errhas "integr"
# A FIFO where a spec file belongs would block the start for a writer
# that never comes (and Ctrl-C with it): it is refused at once.
mkdir -p "$T/fifo"
cp "$T/bad/"* "$T/fifo/"
cp "$TOP/sample_db/restaurants/worksheet.csv" "$T/fifo/"
rm "$T/fifo/apis.ini" && mkfifo "$T/fifo/apis.ini"
timeout 20 "$BIN" --plain --offline --agent "$T/fifo" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a FIFO as apis.ini: refused at once, named" sh -c "[ $rc = 1 ] && grep -q 'apis.ini: is a FIFO, not a file' '$T/err'"
# A database that is a FIFO (a read would wait for ever) or a device.
mkfifo "$T/fifo/kb.db"
sed -i 's|^database = .*|database = kb.db|' "$T/fifo/agent.ini"
rm "$T/fifo/apis.ini" && cp "$TOP/sample_db/restaurants/apis.ini" "$T/fifo/"
timeout 20 "$BIN" --plain --offline --agent "$T/fifo" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a FIFO as the database: refused at once" sh -c "[ $rc = 1 ] && grep -q 'kb.db: not a regular file, so not a database' '$T/err'"
sed -i 's|^database = .*|database = /dev/zero|' "$T/fifo/agent.ini"
timeout 20 "$BIN" --plain --offline --agent "$T/fifo" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "/dev/zero as the database: not a regular file, not 'no table'" sh -c "[ $rc = 1 ] && grep -q '/dev/zero: not a regular file' '$T/err'"
# A binary agent.ini: its bytes are not echoed raw (0x9b is CSI to some terminals).
mkdir -p "$T/bin"
printf 'database \x85\x9b\xff = 1\n' >"$T/bin/agent.ini"
"$BIN" --plain --offline --agent "$T/bin" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"
check "invalid bytes of a file in an error are shown as U+FFFD" sh -c "! LC_ALL=C grep -q \$'[\x85\x9b\xff]' '$T/err' && grep -q 'agent.ini' '$T/err'"
# A worksheet.csv that is a symbolic link loop is said to be one, not "does not exist".
mkdir -p "$T/loop"
cp "$TOP/sample_db/restaurants/"* "$T/loop/"
rm "$T/loop/worksheet.csv" && ln -s worksheet.csv "$T/loop/worksheet.csv"
"$BIN" --plain --offline --agent "$T/loop" --sessions "$T/s3.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a symbolic link loop as the spec: said so" sh -c "[ $rc = 1 ] && grep -q 'worksheet.csv: cannot open: Too many levels of symbolic links' '$T/err'"
"$BIN" --plain --offline --agent nosuchagent </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "an unknown agent name is an error naming the shipped ones" sh -c "[ $rc = 1 ] && grep -q 'restaurants, courses' '$T/err'"

# ---- an agent of one's own: the schema comes from its db worksheets ------------
mkdir -p "$T/books"
sqlx "$T/books/my.db" "CREATE TABLE books(_id INTEGER PRIMARY KEY, title TEXT, genre TEXT, blurb TEXT);
  INSERT INTO books(title, genre, blurb) VALUES ('Dune', 'scifi', 'A desert planet and a boy who becomes a prophet.'),
  ('Emma', 'romance', 'A matchmaker in a small English village meddles.');"
printf '[agent]\ndatabase = my.db\ninit_sql = init.sql\n' >"$T/books/agent.ini"
cat >"$T/books/worksheet.csv" <<'CSV'
Form Predicate,Form Name,Predicate,Kind,Type,Name,Enum Values,Description,Don't Ask,Required,Confirm,Actions,Form Actions
,Reserve,,,worksheet,reserve,,Reserve a book.,,,,,
,,,input,str,title,,title of the book,,TRUE,,,
,,,input,confirm,confirm,,the user agrees,,TRUE,,,
,books,,,db,,,Books.,,,,,
,,,internal; primary,str,title,,Title.,,,,,
,,,internal,Enum,genre,,Genre.,,,,,
,,,,,,scifi,,,,,,
,,,,,,romance,,,,,,
,,,internal,text,blurb,,What the book is about.,,,,,
CSV
printf '[reserve]\nsql = INSERT INTO reservations(txn_id, title) VALUES (:txn_id, :title)\n' >"$T/books/apis.ini"
echo "CREATE TABLE IF NOT EXISTS reservations(txn_id TEXT PRIMARY KEY, title TEXT);" >"$T/books/init.sql"
printf '%s\n' "SELECT title FROM books WHERE genre = 'scifi'" 'Reserve(title="Dune")' 'reserve.confirm = True' |
  "$BIN" --agent "$T/books" --plain --offline --sessions "$T/s4.db" >"$T/out" 2>"$T/err"; rc=$?
ft=$(sqlq "$T/books/my.db" "SELECT free_text FROM genie_columns WHERE col = 'blurb'")
booked=$(sqlq "$T/books/my.db" "SELECT title FROM reservations")
check "an own agent's database is described from its db worksheets" sh -c \
  "[ $rc = 0 ] && grep -q 'described 1 table' '$T/err' && [ '$ft' = 1 ]"
check "an own agent answers from its table" has "- Dune"
check "an own agent's API writes its row" [ "$booked" = Dune ]
sqlx "$T/books/other.db" "CREATE TABLE books(title TEXT, genre TEXT, blurb TEXT);"
"$BIN" --agent "$T/books" --db "$T/books/other.db" --plain --offline --sessions "$T/s4.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a table without _id is an error naming the spec line" sh -c "[ $rc != 0 ] && grep -q 'worksheet.csv:5:.*_id INTEGER PRIMARY KEY' '$T/err'"
# A broken statement in apis.ini is found when the agent starts, at its
# line, not after the user confirmed.
printf '[reserve]\nsql = INSERT INTO reservatons(txn_id, title) VALUES (:txn_id, :title)\n' >"$T/books/apis.ini"
"$BIN" --agent "$T/books" --plain --offline --sessions "$T/s4.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "a broken API statement is an error at start naming apis.ini's line" sh -c \
  "[ $rc = 1 ] && grep -q 'apis.ini:1: API reserve: no such table: reservatons' '$T/err'"
# A statement of its own that ends the call's transaction is refused at
# start too: genie opens and commits it.
printf '[reserve]\nsql = INSERT INTO reservations(txn_id, title) VALUES (:txn_id, :title); /* done */ commit; INSERT INTO reservations(txn_id, title) VALUES (:txn_id, :title)\n' >"$T/books/apis.ini"
"$BIN" --agent "$T/books" --plain --offline --sessions "$T/s4.db" </dev/null >"$T/out" 2>"$T/err"; rc=$?
check "an API that commits on its own is an error at start naming apis.ini's line" sh -c \
  "[ $rc = 1 ] && grep -q 'apis.ini:1: API reserve: COMMIT is not allowed' '$T/err'"
printf '[reserve]\nsql = INSERT INTO reservations(txn_id, title) VALUES (:txn_id, :title)\n' >"$T/books/apis.ini"

# ---- the LLM cache answers for its own endpoint only --------------------------
cat >"$T/cache.json" <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "reply": "Book_Restaurant(restaurant=\"Bella Forno\")"},
  {"stage": "respond", "reply": "Which day would you like?"}
]}}
JSON
kill "$MOCK_PID" 2>/dev/null; wait "$MOCK_PID" 2>/dev/null
start_mock --script "$T/cache.json" || echo "not ok - mock server"
C=(--plain --format json --agent restaurants --db "$T/r.db" --today 2026-03-13 --sessions "$T/s5.db" -m mock -q
   --retries 0 --stage 'parse.temperature=0,respond.temperature=0')
echo "Book a table at Bella Forno" | "$BIN" "${C[@]}" --llm-url "$URL" >"$T/out" 2>"$T/err"
n1=$(grep -c '"route"' "$T/mock.log" 2>/dev/null || echo 0)
echo "Book a table at Bella Forno" | "$BIN" "${C[@]}" --llm-url "$URL" >"$T/out" 2>"$T/err"
n2=$(grep -c '"route"' "$T/mock.log" 2>/dev/null || echo 0)
check "the same turn again is answered from the cache" sh -c "[ $n1 -ge 2 ] && [ $n2 = $n1 ] && grep -q 'AskField(book_restaurant, date' '$T/out'"
echo "Book a table at Bella Forno" | "$BIN" "${C[@]}" --llm-url "http://127.0.0.1:9/v1" >"$T/out" 2>"$T/err"
check "another endpoint is not answered from that cache" sh -c \
  "grep -q '\"event\":\"error\",\"stage\":\"parse\"' '$T/out' && ! grep -q 'AskField(book_restaurant, date' '$T/out'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
