#!/bin/sh
# Stop a build at once when what it needs is missing, naming the Debian
# packages and the make target that installs them.
#   sh tools/need.sh TARGET KIND:WHAT:PACKAGE...
# KIND is pc (a pkg-config module), cmd (a program on PATH) or file (a path).
set -u
target=$1
shift
missing=
for need in "$@"; do
	kind=${need%%:*}
	rest=${need#*:}
	what=${rest%%:*}
	pkg=${rest#*:}
	case $kind in
	pc) ${PKG_CONFIG:-pkg-config} --exists "$what" 2>/dev/null ;;
	cmd) command -v "$what" >/dev/null 2>&1 ;;
	file) [ -e "$what" ] ;;
	*) false ;;
	esac || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "mdprofile: missing build dependencies:$missing" >&2
echo "mdprofile: install them with 'make $target' (as root, or through sudo)" >&2
exit 1
