# libFuzzer targets: every tests/fuzz/fuzz_*.c is built with clang against the library.
#   make fuzz [FUZZ_SECONDS=240]  run each target for a set time (4 min each by default)
#   make fuzz-smoke               bounded run of each target (part of make check)
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 240
FUZZ_SMOKE_RUNS ?= 20000
COMMA := ,
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
# -fno-sanitize-recover=all: a UBSan report aborts the run like an ASan one,
# so undefined behaviour fails the smoke instead of scrolling past.
# The project's warnings as errors too; clang 14 also calls a designated initializer that
# leaves fields to zero "missing field initializers", which gcc does not: that one is off.
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE $(ROOM_INC) $(WARN) -Wno-missing-field-initializers \
	-g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all \
	-DMDP_DATADIR='"$(DATADIR)"' -DMDP_BINDIR='"$(BINDIR)"' -DMDP_SYSCONFDIR='"$(SYSCONFDIR)"'

# libFuzzer's runtime is in libclang-rt-14-dev, only a Recommends of clang: named before
# the first compile when it is missing.
FUZZ_RT = $(shell $(FUZZ_CC) -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-$(shell uname -m).a
need-fuzz:
	@sh tools/need.sh deps cmd:$(FUZZ_CC):clang file:$(FUZZ_RT):libclang-rt-14-dev

# The library is compiled once for every target (instrumented, libFuzzer's main left to the
# link), then each target's own file is linked with it.
FUZZ_OBJ := $(LIB_SRC:%.c=build/fuzz/obj/%.o)
build/fuzz/obj/%.o: %.c | need-fuzz
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(FUZZ_CC) $(subst -fsanitize=fuzzer$(COMMA),-fsanitize=fuzzer-no-link$(COMMA),$(FUZZ_FLAGS)) \
		$(PKG_CFLAGS) -MMD -MP -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ) | need-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKG_CFLAGS) -o $@ $< $(FUZZ_OBJ) $(PKG_LIBS)

## run each fuzz target for FUZZ_SECONDS (default 240)
fuzz: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
		mkdir -p build/fuzz/corpus-$$n; \
		$$f -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -artifact_prefix=build/fuzz/ \
			build/fuzz/corpus-$$n \
			tests/fuzz/seeds/$$n; done

## a bounded run of each fuzz target (part of make check)
fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
		echo "== $$n (smoke, $(FUZZ_SMOKE_RUNS) runs)"; \
		rm -rf build/fuzz/smoke-$$n; mkdir -p build/fuzz/smoke-$$n; \
		$$f -runs=$(FUZZ_SMOKE_RUNS) -max_len=8192 -seed=1 -artifact_prefix=build/fuzz/ \
			build/fuzz/smoke-$$n \
			tests/fuzz/seeds/$$n \
			2>build/fuzz/$$n.log || { tail -40 build/fuzz/$$n.log; exit 1; }; done
