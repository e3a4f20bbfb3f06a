# mdprofile: declarative, transactional tuning of Linux md RAID.
#
#   make              build ./mdprofile
#   make check        every test (unit, CLI, schema, fuzz smoke, real-kernel VM lab)
#   make check-fast   the same without the VM lab
#   make valgrind     unit and CLI tests under valgrind memcheck (part of check-fast)
#   make demo         the main job end to end on the built-in demo
#   make deps         install the Debian packages the build and tests need (as root)
#   make install PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/mdprofile
DOCDIR ?= $(PREFIX)/share/doc/mdprofile
SYSCONFDIR ?= /etc
DESTDIR ?=

# In the header of every boot script (boot-script).
VERSION := 0.1.0

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := yaml-0.1 libcyaml libudev

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Isrc $(WARN) -DMDP_VERSION='"$(VERSION)"' \
	-DMDP_DATADIR='"$(DATADIR)"' -DMDP_SYSCONFDIR='"$(SYSCONFDIR)"'
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The MDPROFILE_FAULT test seam (tests/seams/, hooked in by cmd/fault.h) goes only into test
# and lab builds: build/san (unit and CLI tests), build/vg (valgrind) and the VM lab's static
# build (STATIC_SEAM=1). ./mdprofile and `make static` are built without it.
SEAM := -DMDP_FAULT_SEAM -Icmd
SEAM_SRC := tests/seams/fault.c
STATIC_SEAM ?=

LIB_SRC := $(sort $(wildcard src/*.c))
CMD_SRC := $(sort $(wildcard cmd/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_SUPPORT := $(sort $(wildcard tests/unit/support_*.c))

REL := build/rel
SANB := build/san
STATIC := build/static
VG := build/vg

REL_LIB_OBJ := $(LIB_SRC:%.c=$(REL)/%.o)
REL_CMD_OBJ := $(CMD_SRC:%.c=$(REL)/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=$(SANB)/%.o)
SAN_CMD_OBJ := $(CMD_SRC:%.c=$(SANB)/%.o)
SAN_SUP_OBJ := $(UNIT_SUPPORT:%.c=$(SANB)/%.o)
STATIC_OBJ := $(LIB_SRC:%.c=$(STATIC)/%.o) $(CMD_SRC:%.c=$(STATIC)/%.o) \
	$(if $(STATIC_SEAM),$(SEAM_SRC:%.c=$(STATIC)/%.o))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(SANB)/tests/%)

.PHONY: all deps check check-fast unit cli cli-release schema fuzz fuzz-smoke vm-check demo bench \
	install static format clean valgrind
.DELETE_ON_ERROR:
.SECONDARY:

all: mdprofile

deps:
	@sh tests/deps.sh

# ---- release build ---------------------------------------------------------
$(REL)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) -O2 -g $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

mdprofile: $(REL_CMD_OBJ) $(REL_LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# ---- sanitizer build (tests) ----------------------------------------------
$(SANB)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(SEAM) -O1 -g $(SAN) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(SANB)/mdprofile: $(SAN_CMD_OBJ) $(SAN_LIB_OBJ) $(SEAM_SRC:%.c=$(SANB)/%.o)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

$(SANB)/libmdp.a: $(SAN_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(SANB)/tests/%: $(SANB)/tests/unit/%.o $(SAN_SUP_OBJ) $(SANB)/libmdp.a
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(CMOCKA_LIBS)

# ---- plain debug build for valgrind (ASan and valgrind do not mix) ---------
$(VG)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) $(SEAM) -O1 -g $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(VG)/libmdp.a: $(LIB_SRC:%.c=$(VG)/%.o)
	rm -f $@ && ar rcs $@ $^

$(VG)/tests/%: $(VG)/tests/unit/%.o $(UNIT_SUPPORT:%.c=$(VG)/%.o) $(VG)/libmdp.a
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(PKG_LIBS) $(CMOCKA_LIBS)

$(VG)/mdprofile: $(CMD_SRC:%.c=$(VG)/%.o) $(LIB_SRC:%.c=$(VG)/%.o) $(SEAM_SRC:%.c=$(VG)/%.o)
	$(CC) -o $@ $^ $(PKG_LIBS)

# Valgrind's own messages go to a log per process: they must not mix with the exact stderr the
# CLI tests compare, and valgrind 3.19 warns on every openat2 it does not know (mdprofile then
# resolves --root paths by hand, so that path is what runs here). An error still fails the
# run (exit 99) and its report is printed from the logs.
VG_LOG := $(VG)/log
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--log-file=$(CURDIR)/$(VG_LOG)/%p.log
VG_REPORT := { grep -h '^==' $(VG_LOG)/*.log >&2; exit 1; }
# Every unit test and the CLI tests that do not crash on purpose, under memcheck.
valgrind: $(UNIT_SRC:tests/unit/%.c=$(VG)/tests/%) $(VG)/mdprofile
	@rm -rf $(VG_LOG) && mkdir -p $(VG_LOG)
	@set -e; for t in $(UNIT_SRC:tests/unit/%.c=$(VG)/tests/%); do \
		echo "== valgrind $$t"; \
		MDP_SRCDIR=$(CURDIR) $(VALGRIND) $$t >/dev/null || $(VG_REPORT); done
	@MDP_WRAP="$(VALGRIND)" sh tests/cli/run.sh $(VG)/mdprofile 10-diff-diskstation \
		11-diff-json 12-diff-ds220j 13-diff-server 14-status 20-list-show 21-usage \
		22-options-units 23-drift 24-show-yaml 30-apply-revert 34-stale-journal 36-json-apply \
		37-left-services 38-journal-hardening 39-vanished-array 40-bad-input \
		43-stripe-memory 45-reshape-no-sync-action 46-root-symlinks 47-root-exec 50-stdin \
		51-boot-script 53-boot-install 55-status-truth 57-status-watch 58-status-prometheus \
		|| $(VG_REPORT)

# ---- static build for NAS boxes and the VM lab (no libudev: sysfs walk) ----
# STATIC_SEAM=1 adds the fault seam for the lab, which builds in a directory of its own.
ifneq ($(STATIC_SEAM),)
ifeq ($(STATIC),build/static)
$(error STATIC_SEAM=1 needs a build dir of its own (STATIC=DIR): build/static is the NAS build)
endif
endif
$(STATIC)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	@$(CC) $(BASE_CFLAGS) -DMDP_NO_UDEV $(if $(STATIC_SEAM),$(SEAM)) -O2 \
		$(shell $(PKG_CONFIG) --cflags yaml-0.1 libcyaml) $(CFLAGS) -MMD -MP -c -o $@ $<

$(STATIC)/mdprofile: $(STATIC_OBJ)
	$(CC) -static -o $@ $^ -lcyaml -lyaml

static: $(STATIC)/mdprofile

# ---- tests -----------------------------------------------------------------
unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do \
		echo "== $$t"; MDP_SRCDIR=$(CURDIR) $$t; done

cli: $(SANB)/mdprofile mdprofile
	@sh tests/cli/run.sh $(SANB)/mdprofile
	@sh tests/cli/services.sh $(SANB)/mdprofile
	@sh tests/cli/run.sh ./mdprofile $(CLI_RELEASE)

# The cases in tests/cli/release/ run against the release binary, which has no fault seam.
CLI_RELEASE := $(sort $(wildcard tests/cli/release/*.sh))
cli-release: mdprofile
	@sh tests/cli/run.sh ./mdprofile $(CLI_RELEASE)

# The schema against the profiles, then against the loader of the built binary.
schema: mdprofile
	@python3 tests/schema/check_schema.py
	@python3 tests/schema/differential.py ./mdprofile

check-fast: deps
	@$(MAKE) --no-print-directory mdprofile unit cli schema fuzz-smoke valgrind

check: check-fast
	@$(MAKE) --no-print-directory vm-check

-include tests/fuzz/fuzz.mk
-include tests/vm/vm.mk
-include tests/bench/bench.mk

# ---- install ---------------------------------------------------------------
install: mdprofile
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/schema \
		$(DESTDIR)$(DOCDIR)
	install -m 0755 mdprofile $(DESTDIR)$(BINDIR)/mdprofile
	install -m 0644 profiles/*.yaml $(DESTDIR)$(DATADIR)/profiles/
	install -m 0644 schema/profile.schema.json $(DESTDIR)$(DATADIR)/schema/
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/

format:
	clang-format -i src/*.c src/*.h cmd/*.c cmd/*.h tests/unit/*.c tests/seams/*.c

clean:
	rm -rf build mdprofile

-include $(shell find build -name '*.d' 2>/dev/null)
