# A goal steers the minimum (issue 40): apply --until-idle with a goal
# profile, on the seed DiskStation's reshape of md3. Between looks the case
# moves md3's counters (/sys/block/md3/stat) as a reader would: above the
# goal the minimum halves, from md's own speed (md3/md/sync_speed, 200000
# here) when the minimum is above it; well below the goal it stays while the
# wait after a back-off runs (the raises: unit tests); with no request through
# the array it is the profile's full minimum; each change
# is journaled and one line with its latency and the counters it came from.
# Where md counts requests but not their time (kernels before md's I/O
# accounting, DSM's), the member disks' counters stand in. The operation
# ends: the baseline is back byte for byte.
# tags: slow no-valgrind (a watcher in the background at a 1 s interval: timing)

P="$ROOT/etc/mdprofile/profiles"

# stat_md IOS TICKS: md3's counters, IOS reads of TICKS ms in all (11 fields, as 3.10 has).
stat_md() { echo "$1 0 $(($1 * 8)) $2 0 0 0 0 0 $2 $2" >"$ROOT/sys/block/md3/stat"; }
# stat_members IOS TICKS: each member partition's the same.
stat_members() {
	for m in sda/sda6 sdb/sdb6 sdd/sdd6; do
		echo "$1 0 $(($1 * 8)) $2 $1 0 $(($1 * 8)) $2 0 $2 $2" >"$ROOT/sys/block/$m/stat"
	done
}
min_is() { [ "$(cat "$ROOT/sys/block/md3/md/sync_speed_min")" = "$1 (local)" ]; }
# wait_min N, wait_goal LINE: md3's minimum is N; the watcher's word for status
# (/run/mdprofile/goal) has LINE. Each within 15 s (lib.sh's wait_until).
wait_min() {
	wait_until 150 0.1 "min_is $1" ||
		fail "timed out waiting for md3's minimum $1: $(cat "$ROOT/sys/block/md3/md/sync_speed_min")"
}
wait_goal() {
	wait_until 150 0.1 "grep -qx '$1' \"\$ROOT/run/mdprofile/goal\" 2>/dev/null" ||
		fail "timed out waiting for the watcher to say: $1"
}
flip_idle() {
	echo none >"$1/sys/block/md3/md/reshape_position"
	echo idle >"$1/sys/block/md3/md/sync_action"
	echo none >"$1/sys/block/md3/md/sync_completed"
	echo 0 >"$1/sys/block/md3/md/sync_speed"
	sed -i '/reshape =/d' "$1/proc/mdstat"
}
# The watcher's first look (just after its 'watching' line) takes the counters
# the next one measures from: they move half an interval later.
start_bg() {
	bg_start apply --until-idle --interval 1 "$@"
	wait_until 150 0.1 'grep -q "watching until" "$WORK/bg.out" 2>/dev/null' ||
		fail "the watcher did not start"
	sleep 0.5
	min_is 300000 || fail "the profile's minimum is not on"
}
finish_bg() {
	flip_idle "$ROOT"
	flip_idle "$WORK/snap"
	bg_finish
	sed -i -e 's/after [0-9hms ]*;/after T;/' -e 's/average [0-9]* KiB/average N KiB/' "$WORK/out"
	# the counters moved by the case itself
	rm -f "$ROOT"/sys/block/md3/stat "$ROOT"/sys/block/sd?/sd??/stat
}

setup() {
	fixture ds-dsm6-reshape
	mkdir -p "$P"
	printf 'description: keep the shares at 20 ms\ngoal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
	echo 200000 >"$ROOT/sys/block/md3/md/sync_speed" # md's speed, what it compares its minimum with
	snapshot
	stat_md 1000 "$1"
	stat_members 5000 50000
}

# md3's own counters, timed.
setup 10000
start_bg steady
stat_md 1100 14200 # 100 requests, 42 ms each: half md's speed
wait_min 100000
stat_md 1200 18400 # 42 ms again
wait_min 50000
# journaled as what the layer sets now: no drift, nothing put back
grep -qx 'set sync_speed_min md3 50000' "$ROOT/run/mdprofile/journal" ||
	fail "the journal does not follow the minimum: $(grep sync_speed_min "$ROOT/run/mdprofile/journal")"
stat_md 1300 19200 # 8 ms: below 0.8 of the goal, within the wait after a back-off: stays
# no request at the look after: the profile's minimum
wait_min 300000
stat_md 1400 21000 # 18 ms: within the band, stays
wait_goal 'array md3 300000 latency 18000 md'
# status while the watcher is held still (its next look would find no request)
kill -STOP "$(cat "$WORK/bg.pid")"
run status
expect_exit 0
stdout_line "goal: foreground latency 20 ms, steered by the watcher"
stdout_line "  md3: minimum 300000 KiB/s; last look: latency 18.0 ms (md3's own counters)"
run_expect 0 . - status --json
json_field .goal '{"foreground_latency_ms":20,"arrays":[{"array":"md3","sync_speed_min_kib_s":300000,"foreground":"measured","latency_us":18000,"source":"md"}]}'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_goal_latency_seconds 0.020'
stdout_line 'mdprofile_goal_sync_speed_min_bytes_per_second{array="md3",device="md3"} 307200000'
stdout_line 'mdprofile_goal_foreground_latency_seconds{array="md3",device="md3",source="md"} 0.018000'
# explain names the goal as the reason for md3's speed, first, and raises no limit beside it
run explain --interval 0.1 md3
expect_exit 0
[ "$(sed -n '/^  \(limits\|pacing\):/d; s/^  \([a-z-]*\): .*/\1/p' "$WORK/out" | sed -n 1p)" = goal ] ||
	fail "explain does not name the goal first: $(cat "$WORK/out")"
stdout_line "  goal: the watcher steers md3's minimum by a latency goal of 20 ms: now 300000 KiB/s, the shares' requests at 18.0 ms at its last look (the array's own counters)"
! grep -q '=> apply\|=> set' "$WORK/out" || fail "explain raises a limit beside the goal: $(cat "$WORK/out")"
kill -CONT "$(cat "$WORK/bg.pid")"
sleep 1.5
min_is 300000 || fail "a latency within the band changed the minimum"
grep -q 'md3: minimum' "$WORK/bg.out" || fail "no minimum line in the log"
run_expect 0 drift - diff
finish_bg
expect_exit 0
expect_stdout steer-md
expect_no_stderr
expect_unchanged "after the operation ended"

# md counts the requests but never their time: the members' counters.
setup 0
start_bg steady
stat_md 1100 0
stat_members 5100 70000 # 300 requests (100 each) in 60000 ms: 200 ms each, the sync's included
wait_min 100000
wait_min 300000
wait_goal 'array md3 300000 idle'
run_expect 0 . - status --json
json_field .goal.arrays '[{"array":"md3","sync_speed_min_kib_s":300000,"foreground":"idle","latency_us":null,"source":null}]'
finish_bg
expect_exit 0
expect_stdout steer-members
expect_no_stderr
expect_unchanged "after the operation ended (members)"
