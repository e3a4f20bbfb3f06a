# 99-maint-window: mdprofile auto with a profile's maintenance windows (issue 49) on a real md.
# md1 (raid5, idle) runs a check held to 4000 KiB/s by its md/sync_speed_max:
# - under a watcher whose profile's window opens at the next minute, the check is paused
#   within a look, at P (md's place, journaled in /run/mdprofile/paused, with its reason),
#   and status says so; md keeps the place in md/sync_min and the check stays paused;
# - the window opens: the same watcher resumes it from at least P, not from 0;
# - paused again by a watcher whose window is twelve hours away, that watcher stopped (the
#   pause outlives it), `mdprofile revert`: no pause is left (the check runs from its
#   place), the pause journal is gone.
# md's place moves every sixteenth of the array (8 MiB of each 128 MiB member, about 2 s at
# that speed): the scenario takes seconds of md time, and up to a minute waiting for the
# window. It leaves md1 idle with sync_min 0 and its speed limit the system's.
have_mdprofile || skip_all "no mdprofile in the image"
MD=md1
S=/sys/block/$MD/md
[ -d "$S" ] || skip_all "no $MD"
action_is $MD idle || skip_all "$MD is not idle"

now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}
# watch PROFILE: mdprofile auto with PROFILE, a look a second; its pid in AUTO.
watch() {
	"$MDP" --profiles "$P" auto --on recovery --interval 1 "$1" >"$VM_STATE/maint.$1.log" 2>&1 &
	AUTO=$!
	wait_line /run/mdprofile/watcher 'state armed' 20 "mdprofile auto $1 did not arm"
}

echo 0 >"$S/sync_min"
echo 4000 >"$S/sync_speed_max"
echo check >"$S/sync_action"
poll 0.2 150 "$MD's check makes progress" md_pos_above 0
P0=$(md_pos)
TOTAL=$(awk '{ print $3 }' "$S/sync_completed")

# The profiles, in the guest's local time: a window twelve hours from now, and one that opens
# at the next minute (not within 10 s of it, so that the watcher starts before it opens).
P=/tmp/maint-profiles
mkdir -p "$P"
[ "$(date +%S | sed 's/^0//')" -lt 50 ] || sleep 11
HM=$(date '+%H %M' | sed 's/^0//; s/ 0/ /')
H=${HM% *} MI=${HM#* }
AWAY=$(((H + 12) % 24))
printf 'description: checks twelve hours from now\nmaintenance:\n  windows: ["%02d:00-%02d:30"]\n' \
	"$AWAY" "$AWAY" >"$P/away.yaml"
SOON=$(((H * 60 + MI + 1) % 1440))
END=$(((SOON + 30) % 1440))
printf 'description: checks from the next minute\nmaintenance:\n  windows: ["%02d:%02d-%02d:%02d"]\n' \
	$((SOON / 60)) $((SOON % 60)) $((END / 60)) $((END % 60)) >"$P/soon.yaml"

# Outside its window: paused within a look.
t0=$(now_ms)
watch soon
poll 0.1 100 "$MD's check was not paused within 10 s" md_is_paused
t1=$(now_ms)
PL=$(md_paused_field 3)
expect_eq "$(md_paused_field 5)" window "the pause journal says why: outside its windows"
[ "$PL" -ge "$P0" ] && ok "paused $((t1 - t0)) ms after the watcher started, at $PL of $TOTAL sectors (md had done $P0)" ||
	fail "paused at $PL, before the $P0 md had done"
expect_eq "$(cat "$S/sync_min")" "$PL" "md keeps the place in sync_min"
mdp status
expect_exit 0 "status"
output_match "check paused at [0-9]+\.[0-9]% by mdprofile auto: outside its" \
	"status says the check is paused, and why"
mdp status --json
expect_exit 0 "status --json"
expect_match "$OUT" "\"why\": \"window\"" "status --json says why"
sleep 2
md_is_paused && ok "still paused 2 s on" || fail "not paused 2 s on: $(cat "$S/sync_action")"

# The window opens: the same watcher resumes the check from its place.
poll 0.5 150 "$MD's check did not run again within 75 s" action_is $MD check
t2=$(now_ms)
poll 0.1 100 "$MD's check shows no progress" md_live_above 0
L=$(md_live)
[ "$L" -ge "$PL" ] && ok "in the window ($((t2 - t1)) ms on) the check runs again from $L (>= its place $PL), not 0" ||
	fail "in the window the check runs from $L, below its place $PL"
[ -z "$(md_paused_field 3)" ] && ok "no pause journaled" || fail "the pause journal still lists $MD"
stop_bg "$AUTO" 30 "$VM_STATE/maint.soon.log" "mdprofile auto soon"
expect_exit 0 "auto soon exits 0 on SIGTERM"
output_match "md1 check paused at [0-9]+% \(sector $PL\): outside its windows; the next opens in 0h 0[01]m" \
	"the watcher said it paused the check, where and why"
output_match "md1 check resumed from [0-9]+% \(sector $PL\)" "the watcher said it resumed the check, from where"

# Paused again, its watcher gone: revert leaves no pause.
poll 0.2 100 "$MD's place does not move" md_pos_above "$PL"
watch away
poll 0.1 100 "$MD's check was not paused again within 10 s" md_is_paused
P2=$(md_paused_field 3)
stop_bg "$AUTO" 30 "$VM_STATE/maint.away.log" "mdprofile auto away"
expect_exit 0 "auto away exits 0 on SIGTERM"
mdp revert
expect_exit 0 "revert with a check paused"
[ ! -e /run/mdprofile/paused ] && ok "revert: the pause journal is gone" ||
	fail "revert left $(cat /run/mdprofile/paused)"
poll 0.1 100 "$MD's check was not resumed by revert" md_live_above 0
L=$(md_live)
[ "$L" -ge "$P2" ] && action_is $MD check && ok "revert resumed the check from $L (>= its place $P2)" ||
	fail "after revert: $(cat "$S/sync_action") at $L, its place was $P2"

echo idle >"$S/sync_action"
poll 0.2 50 "$MD's check stops at idle" action_is $MD idle
echo 0 >"$S/sync_min"
echo system >"$S/sync_speed_max"
rm -f /var/lib/mdprofile/checkpoint/*
expect_eq "$(cat "$S/sync_min") $(cat "$S/sync_action")" "0 idle" "$MD left idle, sync_min 0"
