# goal: {foreground_latency_ms: N, percentile: P} (issue 48): the loader takes
# P from 50 to 99, says where a wrong one is, and show names it in every form.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
printf 'goal:\n  foreground_latency_ms: 40\n  percentile: 95\n' >"$P/tail.yaml"
printf 'goal: {foreground_latency_ms: 40, percentile: 49}\n' >"$P/below.yaml"
printf 'goal: {foreground_latency_ms: 40, percentile: 100}\n' >"$P/above.yaml"
printf 'goal: {foreground_latency_ms: 40, percentile: 95.5}\n' >"$P/fraction.yaml"
printf 'goal: {foreground_latency_ms: 40, percentile: "95"}\n' >"$P/quoted.yaml"
printf 'goal:\n  percentile: 95\n' >"$P/alone.yaml"

run_expect 0 check - check tail
for f in below above fraction quoted alone; do
	run_expect 2 - "check-$f" check "$f"
done
run_expect 0 show - show tail
run_expect 0 . - show tail --json
json_field .goal '{"foreground_latency_ms":40,"percentile":95}'
run_expect 0 show-yaml - show --yaml tail
