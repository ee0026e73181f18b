#!/usr/bin/env bash
# locale.sh — genie in comma-decimal locales (de_DE.UTF-8, fr_FR.UTF-8):
# characters and messages follow the user's locale, numbers and dates
# never do.  Each run is compared byte for byte with the same run in the C
# locale: --version, --print-config, --suql in its three formats, an
# offline conversation whose worksheet holds numbers, and a screen under
# tmux (against C.UTF-8 there: the screen needs UTF-8).  A Retry-After
# HTTP date from the mock server must be honoured, and a system message
# must come in the user's language.
#
# The locales come from scripts/setup.sh; a missing one is a failure, since
# genie would silently run in C and prove nothing.  Prints "ok - NAME" /
# "not ok - NAME" per check and "N passed, N failed" last.  Environment:
# GENIE_TOP, GENIE_BIN.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init locale
BIN=${GENIE_BIN:-$TOP/build/genie}
export HOME=$T XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_STATE_HOME=$T/state XDG_CACHE_HOME=$T/cache
# LANG alone names the locale of a run: any LC_* would override it.
unset LANGUAGE $(env | sed -n 's/^\(LC_[A-Z_]*\)=.*/\1/p')

LOCALES=""
for loc in de_DE.UTF-8 fr_FR.UTF-8; do
    if [ "$(LANG=$loc locale decimal_point 2>/dev/null)" = "," ]; then
        LOCALES="$LOCALES $loc"
    else
        notok "$loc is installed, with a decimal comma (scripts/setup.sh generates it)"
    fi
done

cp "$TOP/sample_db/restaurants.db" "$T/r.db"
for x in faiss vec lex; do cp "$TOP/sample_db/restaurants.db.$x" "$T/r.db.$x"; done

# g L NAME ARGS...: genie with LANG=L, stdin from $IN when set;
# $T/L.NAME.{out,err,rc} keep what it did ($T/out and $T/err too, for check).
g() {
    local loc=$1 n=$2; shift 2
    LANG=$loc "$BIN" "$@" <"${IN:-/dev/null}" >"$T/$loc.$n.out" 2>"$T/$loc.$n.err"
    echo $? >"$T/$loc.$n.rc"
    cp "$T/$loc.$n.out" "$T/out"; cp "$T/$loc.$n.err" "$T/err"
}
# same L NAME [REF]: the run NAME in L did what it did in REF (C); when
# not, $T/out has the difference and $T/err what L's run said.
same() {
    local x r=${3:-C}
    for x in out err rc; do
        cmp -s "$T/$r.$2.$x" "$T/$1.$2.$x" && continue
        diff "$T/$r.$2.$x" "$T/$1.$2.$x" | head -10 >"$T/out"
        cp "$T/$1.$2.err" "$T/err"
        return 1
    done
}
# shows L NAME TEXT: the output of the run NAME in L has TEXT.
shows() { grep -qF -- "$3" "$T/$1.$2.out"; }

RQ="SELECT name, rating, rating * 0.5 AS half, 1.25 AS k FROM restaurants WHERE location = 'Palo Alto' AND 'italian' = ANY (cuisines) ORDER BY rating DESC, name LIMIT 3"
# An offline conversation: a query whose rows go into the worksheet, then
# a statement with a float literal the worksheet language prints back.
printf '%s\n' "$RQ" \
    "Book_Restaurant(restaurant=\"Papa Nino's Trattoria\", num_people=2, date=\"tomorrow\", special_requests=\"a table for \" + str(2.5) + \" hours\")" \
    >"$T/chat.in"
# Timings differ from run to run: dropped before comparing.
steady() {
    "$PY" -c 'import json, sys
for line in open(sys.argv[1]):
    ev = json.loads(line)
    if ev["event"] == "timings": continue
    if isinstance(ev.get("data"), dict): ev["data"].pop("ms", None)
    print(json.dumps(ev, sort_keys=True))' "$1" >"$1.steady" && mv "$1.steady" "$1"
}
chat() {
    IN=$T/chat.in g "$1" chat --plain --format json --offline -q --agent restaurants --db "$T/r.db" \
        --today 2026-03-13 --sessions "$T/$1.s.db" --no-cache
    steady "$T/$1.chat.out"
}

for loc in C $LOCALES; do
    g "$loc" version --version
    g "$loc" config --print-config
    for f in table csv json; do g "$loc" "suql-$f" -q --db "$T/r.db" --suql "$RQ" --format "$f"; done
    chat "$loc"
    g "$loc" nodb --schema --db "$T/missing.db"
done
check "C: the table shows the ratings and the products" sh -c "grep -q \"^Papa Nino's Trattoria  4.6     2.3   1.25\$\" '$T/C.suql-table.out'"
check "C: the worksheet holds the rows' ratings" shows C chat '"rating\": 4.6'
check "C: the worksheet language prints its float" shows C chat '"a table for 2.5 hours"'
for loc in $LOCALES; do
    check "$loc: --version" same "$loc" version
    check "$loc: --print-config" same "$loc" config
    for f in table csv json; do check "$loc: --suql --format $f" same "$loc" "suql-$f"; done
    check "$loc: an offline conversation with worksheet numbers" same "$loc" chat
    check "$loc: system messages in the user's language" \
        sh -c "[ \$(cat '$T/$loc.nodb.rc') = 1 ] && ! cmp -s '$T/C.nodb.err' '$T/$loc.nodb.err'"
done

# ---- a Retry-After HTTP date ------------------------------------------------------
if start_mock; then
    for loc in C $LOCALES; do
        when=$(LC_ALL=C date -u -d "@$(($(date +%s) + 2))" '+%a, %d %b %Y %H:%M:%S GMT')
        curl -s -o /dev/null -X POST -H 'Content-Type: application/json' "$URL/_mock/script" \
            -d "{\"chat\": [{\"times\": 1, \"status\": 429, \"retry_after\": \"$when\"}, {\"reply\": \"OK\"}]}"
        g "$loc" retry --check-llm --llm-url "$URL" --no-cache
        check "$loc: a Retry-After HTTP date is honoured" \
            sh -c "[ \$(cat '$T/$loc.retry.rc') = 0 ] && grep -qE 'HTTP 429; retrying in [1-3]\.0 s' '$T/$loc.retry.err'"
    done
    stop_mock
else
    notok "the mock server starts"
fi

# ---- the screen ------------------------------------------------------------------
if command -v tmux >/dev/null 2>&1; then
    SOCK=genie-locale-$$
    tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
    trap 'tm kill-server 2>/dev/null; cleanup' EXIT
    # screen_in L: the offline screen at 100x30 after /suql, in $T/L.screen.out.
    screen_in() {
        tm kill-server 2>/dev/null
        printf '%q ' env LANG="$1" GENIE_SCREEN_TEST=1 TERM=screen-256color "$BIN" --offline \
            --agent restaurants --db "$T/r.db" --sessions "$T/$1.tui.db" >"$T/cmd"
        tm new-session -d -x 100 -y 30 -s g "$(cat "$T/cmd"); sleep 600"
        tm set-option -t g status off >/dev/null
        local i
        for i in $(seq 200); do tm capture-pane -p -t g | grep -q "ready" && break; sleep 0.05; done
        tm send-keys -t g "/suql $RQ" Enter
        for i in $(seq 200); do tm capture-pane -p -t g | grep -q "(3 rows)" && break; sleep 0.05; done
        tm capture-pane -p -t g >"$T/$1.screen.out"
        : >"$T/$1.screen.err"; echo 0 >"$T/$1.screen.rc"
        tm kill-server 2>/dev/null
    }
    screen_in C.UTF-8
    check "C.UTF-8: the screen shows the ratings" shows C.UTF-8 screen "4.6     2.3   1.25"
    for loc in $LOCALES; do
        screen_in "$loc"
        check "$loc: the screen" same "$loc" screen C.UTF-8
    done
else
    notok "tmux is installed (scripts/setup.sh installs it)"
fi

finish
