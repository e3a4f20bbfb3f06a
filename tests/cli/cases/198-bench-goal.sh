# bench --compare of a goal profile (issue 48): its row is steered as auto steers it, a look
# a second from the apply on (the settle too), and beside md's speed it reports what the
# goal measured in the window: the foreground latency at its looks (the slowest of the
# array's own requests and those of the arrays and partitions on its disks), their mean and
# how many looks had requests. bench has no client of its own: this is the goal's measure,
# and the output says so ("foreground ... at 1 of its 3 looks"). Between the looks the case
# moves md3's counters as a reader would: 100 requests of 42 ms against a goal of 20 ms, so
# that look's move writes the minimum down (journaled); the revert puts everything back.
# tags: slow no-valgrind (windows of 3 and 2 s, 2 s settles, the counters moved between looks)

P="$ROOT/etc/mdprofile/profiles"
stat_md() { echo "$1 0 $(($1 * 8)) $2 0 0 0 0 0 $2 $2" >"$ROOT/sys/block/md3/stat"; }
min_is() { [ "$(cat "$ROOT/sys/block/md3/md/sync_speed_min")" = "$1 (local)" ]; }

fixture ds-dsm6-reshape
mkdir -p "$P"
printf 'description: keep the shares at 20 ms\ngoal: {foreground_latency_ms: 20}\narrays:\n  - match: {names: [md3]}\n    sync_speed_min: 300000\n' >"$P/steady.yaml"
echo 200000 >"$ROOT/sys/block/md3/md/sync_speed"
stat_md 1000 10000
snapshot

# The looks: at the apply (counters to measure from), 1 s later, then the window's at 2, 3
# and 4 s. The counters move at 2.5 s: the look at 3 s measures them, the others none.
run_bg bench --op-only --duration 3 --compare steady
wait_until 150 0.1 'min_is 300000' || fail "bench did not apply steady"
sleep 2.5
stat_md 1100 14200
wait "$BGPID" && RC=0 || RC=$?
expect_exit 0
expect_stdout <<'OUT'
current          md3 reshape 200000 KiB/s
steady           md3 reshape 200000 KiB/s (goal 20 ms: foreground 42.0 ms at 1 of its 3 looks)
reverted to the values from before
OUT
expect_no_stderr
# revert put back the minimum the goal steered (the counters are the case's own)
stat_md 1000 10000
expect_unchanged "bench --compare of a goal profile"

# --json, the counters still: no look had a request; what was measured is said as such
run bench --op-only --duration 2 --compare steady --json
expect_exit 0
expect_json <<'OUT'
{
 "compare": [
  {
   "profile": "current",
   "current": true,
   "method": null,
   "sync": [
    {
     "array": "md3",
     "action": "reshape",
     "speed_kib_s": 200000
    }
   ]
  },
  {
   "profile": "steady",
   "current": false,
   "method": null,
   "sync": [
    {
     "array": "md3",
     "action": "reshape",
     "speed_kib_s": 200000,
     "foreground": {
      "goal_ms": 20,
      "percentile": 0,
      "looks": 2,
      "looks_measured": 0,
      "mean_ms": null,
      "percentile_ms": null
     }
    }
   ]
  }
 ],
 "reverted": true
}
OUT
expect_unchanged "bench --compare --json of a goal profile"
