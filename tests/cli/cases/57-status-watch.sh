# status --watch (issue 10): when stdout is not a tty, one timestamped line
# per array whose state or percent changed: all of them first, then each
# change as the fixture moves on (the periodic refresh sees it; regular
# files never raise md's POLLPRI), until it is stopped.
fixture ds-dsm6-reshape
zone 19800 +0530 # the lines' times are the box's local time with its offset

# Wait until the watcher's output has N lines.
wait_lines() {
	lines=$1
	wait_until 100 0.1 '[ -s "$WORK/bg.pid" ] && [ -f "$WORK/bg.out" ] && [ "$(wc -l <"$WORK/bg.out")" -ge "$lines" ]' ||
		fail "status --watch printed no line $1"
}

bg_start status --watch --interval 1
wait_lines 4
echo '1000000000 / 3906989568' >"$ROOT/sys/block/md3/md/sync_completed"
sed -i 's|25.1% (491263360/|25.5% (500000000/|' "$ROOT/proc/mdstat"
wait_lines 5
echo 1 >"$ROOT/sys/block/md2/md/degraded"
echo idle >"$ROOT/sys/block/md3/md/sync_action"
echo none >"$ROOT/sys/block/md3/md/sync_completed"
wait_lines 7
kill -TERM "$(cat "$WORK/bg.pid")"
wait "$BGSH" || true
LAST="status --watch --interval 1"
sed -e 's/^20[0-9-]*T[0-9:]*+05:30 /TIME /' -e 's/about [0-9dhm ]* left/about ETA left/' \
	"$WORK/bg.out" >"$WORK/out"
expect_stdout cmd
cp "$WORK/bg.err" "$WORK/err"
expect_no_stderr

# One look or many: options that do not go together.
run_expect 2 . status-interval status --interval 2
run_expect 2 . status-watch-json status --watch --json
