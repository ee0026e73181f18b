#!/usr/bin/env bash
# run.sh — `make bench`: the retrieval benchmark at scale 1, 10 and 100.
# Databases for scale 10 and 100 are generated into build/bench/ on first
# use (scale 100 takes minutes to generate and index).  SCALES overrides the
# list, e.g. SCALES="1 10" make bench.
set -eu
B=${B:-build}
top=${GENIE_TOP:-$(pwd)}
cd "$top"
mkdir -p "$B/bench"
for s in ${SCALES:-1 10 100}; do
    db=$B/bench/restaurants-s$s.db
    if [ ! -f "$db" ] || [ "$db" -ot "$B/genie-gen" ]; then
        rm -f "$db" "$db.vec" "$db.faiss"
        echo "generating scale $s..."
        "$B/genie-gen" restaurants --scale "$s" --seed 1 -o "$db"
    fi
    echo "=== retrieval, scale $s ($(du -h "$db" | cut -f1))"
    if [ "$s" = 1 ]; then
        "$B/bench-retrieval" --db "$db" --vectors "$B/share/genie/wordvec.bin"
    else
        "$B/bench-retrieval" --db "$db" --vectors "$B/share/genie/wordvec.bin" --speed
    fi
done
