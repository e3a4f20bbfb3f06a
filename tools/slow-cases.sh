#!/bin/sh
# A CLI case that takes over 3 s must say so with a tag (tests/cli/run.sh): `slow` when it
# mostly waits (a lane of its own), `heavy` when it works (started first).  Checked on the
# times a sanitizer run wrote (run.sh --times FILE, lines "CASE WALL_MS CPU_MS ...") against
# the tags the cases have now.  A case's time alone is estimated from the run, so a
# loaded machine does not make a case look slow: its CPU time plus what it waited beyond
# the stretch of the run's median case (wall over CPU), where the others' work is.
#
#   sh tools/slow-cases.sh FILE [LIMIT_MS]    exit 1 naming each untagged case over LIMIT
set -eu
file=${1:?usage: slow-cases.sh FILE [LIMIT_MS]}
limit=${2:-3000}
[ -s "$file" ] || {
	echo "slow-cases: $file: no times (run make cli first)" >&2
	exit 2
}
src=$(cd "$(dirname "$0")/.." && pwd)
while read -r name wall cpu _; do
	f=$src/tests/cli/cases/$name.sh
	[ -f "$f" ] || f=$src/tests/cli/release/$name.sh
	[ -f "$f" ] || continue # a case since removed
	echo "$name $wall $cpu $(sed -n 's/^# tags: \([a-z -]*\).*/\1/p' "$f" | head -1)"
done <"$file" | awk -v limit="$limit" -v file="$file" '
	{ name[NR] = $1; wall[NR] = $2; cpu[NR] = $3; slow[NR] = 0; tagged[NR] = 0
	  for (i = 4; i <= NF; i++) {
		if ($i == "slow") slow[NR] = 1
		if ($i == "slow" || $i == "heavy") tagged[NR] = 1
	  } }
	!slow[NR] && $3 >= 200 { r[++n] = $2 / $3 }
	END {
		# the median stretch of the cases that work (all but the slow ones)
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
		s = n ? r[int((n + 1) / 2)] : 1
		if (s < 1) s = 1
		bad = 0
		for (k = 1; k <= NR; k++) {
			if (tagged[k]) continue
			waited = wall[k] - s * cpu[k]
			alone = cpu[k] + (waited > 0 ? waited : 0)
			if (alone > limit) {
				printf "slow-cases: %s takes about %.1f s alone (%.1f s CPU, %.1f s wall at a stretch of %.2f): over %.1f s: make it faster, or tag it (# tags: ...) %s\n", name[k], alone / 1000, cpu[k] / 1000, wall[k] / 1000, s, limit / 1000, (cpu[k] * 2 < alone ? "slow (it mostly waits)" : "heavy (it mostly works)") > "/dev/stderr"
				bad = 1
			}
		}
		if (!bad) printf "slow-cases: every case over %.1f s is tagged slow or heavy (%d cases, stretch %.2f, %s)\n", limit / 1000, NR, s, file
		exit bad
	}'
