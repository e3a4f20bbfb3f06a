# 99-maint-heat: mdprofile auto with a profile's heat rule (issue 49) on a real md.
# A virtio disk has no temperature, so one member's device directory gets a drivetemp
# reading of the lab's own: a tmpfs over it in sysfs holding hwmon/hwmon90/temp1_input, what
# drivetemp puts there, beside the directory's own entries (its subdirectories bound back in,
# its links made again, its attributes copied), which the test turns up and down:
# - with that member at 55 C, over the profile's 50: a recovery of md1 is never paused (md
#   keeps recovering, nothing is journaled); md1's check (held to 4000 KiB/s) is paused within
#   a look at md's place, journaled with why "heat", and status says so;
# - the member at 40 C, under the profile's 45: a watcher reading it takes the pause over and
#   resumes the check from at least that place, and says so (a new watcher, which reads at
#   once: the same one would at its next reading, a minute on, as the unit tests step).
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

# watch LOG: mdprofile auto with the profile cool, a look a second; its pid in AUTO. Each
# watcher reads the disks' temperatures at once, then once a minute.
watch() {
	"$MDP" --profiles "$P" auto --on recovery --interval 1 cool >"$VM_STATE/heat.$1.log" 2>&1 &
	AUTO=$!
	wait_line /run/mdprofile/watcher 'state armed' 20 "mdprofile auto cool did not arm"
}

# A recovery beside the hot member (held to 4000 KiB/s, so that it outlasts the looks):
# never paused.
echo 4000 >"$S/sync_speed_max"
watch hot
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
stop_bg "$AUTO" 30 "$VM_STATE/heat.hot.log" "mdprofile auto cool (the recovery)"
expect_exit 0 "auto exits 0 on SIGTERM"
echo system >"$S/sync_speed_max"
poll 0.5 240 "$MD's recovery did not end within 2 minutes" action_is $MD idle

# A check under way, the member still hot: paused within a look, at its place.
echo 0 >"$S/sync_min"
echo 4000 >"$S/sync_speed_max"
echo check >"$S/sync_action"
poll 0.2 150 "$MD's check makes progress" md_pos_above 0
watch hot
poll 0.1 100 "$MD's check was not paused within 10 s of a hot member" md_is_paused
PL=$(md_paused_field 3)
expect_eq "$(md_paused_field 5)" heat "the pause journal says why: a hot member"
[ "$PL" -gt 0 ] && ok "paused at $PL with $HOT at 55 C" || fail "paused at '$PL'"
mdp status
expect_exit 0 "status"
output_match "check paused at [0-9]+\.[0-9]% by mdprofile auto" "status says the check is paused"
stop_bg "$AUTO" 30 "$VM_STATE/heat.hot.log" "mdprofile auto cool (hot)"
expect_exit 0 "auto exits 0 on SIGTERM"
output_match "md1 check paused at [0-9]+% \(sector $PL\): .*" "the watcher said it paused the check"
md_is_paused && ok "the pause outlives its watcher" || fail "$MD runs $(cat "$S/sync_action") once its watcher stopped"

# Cool: a watcher reading 40 C resumes the check from its place (the same watcher would at
# its next reading, a minute on: test_loop_maint_heat steps through that).
temp 40
watch cool
poll 0.1 100 "$MD's check did not run again within 10 s of a cool member" action_is $MD check
[ -z "$(md_paused_field 3)" ] && ok "cool: resumed, no pause journaled" ||
	fail "the pause journal still lists $MD"
poll 0.2 100 "$MD's check shows no progress after its resume" md_pos_above "$PL"
ok "the check runs on from its place $PL ($(md_pos) now)"
stop_bg "$AUTO" 30 "$VM_STATE/heat.cool.log" "mdprofile auto cool (cool)"
expect_exit 0 "auto exits 0 on SIGTERM"
output_match "md1 check resumed from [0-9]+% \(sector $PL\)" "the watcher said it resumed it, from where"

echo idle >"$S/sync_action"
poll 0.2 50 "$MD's check stops at idle" action_is $MD idle
echo 0 >"$S/sync_min"
echo system >"$S/sync_speed_max"
hwmon_off || fail "cannot take the hwmon directory off $DEV"
"$MDP" -q revert >/dev/null 2>&1
rm -f /var/lib/mdprofile/checkpoint/*
expect_eq "$(cat "$S/sync_min") $(cat "$S/sync_action") $(cat "$S/degraded")" "0 idle 0" \
	"$MD left idle and whole, sync_min 0"
