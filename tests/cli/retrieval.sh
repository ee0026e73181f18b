#!/usr/bin/env bash
# retrieval.sh — the retrieval commands of build/genie, end to end: --reindex,
# --search, staleness and automatic rebuilds, broken inputs, usage errors,
# configuration precedence, and the remote embedder against the mock server
# (tests/mock/llm_server.py).
#
# Every check asserts the exit status and the output.  Prints "ok - NAME" or
# "not ok - NAME" (with the reason and the captured output as "#" lines) per
# check and ends with exactly one line "N passed, N failed"; exits 1 when
# anything failed.  A check marked TODO documents a known bug of genie: it
# prints "not ok - NAME # TODO ..." and, as in TAP, does not count as failed.
#
# Environment: GENIE_TOP (default: the repository holding this script),
# GENIE_BIN (default $GENIE_TOP/build/genie), PYTHON (default python3).
# Nothing of the user's is read: HOME and XDG_* point into a temporary
# directory, removed on exit together with the mock server.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init retrieval
BIN=${GENIE_BIN:-$TOP/build/genie}

# A clean environment: no user configuration, no GENIE_* settings, no keys.
# (GENIE_TOP and GENIE_BIN were read above into TOP and BIN.)
for v in $(compgen -e); do
    case $v in GENIE_*|OPENAI_API_KEY|NO_COLOR) unset "$v" ;; esac
done
export HOME=$T/home XDG_CONFIG_HOME=$T/xdg/config XDG_DATA_HOME=$T/xdg/data \
       XDG_STATE_HOME=$T/xdg/state XDG_CACHE_HOME=$T/xdg/cache LC_ALL=C
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
# The read-only checks run genie as another user, who must reach the files.
chmod 755 "$T"

pass=0 fail=0 todo=0
rc=0
WRAP=()

# g ARGS...: run genie; stdout in $T/out, stderr in $T/err, status in $rc;
# stdin from the file $G_IN (default /dev/null).
g() {
    timeout 30 "${WRAP[@]}" "$BIN" "$@" <"${G_IN:-/dev/null}" >"$T/out" 2>"$T/err"
    rc=$?
}

# result NAME WHY: WHY empty means passed.  With TODO=reason set, a failure
# is reported as a known bug and not counted as failed.
result() {
    local name=$1 why=$2
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        echo "ok - $name${TODO:+ # TODO fixed? ($TODO)}"
        return 0
    fi
    if [ -n "${TODO:-}" ]; then
        todo=$((todo + 1))
        echo "not ok - $name # TODO $TODO"
        echo "#   $why"
        return 1
    fi
    fail=$((fail + 1))
    echo "not ok - $name"
    echo "#   $why"
    sed -n '1,8s/^/#   stdout: /p' "$T/out"
    sed -n '1,12s/^/#   stderr: /p' "$T/err"
    return 1
}

# check NAME STATUS [ASSERTION]...: assert on the last g run.  Assertions:
#   out~ERE  err~ERE      stdout / stderr has a line matching ERE
#   out!~ERE err!~ERE     ... has no such line
#   first~ERE             the first line of stdout matches ERE
#   out= err=             stdout / stderr is empty
#   rows=N                stdout lists exactly N ranked rows
check() {
    local name=$1 want=$2 why= a n
    shift 2
    [ "$rc" = "$want" ] || why="exit status $rc, expected $want"
    for a in "$@"; do
        [ -n "$why" ] && break
        case $a in
        out~*) grep -Eq -- "${a#out~}" "$T/out" || why="stdout lacks /${a#out~}/" ;;
        err~*) grep -Eq -- "${a#err~}" "$T/err" || why="stderr lacks /${a#err~}/" ;;
        out!~*) ! grep -Eq -- "${a#out!~}" "$T/out" || why="stdout has /${a#out!~}/" ;;
        err!~*) ! grep -Eq -- "${a#err!~}" "$T/err" || why="stderr has /${a#err!~}/" ;;
        first~*) head -n1 "$T/out" | grep -Eq -- "${a#first~}" ||
                     why="first line of stdout is not /${a#first~}/" ;;
        out=) [ ! -s "$T/out" ] || why="stdout is not empty" ;;
        err=) [ ! -s "$T/err" ] || why="stderr is not empty" ;;
        rows=*) n=$(grep -Ec '^ *[0-9]+\. ' "$T/out")
                [ "$n" = "${a#rows=}" ] || why="$n rows on stdout, expected ${a#rows=}" ;;
        *) why="bad assertion '$a' in the test script" ;;
        esac
    done
    result "$name" "$why"
}

# The fixture of tests/unit/test_retrieval.c: five places, two free-text
# array columns, twenty passages.
FIXTURE_SQL=$(cat <<'EOF'
CREATE TABLE places(_id INTEGER PRIMARY KEY, name TEXT, city TEXT, reviews TEXT, dishes TEXT);
CREATE TABLE genie_columns(tbl TEXT, col TEXT, pos INTEGER, type TEXT, is_array INTEGER,
  free_text INTEGER, enum_values TEXT, description TEXT, PRIMARY KEY(tbl,col));
INSERT INTO genie_columns VALUES
 ('places','_id',0,'int',0,0,NULL,NULL), ('places','name',1,'text',0,0,NULL,NULL),
 ('places','city',2,'enum',0,0,'["north","south"]',NULL),
 ('places','reviews',3,'text',1,1,NULL,NULL), ('places','dishes',4,'text',1,1,NULL,NULL);
INSERT INTO places VALUES
 (1,'Candle Bistro','north','["Perfect spot for a date night, candlelit and intimate.","The pasta was decent."]','["spaghetti carbonara","tiramisu"]'),
 (2,'Lot Diner','north','["Plenty of parking in the big lot out back.","Burgers are greasy but good."]','["cheeseburger","french fries"]'),
 (3,'Noisy Pub','south','["Loud music and crowded, we could not hear each other.","Great beer selection."]','["fish and chips","pale ale"]'),
 (4,'Family Taqueria','south','["Our kids loved it, very family friendly with a play area.","Tacos were fresh."]','["carnitas tacos","horchata"]'),
 (5,'Sushi Zen','south','["Fresh fish, the omakase was wonderful.","A bit pricey."]','["salmon nigiri","tuna sashimi"]');
EOF
)

# sql DB STATEMENTS: run SQL on DB with python's sqlite3 (no sqlite3 CLI needed).
sql() {
    "$PY" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.close()' "$1" "$2"
}
mkkb() { rm -f "$1" "$1.vec" "$1.faiss" "$1.lex"; sql "$1" "$FIXTURE_SQL"; }
sums() { cksum "$@" 2>&1; }

if [ ! -x "$BIN" ]; then
    echo "not ok - genie binary at $BIN (run 'make all')"
    echo "0 passed, 1 failed"
    exit 1
fi

KB=$T/kb.db
Q='is parking easy'
LOT='^ 1\. Lot Diner  \[places _id=2\]'

# ---- index build and search -------------------------------------------

mkkb "$KB"
g --db "$KB" --reindex
check "reindex builds the index of the fixture" 0 \
    out= 'err~genie: 20 passages, flat vector index, embedder glove' \
    'err~indexing .*kb\.db' 'err~embedding 20/20'
[ -s "$KB.vec" ] && [ -s "$KB.faiss" ] && [ -s "$KB.lex" ]
result "reindex writes DB.vec and DB.faiss beside the database" \
    "$([ -s "$KB.vec" ] && [ -s "$KB.faiss" ] && [ -s "$KB.lex" ] || echo "side files missing")"

g --db "$KB" --search "$Q" -k 3
check "search ranks the parking row first and shows its passage" 0 \
    "first~$LOT" 'out~^    reviews: Plenty of parking in the big lot out back\.$' \
    rows=3 'err~^3 rows in .* ms \(flat over 20 passages\)$' 'err!~rebuild'

g --db "$KB" -k 1 --search 'spaghetti carbonara and tiramisu'
check "search matches the dishes column too" 0 \
    'first~^ 1\. Candle Bistro ' 'out~dishes: spaghetti carbonara' rows=1

g --db "$KB" --search "$Q" -k 3 --quiet
check "--quiet keeps stderr empty and stdout unchanged" 0 "first~$LOT" rows=3 err=

g --db "$KB" --reindex -q
check "--reindex --quiet prints nothing" 0 out= err=

# Ctrl-C stops --reindex at its next batch (it used to be ignored): exit
# 130, nothing half-built left (no passages table, no .tmp files).
GEN=$TOP/build/genie-gen
if [ -x "$GEN" ] && "$GEN" restaurants --scale 5 --seed 2 -o "$T/big.db" >/dev/null 2>&1; then
    "${WRAP[@]}" "$BIN" --db "$T/big.db" --reindex >"$T/out" 2>"$T/err" &
    rp=$!
    for i in $(seq 400); do grep -q "embedding" "$T/err" && break; sleep 0.05; done
    kill -INT $rp 2>/dev/null
    wait $rp; rc=$?
    result "Ctrl-C stops --reindex: exit 130, says the index is as it was" \
        "$([ $rc = 130 ] && grep -q 'interrupted; the index is as it was' "$T/err" || echo "rc $rc: $(tail -2 "$T/err")")"
    result "... nothing half-built is left" \
        "$(ls "$T"/big.db.* 2>/dev/null; sqlite3 "$T/big.db" "SELECT count(*) FROM genie_passages" 2>/dev/null)"
else
    echo "ok - Ctrl-C stops --reindex # SKIP no genie-gen"
    pass=$((pass + 1))
fi

# An index-less copy is indexed on first search.
mkkb "$T/fresh.db"
g --db "$T/fresh.db" --search "$Q" -k 2
check "search on an unindexed writable database rebuilds, saying why" 0 \
    'err~not been indexed yet; rebuilding' 'err~index built in' "first~$LOT" rows=2
g --db "$T/fresh.db" --search "$Q" -k 2
check "the next search uses the index without rebuilding" 0 "first~$LOT" 'err!~rebuild'

# Changing free text makes the index stale; the rebuild sees the new text.
sql "$KB" "UPDATE places SET reviews='[\"A huge underground garage, free for guests.\"]' WHERE _id=5"
g --db "$KB" --search 'underground garage' -k 2
check "an UPDATE of free text makes the next search rebuild" 0 \
    'err~stale: the data changed since the index was built; rebuilding' \
    'first~^ 1\. Sushi Zen ' 'out~reviews: A huge underground garage'
sql "$KB" "UPDATE places SET city='north' WHERE _id=5"
g --db "$KB" --search 'underground garage' -k 2
check "an UPDATE of a structured column does not make it stale" 0 \
    'first~^ 1\. Sushi Zen ' 'err!~rebuild'
sql "$KB" "INSERT INTO places VALUES (6,'Harbor Grill','south','[\"Valet parking and a harbor view.\"]','[\"grilled octopus\"]')"
g --db "$KB" --search 'harbor view' -k 1
check "an INSERT makes it stale and the new row is found" 0 \
    'err~data changed.*rebuilding' 'first~^ 1\. Harbor Grill ' 'err~over 21 passages'
sql "$KB" "DELETE FROM places WHERE _id=6"
g --db "$KB" --search 'harbor view octopus' -k 5
check "a DELETE makes it stale and the row disappears" 0 \
    'err~data changed.*rebuilding' 'out!~Harbor Grill' 'err~over 19 passages'

# Damaged side files.
truncate -s -8 "$KB.vec"
g --db "$KB" --search "$Q" -k 1
check "a truncated DB.vec is detected and rebuilt" 0 \
    'err~kb\.db\.vec: retrieval index is stale: its vector file is truncated; rebuilding' \
    "first~$LOT"
printf 'not a vector file' | dd of="$KB.vec" conv=notrunc status=none
g --db "$KB" --search "$Q" -k 1
check "a DB.vec with a bad header is detected and rebuilt" 0 \
    'err~its vector file is damaged; rebuilding' "first~$LOT"
mkkb "$T/other.db"
g --db "$T/other.db" --reindex -q
cp "$T/other.db.vec" "$KB.vec"
g --db "$KB" --search "$Q" -k 1
check "a DB.vec of another build is detected and rebuilt" 0 \
    'err~its vector file belongs to another build; rebuilding' "first~$LOT"
rm -f "$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "a missing DB.faiss is detected and rebuilt" 0 \
    'err~FAISS index file is missing; rebuilding' "first~$LOT"
rm -f "$KB.lex"
g --db "$KB" --search "$Q" -k 1
check "a missing DB.lex is detected and rebuilt" 0 \
    'err~lexical index is missing; rebuilding' "first~$LOT"
cp "$T/other.db.lex" "$KB.lex"
g --db "$KB" --search "$Q" -k 1
check "a DB.lex of another build is detected and rebuilt" 0 \
    'err~lexical index belongs to another build; rebuilding' "first~$LOT"
g --db "$KB" --search "$Q" -k 1
check "after the rebuilds the index is fresh again" 0 "first~$LOT" 'err!~rebuild'

# Text that is not ASCII: one tokenizer folds case and diacritics for every
# lexical path, so a search finds accented text with or without accents.
AK=$T/accents.db
mkkb "$AK"
sql "$AK" "INSERT INTO places VALUES (6,'Chez Mélisse','north','[\"The crème brûlée at Mélisse is silky, the niçoise salad fresh.\"]','[\"crème brûlée\",\"niçoise salad\"]')"
MEL='^ 1\. Chez Mélisse  \[places _id=6\]'
for q in 'creme brulee' 'crème brûlée' 'CRÈME BRÛLÉE' 'Melisse' 'MÉLISSE' 'nicoise'; do
    g --db "$AK" --search "$q" -k 1
    check "a search for '$q' finds the accented row" 0 "first~$MEL" rows=1
done

# An index built by another tokenizer (or before the tokenizer was
# recorded) is stale: the words it holds are not the ones a query makes.
sql "$AK" "DELETE FROM genie_index_state WHERE key='tokenizer'"
g --db "$AK" --search 'creme brulee' -k 1
check "an index built before the tokenizer was recorded is rebuilt" 0 \
    'err~built with an older tokenizer; rebuilding' "first~$MEL"
sql "$AK" "UPDATE genie_index_state SET value='ascii+suffix' WHERE key='tokenizer'"
g --db "$AK" --search 'creme brulee' -k 1
check "an index built by another tokenizer is rebuilt" 0 \
    'err~built with tokenizer ascii\+suffix, now utf8-fold\+snowball-english-1; rebuilding' \
    "first~$MEL"
g --db "$AK" --search 'creme brulee' -k 1
check "after that rebuild the index is fresh" 0 "first~$MEL" 'err!~rebuild'
cp "$KB.faiss" "$T/kb.faiss.good"
cp "$T/fresh.db.faiss" "$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "a DB.faiss of another build (other size) is detected and rebuilt" 0 \
    'err~FAISS index file belongs to another build; rebuilding' "first~$LOT"
# Same passage count, other build: the build nonce in DB.faiss tells.
rm -f "$T/same.db"*; cp "$KB" "$T/same.db"
sql "$T/same.db" "UPDATE places SET reviews='[\"Nothing notable.\",\"Fine.\"]' WHERE _id=2"
g --db "$T/same.db" --reindex -q
cp "$T/same.db.faiss" "$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "a DB.faiss of another build (same size) is detected and rebuilt" 0 \
    'err~FAISS index file belongs to another build; rebuilding' "first~$LOT"
# The saved file predates the rebuilds above: an older build of this database.
cp "$T/kb.faiss.good" "$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "an older DB.faiss of the same database is detected and rebuilt" 0 \
    'err~belongs to another build; rebuilding' "first~$LOT"
g --db "$KB" --search "$Q" -k 1
check "after that rebuild the index is fresh" 0 "first~$LOT" 'err!~rebuild'

g --db "$KB" --reindex --hnsw-threshold 0
check "--hnsw-threshold 0 builds an HNSW index" 0 'err~ passages, hnsw vector index'
g --db "$KB" --search "$Q" -k 2
check "search on the HNSW index" 0 "first~$LOT" 'err~\(hnsw over [0-9]+ passages\)' 'err!~rebuild'
g --db "$KB" --reindex -q
g --db "$KB" --search "$Q" -k 1
check "reindex with the default threshold goes back to flat" 0 'err~\(flat over [0-9]+ passages\)'

# Concurrent searches of a stale database: each waits for the other's
# rebuild (busy timeout) and all succeed.
sql "$KB" "UPDATE places SET dishes='[\"cheeseburger\",\"onion rings\"]' WHERE _id=2"
for i in 1 2 3; do
    timeout 30 "$BIN" --db "$KB" --search "$Q" -k 1 </dev/null \
        >"$T/par$i.out" 2>"$T/par$i.err" &
done
why=
for i in 1 2 3; do
    wait -n || why="a concurrent search failed: $(cat "$T"/par*.err)"
done
for i in 1 2 3; do
    grep -Eq "$LOT" "$T/par$i.out" || why="search $i: $(cat "$T/par$i.out" "$T/par$i.err")"
done
result "three concurrent searches of a stale database all succeed" "$why"
g --db "$KB" --search "$Q" -k 1
check "after the concurrent rebuilds the index is fresh" 0 "first~$LOT" 'err!~rebuild'

# A damaged .faiss is derived data: rebuilt like a damaged .vec, reported
# once, by genie (FAISS's own exception text is not printed).
cp "$KB.faiss" "$T/kb.faiss.good"
printf 'junk' >"$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "a DB.faiss with a damaged header is rebuilt" 0 "first~$LOT" \
    'err~kb\.db\.faiss: retrieval index is stale: its FAISS index file is damaged; rebuilding' \
    'err!~^Error in'
cp "$KB.faiss" "$T/kb.faiss.cur"
head -c 64 "$T/kb.faiss.cur" >"$KB.faiss"; printf 'junkjunkjunk' >>"$KB.faiss"
g --db "$KB" --search "$Q" -k 1
check "a DB.faiss with a damaged body is rebuilt, reported once" 0 "first~$LOT" \
    'err~kb\.db\.faiss is unreadable.*rebuilding' 'err!~^Error in'
g --db "$KB" --search "$Q" -k 1
check "after the damaged DB.faiss rebuilds the index is fresh" 0 "first~$LOT" 'err!~rebuild'

# ---- read-only databases -------------------------------------------------
# root ignores file modes, so as root genie runs as nobody (setpriv) for
# these checks; as an ordinary user the modes are enough.  The files are
# mode 444 in a directory genie cannot write.
ROD=$T/ro
mkdir -p "$ROD"
cp "$KB" "$KB.vec" "$KB.faiss" "$KB.lex" "$ROD/"
RO=$ROD/kb.db
RO_WRAP=()
ro_ok=1
if [ "$(id -u)" = 0 ]; then
    RO_WRAP=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
    command -v setpriv >/dev/null && "${RO_WRAP[@]}" true 2>/dev/null || ro_ok=0
fi
ro_lock() { chmod 444 "$RO" "$RO.vec" "$RO.faiss" "$RO.lex"; chmod 555 "$ROD"; }
ro_unlock() { chmod 755 "$ROD"; chmod 644 "$RO" "$RO.vec" "$RO.faiss" "$RO.lex"; }
if [ "$ro_ok" = 1 ]; then
    ro_lock
    WRAP=("${RO_WRAP[@]}")
    g --db "$RO" --search "$Q" -k 2
    check "read-only database with a fresh index: search works" 0 \
        "first~$LOT" rows=2 'err!~rebuild'
    WRAP=()
    ro_unlock
    sql "$RO" "UPDATE places SET reviews='[\"changed\"]' WHERE _id=1"
    ro_lock
    before=$(sums "$RO" "$RO.vec" "$RO.faiss" "$RO.lex")
    WRAP=("${RO_WRAP[@]}")
    g --db "$RO" --search "$Q" -k 2
    check "read-only database with a stale index: exit 1, the reason and the fix" 1 out= \
        'err~\(read-only\): retrieval index is stale: the data changed' \
        "err~run 'genie --db .*/ro/kb\.db --reindex' where the file is writable"
    result "read-only database is left untouched" \
        "$([ "$before" = "$(sums "$RO" "$RO.vec" "$RO.faiss" "$RO.lex")" ] || echo "files changed")"
    g --db "$RO" --reindex
    check "--reindex of a read-only database fails naming the file" "$rc" out= \
        'err~ro/kb\.db is read-only: cannot build its retrieval index'
    check "--reindex of a read-only database exits 1" 1
    WRAP=()
    ro_unlock
else
    result "read-only database checks # SKIP running as root without setpriv" ""
fi

# ---- broken databases and vectors --------------------------------------

g --db "$T/nope.db" --search "$Q"
check "missing database: exit 1, 'no such database'" 1 out= \
    'err~^genie: no such database: .*/nope\.db \(No such file or directory\)$'
[ ! -e "$T/nope.db" ]
result "missing database is not created" "$([ ! -e "$T/nope.db" ] || echo created)"

head -c 4096 /dev/urandom >"$T/garbage.db"
g --db "$T/garbage.db" --search "$Q"
check "garbage file as database: exit 1 naming the file" 1 out= \
    'err~^genie: .*/garbage\.db: not a SQLite database, or damaged'

sql "$T/plain.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
g --db "$T/plain.db" --reindex
check "database without genie_columns: exit 1, 'not a genie knowledge base'" 1 out= \
    'err~plain\.db: not a genie knowledge base'

g --db "$T" --search "$Q"
check "a directory as database: exit 1, 'not a regular file'" 1 out= \
    'err~not a regular file'

: >"$T/empty.db"
g --db "$T/empty.db" --search "$Q"
check "an empty file as database: exit 1" 1 out= 'err~empty\.db'

head -c 1000 /dev/urandom >"$T/bad.bin"
g --db "$KB" --search "$Q" --vectors "$T/bad.bin"
check "bad --vectors file: exit 1 with a clear message" 1 out= \
    'err~^genie: .*/bad\.bin: not a genie word-vector file'
g --db "$KB" --search "$Q" --vectors "$T/none.bin"
check "missing --vectors file: exit 1 naming it" 1 out= \
    'err~cannot open word vectors .*/none\.bin: No such file'

# ---- usage errors --------------------------------------------------------

g --frobnicate
check "unknown option: exit 2 and the hint" 2 out= \
    "err~unknown option '--frobnicate'" "err~^Try 'genie --help'\.$"
g --serch x
check "misspelled option: a suggestion" 2 "err~did you mean '--search'"
g --db "$KB" --search "$Q" -k 0
check "-k 0: exit 2, out of range" 2 out= "err~option '-k': 0 is out of range \(1\.\.1000\)" \
    "err~Try 'genie --help'"
g --db "$KB" --search "$Q" -k abc
check "-k abc: exit 2, invalid integer" 2 out= "err~option '-k': invalid integer 'abc'"
g --db "$KB" --search "$Q" -k 5x
check "-k 5x: exit 2" 2 out= "err~invalid integer '5x'"
g --db "$KB" --search "$Q" stray
check "stray argument: exit 2" 2 out= "err~unexpected argument 'stray'" \
    "err~Try 'genie --help'"
g --db "$KB" --search
check "--search without its argument: exit 2" 2 out= \
    "err~option '--search' requires an argument"
g --db "$KB" --embedder bert --search "$Q"
check "bad --embedder value: exit 2 listing the choices" 2 out= \
    "err~invalid value 'bert' \(allowed: glove, remote\)"
GENIE_TOP_K=zero g --print-config
check "bad GENIE_TOP_K: exit 2 naming the variable" 2 out= \
    "err~environment variable GENIE_TOP_K: invalid integer 'zero'"

# ---- --help, --version ---------------------------------------------------

g --help
check "--help: exit 0, usage on stdout" 0 err= 'first~^Usage: genie ' \
    'out~--search=TEXT' 'out~--embed-batch=N'
g --version
check "--version: exit 0, version on stdout" 0 err= 'first~^genie [0-9]+\.[0-9]+'

# ---- configuration precedence -------------------------------------------

CFG=$XDG_CONFIG_HOME/genie/config.ini
mkdir -p "$(dirname "$CFG")"
printf '; test config\n[general]\ntop_k = 2\n' >"$CFG"
g --print-config
check "config file: top_k from the file, with file:line" 0 \
    "out~^; config file: .*/genie/config\.ini \(read\)" \
    'out~^top_k = 2 +; file .*config\.ini:3$'
g --db "$KB" --search "$Q"
check "config file top_k limits a search to 2 rows" 0 rows=2 "first~$LOT"
GENIE_TOP_K=3 g --print-config
check "GENIE_TOP_K overrides the file" 0 'out~^top_k = 3 +; env GENIE_TOP_K$'
GENIE_TOP_K=3 g --db "$KB" --search "$Q"
check "GENIE_TOP_K applies to a search" 0 rows=3
GENIE_TOP_K=3 g --print-config -k 4
check "-k overrides environment and file" 0 'out~^top_k = 4 +; flag --top-k$'
GENIE_TOP_K=3 g --db "$KB" --search "$Q" -k 4
check "-k applies to a search" 0 rows=4
GENIE_DB=$KB g --search "$Q" -k 1
check "GENIE_DB selects the database" 0 "first~$LOT"
cp "$KB" "$KB.vec" "$KB.faiss" "$KB.lex" "$(dirname "$CFG")/"
printf '[general]\ndb = kb.db\n' >"$CFG"
g --search "$Q" -k 1
check "a relative db in the config file is relative to the file" 0 "first~$LOT" \
    'err~rows in .* passages' 'err!~rebuild'
g --print-config
check "... and --print-config shows it resolved" 0 "out~^db = $XDG_CONFIG_HOME/genie/kb\.db +; file "
mkdir -p "$HOME/kbs"; cp "$KB" "$KB.vec" "$KB.faiss" "$KB.lex" "$HOME/kbs/"
printf '[general]\ndb = ~/kbs/kb.db\n' >"$CFG"
g --search "$Q" -k 1
check "~/ in the config file is the home directory" 0 "first~$LOT"

printf '[general]\n\ntop_k = lots\n' >"$CFG"
g --db "$KB" --search "$Q"
check "bad value in the config file: exit 2 with config.ini:LINE:" 2 out= \
    "err~config\.ini:3: key 'top_k': invalid integer 'lots'"
g --help
check "--help works even with a broken config file" 0 'first~^Usage: genie '
printf '[general]\ntop_k = 2\n[retrieval]\nembeder = glove\n' >"$CFG"
g --db "$KB" --search "$Q"
check "unknown key in the config file: a warning with file:line, exit 0" 0 rows=2 \
    "err~^genie: warning: .*config\.ini:4: unknown key 'embeder' in \[retrieval\] \(did you mean \[retrieval\] embedder\?\)"
printf '[general\n' >"$CFG"
g --print-config
check "config syntax error: exit 2 with file:line" 2 out= "err~config\.ini:1: syntax error"
g --config "$T/none.ini" --print-config
check "a named config file that is missing: exit 1" 1 out= "err~cannot open config file '.*/none\.ini'"
g --config '' --print-config
check "--config '' reads no file" 0 'out~^; config file: none$' 'out~^top_k = 10 +; default$'
rm -f "$CFG"

# ---- remote embedder against the mock server ---------------------------

# mock_ctl ROUTE JSON: POST to a control route of the mock (config, script).
mock_ctl() {
    "$PY" -c 'import sys, urllib.request
r = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(),
                           headers={"Content-Type": "application/json"})
urllib.request.urlopen(r, timeout=10).read()' "http://127.0.0.1:$PORT/_mock/$1" "$2"
}

# logq EXPR: evaluate a Python expression over the logged embedding requests
# L (list of dicts; h(e, name) reads a header case-insensitively).
logq() {
    "$PY" -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1]) if x.strip()]
L = [e for e in L if e.get("route") == "embeddings"]
def h(e, name):
    return {k.lower(): v for k, v in e["headers"].items()}.get(name.lower())
print(eval(sys.argv[2]))' "$T/mock.log" "$1" 2>&1
}
log_reset() { : >"$T/mock.log"; }

# lq NAME EXPR WANT: a check on the mock's log.
lq() {
    local got
    got=$(logq "$2")
    result "$1" "$([ "$got" = "$3" ] || echo "log: $2 gives '$got', expected '$3'")"
}

RK=$T/remote.db
mkkb "$RK"
if ! start_mock; then
    result "mock server starts and reports its port" "no port; $(cat "$T/mock.err")"
else
    result "mock server starts and reports its port" \
        "$([ "$(cat "$T/mock.out")" = "$PORT" ] || echo "stdout '$(cat "$T/mock.out")'")"
    # Retries (--retries, default 4) wait at most 50 ms here.
    REM=(--embedder remote --embed-url "$URL" --embed-batch 4 --retry-max-wait 0.05)
    EMB_ID="remote:http://127\.0\.0\.1:$PORT/v1:text-embedding-3-small"

    log_reset
    GENIE_API_KEY=sk-test g --db "$RK" --reindex "${REM[@]}"
    check "remote reindex through the mock" 0 out= \
        "err~genie: 20 passages, flat vector index, embedder $EMB_ID$"
    lq "remote: 5 requests of at most 4 inputs cover 20 passages" \
        '(len(L), max(len(e["json"]["input"]) for e in L), sum(len(e["json"]["input"]) for e in L))' \
        '(5, 4, 20)'
    lq "remote: every request carries X-Genie-Stage: embed" \
        'all(h(e, "X-Genie-Stage") == "embed" for e in L)' True
    lq "remote: POST /v1/embeddings with JSON and the model" \
        '{(e["method"], e["path"], h(e, "Content-Type"), e["json"]["model"]) for e in L}' \
        "{('POST', '/v1/embeddings', 'application/json', 'text-embedding-3-small')}"
    lq "remote: GENIE_API_KEY sent as Authorization: Bearer" \
        '{h(e, "Authorization") for e in L}' "{'Bearer sk-test'}"
    result "remote: the key does not appear in genie's output" \
        "$(! grep -q 'sk-test' "$T/out" "$T/err" || echo "key printed")"

    log_reset
    GENIE_API_KEY=sk-test g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    check "remote search through the mock" 0 "first~$LOT" rows=3 'err!~rebuild'
    lq "remote search embeds just the query" '[e["json"]["input"] for e in L]' \
        "[['is parking easy']]"
    cp "$T/out" "$T/remote-search.out"

    log_reset
    OPENAI_API_KEY=sk-openai g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    check "remote search with OPENAI_API_KEY" 0 "first~$LOT"
    lq "OPENAI_API_KEY is used when GENIE_API_KEY is unset" \
        '[h(e, "Authorization") for e in L]' "['Bearer sk-openai']"
    log_reset
    GENIE_API_KEY=sk-genie OPENAI_API_KEY=sk-openai g --db "$RK" --search "$Q" "${REM[@]}"
    lq "GENIE_API_KEY wins over OPENAI_API_KEY" '[h(e, "Authorization") for e in L]' \
        "['Bearer sk-genie']"
    log_reset
    g --db "$RK" --search "$Q" "${REM[@]}"
    lq "no key: no Authorization header" '[h(e, "Authorization") for e in L]' "[None]"

    # Replies in reverse order must be placed by their "index".
    mock_ctl config '{"reverse": true}'
    g --db "$RK" --reindex -q "${REM[@]}"
    check "remote reindex with reversed replies" 0 out= err=
    g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    result "reversed replies give the same ranking and scores" \
        "$(cmp -s "$T/out" "$T/remote-search.out" || diff "$T/remote-search.out" "$T/out" | sed 's/^/#   /')"
    mock_ctl config '{"reverse": false}'

    # Faults on the query embedding.
    mock_ctl config '{"fault": "500"}'
    GENIE_API_KEY=sk-secret-42 g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, server answers 500: exit 1 naming HTTP 500 and the URL" 1 out= \
        "err~embeddings: HTTP 500 from http://127\.0\.0\.1:$PORT/v1/embeddings" \
        'err!~sk-secret-42'
    mock_ctl config '{"fault": "401"}'
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, server answers 401: exit 1 naming HTTP 401" 1 out= 'err~HTTP 401'
    mock_ctl config '{"fault": "garbage"}'
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, reply not JSON: exit 1" 1 out= 'err~embeddings: reply has no "data" array'
    mock_ctl config '{"fault": "count"}'
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, too few vectors: exit 1" 1 out= 'err~embeddings: 0 vectors for 1 input'
    mock_ctl config '{"fault": "index"}'
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, item index out of range: exit 1" 1 out= 'err~malformed item'
    mock_ctl config '{"fault": null, "dim": 16}'
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote search, embedding size changed: exit 1 saying so" 1 out= \
        'err~query embedding has 16 dimensions, the index 32'
    mock_ctl config '{"dim": 32}'
    g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    check "remote search works again once the server recovers" 0 "first~$LOT" 'err!~rebuild'

    # A build that fails half-way (second batch) keeps the previous index.
    before=$(sums "$RK.vec" "$RK.faiss" "$RK.lex")
    mock_ctl script '{"embeddings": [{}, {"fault": "500"}]}'
    log_reset
    g --db "$RK" --reindex "${REM[@]}" --retries 0
    check "remote reindex failing at the second batch (--retries 0): exit 1, HTTP 500" 1 out= \
        'err~HTTP 500' 'err!~passages, flat'
    lq "the failed build stopped after the failing batch" 'len(L)' 2
    result "a failed build leaves DB.vec and DB.faiss untouched" \
        "$([ "$before" = "$(sums "$RK.vec" "$RK.faiss" "$RK.lex")" ] || echo "side files changed")"
    result "a failed build leaves no temporary files" \
        "$(ls "$T" | grep -E '\.tmp$')"
    g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    check "after the failed build the previous remote index still serves" 0 \
        "first~$LOT" 'err!~rebuild'

    # A passing failure is retried (embedding is idempotent): the build
    # goes on.
    mock_ctl script '{"embeddings": [{}, {"fault": "500"}]}'
    log_reset
    g --db "$RK" --reindex "${REM[@]}"
    check "remote reindex with a 500 at the second batch: retried, exit 0" 0 'err!~HTTP 500'
    lq "... the second of five batches sent twice" 'len(L)' 6
    lq "... with genie's user agent" \
        '{v[:6] for e in L for k, v in e["headers"].items() if k.lower() == "user-agent"}' \
        "{'genie/'}"

    log_reset
    g --db "$RK" --search "$Q" -k 1 --embedder remote --embed-url "$URL/"
    check "a trailing slash on --embed-url names the same embedder" 0 "first~$LOT" \
        'err!~rebuild'
    lq "... and requests go to /v1/embeddings" '{e["path"] for e in L}' "{'/v1/embeddings'}"
    log_reset
    g --db "$RK" --search "$Q" -k 1 "${REM[@]}" --embed-model other-model
    check "another --embed-model makes the index stale and rebuilds" 0 "first~$LOT" \
        "err~built with embedder $EMB_ID, now remote:.*:other-model; rebuilding"
    lq "... asking the server for that model" '{e["json"]["model"] for e in L}' \
        "{'other-model'}"
    EMB_ID="remote:http://127\.0\.0\.1:$PORT/v1:other-model"

    # Switching embedders: the index records which one built it.
    g --db "$RK" --search "$Q" -k 3
    check "glove search on a remote-built index: stale (other embedder), rebuilt" 0 \
        "err~it was built with embedder $EMB_ID, now glove:.*; rebuilding" \
        "first~$LOT" 'err~over 20 passages'
    cp "$T/out" "$T/glove-search.out"

    # The endpoint fails: the glove index built above must survive.
    mock_ctl config '{"fault": "500"}'
    before=$(sums "$RK" "$RK.vec" "$RK.faiss" "$RK.lex")
    log_reset
    g --db "$RK" --reindex "${REM[@]}" --retries 1
    check "remote reindex with the server failing: exit 1 naming HTTP 500" 1 out= \
        'err~genie: embeddings: HTTP 500 from .*/v1/embeddings' 'err~mock server failure'
    lq "the failing build made one request and one retry (--retries 1)" 'len(L)' 2
    g --db "$RK" --search "$Q" -k 3 "${REM[@]}"
    check "remote search needing a rebuild, server failing: exit 1" 1 out= \
        'err~built with embedder glove.*rebuilding' 'err~HTTP 500'
    result "failed remote builds leave the database and side files untouched" \
        "$([ "$before" = "$(sums "$RK" "$RK.vec" "$RK.faiss" "$RK.lex")" ] || echo "files changed")"
    g --db "$RK" --search "$Q" -k 3
    check "the glove index still serves without a rebuild" 0 "first~$LOT" 'err!~rebuild'
    result "... with the same results as before" \
        "$(cmp -s "$T/out" "$T/glove-search.out" || echo "results differ")"
    mock_ctl config '{"fault": null}'

    g --db "$RK" --search "$Q" --embedder remote
    check "remote embedder without --embed-url: exit 2 saying so" 2 out= \
        'err~remote embedder needs an endpoint \(--embed-url, or --llm-url\)'

    stop_mock
    g --db "$RK" --search "$Q" "${REM[@]}"
    check "remote endpoint unreachable: exit 1, request failed" 1 out= \
        "err~embeddings: request to http://127\.0\.0\.1:$PORT/v1/embeddings failed"
fi

[ "$todo" -gt 0 ] && echo "# $todo known bug(s) marked TODO above"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
