# The real-kernel lab (tests/vm/README.md): included by the top-level Makefile.
#
#   make vm-check                          every scenario in a TCG guest
#   make vm-check VM_SCENARIOS=10-discover one (or a comma list of) scenario(s)
#   make vm-check VM_VERBOSE=1             stream the guest console
#   make vm-check VM_NO_MDPROFILE=1        boot the lab without the tool (lab self-test)
#   make demo                              a reshape before/after reshape-fast, streamed
#   make vm-shell                          boot the lab to a shell on the console

VM_DIR := tests/vm
VM_OUT := build/vm
VM_CACHE := $(VM_DIR)/cache
# A build dir of its own: the lab's static binary looks for profiles under /usr, and it has
# the MDPROFILE_FAULT seam (STATIC_SEAM=1) that the crash scenarios use.
VM_STATIC := build/static-vm
# The dynamic build (libudev) is the release binary itself; the guest links
# /usr/local/share/mdprofile to its profiles.
VM_DYNAMIC := mdprofile
VM_SCENARIOS ?=
VM_NO_MDPROFILE ?=
VM_ENV = VM_SCENARIOS='$(VM_SCENARIOS)' VM_LOGDIR=$(VM_OUT)

.PHONY: vm-fetch vm-static vm-dynamic vm-initramfs vm-check vm-shell demo

vm-fetch:
	@sh $(VM_DIR)/fetch.sh

vm-static:
ifeq ($(VM_NO_MDPROFILE),)
	@$(MAKE) --no-print-directory static STATIC=$(VM_STATIC) PREFIX=/usr STATIC_SEAM=1
endif

vm-dynamic:
ifeq ($(VM_NO_MDPROFILE),)
	@$(MAKE) --no-print-directory $(VM_DYNAMIC)
endif

vm-initramfs: vm-fetch vm-static vm-dynamic
	@sh $(VM_DIR)/mkinitramfs.sh $(VM_OUT)/initramfs.gz \
		$(if $(VM_NO_MDPROFILE),,$(VM_STATIC)/mdprofile $(VM_DYNAMIC))

vm-check: vm-initramfs
	@$(VM_ENV) sh $(VM_DIR)/run.sh $(VM_CACHE)/vmlinuz $(VM_OUT)/initramfs.gz

vm-shell: vm-initramfs
	@qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
		-kernel $(VM_CACHE)/vmlinuz -initrd $(VM_OUT)/initramfs.gz \
		-append "console=ttyS0 panic=-1 quiet mdp_mode=shell"

demo:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory vm-initramfs
	@VM_MODE=demo $(VM_ENV) sh $(VM_DIR)/run.sh $(VM_CACHE)/vmlinuz $(VM_OUT)/initramfs.gz
