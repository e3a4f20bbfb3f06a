# 99-maint-reboot: a check paused for its maintenance window keeps its place across a reboot
# (issue 49), boot 1's half. md1's check (held to 4000 KiB/s) is paused by mdprofile auto
# with a window twelve hours away, at P; the place file in /var/lib/mdprofile/checkpoint
# (the state directory a NAS keeps on disk) and P go to the spare disk d22 at 8 MiB for
# boot2/40-maint-reboot, which resumes the check from P. This boot's md1 is then left idle,
# sync_min 0, with no place file, for the scenarios after it.
have_mdprofile || skip_all "no mdprofile in the image"
spare=$(serial_disk d22) || skip_all "no spare disk d22"
MD=md1
S=/sys/block/$MD/md
[ -d "$S" ] || skip_all "no $MD"
action_is $MD idle || skip_all "$MD is not idle"

P=/tmp/reboot-profiles
mkdir -p "$P"
AWAY=$((($(date +%H | sed 's/^0//') + 12) % 24))
printf 'description: checks twelve hours from now\nmaintenance:\n  windows: ["%02d:00-%02d:30"]\n' \
	"$AWAY" "$AWAY" >"$P/away.yaml"
echo 0 >"$S/sync_min"
echo 4000 >"$S/sync_speed_max"
echo check >"$S/sync_action"
poll 0.2 150 "$MD's check makes progress" md_pos_above 0
"$MDP" --profiles "$P" auto --on recovery --interval 1 away >"$VM_STATE/reboot.log" 2>&1 &
AUTO=$!
poll 0.1 100 "$MD's check was not paused within 10 s" md_is_paused
PL=$(md_paused_field 3)
stop_bg "$AUTO" 30 "$VM_STATE/reboot.log" "mdprofile auto away"
expect_exit 0 "auto away exits 0 on SIGTERM"
UUID=$(mdadm --detail --export /dev/$MD | sed -n 's/^MD_UUID=//p' | tr -d ':' | tr 'A-F' 'a-f')
[ -s "/var/lib/mdprofile/checkpoint/$UUID" ] && ok "the place of $MD ($UUID) is kept: $(tr '\n' ' ' <"/var/lib/mdprofile/checkpoint/$UUID")" ||
	fail "no place file for $MD ($UUID): $(ls /var/lib/mdprofile/checkpoint 2>&1)"
mkdir -p /run/maint-reboot
echo "$UUID $PL" >/run/maint-reboot/place
tar -cf - -C / var/lib/mdprofile/checkpoint run/maint-reboot |
	dd of="$spare" bs=64k seek=128 conv=fsync 2>/dev/null
expect_eq "$?" 0 "the place file and P ($PL) kept on d22"

# This boot's md1 as the scenarios after it expect it: revert lets the pause go (the check
# runs again from its place), then the check is stopped (idle written again until md is
# idle: one written before md's thread starts is lost).
stop_check() {
	echo idle >"$S/sync_action"
	sleep 0.2
	action_is $MD idle
}
"$MDP" -q revert >/dev/null 2>&1
poll 0.1 100 "$MD's check did not run again after revert" action_is $MD check
poll 0.3 30 "$MD's check stops at idle" stop_check
echo 0 >"$S/sync_min"
echo system >"$S/sync_speed_max"
rm -rf /var/lib/mdprofile/checkpoint /run/maint-reboot
expect_eq "$(cat "$S/sync_min") $(cat "$S/sync_action")" "0 idle" "$MD left idle, sync_min 0"
