#!/bin/sh
# Run every tests/cli/cases/*.sh against the given mdprofile binary.
#   sh tests/cli/run.sh [--without TAG | --only TAG]... BINARY [CASE...]
# A case's tags are on its line "# tags: TAG...": seam (needs the MDPROFILE_FAULT test
# seam, absent from shipped binaries), no-valgrind (left out of make valgrind, the line
# says why). --without TAG skips the cases that have it, --only TAG runs only those.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
without='' only=''
while [ $# -gt 0 ]; do
	case $1 in
	--without) without="$without $2" ;;
	--only) only="$only $2" ;;
	*) break ;;
	esac
	shift 2
done
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
TOP=$(mktemp -d)
trap 'rm -rf "$TOP"' EXIT
# The binary finds shipped profiles next to itself, as in a build tree.
BINDIR="$TOP/bin"
mkdir -p "$BINDIR"
cp "$BIN" "$BINDIR/mdprofile"
ln -s "$SRC/profiles" "$BINDIR/profiles"
MDP="$BINDIR/mdprofile"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1

cases=${*:-$(ls "$SRC"/tests/cli/cases/*.sh)}
pass=0 fail=0 skip=0
for c in $cases; do
	[ -f "$c" ] || c="$SRC/tests/cli/cases/$c.sh"
	CASE=$(basename "$c" .sh)
	tags=" $(sed -n 's/^# tags: \([a-z -]*\).*/\1/p' "$c" | head -1) "
	want=1
	for t in $without; do
		case $tags in *" $t "*) want=0 ;; esac
	done
	for t in $only; do
		case $tags in *" $t "*) ;; *) want=0 ;; esac
	done
	if [ $want = 0 ]; then
		skip=$((skip + 1))
		continue
	fi
	WORK="$TOP/w-$CASE"
	mkdir -p "$WORK"
	FAILED=0
	ROOT="$WORK/root" # until the case picks a fixture
	# Each case runs in a subshell so its variables stay its own.
	if (
		. "$SRC/tests/cli/lib.sh"
		set -e
		# shellcheck source=/dev/null # a case, with lib.sh's helpers
		. "$c"
		_exit_checked
		exit "$FAILED"
	); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $CASE" >&2
	fi
done
if [ "$skip" -gt 0 ]; then
	echo "cli: $pass passed, $fail failed, $skip left out by tag"
else
	echo "cli: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
