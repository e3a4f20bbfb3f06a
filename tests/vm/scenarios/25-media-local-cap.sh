# 25-media-local-cap: disk classes and an array's own cap on the real kernel.
# virtio disks read rotational 1 (hdd); md4's three members marked non-rotational
# make it an ssd array, which status names and reshape-fast's media rule selects.
# md5 (the reshape) held by its own sync_speed_max 5000: diff names the cap,
# reshape-fast lifts it, revert puts "5000 (local)" back.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.25.start"

# The whole disks behind the host's serials.
disks_of() {
	for s in "$@"; do
		d=$(serial_disk "$s") && echo "${d#/dev/}"
	done
}
SSD=$(disks_of d15 d16 d17) # md4's members
expect_eq "$(printf '%s\n' "$SSD" | grep -c .)" 3 "md4's three disks found"
FIRST=$(printf '%s\n' "$SSD" | head -n 1)

# media of array $1 in `status --json` (OUT): the field comes before its members.
media_of() {
	printf '%s\n' "$OUT" | grep -o "\"name\": \"$1\"[^}]*\"media\": [a-z\"]*" |
		sed 's/.*"media": //'
}

mdp status
expect_exit 0 "status"
output_match '^md4 +raid5 +3 hdd disks ' "virtio disks are rotational: md4 is hdd"
for d in $SSD; do
	echo 0 >"/sys/block/$d/queue/rotational"
done
expect_eq "$(cat "/sys/block/$FIRST/queue/rotational")" 0 "the kernel took rotational 0"
mdp status
expect_exit 0 "status with md4 on non-rotational disks"
output_match '^md4 +raid5 +3 ssd disks ' "status names md4's class ssd"
output_match '^md1 +raid5 +4 hdd disks ' "md1 stays hdd"
mdp --json status
expect_exit 0 "status --json"
expect_eq "$(media_of md4)" '"ssd"' "status --json: md4 media ssd"
expect_eq "$(media_of md1)" '"hdd"' "status --json: md1 media hdd"

# A profile selecting by class: only the ssd array.
cat >"$PROFILES/by-class.yaml" <<'YAML'
description: read-ahead by disk class
arrays:
  - match: {media: ssd}
    read_ahead: 4MiB
YAML
mdp diff "$PROFILES/by-class.yaml"
expect_exit 1 "diff by-class has a change"
expect_match "$(section "$OUT" "md4 ")" 'read_ahead .* -> 4 MiB' "the media rule selects md4"
expect_eq "$(section "$OUT" "md1 ")" "" "and not md1 (hard disks)"

# md5's own cap.
echo 5000 >/sys/block/md5/md/sync_speed_max
expect_eq "$(cat /sys/block/md5/md/sync_speed_max)" "5000 (local)" "md5 capped locally"
# DSM's ceiling alone (balanced's caches do not fit the lab's 1 GiB with five parity arrays).
cat >"$PROFILES/dsm-max.yaml" <<'YAML'
description: DSM's maximum, nothing per array
raid:
  speed_limit_max: 600000
YAML
mdp diff "$PROFILES/dsm-max.yaml"
expect_exit 1 "diff dsm-max"
output_match "^  md5: its own sync_speed_max 5000 \(local\) caps it below the profile's speed_limit_max 600000" \
	"diff names md5's own cap for a profile that leaves it alone"
mdp diff reshape-fast
expect_exit 1 "diff reshape-fast"
expect_match "$(section "$OUT" "md5 ")" 'sync_speed_max .* -> system' "reshape-fast lifts md5's cap"
expect_match "$(section "$OUT" "md4 ")" 'sync_speed_min .* -> 1000000 KiB/s' \
	"reshape-fast's media rule raises the ssd array's own minimum"
expect_eq "$(section "$OUT" "md1 " | grep sync_speed_min)" "" "not the hard disks' md1"

snapshot "$VM_STATE/snap.25"
mdp apply reshape-fast
expect_exit 0 "apply reshape-fast"
max=$(cat /proc/sys/dev/raid/speed_limit_max)
expect_eq "$(cat /sys/block/md5/md/sync_speed_max)" "$max (system)" "md5 follows the sysctl again"
expect_eq "$(cat /sys/block/md4/md/sync_speed_min)" "1000000 (local)" "md4's own minimum 1000000"
expect_eq "$(cat /sys/block/md1/md/sync_speed_min)" "$(cat /proc/sys/dev/raid/speed_limit_min) (system)" \
	"md1 follows the sysctl"
mdp diff reshape-fast
expect_exit 0 "diff after apply is in sync"
mdp revert
expect_exit 0 "revert"
expect_unchanged "$VM_STATE/snap.25" "revert restored every value byte for byte"
expect_eq "$(cat /sys/block/md5/md/sync_speed_max)" "5000 (local)" "md5's own cap is back"

# Leave the lab as found.
echo system >/sys/block/md5/md/sync_speed_max
for d in $SSD; do
	echo 1 >"/sys/block/$d/queue/rotational"
done
expect_unchanged "$VM_STATE/snap.25.start" "the lab is as it was"
