#!/usr/bin/env bash
# layers.sh — the layers of the tree, as docs/ARCHITECTURE.md draws them,
# checked on the sources.
#
#   - a front end (tui/) includes of the engine only genie.h and the
#     utilities (util/), besides its own headers;
#   - the benchmarks that run genie as a user would (bench/agent.c, and
#     bench/tui.c through the interface's own code) do the same; the
#     module benchmarks include the one module they measure (bench/suql.c
#     opens its knowledge base through genie.h and makes the engine it
#     compares itself; retrieval's reads the store beside its index),
#     never the interface;
#   - genie.h compiles on its own, and no engine module includes it (the
#     facade sits on top: engine/genie/ alone implements it);
#   - the engine prints nothing: only a front end writes to the terminal
#     (the one exception, an out-of-memory exit, lives in util/xmem.c).
# Prints one "ok"/"not ok" line per check and "N passed, N failed" last.
set -u
TOP=${GENIE_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$TOP" || exit 1
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }
# check NAME OFFENDERS: passes when OFFENDERS is empty, else shows them.
check() {
    if [ -z "$2" ]; then ok "$1"; else notok "$1"; printf '%s\n' "$2" | sed 's/^/#   /'; fi
}

# The quoted includes of FILES, as "file: header" lines.
includes() { grep -HoE '^#include "[^"]+"' "$@" | sed 's/#include "\(.*\)"/ \1/'; }

own=$(cd tui && ls *.h)
bad=$(includes tui/*.c tui/*.h | while read -r f h; do
    case $h in
        genie.h|util/*) ;;
        *) printf '%s\n' "$own" | grep -qx "$h" || echo "$f $h" ;;
    esac
done)
check "tui/ includes of the engine only genie.h and util/" "$bad"

# Calls too: a front end calls the engine through genie_* (and util's gn_*,
# config's cfg_*); of the modules, only the functions that read or print
# the data types genie.h carries (a result as a table, a state as JSON, an
# event, the usage figures, an --init column), named here.
data_fns="ag_event_json ag_timings_usage ag_turn_out_release ig_column_type_str ig_ident ig_type_name
llm_stage_name llm_stats_add llm_stats_format suql_error_caret suql_result_csv suql_result_json
suql_result_release suql_result_table suql_stats_json suql_stats_print ws_spec_sheet"
bad=$(for f in tui/*.c; do
    sed -E 's/"([^"\\]|\\.)*"/""/g; s://.*$::' "$f" |
        grep -noE '\b(llm|rt|st|suql|ws|ag|ig)_[a-z0-9_]+\s*\(' | while IFS=: read -r n call; do
            fn=${call%%(*}; fn=${fn%% *}
            printf '%s\n' $data_fns | grep -qx "$fn" || echo "$f:$n: $fn()"
        done
done)
check "tui/ calls the engine through genie.h (module functions only to read its data types)" "$bad"

bad=$(includes bench/agent.c bench/tui.c | while read -r f h; do
    case $h in genie.h|util/*|tui/app.h|tests/mock/*) ;; *) echo "$f $h" ;; esac
done)
check "bench/agent.c and bench/tui.c use genie.h (or the interface), not the modules" "$bad"

# Each module benchmark: its module and the helpers named here.
declare -A allowed=(
    [bench/init.c]="ingest"
    [bench/llm.c]="llm"
    [bench/retrieval.c]="retrieval store"
    [bench/suql.c]="suql genie.h"
)
bad=""
for f in "${!allowed[@]}"; do
    while read -r _ h; do
        m=${h%%/*}
        [ "$m" = util ] || [ "$m" = tests ] && continue
        case " ${allowed[$f]} " in *" $m "*) ;; *) bad+="$f $h"$'\n' ;; esac
    done < <(includes "$f")
done
check "the module benchmarks include only the module they measure" "${bad%$'\n'}"

known=$(ls bench/*.c | grep -vxE 'bench/(agent|tui|init|llm|retrieval|suql)\.c')
check "every benchmark is one of the kinds above" "$known"

if printf '#include "genie.h"\nint main(void) { return 0; }\n' |
    ${CC:-cc} -std=c11 -D_GNU_SOURCE -fsyntax-only -Wall -Werror -I. -Iengine \
        $(pkg-config --cflags sqlite3 libcjson 2>/dev/null) -x c - 2>"${TMPDIR:-/tmp}/layers.$$"; then
    ok "genie.h compiles on its own"
else
    notok "genie.h compiles on its own"; sed 's/^/#   /' "${TMPDIR:-/tmp}/layers.$$" | head -20
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"

bad=$(grep -lE '^#include "genie.h"' engine/*/*.c engine/*/*.h 2>/dev/null | grep -v '^engine/genie/')
check "no engine module includes genie.h" "$bad"

# Calls, with the string literals taken out first (SQL's printf() in a
# string is not a call); a contract broken ("internal error: ...", then
# abort) may say so on its way down.
bad=$(for f in engine/*/*.c; do
    [ "$f" = engine/util/xmem.c ] && continue
    sed -E 's/"([^"\\]|\\.)*"/""/g' "$f" |
        grep -nE '\b(printf|puts|putchar|perror|vprintf)\s*\(|\bf(printf|puts|putc|write)\s*\(\s*std(out|err)' |
        while IFS=: read -r n _; do
            sed -n "${n}p" "$f" | grep -q '"genie: internal error: ' || echo "$f:$n: $(sed -n "${n}p" "$f")"
        done
done)
check "the engine prints nothing (the front ends do)" "$bad"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
