#!/usr/bin/env bash
# init.sh — `genie --init DIR FILE...`: an agent made from CSV, TSV, JSON,
# JSON Lines and SQLite files.  Each input format; each inferred type and
# its boundaries (with the values stored); the names made SQL identifiers;
# the key column; values that do not fit a type; bad inputs (an error with
# FILE:LINE, a non-zero exit, nothing made, no hidden directory left);
# existing directories and --force; Ctrl-C; then the new agent at once:
# --suql, --search, --schema, an offline conversation and a conversation
# with the mock LLM server.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, GENIE_BIN; KEEP_T=1 keeps the temp dir.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init init
BIN=${GENIE_BIN:-$TOP/build/genie}
D=$TOP/tests/data/init
export LC_ALL=C HOME=$T XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache
cd "$T" || exit 1

# gi ARGS...: run genie (stdout in $T/out, stderr in $T/err, status in RC).
gi() { "$BIN" "$@" >"$T/out" 2>"$T/err"; RC=$?; }
has() { grep -qF -- "$1" "$T/out"; }
errhas() { grep -qF -- "$1" "$T/err"; }
rc_is() { [ "$RC" = "$1" ]; }
# same NAME GOT WANT: a check of an exact value, showing both when it fails.
same() {
    if [ "$2" = "$3" ]; then ok "$1"
    else notok "$1" "got:      $(printf '%s' "$2" | tr '\n' '|' | head -c 700)" \
                    "expected: $(printf '%s' "$3" | tr '\n' '|')"; fi
}
# q DIR QUERY: the rows of a SUQL query on agent DIR as CSV (its CRLF line
# ends made LF), without the header (stderr in $T/qerr).
q() { "$BIN" --agent "$1" -q --suql "$2" --format csv 2>"$T/qerr" | tr -d '\r' | tail -n +2; }
# sqlr DB SQL: rows through Python's sqlite3, each value's repr, '|' between
# (so 1, 1.0 and '1' differ).
sqlr() { "$PY" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(repr(v) for v in r))' "$@"; }
# ctype COL [TABLE]: the type --init printed for COL (in TABLE's section).
ctype() {
    awk -v c="$1" -v t="${2:-}" '
        /^[^ ].*: [0-9]+ rows? from / { sec = $1; sub(/:$/, "", sec); next }
        substr($0, 1, 2) == "  " && (t == "" || sec == t) {
            n = substr($0, 3, 20); sub(/ +$/, "", n)
            if (n == c) { ty = substr($0, 24, 18); sub(/ +$/, "", ty); print ty; exit }
        }' "$T/out"
}
# no_temp [PARENT]: no hidden .NAME.init-* or .NAME.old-* directory left.
no_temp() { [ -z "$(ls -a "${1:-$T}" | grep -E '^\..+\.(init|old)-')" ]; }
# fails_cleanly NAME DIR WANT_ERR: the last run failed with status 1, said
# WANT_ERR on stderr, and left neither DIR nor a hidden directory.
fails_cleanly() {
    check "$1: exits 1" rc_is 1
    check "$1: says '$3'" errhas "$3"
    check "$1: nothing made, nothing hidden left" sh -c "[ ! -e '$2' ] && [ -z \"\$(ls -a '$T' | grep -E '^\\..+\\.(init|old)-')\" ]"
}

# ---- usage ----------------------------------------------------------------------
gi --init nofiles
check "--init without files exits 2" rc_is 2
check "... saying data files are needed" errhas "--init nofiles needs the data files"
check "... and makes nothing" [ ! -e nofiles ]
gi --force
check "--force without --init exits 2" rc_is 2
check "... saying it goes with --init" errhas "--force only goes with --init"
gi --init '' "$D/wines.csv"
check "--init with an empty DIR exits 2" rc_is 2
gi --init missing "$T/nosuch.csv"
fails_cleanly "a missing file" missing "nosuch.csv: No such file or directory"

# ---- CSV: the whole run, the files made, the table printed ----------------------
gi --init wine "$D/wines.csv"
check "CSV: --init exits 0" rc_is 0
check "CSV: says what it made" has "Made the agent wine from 1 file:"
check "CSV: the table line names rows, file and key" has "wines: 4 rows from wines.csv, key name"
same "CSV: DIR holds the agent, its database and index" "$(ls wine | tr '\n' ' ')" \
     "agent.ini wine.db wine.db.faiss wine.db.lex wine.db.vec worksheet.csv "
check "CSV: no hidden directory left" no_temp
check "CSV: progress on stderr" errhas "genie: imported 1 table in"
# The Next: commands name this genie as it can be run from here: its path
# when "genie" on PATH is not it.
check "CSV: next commands printed (genie not on PATH: its path)" has "  $BIN --agent wine --suql 'SELECT name FROM wines LIMIT 5'"
check "CSV: next commands: answer() on the free-text column" has \
    "$BIN --agent wine --suql \"SELECT name FROM wines WHERE answer(tasting_notes, 'your question?') = 'Yes'\""
check "CSV: next commands: --search" has "  $BIN --agent wine --search 'words to look for'"
mkdir -p "$T/onpath" && ln -sf "$BIN" "$T/onpath/genie"
PATH="$T/onpath:$PATH" gi --init wine_onpath "$D/wines.csv"
check "... and 'genie' when that is this genie on PATH" has "  genie --agent wine_onpath --search 'words to look for'"
rm -rf wine_onpath
same "CSV: name is text, key" "$(ctype name)" "text, key"
same "CSV: Price is real" "$(ctype price)" "real"
same "CSV: Tasting Notes -> tasting_notes, free text" "$(ctype tasting_notes)" "free text"
same "CSV: Année -> annee, integer" "$(ctype annee)" "integer"
same "CSV: order -> order_, integer" "$(ctype order_)" "integer"
same "CSV: In Stock -> in_stock, boolean" "$(ctype in_stock)" "boolean"
same "CSV: Zip codes with a leading zero stay text" "$(ctype zip)" "text"
same "CSV: grapes ';' parts that repeat: list of enum" "$(ctype grapes)" "list of enum"
same "CSV: Color: enum of 2" "$(ctype color)" "enum (2)"
same "CSV: When -> when_, date" "$(ctype when_)" "date"
same "CSV: Opens (9:30, 7pm, 19:05:30): time" "$(ctype opens)" "time"
check "CSV: the why of a key" sh -c "grep -q '^  name .*unique, short, names each row' '$T/out'"
check "CSV: the why of a list" sh -c "grep -q \"^  grapes .*';'-separated parts that repeat (3 distinct in 7)\" '$T/out'"
check "agent.ini: name, database and spec" sh -c "grep -qx 'name = wine' wine/agent.ini && grep -qx 'database = wine.db' wine/agent.ini && grep -qx 'spec = worksheet.csv' wine/agent.ini"
check "agent.ini: a greeting naming the table" sh -c "grep -qx 'greeting = Hello! Ask me anything about the wines.' wine/agent.ini"
same "worksheet.csv: the db worksheet row" "$(sed -n 2p wine/worksheet.csv)" 'wines,,db,,,"Wines, from wines.csv (4 rows).",,,,,'
check "worksheet.csv: the key is primary" grep -q '^,internal; primary,str,name,' wine/worksheet.csv
check "worksheet.csv: a list of enum with its values" sh -c "grep -q '^,internal,List\[Enum\],grapes,' wine/worksheet.csv && grep -q '^,,,,grenache,' wine/worksheet.csv && grep -q '^,,,,syrah,' wine/worksheet.csv"
check "worksheet.csv: free text is type text" grep -q '^,internal,text,tasting_notes,' wine/worksheet.csv
check "worksheet.csv: bool, date, time, float, int" sh -c "grep -q '^,internal,bool,in_stock,' wine/worksheet.csv && grep -q '^,internal,date,when_,' wine/worksheet.csv && grep -q '^,internal,time,opens,' wine/worksheet.csv && grep -q '^,internal,float,price,' wine/worksheet.csv && grep -q '^,internal,int,annee,' wine/worksheet.csv"

# ---- the new agent answers at once -------------------------------------------------
"$BIN" --agent wine --suql "SELECT name FROM wines ORDER BY _id" >"$T/out" 2>"$T/err"; RC=$?
check "first start: --suql exits 0" rc_is 0
check "first start: no index rebuilt, no warning" sh -c "! grep -qi 'stale\|rebuilding\|warning\|damaged' '$T/err'"
same "--suql: the rows in file order" "$(q wine 'SELECT name FROM wines ORDER BY _id')" "$(printf 'Alpha\nBeta\nGamma\nDelta')"
same "--suql: numbers, dates and times as stored" \
    "$(q wine 'SELECT name, price, annee, order_, when_, opens, zip FROM wines ORDER BY _id')" \
    "$(printf '%s\n' 'Alpha,12.5,2019,1,2023-01-05,09:30,02139' 'Beta,20.0,2020,2,2023-02-28,19:00,10001' \
       'Gamma,33.25,2018,3,2024-02-29,19:05:30,94301' 'Delta,9.0,2021,4,2023-12-31,12:00,60601')"
"$BIN" --agent wine -q --suql "SELECT name, price, in_stock, grapes FROM wines WHERE name = 'Alpha'" --format json >"$T/out" 2>"$T/err"
same "--suql --format json: numbers as numbers, a list as a JSON array, a boolean as true" \
    "$("$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), sort_keys=True))' "$T/out" 2>&1)" \
    '[{"grapes": ["merlot", "syrah"], "in_stock": true, "name": "Alpha", "price": 12.5}]'
same "lists: ';' parts stored as JSON arrays" "$(sqlr wine/wine.db 'SELECT grapes FROM wines ORDER BY _id')" \
    "$(printf '%s\n' "'[\"merlot\",\"syrah\"]'" "'[\"syrah\",\"grenache\"]'" "'[\"merlot\"]'" "'[\"grenache\",\"merlot\"]'")"
same "lists: an element with = ANY" "$(q wine "SELECT name FROM wines WHERE 'grenache' = ANY (grapes) ORDER BY name")" "$(printf 'Beta\nDelta')"
same "booleans: = TRUE in WHERE" "$(q wine 'SELECT name FROM wines WHERE in_stock = TRUE ORDER BY name')" "$(printf 'Alpha\nGamma')"
same "booleans: bare in WHERE" "$(q wine 'SELECT name FROM wines WHERE in_stock ORDER BY name')" "$(printf 'Alpha\nGamma')"
same "booleans: NOT in WHERE" "$(q wine 'SELECT name FROM wines WHERE NOT in_stock ORDER BY name')" "$(printf 'Beta\nDelta')"
same "booleans: stored 1/0" "$(sqlr wine/wine.db 'SELECT in_stock FROM wines ORDER BY _id' | tr '\n' ' ')" "1 0 1 0 "
same "dates: comparable" "$(q wine "SELECT name FROM wines WHERE when_ > '2023-06-01' ORDER BY when_")" "$(printf 'Delta\nGamma')"
same "dates: BETWEEN" "$(q wine "SELECT name FROM wines WHERE when_ BETWEEN '2023-01-01' AND '2023-12-31' ORDER BY when_")" "$(printf 'Alpha\nBeta\nDelta')"
same "times: comparable" "$(q wine "SELECT name FROM wines WHERE opens < '12:00' ORDER BY opens")" "Alpha"
same "times: 7pm is 19:00" "$(q wine "SELECT name FROM wines WHERE opens >= '19:00' ORDER BY opens")" "$(printf 'Beta\nGamma')"
same "enums: compared with their values" "$(q wine "SELECT name FROM wines WHERE color = 'red' AND price > 10 ORDER BY price DESC")" "$(printf 'Gamma\nBeta')"
same "integers: arithmetic" "$(q wine 'SELECT sum(annee) AS s FROM wines')" "8078"
same "zip: text keeps its leading zero" "$(sqlr wine/wine.db "SELECT zip FROM wines WHERE name = 'Alpha'")" "'02139'"
same "quoted: commas and doubled quotes kept" "$(sqlr wine/wine.db "SELECT tasting_notes FROM wines WHERE name = 'Gamma'")" \
    "'Soft and round with \"ripe\" plum flavors and a long velvety finish overall'"

gi --agent wine --schema
check "--schema exits 0" rc_is 0
check "--schema: the table" has "CREATE TABLE wines ("
for l in "name TEXT," "price REAL," "tasting_notes FREE_TEXT," "annee INT," "order_ INT," "in_stock BOOLEAN," \
         "zip TEXT," "grapes ENUM ('grenache', 'merlot', 'syrah')[]," "color ENUM ('red', 'white')," \
         "when_ DATE," "opens TIME "; do
    check "--schema: $l" has "    $l"
done
check "--schema: the drafted descriptions" has "-- Name, which names each row, e.g. 'Alpha', 'Beta'."

gi --agent wine -q --search 'dark cherry tobacco'
check "--search exits 0" rc_is 0
same "--search: the best passage first" "$(head -1 "$T/out" | sed 's/  score.*//')" " 1. Beta  [wines _id=2]"
check "--search: shows the free text" has "tasting_notes: A deep red wine showing dark cherry"

printf '%s\n' "SELECT name, price FROM wines WHERE color = 'red' ORDER BY price DESC" |
    "$BIN" --agent wine --plain --offline --sessions "$T/s1.db" >"$T/out" 2>"$T/err"; RC=$?
check "offline conversation exits 0" rc_is 0
same "offline conversation: greeting and answer" "$(cat "$T/out")" \
    "$(printf '%s\n' 'Hello! Ask me anything about the wines.' \
       "I searched for \"SELECT name, price FROM wines WHERE color = 'red' ORDER BY price DESC\" and found 2 results:" \
       '' 'name   price' '-----  -----' 'Gamma  33.25' 'Beta   20')"
check "offline conversation: says it is offline" errhas "offline"

# An edit to worksheet.csv is taken at the next start (the Next: lines say so).
cp -r wine wine_edit
sed -i 's/^,internal,str,zip,.*/,internal,str,zip,,Postal code.,,,,,/' wine_edit/worksheet.csv
gi --agent wine_edit --schema
check "an edited description shows at the next start" sh -c "grep -q '    zip TEXT, *-- Postal code.' '$T/out'"

# ---- other formats ------------------------------------------------------------------
printf 'name\tqty\tnote\nfoo\t1\tsay "hi", ok\nbar\t2\tplain\n' >t.tsv
gi --init a_tsv t.tsv
check "TSV: exits 0" rc_is 0
same "TSV: columns and values" "$(sqlr a_tsv/a_tsv.db 'SELECT name, qty, note FROM t ORDER BY _id')" \
    "$(printf '%s\n' "'foo'|1|'say \"hi\", ok'" "'bar'|2|'plain'")"
printf 'name\tqty\nfoo\t1\nbar\t2\n' >tabs.csv
gi --init a_tabs tabs.csv
check "a .csv that is TSV: exits 0" rc_is 0
same "a .csv that is TSV: two columns" "$(sqlr a_tabs/a_tabs.db 'SELECT name, qty FROM tabs ORDER BY _id')" "$(printf "'foo'|1\n'bar'|2")"
printf '\xef\xbb\xbfname,qty,when\r\nfoo,1,2024-01-02\r\nbar,2,2024-01-03\r\n' >bom.csv
gi --init a_bom bom.csv
check "BOM + CRLF: exits 0" rc_is 0
same "BOM + CRLF: the first column is 'name', no CR in values" \
    "$(sqlr a_bom/a_bom.db 'SELECT name, qty, when_ FROM bom ORDER BY _id')" "$(printf "'foo'|1|'2024-01-02'\n'bar'|2|'2024-01-03'")"
same "BOM + CRLF: types" "$(ctype name)/$(ctype qty)/$(ctype when_)" "text, key/integer/date"
printf 'name,qty\rfoo,1\rbar,2\r' >cr.csv
gi --init a_cr cr.csv
check "CR-only: exits 0" rc_is 0
same "CR-only: rows" "$(sqlr a_cr/a_cr.db 'SELECT name, qty FROM cr ORDER BY _id')" "$(printf "'foo'|1\n'bar'|2")"
printf 'name,note\n"Smith, John","He said ""hi""\nthen left"\n\n"Doe, Jane","  padded  "\r\n"Roe, Rick",x\n' >quoted.csv
gi --init a_quo quoted.csv
check "quoted fields: exits 0" rc_is 0
same "quoted fields: commas, a line break, doubled quotes; blank line skipped" \
    "$(sqlr a_quo/a_quo.db 'SELECT name, note FROM quoted ORDER BY _id')" \
    "$(printf '%s\n' "'Smith, John'|'He said \"hi\"\\nthen left'" "'Doe, Jane'|'padded'" "'Roe, Rick'|'x'")"

cat >items.json <<'EOF'
[
 {"name": "a", "n": 1, "tags": ["x", "y"], "ok": true, "p": 1.5, "meta": {"k": 1}},
 {"name": "b", "n": 2, "tags": ["y"], "ok": false, "p": 2, "meta": null},
 {"name": "c", "n": 3, "tags": [], "ok": true, "p": null, "late": "only here"}
]
EOF
gi --init a_json items.json
check "JSON array: exits 0" rc_is 0
check "JSON array: 3 rows, key name" has "items: 3 rows from items.json, key name"
same "JSON array: types (a nested object's members are columns)" "$(ctype n)/$(ctype tags)/$(ctype ok)/$(ctype p)/$(ctype meta_k)/$(ctype late)" \
    "integer/list of text/boolean/real/integer/text"
same "JSON array: values (lists, booleans, nested objects, nulls, a late key)" \
    "$(sqlr a_json/a_json.db 'SELECT name, n, tags, ok, p, meta_k, late FROM items ORDER BY _id')" \
    "$(printf '%s\n' "'a'|1|'[\"x\",\"y\"]'|1|1.5|1|None" "'b'|2|'[\"y\"]'|0|2.0|None|None" \
       "'c'|3|'[]'|1|None|None|'only here'")"
# Nested objects two levels down flatten; a map of many keys stays JSON
# text; records wrapped in an object ({"data": [...]}) and GeoJSON features
# are the rows.
"$PY" - <<'EOF2'
import json
big = {"m%d" % i: i for i in range(40)}
json.dump([{"name": "Bulbasaur", "stats": {"base": {"hp": 45, "atk": 49}, "total": 318}, "moves": big},
           {"name": "Charmander", "stats": {"base": {"hp": 39, "atk": 52}, "total": 309}, "moves": {}}],
          open("pk.json", "w"))
json.dump({"meta": {"source": "x"}, "data": [{"name": "a", "v": 1}, {"name": "b", "v": 2}]}, open("wrap.json", "w"))
json.dump({"type": "FeatureCollection", "features": [
    {"type": "Feature", "id": "p1", "properties": {"name": "Mission Park", "area": 12000},
     "geometry": {"type": "Point", "coordinates": [-122.42, 37.76]}},
    {"type": "Feature", "id": "p2", "properties": {"name": "Dolores Park", "area": 64000},
     "geometry": {"type": "Point", "coordinates": [-122.43, 37.76]}}]}, open("parks.geojson.json", "w"))
EOF2
printf '[%s{"name": "z", "acc": true}]' "$(for i in 1 2 3 4 5 6 7 8 9; do printf '{"name": "m%d", "acc": %d0}, {"name": "t%d", "acc": true}, ' $i $i $i; done)" >mixed.json
gi --init a_mixed mixed.json
check "numbers mixed with true: a warning, not plain text" has "WARNING: 9 numbers mixed with 10 true/false values, kept as text"
gi --init a_nest pk.json wrap.json parks.geojson.json
check "nested JSON: exits 0" rc_is 0
same "nested JSON: members two levels down are columns, a big map is text" \
    "$(sqlr a_nest/a_nest.db 'SELECT name, stats_base_hp, stats_base_atk, stats_total, length(moves) > 100 FROM pk ORDER BY _id')" \
    "$(printf '%s\n' "'Bulbasaur'|45|49|318|1" "'Charmander'|39|52|309|0")"
same "records wrapped in an object are the rows" \
    "$(sqlr a_nest/a_nest.db 'SELECT name, v FROM wrap ORDER BY _id')" "$(printf '%s\n' "'a'|1" "'b'|2")"
same "GeoJSON: a row a feature, its properties, id and geometry" \
    "$(sqlr a_nest/a_nest.db 'SELECT name, area, id, json_extract(geometry, "$.coordinates[0]") FROM parks ORDER BY _id')" \
    "$(printf '%s\n' "'Mission Park'|12000|'p1'|-122.42" "'Dolores Park'|64000|'p2'|-122.43")"
printf '{"name":"a","n":1}\n\n{"name":"b","n":2.5}\n  {"n":3,"name":"c"}\n' >rows.jsonl
gi --init a_jsonl rows.jsonl
check "JSON Lines: exits 0" rc_is 0
same "JSON Lines: keys in any order, a blank line" "$(sqlr a_jsonl/a_jsonl.db 'SELECT name, n FROM rows ORDER BY _id')" \
    "$(printf "'a'|1.0\n'b'|2.5\n'c'|3.0")"
same "JSON Lines: n is real" "$(ctype n)" "real"

"$PY" - "$T/shop.db" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE books(isbn TEXT, title TEXT, price REAL, pages INTEGER, in_print INTEGER, genre TEXT);
INSERT INTO books VALUES ('978-1','Dune',9.99,412,1,'scifi'), ('978-2','Emma',5.5,300,0,'romance'),
  ('978-3','Solaris',7.25,204,1,'scifi'), ('978-4','Persuasion',6,249,0,'romance');
CREATE TABLE "order"(id INTEGER PRIMARY KEY, book TEXT, qty INTEGER, placed TEXT);
INSERT INTO "order"(book, qty, placed) VALUES ('Dune',2,'2024-05-01'), ('Emma',1,'2024-05-03'), ('Dune',1,'2024-06-11');
CREATE VIEW cheap AS SELECT * FROM books WHERE price < 7;
""")
c.commit()
EOF
gi --init a_shop shop.db
check "SQLite: exits 0" rc_is 0
check "SQLite: each table, named after it" sh -c "grep -q '^books: 4 rows from shop.db: books, key title' '$T/out' && grep -q '^order_: 3 rows from shop.db: order$' '$T/out'"
check "SQLite: a view is not a table" sh -c "! grep -q '^cheap' '$T/out'"
same "SQLite: types" "$(ctype isbn books)/$(ctype price books)/$(ctype pages books)/$(ctype in_print books)/$(ctype genre books)/$(ctype placed order_)" \
    "text/real/integer/boolean/enum (2)/date"
same "SQLite: the rows of a table named order" "$(q a_shop 'SELECT book, qty, placed FROM order_ ORDER BY _id')" \
    "$(printf 'Dune,2,2024-05-01\nEmma,1,2024-05-03\nDune,1,2024-06-11')"
same "SQLite: a 0/1 column is a boolean" "$(q a_shop 'SELECT title FROM books WHERE in_print ORDER BY title')" "$(printf 'Dune\nSolaris')"

gi --init a_multi "$D/wines.csv" shop.db rows.jsonl
check "several files: exits 0" rc_is 0
same "several files: one table each" "$(grep -E '^[a-z_0-9]+: [0-9]+ rows? from ' "$T/out" | cut -d: -f1 | tr '\n' ' ')" "wines books order_ rows "
printf 'title,n\nX,1\nY,2\n' >books.csv
gi --init a_clash books.csv shop.db
check "a table name taken gets _2" sh -c "grep -q '^books: 2 rows from books.csv' '$T/out' && grep -q '^books_2: 4 rows from shop.db: books' '$T/out'"
printf 'name,v\na,1\nb,2\n' >noext
printf '[{"name":"a"},{"name":"b"}]' >jsonnoext
gi --init a_sniff noext jsonnoext
check "no extension: CSV and JSON known from the first bytes" sh -c "[ $RC = 0 ] && grep -q '^noext: 2 rows from noext' '$T/out' && grep -q '^jsonnoext: 2 rows from jsonnoext' '$T/out'"

# ---- types and their boundaries -----------------------------------------------------
gi --init a_ty "$D/types.csv"
check "types: exits 0" rc_is 0
for ct in "flag01:boolean" "ones:integer" "yn:boolean" "tf:boolean" "zip:text" "qty:integer" \
          "ratio:real" "sci:real" "day:date" "badday:text" "slashday:date" "t1:time" \
          "tags:list of text" "semi:list of enum" "pipe:list of enum" "nosep:text" "kind:enum (2)" \
          "uniq:text" "story:free text" "mixed:integer"; do
    same "types: ${ct%%:*} is ${ct#*:}" "$(ctype "${ct%%:*}")" "${ct#*:}"
done
same "types: stored values" "$(sqlr a_ty/a_ty.db 'SELECT flag01, yn, tf, zip, qty, sci, day, slashday, t1, tags, semi, pipe FROM types ORDER BY _id')" \
    "$(printf '%s\n' \
      "0|1|1|'02139'|1|1000.0|'2024-02-29'|'2024-03-01'|'09:30'|'[\"a\",\"b\"]'|'[\"red\",\"green\"]'|'[\"x\",\"y\"]'" \
      "1|0|0|'10001'|-2|0.25|'2023-12-31'|'2024-03-02'|'19:00'|'[\"b\"]'|'[\"green\",\"blue\"]'|'[\"y\",\"z\"]'" \
      "1|1|1|'94301'|3|7.0|'2000-02-29'|'2024-03-03'|'19:05:30'|'[]'|'[\"red\"]'|'[\"x\"]'" \
      "0|0|0|'00501'|40|0.0|'1999-01-01'|'2024-03-04'|'00:00'|'[\"a\",\"c\"]'|'[\"blue\",\"red\"]'|'[\"z\",\"x\"]'")"
same "types: 2023-02-30 kept as it was" "$(sqlr a_ty/a_ty.db "SELECT badday FROM types WHERE name = 'Ann'")" "'2023-02-30'"
check "types: a list of enum lists its values in the schema" sh -c "'$BIN' --agent a_ty --schema 2>/dev/null | grep -qF \"semi ENUM ('blue', 'green', 'red')[]\""

# boundaries, from generated files
"$PY" - <<'EOF'
def write(name, header, rows):
    with open(name, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(r + "\n")
# enum: at most 24 values, each seen twice on average
write("enum24.csv", "id,kind", ["r%d,kind %s" % (i, chr(97 + i % 24)) for i in range(48)])
write("enum25.csv", "id,kind", ["r%d,kind %s" % (i, chr(97 + i % 25)) for i in range(50)])
write("norepeat.csv", "id,kind", ["r%d,%s" % (i, "abc"[i % 3]) for i in range(5)])
# free text: 7 words on average; 6 is short text
w7 = ["w%d alpha beta gamma delta eps zeta" % i for i in range(6)]
w6 = ["w%d alpha beta gamma delta eps" % i for i in range(6)]
write("words.csv", "id,seven,six", ["r%d,%s,%s" % (i, w7[i], w6[i]) for i in range(6)])
# one value in 50 may not fit; 1 in 49 may not
write("tol50.csv", "item,price", ["i%d,%s" % (i, "call us" if i == 20 else "%d.25" % i) for i in range(50)])
write("tol49.csv", "item,price", ["i%d,%s" % (i, "call us" if i == 20 else "%d.25" % i) for i in range(49)])
# 60 prices, one 'call us'; 60 dates, one 'soon'; 60 yes/no, one 'maybe'
write("prices.csv", "item,price,sold_on,paid",
      ["item %d,%s,%s,%s" % (i, "call us" if i == 41 else "%d.%02d" % (i + 1, i),
                             "soon" if i == 7 else "2024-01-%02d" % (i % 28 + 1),
                             "maybe" if i == 50 else "yes" if i % 2 else "no") for i in range(60)])
# whole numbers and one with a fraction
write("frac.csv", "item,price", ["i%d,%s" % (i, "9.99" if i == 30 else str(i + 1)) for i in range(60)])
# ';' parts that do not repeat
write("semis.csv", "id,codes", ["r%d,a%d;b%d" % (i, i, i) for i in range(6)])
EOF
gi --init a_e24 enum24.csv; same "enum: 24 values that repeat" "$(ctype kind)" "enum (24)"
gi --init a_e25 enum25.csv; same "enum: 25 values is text" "$(ctype kind)" "text"
gi --init a_nr norepeat.csv; same "enum: values that do not repeat twice is text" "$(ctype kind)" "text"
gi --init a_words words.csv
same "free text: 7 words on average" "$(ctype seven)" "free text"
same "free text: 6 words on average is text" "$(ctype six)" "text"
gi --init a_semis semis.csv; same "';' parts that never repeat: text" "$(ctype codes)" "text"
gi --init a_tol50 tol50.csv
same "misfits: 1 in 50 keeps the type" "$(ctype price)" "real"
check "misfits: ... with a warning naming file:line" errhas "genie: warning: tol50.csv:22: price 'call us' is not a real; 1 such value kept as text"
gi --init a_tol49 tol49.csv
same "misfits: 1 in 49 is text" "$(ctype price)" "text"
check "misfits: ... and no warning" sh -c "! grep -q warning '$T/err'"
gi --init a_pr prices.csv
check "60 prices, one 'call us': exits 0" rc_is 0
same "60 prices, one 'call us': real" "$(ctype price)" "real"
check "60 prices: the why counts the misfit" sh -c "grep -q '^  price .*1 value that does not fit is kept as text' '$T/out'"
check "60 prices: a warning naming prices.csv:43" errhas "genie: warning: prices.csv:43: price 'call us' is not a real; 1 such value kept as text"
check "60 dates, one 'soon': a warning naming prices.csv:9" errhas "genie: warning: prices.csv:9: sold_on 'soon' is not a date; 1 such value kept as text"
check "60 yes/no, one 'maybe': a warning naming prices.csv:52" errhas "genie: warning: prices.csv:52: paid 'maybe' is not a boolean; 1 such value kept as text"
same "the misfit is kept as text, the others are numbers" \
    "$(sqlr a_pr/a_pr.db "SELECT price, typeof(price) FROM prices WHERE _id IN (41, 42, 43) ORDER BY _id")" \
    "$(printf "41.4|'real'\n'call us'|'text'\n43.42|'real'")"
same "dates around the misfit stay comparable" "$(q a_pr "SELECT count(*) FROM prices WHERE sold_on BETWEEN '2024-01-27' AND '2024-12-31'")" "4"
gi --init a_frac frac.csv
same "whole numbers and one 9.99: real, not integer" "$(ctype price)" "real"
check "whole numbers and one 9.99: no misfit warning" sh -c "! grep -q warning '$T/err'"

# ---- names ---------------------------------------------------------------------------
printf 'Tasting Notes,Année,order,Color,color,,2024,genie_x,_id,Price ($),select,Notes du Café\n1,2,3,4,5,6,7,8,9,10,11,12\n2,3,4,5,6,7,8,9,10,11,12,13\n' >names.csv
gi --init a_names names.csv
check "names: exits 0" rc_is 0
check "names: a name made unique shows its name in the file" sh -c "grep -q '^  color_2 .*(\"color\" in the file)' '$T/out'"
check "names: an empty name shows it" sh -c "grep -q '^  col_6 .*(\"\" in the file)' '$T/out'"
same "names: made SQL identifiers, unique" \
    "$("$PY" -c 'import sqlite3,sys; print(" ".join(r[1] for r in sqlite3.connect(sys.argv[1]).execute("PRAGMA table_info(names)")))' a_names/a_names.db)" \
    "_id tasting_notes annee order_ color color_2 col_6 c_2024 my_genie_x id price select_ notes_du_cafe"
same "names: each queryable" "$(q a_names 'SELECT tasting_notes, annee, order_, color, color_2, col_6, c_2024, my_genie_x, id, price, select_, notes_du_cafe FROM names ORDER BY _id')" \
    "$(printf '1,2,3,4,5,6,7,8,9,10,11,12\n2,3,4,5,6,7,8,9,10,11,12,13')"
mkdir -p sub
printf 'name,v\na,1\nb,2\n' >"sub/My Orders 2024.csv"
cp "sub/My Orders 2024.csv" sub/2024.csv
gi --init a_tnames "sub/My Orders 2024.csv" sub/2024.csv
check "table names from file names" sh -c "grep -q '^my_orders_2024: 2 rows from My Orders 2024.csv' '$T/out' && grep -q '^c_2024: 2 rows from 2024.csv' '$T/out'"
printf 'name,class,pass,if,return,def,import,lambda,global\na,first,1,x,y,d,i,l,g\nb,second,0,z,w,e,j,m,h\n' >pykw.csv
gi --init a_pykw pykw.csv
check "columns named class, pass, if, return, ...: exits 0" rc_is 0
check "... and each is queryable under some name" sh -c "[ -d a_pykw ] && [ \$('$PY' -c 'import sqlite3,sys; print(len(list(sqlite3.connect(sys.argv[1]).execute(\"PRAGMA table_info(pykw)\"))))' a_pykw/a_pykw.db 2>/dev/null) = 10 ]"
check "... no hidden directory left" no_temp
for t in date time text list str; do
    printf 'nm,x\na,1\nb,2\n' >"sub/$t.csv"
    gi --init "a_t_$t" "sub/$t.csv"
    check "a file named $t.csv (a worksheet type's name): exits 0" rc_is 0
done
printf 'NA,EU,N/A,null\n1,2,3,4\n5,6,7,8\n' >regions.csv
gi --init a_regions regions.csv
same "a header 'NA' or 'null' is a column name, not a null" "$(ctype na)/$(ctype eu)/$(ctype n_a)/$(ctype null_)" "integer/integer/integer/integer"

# ---- the key column ---------------------------------------------------------------
L=$("$PY" -c "print('https://example.com/' + 'x' * 250)")
printf 'label,code,url\nAlpha one,C1,%s\nBeta two,C2,http://b\nGamma,C3,http://c\n' "$L" >codes.csv
gi --init a_key codes.csv
check "key: a column called code is preferred" has "codes: 3 rows from codes.csv, key code"
check "key: marked primary" grep -q '^,internal; primary,str,code,' a_key/worksheet.csv
check "key: the why of a text column with a long value says so" sh -c "grep -q '^  url .*text, some values long (up to 270 bytes)' '$T/out'"
printf 'sku,name,v\nS1,dup,1\nS2,dup,2\nS3,other,3\n' >skus.csv
gi --init a_sku skus.csv
check "key: a name that repeats is not the key" has "skus: 3 rows from skus.csv, key sku"
printf 'a,b\n1,2\n3,4\n' >nums.csv
gi --init a_nokey nums.csv
check "key: none without a text column" sh -c "grep -q '^nums: 2 rows from nums.csv$' '$T/out' && ! grep -q 'primary' a_nokey/worksheet.csv"
gi --agent a_nokey -q --suql 'SELECT a, b FROM nums ORDER BY a'
check "a table without free text: queries without a warning" sh -c "[ $RC = 0 ] && [ ! -s '$T/err' ]"
gi --agent a_nokey --search 'anything'
check "a table without free text: --search says there is none" sh -c "[ $RC = 1 ] && grep -q 'no free-text column to search' '$T/err'"

# ---- bad inputs: FILE:LINE, exit 1, nothing made ----------------------------------------
printf 'a,b\n1,2\n3\n' >short.csv
gi --init bad1 short.csv; fails_cleanly "a short row" bad1 "short.csv:3: this row has 1 field, the header 2"
printf 'a,b\n1,2\n"x\ny",2\n3,4,5\n' >long.csv
gi --init bad2 long.csv; fails_cleanly "a long row after a quoted line break" bad2 "long.csv:5: this row has 3 fields, the header 2"
printf 'a,b\r\n1,"x\r\ny"\r\n\r\n2,3\r\n4\r\n' >crlfrag.csv
gi --init bad3 crlfrag.csv; fails_cleanly "CRLF lines are counted" bad3 "crlfrag.csv:6: this row has 1 field"
printf 'a,b\r1,"x\ry"\r\r2,3\r4\r' >crrag.csv
gi --init bad4 crrag.csv; fails_cleanly "CR lines are counted" bad4 "crrag.csv:6: this row has 1 field"
printf 'a,b\n1,"open\n2,3\n' >unterminated.csv
gi --init bad5 unterminated.csv; fails_cleanly "an unterminated quote" bad5 "unterminated.csv:2: a quoted field is never closed"
printf 'a,b\n1,2\n3,\xff\xfe\n' >latin.csv
gi --init bad6 latin.csv; fails_cleanly "invalid UTF-8" bad6 "latin.csv:3: invalid UTF-8 in column b"
printf 'a,b,c\xe9\n1,2,3\n' >latinhdr.csv
gi --init bad7 latinhdr.csv; fails_cleanly "invalid UTF-8 in the header" bad7 "latinhdr.csv:1: invalid UTF-8 in column 3"
printf 'a,b\n1,x\0y\n' >nul.csv
gi --init bad8 nul.csv; fails_cleanly "a NUL byte" bad8 "nul.csv:2: a NUL byte in column b"
printf '[{"a":1},\n{"a":2,}\n]' >trailing.json
gi --init bad9 trailing.json; fails_cleanly "broken JSON" bad9 "trailing.json:2: this object is not valid JSON"
"$PY" -c 'print("[{\"a\": 1, \"deep\": " + "[" * 1500 + "]" * 1500 + "}]")' >deep.json
gi --init bad9d deep.json; fails_cleanly "valid JSON nested too deep says so" bad9d "deep.json:1: this object nests arrays and objects 1501 deep, more than the 1000 levels genie reads"
"$PY" -c 'print(",".join("c%d" % i for i in range(100000))); print(",".join("1" * 100000))' >wide.csv
gi --init bad9w wide.csv; fails_cleanly "100,000 columns: refused at once, the limit named" bad9w "wide.csv:1: more than 1000 columns; genie imports at most 1000"
"$PY" -c 'print("{\"a\": 1, " + ", ".join("\"k%d\": 1" % i for i in range(1200)) + "}")' >wide.jsonl
gi --init bad9j wide.jsonl; fails_cleanly "JSON keys past the column limit" bad9j "wide.jsonl:1: more than 1000 columns"
"$PY" -c 'print("\"" * 50000000)' >quotes.csv
gi --init bad9q quotes.csv; fails_cleanly "a 25 MB header name is refused, not a bug" bad9q "quotes.csv:1: column 1's name is 24999999 bytes long; at most 1024"
mkfifo pipe.csv
timeout 20 "$BIN" --init bad9p pipe.csv >"$T/out" 2>"$T/err"; echo $? >"$T/rc"
check "a FIFO as a data file: refused at once (it is read twice)" sh -c "[ \"\$(cat '$T/rc')\" = 2 ] && grep -q 'pipe.csv: not a regular file' '$T/err'"
printf '[{"a":1},\n{"a":2}\n' >open.json
gi --init bad10 open.json; fails_cleanly "a JSON array never closed" bad10 "open.json:3: the array is never closed with ']'"
printf '{"a":1}\n{"a":\n' >open.jsonl
gi --init bad11 open.jsonl; fails_cleanly "a JSON Lines object never closed" bad11 "open.jsonl:2: this object is never closed"
printf '{"name":"a"}\n{"name":"b"}\nnot json\n' >junk.jsonl
gi --init bad12 junk.jsonl; fails_cleanly "text in JSON Lines" bad12 "junk.jsonl:3: expected an object '{', found 'n'"
printf '[1, 2]' >nums.json
gi --init bad13 nums.json; fails_cleanly "a JSON array of numbers" bad13 "nums.json:1: expected an object '{' or the array's end ']'"
: >empty.csv
gi --init bad14 empty.csv; fails_cleanly "an empty CSV" bad14 "empty.csv:1: the file is empty"
printf '[]' >empty.json
gi --init bad15 empty.json; fails_cleanly "an empty JSON array" bad15 "empty.json: no data (no columns)"
printf 'just some text that is not a database\n' >fake.db
gi --init bad16 fake.db; fails_cleanly "a .db that is not SQLite" bad16 "fake.db: not a SQLite database"
"$PY" - "$T/blob.db" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("CREATE TABLE pics(name TEXT, img BLOB); INSERT INTO pics VALUES ('a', x'00ff');")
c.commit()
EOF
gi --init bad17 blob.db; fails_cleanly "a BLOB column" bad17 "blob.db: pics, row 1: column img holds binary data"
gi --init bad18 "$D/wines.csv" short.csv; fails_cleanly "a bad second file: nothing of the first is made" bad18 "short.csv:3:"
# A DIR whose parent is missing: made as mkdir -p would, or an error that
# names the directory (not a temporary name) and leaves nothing.
gi --init nodir/sub/agent "$D/wines.csv"
if [ "$RC" = 0 ]; then
    same "a DIR whose parent does not exist: made, and it answers" \
        "$(q nodir/sub/agent 'SELECT count(*) FROM wines')" "4"
else
    check "a DIR whose parent does not exist: an error naming it, not a temp name" sh -c \
        "[ $RC = 1 ] && grep -q 'nodir/sub' '$T/err' && ! grep -q '\.init-' '$T/err' && [ -z \"\$(find nodir -name '.*init-*' 2>/dev/null)\" ]"
fi

# A SQLite file with a full-text index: its regular tables are imported
# (the FTS5 table's shadow tables hold BLOBs and are not data).
"$PY" - "$T/fts.db" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""CREATE TABLE notes(title TEXT, body TEXT);
INSERT INTO notes VALUES ('a', 'hello world'), ('b', 'good bye');
CREATE VIRTUAL TABLE notes_fts USING fts5(body);
INSERT INTO notes_fts VALUES ('hello world');""")
c.commit()
EOF
gi --init a_fts fts.db
check "SQLite with an FTS5 index: exits 0" rc_is 0
same "SQLite with an FTS5 index: the notes are imported" "$(q a_fts 'SELECT title FROM notes ORDER BY title')" "$(printf 'a\nb')"

# Large integers stay exact.
printf 'name,id\na,1234567890123456789\nb,9007199254740993\n' >big.csv
gi --init a_bigint big.csv
same "a 19-digit integer is stored exactly" "$(sqlr a_bigint/a_bigint.db 'SELECT id FROM big ORDER BY _id')" "$(printf '1234567890123456789\n9007199254740993')"
printf '[{"name":"a","id":9007199254740993},{"name":"b","id":1234567890123456789}]' >big.json
gi --init a_bigjson big.json
same "a large JSON integer is stored exactly" "$(sqlr a_bigjson/a_bigjson.db 'SELECT id FROM big ORDER BY _id')" "$(printf '9007199254740993\n1234567890123456789')"
"$PY" -c '
import random
random.seed(1)
print("item,size,grade")
for i in range(40): print("i%d,%s,%s" % (i, random.choice(["Small", "Medium", "Large"]), random.choice(["9", "10", "75", "100", "n/a"])))' >sizes.csv
gi --init a_sizes sizes.csv
same "an inferred enum of a known scale is listed by meaning" "$(grep -o 'Small\|Medium\|Large' a_sizes/worksheet.csv | tr '\n' ' ')" "Small Medium Large "
check "... and says so" has "ordered by meaning"
same "... so >= 'Medium' means Medium or Large" "$(q a_sizes "SELECT count(*) FROM sizes WHERE size >= 'Medium'")" "$(q a_sizes "SELECT count(*) FROM sizes WHERE size IN ('Medium', 'Large')")"
printf 'title,released\nPi,Jul 10 1998\nRushmore,"Dec 11, 1998"\nThe Departed,Sep 30 2006\nUp,29 May 2009\n' >films.csv
gi --init a_films films.csv
same "dates with a named month are dates: the latest is the latest" "$(q a_films 'SELECT title, released FROM films ORDER BY released DESC LIMIT 2')" "$(printf 'Up,2009-05-29\nThe Departed,2006-09-30')"

# ---- existing directories, --force ---------------------------------------------------
gi --init keep "$D/wines.csv"
echo "mine" >keep/notes.txt
before=$(cd keep && md5sum * | sort)
gi --init keep books.csv
check "an agent DIR without --force: exits 2" rc_is 2
check "... saying to give --force" errhas "keep already holds an agent; give --force to replace it"
same "... and leaves it untouched" "$(cd keep && md5sum * | sort)" "$before"
rm keep/notes.txt       # --force would refuse it (below)
gi --init keep books.csv --force
check "--force replaces an agent DIR: exits 0" rc_is 0
same "--force: the new table is there, the old one gone" "$(q keep 'SELECT title FROM books ORDER BY title')" "$(printf 'X\nY')"
check "--force: the old table is gone" sh -c "! '$BIN' --agent keep -q --suql 'SELECT name FROM wines' >/dev/null 2>&1"
check "--force: no hidden directory left" no_temp
mkdir -p other && echo "precious" >other/data.txt
gi --init other books.csv --force
check "a non-agent DIR with --force: exits 2" rc_is 2
check "... saying it is not an agent directory" errhas "other exists and is not an agent directory"
same "... and leaves it untouched" "$(ls -A other)/$(cat other/data.txt)" "data.txt/precious"
echo "a file" >plainfile
gi --init plainfile books.csv --force
check "a file at DIR: exits 2, untouched" sh -c "[ $RC = 2 ] && [ \"\$(cat plainfile)\" = 'a file' ]"
mkdir -p emptydir
gi --init emptydir books.csv
check "an empty DIR: made there" sh -c "[ $RC = 0 ] && [ -f emptydir/agent.ini ] && [ -f emptydir/emptydir.db ]"
gi --init slash/ books.csv
check "DIR with a trailing slash: made" sh -c "[ $RC = 0 ] && [ -f slash/slash.db ]"
gi --init own "$D/wines.csv"
cp books.csv own/books.csv
gi --init own own/books.csv --force
check "--force never deletes the data file it reads from DIR" [ -f own/books.csv ]
gi --init keep short.csv --force
check "--force and a bad file: exits 1" rc_is 1
same "--force and a bad file: the old agent stays" "$(q keep 'SELECT title FROM books ORDER BY title')" "$(printf 'X\nY')"
check "--force and a bad file: no hidden directory left" no_temp
gi --init linked books.csv
ln -s linked via
gi --init via "$D/wines.csv" --force
check "--force through a symbolic link: exits 0" rc_is 0
check "... the directory it names is replaced, the link stays" sh -c "[ -L via ] && [ -d linked ] && [ -f linked/via.db ] && [ ! -e linked/linked.db ]"
same "... and holds the new agent" "$(q via 'SELECT count(*) FROM wines')" "4"
echo "mine" >linked/notes.txt
printf '[api]\n' >linked/apis.ini
gi --init via/ books.csv --force
check "--force when DIR holds files --init did not make: exits 2" rc_is 2
check "... naming them" sh -c "grep -q 'via/ holds files --init did not make (' '$T/err' && grep -q 'notes.txt' '$T/err' && grep -q 'apis.ini' '$T/err'"
check "... and deletes nothing" sh -c "[ -f linked/notes.txt ] && [ -f linked/apis.ini ] && [ -f linked/via.db ]"

# ---- the index, -q, Ctrl-C ---------------------------------------------------------
gi -q --init quiet "$D/wines.csv"
check "-q: nothing on stderr" sh -c "[ $RC = 0 ] && [ ! -s '$T/err' ]"
check "-q: the table still on stdout" has "wines: 4 rows from wines.csv, key name"
gi --init noindex "$D/wines.csv" --vectors "$T/no-vectors.bin"
check "an index that cannot be built: exits 1" rc_is 1
check "... saying the agent is there and the next start builds it" errhas "the agent is in noindex, but its index could not be built"
gi --agent noindex -q --suql "SELECT count(*) FROM wines"
check "... and the next start answers" sh -c "[ $RC = 0 ] && grep -qx 4 '$T/out'"

"$PY" -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("name,qty,price\n")
    for i in range(400000):
        f.write("n%d,%d,%d.5\n" % (i, i, i))' "$T/huge.csv"
"$BIN" --init huge huge.csv >"$T/out" 2>"$T/err" &
HP=$!
for i in $(seq 400); do grep -q 'rows' "$T/err" 2>/dev/null && break; sleep 0.02; done
kill -INT $HP 2>/dev/null
wait $HP; RC=$?
check "Ctrl-C while reading: exits 130" rc_is 130
check "Ctrl-C: says nothing was written" errhas "genie: interrupted; nothing was written"
check "Ctrl-C: no DIR, no hidden directory" sh -c "[ ! -e huge ] && [ -z \"\$(ls -a '$T' | grep -E '^\\..+\\.(init|old)-')\" ]"
# The terminal closing (SIGHUP) cancels the same way.
"$BIN" --init hup huge.csv >"$T/out" 2>"$T/err" &
HP=$!
for i in $(seq 400); do grep -q 'rows' "$T/err" 2>/dev/null && break; sleep 0.02; done
kill -HUP $HP 2>/dev/null
wait $HP; RC=$?
check "SIGHUP while reading: exits 130, nothing written" sh -c "[ $RC = 130 ] && grep -q 'interrupted; nothing was written' '$T/err'"
check "SIGHUP: no DIR, no hidden directory" sh -c "[ ! -e hup ] && [ -z \"\$(ls -a '$T' | grep -E '^\\..+\\.(init|old)-')\" ]"

# ---- what is printed can be run as printed --------------------------------------------
# The Next: lines are commands to paste: each --suql one runs.
# next_runs DIR FILE: the first Next: --suql line of genie --init DIR FILE,
# run as printed (with -q; the program as printed too), says "(4 rows)".
next_runs() {
    gi --init "$1" "$2"
    local cmd out
    cmd=$(grep -m1 "^  .* --agent .* --suql 'SELECT" "$T/out" | sed 's/^  //')
    out=$(eval "$cmd -q" 2>&1)         # the whole line, its program too
    case $out in *"(4 rows)"*) return 0 ;; *) echo "$cmd: $out" >"$T/err"; return 1 ;; esac
}
check "the Next: --suql line runs as printed" next_runs next_plain "$D/wines.csv"
check "the Next: --suql line runs as printed, for a DIR with a space" next_runs "My Wines" "$D/wines.csv"
check "agent.ini: no stray spaces in the greeting" sh -c "! grep -q '^greeting = .*  ' a_multi/agent.ini && ! grep -q '^greeting = .* \\.' a_multi/agent.ini"

# ---- descriptions drafted by the LLM (the draft stage) ----------------------------------
# With an endpoint, one call drafts the agent's description, greeting and a
# sentence per table and column ("key: text" lines, read leniently); the
# lines it lacks, and any failure, fall back to the drafts from the data.
cat >"$T/draft.json" <<'JSON'
{"chat": {"rules": [
  {"stage": "draft", "times": 1, "reply": "Sure! Here they are:\n**agent**: You help people choose a wine from a cellar list.\ngreeting: Hi # there; what would you like to drink?\n- wines: One wine of the cellar, with its price.\n1. wines.price: Price per bottle in \"US dollars\", e.g. 12.5, 20\nwines.zip: The ZIP code, five digits\nwines.nosuch: not a column\ntasting_notes: What the wine tastes like, in the sommelier's words."},
  {"stage": "draft", "times": 1, "status": 500},
  {"stage": "draft", "times": 1, "reply": "I cannot help with that."}
], "default": {"reply": "mock reply"}}}
JSON
rm -f "$T/mock.log"
if start_mock --script "$T/draft.json"; then
    LLM=(--llm-url "$URL" -m mock --no-cache --retries 0)
    gi --init drafted "$D/wines.csv" "${LLM[@]}"
    check "drafts: exits 0" rc_is 0
    check "drafts: says it drafts with the LLM" errhas "genie: drafting the descriptions with the LLM (mock)"
    check "drafts: no warning" sh -c "! grep -q warning '$T/err'"
    same "drafts: the agent's description" "$(grep '^description = ' drafted/agent.ini)" \
        "description = You help people choose a wine from a cellar list."
    check "drafts: the greeting, one line, without comment markers" sh -c \
        "grep -q '^greeting = Hi .*there.* what would you like to drink?\$' drafted/agent.ini && [ \$(grep -v '^;' drafted/agent.ini | grep -c '[;#]') = 0 ]"
    same "drafts: the table's sentence" "$(sed -n 2p drafted/worksheet.csv)" 'wines,,db,,,"One wine of the cellar, with its price.",,,,,'
    same "drafts: a column's sentence, quoted for CSV" "$(grep '^,internal,float,price,' drafted/worksheet.csv)" \
        ',internal,float,price,,"Price per bottle in ""US dollars"", e.g. 12.5, 20",,,,,'
    same "drafts: a bare column name with one table" "$(grep '^,internal,text,tasting_notes,' drafted/worksheet.csv)" \
        ",internal,text,tasting_notes,,\"What the wine tastes like, in the sommelier's words.\",,,,,"
    same "drafts: a column it did not describe is drafted from the data" "$(grep '^,internal,int,annee,' drafted/worksheet.csv)" \
        ',internal,int,annee,,"Année, a whole number, e.g. 2019, 2020.",,,,,'
    gi --agent drafted --schema
    check "drafts: --schema shows them" sh -c "grep -qF -- '-- Price per bottle in \"US dollars\", e.g. 12.5, 20' '$T/out' && grep -qF -- '-- The ZIP code, five digits' '$T/out'"
    prompt=$("$PY" -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    h = {k.lower(): v for k, v in d["headers"].items()}
    if h.get("x-genie-stage") == "draft":
        print("\n".join(m["content"] for m in d["json"]["messages"] if isinstance(m["content"], str)))
        break' "$T/mock.log")
    check "drafts: the prompt lists the table and its columns with types" sh -c \
        "printf '%s\n' \"\$1\" | grep -qx 'Table wines: 4 rows, from the file wines.csv' && printf '%s\n' \"\$1\" | grep -q '^- grapes (list of enum), e.g. ' && printf '%s\n' \"\$1\" | grep -q '^- in_stock (boolean)'" _ "$prompt"
    # The descriptions steer the SUQL parser, so the prompt's examples are
    # the values as stored (09:30, 19:00; 1/0), not as typed in the file
    # (9:30, 7pm; yes/no): "opens = '7pm'" would find nothing.
    check "drafts: the prompt's examples of a time are as stored" sh -c \
        "printf '%s\n' \"\$1\" | grep -qxF -e \"- opens (time), e.g. '09:30', '19:00', '19:05:30'\"" _ "$prompt"
    check "drafts: the prompt's examples of a boolean are not the file's yes/no" sh -c \
        "printf '%s\n' \"\$1\" | grep '^- in_stock (boolean)' | grep -qv 'yes'" _ "$prompt"
    gi --init drafted500 "$D/wines.csv" "${LLM[@]}"
    check "drafts: an HTTP 500 is a warning, the agent is made" sh -c \
        "[ $RC = 0 ] && grep -q \"genie: warning: the LLM's drafts cannot be used\" '$T/err' && [ -f drafted500/agent.ini ]"
    same "drafts: ... with the descriptions from the data" "$(grep '^description = ' drafted500/agent.ini)" \
        "$(grep '^description = ' wine/agent.ini)"
    gi --init draftednone "$D/wines.csv" "${LLM[@]}"
    check "drafts: a reply without lines is a warning, the agent is made" sh -c \
        "[ $RC = 0 ] && grep -q \"its reply had no 'name: description' lines\" '$T/err' && [ -f draftednone/agent.ini ]"
    n=$(grep -c '"route"' "$T/mock.log")
    gi --init draftedoff "$D/wines.csv" "${LLM[@]}" --offline
    check "drafts: --offline makes no call" sh -c "[ $RC = 0 ] && [ \$(grep -c '\"route\"' '$T/mock.log') = $n ]"
    stop_mock
else
    notok "drafts: the mock server starts" "$(cat "$T/mock.err" 2>/dev/null)"
fi
# Ctrl-C while the LLM drafts: cancelled at once, not when the call ends.
printf '{"chat": {"rules": [{"stage": "draft", "stall": 12, "reply": "agent: late"}]}}' >"$T/stall.json"
if start_mock --script "$T/stall.json"; then
    seen=$(cat "$T/mock.log" 2>/dev/null | wc -l)
    "$BIN" --init stalled "$D/wines.csv" --llm-url "$URL" -m mock --no-cache --retries 0 >"$T/out" 2>"$T/err" &
    GP=$!
    # Interrupted once the draft request is at the server, which stalls
    # 12 s before its first byte: ending before then is ending at once.
    for i in $(seq 200); do tail -n +$((seen + 1)) "$T/mock.log" 2>/dev/null | grep -q '"draft"' && break; sleep 0.05; done
    t0=$(date +%s)
    kill -INT $GP 2>/dev/null
    wait $GP; RC=$?
    secs=$(( $(date +%s) - t0 ))
    check "Ctrl-C while the LLM drafts: exits 130" rc_is 130
    check "Ctrl-C while the LLM drafts: before the stalled reply could come (took ${secs} s of 12)" [ "$secs" -lt 12 ]
    check "Ctrl-C while the LLM drafts: nothing left" no_temp
    check "Ctrl-C while the LLM drafts: no DIR" [ ! -e stalled ]
    stop_mock
else
    notok "stall: the mock server starts" "$(cat "$T/mock.err" 2>/dev/null)"
fi

# ---- a conversation with the mock LLM ---------------------------------------------------
# The parser's scripted replies give the SUQL; the answers come from the
# imported table, and the prompts describe it from the drafted worksheet.
cat >"$T/conv.json" <<'JSON'
{"chat": {"rules": [
  {"stage": "parse", "times": 1, "reply": "answer(\"which red wines cost more than 10?\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name, price FROM wines WHERE color = 'red' AND price > 10 ORDER BY price DESC;"},
  {"stage": "respond", "times": 1, "reply": "Gamma (33.25) and Beta (20)."},
  {"stage": "parse", "times": 1, "reply": "answer(\"which wines in stock have merlot, opened before noon or later?\")"},
  {"stage": "kb_parse", "times": 1, "reply": "SELECT name, when_, opens FROM wines WHERE in_stock = TRUE AND 'merlot' = ANY (grapes) ORDER BY when_;"},
  {"stage": "respond", "times": 1, "reply": "Alpha and Gamma."}
], "default": {"reply": "mock reply"}}}
JSON
rm -f "$T/mock.log"
if start_mock --script "$T/conv.json"; then
    printf '%s\n' "Which red wines cost more than 10 dollars?" "And which ones in stock have merlot?" |
        "$BIN" --agent wine --plain --format json --llm-url "$URL" -m mock --no-cache -q --retries 0 \
            --today 2026-03-13 --sessions "$T/conv.db" >"$T/out" 2>"$T/err"; RC=$?
    check "mock LLM: the conversation exits 0" rc_is 0
    summary=$("$PY" - "$T/out" <<'EOF'
import json, sys
turns, cur = [], []
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    ev = json.loads(line)
    cur.append(ev)
    if ev["event"] == "timings":
        turns.append(cur)
        cur = []
print(len(turns))
for t in turns:
    suql = [e["text"] for e in t if e["event"] == "suql"]
    rows = [e["data"]["rows"] for e in t if e["event"] == "result"]
    resp = [e["text"] for e in t if e["event"] == "response"]
    errs = [e for e in t if e["event"] == "error"]
    print(json.dumps({"suql": suql, "rows": rows, "response": resp, "errors": len(errs)}, sort_keys=True))
EOF
)
    same "mock LLM: two turns" "$(printf '%s\n' "$summary" | sed -n 1p)" "2"
    same "mock LLM: turn 1 runs the parser's SUQL on the imported table" "$(printf '%s\n' "$summary" | sed -n 2p)" \
        '{"errors": 0, "response": ["Gamma (33.25) and Beta (20)."], "rows": [[{"name": "Gamma", "price": 33.25}, {"name": "Beta", "price": 20}]], "suql": ["SELECT name, price FROM wines WHERE color = '"'red'"' AND price > 10 ORDER BY price DESC"]}'
    same "mock LLM: turn 2 filters on a boolean and a list, dates and times as stored" "$(printf '%s\n' "$summary" | sed -n 3p)" \
        '{"errors": 0, "response": ["Alpha and Gamma."], "rows": [[{"name": "Alpha", "opens": "09:30", "when_": "2023-01-05"}, {"name": "Gamma", "opens": "19:05:30", "when_": "2024-02-29"}]], "suql": ["SELECT name, when_, opens FROM wines WHERE in_stock = TRUE AND '"'merlot'"' = ANY (grapes) ORDER BY when_"]}'
    prompts=$("$PY" - "$T/mock.log" <<'EOF'
import json, sys
seen = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    h = {k.lower(): v for k, v in d["headers"].items()}
    st = h.get("x-genie-stage")
    msgs = (d.get("json") or {}).get("messages", [])
    text = "\n".join(m["content"] if isinstance(m["content"], str) else
                     " ".join(p.get("text", "") for p in m["content"]) for m in msgs)
    seen.setdefault(st, []).append(text)
kb = seen.get("kb_parse", [""])[0]
resp = seen.get("respond", [""])[0]
print("calls", " ".join("%s=%d" % (k, len(v)) for k, v in sorted(seen.items())))
for want in ("CREATE TABLE wines (", "in_stock BOOLEAN", "grapes ENUM ('grenache', 'merlot', 'syrah')[]",
             "color ENUM ('red', 'white')", "when_ DATE", "opens TIME", "tasting_notes FREE_TEXT"):
    print("kb_parse has %s: %s" % (want, want in kb))
print("respond has the rows: %s" % ("Gamma" in resp and "33.25" in resp))
print("parse says there are no tasks=%s" % ("(none: this agent has no tasks" in seen.get("parse", [""])[0]))
EOF
)
    same "mock LLM: one parse, kb_parse and respond call a turn" "$(printf '%s\n' "$prompts" | sed -n 1p)" "calls kb_parse=2 parse=2 respond=2"
    same "mock LLM: the SUQL parser's prompt shows the drafted schema" \
        "$(printf '%s\n' "$prompts" | grep '^kb_parse has ' | grep -v ': True$')$(printf '%s\n' "$prompts" | grep -c ': True$')" "8"
    check "mock LLM: the reply's prompt has the rows found" sh -c "printf '%s\n' \"\$1\" | grep -q 'respond has the rows: True'" _ "$prompts"
    check "mock LLM: the parser hears the agent has no tasks, not an empty list" sh -c "printf '%s\n' \"\$1\" | grep -q 'parse says there are no tasks=True'" _ "$prompts"
    stop_mock
else
    notok "mock LLM: the mock server starts" "$(cat "$T/mock.err" 2>/dev/null)"
fi

finish
