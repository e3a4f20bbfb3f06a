# One keeper of the watcher per machine (issue 47): a second keeper finds the
# keeper's lock held and ends at once; while the keeper waits to start a
# killed watcher again, status says so, and enable run again stops it and
# starts the watcher now, through one keeper; a watcher lock held by an
# apply --until-idle is not the watcher running; disable stops every
# keeper and says so.
# tags: slow no-valgrind (the keeper starts its watcher again 10 s after it dies: each step must come before)
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
fakes esynoscheduler
dsm_binary
S="$ROOT/volume1/@mdprofile/mdprofile.sh"
ALOG="$ROOT/var/log/mdprofile-auto.log"

# This tree's keepers: session leaders whose command line is the script's keep-auto.
keepers() {
	for p in /proc/[0-9]*; do
		[ "$(cut -d' ' -f6 "$p/stat" 2>/dev/null)" = "${p#/proc/}" ] || continue
		case $(tr '\000' ' ' <"$p/cmdline" 2>/dev/null) in
		*" $S keep-auto ") echo "${p#/proc/}" ;;
		esac
	done
}
watcher_pid() { sed -n 's/^pid //p' "$ROOT/run/mdprofile/watcher"; }
# status's text in one line, $line (what it wraps joined), its numbers of seconds as N
status_line() {
	run status
	expect_exit 0
	line=$(tr '\n' ' ' <"$WORK/out" | tr -s ' ' | sed -E -e 's/ at [-0-9T:+]+ \(in [0-9]+ s,/ at T (in N s,/g' \
		-e 's/restarts at [-0-9T:+]+/restarts at T/' -e 's/ $//')
}
# Wait for the keeper's log to say the watcher died, for the n-th time.
restarts() {
	wait_until 50 0.1 "[ \"\$(grep -c 'the watcher ended with exit code 137: starting it again' \"$ALOG\")\" = $1 ]" ||
		fail "the keeper did not see the watcher die: $(cat "$ALOG")"
}

run -q --services-backend none enable balanced --auto reshape-fast --binary "$B"
expect_exit 0
K=$(cat "$ROOT/run/mdprofile-auto.pid")
[ "$(keepers)" = "$K" ] || fail "the keepers after enable: $(keepers)"
grep -q "flock -n 9" "$S" || fail "the keeper takes no lock"

# A second keeper (start-auto or a boot beside it, an enable at the same time) ends at once.
rc=0
(cd / && exec env -i MDPROFILE_ROOT="$ROOT" timeout 5 /bin/sh "$S" keep-auto) >"$WORK/k2" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "a second keeper exited $rc: $(cat "$WORK/k2")"
grep -q "mdprofile: another keeper (pid $K) keeps the watcher: this one ends$" "$WORK/k2" ||
	fail "a second keeper said: $(cat "$WORK/k2")"
[ "$(keepers)" = "$K" ] || fail "the keepers after a second one: $(keepers)"

# The watcher killed: its keeper waits to start it again (10 s: what follows must come
# first, so status is asked below, at the second kill), and enable run again (status's
# remedy) stops that keeper and starts the watcher now, through one keeper.
W=$(watcher_pid)
kill -KILL "$W"
restarts 1
run --services-backend none enable balanced --auto reshape-fast --binary "$B"
expect_exit 0
sed -E -i -e "s/pid $K\), which was to start it again in [0-9]+ s/pid K), which was to start it again in N s/" \
	-e 's/reshape-fast, pid [0-9]+\)/reshape-fast, pid W)/' "$WORK/out"
expect_stdout <<'EOF'
profile balanced: already in sync, nothing changed
profile balanced is already enabled at every boot (target dsm, watcher: reshape-fast); 'mdprofile disable' undoes it
stopped the watcher's keeper (pid K), which was to start it again in N s
started the watcher (mdprofile auto reshape-fast, pid W); its log: /var/log/mdprofile-auto.log
EOF
expect_gone "$K"
K=$(cat "$ROOT/run/mdprofile-auto.pid")
[ "$(keepers)" = "$K" ] || fail "the keepers after enable again: $(keepers)"

# The watcher killed again: status says its keeper waits to start it again; with an
# apply --until-idle holding the watcher lock it is not running either (F09).
kill -KILL "$(watcher_pid)"
restarts 2
status_line
case $line in
*": the watcher restarts at T "*" watcher mdprofile auto reshape-fast: restarting at T (in N s, keeper pid $K); to start it now: mdprofile enable balanced --auto reshape-fast") ;;
*) fail "status while the keeper waits: $line" ;;
esac
run --format prometheus status
expect_exit 0
stdout_line 'mdprofile_watcher_running 0'
stdout_line 'mdprofile_enabled_intact 0'
bg_start -q --services-backend none apply --until-idle --interval 0.2 low-ram
wait_until 100 0.1 'grep -qx "mode until-idle" "$ROOT/run/mdprofile/watcher" 2>/dev/null' ||
	fail "the apply --until-idle did not start watching"
U=$(cat "$WORK/bg.pid")
status_line
case $line in
*" watcher mdprofile auto reshape-fast: restarting at T (in N s, keeper pid $K); the watcher lock is held by an apply --until-idle (pid $U); to start it now: mdprofile enable balanced --auto reshape-fast") ;;
*) fail "status while an apply --until-idle holds the watcher lock: $line" ;;
esac
run --format prometheus status
expect_exit 0
stdout_line 'mdprofile_watcher_running 0'
kill -TERM "$U"
bg_finish
expect_exit 0

# A command holding the lock while the keeper starts the watcher (the boot script's re-check,
# an enable as the keeper's wait ends) delays the watcher: it does not end with exit 3 for
# its keeper to start it again 10 s later.
kill -TERM "$K"
expect_gone "$K"
[ ! -e "$ROOT/run/mdprofile/watcher" ] || fail "a watcher's state is left: $(cat "$ROOT/run/mdprofile/watcher")"
rm -f "$WORK/held"
flock "$ROOT/run/mdprofile/lock" sh -c ': >"$1"; sleep 1' sh "$WORK/held" &
H=$!
wait_until 50 0.1 '[ -e "$WORK/held" ]' || fail "the test could not take the lock"
(cd / && exec env -i MDPROFILE_ROOT="$ROOT" /bin/sh "$S" start-auto) >"$WORK/k3" 2>&1 ||
	fail "start-auto: $(cat "$WORK/k3")"
wait "$H"
wait_until 50 0.1 'grep -qx "mode auto" "$ROOT/run/mdprofile/watcher" 2>/dev/null' ||
	fail "the watcher is not armed 5 s after the lock was let go: $(tail -3 "$ALOG")"
! grep -q "exit code 3" "$ALOG" || fail "the watcher ended on the lock: $(grep "exit code 3" "$ALOG")"
K=$(cat "$ROOT/run/mdprofile-auto.pid")
[ "$(keepers)" = "$K" ] || fail "the keepers after start-auto: $(keepers)"

# disable: every keeper stopped, and said so.
run --services-backend none disable
expect_exit 0
stdout_has "keeper (pid $K)"
expect_gone "$K"
[ -z "$(keepers)" ] || fail "disable left keepers: $(keepers)"
