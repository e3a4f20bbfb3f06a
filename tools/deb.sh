#!/bin/sh
# make deb: mdprofile's Debian package, built with debhelper from debian/ in a copy of the
# tree (dpkg-buildpackage writes beside the source; the tree itself stays as it is).
#
#   sh tools/deb.sh OUTDIR VERSION
#
# The copy holds the files git tracks and those it would track (untracked, not ignored), so
# a build of uncommitted work packages that work. debian/changelog's last entry must name
# VERSION (the one place the version lives). lintian runs on the result
# and must be clean at error and warning level (overrides, each with its reason, are in
# debian/mdprofile.lintian-overrides). OUTDIR/mdprofile_VERSION_ARCH.deb is the package.
set -eu

[ $# -eq 2 ] || { echo "usage: deb.sh OUTDIR VERSION" >&2; exit 2; }
out=$1 version=$2
src=$out/mdprofile-$version
# debian/changelog is in the tree (dpkg-buildpackage needs it) and names VERSION, the one
# place the version lives: a release adds its entry (dch -v VERSION).
top=$(sed -n '1s/^mdprofile (\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null)
[ "$top" = "$version" ] || {
	echo "deb: debian/changelog's last entry is '${top:-none}', VERSION says $version:" \
		"add an entry (dch -v $version)" >&2
	exit 1
}
rm -rf "$out" && mkdir -p "$src"
# One tar reads the whole list (xargs would split a long one into several archives, and
# the reading tar stops at the end of the first).
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -C "$src" -xf -
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
