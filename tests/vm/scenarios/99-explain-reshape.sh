# 99-explain-reshape: the reshape method on throttled disks (x01..x03, 8 MiB/s).
#  1. A chunk change on metadata 1.0 (the superblock at the end, no room to move the data
#     offset): mdadm copies every section to a backup file first and steps md through
#     suspend_lo/hi and sync_max. explain names reshape-method and recommends nothing.
#  2. The same chunk change on metadata 1.2 with room before the data: md moves the data
#     offset (new_offset != offset) and needs no copy. explain says so as information
#     and goes on to the other checks; it never names reshape-method.
have_mdprofile || skip_all "no mdprofile in the image"
X1=$(serial_disk x01) && X2=$(serial_disk x02) && X3=$(serial_disk x03) ||
	skip_all "no throttled disks x01..x03"
echo 1000 >/proc/sys/dev/raid/speed_limit_min
echo 200000 >/proc/sys/dev/raid/speed_limit_max

# reshape META [BACKUP]: a clean raid5 on x01..x03 (16 GiB sparse: far from finishing) changing its chunk
# from 64 to 128 KiB, through BACKUP when given
reshape() {
	mdadm -C /dev/md9 -R -q -l5 -n3 -c64 --bitmap=none --metadata="$1" \
		--assume-clean "$X1" "$X2" "$X3" 2>/dev/null || skip_all "cannot create md9 ($1)"
	mdadm --grow /dev/md9 --chunk=128 ${2:+--backup-file="$2"} >"$VM_STATE/grow.out" 2>&1 ||
		{
			fail "mdadm --grow --chunk=128 on metadata $1: $(cat "$VM_STATE/grow.out")"
			return 1
		}
	poll 0.2 50 "md9 ($1) never started its reshape" action_is md9 reshape || return 1
	sleep 3
}

# stop_md9 [backup]: md9 stopped and its disks wiped.
stop_md9() {
	# The mdadm that steps a backup-file reshape runs until the end: freeze md, stop that
	# mdadm, and lift the region it left suspended (I/O there would wait for ever, and
	# mdadm -S with it: seen on 6.1); then remove the link a killed mdadm leaves in /run.
	# A data-offset reshape has no such region: it is stopped as it runs. Freezing it
	# first blocked I/O in its window (udev's probe of md9), and the write to suspend_lo
	# then waited for that I/O for ever (5.10: hung tasks, the lab's timeout).
	[ "${1:-}" != backup ] || echo frozen >/sys/block/md9/md/sync_action 2>/dev/null
	killall mdadm >/dev/null 2>&1
	sleep 1
	if [ "${1:-}" = backup ]; then
		echo 0 >/sys/block/md9/md/suspend_lo 2>/dev/null
		echo 0 >/sys/block/md9/md/suspend_hi 2>/dev/null
	fi
	timeout 20 mdadm -S /dev/md9 >/dev/null 2>&1 || fail "mdadm -S /dev/md9 did not stop it"
	mdadm --zero-superblock "$X1" "$X2" "$X3" >/dev/null 2>&1
	rm -f /run/md9.backup /run/mdadm/backup_file-md9
}

if reshape 1.0 /run/md9.backup; then
	explain md9 --interval 4
	echo "explain: md9 reshaping through a backup file: $OUT"
	expect_eq "$(first_kind "$OUT")" reshape-method "explain: the backup copy sets the pace"
	expect_exit 0 "a backup-file reshape is nothing to change"
	output_match '"md/suspend_hi [0-9]+, md/sync_max [0-9]+: mdadm steps the reshape|backup_file-md9' \
		"explain: shows mdadm's stepping as evidence"
fi
stop_md9 backup

if reshape 1.2; then
	explain md9 --interval 4
	echo "explain: md9 reshaping by moving its data offset: $OUT"
	output_match 'new_offset differs from offset: the reshape moves the data offset' \
		"explain: the data offset moves, no backup copy"
	expect_eq "$(printf '%s\n' "$OUT" | grep -c '"kind": "reshape-method"')" 0 \
		"explain: no reshape-method finding without a backup file"
fi
stop_md9
