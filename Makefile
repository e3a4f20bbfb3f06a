# mdprofile: declarative, transactional tuning of Linux md RAID.
#
# `make help` lists the targets: each is the line after a `## ` comment, which says what it
# does (here and in tests/*/*.mk).  The tiers (docs/hacking.md has their budgets): `make
# test` after every edit, `make check` (the README's second command), the CI gate (.ci/run:
# `make fresh-check` beside `make check-deep`), `make check-full` (the whole matrix, before a
# release).  make install PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/mdprofile
DOCDIR ?= $(PREFIX)/share/doc/mdprofile
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
DESTDIR ?=

# The version: MAJOR.MINOR.PATCH, in --version, the man pages and the tarball names.
VERSION := $(shell cat VERSION)

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := yaml-0.1 libcyaml libudev

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
# 32-bit ARM: 64-bit inodes, offsets and time (readdir fails with EOVERFLOW on a big inode).
# src/ is in rooms, one folder each (docs/architecture.md; tools/rooms.sh keeps their floors
# and doors): every room's folder is on the include path, so a file names a header alone.
ROOMS := $(patsubst src/%/,%,$(sort $(dir $(wildcard src/*/*.h))))
ROOM_INC := $(ROOMS:%=-Isrc/%)
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 $(ROOM_INC) $(WARN) \
	-DMDP_DATADIR='"$(DATADIR)"' -DMDP_BINDIR='"$(BINDIR)"' -DMDP_SYSCONFDIR='"$(SYSCONFDIR)"' -DMDP_VERSION='"$(VERSION)"'
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

LIB_SRC := $(sort $(wildcard src/*/*.c))
# The shipped profiles compiled in (cmd/builtin.h), generated into the build tree.
GEN_PROFILES := build/gen/profiles.c
CMD_SRC := $(sort $(wildcard cmd/*.c)) $(GEN_PROFILES)
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
STATIC_OBJ := $(LIB_SRC:%.c=$(STATIC)/%.o) $(CMD_SRC:%.c=$(STATIC)/%.o) \
	$(if $(STATIC_SEAM),$(SEAM_SRC:%.c=$(STATIC)/%.o))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(SANB)/tests/%)

.PHONY: release all help lint test fresh-check need-fuzz deps check check-nolab check-deep check-full unit cli cli-release schema schema-gen fuzz fuzz-smoke vm-check demo bench \
	install uninstall install-check man units FORCE man-lint dist static format clean valgrind need need-static cross cross-test-bin cross-deps cross-check cross-gate cli-static \
	ship-check coverage oldkernel-check need-check ansible-check dist-check slow-cases alerts-check deb deb-check piuparts explain-heldout
.DELETE_ON_ERROR:
.SECONDARY:

## build ./mdprofile, the release binary (the default)
all: mdprofile

## install every Debian package the build and all tests need (as root, or via sudo)
deps:
	@sh tests/deps.sh

# Missing packages stop the build before the first compile, by name (tools/need.sh).
NEED_LIBS := cmd:$(PKG_CONFIG):pkg-config pc:yaml-0.1:libyaml-dev pc:libcyaml:libcyaml-dev
NEED := cmd:$(CC):gcc $(NEED_LIBS) pc:libudev:libudev-dev
NEED_STATIC ?= cmd:$(CC):gcc $(NEED_LIBS)
NEED_TARGET ?= deps
need:
	@sh tools/need.sh deps $(NEED)
need-static:
	@sh tools/need.sh $(NEED_TARGET) $(NEED_STATIC)

$(GEN_PROFILES): tools/embed-profiles.sh $(sort $(wildcard profiles/*.yaml))
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	@sh tools/embed-profiles.sh $(sort $(wildcard profiles/*.yaml)) >$@

# ---- object files: one rule per build flavour --------------------------------
# OBJ_RULE DIR,FLAGS,ORDER-ONLY: DIR/x.o from x.c with BASE_CFLAGS, FLAGS, CPPFLAGS and CFLAGS.
define OBJ_RULE
$(1)/%.o: %.c | $(3)
	@mkdir -p $$(@D)
	@echo "  CC      $$@"
	@$$(CC) $$(BASE_CFLAGS) $(2) $$(CPPFLAGS) $$(CFLAGS) -MMD -MP -c -o $$@ $$<
endef
# release: ./mdprofile
$(eval $(call OBJ_RULE,$(REL),-O2 -g $$(PKG_CFLAGS),need))
# tests: sanitizers and the fault seam
$(eval $(call OBJ_RULE,$(SANB),$$(SEAM) -O1 -g $$(SAN) $$(PKG_CFLAGS),))
# valgrind: a plain debug build (ASan and valgrind do not mix)
$(eval $(call OBJ_RULE,$(VG),$$(SEAM) -O1 -g $$(PKG_CFLAGS),))
# lint: what GCC sees only with its optimiser on: a write through a pointer that can be NULL
# (-Wnull-dereference, explain's findings past a full report), and every implicit conversion
# that can change a value (-Wconversion: sign, width, float); objects kept for make lint,
# whose symbols tools/exported.sh reads (the schema's generator is a caller too).
LINT_OBJ := $(LIB_SRC:%.c=build/lint/%.o) $(filter-out build/lint/build/%,$(CMD_SRC:%.c=build/lint/%.o)) \
	build/lint/tools/gen-schema.o
$(eval $(call OBJ_RULE,build/lint,-O2 -Wnull-dereference -Wconversion $$(PKG_CFLAGS),need))
# static (NAS boxes, the VM lab; no libudev: a sysfs walk); STATIC_SEAM=1 adds the seam.
# -Os and unused sections dropped at the link: a NAS has little room (DIST_MAX_BYTES)
$(eval $(call OBJ_RULE,$(STATIC),-DMDP_NO_UDEV -DMDP_STATIC $$(if $$(STATIC_SEAM),$$(SEAM)) -Os \
	-ffunction-sections -fdata-sections $$(shell $$(PKG_CONFIG) --cflags yaml-0.1 libcyaml),need-static))

# ---- release build ---------------------------------------------------------

mdprofile: $(REL_CMD_OBJ) $(REL_LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# ---- sanitizer build (tests) ----------------------------------------------

$(SANB)/mdprofile: $(SAN_CMD_OBJ) $(SAN_LIB_OBJ) $(SEAM_SRC:%.c=$(SANB)/%.o)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

$(SANB)/libmdp.a: $(SAN_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

# TEST_LINK DIR,FLAGS: DIR/tests/test_x from its object, the unit-test support and DIR's archive.
define TEST_LINK
$(1)/tests/%: $(1)/tests/unit/%.o $$(UNIT_SUPPORT:%.c=$(1)/%.o) $(1)/libmdp.a
	@mkdir -p $$(@D)
	$$(CC) $(2) -o $$@ $$(filter-out %.a,$$^) $$(filter %.a,$$^) $$(PKG_LIBS) $$(CMOCKA_LIBS)
endef
$(eval $(call TEST_LINK,$(SANB),$$(SAN)))

# The option parser's test links the cmd/ objects it tests (objects first, then the archive).
$(SANB)/tests/test_opt: $(SANB)/cmd/opt.o $(SANB)/cmd/opt_help.o
$(VG)/tests/test_opt: $(VG)/cmd/opt.o $(VG)/cmd/opt_help.o

# ---- plain debug build for valgrind ------------------------------------------

$(VG)/libmdp.a: $(LIB_SRC:%.c=$(VG)/%.o)
	rm -f $@ && ar rcs $@ $^

$(eval $(call TEST_LINK,$(VG),))

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
# Every unit test and the CLI tests that do not crash on purpose, under memcheck; its leak
# check is the one those cases get (make cli runs them with LeakSanitizer off).
## unit tests and the CLI cases that do not crash on purpose, under valgrind memcheck
valgrind: $(UNIT_SRC:tests/unit/%.c=$(VG)/tests/%) $(VG)/mdprofile
	@rm -rf $(VG_LOG) && mkdir -p $(VG_LOG)
	@MDP_SRCDIR=$(CURDIR) sh tools/valgrind-units.sh $(VG_LOG) "$(VALGRIND)" \
		$(UNIT_SRC:tests/unit/%.c=$(VG)/tests/%)
	@# The cases tagged no-valgrind say on their tag line why they stay out.
	@MDP_WRAP="$(VALGRIND)" sh tests/cli/run.sh -j$(CLI_J) --without no-valgrind $(VG)/mdprofile \
		|| $(VG_REPORT)
	@MDP_WRAP="$(VALGRIND)" sh tests/cli/run.sh --without no-valgrind $(VG)/mdprofile \
		$(CLI_RELEASE) || $(VG_REPORT)

# ---- coverage: the unit tests' line coverage of src/ (gcov) -------------------
# A plain -O0 build with the fault seam (the unit tests' code), no sanitizers, in a build dir of
# its own; make coverage runs each unit test once (fresh counts) and tools/coverage.sh prints
# every src/ file's line coverage, sorted ascending, and fails on a file under its floor.
# glibc's per-thread cache off: mallinfo2 counts the blocks it holds as in use, and
# test_diag's soak compares the heap (ASan and valgrind count it themselves).
COV := build/cov
$(eval $(call OBJ_RULE,$(COV),$$(SEAM) -O0 -g --coverage $$(PKG_CFLAGS),))

$(COV)/libmdp.a: $(LIB_SRC:%.c=$(COV)/%.o)
	rm -f $@ && ar rcs $@ $^

$(eval $(call TEST_LINK,$(COV),--coverage))
$(COV)/tests/test_opt: $(COV)/cmd/opt.o $(COV)/cmd/opt_help.o

## the unit tests' line coverage of each src/ file (gcov), failing on one under 60 %
coverage: $(UNIT_SRC:tests/unit/%.c=$(COV)/tests/%)
	@find $(COV) -name '*.gcda' -delete
	@set -e; for t in $^; do GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MDP_SRCDIR=$(CURDIR) \
		$$t >$(COV)/unit.log 2>&1 || \
		{ cat $(COV)/unit.log >&2; echo "coverage: $$t failed" >&2; exit 1; }; done
	@sh tools/coverage.sh $(LIB_SRC:%.c=$(COV)/%.o)

# ---- static build for NAS boxes and the VM lab (no libudev: sysfs walk) ----
# STATIC_SEAM=1 adds the fault seam for the lab, which builds in a directory of its own.
ifneq ($(STATIC_SEAM),)
ifeq ($(STATIC),build/static)
$(error STATIC_SEAM=1 needs a build dir of its own (STATIC=DIR): build/static is the NAS build)
endif
endif

$(STATIC)/mdprofile: $(STATIC_OBJ)
	$(CC) -static -Wl,--gc-sections -o $@ $^ -lcyaml -lyaml

## build/static/mdprofile: the static x86_64 binary for a NAS
static: $(STATIC)/mdprofile

# ---- cross builds for ARM NAS boxes (make cross ARCH=aarch64|armhf) ---------
# Debian's cross compilers and multiarch libyaml/libcyaml (make cross-deps), the
# same static build as above in build/ARCH. build/ARCH-test adds the fault seam
# for the CLI cases that need it (tag seam) under qemu-user (make cross-check).
ARCH ?= aarch64
CROSS_ARCHES := aarch64 armhf
CROSS_TRIPLET_aarch64 := aarch64-linux-gnu
CROSS_TRIPLET_armhf := arm-linux-gnueabihf
CROSS_QEMU_aarch64 := qemu-aarch64-static
CROSS_QEMU_armhf := qemu-arm-static
CROSS_DEB_aarch64 := arm64
CROSS_DEB_armhf := armhf
CROSS_OK = $(or $(CROSS_TRIPLET_$(ARCH)),$(error ARCH=$(ARCH): use one of $(CROSS_ARCHES)))
CROSS_LIB = file:/usr/lib/$(CROSS_OK)/lib$(1).a:lib$(1)-dev:$(CROSS_DEB_$(ARCH))
CROSS_MAKE = $(MAKE) --no-print-directory static CC=$(CROSS_OK)-gcc NEED_TARGET=cross-deps \
	NEED_STATIC="cmd:$(CROSS_OK)-gcc:gcc-$(CROSS_OK) \
	file:/usr/$(CROSS_OK)/include/stdio.h:libc6-dev-$(CROSS_DEB_$(ARCH))-cross \
	$(call CROSS_LIB,yaml) $(call CROSS_LIB,cyaml)"

# A sub-make named through a variable gets the jobserver only with the + prefix.
## build/ARCH/mdprofile: the static ARM binary (ARCH=aarch64 or armhf)
cross:
	+@$(CROSS_MAKE) STATIC=build/$(ARCH)

cross-test-bin:
	+@$(CROSS_MAKE) STATIC=build/$(ARCH)-test STATIC_SEAM=1

# cross-check-aarch64, cross-check-armhf: one sub-make per architecture, jobserver kept.
CROSS_CHECKS := $(CROSS_ARCHES:%=cross-check-%)
.PHONY: $(CROSS_CHECKS)
$(CROSS_CHECKS): cross-check-%: $(GEN_PROFILES)
	@$(MAKE) --no-print-directory cross-check ARCH=$*

## install only the cross compilers, ARM libraries and qemu-user
cross-deps:
	@sh tests/deps.sh --cross

# The CLI suite on the cross binaries under qemu-user: the shipped binary runs every case
# but those that need the fault seam (tag seam) and the release cases (the copied binary
# alone, the seam absent); the seam build runs the seam cases.  CROSS_CASES=--without slow
# leaves out the slow ones (the gate's armhf pass, make cross-gate).
CROSS_CASES ?=
## the CLI suite on the ARM binaries under qemu-user (ARCH=aarch64 or armhf)
cross-check: cross cross-test-bin
	@echo "== CLI suite on build/$(ARCH)/mdprofile under $(CROSS_QEMU_$(ARCH))"
	@MDP_WRAP=$(CROSS_QEMU_$(ARCH)) sh tests/cli/run.sh -j$(CLI_J) --without seam $(CROSS_CASES) \
		build/$(ARCH)/mdprofile
	@MDP_WRAP=$(CROSS_QEMU_$(ARCH)) sh tests/cli/run.sh build/$(ARCH)/mdprofile $(CLI_RELEASE)
	@echo "== the seam cases on build/$(ARCH)-test under $(CROSS_QEMU_$(ARCH))"
	@MDP_WRAP=$(CROSS_QEMU_$(ARCH)) sh tests/cli/run.sh -j$(CLI_J) --only seam $(CROSS_CASES) \
		build/$(ARCH)-test/mdprofile

# The gate's ARM passes: 32-bit ARM on every case but the slow ones (it found the readdir
# EOVERFLOW bug), aarch64 on the cases tagged smoke and the release cases.
## the gate's ARM passes: armhf on every case but the slow ones, aarch64 on the smoke set
cross-gate:
	@$(MAKE) --no-print-directory cross-check ARCH=armhf CROSS_CASES='--without slow'
	@$(MAKE) --no-print-directory cross ARCH=aarch64
	@echo "== the smoke cases on build/aarch64 under $(CROSS_QEMU_aarch64)"
	@MDP_WRAP=$(CROSS_QEMU_aarch64) sh tests/cli/run.sh -j$(CLI_J) --only smoke build/aarch64/mdprofile
	@MDP_WRAP=$(CROSS_QEMU_aarch64) sh tests/cli/run.sh build/aarch64/mdprofile $(CLI_RELEASE)

# The shipped x86_64 static binary, once, as if on Linux 3.10: every system call added since
# fails with ENOSYS (tests/oldkernel), so the fallbacks are what run; the newer calls run in
# the VM lab on 6.1 and 5.10.  Every case but those that need the fault seam, and the
# release cases.
build/oldkernel: tests/oldkernel/oldkernel.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -o $@ $<

## the shipped static binary on every seam-free case, with Linux 3.10's system calls
cli-static: static build/oldkernel
	@echo "== CLI suite on $(STATIC)/mdprofile with Linux 3.10's system calls"
	@MDP_WRAP=$(CURDIR)/build/oldkernel sh tests/cli/run.sh -j$(CLI_J) --without seam $(STATIC)/mdprofile
	@MDP_WRAP=$(CURDIR)/build/oldkernel sh tests/cli/run.sh $(STATIC)/mdprofile $(CLI_RELEASE)

# The whole CLI suite, seam cases too, on a seam build of the static binary with Linux
# 3.10's system calls (make check-full).
## the whole CLI suite on a seam static build with Linux 3.10's system calls
oldkernel-check: build/oldkernel
	@$(MAKE) --no-print-directory static STATIC=build/x86_64-test STATIC_SEAM=1
	@echo "== CLI suite on build/x86_64-test with Linux 3.10's system calls"
	@MDP_WRAP=$(CURDIR)/build/oldkernel sh tests/cli/run.sh -j$(CLI_J) build/x86_64-test/mdprofile

# A build without its packages must stop at once, naming them, the apt-get that installs
# them alone, and make deps.
need-check:
	@out=$$($(MAKE) --no-print-directory -s need PKG_CONFIG_LIBDIR=/nonexistent 2>&1) && \
		{ echo "need-check: make need passed without libraries" >&2; exit 1; }; \
	echo "$$out" | grep -q 'missing build dependencies: libyaml-dev libcyaml-dev libudev-dev$$' && \
	echo "$$out" | grep -q "sudo apt-get install --no-install-recommends libyaml-dev libcyaml-dev libudev-dev$$" && \
	echo "$$out" | grep -q "make deps" || { echo "need-check: got: $$out" >&2; exit 1; }
	@echo "need-check: a missing package stops the build, named"

# Everything a release ships: the three static binaries, built and tested on every case.
## the three static NAS binaries built and tested on every case, and the tarballs checked
ship-check: cli-static oldkernel-check
	@$(MAKE) --no-print-directory $(CROSS_CHECKS) dist-check

# ---- tests -----------------------------------------------------------------
## the cmocka unit tests (sanitizer build)
unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do \
		echo "== $$t"; MDP_SRCDIR=$(CURDIR) $$t; done

# Cases in parallel (CLI_J at a time, the slow ones in a lane of their own); LeakSanitizer
# only where make valgrind does not check leaks; the times go to CLI_TIMES, which make lint
# checks (tools/slow-cases.sh: on the developer's machine, never as a pass/fail of a loaded
# CI run, where a time is no measure).
CLI_J ?= 2
CLI_TIMES := $(SANB)/cli-times
## the CLI cases on fixture roots (sanitizer build; release cases on ./mdprofile)
cli: $(SANB)/mdprofile mdprofile
	@sh tests/cli/run.sh -j$(CLI_J) --leaks no-valgrind --times $(CLI_TIMES) $(SANB)/mdprofile
	@sh tests/cli/run.sh ./mdprofile $(CLI_RELEASE)

## every case over 3 s tagged slow or heavy, on the times of the last make cli (make lint too)
slow-cases:
	@sh tools/slow-cases.sh $(CLI_TIMES)

# The cases in tests/cli/release/ run against the release binary, which has no fault seam.
CLI_RELEASE := $(sort $(wildcard tests/cli/release/*.sh))
cli-release: mdprofile
	@sh tests/cli/run.sh ./mdprofile $(CLI_RELEASE)

# The schema is generated from the key table and the tunable registry (tools/gen-schema.c);
# `make schema` fails when the committed file is not what the generator prints.
$(REL)/gen-schema: tools/gen-schema.c $(REL_LIB_OBJ)
	$(CC) $(BASE_CFLAGS) -O2 $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

## regenerate schema/profile.schema.json from the key table and the tunable registry
schema-gen: $(REL)/gen-schema
	$(REL)/gen-schema >schema/profile.schema.json.tmp
	mv schema/profile.schema.json.tmp schema/profile.schema.json

# The schema against its generator, the profiles, then the loader of the built binary.
## the JSON Schema against its generator, the shipped profiles and the loader
schema: mdprofile $(REL)/gen-schema
	@sh tests/schema/generated.sh $(REL)/gen-schema
	@python3 tests/schema/check_schema.py
	@python3 tests/schema/differential.py ./mdprofile

# The Ansible collection ansible/ (mdprofile.nas): its modules and role run by
# ansible-playbook against fixture roots (tests/ansible/run.sh; the failures through the
# seam build), then ansible-lint, ansible-doc and the offline ansible-test sanity tests.
## the Ansible collection (ansible/) against fixture roots, then its linters
ansible-check: mdprofile $(SANB)/mdprofile static
	@sh tests/ansible/run.sh ./mdprofile $(SANB)/mdprofile $(STATIC)/mdprofile
	@sh tests/ansible/lint.sh

# Issue 39's held-out reports (tests/heldout/, kept apart from the tests): explain on each,
# scored right / partly / wrong against the verdict its thread supports. Outside the gate: it
# fails until the set holds 17 reports, 15 right and none wrong.
## explain on the held-out public reports (tests/heldout/), scored; not part of check
explain-heldout: mdprofile
	@python3 tests/heldout/run.py ./mdprofile build/heldout

# The shipped Prometheus alert rules: promtool's syntax check, then its unit tests, where
# each alert fires on its case and stays silent on its near miss.
## the Prometheus alert rules (prometheus/) under promtool check and test rules
alerts-check:
	@sh tools/need.sh deps cmd:promtool:prometheus
	@promtool check rules prometheus/mdprofile-alerts.yml >/dev/null
	@cd tests/prometheus && promtool test rules alerts-test.yml >/dev/null
	@echo "alerts-check: $$(grep -c '^      - alert:' prometheus/mdprofile-alerts.yml) alert rules checked and tested"

# Every shell script (sourced fragments read their .shellcheckrc), every Python file,
# and the committed fixture trees against their generator.
LINT_SH = $(shell find tools tests -name '*.sh' -not -path 'tests/vm/cache/*' | sort) \
	tests/fakes/synoservice tests/fakes/synopkg tests/fakes/synosystemctl tests/fakes/systemctl tests/fakes/esynoscheduler \
	tools/piuparts/pre_remove_50_enabled debian/mdprofile.prerm debian/mdprofile.postinst debian/mdprofile.postrm \
	completion/mdprofile.bash
LINT_PY = $(shell find tests tools ansible -name '*.py' -not -path 'tests/vm/cache/*' | sort)
## shellcheck, pyflakes, fixture trees, function lengths, file caps, no dead function, needless export or stray top-level file, C at -O2 -Wnull-dereference
lint: $(LINT_OBJ)
	@sh tools/need.sh deps cmd:shellcheck:shellcheck cmd:pyflakes3:pyflakes3
	@shellcheck -x -e SC1091 $(LINT_SH)
	@pyflakes3 $(LINT_PY)
	@python3 tests/fixtures/mkroot.py --check
	@python3 tests/fixtures/explain/mk.py --check
	@sh tools/funclen.sh 70
	@sh tools/filecap.sh
	@sh tools/tree.sh
	@sh tools/unused.sh
	@sh tools/rooms.sh
	@sh tools/exported.sh $(LINT_OBJ)
	@if [ -s $(CLI_TIMES) ]; then sh tools/slow-cases.sh $(CLI_TIMES); \
		else echo "lint: no $(CLI_TIMES) yet: make cli checks the slow tags"; fi
	@echo "lint: $(words $(LINT_SH)) shell scripts, $(words $(LINT_PY)) Python files, the fixture trees, the functions' lengths and uses, the files' lengths and exports, the top-level entries and $(words $(LINT_OBJ)) C files at -O2 -Wnull-dereference -Wconversion are clean"

# The tiers (docs/hacking.md has their budgets): `make test` after each edit (5 minutes);
# `make check`, the README's (15 minutes alone); the CI gate, .ci/run (30 minutes on 2
# cores): fresh-check (make demo, check and dist-check in a pristine root) beside
# check-deep (memcheck, armhf on every case but the slow ones, aarch64 on the smoke set);
# `make check-full`, the whole matrix before a release or after a large change.  Every
# target runs once per landing.
CHECK_HOST := lint mdprofile unit cli schema fuzz-smoke man-lint install-check need-check \
	cli-static ansible-check alerts-check

## everything in check but the VM lab
check-nolab: deps
	@$(MAKE) --no-print-directory $(CHECK_HOST)

## the README's tests: lint, unit, CLI, schema, fuzz smoke, the static binary, Ansible, the VM lab
check: check-nolab
	@$(MAKE) --no-print-directory vm-check

## the gate's half beside fresh-check: valgrind, armhf on every case but the slow ones, aarch64's smoke set
check-deep: deps
	@$(MAKE) --no-print-directory valgrind cross-gate

# Not part of the gate (docs/hacking.md says when): check, then the unit tests' coverage of
# src/, every case on both ARM builds and on the seam static build with Linux 3.10's system
# calls, the tarballs, the Debian package under piuparts, memcheck, make fuzz (FUZZ_SECONDS
# a target) and make bench-vm.
## the whole matrix, before a release or after a large change (well over an hour)
check-full: check
	@$(MAKE) --no-print-directory coverage valgrind oldkernel-check $(CROSS_CHECKS) dist-check piuparts fuzz bench-vm

## the edit loop: unit tests and CLI cases on the sanitizer build (a few minutes)
test: deps
	@$(MAKE) --no-print-directory unit cli

## the README's two commands (make demo, make check) and make dist-check on a pristine Debian 12 root (as root)
fresh-check:
	@sh tools/fresh-check.sh

## this list
help:
	@awk '/^## / { d = substr($$0, 4); next } \
		d != "" && /^[a-z][a-z0-9_.-]*:/ { sub(/:.*/, ""); printf "  %-16s %s\n", $$0, d } \
		{ d = "" }' $(MAKEFILE_LIST)

-include tests/fuzz/fuzz.mk
-include tests/vm/vm.mk
-include tests/bench/bench.mk

# ---- man pages, completion, install ------------------------------------------
MAN_SRC := man/mdprofile.8 man/mdprofile.yaml.5
MAN := $(MAN_SRC:man/%=build/man/%)

# @VERSION@ from VERSION; the line @BUILTIN_PROFILES@ becomes the built-in profiles' names
# (those of profiles/*.yaml, which the binary builds in), as mdoc.
PROFILES := $(sort $(wildcard profiles/*.yaml))
build/man/%: man/% VERSION tools/man-profiles.sh $(PROFILES)
	@mkdir -p $(@D)
	@sh tools/man-profiles.sh $(PROFILES) >$@.names
	@sed 's/@VERSION@/$(VERSION)/' $< | awk -v f=$@.names \
		'$$0 == "@BUILTIN_PROFILES@" { while ((getline l < f) > 0) print l; next } { print }' >$@
	@rm -f $@.names

man: $(MAN)

# The textfile export's timer and service, and the boot units `mdprofile enable` enables
# where they are installed (mdprofile.service, mdprofile-auto.service: mdprofile(8), enable),
# with the installed paths (made on every run: they depend on PREFIX, BINDIR and DOCDIR as
# given on the command line).
UNITS := $(addprefix build/systemd/,mdprofile-textfile.service mdprofile-textfile.timer \
	mdprofile.service mdprofile-auto.service)

build/systemd/%: systemd/% FORCE
	@mkdir -p $(@D)
	@sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' $< >$@

FORCE:

units: $(UNITS)

# mandoc's own lint, warnings and worse; both pages must be clean.
## mandoc's lint of both man pages, and mdprofile(8) names every built-in profile
man-lint: $(MAN)
	@mandoc -Tlint -Wwarning $(MAN)
	@for p in $(PROFILES:profiles/%.yaml=%); do grep -Eq "^\.Cm $$p( [,.])?$$" build/man/mdprofile.8 || \
		{ echo "man-lint: mdprofile(8) does not list the built-in profile $$p" >&2; exit 1; }; done
	@echo "man: $(words $(MAN)) pages lint clean"

INSTALLED := $(BINDIR)/mdprofile $(DATADIR)/profiles $(DATADIR)/schema $(DATADIR)/prometheus $(DOCDIR) \
	$(MANDIR)/man8/mdprofile.8 $(MANDIR)/man5/mdprofile.yaml.5 $(BASHCOMPDIR)/mdprofile \
	$(UNITS:build/systemd/%=$(UNITDIR)/%)

# The docs for people who run mdprofile; those for people who work on it (architecture.md,
# hacking.md, PERFORMANCE.md) stay in the source tree.
USER_DOCS := docs/guide.md docs/explain.md docs/output.md docs/dsm.md

## install into DESTDIR/PREFIX (default /usr/local)
install: mdprofile $(MAN) $(UNITS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/schema \
		$(DESTDIR)$(DATADIR)/prometheus \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(UNITDIR)
	install -m 0755 mdprofile $(DESTDIR)$(BINDIR)/mdprofile
	install -m 0644 profiles/*.yaml $(DESTDIR)$(DATADIR)/profiles/
	install -m 0644 schema/profile.schema.json $(DESTDIR)$(DATADIR)/schema/
	install -m 0644 prometheus/mdprofile-alerts.yml $(DESTDIR)$(DATADIR)/prometheus/
	install -m 0644 README.md COPYING $(DESTDIR)$(DOCDIR)/
	install -m 0644 $(USER_DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 0644 build/man/mdprofile.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 build/man/mdprofile.yaml.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 completion/mdprofile.bash $(DESTDIR)$(BASHCOMPDIR)/mdprofile
	install -m 0644 $(UNITS) $(DESTDIR)$(UNITDIR)/

# Everything install put down, and the directories of mdprofile's own.
## remove everything install put down
uninstall:
	rm -rf $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

# install then uninstall into a scratch DESTDIR: nothing may be left.
install-check:
	@rm -rf build/destdir
	@$(MAKE) --no-print-directory -s install DESTDIR=$(CURDIR)/build/destdir >/dev/null
	@test -x build/destdir$(BINDIR)/mdprofile && \
		test -s build/destdir$(MANDIR)/man8/mdprofile.8 && \
		test -s build/destdir$(BASHCOMPDIR)/mdprofile && \
		test -s build/destdir$(UNITDIR)/mdprofile-textfile.timer && \
		test -s build/destdir$(UNITDIR)/mdprofile-auto.service && \
		test -s build/destdir$(DOCDIR)/output.md && ! test -e build/destdir$(DOCDIR)/hacking.md
	@$(MAKE) --no-print-directory -s uninstall DESTDIR=$(CURDIR)/build/destdir >/dev/null
	@left=$$(find build/destdir -type f); [ -z "$$left" ] || \
		{ echo "uninstall left: $$left" >&2; exit 1; }
	@echo "install-check: install and uninstall leave nothing behind"

# ---- release tarballs ----------------------------------------------------------
# make dist: one tarball per architecture (x86_64, aarch64, armv7) with SHA256SUMS, by
# tools/dist.sh (what each holds is said there). Names: mdprofile-VERSION-ARCH.tar.gz.
DIST := build/dist
# A NAS has little room to spare: each stripped binary stays under 1.75 MiB (docs/PERFORMANCE.md).
DIST_MAX_BYTES := 1835008

## build/dist: one tarball per architecture with SHA256SUMS
dist: $(MAN)
	@$(MAKE) --no-print-directory static
	@$(MAKE) --no-print-directory cross ARCH=aarch64
	@$(MAKE) --no-print-directory cross ARCH=armhf
	@sh tools/dist.sh $(DIST) $(VERSION) $(DIST_MAX_BYTES) $(MAN)

# What a NAS owner downloads: every tarball has its files, the sums check, and each
# binary (under qemu-user for ARM) says the version its tarball is named for.
DIST_FILES := mdprofile README.md dsm.md CHANGELOG.md COPYING THIRD-PARTY man/mdprofile.8 \
	man/mdprofile.yaml.5 profiles/reshape-fast.yaml schema/profile.schema.json \
	prometheus/mdprofile-alerts.yml completion/mdprofile
dist-check: dist
	@sh tools/dist-check.sh $(DIST) $(VERSION) $(DIST_FILES)

# make release: what a release publishes, in build/release/VERSION: the three tarballs checked
# (dist-check) with their checksum files and SHA256SUMS, and the Debian package with its own.
RELEASE = build/release/$(VERSION)
## build/release/VERSION: the checked tarballs and the .deb, each with its checksum file
release: dist-check deb
	@rm -rf $(RELEASE) && mkdir -p $(RELEASE)
	@cp $(DIST)/*.tar.gz $(DIST)/*.tar.gz.sha256 $(DIST)/SHA256SUMS $(DEB_FILE) $(RELEASE)/
	@cd $(RELEASE) && sha256sum $(notdir $(DEB_FILE)) >$(notdir $(DEB_FILE)).sha256 && \
		cat $(notdir $(DEB_FILE)).sha256 >>SHA256SUMS && sha256sum --quiet -c SHA256SUMS
	@echo "release: $(RELEASE)" && ls $(RELEASE)

# ---- the Debian package --------------------------------------------------------
# make deb: debian/ built with debhelper in a copy of the tree (tools/deb.sh), version from
# VERSION, lintian clean at warning level; deb-check installs, runs and purges it
# (tools/deb-check.sh), in make fresh-check's pristine root.
DEB := build/deb
DEB_FILE = $(DEB)/mdprofile_$(VERSION)_$(shell dpkg --print-architecture).deb
## build/deb: the Debian package (debhelper, lintian clean)
deb:
	@sh tools/need.sh deps cmd:dpkg-buildpackage:dpkg-dev cmd:dh:debhelper cmd:lintian:lintian \
		file:/usr/share/build-essential/essential-packages-list:build-essential
	@sh tools/deb.sh $(DEB) $(VERSION)

## the Debian package installed, run and purged (as root, where mdprofile is not installed)
deb-check: deb
	@sh tools/deb-check.sh $(DEB_FILE)

# Debian's piuparts over the package in a pristine Debian 12 root (tools/piuparts.sh):
# install and purge, then an upgrade from an older version, remove and purge, an enable's
# record in place before each removal. About 2 minutes the first time (the root is made
# and kept in build/piuparts/base.tar.gz), 1 minute after; in make check-full.
## piuparts: the package's install, upgrade, remove and purge in a pristine root (as root)
piuparts: deb
	@sh tools/piuparts.sh $(DEB_FILE) $(VERSION) build/piuparts

## clang-format the C sources in place
format:
	clang-format -i src/*/*.c src/*/*.h cmd/*.c cmd/*.h tests/unit/*.c tests/seams/*.c

## remove build/ and ./mdprofile
clean:
	rm -rf build mdprofile

-include $(shell find build -name fresh -prune -o -name '*.d' -type f -print 2>/dev/null)
