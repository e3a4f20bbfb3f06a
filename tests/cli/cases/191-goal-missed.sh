# A goal missed with nothing left to give (issue 48): while the watcher is
# engaged and its word for status (/run/mdprofile/goal) says an array is over
# the goal with its minimum and maximum at the goal's floor, status says so
# in a line of its own, "missed_at_floor" in its JSON and
# mdprofile_goal_missed in Prometheus; a watcher that steers the maximum
# shows it. The watcher's side (when it says so, once an episode) is the unit
# tests' (test_watcher_goal, test_watcher_loop). A stand-in holds the watcher
# lock: status believes the word only while a watcher lives.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
printf 'goal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
run apply steady
expect_exit 0
S="$ROOT/run/mdprofile"
mkdir -p "$S" && chmod 0755 "$S"
printf 'mdprofile-watcher 1\npid %s\nmode auto\nprofile "steady"\nstate engaged\nsince 1\non reshape\nwhy ""\nend\n' $$ >"$S/watcher"
printf 'mdprofile-goal 1\ngoal 20\narray md3 10000 latency 250000 md max 10000 spent\narray md2 300000 idle max 200000\nend\n' >"$S/goal"
(
	exec 9>"$S/watcher.lock"
	flock 9
	echo held
	exec sleep 30
) >"$WORK/held" &
HOLDER=$!
wait_until 50 0.1 'grep -qs held "$WORK/held"' || fail "the stand-in did not take the watcher lock"

run status
expect_exit 0
stdout_line "goal: foreground latency 20 ms, steered by the watcher"
stdout_line "  md3: minimum 10000 KiB/s, maximum 10000 KiB/s; last look: latency 250.0 ms"
stdout_line "  md3: goal missed with nothing left to give: its limits are at the goal's floor"
stdout_line "  md2: minimum 300000 KiB/s, maximum 200000 KiB/s; last look: no foreground I/O"
run_expect 0 . - status --json
json_field .goal.arrays '[{"array":"md3","sync_speed_min_kib_s":10000,"sync_speed_max_kib_s":10000,"missed_at_floor":true,"foreground":"measured","latency_us":250000,"source":"md","on":"md3","shares":[],"percentile_us":null,"percentile_reads":0},{"array":"md2","sync_speed_min_kib_s":300000,"sync_speed_max_kib_s":200000,"missed_at_floor":false,"foreground":"idle","latency_us":null,"source":null,"on":null,"shares":[],"percentile_us":null,"percentile_reads":0}]'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_goal_missed{array="md3",device="md3"} 1'
stdout_line 'mdprofile_goal_missed{array="md2",device="md2"} 0'
stdout_line 'mdprofile_goal_sync_speed_max_bytes_per_second{array="md3",device="md3"} 10240000'
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null || : # ended by the kill
# no watcher: its word is not believed
run_expect 0 . - status --json
json_field .goal null
