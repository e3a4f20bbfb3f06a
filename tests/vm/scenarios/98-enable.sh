# 98-enable, boot 1 of the set-and-forget proof on a DSM-like box: the only
# DSM piece is tests/fakes' esynoscheduler (it behaves as src/boot/boot.c's DSM
# facts say DSM's does). `mdprofile enable low-ram --auto reshape-fast`
# applies low-ram now, as the base, creates the one boot-up task and starts
# the watcher now, under its keeper; the task database, the script and
# enable's record go to the spare disk d22 (at 4 MiB: 05-boot-script keeps the
# first MiB) for boot2/30-enable, which fires the boot-up event as DSM does
# at boot. Then, with no other command, a real recovery engages the watcher
# and its end releases it, the summary in the watcher's log while it still
# runs; a SIGKILL of the watcher shows in status (text, JSON, Prometheus: its
# keeper restarting it) and its keeper starts it again; `disable` leaves no
# mdprofile process and no layer (issue 34).
have_mdprofile || skip_all "no mdprofile in the image"
spare=$(serial_disk d22) || skip_all "no spare disk d22"

# the fake esynoscheduler at DSM's path, its state and log on the guest's own root
home=/volume1/@mdprofile
dsm_fakes "$home"

snapshot "$VM_STATE/snap.98"
run "$home/mdprofile" enable low-ram --auto reshape-fast --target dsm \
	--binary "$home/mdprofile" --wait-arrays 30 --recheck-after 2
expect_exit 0 "enable low-ram --auto reshape-fast --target dsm"
output_match '^created the Task Scheduler boot-up task mdprofile: /bin/bash /volume1/@mdprofile/mdprofile.sh$' \
	"it says it created the boot-up task"
run /usr/syno/sbin/esynoscheduler --get task_name=mdprofile
output_match '"enable" *: *true' "the task is stored enabled"
mdp status
output_joined_match " active profile: low-ram since $TS, applied by mdprofile enable " \
	"low-ram is active, by enable"
output_match '^enabled: profile low-ram at every boot, target dsm' "status says what is enabled"
run cat /run/mdprofile-auto.pid
KEEPER=$OUT
wait_line /run/mdprofile/watcher 'state armed' 10 "the watcher enable started is not armed"
W=$(sed -n 's/^pid //p' /run/mdprofile/watcher)
expect_match "$(cat /var/log/mdprofile-auto.log)" \
	"^$TS "'profile reshape-fast armed: ' "the watcher's log, its lines timed"

tar -cf - -C / volume1/@mdprofile/mdprofile.sh etc/mdprofile/enabled \
	var/lib/fake-esynoscheduler | dd of="$spare" bs=64k seek=64 conv=fsync 2>/dev/null
expect_eq "$?" 0 "the task, the script and the record kept on d22"

# A rebuild on a raid5 array (its last member failed, removed, added back): the
# watcher engages with no other command, and releases when the recovery ends.
md=$(arrays_of_level raid5 | head -1)
held_recovery "$md"
wait_engaged "the watcher did not engage on $md's recovery"
expect_match "$(cat /run/mdprofile/journal)" 'under "low-ram"' "reshape-fast over low-ram while $md recovers"
echo max >"/sys/block/$md/md/sync_max"
poll 0.2 300 "no release summary in the watcher's log within 60 s" \
	grep -Eq ' profile reshape-fast was on for [0-9hms ]+; [0-9]+ values? put back$' /var/log/mdprofile-auto.log
# md names a recovery for an instant after mdadm --fail (no spare yet, no
# thread): the watcher does not take it for one, and waits for md's reaping
# (md/degraded drops only then) before it says how the recovery ended.
expect_match "$(cat /var/log/mdprofile-auto.log)" " $md recover: finished, average [0-9]+ KiB/s" \
	"the log says the recovery finished, with its average"
grep -q " $md recover: stopped" /var/log/mdprofile-auto.log &&
	fail "a recovery 'stopped' in the log: $(grep " $md recover: " /var/log/mdprofile-auto.log)" ||
	ok "no recovery 'stopped' in the log (md's instant after --fail is none)"
running "$W" && ok "the summary is in the log while the watcher runs" || fail "the watcher ended"
journal_has 'profile "low-ram"' && ! grep -q '^under ' /run/mdprofile/journal &&
	ok "back to low-ram" || fail "not back to low-ram: $(cat /run/mdprofile/journal)"

# The watcher killed: status says so, in every format, while its keeper waits to start
# it again (10 s); then the keeper starts it again.
kill -KILL "$W"
wait_exit "$W" 5 || fail "SIGKILL did not end the watcher"
poll 0.1 50 "the keeper did not see the watcher die" \
	grep -q 'the watcher ended with exit code 137: starting it again in 10s' /var/log/mdprofile-auto.log
mdp status
# (status keeps within 80 columns: read joined)
output_joined_match " watcher mdprofile auto reshape-fast: restarting at $TS \\(in [0-9]+ s, keeper pid $KEEPER\\); to start it now: mdprofile enable low-ram --auto reshape-fast " \
	"status: the watcher restarting, by its keeper, and one remedy"
mdp status --json
output_match '"intact": false' "JSON: enabled.intact false"
output_match '"state": "restarting", "what": "watcher"|"what": "watcher", "where": "mdprofile auto reshape-fast", "state": "restarting"' \
	"JSON: the watcher's piece restarting"
mdp status --format prometheus
output_match '^mdprofile_watcher_running 0$' "Prometheus: mdprofile_watcher_running 0"
output_match '^mdprofile_enabled_intact 0$' "Prometheus: mdprofile_enabled_intact 0"
poll 0.5 60 "the keeper did not start the watcher again within 30 s" \
	sh -c 'p=$(sed -n "s/^pid //p" /run/mdprofile/watcher 2>/dev/null); [ -n "$p" ] && [ "$p" != "$1" ]' sh "$W"

# disable: no mdprofile process, no layer, the values from before enable.
mdp disable
expect_exit 0 "disable"
wait_exit "$KEEPER" 20 || fail "the keeper (pid $KEEPER) still runs after disable"
left=$(for p in /proc/[0-9]*; do tr '\000' ' ' <"$p/cmdline" 2>/dev/null | grep -q mdprofile && echo "${p#/proc/}"; done)
expect_eq "$left" "" "no mdprofile process after disable"
[ ! -e /run/mdprofile/journal ] && ok "no layer after disable" || fail "a journal after disable: $(cat /run/mdprofile/journal)"
expect_unchanged "$VM_STATE/snap.98" "the values from before enable"
