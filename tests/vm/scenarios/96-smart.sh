# 96-smart: explain reads SMART with the real smartctl (issue 39) from the disks qemu
# emulates it on: s01, an ATA disk on the pc machine's PIIX IDE (sdX), and n01, an NVMe
# namespace (nvme0n1); c04, a virtio disk, has no SMART.
#  1. smartctl's own answers, printed with a prefix (SMART-ATA|, SMART-NVME|, SMART-VIRTIO|)
#     for comparison with tests/fakes/smartctl.
#  2. md30 raid1 over the three, resyncing (held under md30's own 1000 KiB/s): explain's
#     info line says the IDE and the NVMe disk pass, and names no virtio disk (smartctl
#     has no answer for it: unavailable, no evidence).
#  3. its capture holds each disk's smartctl output and exit status.
have_mdprofile || skip_all "no mdprofile in the image"
[ -x /usr/sbin/smartctl ] || skip_all "no smartctl in the image"

# ata_disk SERIAL: the sdX whose ATA serial (VPD page 0x80, libata's) is SERIAL
ata_disk() {
	for d in /sys/block/sd*; do
		grep -aq "$1" "$d/device/vpd_pg80" 2>/dev/null && echo "${d##*/}" && return 0
	done
	return 1
}

# nvme_disk SERIAL: the namespace whose controller's serial is SERIAL
nvme_disk() {
	for d in /sys/block/nvme*; do
		[ "$(sed 's/ *$//' "$d/device/serial" 2>/dev/null)" = "$1" ] && echo "${d##*/}" &&
			return 0
	done
	return 1
}

# The disks probe asynchronously after the modules load: 10 s at most.
poll 0.2 50 "no ATA disk with serial s01" ata_disk s01 >/dev/null || skip_all "no IDE disk"
poll 0.2 50 "no NVMe disk with serial n01" nvme_disk n01 >/dev/null || skip_all "no NVMe disk"
S=$(ata_disk s01)
N=$(nvme_disk n01)
V=$(serial_disk c04) || skip_all "no virtio disk c04"
V=${V#/dev/}
echo "smart: IDE $S, NVMe $N, virtio $V"

# 1. what smartctl itself says, as explain runs it
for p in "ATA $S" "NVME $N" "VIRTIO $V"; do
	run smartctl -n standby -H -A -f brief "/dev/${p#* }"
	printf '%s\n' "$OUT" | sed "s/^/SMART-${p% *}| /"
	echo "SMART-${p% *}| exit $RC"
	eval "RC_${p% *}=\$RC"
done
# shellcheck disable=SC2154 # set by the eval above
expect_eq "$RC_ATA/$RC_NVME" 0/0 "smartctl: the IDE and the NVMe disk answer, exit 0"

# 2. explain on a resync over the three
mdadm -C /dev/md30 -R -q -l1 -n3 --bitmap=none "/dev/$S" "/dev/$N" "/dev/$V" 2>/dev/null ||
	skip_all "cannot create md30"
echo 1000 >/sys/block/md30/md/sync_speed_max
sleep 1
explain md30 --interval 2 --capture /tmp/smart.tar
expect_eq "$([ "$RC" -le 1 ] && echo ok || echo "$RC")" ok "explain md30 runs (exit 0 or 1)"
L=$(printf '%s\n' "$OUT" | grep -o '"SMART (smartctl): [^"]*"')
echo "smart: explain: $L"
expect_match "$L" "[ ,]${S}[ ,].*pass, no pending or uncorrectable sectors" \
	"explain: $S (IDE) passes SMART"
expect_match "$L" "[ ,]${N}[ ,].*pass, no pending or uncorrectable sectors" \
	"explain: $N (NVMe) passes SMART"
expect_eq "$(printf '%s\n' "$L" | grep -c "$V")" 0 "explain: $V (virtio) has no SMART to name"

# 3. the capture: smartctl's own words and exit status per disk
rm -rf /tmp/smart.x && mkdir /tmp/smart.x
tar xf /tmp/smart.tar -C /tmp/smart.x .explain/smart 2>/dev/null
C=/tmp/smart.x/.explain/smart
A=$(cat "$C/$S" 2>/dev/null)
expect_match "$A" '^SMART overall-health self-assessment test result: PASSED' \
	"capture: $S's health line"
expect_match "$A" '^ *5 Reallocated_Sector_Ct ' "capture: $S's attribute table"
expect_match "$(cat "$C/$N" 2>/dev/null)" '^Critical Warning: +0x00$' "capture: $N's NVMe log"
expect_eq "$(cat "$C/$S.exit" "$C/$N.exit" "$C/$V.exit" 2>/dev/null | tr '\n' /)" \
	"0/0/$RC_VIRTIO/" "capture: the exit statuses"
mdadm -S /dev/md30 >/dev/null 2>&1
mdadm --zero-superblock "/dev/$S" "/dev/$N" "/dev/$V" >/dev/null 2>&1
