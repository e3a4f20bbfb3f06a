#!/bin/sh
# make valgrind's first half: every unit test binary under the memcheck command given.
# Valgrind writes its reports to the log directory (see the Makefile's VALGRIND); on an
# error they are printed here and the run fails.
#
#   sh tools/valgrind-units.sh LOGDIR 'VALGRIND COMMAND' TEST...
set -eu

[ $# -ge 2 ] || { echo "usage: valgrind-units.sh LOGDIR 'VALGRIND COMMAND' TEST..." >&2; exit 2; }
log=$1 vg=$2
shift 2

for t in "$@"; do
	echo "== valgrind $t"
	# shellcheck disable=SC2086 # the command's words are meant to split
	$vg "$t" >/dev/null || {
		grep -h '^==' "$log"/*.log >&2
		exit 1
	}
done
