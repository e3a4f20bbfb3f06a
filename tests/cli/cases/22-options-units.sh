# Options anywhere ('--' ends them), and one value read the same way by every command.
fixture ds-dsm6-reshape
shipped_list shipped '@BIN@/profiles/%s.yaml' >"$WORK/list-v"
run list -v
expect_exit 0
expect_stdout <"$WORK/list-v"
expect_no_stderr
# -q after the command: diff says nothing, its exit code tells (1: pending).
run_expect 1 - - diff balanced -q
run_expect 0 apply-balanced-dry-run - apply balanced --dry-run
run_expect 0 apply-balanced - apply balanced
run_expect 0 diff - diff
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal" # since_epoch_s reads its time
run status -v --json
expect_exit 0
# the values balanced set and the profile that set them (case 14 pins the whole document)
json_only arrays.name arrays.stripe_cache_pages arrays.stripe_cache_bytes arrays.read_ahead_kib \
	active_profile profile_state journal_profile since_epoch_s layers op_speeds drift_values
expect_json status-v-json
expect_no_stderr
run_expect 0 - - revert -q
run_expect 2 - status-bogus status --bogus
run_expect 2 - status-root status --root
run_expect 2 - diff-dry-run-balanced diff --dry-run balanced
run_expect 2 - diff-a-b diff a b
run_expect 0 help-apply - --help apply
run_expect 2 - check-q check -- -q
