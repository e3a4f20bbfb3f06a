# 00-arrays: the lab itself: every array the guest built is running at the
# level it was made with, and the held resync/reshape are still in progress.
# Needs no mdprofile, so it also checks the lab while the tool cannot build.

level() {
	cat "/sys/block/$1/md/level" 2>/dev/null || echo "(no $1)"
}

action() {
	cat "/sys/block/$1/md/sync_action" 2>/dev/null || echo "(no $1)"
}

for pair in md0:raid1 md1:raid5 md2:raid6 md3:raid10 md4:raid5 md5:raid5; do
	md=${pair%%:*}
	expect_eq "$(level "$md")" "${pair#*:}" "$md is ${pair#*:}"
done
expect_eq "$(action md4)" resync "md4 is resyncing"
expect_eq "$(action md5)" reshape "md5 is reshaping"
expect_match "$(cat /sys/block/md5/md/raid_disks)" "^4 \(3\)$" "md5 grows from 3 to 4 disks"
expect_match "$(cat /proc/mdstat)" "^md5 : active raid5" "mdstat lists md5"
echo "    md5 sync_max=$(cat /sys/block/md5/md/sync_max) reshape_position=$(cat /sys/block/md5/md/reshape_position)"
# shellcheck disable=SC2009 # busybox ps, no pgrep in the guest
ps | grep -v '\[' | grep mdadm | sed 's/^/    /'
