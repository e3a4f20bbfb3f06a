# status --watch (issue 10): when stdout is not a tty, one timestamped line
# per array whose state or percent changed: all of them first, then each
# change as the fixture moves on (the periodic refresh sees it; regular
# files never raise md's POLLPRI), until it is stopped.
fixture ds-dsm6-reshape

# Wait until the watcher's output has N lines.
wait_lines() {
	i=0
	until [ -s "$WORK/bg.pid" ] && [ -f "$WORK/bg.out" ] &&
		[ "$(wc -l <"$WORK/bg.out")" -ge "$1" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || { _fail "status --watch printed no line $1"; return; }
		sleep 0.1
	done
}

(
	cd "$SRC" || exit
	${MDP_WRAP:-} "$MDP" --root "$ROOT" status --watch --interval 1 >"$WORK/bg.out" 2>"$WORK/bg.err" &
	echo $! >"$WORK/bg.pid"
	wait $! || true
) 2>/dev/null &
BGSH=$!
wait_lines 4
echo '1000000000 / 3906989568' >"$ROOT/sys/block/md3/md/sync_completed"
sed -i 's|25.1% (491263360/|25.5% (500000000/|' "$ROOT/proc/mdstat"
wait_lines 5
echo 1 >"$ROOT/sys/block/md2/md/degraded"
echo idle >"$ROOT/sys/block/md3/md/sync_action"
echo none >"$ROOT/sys/block/md3/md/sync_completed"
wait_lines 7
kill -TERM "$(cat "$WORK/bg.pid")"
wait $BGSH || true
LAST="status --watch --interval 1"
sed -e 's/^20[0-9-]*T[0-9:]*Z /TIME /' -e 's/about [0-9dhm ]* left/about ETA left/' \
	"$WORK/bg.out" >"$WORK/out"
expect_stdout <<'EOF'
TIME md0 clean, idle
TIME md1 clean, idle
TIME md2 clean, idle
TIME md3 active, reshape 25.1%, 4687 KiB/s, about ETA left
TIME md3 active, reshape 25.5%, 4687 KiB/s, about ETA left
TIME md2 clean, degraded, idle
TIME md3 active, idle
EOF
cp "$WORK/bg.err" "$WORK/err"
expect_stderr <<'EOF'
EOF

# One look or many: options that do not go together.
run status --interval 2
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --interval applies to 'status' only with --watch
EOF
run status --watch --json
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --watch draws text; --json and --format take one look
EOF
