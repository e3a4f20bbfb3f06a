# boot2/05-boot-script: the script boot 1 installed (05-boot-script) runs as
# DSM's Task Scheduler runs a boot task: bash, env -i, cwd /. The arrays are
# md10 and up now, md5 still reshaping; each must get its values by UUID,
# every step must reach syslog, and revert must restore the boot's values.
have_mdprofile || skip_all "no mdprofile in the image"

spare=$(serial_disk d22) || skip_all "no spare disk d22"
dd if="$spare" bs=64k count=16 2>/dev/null | tar -xf - -C / 2>/dev/null
[ -s /run/vmboot.expect ] || skip_all "boot 1 left no boot script on d22 (run 05-boot-script)"
home=/volume1/@mdprofile
chmod 0755 /volume1 "$home"
cp "$MDP" "$home/mdprofile"
expect_eq "$(ls -d /sys/block/md[0-9] 2>/dev/null)" "" "no array kept its boot 1 number"

md_of() {
	for m in /sys/block/md*; do
		u=$(mdadm --detail --export "/dev/${m##*/}" 2>/dev/null | sed -n 's/^MD_UUID=//p' | tr -d :)
		[ "$u" = "$1" ] && echo "${m##*/}" && return 0
	done
	return 1
}
# md5 of boot 1 comes back mid-reshape: the script must tune it all the same.
reshaping=$(md_of "$(cat /run/vmboot.reshaping)") || fail "the reshaping array is not assembled"
# Unless boot 1's 90-until-idle ran that reshape to its end: then it comes back idle
# at its new size (run the lab without 90-until-idle to boot mid-reshape).
if [ "$(cat "/sys/block/$reshaping/md/sync_action")" = reshape ]; then
	ok "$reshaping reshapes at boot"
else
	expect_eq "$(cat "/sys/block/$reshaping/md/raid_disks")" 4 \
		"$reshaping finished its reshape in boot 1 (90-until-idle) and is idle at 4 disks"
fi

# A syslog for logger(1), as DSM has one.
syslog_start /run/messages
snapshot "$VM_STATE/snap.b2-05"
run sh -c "cd / && exec env -i bash $home/mdprofile-vmboot.sh"
expect_exit 0 "the boot script under bash, env -i, cwd /"
output_match '^mdprofile: done, exit code 0$' "it says it is done"
kill "$SLOG"

while read -r uuid attr want; do
	if [ "$uuid" = - ]; then
		expect_eq "$(cat "$attr")" "$want" "$attr"
		continue
	fi
	md=$(md_of "$uuid") || { fail "no array with UUID $uuid"; continue; }
	expect_eq "$(cat "/sys/block/$md/$attr")" "$want" "$md ($uuid) $attr"
done </run/vmboot.expect
expect_match "$(cat /run/messages)" 'mdprofile: boot: applying profile vmboot' "syslog has the boot line"
expect_match "$(cat /run/messages)" 'mdprofile: done, exit code 0' "syslog has the last line"

mdp revert
expect_exit 0 "revert after the boot script"
expect_unchanged "$VM_STATE/snap.b2-05" "byte-identical to the boot's values after revert"
