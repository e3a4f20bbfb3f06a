#!/bin/sh
# Stop a build at once when what it needs is missing, naming the Debian
# packages, the apt-get command that installs those alone and the make target that
# installs them with the rest of its set (make deps: every package of every test).
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
echo "mdprofile: install them: sudo apt-get install --no-install-recommends$missing" >&2
case $target in
deps) echo "mdprofile: (or 'make deps': every package the build and all the tests need, \
about 2 GB; tests/deps.sh says what each group is for)" >&2 ;;
*) echo "mdprofile: (or 'make $target', as root or through sudo)" >&2 ;;
esac
exit 1
