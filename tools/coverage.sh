#!/bin/sh
# make coverage's report: the line coverage of each src/ file by the unit tests, from the
# counts their run left beside the objects of the coverage build (gcov -n: nothing written).
# One line per file, sorted ascending, then the total; exit 1 when a file is under the floor
# (60 %) and not in the allowance list below, naming it. An object no test links has no counts
# and is 0 %.
#   sh tools/coverage.sh OBJ...      (build/cov/src/ROOM/x.o, run from the top of the tree)
set -eu
floor=60
# Files the unit tests cannot reasonably bring to the floor, "PATH PERCENT" a line: its
# coverage when listed, which it may pass but never fall below; why in a comment above
# allow=. The list only shrinks: an entry whose file is gone or has reached the floor fails
# until it is removed. None today: every src/ file reaches 60 % in the unit tests (issue 46).
allow='
'
[ $# -gt 0 ] || { echo "usage: coverage.sh OBJ..." >&2; exit 2; }
command -v gcov >/dev/null || { echo "coverage: gcov (gcc) is missing" >&2; exit 2; }
# gcov -n prints, for each object, each of its sources: "File 'src/x.c'" then
# "Lines executed:P% of N" (P to two places: executed = P * N / 100, rounded).
gcov -n "$@" 2>/dev/null | awk -v floor="$floor" -v allow="$allow" '
BEGIN {
	n = split(allow, a, "\n")
	for (i = 1; i <= n; i++)
		if (split(a[i], w, " ") >= 2)
			allowed[w[1]] = w[2]
}
/^File / {
	f = $0
	sub(/^File \047/, "", f)
	sub(/\047$/, "", f)
	next
}
/^Lines executed:/ && f ~ /^src\/.*\.c$/ {
	p = $0
	sub(/^Lines executed:/, "", p)
	sub(/%.*/, "", p)
	t = $NF
	total[f] += t
	hit[f] += int(p * t / 100 + 0.5)
	f = ""
}
/^No executable lines/ { f = "" }
END {
	for (f in total) {
		pct = total[f] ? 100 * hit[f] / total[f] : 100
		line[f] = sprintf("%6.1f %%  %5d of %5d  %s", pct, hit[f], total[f], f)
		cov[f] = pct
		H += hit[f]
		files++
		T += total[f]
	}
	bad = 0
	msg = ""
	for (f in allowed) {
		if (!(f in total)) {
			msg = msg sprintf("coverage: %s is allowed below %d %% but not measured: remove it from tools/coverage.sh\n", f, floor)
			bad = 1
		} else if (cov[f] >= floor) {
			msg = msg sprintf("coverage: %s is at %.1f %%, over the floor: remove its allowance from tools/coverage.sh\n", f, cov[f])
			bad = 1
		}
	}
	for (f in total) {
		if (cov[f] >= floor)
			continue
		if (f in allowed && cov[f] >= allowed[f]) {
			line[f] = line[f] "  (allowed from " allowed[f] " %)"
			continue
		}
		if (f in allowed)
			msg = msg sprintf("coverage: %s is at %.1f %%, under its allowance of %s %%\n", f, cov[f], allowed[f])
		else
			msg = msg sprintf("coverage: %s is at %.1f %%, under the floor of %d %%: test it\n", f, cov[f], floor)
		line[f] = line[f] "  <- under " (f in allowed ? allowed[f] : floor) " %"
		bad = 1
	}
	sort = "sort -n"
	for (f in line)
		print line[f] | sort
	close(sort)
	printf "%6.1f %%  %5d of %5d  total of %d files in src/\n", T ? 100 * H / T : 0, H, T, files
	fflush()
	printf "%s", msg > "/dev/stderr"
	exit bad
}'
