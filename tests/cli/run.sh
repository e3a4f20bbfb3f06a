#!/bin/sh
# Run tests/cli/cases/*.sh (or the CASEs named) against the given mdprofile binary.
#   sh tests/cli/run.sh [-j N] [--without TAG | --only TAG]... [--times FILE]
#       [--leaks all|no-valgrind] BINARY [CASE...]
# A case's tags are on its line "# tags: TAG...":
#   seam         needs the MDPROFILE_FAULT test seam, absent from shipped binaries
#   no-valgrind  left out of make valgrind (the line says why)
#   slow         its time is mostly waiting (timeouts, signals, a watcher's looks): with
#                -j the slow cases run beside the others, up to CLI_SLOW_J (default 8)
#                of them at a time, since they cost little CPU
#   heavy        it works for over 3 s (many runs of the binary): with -j it starts
#                before the untagged ones, so that it does not end the run alone
#                (make lint fails on an untagged case over 3 s: tools/slow-cases.sh)
#   smoke        the short set the aarch64 build runs in make check-deep
# --without TAG skips the cases that have it, --only TAG runs only those.  Cases are
# independent (a work dir and a root of their own): -j N runs N of them at a time, the slow
# ones in lanes of their own (CLI_SLOW_J of them).  Each case's time is printed, then the
# ten slowest; --times FILE keeps "CASE WALL_MS CPU_MS TAGS..." lines for
# tools/slow-cases.sh.  A failed case's output follows the summary.  KEEP=1 keeps the work
# dirs.  --leaks no-valgrind (on a sanitizer build): LeakSanitizer only in the cases make
# valgrind leaves out, since memcheck checks the others' leaks in the same gate (LSan is two
# thirds of a sanitizer run's start).
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
without='' only='' jobs=1 times='' leaks=all
while [ $# -gt 0 ]; do
	case $1 in
	--without) without="$without $2" ;;
	--only) only="$only $2" ;;
	--times) times=$2 ;;
	--leaks)
		case $2 in
		all | no-valgrind) leaks=$2 ;;
		*)
			echo "run.sh: --leaks '$2': expected all or no-valgrind" >&2
			exit 2
			;;
		esac
		;;
	-j | -j*)
		n=${1#-j}
		[ -n "$n" ] || {
			shift
			n=${1:-}
		}
		case $n in
		[1-9] | [1-9][0-9]) jobs=$n ;;
		*)
			echo "run.sh: -j '$n': expected a number of jobs, 1 to 99" >&2
			exit 2
			;;
		esac
		shift
		continue
		;;
	-*)
		echo "run.sh: unknown option $1 (the header of tests/cli/run.sh lists them)" >&2
		exit 2
		;;
	*) break ;;
	esac
	shift 2
done
[ $# -ge 1 ] || {
	echo "usage: run.sh [-j N] [--without TAG | --only TAG]... [--times FILE] [--leaks all|no-valgrind] BINARY [CASE...]" >&2
	exit 2
}
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
TOP=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$TOP"' EXIT
# The binary finds shipped profiles next to itself, as in a build tree.
BINDIR="$TOP/bin"
mkdir -p "$BINDIR"
cp "$BIN" "$BINDIR/mdprofile"
ln -s "$SRC/profiles" "$BINDIR/profiles"
MDP="$BINDIR/mdprofile"
# The tools tests/deps.sh installs come first: Debian's python3 (with python3-yaml), not a
# version manager's shim earlier in PATH (pyenv's costs 0.3 s a call).
PATH=/usr/bin:/bin:$PATH
export SRC TOP BINDIR MDP MDP_LEAKS="$leaks" UBSAN_OPTIONS=halt_on_error=1

tags_of() {
	echo " $(sed -n 's/^# tags: \([a-z -]*\).*/\1/p' "$1" | head -1) "
}

all=${*:-$(ls "$SRC"/tests/cli/cases/*.sh)}
lane='' heavy='' rest='' skip=0
: >"$TOP/results"
for c in $all; do
	[ -f "$c" ] || c="$SRC/tests/cli/cases/$c.sh"
	[ -f "$c" ] || {
		echo "run.sh: no case $c" >&2
		exit 2
	}
	tags=$(tags_of "$c")
	want=1
	for t in $without; do
		case $tags in *" $t "*) want=0 ;; esac
	done
	for t in $only; do
		case $tags in *" $t "*) ;; *) want=0 ;; esac
	done
	if [ $want = 0 ]; then
		skip=$((skip + 1))
	elif [ "$jobs" -gt 1 ] && case $tags in *" slow "*) true ;; *) false ;; esac then
		lane="$lane $c"
	elif case $tags in *" heavy "*) true ;; *) false ;; esac then
		heavy="$heavy $c"
	else
		rest="$rest $c"
	fi
done

one() { sh "$SRC/tests/cli/case.sh" "$1"; }
if [ "$jobs" = 1 ]; then
	for c in $heavy $rest; do one "$c"; done
else
	# The slow cases wait more than they work (about 1 s of CPU in 10 of wall): they run
	# beside the N others, CLI_SLOW_J at a time, so that the run lasts about as long as
	# its longest case, not as the sum of the waits.
	slow_j=${CLI_SLOW_J:-8}
	case $slow_j in
	[1-9] | [1-9][0-9]) ;;
	*)
		echo "run.sh: CLI_SLOW_J='$slow_j': expected a number of jobs, 1 to 99" >&2
		exit 2
		;;
	esac
	# shellcheck disable=SC2086 # one case file per word
	(if [ -n "$lane" ]; then printf '%s\n' $lane | xargs -P "$slow_j" -n 1 sh "$SRC/tests/cli/case.sh"; fi) &
	lanepid=$!
	# shellcheck disable=SC2086 # one case file per word
	[ -z "$heavy$rest" ] || printf '%s\n' $heavy $rest | xargs -P "$jobs" -n 1 sh "$SRC/tests/cli/case.sh"
	wait "$lanepid"
fi

pass=$(grep -c ' pass$' "$TOP/results" || true)
fail=$(grep -c ' fail$' "$TOP/results" || true)
echo "cli: the ten slowest:"
sort -k2,2nr "$TOP/results" | head -10 |
	awk '{ printf "cli:   %-36s %6.2f s\n", $1, $2 / 1000 }'
if [ -n "$times" ]; then
	: >"$times"
	while read -r name ms cpu _; do
		f="$SRC/tests/cli/cases/$name.sh"
		[ -f "$f" ] || f="$SRC/tests/cli/release/$name.sh"
		echo "$name $ms $cpu$(tags_of "$f")" >>"$times"
	done <"$TOP/results"
fi
awk '$4 == "fail" { print $1 }' "$TOP/results" | while read -r name; do
	echo "---- $name" >&2
	cat "$TOP/w-$name/log" >&2
done
if [ "$skip" -gt 0 ]; then
	echo "cli: $pass passed, $fail failed, $skip left out by tag"
else
	echo "cli: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
