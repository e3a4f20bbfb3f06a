# The watcher's log reader gone (issue 47): `mdprofile auto P | head -2` left
# the watcher to die of SIGPIPE at its next line, its overlay on. With its
# stdout a pipe whose reader has ended, it engages on the reshape all the
# same, and SIGTERM removes its overlay and ends it with 0, as always.
# (a watcher in the background, its reshape seen at its first look: well under a second)
fixture ds-dsm6-reshape
run -q --services-backend none apply balanced
expect_exit 0
cp -a "$ROOT/sys" "$WORK/sys.before"
cp -a "$ROOT/proc" "$WORK/proc.before"

mkfifo "$WORK/pipe"
rm -f "$WORK/bg.pid" "$WORK/bg.rc"
(
	cd "$SRC" || exit
	${MDP_WRAP:-} "$MDP" --root "$ROOT" --services-backend none auto --interval 0.2 reshape-fast \
		>"$WORK/pipe" 2>"$WORK/bg.err" &
	echo $! >"$WORK/bg.pid"
	if wait $!; then echo 0; else echo $?; fi >"$WORK/bg.rc"
) 2>/dev/null &
BGSH=$!
# The reader opens the pipe (which lets the watcher's open of it through) and goes away.
exec 3<"$WORK/pipe"
exec 3<&-
wait_until 150 0.1 'grep -qx "state engaged" "$ROOT/run/mdprofile/watcher" 2>/dev/null || [ -s "$WORK/bg.rc" ]'
grep -qx "state engaged" "$ROOT/run/mdprofile/watcher" 2>/dev/null ||
	fail "the watcher did not engage (exit code $(cat "$WORK/bg.rc" 2>/dev/null)): $(cat "$WORK/bg.err")"
kill -TERM "$(cat "$WORK/bg.pid")"
wait "$BGSH" || true
[ "$(cat "$WORK/bg.rc")" = 0 ] || fail "the watcher exited $(cat "$WORK/bg.rc"): $(cat "$WORK/bg.err")"
[ ! -s "$WORK/bg.err" ] || fail "the watcher's stderr: $(cat "$WORK/bg.err")"
grep -qx 'profile "balanced"' "$ROOT/run/mdprofile/journal" || fail "the overlay is still on"
diff -r "$WORK/sys.before" "$ROOT/sys" >/dev/null && diff -r "$WORK/proc.before" "$ROOT/proc" >/dev/null ||
	fail "the values are not the base's again"

# Any other command whose reader took what it wanted and went (status | head): its own
# result stands and nothing is said (the reader left on purpose). The reader opens the
# pipe and goes before status writes, so the write fails with EPIPE.
fixture ds-dsm6-reshape
mkfifo "$WORK/pipe2"
(
	cd "$SRC" || exit
	${MDP_WRAP:-} "$MDP" --root "$ROOT" status >"$WORK/pipe2" 2>"$WORK/head.err"
	echo $? >"$WORK/head.rc"
) &
HEADSH=$!
exec 3<"$WORK/pipe2"
exec 3<&-
wait "$HEADSH" || true
[ "$(cat "$WORK/head.rc")" = 0 ] || fail "status | head: exit $(cat "$WORK/head.rc")"
[ ! -s "$WORK/head.err" ] || fail "status | head said: $(cat "$WORK/head.err")"
