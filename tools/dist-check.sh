#!/bin/sh
# make dist-check: what a NAS owner downloads.  Every tarball make dist wrote into DIST has
# its files, the sums check (SHA256SUMS, and each tarball's own checksum file with the
# tarball alone beside it, by coreutils' and by busybox's sha256sum: DSM's is one or the
# other, without --ignore-missing), the licence and the three libraries' notices are in, and each
# binary (under qemu-user for ARM) says the version its tarball is named for.
#
#   sh tools/dist-check.sh DIST VERSION FILE...
#
# FILE...: the paths every tarball must hold, non-empty, below mdprofile-VERSION-ARCH/.
set -eu

[ $# -ge 3 ] || { echo "usage: dist-check.sh DIST VERSION FILE..." >&2; exit 2; }
dist=$1 version=$2
shift 2

fail() {
	echo "dist-check: $*" >&2
	exit 1
}

cd "$dist"
sha256sum --quiet -c SHA256SUMS
for a in x86_64 aarch64 armv7; do
	case $a in
	x86_64) run= ;;
	aarch64) run=qemu-aarch64-static ;;
	armv7) run=qemu-arm-static ;;
	esac
	d=mdprofile-$version-$a
	rm -rf check && mkdir check
	# downloaded alone: the tarball and its checksum file, nothing else beside them
	cp "$d.tar.gz" "$d.tar.gz.sha256" check/
	(cd check && sha256sum -c "$d.tar.gz.sha256" >/dev/null) || fail "$d.tar.gz.sha256 does not check alone"
	(cd check && busybox sha256sum -c "$d.tar.gz.sha256" >/dev/null) ||
		fail "$d.tar.gz.sha256 does not check alone with busybox"
	rm "check/$d.tar.gz" "check/$d.tar.gz.sha256"
	tar -C check -xzf "$d.tar.gz"
	for f in "$@"; do
		[ -s "check/$d/$f" ] || fail "$d.tar.gz has no $f"
	done
	grep -q "GNU GENERAL PUBLIC LICENSE" "check/$d/COPYING" || fail "$d: COPYING is not the GPL"
	[ "$(grep -c '^==== ' "check/$d/THIRD-PARTY")" = 3 ] || fail "$d THIRD-PARTY lacks a library"
	v=$($run "check/$d/mdprofile" --version)
	case "$v" in
	"mdprofile $version (static,"*) ;;
	*) fail "$d: --version says '$v'" ;;
	esac
done
rm -rf check
echo "dist-check: 3 tarballs, their files, sums (each alone too) and versions"
