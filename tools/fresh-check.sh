#!/bin/sh
# make fresh-check: the README's two commands on a pristine Debian 12.
#
# A green CI on a developer's machine once hid two missing packages: the README's `make check`
# failed on every fresh machine.  This builds a pristine Debian 12 root file system
# (mmdebstrap, apt variant) from the mirror the host's own apt sources name, clones the
# committed HEAD into it, installs only make, and runs `make demo` and `make check` there as
# a newcomer would: chroot with /proc, /sys and /dev bound and a clean environment.  Each
# command's wall time is printed, and the first error of one that fails.  The tree and its
# mounts are removed on exit, on failure and on SIGINT/SIGTERM.
#
#   sh tools/fresh-check.sh [COMMAND...]  default: "make demo" "make check" "make dist-check"
#                                         "make deb-check"
#
# make dist-check is docs/dsm.md's route to the NAS binaries without a Debian machine
# (`make deps dist` in a debian:12 container): proven here in the same pristine root, as is
# make deb-check (the Debian package built, lintian clean, installed, run and purged).
#
# Environment:
#   FRESH_DIR   an empty or missing directory to build the tree in (default: a new one under
#               /var/tmp; needs about 8 GB). Never inside build/: make clean would remove
#               it with /dev bound inside.
#   FRESH_KEEP  1: leave the tree (unmounted) for a look afterwards
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
work=${FRESH_DIR:-}
suite=bookworm
repo=/root/mdprofile
child=
root=

say() { echo "fresh-check: $*"; }
die() {
	echo "fresh-check: $*" >&2
	exit 2
}

# Every mount at or below the tree, deepest first.
mounts_below() {
	awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo |
		sort -r
}

# Processes whose root directory is the tree: what the commands left running.
procs_inside() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && echo "${p#/proc/}"
	done
	return 0
}

cleanup() {
	rc=$?
	trap - EXIT INT TERM
	[ -n "$child" ] && kill "$child" 2>/dev/null
	for sig in TERM KILL; do
		pids=$(procs_inside)
		[ -z "$pids" ] && break
		# shellcheck disable=SC2086
		kill -s $sig $pids 2>/dev/null
		sleep 2
	done
	[ -n "$root" ] || exit "$rc"
	for m in $(mounts_below); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done
	if [ -n "$(mounts_below)" ]; then
		echo "fresh-check: still mounted below $root, left in place:" >&2
		mounts_below >&2
		exit 1
	fi
	if [ "${FRESH_KEEP:-}" = 1 ]; then
		say "tree kept in $root"
	elif [ -d "$work" ]; then
		rm -rf --one-file-system "$work"
	fi
	exit "$rc"
}

# The first line of a log that names an error, with its line number.
first_error() {
	grep -n -m 1 -E '(^|[ :])FAIL(ED)?([ :]|$)|error:|[Ee]rror [0-9]+|\*\*\* |fatal:|^E: ' "$1" ||
		tail -n 5 "$1"
}

run_inside() {
	# A clean environment: what a root shell on a new machine has, nothing of ours.
	chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root /bin/sh -c "cd $repo && $1"
}

# One command: its output streamed and logged, its wall time and first error said.
step() {
	say "== $1"
	t0=$(date +%s)
	set +e
	{
		run_inside "$1" 2>&1
		echo $? >"$log.rc"
	} | tee "$log" &
	child=$!
	wait "$child"
	child=
	set -e
	rc=$(cat "$log.rc")
	t=$(($(date +%s) - t0))
	if [ "$rc" != 0 ]; then
		say "'$1' FAILED (exit $rc) after $((t / 60)) min $((t % 60)) s; its first error:"
		first_error "$log" | sed 's/^/fresh-check:   /'
		exit 1
	fi
	say "'$1' passed in $((t / 60)) min $((t % 60)) s"
	times="$times
fresh-check:   $1: $((t / 60)) min $((t % 60)) s"
}

[ "$(id -u)" = 0 ] || die "must run as root: it builds a root file system and chroots into it"
if ! command -v mmdebstrap >/dev/null; then
	say "installing mmdebstrap"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends mmdebstrap; } >"${TMPDIR:-/tmp}/fresh-check-apt.log" 2>&1 ||
		die "mmdebstrap cannot be installed (apt-get failed, see ${TMPDIR:-/tmp}/fresh-check-apt.log)"
fi
command -v git >/dev/null || die "git not found: the committed HEAD is cloned with it"
head=$(git -C "$src" rev-parse HEAD) || die "$src is not a git checkout"
short=$(git -C "$src" rev-parse --short HEAD)
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	say "note: uncommitted changes are not tested, only HEAD $short"

# shellcheck source=tools/apt-sources.sh
. "$src/tools/apt-sources.sh"
if [ -n "$work" ]; then
	mkdir -p "$work"
	[ -z "$(ls -A "$work")" ] || die "FRESH_DIR=$work is not empty"
else
	work=$(mktemp -d "${TMPDIR:-/var/tmp}/mdprofile-fresh.XXXXXX")
fi
work=$(cd "$work" && pwd -P)
case $work/ in
"$src"/build/*) die "FRESH_DIR=$work is inside build/, which make clean removes" ;;
esac
root=$work/root
log=$work/log
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

apt_sources_derive "$suite" >"$work/sources.list"
[ -s "$work/sources.list" ] ||
	die "no Debian $(apt_sources_codename) sources with main in /etc/apt (sources.list, *.list, *.sources)"
say "a pristine Debian 12 ($suite, apt variant) from:"
sed 's/^/fresh-check:   /' "$work/sources.list"
t0=$(date +%s)
mmdebstrap --quiet --variant=apt --include=make "$suite" "$root" - <"$work/sources.list" ||
	die "mmdebstrap failed"
# Name resolution inside is the host's, as on any machine on this network.
cp /etc/resolv.conf "$root/etc/resolv.conf"
say "root file system ready in $(($(date +%s) - t0)) s"

git clone -q --no-hardlinks "$src" "$root$repo"
git -C "$root$repo" checkout -q "$head"
say "HEAD $short in $repo; installed by hand: make only"

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"

times=
if [ $# -eq 0 ]; then
	set -- "make demo" "make check" "make dist-check" "make deb-check"
fi
for c in "$@"; do
	step "$c"
done
say "all passed on a pristine Debian 12:$times"
