# explain --probe refuses, touching nothing (exit 2): no operation runs; the top recommendation
# is a profile (a probe changes one setting; bench --op-only --compare measures a profile);
# a profile is active (the probe ends by reverting to the values from before mdprofile).

# refused MESSAGE: explain --probe exits 2, stdout empty, stderr "mdprofile: MESSAGE".
refused() {
	run explain --probe
	expect_exit 2
	expect_no_stdout
	expect_stderr <<EOF
mdprofile: $1
EOF
}

fixture explain/idle
snapshot
refused "--probe: no md operation runs: nothing to measure"
expect_unchanged "no operation"

fixture explain/competing
snapshot
refused "--probe: md2's recommendation is the profile reshape-fast, not one setting: measure it with 'mdprofile bench --op-only --compare reshape-fast'"
run --json explain --probe
expect_exit 2
expect_json <<'EOF'
{
 "error": {
  "exit": 2,
  "messages": [
   "--probe: md2's recommendation is the profile reshape-fast, not one setting: measure it with 'mdprofile bench --op-only --compare reshape-fast'"
  ]
 }
}
EOF
expect_unchanged "a profile's recommendation"

fixture explain/cpu
mkdir -p "$ROOT/proc/sys/kernel/random"
echo 5e0c6b8a-3d1f-4c2e-9b7a-1f2e3d4c5b6a >"$ROOT/proc/sys/kernel/random/boot_id"
run apply -q balanced
expect_exit 0
snapshot
cp "$ROOT/run/mdprofile/journal" "$WORK/journal"
refused "profile balanced is active; revert it first: explain --probe ends by reverting to the values from before mdprofile, which would drop it"
expect_unchanged "an active profile"
cmp -s "$WORK/journal" "$ROOT/run/mdprofile/journal" || fail "the journal changed"
# Without --probe explain reads only, with a profile active too.
run explain
expect_exit 1
