# An array stopped after apply took its values with it: revert says so and finishes (issue 13, item 3).
fixture ds-dsm6-reshape
run_expect 0 - - apply balanced -q
rm -rf "$ROOT"/sys/block/md3 "$ROOT"/sys/devices/virtual/block/md3
# Its journaled values are no drift: they went with it (adversarial-4 minor).
run status
expect_exit 0
stdout_line 'drift: none'
run diff
expect_exit 0
stdout_line 'active profile balanced: no drift'
run_expect 0 revert - revert
run_expect 0 status-q - status -q
run_expect 0 - - apply balanced -q
run revert --json
expect_exit 0
expect_json revert-json
expect_no_stderr
# A tampered journal naming an absent device does not wedge later commands either.
mkdir -p "$ROOT"/run/mdprofile && printf 'mdprofile-journal 1\nstate applying\nboot_id %s\nprofile "x"\npath "-"\nbase stripe_cache_size md9 "256"\nend\n' "$(cat "$ROOT"/proc/sys/kernel/random/boot_id)" > "$ROOT"/run/mdprofile/journal
run_expect 0 recover - recover
run_expect 0 - - apply balanced -q
run_expect 0 - - revert -q
