#!/bin/sh
# Assemble the lab guest's initramfs (cpio newc, gzip).
#
#   mkinitramfs.sh OUT [MDPROFILE [MDPROFILE_UDEV]]
#
# Contents: busybox (static) with its applet links, mdadm, smartctl and flock with the shared
# libraries ldd names plus the loader, the md/virtio/ata/nvme modules fetched by fetch.sh,
# the static mdprofile (optional: without it the lab still boots and checks its arrays), the
# shipped profiles, the scenarios and /init.  With MDPROFILE_UDEV (the dynamic
# build, linked with libudev) also that binary as /usr/bin/mdprofile-udev with its
# libraries, and udevd/udevadm with Debian's md rules only, so a scenario can
# fill the udev database the way a distribution does and the libudev code path
# runs against a real kernel.  VM_READER: the lab's timed reader (guest/reader.c,
# static), as /usr/bin/mdp-reader.  Needs root (device-free, but file owners in the
# archive should be root) and cpio.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${VM_CACHE:-$here/cache}
out=${1:?usage: mkinitramfs.sh OUT [MDPROFILE [MDPROFILE_UDEV]]}
mdp=${2:-}
mdp_udev=${3:-}

die() { echo "vm-initramfs: $*" >&2; exit 1; }

find_tool() {
	for p in "/usr/sbin/$1" "/sbin/$1" "/usr/bin/$1" "/bin/$1"; do
		[ -x "$p" ] && { echo "$p"; return 0; }
	done
	die "$1 not found (run: sh tests/deps.sh)"
}

# busybox must be the static one: the guest has no libc apart from mdadm's copy.
add_busybox() {
	bb=$(find_tool busybox)
	ldd "$bb" >/dev/null 2>&1 && die "$bb is dynamic; install busybox-static"
	cp "$bb" "$root/bin/busybox"
	for a in $("$bb" --list-full); do
		[ -e "$root/$a" ] && continue
		mkdir -p "$root/${a%/*}"
		ln -s /bin/busybox "$root/$a"
	done
}

# A dynamic binary with its libraries, each at the path the loader looks for;
# $2 is where it goes in the guest (default /sbin/NAME).
add_dynamic() {
	bin=$1
	dest=${2:-/sbin/${bin##*/}}
	mkdir -p "$root${dest%/*}"
	# a busybox applet's link there (/bin/bash, say) goes first: cp would follow it
	rm -f "$root$dest"
	cp "$bin" "$root$dest"
	for lib in $(ldd "$bin" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		mkdir -p "$root${lib%/*}"
		cp -L "$lib" "$root$lib"
	done
}

# udevd is udevadm under another name (Debian links one to the other). Only
# the md rules: they import `mdadm --detail --no-devices --export` into the
# database (MD_UUID, MD_LEVEL, MD_DEVICES, ...), which is all the lab needs.
add_udev() {
	adm=$(find_tool udevadm)
	add_dynamic "$adm" /bin/udevadm
	mkdir -p "$root/lib/systemd" "$root/lib/udev/rules.d" "$root/etc/udev"
	ln -s /bin/udevadm "$root/lib/systemd/systemd-udevd"
	for r in 01-md-raid-creating.rules 63-md-raid-arrays.rules; do
		[ -f "/lib/udev/rules.d/$r" ] || die "/lib/udev/rules.d/$r missing (install mdadm)"
		cp "/lib/udev/rules.d/$r" "$root/lib/udev/rules.d/"
	done
}

add_modules() {
	[ -s "$cache/modules/load.order" ] || die "no modules in $cache (run tests/vm/fetch.sh)"
	mkdir -p "$root/lab/modules"
	cp "$cache/modules/"* "$root/lab/modules/"
}

add_lab() {
	cp "$here/guest/init.sh" "$root/init"
	chmod 0755 "$root/init"
	cp "$here/guest/lib.sh" "$here/guest/demo.sh" "$root/lab/"
	mkdir -p "$root/lab/scenarios/boot2"
	for s in "$here"/scenarios/*.sh "$here"/scenarios/boot2/*.sh; do
		[ -e "$s" ] && cp "$s" "$root/lab/scenarios/${s#"$here"/scenarios/}"
	done
	# The fake service managers, as the CLI tests use them (tests/fakes/).
	mkdir -p "$root/lab/fakes"
	cp "$top"/tests/fakes/* "$root/lab/fakes/"
	mkdir -p "$root/usr/share/mdprofile/profiles" "$root/usr/local/share"
	for p in "$top"/profiles/*.yaml; do
		[ -e "$p" ] && cp "$p" "$root/usr/share/mdprofile/profiles/"
	done
	# Builds with the Makefile's default PREFIX look under /usr/local.
	ln -s /usr/share/mdprofile "$root/usr/local/share/mdprofile"
	if [ -n "${VM_READER:-}" ]; then
		ldd "$VM_READER" >/dev/null 2>&1 && die "$VM_READER is dynamic"
		cp "$VM_READER" "$root/usr/bin/mdp-reader"
	fi
	if [ -n "$mdp" ]; then
		[ -x "$mdp" ] || die "$mdp is not an executable"
		ldd "$mdp" >/dev/null 2>&1 && die "$mdp is dynamic; build it with: make static"
		cp "$mdp" "$root/usr/bin/mdprofile"
	fi
	if [ -n "$mdp_udev" ]; then
		ldd "$mdp_udev" 2>/dev/null | grep -q libudev ||
			die "$mdp_udev is not linked with libudev (the dynamic build: make mdprofile)"
		add_dynamic "$mdp_udev" /usr/bin/mdprofile-udev
		add_udev
	fi
}

main() {
	command -v cpio >/dev/null || die "cpio not found (run: sh tests/deps.sh)"
	root=$(mktemp -d "${TMPDIR:-/tmp}/mdp-initramfs.XXXXXX")
	trap 'rm -rf "$root"' EXIT
	mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/proc" \
		"$root/sys" "$root/dev" "$root/run" "$root/tmp" "$root/etc" "$root/root"
	add_busybox
	add_dynamic "$(find_tool mdadm)"
	# DSM's Task Scheduler runs a boot task's script with bash (scenarios 05-boot-script).
	add_dynamic "$(find_tool bash)" /bin/bash
	# explain reads the members' SMART (96-smart: qemu's IDE and NVMe disks answer it).
	add_dynamic "$(find_tool smartctl)" /usr/sbin/smartctl
	# the boot script's keeper holds its lock with flock(1), in /usr/bin on DSM as on Debian
	# (util-linux; Debian's busybox has no flock applet): 98-enable
	add_dynamic "$(find_tool flock)" /usr/bin/flock
	add_modules
	add_lab
	mkdir -p "$(dirname "$out")"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "vm-initramfs: $out ($(du -k "$out" | cut -f1) KiB${mdp:+, with mdprofile}${mdp_udev:+ and mdprofile-udev})"
}

main "$@"
