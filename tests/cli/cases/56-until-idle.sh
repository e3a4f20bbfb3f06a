# apply --until-idle (issue 10): the profile stays applied while md works,
# and is reverted by the watcher itself when the operation ends, or on
# SIGINT, SIGTERM or SIGHUP; after SIGKILL the journal says so and recover
# (or any later mutating command) reverts.
# tags: slow no-valgrind (a watcher in the background, signals, SIGKILL: timing)

. "$SRC/tests/cli/until_idle.sh"

# The operation ends: the watcher reverts by itself, byte for byte.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
snapshot
start_bg apply --until-idle --interval 1 reshape-fast
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
run_expect 0 status-q . status -q
flip_idle "$ROOT"
flip_idle "$WORK/snap"
finish_bg
expect_exit 0
expect_stdout status-q.2
expect_no_stderr
expect_unchanged "after the operation ended"

# Each stop signal reverts before exit.
for sig in INT TERM HUP; do
	fixture ds-dsm6-reshape
	fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
	snapshot
	start_bg apply --until-idle reshape-fast
	kill -$sig "$BG"
	finish_bg
	expect_exit 0
	grep -q "^stopped by SIG$sig after T; reverted$" "$WORK/out" ||
		fail "SIG$sig: no revert said: $(cat "$WORK/out")"
	expect_unchanged "after SIG$sig"
done

# SIGKILL leaves the journal; status sees the watcher is gone (the lock is
# free) and says who will revert; recover does.
fixture ds-dsm6-reshape
snapshot
start_bg apply --until-idle -q balanced
kill -KILL "$BG"
finish_bg
expect_exit 137
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
run_expect 0 status-q.3 . status -q
run_expect 0 recover . recover
expect_unchanged "after SIGKILL and recover"

# Options that do not go together change nothing.
fixture ds-dsm6-reshape
snapshot
run_expect 2 . apply-until-idle-json-balanced apply --until-idle --json balanced
run_expect 2 . apply-interval-5-balanced apply --interval 5 balanced
run_expect 2 . apply-until-idle-interval-0 apply --until-idle --interval 0 balanced
run_expect 2 . status-until-idle status --until-idle
expect_unchanged "after refused options"
