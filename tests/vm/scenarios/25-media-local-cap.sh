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
assert_eq "$(printf '%s\n' "$SSD" | grep -c .)" 3 "md4's three disks found"
FIRST=$(printf '%s\n' "$SSD" | head -n 1)

# media of array $1 in `status --json` (OUT): the field comes before its members.
media_of() {
	printf '%s\n' "$OUT" | grep -o "\"name\": \"$1\"[^}]*\"media\": [a-z\"]*" |
		sed 's/.*"media": //'
}

mdp status
assert_exit 0 "status"
assert_out '^md4 +raid5 +3 hdd disks ' "virtio disks are rotational: md4 is hdd"
for d in $SSD; do
	echo 0 >"/sys/block/$d/queue/rotational"
done
assert_eq "$(cat "/sys/block/$FIRST/queue/rotational")" 0 "the kernel took rotational 0"
mdp status
assert_exit 0 "status with md4 on non-rotational disks"
assert_out '^md4 +raid5 +3 ssd disks ' "status names md4's class ssd"
assert_out '^md1 +raid5 +4 hdd disks ' "md1 stays hdd"
mdp --json status
assert_exit 0 "status --json"
assert_eq "$(media_of md4)" '"ssd"' "status --json: md4 media ssd"
assert_eq "$(media_of md1)" '"hdd"' "status --json: md1 media hdd"

# A profile selecting by class: only the ssd array.
cat >"$PROFILES/by-class.yaml" <<'YAML'
description: read-ahead by disk class
arrays:
  - match: {media: ssd}
    read_ahead: 4MiB
YAML
mdp diff "$PROFILES/by-class.yaml"
assert_exit 1 "diff by-class has a change"
assert_match "$(section "$OUT" "md4 ")" 'read_ahead .* -> 4 MiB' "the media rule selects md4"
assert_eq "$(section "$OUT" "md1 ")" "" "and not md1 (hard disks)"

# md5's own cap.
echo 5000 >/sys/block/md5/md/sync_speed_max
assert_eq "$(cat /sys/block/md5/md/sync_speed_max)" "5000 (local)" "md5 capped locally"
# DSM's ceiling alone (balanced's caches do not fit the lab's 1 GiB with five parity arrays).
cat >"$PROFILES/dsm-max.yaml" <<'YAML'
description: DSM's maximum, nothing per array
raid:
  speed_limit_max: 600000
YAML
mdp diff "$PROFILES/dsm-max.yaml"
assert_exit 1 "diff dsm-max"
assert_out "^  md5: its own sync_speed_max 5000 \(local\) caps it below the profile's speed_limit_max 600000" \
	"diff names md5's own cap for a profile that leaves it alone"
mdp diff reshape-fast
assert_exit 1 "diff reshape-fast"
assert_match "$(section "$OUT" "md5 ")" 'sync_speed_max .* -> system' "reshape-fast lifts md5's cap"
assert_match "$(section "$OUT" "md4 ")" 'sync_speed_min .* -> 1000000 KiB/s' \
	"reshape-fast's media rule raises the ssd array's own minimum"
assert_eq "$(section "$OUT" "md1 " | grep sync_speed_min)" "" "not the hard disks' md1"

snapshot "$VM_STATE/snap.25"
mdp apply reshape-fast
assert_exit 0 "apply reshape-fast"
max=$(cat /proc/sys/dev/raid/speed_limit_max)
assert_eq "$(cat /sys/block/md5/md/sync_speed_max)" "$max (system)" "md5 follows the sysctl again"
assert_eq "$(cat /sys/block/md4/md/sync_speed_min)" "1000000 (local)" "md4's own minimum 1000000"
assert_eq "$(cat /sys/block/md1/md/sync_speed_min)" "$(cat /proc/sys/dev/raid/speed_limit_min) (system)" \
	"md1 follows the sysctl"
mdp diff reshape-fast
assert_exit 0 "diff after apply is in sync"
mdp revert
assert_exit 0 "revert"
assert_snapshot "$VM_STATE/snap.25" "revert restored every value byte for byte"
assert_eq "$(cat /sys/block/md5/md/sync_speed_max)" "5000 (local)" "md5's own cap is back"

# Leave the lab as found.
echo system >/sys/block/md5/md/sync_speed_max
for d in $SSD; do
	echo 1 >"/sys/block/$d/queue/rotational"
done
assert_snapshot "$VM_STATE/snap.25.start" "the lab is as it was"
