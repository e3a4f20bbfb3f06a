# bench against what a killed run, a --root tree or a shared directory can
# leave in its way: a comparison killed outright is reverted by recover,
# a link in the tree cannot send the test file out of it, test files of
# killed runs are removed, a directory others can write is refused.
# tags: slow no-valgrind (kills a comparison on purpose: timing)

# bench --compare SIGKILLed mid-comparison: the journal says it was a
# comparison; status says so; recover reverts it like a killed watcher.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
# (the first row, the current settings, takes one window before anything is applied)
run_bg bench --compare balanced --op-only --duration 5
wait_until 300 0.05 "grep -qx 'state active' '$ROOT/run/mdprofile/journal' 2>/dev/null" || true
kill -KILL "$BGPID"
wait "$BGPID" 2>/dev/null || true
grep -qx 'by compare' "$ROOT/run/mdprofile/journal" ||
	fail "the comparison is not journaled as one: $(cat "$ROOT/run/mdprofile/journal")"
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
run status -q
expect_exit 0
tail -4 "$WORK/out" >"$WORK/out.tail" && mv "$WORK/out.tail" "$WORK/out"
expect_stdout status-q
run_expect 0 recover - recover
expect_unchanged "after bench --compare was killed and recover ran"

# The volume comes from the tree's /proc/mounts: a link there that leads
# out of the tree is refused, nothing is written outside.
fixture ds-dsm6-reshape
OUTSIDE="$WORK/outside"
rm -rf "$OUTSIDE" "$WORK/escaped"
mkdir -p "$OUTSIDE"
ln -s "$OUTSIDE" "$ROOT/volume1"
printf '%s\n' '/dev/md2 /volume1 btrfs rw 0 0' >"$ROOT/proc/mounts"
# a spy on the outside directory: a file created there is noted
(
	i=0
	while [ $i -lt 300 ]; do
		[ -n "$(ls -A "$OUTSIDE")" ] && {
			ls -A "$OUTSIDE" >"$WORK/escaped"
			break
		}
		sleep 0.01
		i=$((i + 1))
	done
) &
spy=$!
run bench --size 4MiB --runs 1
kill "$spy" 2>/dev/null || true
wait "$spy" 2>/dev/null || true
expect_exit 2
expect_stderr bench-size-4MiB-runs
[ ! -e "$WORK/escaped" ] || fail "bench wrote outside the tree: $(cat "$WORK/escaped")"
# A link inside the tree is followed as ever.
rm "$ROOT/volume1"
mkdir -p "$ROOT/vol/real"
ln -s vol/real "$ROOT/volume1"
run bench --size 4MiB --runs 1 --json
expect_exit 0
[ -z "$(ls -A "$ROOT/vol/real")" ] || fail "a test file was left in the tree's volume"

# Test files of killed runs (a pid that is gone, ours, regular) are removed
# before the free space is measured, and said so; others are left alone.
fixture ds-dsm6-reshape
SCRATCH="$ROOT/scratch"
mkdir -m 0755 "$SCRATCH"
sh -c 'exit 0' &
dead=$!
wait $dead
head -c 3145728 /dev/zero >"$SCRATCH/.mdprofile-bench.$dead"
echo x >"$SCRATCH/.mdprofile-bench.$$" # this shell lives
ln -s /nonexistent "$SCRATCH/.mdprofile-bench.1x"
run_expect 0 . bench-path-size-4MiB bench --path "$SCRATCH" --size 4MiB --runs 1 --json
[ ! -e "$SCRATCH/.mdprofile-bench.$dead" ] || fail "a killed run's test file was left"
[ -e "$SCRATCH/.mdprofile-bench.$$" ] || fail "a live run's test file was removed"
[ -L "$SCRATCH/.mdprofile-bench.1x" ] || fail "a link was removed"

# A directory others can write (not sticky): they could swap the test
# file, so nothing is written there. Sticky (/tmp) and root's own: it runs.
fixture ds-dsm6-reshape
SCRATCH="$ROOT/scratch"
mkdir "$SCRATCH"
chmod 0777 "$SCRATCH"
run_expect 2 . bench-path-size-4MiB.2 bench --path "$SCRATCH" --size 4MiB --runs 1 --json
[ -z "$(ls -A "$SCRATCH")" ] || fail "bench wrote into a directory others can write"
chmod 1777 "$SCRATCH"
run_expect 0 . - bench --path "$SCRATCH" --size 4MiB --runs 1 --json
