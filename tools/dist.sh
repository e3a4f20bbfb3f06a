#!/bin/sh
# make dist: one tarball per architecture (x86_64, aarch64, armv7) from the static builds
# make already made (build/static, build/aarch64, build/armhf), then SHA256SUMS and, beside
# each tarball, its own checksum file (NAME.tar.gz.sha256: one line, so that
# `sha256sum -c NAME.tar.gz.sha256` checks a tarball downloaded alone, with DSM 6's own
# sha256sum, which has no --ignore-missing for SHA256SUMS).
#
#   sh tools/dist.sh OUTDIR VERSION MAX_BYTES MAN_PAGE...
#
# Each mdprofile-VERSION-ARCH.tar.gz holds the stripped binary (at most MAX_BYTES: a NAS
# has little room to spare), the man pages, the shipped profiles as examples, their JSON
# Schema (for an editor), the Prometheus alert rules, the bash completion, the README, the DSM guide, the changelog, the licence (COPYING) and the
# notices of the libraries linked in (THIRD-PARTY, tools/third-party.sh). The tarballs are
# reproducible: sorted, owned by 0, dated by the last commit.
set -eu

[ $# -ge 4 ] || { echo "usage: dist.sh OUTDIR VERSION MAX_BYTES MAN_PAGE..." >&2; exit 2; }
out=$1 version=$2 max=$3
shift 3
mtime=$(git log -1 --format=%ct 2>/dev/null || echo 0)

rm -rf "$out" && mkdir -p "$out"
for a in x86_64 aarch64 armv7; do
	case $a in
	x86_64) bin=build/static strip=strip cc=gcc ;;
	aarch64) bin=build/aarch64 strip=aarch64-linux-gnu-strip cc=aarch64-linux-gnu-gcc ;;
	armv7) bin=build/armhf strip=arm-linux-gnueabihf-strip cc=arm-linux-gnueabihf-gcc ;;
	esac
	d=mdprofile-$version-$a
	t=$out/tmp/$d
	mkdir -p "$t/man" "$t/profiles" "$t/schema" "$t/prometheus" "$t/completion"
	"$strip" -o "$t/mdprofile" "$bin/mdprofile"
	size=$(wc -c <"$t/mdprofile")
	echo "  $d: stripped binary $size bytes"
	[ "$size" -le "$max" ] || { echo "dist: $a binary over $max bytes" >&2; exit 1; }
	cp "$@" "$t/man/"
	cp profiles/*.yaml "$t/profiles/"
	cp schema/profile.schema.json "$t/schema/"
	cp prometheus/mdprofile-alerts.yml "$t/prometheus/"
	cp completion/mdprofile.bash "$t/completion/mdprofile"
	cp README.md docs/dsm.md CHANGELOG.md COPYING "$t/"
	sh tools/third-party.sh "$cc" >"$t/THIRD-PARTY"
	tar -C "$out/tmp" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
		-cf - "$d" | gzip -9n >"$out/$d.tar.gz"
done
rm -rf "$out/tmp"
cd "$out"
for t in ./*.tar.gz; do
	sha256sum "${t#./}" >"${t#./}.sha256"
done
cat ./*.tar.gz.sha256 >SHA256SUMS && cat SHA256SUMS
