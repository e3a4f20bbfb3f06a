# 95-until-idle-stopped-array: apply --until-idle while md1 and md2 run a
# check (held with md/sync_max); md2 is stopped (mdadm --stop) under the
# watcher. Once an array is stopped, kernfs answers every poll() of its
# md/sync_action at once with POLLERR: the watcher must not spin on it (its
# CPU time stays low) and must call md2's check "stopped (array gone)", not
# finished. SIGTERM ends the wait (md4/md5 may still be held when run alone).
have_mdprofile || skip_all "no mdprofile in the image"

# CPU time of a process in clock ticks (utime + stime).
ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

for md in md1 md2; do
	echo 8192 >/sys/block/$md/md/sync_max
	echo check >/sys/block/$md/md/sync_action
done
sleep 1
expect_eq "$(cat /sys/block/md1/md/sync_action) $(cat /sys/block/md2/md/sync_action)" "check check" \
	"md1 and md2 run a check, held"

"$MDP" apply --until-idle --interval 1 reshape-fast >"$VM_STATE/until95.log" 2>&1 &
UNTIL=$!
wait_line /run/mdprofile/journal 'state active' 20 "apply --until-idle did not apply"
sleep 1
mdadm --stop /dev/md2 >/dev/null 2>&1 || fail "mdadm --stop /dev/md2 failed"
sleep 1
t0=$(ticks $UNTIL)
sleep 4
t1=$(ticks $UNTIL)
spent=$((t1 - t0))
if kill -0 $UNTIL 2>/dev/null && [ "$spent" -le 80 ]; then
	ok "the watcher stays idle after md2 was stopped ($spent ticks in 4 s)"
else
	fail "the watcher spins after md2 was stopped: $spent ticks in 4 s (alive: $(kill -0 $UNTIL 2>/dev/null && echo yes || echo no))"
fi
# SIGTERM: it reverts now (run alone, without 90, md4 and md5 are still held
# in progress, so it would otherwise wait on them too)
stop_bg "$UNTIL" 30 "$VM_STATE/until95.log" "mdprofile apply --until-idle reshape-fast"
expect_exit 0 "apply --until-idle reverted on SIGTERM"
output_match "^($TS )?"'stopped by SIGTERM after .*; reverted$' "it says it reverted"
output_match "^($TS )?"'md2 check: stopped \(array gone\), average [0-9]+ KiB/s$' \
	"md2's check is said stopped with its array, not finished"
output_match "^($TS )?"'md1 check: unfinished, at [0-9]+\.[0-9]%, average [0-9]+ KiB/s$' "md1's check is in the summary"
expect_eq "$(test -e /run/mdprofile/journal && echo left || echo gone)" gone "no journal left"
expect_eq "$(cat /proc/sys/dev/raid/speed_limit_min)" 1000 "speed_limit_min is back"

# md1 and md2 as they were, for what comes after (boot 2 assembles every array anyway)
echo idle >/sys/block/md1/md/sync_action
echo max >/sys/block/md1/md/sync_max 2>/dev/null || true
# shellcheck disable=SC2046
mdadm --assemble /dev/md2 --run $(for s in d07 d08 d09 d10; do serial_disk $s; done) \
	>/dev/null 2>&1 || fail "md2 could not be assembled again"
