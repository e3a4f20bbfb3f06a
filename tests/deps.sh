#!/bin/sh
# Install the Debian packages mdprofile's build, tests and VM lab need.
# Runs apt-get only when something is missing, so repeated calls are cheap.
set -eu
pkgs="gcc make pkg-config libyaml-dev libcyaml-dev libudev-dev libcmocka-dev clang \
libclang-rt-14-dev python3 python3-yaml python3-jsonschema qemu-system-x86 mdadm udev busybox-static cpio smartmontools \
util-linux time kmod xz-utils valgrind mandoc shellcheck pyflakes3 ansible-core ansible-lint python3-voluptuous python3-venv prometheus \
build-essential debhelper lintian bash-completion"
# The ARM NAS builds (make cross, make cross-check): Debian's cross compilers, the
# multiarch libyaml/libcyaml with their static libraries, and qemu-user to test them.
# 'deps.sh --cross' installs only these (make cross-deps).
cross="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross \
libyaml-dev:arm64 libcyaml-dev:arm64 \
libyaml-dev:armhf libcyaml-dev:armhf qemu-user-static"
if [ "${1:-}" = --cross ]; then
	pkgs=$cross
else
	pkgs="$pkgs $cross"
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
	sudo=sudo
else
	sudo=
fi
export DEBIAN_FRONTEND=noninteractive
for a in arm64 armhf; do
	case "$missing" in
	*:$a*) dpkg --print-foreign-architectures | grep -qx "$a" || $sudo dpkg --add-architecture "$a" ;;
	esac
done
# apt and dpkg talk a lot: their output goes to a log, shown when they fail.
log=${TMPDIR:-/tmp}/mdprofile-deps.log
# shellcheck disable=SC2086
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Use-Pty=0 $missing; } >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "deps: apt-get failed (the whole output is in $log)" >&2
	exit 1
fi
echo "deps: installed (apt-get's output: $log)"
