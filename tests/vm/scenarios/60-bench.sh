# 60-bench: bench on filesystems on real md arrays (issue 14): per level, the
# read made with O_DIRECT on the disks, the device and level named, nothing
# left behind; --op-only during a real reshape names md's own speed under two
# profiles and ends with the values from before.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.60"

# mkfs_mount MD DIR: a fresh ext2 on MD mounted at DIR (the lab's arrays are scratch).
mkfs_mount() {
	mkdir -p "$2"
	if mke2fs -q "/dev/$1" >/dev/null 2>&1 && mount -t ext4 "/dev/$1" "$2"; then
		ok "ext2 on $1 mounted at $2"
	else
		fail "cannot make or mount ext2 on $1"
	fi
}

for pair in md1:raid5 md3:raid10; do
	md=${pair%%:*}
	level=${pair#*:}
	mkfs_mount "$md" "/mnt/$md"
	mdp bench --path "/mnt/$md" --size 8MiB --runs 2 --json
	expect_exit 0 "bench on $level ($md)"
	output_match "\"device\": \"$md\", \"level\": \"$level\"" "bench names $md and $level"
	output_match '"method": "direct", "read_cached": false' "the read on $level bypassed the cache"
	output_match '"runs": \[\{"write_mb_s": [1-9]' "bench reports positive figures on $level"
	# shellcheck disable=SC2010 # hidden files too, counted
	expect_eq "$(ls -A "/mnt/$md" | grep -c mdprofile-bench)" 0 "no test file left on $md"
	mdp bench --path "/mnt/$md" --size 8MiB --runs 1
	output_match "^volume: /mnt/$md on $md \\($level, 4 disks\\)$" "text names the array"
done
# Without --path: the first md-backed mount in /proc/mounts.
mdp bench --size 4MiB --runs 1 --json
expect_exit 0 "bench finds a mounted md volume by itself"
output_match '"path": "/mnt/md[13]"' "the default volume is on md"
umount /mnt/md1 /mnt/md3

# md5 reshapes (held at its sync_max): md's speed under each profile, nothing written.
mdp bench --compare low-ram,reshape-fast --op-only --duration 2 --json
expect_exit 0 "bench --compare --op-only during a reshape"
output_match '"profile": "current", "current": true, "method": null, "sync": \[[^]]*"array": "md5", "action": "reshape"' \
	"md5's reshape measured under the settings it had first"
output_match '"profile": "low-ram", "current": false, "method": null, "sync": \[[^]]*"array": "md5", "action": "reshape"' \
	"md5's reshape measured under low-ram"
output_match '"profile": "reshape-fast", "current": false, "method": null, "sync": \[[^]]*"array": "md5", "action": "reshape"' \
	"md5's reshape measured under reshape-fast"
output_match '"reverted": true' "the comparison reverted"
snapshot "$VM_STATE/snap.60.after"
if cmp -s "$VM_STATE/snap.60" "$VM_STATE/snap.60.after"; then
	ok "every value is back to what it was before the comparison"
else
	fail "values differ after bench --compare"
fi
