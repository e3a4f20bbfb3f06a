# explain --probe interrupted while its setting is applied: SIGTERM and SIGINT revert it before
# exiting (exit 3); another mdprofile meanwhile finds the lock held; after SIGKILL the journal
# (by probe) lets 'mdprofile recover', and the next mutating command's own recovery, restore
# the value exactly as it was read ("10000 (local)").
# tags: slow no-valgrind (signals and SIGKILL while a window runs: timing)
fixture explain/ceiling-local
rm -rf "$ROOT/.explain" # live: samples --interval apart, the probe's window too
mkdir -p "$ROOT/proc/sys/kernel/random"
echo 5e0c6b8a-3d1f-4c2e-9b7a-1f2e3d4c5b6a >"$ROOT/proc/sys/kernel/random/boot_id"
snapshot

# probe_bg: explain --probe in the background until its setting is applied and journaled.
probe_bg() {
	bg_start explain --probe --interval 4
	wait_until 300 0.05 '[ -s "$WORK/bg.pid" ] &&
		grep -qx "by probe" "$ROOT/run/mdprofile/journal" 2>/dev/null &&
		grep -qx "state active" "$ROOT/run/mdprofile/journal"' ||
		fail "the probe did not apply its setting"
	BG=$(cat "$WORK/bg.pid")
	[ "$(cat "$ROOT/sys/block/md2/md/sync_speed_max")" = "200000 (system)" ] ||
		fail "the probe's setting is not applied: $(cat "$ROOT/sys/block/md2/md/sync_speed_max")"
}

for sig in TERM INT; do
	probe_bg
	if [ $sig = TERM ]; then
		# Another mdprofile meanwhile: the lock is held.
		run explain --probe --interval 1
		expect_exit 3
		sed -i 's/pid [0-9]*/pid N/' "$WORK/err"
		expect_stderr <<'EOF'
mdprofile: another mdprofile (pid N) is changing the system; try again, or use --wait
EOF
	fi
	kill -$sig "$BG"
	bg_finish
	LAST="explain --probe (SIG$sig during the probe)"
	expect_exit 3
	expect_stdout <<'EOF'
EOF
	expect_stderr <<EOF
mdprofile: interrupted by SIG$sig; md2/sync_speed_max is as it was
EOF
	expect_unchanged "SIG$sig during the probe"
	[ ! -e "$ROOT/run/mdprofile/journal" ] || fail "SIG$sig left a journal"
done

# killed_then CMD WHAT: SIGKILL during the probe, then CMD restores the value, byte for byte.
killed_then() {
	probe_bg
	kill -KILL "$BG"
	bg_finish
	exit_checked
	run "$1"
	expect_exit 0
	expect_stdout <<'EOF'
explain --probe of md2:sync_speed_max=system ended without reverting (killed?): restoring the baseline
md2 sync_speed_max: system (200000) -> 10000 KiB/s
EOF
	expect_no_stderr
	expect_unchanged "$2"
}

# SIGKILL: recover puts the value back, byte for byte.
killed_then recover "SIGKILL during the probe + recover"

# SIGKILL, then any command that changes the system recovers first, as after apply.
killed_then revert "SIGKILL during the probe + revert's recovery"
