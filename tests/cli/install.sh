#!/usr/bin/env bash
# install.sh — `make install` into a staging directory (DESTDIR) and the
# installed binary run from elsewhere: it finds its prompts, sample agents,
# their databases and indexes and the word vectors relative to itself;
# the man pages are installed and render; `make uninstall` removes it all.
#
# Prints "ok - NAME" / "not ok - NAME" per check and "N passed, N failed"
# last.  Environment: GENIE_TOP, B (the build directory, default build).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cli.sh"
cli_init install
B=${B:-build}
export LC_ALL=C HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data XDG_CACHE_HOME=$T/cache
mkdir -p "$HOME"

D=$T/stage
P=/opt/genie-test
# install-files copies what the build made, as `make install` does after
# building what is missing (nothing is rebuilt here, whatever the flags of
# the build tree under test).
make -s -C "$TOP" --no-print-directory B="$B" install-files PREFIX=$P DESTDIR="$D" >"$T/out" 2>"$T/err"
check "make install succeeds" test $? = 0
G=$D$P/bin/genie
S=$D$P/share/genie
check "the binary is installed, executable" test -x "$G"
for f in prompts/parse.prompt prompts/respond.prompt wordvec.bin wordvec.LICENSE \
         sample_db/restaurants.db sample_db/restaurants.db.faiss sample_db/restaurants.db.vec \
         sample_db/restaurants.db.lex sample_db/restaurants/agent.ini sample_db/restaurants/worksheet.csv \
         sample_db/courses.db sample_db/courses.db.faiss sample_db/courses/agent.ini; do
    check "installed: share/genie/$f" test -s "$S/$f"
done
for m in man1/genie.1 man5/genie-worksheet.5 man7/suql.7; do
    check "installed: share/man/$m" test -s "$D$P/share/man/$m"
done
check "nothing is installed outside PREFIX" test -z "$(find "$D" -type f ! -path "$D$P/*")"

# Run from elsewhere, with the repository out of reach by name.
cd /
"$G" --agent restaurants --suql "SELECT name FROM restaurants WHERE location = 'Palo Alto' LIMIT 2" -q >"$T/out" 2>"$T/err"
check "installed: --agent restaurants finds its database" test $? = 0
check "installed: the query returns rows" grep -q "(2 rows)" "$T/out"
"$G" --agent courses --search "machine learning" -q >"$T/out" 2>"$T/err"
check "installed: --search on the courses agent" grep -q "1\." "$T/out"
check "installed: the shipped index is used, not rebuilt" sh -c "! grep -q rebuilding '$T/err'"
"$G" --agent restaurants --explain "SELECT name FROM restaurants WHERE answer(reviews, 'is it romantic?') = 'Yes' LIMIT 1" >"$T/out" 2>"$T/err"
check "installed: --explain" grep -qi "answer" "$T/out"
printf 'hello\n' | "$G" --plain --agent restaurants --offline >"$T/out" 2>"$T/err"
check "installed: a conversation starts offline" grep -q "help you find a restaurant" "$T/out"
check "installed: the sessions file goes under XDG_DATA_HOME" test -f "$XDG_DATA_HOME/genie/sessions.db"
MANWIDTH=80 man -l "$D$P/share/man/man1/genie.1" >"$T/out" 2>"$T/err"
check "installed: man -l renders genie(1)" grep -q "EXIT STATUS" "$T/out"
cd "$TOP"

make -s -C "$TOP" --no-print-directory B="$B" uninstall PREFIX=$P DESTDIR="$D" >"$T/out" 2>"$T/err"
check "make uninstall succeeds" test $? = 0
left=$(find "$D" -type f | sed "s|$D||" | tr '\n' ' ')
check "make uninstall removes every file" test -z "$left"
finish
