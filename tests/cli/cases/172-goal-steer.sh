# A goal steers the minimum (issue 40), as the binary runs it: apply
# --until-idle with a goal profile, on the seed DiskStation's reshape of
# md3. Between looks the case moves md3's counters (/sys/block/md3/stat) as
# a reader would: above the goal the minimum comes down by goal / latency,
# from md's own speed (md3/md/sync_speed, 200000 here) when the minimum is
# above it, journaled
# (no drift) and said in one line with its latency and the counters it
# came from; status, its JSON and Prometheus, and explain show it; with no
# request through the array it is the profile's full minimum again. A stop
# signal reverts: the baseline is back byte for byte, and the summary gives
# the time over the goal and the limits' range. The controller's
# other moves, the members' counters where md does not time its requests
# and the loop around them are the unit tests' (test_goal, test_watcher_goal,
# test_watcher_loop).
# tags: slow no-valgrind (a watcher in the background at a 1 s interval: timing)

P="$ROOT/etc/mdprofile/profiles"

# stat_md IOS TICKS: md3's counters, IOS reads of TICKS ms in all (11 fields, as 3.10 has).
stat_md() { echo "$1 0 $(($1 * 8)) $2 0 0 0 0 0 $2 $2" >"$ROOT/sys/block/md3/stat"; }
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
# The watcher's first look (just after its 'watching' line) takes the counters
# the next one measures from: they move half an interval later.
start_bg() {
	bg_start apply --until-idle --interval 1 "$@"
	wait_until 150 0.1 'grep -q "watching until" "$WORK/bg.out" 2>/dev/null' ||
		fail "the watcher did not start"
	sleep 0.5
	min_is 300000 || fail "the profile's minimum is not on"
}

fixture ds-dsm6-reshape
mkdir -p "$P"
printf 'description: keep the shares at 20 ms\ngoal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
echo 200000 >"$ROOT/sys/block/md3/md/sync_speed" # md's speed, what it compares its minimum with
snapshot
stat_md 1000 10000

start_bg steady
stat_md 1100 14200 # 100 requests, 42 ms each: 20 / 42 of md's speed
wait_min 95200
wait_goal 'array md3 95200 latency 42000 md max 200000'
# journaled as what the layer sets now: no drift, nothing put back
grep -qx 'set sync_speed_min md3 95200' "$ROOT/run/mdprofile/journal" ||
	fail "the journal does not follow the minimum: $(grep sync_speed_min "$ROOT/run/mdprofile/journal")"
# status while the watcher is held still (its next look would find no request)
kill -STOP "$(cat "$WORK/bg.pid")"
run status
expect_exit 0
stdout_line "goal: foreground latency 20 ms, steered by the watcher"
stdout_line "  md3: minimum 95200 KiB/s, maximum 200000 KiB/s; last look: latency 42.0 ms"
stdout_line "    (md3's own counters)"
run_expect 0 . - status --json
json_field .goal '{"foreground_latency_ms":20,"percentile":null,"arrays":[{"array":"md3","sync_speed_min_kib_s":95200,"sync_speed_max_kib_s":200000,"missed_at_floor":false,"foreground":"measured","latency_us":42000,"source":"md","on":"md3","shares":[],"percentile_us":null,"percentile_reads":0}]}'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_goal_latency_seconds 0.020'
stdout_line 'mdprofile_goal_sync_speed_min_bytes_per_second{array="md3",device="md3"} 97484800'
stdout_line 'mdprofile_goal_sync_speed_max_bytes_per_second{array="md3",device="md3"} 204800000'
stdout_line 'mdprofile_goal_missed{array="md3",device="md3"} 0'
stdout_line 'mdprofile_goal_foreground_latency_seconds{array="md3",device="md3",source="md",on="md3"} 0.042000'
# explain names the goal as the reason for md3's speed, first, and raises no limit beside it
run explain --interval 0.1 md3
expect_exit 0
[ "$(sed -n '/^  \(limits\|pacing\):/d; s/^  \([a-z-]*\): .*/\1/p' "$WORK/out" | sed -n 1p)" = goal ] ||
	fail "explain does not name the goal first: $(cat "$WORK/out")"
stdout_line "  goal: the watcher steers md3's minimum by a latency goal of 20 ms: now 95200 KiB/s, the shares' requests at 42.0 ms at its last look (the array's own counters)"
! grep -q '=> apply\|=> set' "$WORK/out" || fail "explain raises a limit beside the goal: $(cat "$WORK/out")"
run_expect 0 drift - diff
kill -CONT "$(cat "$WORK/bg.pid")"
# no request at the look after: the profile's minimum, and status says idle
wait_min 300000
wait_goal 'array md3 300000 idle max 200000'
run_expect 0 . - status --json
json_field .goal.arrays '[{"array":"md3","sync_speed_min_kib_s":300000,"sync_speed_max_kib_s":200000,"missed_at_floor":false,"foreground":"idle","latency_us":null,"source":null,"on":null,"shares":[],"percentile_us":null,"percentile_reads":0}]'
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
sed -i -e 's/after [0-9hms ]*;/after T;/' -e 's/average [0-9]* KiB/average N KiB/' \
	-e 's/goal for [0-9hms ]* of [0-9hms ]* steered/goal for T of T steered/' "$WORK/out"
# the counters moved by the case itself
rm -f "$ROOT"/sys/block/md3/stat
expect_exit 0
expect_stdout steer-md
expect_no_stderr
expect_unchanged "after SIGTERM"
