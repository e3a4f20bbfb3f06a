#!/bin/sh
# make piuparts: Debian's own test of a package's installation, upgrade, removal and purge,
# run over the built .deb in a pristine Debian 12 root.
#
#   sh tools/piuparts.sh DEB VERSION OUTDIR
#
# As root (piuparts chroots). The root is a minbase Debian 12 made by mmdebstrap from the
# mirror the host's apt sources name (tools/apt-sources.sh), kept as OUTDIR/base.tar.gz for
# the next run (about a minute to make again: remove it to refresh it). piuparts runs its
# two tests on it: install then purge, and install of an older version from the archive,
# upgrade to DEB, then remove and purge; every file left, changed or missing after a purge
# fails the run. The older version is DEB itself with VERSION~old1 for its version, served
# from a local repository (OUTDIR/repo): the package is in no archive, and an upgrade runs
# its prerm and postinst as an upgrade does. Before each removal (tools/piuparts/
# pre_remove_50_enabled) an enable's record is written, so that the prerm's `mdprofile
# disable` and the postrm's purge run on a box where mdprofile was enabled.
set -eu

[ $# -eq 3 ] || { echo "usage: piuparts.sh DEB VERSION OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
version=$2
out=$3
say() { echo "piuparts: $*"; }
die() {
	echo "piuparts: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root (piuparts builds and enters a chroot)"
for t in piuparts mmdebstrap dpkg-scanpackages; do
	command -v "$t" >/dev/null ||
		die "no $t: apt-get install piuparts mmdebstrap dpkg-dev (Debian 12 has them)"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
t0=$(date +%s)

# shellcheck source=tools/apt-sources.sh
. "$src/tools/apt-sources.sh"
if [ ! -s "$out/base.tar.gz" ]; then
	apt_sources_derive bookworm >"$out/sources.list"
	[ -s "$out/sources.list" ] || die "no Debian 12 sources with main in /etc/apt"
	mmdebstrap --quiet --variant=minbase bookworm "$out/base.new.tar.gz" - <"$out/sources.list" ||
		die "mmdebstrap failed"
	mv "$out/base.new.tar.gz" "$out/base.tar.gz"
	say "pristine root made in $(($(date +%s) - t0)) s"
fi

# The older version, in a repository apt in the chroot reads (bound at the same path).
repo=$out/repo
rm -rf --one-file-system "$repo" "$out/old"
mkdir -p "$repo"
dpkg-deb -R "$deb" "$out/old"
sed -i "s/^Version: .*/Version: $version~old1/" "$out/old/DEBIAN/control"
dpkg-deb --root-owner-group -b "$out/old" "$repo/" >/dev/null
rm -rf --one-file-system "$out/old"
(cd "$repo" && dpkg-scanpackages . >Packages 2>/dev/null)

# piuparts writes the chroot's sources: the host's mirror for bookworm, its -updates and
# -security lines and the local repository as extra ones.
apt_sources_derive bookworm >"$out/sources.list"
mirror=$(awk '$(NF - 1) == "bookworm" { print $(NF - 2), $NF; exit }' "$out/sources.list")
[ -n "$mirror" ] || die "no Debian 12 mirror with main in /etc/apt"
set -- --mirror="$mirror" --extra-repo="deb [trusted=yes] file://$repo ./"
while read -r line; do
	case $line in *" bookworm main") ;; *) set -- "$@" --extra-repo="$line" ;; esac
done <"$out/sources.list"
log=$out/piuparts.log
rm -f "$log" # piuparts appends to it
if ! piuparts --distribution=bookworm --basetgz="$out/base.tar.gz" "$@" --bindmount="$repo" \
	--scriptsdir="$src/tools/piuparts" --warn-on-others \
	--log-file="$log" "$deb" >/dev/null 2>&1; then
	grep -E '^[0-9:]+ (FAIL|ERROR)|^  ' "$log" | head -n 40 >&2 || tail -n 40 "$log" >&2
	die "FAILED (the whole log is $log)"
fi
grep -q 'PASS: Installation, upgrade and purging tests' "$log" ||
	die "piuparts passed without its upgrade test (see $log)"
say "install, purge, upgrade from $version~old1, remove and purge of $(basename "$deb") clean in $(($(date +%s) - t0)) s"
