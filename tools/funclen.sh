#!/bin/sh
# Lint: no function in src/ or cmd/ is longer than MAX lines (default 70), counted from
# the line of its opening brace to its closing brace (the house style: both at column 0).
#   tools/funclen.sh [MAX] [FILE...]
set -eu
max=${1:-70}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- src/*/*.c cmd/*.c
awk -v max="$max" '
FNR == 1 { name = ""; start = 0 }
/^[A-Za-z_].*\(/ && !/;$/ { name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
/^\{/ { start = FNR }
/^\}/ && start {
	n = FNR - start + 1
	if (n > max) { printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, n, max; bad = 1 }
	start = 0
}
END { exit bad }' "$@"
