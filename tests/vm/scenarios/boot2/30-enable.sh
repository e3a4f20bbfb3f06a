# boot2/30-enable: the boot-up event fired as DSM fires it at boot runs the
# one task 98-enable created in boot 1 (bash, env -i, cwd /): low-ram is
# applied as the base, "at boot", and the watcher is started in a session of
# its own. A real recovery engages it (reshape-fast over low-ram), its end
# releases it back to low-ram; `mdprofile disable` then deletes the task,
# stops the watcher and restores the values the boot found, byte for byte.
have_mdprofile || skip_all "no mdprofile in the image"
spare=$(serial_disk d22) || skip_all "no spare disk d22"
dd if="$spare" bs=64k skip=64 count=16 2>/dev/null | tar -xf - -C / 2>/dev/null
[ -s /etc/mdprofile/enabled ] || skip_all "boot 1 left no enabled record on d22 (run 98-enable)"
home=/volume1/@mdprofile
dsm_fakes "$home"


syslog_start /run/messages
snapshot "$VM_STATE/snap.b2-30"
run sh -c "cd / && exec env -i /usr/syno/sbin/esynoscheduler --fireEvent event=bootup"
expect_exit 0 "esynoscheduler --fireEvent event=bootup"
kill "$SLOG"
expect_match "$(cat /run/messages)" 'mdprofile: boot: applying profile low-ram' "syslog has the boot line"
expect_match "$(cat /run/messages)" 'mdprofile: starting the watcher: mdprofile auto reshape-fast' \
	"syslog says the watcher starts"
wait_line /run/mdprofile/watcher 'state armed' 20 "the watcher the boot task started did not arm"
AUTO=$(cat /run/mdprofile-auto.pid 2>/dev/null)
W=$(sed -n 's/^pid //p' /run/mdprofile/watcher)
mdp status
output_match '^active profile: low-ram since .*, applied at boot$' "low-ram is the base, applied at boot"
output_match "^watcher: auto reshape-fast \\(pid $W\\)" "the watcher runs"
expect_match "$(tr '\000' ' ' <"/proc/$AUTO/cmdline")" '/volume1/@mdprofile/mdprofile.sh keep-auto' \
	"the script's keeper keeps it"
expect_eq "$(cut -d' ' -f6 "/proc/$AUTO/stat")" "$AUTO" "the keeper has a session of its own"

# A rebuild starts on a raid5 array: fail, remove and add back its last member.
md=$(arrays_of_level raid5 | head -1)
held_recovery "$md"
wait_engaged "the watcher did not engage on $md's recovery"
expect_match "$(cat /run/mdprofile/journal)" 'under "low-ram"' "reshape-fast over low-ram while $md recovers"
echo max >"/sys/block/$md/md/sync_max"
i=0
until [ "$(cat "/sys/block/$md/md/sync_action")" = idle ] && journal_has 'profile "low-ram"' &&
	! grep -q '^under ' /run/mdprofile/journal; do
	i=$((i + 1))
	[ $i -lt 600 ] || { fail "not back to low-ram within 60 s of $md's recovery"; break; }
	sleep 0.1
done
expect_match "$(cat /run/mdprofile/journal)" 'by boot' "back to the boot's low-ram"

mdp disable
expect_exit 0 "disable"
run /usr/syno/sbin/esynoscheduler --get task_name=mdprofile
output_match 'jOut=null' "the task is gone"
for p in "$W" "$AUTO"; do
	if [ -n "$p" ] && wait_exit "$p" 30; then
		ok "disable stopped the watcher and its keeper ($p)"
	else
		fail "pid $p still runs 30 s after disable"
		kill -KILL "$p" 2>/dev/null
	fi
done
expect_unchanged "$VM_STATE/snap.b2-30" "the values the boot found, byte for byte"
