# genie — build, test, run, bench, install.
#
# `make` runs setup first (scripts/setup.sh: Debian packages, the FAISS C API,
# the offline word vectors; idempotent, instant when done) and builds
# build/genie and build/libgenie.a.  Everything generated lives under build/
# except the sample databases, which live in sample_db/ (both git-ignored).

PREFIX   ?= /usr/local
DESTDIR  ?=
B        := build
WERROR   ?= -Werror
OPT      ?= -O2 -g
SANITIZE ?=

WARN   = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wwrite-strings $(WERROR)
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SANITIZE) -MMD -MP \
        -I. -Iengine $(shell pkg-config --cflags libcurl sqlite3 libcjson inih ncursesw 2>/dev/null) \
        -DGENIE_VERSION='"$(VERSION)"' -DGENIE_PREFIX='"$(PREFIX)"' $(CFLAGS)
LIBS   = -lsqlite3 -lcurl -lcjson -linih -lcsv -lpg_query -lstemmer -lpthread -lm $(FAISS_LIBS)
TUI_LIBS = -lncursesw -lreadline

VERSION := 0.1.0

ENGINE_SRC := $(wildcard engine/*/*.c) $(wildcard config/*.c)
TUI_SRC    := $(wildcard tui/*.c)
GEN_SRC    := $(wildcard sample_db/gen/*.c)
UNIT_SRC   := $(wildcard tests/unit/*.c)
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
BENCH_SRC  := $(wildcard bench/*.c)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

.PHONY: all setup test test-pg unit-test run bench install install-files uninstall asan clean distclean samples fuzz test-valgrind
.DELETE_ON_ERROR:

all: $(B)/genie $(B)/libgenie.a build/share/genie/prompts build/share/genie/sample_db

# The build tree's data directory shows the prompts and the sample agents
# where an installation has them, so build/genie (and build/asan/genie)
# find them the same way.
build/share/genie/prompts: | $(B)/config.mk
	@mkdir -p build/share/genie && ln -sfn ../../../config/prompts $@
build/share/genie/sample_db: | $(B)/config.mk
	@mkdir -p build/share/genie && ln -sfn ../../../sample_db $@

# Setup writes build/config.mk (FAISS link flags); make re-reads it.
-include $(B)/config.mk
$(B)/config.mk: scripts/setup.sh tools/wvconv.c
	@scripts/setup.sh $(B)

setup: $(B)/config.mk

# V=1 shows full command lines.
Q = $(if $(V),,@)
$(B)/obj/%.o: %.c | $(B)/config.mk
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $<")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/libgenie.a: $(call obj,$(ENGINE_SRC))
	@rm -f $@
	@$(if $(V),,echo "  AR    $@")
	$(Q)ar rcs $@ $^

$(B)/genie: $(call obj,$(TUI_SRC)) $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(call obj,$(TUI_SRC)) $(B)/libgenie.a $(TUI_LIBS) $(LIBS) $(LDFLAGS)

# The generator needs only the utilities and SQLite (not util/http.c, the
# one utility that needs libcurl).
UTIL_SRC := $(filter-out engine/util/http.c,$(wildcard engine/util/*.c))
UTIL_OBJ = $(call obj,$(UTIL_SRC))
$(B)/genie-gen: $(call obj,$(GEN_SRC)) $(UTIL_OBJ)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ -lsqlite3 -lm $(LDFLAGS)

# The screen's curses-free parts (text, views, worker) are unit-tested too.
TUI_PURE := $(addprefix tui/,text.c view_conv.c view_ws.c view_suql.c worker.c plainout.c plantree.c)
# The fuzz targets too, each entry point renamed NAME_entry: the unit tests
# replay their crash reproducers and seeds (tests/unit/test_fuzz_replay.c).
FUZZ_ENTRY_OBJ := $(call obj,$(FUZZ_SRC))
$(B)/obj/tests/fuzz/%.o: tests/fuzz/%.c | $(B)/config.mk
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $<")
	$(Q)$(CC) $(CFLAGS_ALL) -DLLVMFuzzerTestOneInput=$*_entry -c $< -o $@
MOCKCTL_OBJ := $(B)/obj/tests/mock/mockctl.o
$(B)/test-unit: $(call obj,$(UNIT_SRC)) $(call obj,$(TUI_PURE)) $(FUZZ_ENTRY_OBJ) $(MOCKCTL_OBJ) $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(call obj,$(UNIT_SRC)) $(call obj,$(TUI_PURE)) $(FUZZ_ENTRY_OBJ) \
	    $(MOCKCTL_OBJ) $(B)/libgenie.a $(LIBS) $(LDFLAGS)

$(B)/bench-retrieval: $(B)/obj/bench/retrieval.o $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $< $(B)/libgenie.a $(LIBS) $(LDFLAGS)

# ---- sample databases (rebuilt when the generator changes) ---------------
SAMPLES := sample_db/restaurants.db sample_db/courses.db
# The sample agents: directories beside their databases.
AGENTS := restaurants courses
samples: $(SAMPLES)
sample_db/restaurants.db: $(B)/genie-gen
	$(B)/genie-gen restaurants --scale 1 --seed 1 -o $@
sample_db/courses.db: $(B)/genie-gen
	$(B)/genie-gen courses --scale 1 --seed 1 -o $@
# Their retrieval indexes (the reindex itself writes the database, so the
# index file is touched after it to stay the newer of the two).
SAMPLE_IX := $(SAMPLES:.db=.db.faiss)
sample_db/%.db.faiss: sample_db/%.db $(B)/genie
	$(B)/genie --db $< --reindex --quiet
	@touch $@

# ---- test, run, bench ----------------------------------------------------
test: all $(B)/test-unit $(B)/genie-gen $(SAMPLES) $(SAMPLE_IX)
	@GENIE_TOP=$(CURDIR) B=$(B) tests/run.sh

# SUQL against a real PostgreSQL: the corpus tests/pg/*.sql run in genie and
# in a private, throw-away PostgreSQL server loaded with the sample
# databases (tests/pg/run.py; -k PATTERN and -v through PG_ARGS).
test-pg: all $(SAMPLES) $(SAMPLE_IX)
	@GENIE=$(CURDIR)/$(B)/genie python3 tests/pg/run.py $(PG_ARGS)

run: all $(SAMPLE_IX)
	$(B)/genie --db sample_db/restaurants.db

$(B)/bench-llm: $(B)/obj/bench/llm.o $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $< $(B)/libgenie.a $(LIBS) $(LDFLAGS)

$(B)/bench-agent: $(B)/obj/bench/agent.o $(MOCKCTL_OBJ) $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o,$^) $(B)/libgenie.a $(LIBS) $(LDFLAGS)

# The screen benchmark drives the interface's own drawing code.
$(B)/bench-tui: $(B)/obj/bench/tui.o $(call obj,$(filter-out tui/main.c,$(TUI_SRC))) $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o,$^) $(B)/libgenie.a $(TUI_LIBS) $(LIBS) $(LDFLAGS)

$(B)/bench-suql: $(B)/obj/bench/suql.o $(MOCKCTL_OBJ) $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o,$^) $(B)/libgenie.a $(LIBS) $(LDFLAGS)

# The import benchmark: genie's two ingest passes against the sqlite3 shell.
$(B)/bench-init: $(B)/obj/bench/init.o $(B)/libgenie.a
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $< $(B)/libgenie.a $(LIBS) $(LDFLAGS)

bench: all $(B)/bench-retrieval $(B)/bench-init $(B)/bench-llm $(B)/bench-suql $(B)/bench-agent $(B)/bench-tui $(B)/genie-gen $(SAMPLE_IX)
	@GENIE_TOP=$(CURDIR) B=$(B) bench/run.sh

# The screen tests with genie under valgrind: no leak or invalid access
# from genie's own code (the libraries' own allocations are not counted).
test-valgrind: all $(SAMPLES) $(SAMPLE_IX)
	@GENIE_TOP=$(CURDIR) GENIE_VALGRIND=1 bash tests/cli/tui.sh

# AddressSanitizer + UBSan build of everything, running the same tests.
asan: build/share/genie/prompts build/share/genie/sample_db build/genie-gen
	$(MAKE) B=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	    FAISS_LIBS="$(FAISS_LIBS)" build/asan/genie build/asan/test-unit
	@mkdir -p build/asan/share && ln -sfn ../share/genie build/asan/share/genie
	@ASAN_OPTIONS=detect_leaks=1 GENIE_TOP=$(CURDIR) B=build/asan tests/run.sh

# ---- fuzzing (clang libFuzzer; FUZZ_TIME seconds per target) -------------
# `make fuzz` builds every tests/fuzz/fuzz_*.c (FUZZ_TARGETS=... picks some)
# and runs each for FUZZ_TIME seconds on its corpus build/fuzz/NAME.corpus,
# seeded from tests/fuzz/seeds/NAME/ when present plus FUZZ_SEEDS_NAME;
# crash files go to build/fuzz/NAME-crash-*, and a finding fails the run
# (make -k fuzz goes on to the other targets).
FUZZ_TIME ?= 60
FUZZ_TARGETS ?= $(basename $(notdir $(FUZZ_SRC)))
FUZZ_SEEDS_fuzz_sse    := tests/data/sse-recordings
FUZZ_SEEDS_fuzz_prompt := config/prompts
FUZZ_SEEDS_fuzz_suql   := tests/suql/seeds
# The pure parsers and compilers only (and the screen's text, curses-free):
# no curl or threads in a fuzz target
# (SQLite is linked for the emitter's function registration, never opened).
FUZZ_LIB_SRC := $(UTIL_SRC) \
                $(addprefix engine/llm/,sse.c stream.c template.c prompt.c request.c stage.c) \
                $(addprefix engine/suql/,arena.c ast.c print.c scan.c parse.c parse_expr.c parse_stmt.c pgval.c casemap.c pgagg.c pgtime.c \
                    pgfunc.c pgstat.c analyze.c analyze_names.c analyze_expr.c analyze_group.c analyze_setop.c \
                    analyze_window.c emit.c emit_select.c emit_array.c emit_func.c emit_setop.c emit_window.c) \
                engine/store/kb.c $(wildcard engine/worksheet/*.c) \
                $(addprefix config/,config.c options.c help.c) \
                $(addprefix tui/,text.c plainout.c view_conv.c)
FUZZ_LIBS := -lcjson -lpg_query -lsqlite3 -lcsv -linih -lm
FUZZ_CC   := clang -std=c11 -D_GNU_SOURCE -g -O1 -I. -Iengine
FUZZ_OBJ  := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(FUZZ_LIB_SRC))

# The library is compiled once for every target (instrumented, not linked
# with libFuzzer's main); each target links it with its own file.
$(B)/fuzz/obj/%.o: %.c | $(B)/config.mk
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $< (fuzz)")
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -MMD -MP -MF $@.d $< $(FUZZ_OBJ) $(FUZZ_LIBS) -o $@
# fuzz_optimizer drives the whole engine (SQLite, FAISS, the offline
# evaluator): it links every engine file, instrumented, and the full libraries.
FUZZ_ENGINE_OBJ := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(ENGINE_SRC))
$(B)/fuzz/fuzz_optimizer: tests/fuzz/fuzz_optimizer.c $(FUZZ_ENGINE_OBJ)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -MMD -MP -MF $@.d $< $(FUZZ_ENGINE_OBJ) $(LIBS) -o $@
# Reached through pattern rules only: keep them (make deletes intermediates).
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_ENGINE_OBJ) $(addprefix $(B)/fuzz/,$(FUZZ_TARGETS))

fuzz: $(addprefix fuzz-run-,$(FUZZ_TARGETS))
fuzz-run-%: $(B)/fuzz/%
	@echo "  FUZZ  $* ($(FUZZ_TIME) s)"
	@mkdir -p $(B)/fuzz/$*.corpus
	@GENIE_TOP=$(CURDIR) $< -max_total_time=$(FUZZ_TIME) -print_final_stats=1 -artifact_prefix=$(B)/fuzz/$*- \
	    $(B)/fuzz/$*.corpus $(wildcard tests/fuzz/seeds/$*) $(FUZZ_SEEDS_$*) >$(B)/fuzz/$*.log 2>&1; \
	    rc=$$?; grep -E "stat::number_of_executed_units|ERROR|SUMMARY|Test unit written" $(B)/fuzz/$*.log; \
	    [ $$rc -eq 0 ] || { echo "  FUZZ  $* found a problem (log: $(B)/fuzz/$*.log; tests/fuzz/README.md says what to do)"; exit 1; }

# ---- install -------------------------------------------------------------
# `install` builds what is missing first; `install-files` only copies what
# is built (tests/cli/install.sh uses it, so a sanitizer build tree is
# never rebuilt with other flags).
DATADIR = $(DESTDIR)$(PREFIX)/share/genie
install: all $(SAMPLE_IX)
	@$(MAKE) --no-print-directory install-files
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/genie $(DESTDIR)$(PREFIX)/bin/genie
	install -m 644 $(B)/share/genie/wordvec.bin $(B)/share/genie/wordvec.LICENSE $(DATADIR)/
	install -d $(DATADIR)/sample_db
	install -p -m 644 $(SAMPLES) $(SAMPLES:=.vec) $(SAMPLES:=.faiss) $(SAMPLES:=.lex) $(DATADIR)/sample_db/
	for a in $(AGENTS); do install -d $(DATADIR)/sample_db/$$a && \
	    install -m 644 sample_db/$$a/* $(DATADIR)/sample_db/$$a/ || exit 1; done
	install -d $(DATADIR)/prompts
	install -m 644 config/prompts/*.prompt config/prompts/README.md $(DATADIR)/prompts/
	install -m 644 man/genie.1 $(DESTDIR)$(PREFIX)/share/man/man1/genie.1
	install -d $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 644 man/genie-worksheet.5 $(DESTDIR)$(PREFIX)/share/man/man5/genie-worksheet.5
	install -d $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 man/suql.7 $(DESTDIR)$(PREFIX)/share/man/man7/suql.7

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/genie $(DESTDIR)$(PREFIX)/share/man/man1/genie.1 \
	    $(DESTDIR)$(PREFIX)/share/man/man5/genie-worksheet.5 \
	    $(DESTDIR)$(PREFIX)/share/man/man7/suql.7
	rm -rf $(DESTDIR)$(PREFIX)/share/genie

# `clean` keeps what setup fetched (build/deps, build/share); `distclean` does not.
clean:
	rm -rf $(B)/obj $(B)/asan $(B)/genie $(B)/genie-gen $(B)/libgenie.a $(B)/test-unit $(B)/bench-* $(SAMPLES) sample_db/*.faiss sample_db/*.vec sample_db/*.lex

distclean: clean
	rm -rf $(B)

-include $(shell find $(B)/obj $(B)/fuzz -name '*.d' 2>/dev/null)
