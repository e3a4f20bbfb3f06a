# A goal sees the foreground on every array sharing a disk with the one it
# steers (issue 48): on the seed DiskStation md3's reshape runs on sda, sdb
# and sdd, which carry md0 (DSM's system) too. A reader of md0 at 42 ms, with
# nothing through md3 itself, backs md3's minimum off, and the watcher's
# line, status, its JSON, Prometheus and explain name md0 and the disks it shares; then
# how they show a percentile goal's measure.
# Which peers an array has and which one steers are the unit tests'
# (test_iostat's test_peers, test_watcher_goal's test_shared_disks).
# tags: slow no-valgrind (a watcher in the background at a 1 s interval: timing)

P="$ROOT/etc/mdprofile/profiles"

# stat_of DEV IOS TICKS: DEV's counters, IOS reads of TICKS ms in all (11 fields, as 3.10 has).
stat_of() { echo "$2 0 $(($2 * 8)) $3 0 0 0 0 0 $3 $3" >"$ROOT/sys/block/$1/stat"; }
min_is() { [ "$(cat "$ROOT/sys/block/md3/md/sync_speed_min")" = "$1 (local)" ]; }

fixture ds-dsm6-reshape
mkdir -p "$P"
printf 'goal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
echo 200000 >"$ROOT/sys/block/md3/md/sync_speed"
snapshot
stat_of md3 1000 10000
stat_of md0 500 2000

bg_start apply --until-idle --interval 1 steady
wait_until 150 0.1 'grep -q "watching until" "$WORK/bg.out" 2>/dev/null' || fail "the watcher did not start"
sleep 0.5
stat_of md0 600 6200 # 100 requests through md0, 42 ms each; none through md3
wait_until 150 0.1 "min_is 95200" || fail "md3's minimum did not back off: $(cat "$ROOT/sys/block/md3/md/sync_speed_min")"
wait_until 150 0.1 "grep -qx 'on md3 md0 sda,sdb,sdd' \"\$ROOT/run/mdprofile/goal\" 2>/dev/null" ||
	fail "the watcher does not say md0 steers: $(cat "$ROOT/run/mdprofile/goal")"
kill -STOP "$(cat "$WORK/bg.pid")"
run status
expect_exit 0
stdout_line "  md3: minimum 95200 KiB/s, maximum 200000 KiB/s; last look: latency 42.0 ms on"
stdout_line "    md0 (shares sda, sdb, sdd)"
run_expect 0 . - status --json
json_field .goal.arrays '[{"array":"md3","sync_speed_min_kib_s":95200,"sync_speed_max_kib_s":200000,"missed_at_floor":false,"foreground":"measured","latency_us":42000,"source":"md","on":"md0","shares":["sda","sdb","sdd"],"percentile_us":null,"percentile_reads":0}]'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_goal_foreground_latency_seconds{array="md3",device="md3",source="md",on="md0"} 0.042000'
run explain --interval 0.1 md3
expect_exit 0
stdout_line "  goal: the watcher steers md3's minimum by a latency goal of 20 ms: now 95200 KiB/s, the shares' requests at 42.0 ms at its last look (on md0, which shares sda, sdb, sdd with it)"
# a percentile goal's view, as a watcher that timed reads of a real md3 writes it (a fixture
# has no device to read: test_watcher_goal's test_percentile times reads of its own)
printf 'mdprofile-goal 1\ngoal 20\npercentile 95\narray md3 100000 latency 31500 probe\ntail md3 31500 17\nend\n' >"$ROOT/run/mdprofile/goal"
run status
expect_exit 0
stdout_line "goal: foreground latency 20 ms at the 95th percentile, steered by the watcher"
stdout_line "  md3: minimum 100000 KiB/s; last look: latency 31.5 ms (p95 of the watcher's"
stdout_line "    last 17 timed reads)"
run_expect 0 . - status --json
json_field .goal '{"foreground_latency_ms":20,"percentile":95,"arrays":[{"array":"md3","sync_speed_min_kib_s":100000,"sync_speed_max_kib_s":null,"missed_at_floor":false,"foreground":"measured","latency_us":31500,"source":"probe","on":"md3","shares":[],"percentile_us":31500,"percentile_reads":17}]}'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_goal_percentile 95'
stdout_line 'mdprofile_goal_read_latency_percentile_seconds{array="md3",device="md3",percentile="95"} 0.031500'
kill -CONT "$(cat "$WORK/bg.pid")"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
stdout_line "md3: minimum 300000 -> 95200 KiB/s (latency 42.0 ms > goal 20 ms, on md0 (shares sda, sdb, sdd))"
rm -f "$ROOT"/sys/block/md3/stat "$ROOT"/sys/block/md0/stat
expect_unchanged "after SIGTERM"
