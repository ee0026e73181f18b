#!/usr/bin/env bash
# examples.sh — every shell example of the README and the man pages, run
# as written.
#
# The examples are read from the documents themselves (tests/lib/examples.py
# says what counts as one: the commands of the README's shell blocks and
# "$ " lines, the "$ " lines of the man pages' literal displays), never
# copied here, so an example added to a document is run by the next test.
# Each document's examples run in order, in a directory laid out like the
# repository root (build/genie, build/share/genie, sample_db/), where
# build/genie is a copy of the binary under test and `genie` finds it
# first on PATH; nothing in it links back to the repository, so an example
# that books a table, rebuilds an index or writes a file writes there.
# HOME and XDG_* point into the same temporary directory, no GENIE_* or
# OPENAI_* setting is inherited and no LLM is configured, so genie runs
# offline unless an example names an endpoint.  Variables an example
# exports stay set for the rest of its document, as in a reader's shell.
#
# Each example that runs must, within its time limit, exit 0 (or the status
# EXPECT_STATUS below gives), print nothing that starts "genie: error" or
# "genie: warning", and show what the document shows after it (see
# `examples.py match`; a conversation transcript is typed to it), unless
# ILLUSTRATIVE says the shown text is an illustration.  An example is
# run only when its first word is a program that runs here
# (RUNNABLE); one that cannot run must be in NOT_RUN with the reason, and
# one that is in neither fails, so a new example is never skipped silently.
# A pattern in any table that no longer matches an example fails too.
#
# Prints "ok - NAME" / "not ok - NAME" per check ("# SKIP" for the examples
# not run) and "N passed, N failed" last.  Environment: GENIE_TOP,
# GENIE_BIN, PYTHON; KEEP_T=1 keeps the temporary directory.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init examples
BIN=${GENIE_BIN:-$TOP/build/genie}
EX=$TOP/tests/lib/examples.py
TMO=${EXAMPLE_TIMEOUT:-30}
export LC_ALL=C.UTF-8

# The documents: the README and every man page.
DOCS=(README.md)
for p in "$TOP"/man/*.[1-9]; do [ -f "$p" ] && DOCS+=("man/${p##*/}"); done

# ---- what cannot run, and how the others run ------------------------------
# The tables match an example's command on one line (continuation lines
# joined, blank runs collapsed, comments kept) with a shell pattern.

# NOT_RUN: PATTERN REASON.
NOT_RUN=(
    'make*'
        'runs the Makefile: builds, installs or runs the whole test suite, which make test itself does (install.sh covers make install)'
    'git clone *'
        'needs the network and the repository address the reader fills in'
    'llama-server *'
        'starts a local llama.cpp server; the mock LLM server stands in for it'
    'vllm serve *'
        'starts a local vLLM server; the mock LLM server stands in for it'
    'ollama pull *'
        'downloads a model for Ollama; the mock LLM server stands in for it'
    '*https://api.openai.com/*'
        'needs the hosted OpenAI API and a real key'
    '*--explain "..."*'
        'the "..." stands for the query of the example before it, which runs'
)

# RUNNABLE: the first words (after VAR=value assignments) of examples that
# run here; anything else must be in NOT_RUN.
RUNNABLE=" genie build/genie printf echo cat export for "

# CONVERSATION: examples whose shown text is a conversation transcript: its
# typed lines are the input and the replies must be printed.
CONVERSATION=(
    'build/genie --agent ./bookshop --plain --offline'
    'genie --agent restaurants --plain --offline --today 2026-03-11'
)

# STDIN: PATTERN BLOCK: the example reads the README block (a fenced block
# that is not a command) whose first line matches BLOCK.
STDIN=(
    'build/genie --offline *'
        "SELECT name, rating FROM restaurants WHERE location = 'Palo Alto'*"
)

# ILLUSTRATIVE: PATTERN REASON: the example runs, but what the document
# shows after it is an illustration and is not compared.
ILLUSTRATIVE=(
    'genie --db ~/kb/shops.db --reindex'
        "the reader's own knowledge base: its path, size and timings"
    'GENIE_TOP_K=3 genie --print-config'
        "the reader's home directory, and the rest elided"
)

# FIXTURE: PATTERN FUNCTION: what the example takes for granted, made
# before it runs (in the example's directory, with its environment).
fx_kb() {        # a knowledge base of the reader's own
    mkdir -p ~/kb && cp sample_db/courses.db ~/kb/shops.db
}
fx_query() {     # a file holding a query
    printf '%s\n' "SELECT name, rating FROM restaurants WHERE location = 'Cupertino' ORDER BY rating DESC LIMIT 3" >query.sql
}
fx_sessions() {  # saved conversations with the restaurant agent, at least 3
    local i
    for i in 1 2 3; do
        [ "$(genie --list-sessions 2>/dev/null | grep -c restaurants)" -ge 3 ] && return 0
        printf '%s\n' "SELECT name FROM restaurants WHERE location = 'Sunnyvale' LIMIT 1" |
            genie --offline >/dev/null 2>&1 || return 1
    done
}
FIXTURE=(
    '*~/kb/shops.db*'           fx_kb
    '*< query.sql*'             fx_query
    'build/genie --resume*'     fx_sessions
    'build/genie --export-session 3*' fx_sessions
)

# EXPECT_STATUS: PATTERN STATUS, for an example the document says fails.
EXPECT_STATUS=()

# A local LLM or embedding server an example names (llama.cpp, vLLM,
# Ollama, an embedding server: http://127.0.0.1:PORT/v1) is the mock LLM
# server: its address replaces the example's.
LOCAL_LLM='http://127\.0\.0\.1:[0-9]+/v1'

# ---- helpers --------------------------------------------------------------
declare -A USED=()
# lookup TABLE KEY [STEP]: the index in TABLE (an array of PATTERN VALUE
# pairs, or of patterns with STEP 1) of the first pattern KEY matches,
# marked used; false when none does.
lookup() {
    local -n tab=$1
    local step=${3:-2} i
    for ((i = 0; i < ${#tab[@]}; i += step)); do
        # shellcheck disable=SC2053
        if [[ $2 == ${tab[i]} ]]; then
            USED[$1:$i]=1
            FOUND=$i
            return 0
        fi
    done
    return 1
}
short() { local s=$1; [ "${#s}" -gt 72 ] && s="${s:0:69}..."; printf '%s' "$s"; }
# first_word KEY: the program an example runs first (after assignments).
first_word() {
    local -a ws
    local w
    read -ra ws <<<"$1"
    for w in "${ws[@]}"; do
        case $w in [A-Za-z_]*=*) continue ;; esac
        printf '%s' "$w"
        return
    done
}
no_diag() { ! grep -qE '^genie: (error|warning)' "$T/err"; }

if [ ! -x "$BIN" ]; then
    notok "genie binary $BIN is built"
    finish
fi
if ! command -v "$PY" >/dev/null; then
    notok "$PY is installed"
    finish
fi

# The binary's data, each file where genie looks for it (tui/paths.c):
# beside the binary (DIR/share/genie), then above it (DIR/../share/genie).
# data NAME: the path of NAME, or nothing.
data() {
    local d
    for d in "$(dirname "$BIN")/share/genie" "$(dirname "$BIN")/../share/genie"; do
        [ -e "$d/$1" ] && { (cd "$d" && printf '%s/%s' "$(pwd -P)" "$1"); return; }
    done
}
for f in prompts/answer.prompt wordvec.bin sample_db/restaurants.db sample_db/courses/agent.ini; do
    check "the data file $f of $BIN is found" test -n "$(data "$f")"
done
[ "$fail" = 0 ] || finish

# setup_root DIR: the repository's layout with a copy of the binary, its
# data and the sample databases.
setup_root() {
    local r=$1 s
    s=$(dirname "$(data sample_db/restaurants.db)")
    mkdir -p "$r/build/share/genie" "$r/home" "$r/xdg/config" "$r/xdg/data" \
             "$r/xdg/cache" "$r/xdg/state" "$r/tmp" || return 1
    cp "$BIN" "$r/build/genie" &&
    cp -RL "$(dirname "$(data prompts/answer.prompt)")" "$r/build/share/genie/prompts" &&
    cp -p "$(data wordvec.bin)" "$r/build/share/genie/" &&
    mkdir "$r/sample_db" &&
    (cd "$s" && cp -RLp -- *.db *.db.* "$r/sample_db/" &&
        for a in */; do [ ! -f "$a/agent.ini" ] || cp -RLp -- "$a" "$r/sample_db/" || exit; done) &&
    ln -s ../../../sample_db "$r/build/share/genie/sample_db"
}

# ---- the examples -----------------------------------------------------------
started=0
for doc in "${DOCS[@]}"; do
    R=$T/run/${doc//\//_}
    X=$T/ex/${doc//\//_}
    if ! n=$("$PY" "$EX" extract "$TOP/$doc" "$X" 2>"$T/err") || [ -z "$n" ]; then
        notok "$doc: the examples are read" "$(cat "$T/err")"
        continue
    fi
    echo "# $doc: $n examples"
    case $doc in README.md|man/genie.1)
        check "$doc has examples" test "$n" -gt 0 ;;
    esac
    [ "$n" -gt 0 ] || continue
    if ! setup_root "$R" >"$T/out" 2>"$T/err"; then
        notok "$doc: the example directory is made" "$(cat "$T/err")"
        continue
    fi
    ENVF=$T/env.${doc//\//_}
    (
        export HOME=$R/home XDG_CONFIG_HOME=$R/xdg/config XDG_DATA_HOME=$R/xdg/data \
               XDG_CACHE_HOME=$R/xdg/cache XDG_STATE_HOME=$R/xdg/state TMPDIR=$R/tmp \
               PATH=$R/build:$PATH
        unset NO_COLOR
        export -p
    ) >"$ENVF"

    for ((i = 1; i <= n; i++)); do
        key=$(cat "$X/$i.key")
        where="$doc:$(cat "$X/$i.line")"
        name="$where: $(short "$key")"
        shown=$X/$i.shown
        [ -f "$shown" ] || shown=

        if lookup NOT_RUN "$key"; then
            skip "$name" "not run: ${NOT_RUN[FOUND + 1]}"
            continue
        fi
        w=$(first_word "$key")
        if [[ $RUNNABLE != *" $w "* ]]; then
            notok "$name: neither run nor listed in NOT_RUN (its program, $w, is not in RUNNABLE)"
            continue
        fi

        # What the example is given and what it must show.
        conv=
        lookup CONVERSATION "$key" 1 && conv=conv
        in=/dev/null stdin_block=
        if [ -n "$conv" ] && [ -n "$shown" ]; then
            if ! "$PY" "$EX" input "$TOP/$doc" "$shown" >"$T/in.$i"; then
                notok "$name: its transcript is read"
                continue
            fi
            in=$T/in.$i
        elif lookup STDIN "$key"; then
            pat=${STDIN[FOUND + 1]}
            in=
            for b in "$X"/b*.txt; do
                [ -f "$b" ] || continue
                # shellcheck disable=SC2053
                [[ $(head -n1 "$b") == $pat ]] && { in=$b stdin_block=$b; break; }
            done
            if [ -z "$in" ]; then
                notok "$name: its input, the README block \"$(short "$pat")\", is found"
                continue
            fi
        fi
        want=0
        lookup EXPECT_STATUS "$key" && want=${EXPECT_STATUS[FOUND + 1]}
        compare=$shown
        lookup ILLUSTRATIVE "$key" && compare=

        cmd=$(cat "$X/$i.cmd")
        if [[ $cmd =~ $LOCAL_LLM ]]; then
            if [ "$started" = 0 ]; then
                started=1
                start_mock || notok "the mock LLM server starts" "$(cat "$T/mock.err")"
            fi
            cmd=$(printf '%s\n' "$cmd" | sed -E "s#$LOCAL_LLM#$URL#g")
        fi
        printf '%s\n' "$cmd" >"$T/cmd.$i"
        fx=:
        lookup FIXTURE "$key" && fx=${FIXTURE[FOUND + 1]}
        # shellcheck disable=SC2016
        (cd "$R" && timeout -k 5 "$TMO" bash -c '
            . "$1" || exit 125
            '"$(declare -f fx_kb fx_query fx_sessions)"'
            '"$fx"' || { echo "examples.sh: fixture '"$fx"' failed" >&2; exit 124; }
            set -o pipefail
            . "$2"
            rc=$?
            export -p >"$1.new"
            exit $rc' _ "$ENVF" "$T/cmd.$i") <"$in" >"$T/out" 2>"$T/err"
        rc=$?
        cp "$T/out" "$X/$i.out"; cp "$T/err" "$X/$i.err"    # for KEEP_T=1
        [ -f "$ENVF.new" ] && mv "$ENVF.new" "$ENVF"
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            notok "$name: finishes within $TMO s (or its fixture failed)" \
                "out: $(tail -c 800 "$T/out")" "err: $(tail -c 800 "$T/err")"
            continue
        fi
        check "$name: exit $want" test "$rc" = "$want"
        check "$name: no genie: error or warning" no_diag
        # Statements the document gives to type must be taken: no reply
        # says one was refused (the offline replies of engine/worksheet/acts.c).
        if [ -n "$stdin_block" ]; then
            check "$name: the statements of its input are taken" \
                sh -c '! grep -qE "That did not fit:|I could not do part of that:" "$1"' _ "$T/out"
        fi
        if [ -n "$compare" ]; then
            flags=$conv
            [[ $key == *--today* ]] && flags="$flags today"
            # shellcheck disable=SC2086
            if m=$("$PY" "$EX" match "$TOP/$doc" "$compare" "$T/out" "$T/err" $flags); then
                ok "$name: prints what $doc shows"
            else notok "$name: prints what $doc shows" "$m" "out: $(tail -c 600 "$T/out")" \
                "err: $(tail -c 400 "$T/err")"; fi
        fi
    done
done

# Every pattern of the tables still names an example.
for tab in NOT_RUN:2 CONVERSATION:1 STDIN:2 ILLUSTRATIVE:2 FIXTURE:2 EXPECT_STATUS:2; do
    t=${tab%%:*} step=${tab##*:}
    declare -n arr=$t
    for ((j = 0; j < ${#arr[@]}; j += step)); do
        [ -n "${USED[$t:$j]:-}" ] || notok "$t pattern '${arr[j]}' in examples.sh matches an example"
    done
    unset -n arr
done
finish
