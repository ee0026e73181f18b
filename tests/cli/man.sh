#!/usr/bin/env bash
# man.sh — the manual pages lint cleanly and agree with --help.
#
# Checks: mandoc -Tlint -W warning is silent on every man/*.1, *.5, *.7;
# `man -l` renders each at 80 columns without complaint, without nested
# quotes (two macros of quoting on one line) and without a
# longer line; man/genie.1 has the sections a reader looks for;
# every long option and GENIE_* variable that `genie --help` prints is in
# man/genie.1, and the ENVIRONMENT section lists exactly those variables,
# in the table's order (tools/gen_man_env.py writes the list); every long option the OPTIONS section of man/genie.1
# documents exists in --help.  Options are read from the mdoc source, where
# they are written as `Fl -name` (or `Fl \-name`), or literally as --name.
# Prints one "ok"/"not ok" line per check and "N passed, N failed" last.
set -u
TOP=${GENIE_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${GENIE_BIN:-$TOP/build/genie}
MAN=$TOP/man/genie.1
pass=0 fail=0

ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

# ---- lint -------------------------------------------------------------
if ! command -v mandoc >/dev/null 2>&1; then
    notok "mandoc is installed (apt-get install mandoc)"
else
    shopt -s nullglob
    pages=("$TOP"/man/*.1 "$TOP"/man/*.5 "$TOP"/man/*.7)
    shopt -u nullglob
    [ "${#pages[@]}" -gt 0 ] || notok "man pages exist under man/"
    for p in "${pages[@]}"; do
        out=$(mandoc -Tlint -W warning "$p" 2>&1)
        if [ -z "$out" ]; then
            ok "mandoc lint: ${p#"$TOP"/}"
        else
            notok "mandoc lint: ${p#"$TOP"/}"
            printf '%s\n' "$out" | sed 's/^/#   /'
        fi
    done
fi

# ---- rendering at 80 columns --------------------------------------------
if ! command -v man >/dev/null 2>&1; then
    notok "man is installed (apt-get install man-db)"
else
    merr=$(mktemp "${TMPDIR:-/tmp}/genie-man.XXXXXX")
    for p in "${pages[@]}"; do
        r=$(MANWIDTH=80 man -l "$p" 2>"$merr" | sed 's/.\x08//g')
        long=$(printf '%s\n' "$r" | LC_ALL=C.UTF-8 grep -cE '^.{81,}')
        if [ -s "$merr" ]; then
            notok "man -l ${p#"$TOP"/} renders without complaint"
            sed 's/^/#   /' "$merr"
        elif [ "$long" != 0 ]; then
            notok "man -l ${p#"$TOP"/} fits 80 columns ($long longer lines)"
            printf '%s\n' "$r" | LC_ALL=C.UTF-8 grep -E '^.{81,}' | head -n 3 | sed 's/^/#   /'
        elif printf '%s\n' "$r" | grep -q "’’\|’”\|”’"; then
            # .Ql a , Ql b on one line nests the quotes: 'a, 'b''
            notok "man -l ${p#"$TOP"/}: no nested quotes"
            printf '%s\n' "$r" | grep "’’\|’”\|”’" | head -n 3 | sed 's/^/#   /'
        else
            ok "man -l ${p#"$TOP"/} renders cleanly at 80 columns"
        fi
    done
    rm -f "$merr"
fi

# ---- the sections a reader looks for ----------------------------------
for sec in SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT FILES "EXIT STATUS" KEYS EXAMPLES "SEE ALSO"; do
    grep -q "^\.Sh $sec\$" "$MAN" 2>/dev/null || missing_sec="${missing_sec:-} '$sec'"
done
if [ -z "${missing_sec:-}" ]; then ok "man/genie.1 has every section (SYNOPSIS ... EXIT STATUS, KEYS, EXAMPLES)"
else notok "man/genie.1 lacks sections:$missing_sec"; fi

if [ ! -f "$MAN" ]; then
    notok "man/genie.1 exists"
    finish
fi
if [ ! -x "$BIN" ]; then
    notok "genie binary $BIN is built"
    finish
fi
help=$("$BIN" --help 2>&1)
if [ $? -ne 0 ] || [ -z "$help" ]; then
    notok "genie --help runs"
    finish
fi

# ---- --help -> man page -----------------------------------------------
# Long options as --help prints them (option lines and prose alike).
help_opts=$(printf '%s\n' "$help" | grep -oE -- '(^|[^[:alnum:]-])--[a-z][a-z0-9-]*' |
            sed 's/^.*--//' | sort -u)
[ -n "$help_opts" ] || notok "--help lists long options"

# Is long option $1 written in the mdoc source?
in_man() {
    local re=$1
    grep -qE -- "(Fl +(\\\\)?-$re|(\\\\-|-)(\\\\-|-)$re)([^[:alnum:]-]|\$)" "$MAN"
}
missing=""
for o in $help_opts; do in_man "$o" || missing="$missing --$o"; done
n=$(printf '%s\n' "$help_opts" | grep -c .)
if [ -z "$missing" ]; then ok "all $n long options of --help are in man/genie.1"
else notok "long options of --help missing from man/genie.1:$missing"; fi

vars=$(printf '%s\n' "$help" | grep -oE 'GENIE_[A-Z0-9_]+' | sort -u)
missing=""
for v in $vars; do grep -qE "(^|[^A-Z0-9_])$v([^A-Z0-9_]|\$)" "$MAN" || missing="$missing $v"; done
n=$(printf '%s\n' "$vars" | grep -c .)
if [ -z "$vars" ]; then notok "--help names GENIE_* variables"
elif [ -z "$missing" ]; then ok "all $n GENIE_* variables of --help are in man/genie.1"
else notok "GENIE_* variables of --help missing from man/genie.1:$missing"; fi
# The ENVIRONMENT list is the option table's, as tools/gen_man_env.py writes it.
if out=$(python3 "$TOP/tools/gen_man_env.py" "$BIN" "$MAN" --check 2>&1); then
    ok "the ENVIRONMENT list of man/genie.1 is the option table's GENIE_* variables"
else
    notok "the ENVIRONMENT list of man/genie.1 is the option table's GENIE_* variables"
    printf '#   %s\n' "$out"
fi

# ---- man page OPTIONS -> --help ---------------------------------------
section=$(awk '/^\.Sh /{ on = ($0 ~ /^\.Sh +"?OPTIONS"?[[:space:]]*$/) } on' "$MAN")
man_opts=$(printf '%s\n' "$section" |
           grep -oE -- '(Fl +(\\)?-|(\\-|-)(\\-|-))[a-z][a-z0-9-]*' |
           sed -E 's/^(Fl +(\\)?-|(\\-|-)(\\-|-))//' | sort -u)
if [ -z "$man_opts" ]; then
    notok "man/genie.1 has an OPTIONS section with long options"
else
    extra=""
    for o in $man_opts; do
        printf '%s\n' "$help_opts" | grep -qx -- "$o" || extra="$extra --$o"
    done
    n=$(printf '%s\n' "$man_opts" | grep -c .)
    if [ -z "$extra" ]; then ok "all $n long options in OPTIONS of man/genie.1 are in --help"
    else notok "long options in man/genie.1 OPTIONS unknown to --help:$extra"; fi
fi

# ---- the consent rule's words: the code's lists, all in genie-worksheet(5)
words_missing=$(python3 - "$TOP/engine/worksheet/consent.c" "$TOP/man/genie-worksheet.5" <<'EOF'
import re, sys
c, m = open(sys.argv[1]).read(), open(sys.argv[2]).read()
for name, lead in (("agree", "The words that agree:"), ("filler", "The words that may stand beside them:")):
    words = re.findall(r'"([^"]+)"', re.search(r"const %s\[\] = \{(.*?)NULL" % name, c, re.S).group(1))
    line = m.split(lead, 1)[1].split("\n", 2)[1] if lead in m else ""
    listed = set(line.replace(".Ql", "").split())
    for w in words:
        if w not in listed: print("%s:%s" % (name, w))
EOF
)
if [ -z "$words_missing" ]; then ok "every consent word of consent.c is listed in genie-worksheet(5)"
else notok "consent words missing from genie-worksheet(5): $(echo $words_missing)"; fi

finish
