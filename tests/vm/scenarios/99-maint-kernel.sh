# 99-maint-kernel: what md itself does when a check is paused and resumed (issue 49): the
# facts a pause in place rests on, on each kernel of the lab, with nothing of mdprofile's.
# On md1 (raid5, idle) a check held slow by its own md/sync_speed_max:
# - md/sync_max cannot be lowered under a running check: md refuses it (EBUSY), so a
#   running check cannot be held where it stands by sync_max;
# - idle written to md/sync_action stops the check, and md itself sets md/sync_min to where
#   it stood (sync_completed); a check written after starts there, not at 0;
# - sync_min written back to 0 while idle leaves nothing behind: the next check starts at 0;
#   md's place is md/sync_completed's, which moves every sixteenth of the array (and is what
#   md writes to sync_min at idle), so a resumed check does that much again;
# - a check started with sync_max below the end stops at it and waits there, still a check,
#   until sync_max is max again.
# It leaves md1 idle with sync_min 0, sync_max max and its speed limit the system's.
MD=md1
S=/sys/block/$MD/md
[ -d "$S" ] || skip_all "no $MD"
action_is $MD idle || skip_all "$MD is not idle"

# at N: the check stands at sector N.
at() {
	[ "$(md_pos)" = "$1" ]
}
stop_check() {
	echo idle >"$S/sync_action"
	poll 0.2 50 "$MD's check stops at idle" action_is $MD idle
}

CHUNK=$(($(cat "$S/chunk_size") / 512))
# 95 stopped a check on md1 with idle, so md kept its place in sync_min: start from 0.
echo 0 >"$S/sync_min"
echo 2000 >"$S/sync_speed_max"

# A running check: sync_max refused.
echo check >"$S/sync_action"
poll 0.2 100 "$MD's check makes progress" md_pos_above 0
P1=$(md_pos)
AT=$(((P1 / CHUNK + 64) * CHUNK))
if sh -c "echo $AT >$S/sync_max" 2>"$VM_STATE/err"; then
	fail "sync_max $AT under a running check was taken (now $(cat "$S/sync_max"))"
	echo max >"$S/sync_max"
else
	expect_match "$(cat "$VM_STATE/err")" '[Bb]usy' "sync_max lowered under a running check: refused, busy"
fi
expect_eq "$(cat "$S/sync_max")" max "sync_max still max"

# idle: md keeps the place in sync_min; check resumes from it.
stop_check
P2=$(cat "$S/sync_min")
[ "$P2" -ge "$P1" ] && [ "$P2" -gt 0 ] && ok "idle: sync_min $P2 is where the check stood (>= $P1)" ||
	fail "idle: sync_min $P2, want at least $P1 and above 0"
echo check >"$S/sync_action"
poll 0.2 50 "$MD's check restarts" md_live_above 0
L3=$(md_live)
[ "$L3" -ge "$P2" ] && ok "check again: at $L3, from sync_min $P2, not 0" ||
	fail "check again: at $L3, below sync_min $P2"
stop_check
P4=$(cat "$S/sync_min")
[ "$P4" -ge "$P2" ] && ok "idle again: sync_min $P4 (>= $P2)" || fail "idle again: sync_min $P4 below $P2"

# sync_min back to 0: no pause left; the next check starts at 0.
echo 0 >"$S/sync_min"
expect_eq "$(cat "$S/sync_min")" 0 "sync_min written back to 0"
echo check >"$S/sync_action"
poll 0.2 50 "$MD's check starts" md_live_above 0
L5=$(md_live)
[ "$L5" -lt "$P2" ] && ok "after sync_min 0 a check starts over (at $L5, below $P2)" ||
	fail "after sync_min 0 the check is at $L5, not below $P2"
stop_check
echo 0 >"$S/sync_min"

# sync_max set before the start: the check stops there and waits, then goes on at max.
AT=$((8 * CHUNK))
echo "$AT" >"$S/sync_max"
echo check >"$S/sync_action"
poll 0.2 100 "$MD's check reaches sync_max $AT" at "$AT"
sleep 2
expect_eq "$(cat "$S/sync_action") $(md_pos)" "check $AT" "held at sync_max: still a check, at $AT after 2 s"
echo max >"$S/sync_max"
poll 0.2 100 "$MD's check goes on past $AT once sync_max is max" md_pos_above "$AT"
stop_check

echo 0 >"$S/sync_min"
echo max >"$S/sync_max"
echo system >"$S/sync_speed_max"
expect_eq "$(cat "$S/sync_min") $(cat "$S/sync_max") $(cat "$S/sync_action")" "0 max idle" \
	"$MD left idle, sync_min 0, sync_max max"
expect_match "$(cat "$S/sync_speed_max")" '\(system\)$' "$MD's sync_speed_max the system's again"
