# goal: {foreground_latency_ms: N} (issue 40): the loader takes 1..10000 ms, says
# where a wrong one is, show names it in every form, a child's goal wins over
# its parent's.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
cat >"$P/steady.yaml" <<'YAML'
description: keep the shares at 25 ms
extends: balanced
goal:
  foreground_latency_ms: 25
arrays:
  - match: all
    sync_speed_min: 300000
YAML
cat >"$P/steadier.yaml" <<'YAML'
extends: steady
goal: {foreground_latency_ms: 10}
YAML
printf 'goal:\n  foreground_latency_ms: 0\n' >"$P/zero.yaml"
printf 'goal:\n  foreground_latency_ms: 10001\n' >"$P/above.yaml"
printf 'goal:\n  foreground_latency_ms: 20\n  p99_ms: 40\n' >"$P/unknown.yaml"
printf 'goal: 20\n' >"$P/scalar.yaml"
printf 'goal: {foreground_latency_ms: "20"}\n' >"$P/quoted.yaml"
printf 'goal: {}\n' >"$P/empty.yaml"

run_expect 0 check - check steady steadier
for f in zero above unknown scalar quoted empty; do
	run_expect 2 - "check-$f" check "$f"
done
run_expect 0 show - show steadier
run_expect 0 . - show steady --json
expect_json show
run_expect 0 show-yaml - show --yaml steadier
# A profile without one shows none.
run_expect 0 . - show balanced --json
json_field .goal null
