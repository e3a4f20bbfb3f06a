# apply --until-idle (issue 10): the profile stays applied while md works,
# and is reverted by the watcher itself when the operation ends, or on
# SIGINT, SIGTERM or SIGHUP; after SIGKILL the journal says so and recover
# (or any later mutating command) reverts.
# tags: slow no-valgrind (a watcher in the background, signals, SIGKILL: timing)

# What md shows when the seed DiskStation's reshape of md3 has ended: a reshape that
# finished leaves reshape_position "none", one interrupted the sector it reached.
flip_idle() {
	echo "${2:-none}" >"$1/sys/block/md3/md/reshape_position"
	echo idle >"$1/sys/block/md3/md/sync_action"
	echo none >"$1/sys/block/md3/md/sync_completed"
	echo 0 >"$1/sys/block/md3/md/sync_speed"
	sed -i '/reshape =/d' "$1/proc/mdstat"
}

# mdprofile in the background, as a detached watcher would run. A subshell
# reaps it, so the shell's "Killed" notice stays out of the test's output.
start_bg() {
	bg_start "$@"
	i=0
	# applied and committed: from here a stop signal waits for the watcher
	until [ -s "$WORK/bg.pid" ] && grep -qx 'by until-idle' "$ROOT/run/mdprofile/journal" 2>/dev/null &&
		grep -qx 'state active' "$ROOT/run/mdprofile/journal"; do
		i=$((i + 1))
		[ $i -lt 300 ] || { fail "the watcher did not start"; break; }
		sleep 0.1
	done
	BG=$(cat "$WORK/bg.pid")
}

finish_bg() {
	bg_finish
	# durations and speeds vary with the machine
	sed -i -e 's/after [0-9hms ]*;/after T;/' -e 's/average [0-9]* KiB/average N KiB/' "$WORK/out"
}

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

# The README's recipe for DSM over SSH: closing the SSH session hangs up
# its process group; the watcher, in a session of its own, lives on (and
# reverts when it ends: here a SIGTERM to it alone, as the operation's end
# is the first part's).
fixture ds-dsm6-reshape
snapshot
# A cross binary runs under qemu-user (MDP_WRAP): the recipe calls it through a wrapper.
BINARY=$(wrapped_mdp)
(
	setsid sh -c 'echo $$ >"$4"; cd "$1" && setsid "$2" --root "$3" apply --until-idle \
		--interval 1 balanced </dev/null >>"$3/until-idle.log" 2>&1 & sleep 30' \
		sh "$SRC" "$BINARY" "$ROOT" "$WORK/ssh.pid" 2>/dev/null
	# Not the subshell's last command, so it waits itself and the shell's
	# "Hangup" for the killed sh goes to its /dev/null, not the test's output.
	true
) 2>/dev/null &
SSHSH=$!
i=0
until [ -s "$WORK/ssh.pid" ] && grep -qx 'state active' "$ROOT/run/mdprofile/journal" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { fail "the detached watcher did not start"; break; }
	sleep 0.1
done
kill -HUP -"$(cat "$WORK/ssh.pid")" # the session's process group, as sshd's hangup reaches it
wait $SSHSH || true
sleep 1.5
grep -qx 'state active' "$ROOT/run/mdprofile/journal" || fail "the hangup reached the watcher"
kill -TERM "$(sed -n 's/^pid //p' "$ROOT/run/mdprofile/watcher")"
i=0
while [ -e "$ROOT/run/mdprofile/journal" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || { fail "the detached watcher did not revert"; break; }
	sleep 0.1
done
grep -Eq "^${STAMP_RE}stopped by SIGTERM after .*; reverted$" "$ROOT/until-idle.log" ||
	fail "no revert in the watcher's log: $(cat "$ROOT/until-idle.log")"
rm "$ROOT/until-idle.log"
expect_unchanged "after the detached watcher reverted"

# Nothing running when it starts: it says so and reverts at once.
fixture ds220j-dsm7
snapshot
run apply --until-idle --services-backend none low-ram
expect_exit 0
unstamp
sed -i -e 's/after [0-9hms ]*;/after T;/' "$WORK/out"
expect_stdout apply-until-idle-services-backend-none
expect_no_stderr
expect_unchanged "after an until-idle with nothing to wait for"

# Over an active profile (a boot script's, say) it is an overlay: when md
# is idle it goes, and the values are the base's again, the base active.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
run apply -q balanced
expect_exit 0
flip_idle "$ROOT"
snapshot
run apply --until-idle --services-backend none reshape-fast
expect_exit 0
grep -Eq "^$STAMP_RE"'profile reshape-fast is active; ' "$WORK/out" ||
	fail "the lines to a file do not begin with their time: $(cat "$WORK/out")"
unstamp
sed -i -e 's/after [0-9hms ]*;/after T;/' "$WORK/out"
expect_stdout <<'EOF2'
dev.raid.speed_limit_max: 200000 KiB/s -> 2000000 KiB/s
dev.raid.speed_limit_min: 50000 KiB/s -> 300000 KiB/s
md2 read_ahead: 4 MiB -> 32 MiB
md3 read_ahead: 4 MiB -> 32 MiB
md2 stripe_cache_size: 2048 -> 32768
md3 stripe_cache_size: 2048 -> 32768
profile reshape-fast is active; 'mdprofile revert' restores the values from before
profile reshape-fast: no array resyncs, recovers, reshapes or checks now, nothing to wait for (start the operation first); reverting
reverting profile reshape-fast
back to the base profile balanced
dev.raid.speed_limit_max: 2000000 KiB/s -> 200000 KiB/s
md3 stripe_cache_size: 32768 -> 2048
md2 stripe_cache_size: 32768 -> 2048
md3 read_ahead: 32 MiB -> 4 MiB
md2 read_ahead: 32 MiB -> 4 MiB
dev.raid.speed_limit_min: 300000 KiB/s -> 50000 KiB/s
operations ended after T; reverted
EOF2
# the journal keeps the baseline of what the overlay changed: the rest is as before
cp "$ROOT/run/mdprofile/journal" "$WORK/journal.after"
cp "$WORK/snap/run/mdprofile/journal" "$ROOT/run/mdprofile/journal"
expect_unchanged "after until-idle over an active profile"
cp "$WORK/journal.after" "$ROOT/run/mdprofile/journal"
grep -qx 'profile "balanced"' "$ROOT/run/mdprofile/journal" &&
	! grep -q '^under' "$ROOT/run/mdprofile/journal" ||
	fail "until-idle over an active profile did not leave the base alone: $(cat "$ROOT/run/mdprofile/journal")"

# How an operation ended (the array stopped under it, or interrupted) is the
# summary's: the unit tests (test_watcher_loop's test_loop_until_idle_ends).

# Over the same profile applied at boot it adds nothing and takes nothing away:
# the boot's layer stays when md is idle (F02).
fixture ds-dsm6-reshape
run apply -q --services-backend none --origin boot reshape-fast
expect_exit 0
snapshot
bg_start apply --until-idle --services-backend none --interval 1 reshape-fast
finish_bg
expect_exit 0
stdout_line 'profile reshape-fast was already on (boot): it stays when md is idle; nothing to wait for'
expect_unchanged "after until-idle over the same profile applied at boot"

# Under systemd (JOURNAL_STREAM names stdout): no times; the watcher's own lines
# carry their journal priority (sd-daemon(3)), and nothing goes to syslog.
fixture ds220j-dsm7
: >"$WORK/out"
JOURNAL_STREAM=$(stat -c %d:%i "$WORK/out")
export JOURNAL_STREAM
run apply --until-idle --services-backend none low-ram
unset JOURNAL_STREAM
expect_exit 0
stdout_line 'profile low-ram is active; '"'"'mdprofile revert'"'"' restores the values from before'
stdout_line '<6>profile low-ram: no array resyncs, recovers, reshapes or checks now, nothing to wait for (start the operation first); reverting'
stdout_line '<5>operations ended after 0s; reverted'
