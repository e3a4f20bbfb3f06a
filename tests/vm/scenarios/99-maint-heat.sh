# 99-maint-heat: mdprofile auto with a profile's heat rule (issue 49) on a real md.
# A virtio disk has no temperature, so one member's device directory gets a drivetemp
# reading of the lab's own: a tmpfs over it in sysfs holding hwmon/hwmon90/temp1_input, what
# drivetemp puts there, beside the directory's own entries (its subdirectories bound back in,
# its links made again, its attributes copied), which the test turns up and down:
# - md1's check (held to 4000 KiB/s) with that member at 55 C, over the profile's 50: paused
#   within a look at md's place, journaled with why "heat"; status says so;
# - the member at 40 C, under the profile's 45: the same watcher resumes the check from at
#   least that place at its next reading (at most a minute: disks are read once a minute);
# - a recovery of md1 with the member hot again: never paused (md keeps recovering, nothing
#   is journaled), only kept at the box's own limits.
# It leaves md1 idle and whole with sync_min 0, its speed limits the system's, and the
# member's sysfs directory as it was.
have_mdprofile || skip_all "no mdprofile in the image"
MD=md1
S=/sys/block/$MD/md
[ -d "$S" ] || skip_all "no $MD"
action_is $MD idle || skip_all "$MD is not idle"
HOT=$(ls /sys/block/$MD/slaves | head -1)
DEV=$(readlink -f "/sys/block/$HOT/device")
[ -d "$DEV" ] && [ ! -e "$DEV/hwmon" ] || skip_all "$HOT has no device directory, or a hwmon already"

temp() {
	echo "$(($1 * 1000))" >"$DEV/hwmon/hwmon90/temp1_input"
}

# hwmon_on: DEV as it was (REAL, bound aside), with a hwmon directory of the test's own.
REAL=/run/heat-real
hwmon_on() {
	mkdir -p "$REAL" && mount --bind "$DEV" "$REAL" &&
		mount -t tmpfs -o size=256k mdp-heat "$DEV" || return 1
	for e in "$REAL"/*; do
		n=${e##*/}
		if [ -L "$e" ]; then
			ln -s "$(readlink "$e")" "$DEV/$n"
		elif [ -d "$e" ]; then
			mkdir "$DEV/$n" && mount --bind "$e" "$DEV/$n"
		else
			cat "$e" >"$DEV/$n" 2>/dev/null || rm -f "$DEV/$n"
		fi
	done
	mkdir -p "$DEV/hwmon/hwmon90"
}
hwmon_off() {
	for e in "$DEV"/*; do
		[ -d "$e" ] && [ ! -L "$e" ] && [ "${e##*/}" != hwmon ] && umount "$e"
	done
	umount "$DEV" && umount "$REAL"
}
hwmon_on || skip_all "cannot lay a hwmon directory over $DEV"
[ "$(ls "/sys/block/$HOT/device/block")" = "$HOT" ] || fail "$HOT's device directory lost its block link"
echo drivetemp >"$DEV/hwmon/hwmon90/name"
temp 55
P=/tmp/heat-profiles
mkdir -p "$P"
printf 'description: checks while the disks are cool\nmaintenance:\n  heat: {hot_at_c: 50, cool_below_c: 45}\n' \
	>"$P/cool.yaml"

echo 0 >"$S/sync_min"
echo 4000 >"$S/sync_speed_max"
echo check >"$S/sync_action"
poll 0.2 150 "$MD's check makes progress" md_pos_above 0
P0=$(md_pos)

"$MDP" --profiles "$P" auto --on recovery --interval 1 cool >"$VM_STATE/heat.log" 2>&1 &
AUTO=$!
wait_line /run/mdprofile/watcher 'state armed' 20 "mdprofile auto cool did not arm"
poll 0.1 100 "$MD's check was not paused within 10 s of a hot member" md_is_paused
PL=$(md_paused_field 3)
expect_eq "$(md_paused_field 5)" heat "the pause journal says why: a hot member"
[ "$PL" -ge "$P0" ] && ok "paused at $PL (md had done $P0) with $HOT at 55 C" ||
	fail "paused at $PL, before the $P0 md had done"
mdp status
expect_exit 0 "status"
output_match "check paused at [0-9]+\.[0-9]% by mdprofile auto" "status says the check is paused"

# Cool: resumed at the next reading, from its place.
temp 40
poll 0.5 150 "$MD's check did not run again within 75 s of a cool member" action_is $MD check
[ -z "$(md_paused_field 3)" ] && ok "cool: resumed, no pause journaled" ||
	fail "the pause journal still lists $MD"
poll 0.2 100 "$MD's check shows no progress after its resume" md_pos_above "$PL"
ok "the check runs on from its place $PL ($(md_pos) now)"
echo idle >"$S/sync_action"
poll 0.2 50 "$MD's check stops at idle" action_is $MD idle
echo 0 >"$S/sync_min"

# A recovery with the member hot: never paused.
temp 60
member=$(ls /sys/block/$MD/slaves | tail -1)
mdadm /dev/$MD --fail "/dev/$member" >/dev/null 2>&1 || fail "mdadm --fail $member"
mdadm /dev/$MD --remove "/dev/$member" >/dev/null 2>&1 || fail "mdadm --remove $member"
sleep 0.5
mdadm /dev/$MD --add "/dev/$member" >/dev/null 2>&1 || fail "mdadm --add $member"
poll 0.1 100 "$MD's recovery did not start" action_is $MD recover
sleep 3
expect_eq "$(cat "$S/sync_action")" recover "a recovery beside a hot member runs on (3 looks)"
[ -z "$(md_paused_field 3)" ] && ok "the recovery was not paused" ||
	fail "the recovery was journaled paused: $(cat /run/mdprofile/paused)"
stop_bg "$AUTO" 30 "$VM_STATE/heat.log" "mdprofile auto cool"
expect_exit 0 "auto cool exits 0 on SIGTERM"
output_match "md1 check paused at [0-9]+% \(sector $PL\): .*" "the watcher said it paused the check"
output_match "md1 check resumed from [0-9]+% \(sector $PL\)" "the watcher said it resumed it, from where"

echo system >"$S/sync_speed_max"
poll 0.5 240 "$MD's recovery did not end within 2 minutes" action_is $MD idle
hwmon_off || fail "cannot take the hwmon directory off $DEV"
"$MDP" -q revert >/dev/null 2>&1
rm -f /var/lib/mdprofile/checkpoint/*
expect_eq "$(cat "$S/sync_min") $(cat "$S/sync_action") $(cat "$S/degraded")" "0 idle 0" \
	"$MD left idle and whole, sync_min 0"
