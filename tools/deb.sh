#!/bin/sh
# make deb: mdprofile's Debian package, built with debhelper from debian/ in a copy of the
# tree (dpkg-buildpackage writes beside the source; the tree itself stays as it is).
#
#   sh tools/deb.sh OUTDIR VERSION
#
# The copy holds the files git tracks and those it would track (untracked, not ignored), so
# a build of uncommitted work packages that work. debian/changelog is written from VERSION
# (the one place the version lives) and the last commit's date. lintian runs on the result
# and must be clean at error and warning level (overrides, each with its reason, are in
# debian/mdprofile.lintian-overrides). OUTDIR/mdprofile_VERSION_ARCH.deb is the package.
set -eu

[ $# -eq 2 ] || { echo "usage: deb.sh OUTDIR VERSION" >&2; exit 2; }
out=$1 version=$2
src=$out/mdprofile-$version
rm -rf "$out" && mkdir -p "$src"
# One tar reads the whole list (xargs would split a long one into several archives, and
# the reading tar stops at the end of the first).
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -C "$src" -xf -
when=$(git log -1 --format=%cD 2>/dev/null || date -R)
maint=$(sed -n 's/^Maintainer: //p' debian/control)
cat >"$src/debian/changelog" <<END
mdprofile ($version) unstable; urgency=medium

  * mdprofile $version; its changes are in /usr/share/doc/mdprofile/changelog.gz.

 -- $maint  $when
END
log=$out/build.log
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "deb: dpkg-buildpackage failed (the whole output is in $log)" >&2
	exit 1
fi
arch=$(dpkg --print-architecture)
deb=mdprofile_${version}_$arch.deb
[ -s "$out/$deb" ] || { echo "deb: no $out/$deb" >&2; exit 1; }
rm -rf "$src"
# --fail-on warning: a warning fails the build unless overridden with its reason.
lintian --fail-on error,warning "$out/$deb" >"$out/lintian.log" 2>&1 || {
	cat "$out/lintian.log" >&2
	echo "deb: lintian is not clean (above)" >&2
	exit 1
}
echo "deb: $out/$deb ($(wc -c <"$out/$deb") bytes), lintian clean"
