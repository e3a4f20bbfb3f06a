#!/bin/sh
# Run every tests/cli/cases/*.sh against the given mdprofile binary.
#   sh tests/cli/run.sh BINARY [CASE...]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
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
pass=0 fail=0
for c in $cases; do
	[ -f "$c" ] || c="$SRC/tests/cli/cases/$c.sh"
	CASE=$(basename "$c" .sh)
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
		exit "$FAILED"
	); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $CASE" >&2
	fi
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
