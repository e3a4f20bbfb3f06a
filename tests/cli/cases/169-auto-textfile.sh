# auto --textfile FILE (issue 37): the watcher writes status --format prometheus to FILE
# when it starts and at the look of each engage and release (and every minute), each time
# a new file renamed over FILE, so DSM boxes, which have a watcher and no scheduler, feed
# node_exporter's textfile collector. A FILE whose directory does not exist is refused
# before anything happens.
# tags: slow (a watcher in the background, waiting for its looks)
fixture ds-dsm6-reshape
snapshot
run_expect 2 - textfile-no-dir auto --textfile no/such/m.prom reshape-fast
expect_unchanged "a refused --textfile"

PROM=$WORK/out.d/m.prom
mkdir "$WORK/out.d"
state_is() { grep -qx "mdprofile_watcher_state{mode=\"auto\",profile=\"reshape-fast\",state=\"$1\"} 1" "$PROM" 2>/dev/null; }
bg_start --services-backend none auto --on check --interval 0.2 --textfile "$PROM" reshape-fast
wait_until 150 0.1 'state_is armed' || fail "no textfile with the watcher armed: $(cat "$PROM" 2>&1)"
# a check as md shows one at work: its thread's speed (md/sync_speed reads "none" without one)
echo 1000 >"$ROOT/sys/block/md2/md/sync_speed"
echo check >"$ROOT/sys/block/md2/md/sync_action"
wait_until 150 0.1 'state_is engaged' || fail "the engage not written: $(cat "$PROM" 2>&1)"
grep -qx 'mdprofile_tunable_bytes_per_second{target="dev.raid",tunable="speed_limit_min"} 307200000' "$PROM" ||
	fail "the engaged values not written"
echo idle >"$ROOT/sys/block/md2/md/sync_action"
echo none >"$ROOT/sys/block/md2/md/sync_speed"
wait_until 150 0.1 'state_is armed' || fail "the release not written: $(cat "$PROM" 2>&1)"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
[ "$(ls -A "$WORK/out.d")" = m.prom ] || fail "left beside the textfile: $(ls -A "$WORK/out.d")"
[ "$(stat -c %a "$PROM")" = 644 ] || fail "the textfile's mode: $(stat -c %a "$PROM")"
