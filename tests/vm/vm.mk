# The real-kernel lab (tests/vm/README.md): included by the top-level Makefile.
#
#   make vm-check                          every scenario, on each lab kernel (6.1 and 5.10)
#   make vm-check VM_KERNEL=5.10           on one kernel only (6.1: Debian 12's, 5.10: 11's)
#   make vm-check VM_SCENARIOS=10-discover one (or a comma list of) scenario(s)
#   make vm-check VM_VERBOSE=1             stream the guest console
#   make vm-check VM_NO_MDPROFILE=1        boot the lab without the tool (lab self-test)
#   make vm-check VM_PARALLEL=0            the kernels' labs one after the other
#   make demo                              a reshape before/after reshape-fast, streamed
#   make vm-shell                          boot the lab to a shell on the console
#
# Each kernel has its own cache (tests/vm/cache/KERNEL) and output dir (build/vm/KERNEL:
# initramfs, console logs).  demo and vm-shell boot one kernel: VM_KERNEL, else 6.1.

VM_DIR := tests/vm
VM_OUT := build/vm
VM_KERNELS := 6.1 5.10
VM_KERNEL ?=
VM_KLIST = $(or $(VM_KERNEL),$(VM_KERNELS))
VM_K1 = $(firstword $(VM_KLIST))
# A build dir of its own: the lab's static binary looks for profiles under /usr, and it has
# the MDPROFILE_FAULT seam (STATIC_SEAM=1) that the crash scenarios use.
VM_STATIC := build/static-vm
# The dynamic build (libudev) is the release binary itself; the guest links
# /usr/local/share/mdprofile to its profiles.
VM_DYNAMIC := mdprofile
VM_SCENARIOS ?=
VM_NO_MDPROFILE ?=
VM_PARALLEL ?=
# Without the tool only the lab's own scenario can run (the others would report "not run").
VM_SCEN = $(or $(VM_SCENARIOS),$(if $(VM_NO_MDPROFILE),00-arrays))
VM_ENV = VM_SCENARIOS='$(VM_SCEN)' VM_PARALLEL='$(VM_PARALLEL)'

.PHONY: vm-fetch vm-static vm-dynamic vm-initramfs vm-check vm-shell demo

vm-fetch:
	@set -e; for k in $(VM_KLIST); do VM_KERNEL=$$k sh $(VM_DIR)/fetch.sh; done

vm-static:
ifeq ($(VM_NO_MDPROFILE),)
	@$(MAKE) --no-print-directory static STATIC=$(VM_STATIC) PREFIX=/usr STATIC_SEAM=1
endif

vm-dynamic:
ifeq ($(VM_NO_MDPROFILE),)
	@$(MAKE) --no-print-directory $(VM_DYNAMIC)
endif

# The lab's foreground user, which times its own reads (tests/vm/guest/reader.c).
VM_READER := $(VM_STATIC)/mdp-reader
$(VM_READER): $(VM_DIR)/guest/reader.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -static -o $@ $<

vm-initramfs: vm-fetch vm-static vm-dynamic $(VM_READER)
	@set -e; for k in $(VM_KLIST); do \
		VM_READER=$(VM_READER) VM_CACHE=$(VM_DIR)/cache/$$k sh $(VM_DIR)/mkinitramfs.sh $(VM_OUT)/$$k/initramfs.gz \
			$(if $(VM_NO_MDPROFILE),,$(VM_STATIC)/mdprofile $(VM_DYNAMIC)); done

## the real-kernel lab on both kernels (VM_KERNEL=6.1 or 5.10 for one)
vm-check: vm-initramfs
	@$(VM_ENV) sh $(VM_DIR)/labs.sh $(VM_OUT) $(VM_KLIST)

## boot the lab to a shell on the console
vm-shell: vm-initramfs
	@qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
		-kernel $(VM_DIR)/cache/$(VM_K1)/vmlinuz -initrd $(VM_OUT)/$(VM_K1)/initramfs.gz \
		-append "console=ttyS0 panic=-1 quiet no_timer_check mdp_mode=shell"

## the main job on the built-in demo: a reshape before and after reshape-fast
demo:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory vm-initramfs VM_KERNEL=$(VM_K1)
	@VM_MODE=demo VM_SCENARIOS='$(VM_SCENARIOS)' VM_LOGDIR=$(VM_OUT)/$(VM_K1) \
		sh $(VM_DIR)/run.sh $(VM_DIR)/cache/$(VM_K1)/vmlinuz $(VM_OUT)/$(VM_K1)/initramfs.gz
