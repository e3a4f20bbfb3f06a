#!/bin/sh
# Install the Debian packages mdprofile's build, tests and VM lab need (make deps), saying
# first which and what for. Runs apt-get only when something is missing, so repeated calls
# are cheap. 'deps.sh --list': the groups, what each is for, and their packages.
set -eu
# Each group: what it is for, then its packages. Building the package alone needs far
# less: debian/control's Build-Depends, which 'apt-get build-dep ./' installs.
groups='
build|the build (make, ./mdprofile)|gcc make pkg-config libyaml-dev libcyaml-dev libudev-dev
tests|make test: the unit tests (cmocka, sanitizers) and the JSON Schema checks|libcmocka-dev clang libclang-rt-14-dev python3 python3-yaml python3-jsonschema time
lint|make lint and man-lint|shellcheck pyflakes3 mandoc
vm|the VM lab and make demo (a Debian kernel in qemu, md arrays on virtual disks)|qemu-system-x86 mdadm udev busybox-static cpio smartmontools util-linux kmod xz-utils
memcheck|make valgrind|valgrind
ansible|the Ansible collection check|ansible-core ansible-lint python3-voluptuous python3-venv
alerts|promtool, the alert rules check (the prometheus package is the server too: Debian starts it at every boot; systemctl disable --now prometheus if this box needs none)|prometheus
deb|make deb, deb-check and piuparts (check-full): debhelper, lintian, piuparts|build-essential debhelper lintian bash-completion piuparts mmdebstrap
'
# The ARM NAS builds (make cross, make cross-check): Debian's cross compilers, the
# multiarch libyaml/libcyaml with their static libraries, and qemu-user to test them.
# 'deps.sh --cross' installs only these (make cross-deps).
cross="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross \
libyaml-dev:arm64 libcyaml-dev:arm64 \
libyaml-dev:armhf libcyaml-dev:armhf qemu-user-static"
cross_why="the ARM NAS builds (make cross, dist): cross compilers, libraries and qemu-user; adds dpkg's foreign architectures arm64 and armhf"
if [ "${1:-}" = --cross ]; then
	groups=
fi
groups="$groups
cross|$cross_why|$cross"
if [ "${1:-}" = --list ]; then
	printf '%s\n' "$groups" | awk -F'|' 'NF == 3 { printf "%-9s %s:\n          %s\n", $1, $2, $3 }'
	exit 0
fi
pkgs=$(printf '%s\n' "$groups" | awk -F'|' 'NF == 3 { print $3 }')
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
# What is missing, by group, with what each group is for, before apt-get runs.
echo "deps: installing what the build and every test need (about 2 GB the first time; only"
echo "deps: the package's own build: apt-get build-dep ./), by what it is for:"
printf '%s\n' "$groups" | while IFS='|' read -r _ why list; do
	[ -n "$list" ] || continue
	these=
	for p in $list; do
		case " $missing " in *" $p "*) these="$these $p" ;; esac
	done
	[ -z "$these" ] || printf 'deps:   %s:%s\n' "$why" "$these"
done
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
