# boot2/40-maint-reboot: after the reboot, the check 99-maint-reboot paused at P resumes from
# P, not from 0 (issue 49). The state directory a NAS keeps on disk comes back from d22; the
# array, renumbered in this boot, is found by its UUID. md itself forgot the place (sync_min
# is 0 after assembly and md starts no check of its own): mdprofile auto, in a window that is
# open, takes the place file at its first look and resumes the check from there.
have_mdprofile || skip_all "no mdprofile in the image"
spare=$(serial_disk d22) || skip_all "no spare disk d22"
dd if="$spare" bs=64k skip=128 count=16 2>/dev/null | tar -xf - -C / 2>/dev/null
[ -s /run/maint-reboot/place ] || skip_all "boot 1 left no place on d22 (run 99-maint-reboot)"
read -r UUID PL </run/maint-reboot/place
MD=
for d in /dev/md*; do
	[ -b "$d" ] || continue
	u=$(mdadm --detail --export "$d" 2>/dev/null | sed -n 's/^MD_UUID=//p' | tr -d ':' | tr 'A-F' 'a-f')
	[ "$u" = "$UUID" ] && MD=${d#/dev/} && break
done
[ -n "$MD" ] || skip_all "no array with UUID $UUID in this boot"
S=/sys/block/$MD/md
action_is "$MD" idle || skip_all "$MD is not idle"
expect_eq "$(cat "$S/sync_min")" 0 "md forgot the place at assembly ($MD: sync_min 0)"

P=/tmp/reboot-profiles
mkdir -p "$P"
printf 'description: checks at any hour\nmaintenance:\n  windows: ["00:00-24:00"]\n' >"$P/open.yaml"
echo 4000 >"$S/sync_speed_max"
"$MDP" --profiles "$P" auto --on recovery --interval 1 open >"$VM_STATE/reboot2.log" 2>&1 &
AUTO=$!
poll 0.1 100 "$MD's check was not resumed within 10 s" action_is "$MD" check
poll 0.1 100 "$MD's check shows no progress" md_live_above 0
L=$(md_live)
[ "$L" -ge "$PL" ] && ok "after the reboot the check runs from $L (>= its place $PL), not 0" ||
	fail "after the reboot the check runs from $L, below its place $PL"
stop_bg "$AUTO" 30 "$VM_STATE/reboot2.log" "mdprofile auto open"
expect_exit 0 "auto open exits 0 on SIGTERM"
output_match "$MD: a check cut at [0-9]+% \(sector $PL\) by a reboot or a crash resumes from there" \
	"the watcher said it took the place kept across the reboot"
output_match "$MD check resumed from [0-9]+% \(sector $PL\)" "the watcher said it resumed the check, from where"

echo idle >"$S/sync_action"
poll 0.2 50 "$MD's check stops at idle" action_is "$MD" idle
"$MDP" -q revert >/dev/null 2>&1
echo 0 >"$S/sync_min"
echo system >"$S/sync_speed_max"
rm -rf /var/lib/mdprofile/checkpoint /run/maint-reboot
