# 40-crash-recover: SIGKILL apply (and revert) after every k-th write on the
# real kernel; `mdprofile recover` must bring back the byte-identical baseline.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.40"

# crash_series CMD: MDPROFILE_FAULT=crash-after-write:k for k = 1, 2, ...
crash_series() {
	what=$1
	k=1
	bad=0
	while [ $k -le 80 ]; do
		if [ "$what" = revert ]; then
			mdp apply reshape-fast
			[ "$RC" = 0 ] || { fail "apply before the revert crash: exit $RC"; show_last; return; }
		fi
		# shellcheck disable=SC2086
		MDPROFILE_FAULT=crash-after-write:$k mdp $what
		[ "$RC" = 137 ] || break  # not killed: fewer than k writes
		mdp recover
		if [ "$RC" != 0 ]; then
			fail "$what crash at write $k: recover exit $RC, want 0"
			show_last
			bad=1
		fi
		check_matches "$VM_STATE/snap.40" "$what crash at write $k, recovered" || bad=1
		k=$((k + 1))
	done
	if [ $k = 1 ]; then
		fail "$what: crash-after-write:1 did not kill it (exit $RC): MDPROFILE_FAULT?"
		show_last
	elif [ "$RC" != 0 ]; then
		fail "$what after $((k - 1)) crashes: exit $RC"
		show_last
	elif [ $bad = 0 ]; then
		ok "$what killed after each of writes 1..$((k - 1)): recover restored the baseline"
	fi
	mdp revert
	expect_unchanged "$VM_STATE/snap.40" "baseline after the $what crash series"
}

crash_series "apply reshape-fast"
crash_series revert

# A kill from outside at arbitrary moments (no seam): after recover the system
# is either the baseline or, if apply had committed (the journal says the profile is
# active: it may be killed after that, while it reports), fully applied.
for d in 0 5000 20000 50000 100000 200000 400000 800000 1500000; do
	$MDP apply reshape-fast >/dev/null 2>&1 &
	pid=$!
	usleep $d
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	st=$?
	mdp recover
	if [ $st = 0 ] || grep -qx 'state active' /run/mdprofile/journal 2>/dev/null; then
		mdp diff reshape-fast
		expect_exit 0 "apply committed before the kill at ${d}us (exit $st): fully applied"
		mdp revert
	fi
	expect_unchanged "$VM_STATE/snap.40" "SIGKILL at ${d}us (apply exit $st), recover -> baseline"
done
