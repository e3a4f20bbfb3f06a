# apply --until-idle (issue 10), continued from 56-until-idle: the watcher detached from an
# SSH session, with nothing to wait for, over an active profile, over the same profile
# applied at boot, and under systemd.
# tags: slow no-valgrind (a watcher in the background, signals: timing)

. "$SRC/tests/cli/until_idle.sh"

# The README's recipe for DSM over SSH: closing the SSH session hangs up
# its process group; the watcher, in a session of its own, lives on (and
# reverts when it ends: here a SIGTERM to it alone, as the operation's end
# is 56-until-idle's).
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
