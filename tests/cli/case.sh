#!/bin/sh
# One CLI case, run by tests/cli/run.sh (never by hand): sh case.sh CASEFILE
# Its output goes to $TOP/w-CASE/log; one line "CASE WALL_MS CPU_MS pass|fail" is
# appended to $TOP/results (CPU: user and system time of every process the case waited
# for), and one line "ok|FAIL CASE SECONDS" is printed.  Environment from
# run.sh: SRC, TOP, BINDIR, MDP, MDP_LEAKS (and MDP_WRAP, UPDATE, UBSAN_OPTIONS).
set -u
c=$1
CASE=$(basename "$c" .sh)
export CASE
leaks=1
case " $(sed -n 's/^# tags: \([a-z -]*\).*/\1/p' "$c" | head -1) " in
*" no-valgrind "*) ;;
*) [ "${MDP_LEAKS:-all}" = all ] || leaks=0 ;;
esac
export ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=0
WORK="$TOP/w-$CASE"
mkdir -p "$WORK"
# writable by nobody else whatever the umask: a tree below it may run its programs (root.h)
chmod go-w "$WORK"
FAILED=0
ROOT="$WORK/root" # until the case picks a fixture
now_ms() { date +%s%3N; }
t0=$(now_ms)
# The case runs in a subshell so its variables and traps stay its own.
if (
	# shellcheck source=tests/cli/lib.sh
	. "$SRC/tests/cli/lib.sh"
	set -e
	# shellcheck source=/dev/null # a case, with lib.sh's helpers
	. "$c"
	_exit_checked
	exit "$FAILED"
) >"$WORK/log" 2>&1 </dev/null; then
	res=pass
else
	res=fail
fi
ms=$(($(now_ms) - t0))
# times: the shell's own, then its children's user and system time ("0m1.25s 0m0.50s").
times >"$WORK/times" # here, not in a $(...) subshell that has no children
cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); \
	t += a[1] * 60 + a[2] } printf "%d", t * 1000 }' "$WORK/times")
echo "$CASE $ms ${cpu:-0} $res" >>"$TOP/results"
secs=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))
if [ $res = pass ]; then
	echo "ok   $CASE ${secs}s"
else
	echo "FAIL $CASE ${secs}s"
fi
