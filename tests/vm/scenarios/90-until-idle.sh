# 90-until-idle: apply --until-idle over md5's real reshape (3 -> 4 disks) and
# md4's initial resync, which init.sh holds with md/sync_max: released here,
# they finish, the watcher notices and reverts, byte for byte. status --watch
# runs beside it and must show md4's resync and its end. Last in boot 1: the
# operations it lets finish cannot be held again.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.90"
# A syslog, as DSM has one: with stdout not a terminal (a log file here, nohup
# over SSH on a NAS) the watcher also logs what it says there.
syslog_start /run/messages.90

"$MDP" status --watch --interval 1 >"$VM_STATE/watch.log" 2>&1 &
WATCH=$!
"$MDP" apply --until-idle --interval 1 reshape-fast >"$VM_STATE/until.log" 2>&1 &
UNTIL=$!
wait_line /run/mdprofile/journal 'state active' 20 "apply --until-idle did not apply"
expect_eq "$(cat /sys/block/md5/md/sync_action)" reshape "md5 still reshaping when the watcher starts"
# hand the held operations back to md: they run to their end at the profile's speeds
for md in md4 md5; do
	echo max >/sys/block/$md/md/sync_max
done
finish_bg "$UNTIL" 60 "$VM_STATE/until.log" "mdprofile apply --until-idle reshape-fast"
expect_exit 0 "apply --until-idle ended by itself"
output_match "^($TS )?"'operations ended after .*; reverted$' "it says the operations ended and it reverted"
output_match "^($TS )?"'md5 reshape: finished, average [0-9]+ KiB/s$' "md5's reshape is in the summary"
expect_eq "$(cat /sys/block/md5/md/sync_action)" idle "md5's reshape is over"
expect_eq "$(cat /sys/block/md5/md/raid_disks)" 4 "md5 has 4 disks"
expect_eq "$(test -e /run/mdprofile/journal && echo left || echo gone)" gone "no journal left"
expect_unchanged "$VM_STATE/snap.90" "values restored byte for byte after the watcher's revert"
kill "$SLOG" 2>/dev/null
wait "$SLOG" 2>/dev/null || true
L=$(cat /run/messages.90)
expect_match "$L" 'user\.info mdprofile\[[0-9]+\]: profile reshape-fast: watching until no array' \
	"syslog: the watcher's start, as user.info under mdprofile[PID]"
expect_match "$L" 'user\.warn[a-z]* mdprofile\[[0-9]+\]: operations ended after' \
	"syslog: the end at user.warning, which DSM's syslog keeps"
expect_match "$L" 'mdprofile\[[0-9]+\]: md5 reshape: finished, average [0-9]+ KiB/s' \
	"syslog: md5's reshape in the summary"
expect_match "$L" 'mdprofile\[[0-9]+\]: operations ended after .*; reverted' "syslog: the revert"

sleep 1
kill -TERM $WATCH 2>/dev/null
wait $WATCH 2>/dev/null || true
W=$(cat "$VM_STATE/watch.log")
expect_match "$W" "^$TS "'md4 [a-z-]+, resync [0-9]+\.[0-9]%' "status --watch showed md4's resync"
expect_match "$W" "^$TS "'md4 [a-z-]+, idle$' "status --watch showed md4 go idle"
expect_match "$W" "^$TS "'md5 [a-z-]+, idle$' "status --watch showed md5's reshape end"
