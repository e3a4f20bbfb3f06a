# apply and diff of a profile with a goal say, in one line, that the goal acts
# only under auto and apply --until-idle, and what it steers (issue 48): applied
# alone, the profile's minimum stays as it sets it, unsteered.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
printf 'goal: {foreground_latency_ms: 20, percentile: 95}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
run diff steady
expect_exit 1
expect_stdout diff
run_expect 0 apply - apply steady
run_expect 0 . - revert
