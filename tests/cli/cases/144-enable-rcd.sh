# enable on rc.d (DSM 6's /usr/local/etc/rc.d): the script DSM runs with
# start at boot and stop at shutdown. Run as rc.d would (env -i, cwd /):
# start applies the pinned profile, status runs diff, stop reverts (what a
# boot-script's stop never did). The same enable again changes nothing;
# disable removes it and reverts.
# tags: slow (the keeper and its watcher run in the background: it mostly waits)
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
# The binary the script runs, at a path that is the same on this host and
# in the tree (the tree's copy is what enable checks; the host's runs).
H="$WORK/hb/mdprofile"
mkdir -p "$WORK/hb"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${MDP_WRAP:-}" "$MDP" >"$H"
chmod 0755 "$WORK/hb" "$H"
mkdir -p "$ROOT$WORK/hb"
cp "$H" "$ROOT$H"
d=$WORK/hb
while [ "$d" != / ]; do
	chmod go-w "$ROOT$d"
	d=$(dirname "$d")
done
chmod go-w "$ROOT"
# The keeper that enable --auto starts runs the tree's boot script: the tree's programs run.
root_tools
snapshot

run --services-backend none enable balanced --target rc.d --binary "$H" --wait-arrays 1 \
	--recheck-after 0
expect_exit 0
expect_stderr </dev/null
sed "s|$WORK|@WORK@|g" "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout services-backend-none-enable-balanced
S="$ROOT/usr/local/etc/rc.d/mdprofile.sh"
[ "$(stat -c %a "$S")" = 755 ] || fail "script mode"
for sh in sh bash; do
	shellcheck -s "$sh" "$S" >"$WORK/sc" 2>&1 || fail "shellcheck -s $sh: $(head -5 "$WORK/sc")"
done
run --services-backend none -q enable balanced --target rc.d --binary "$H" --wait-arrays 1 \
	--recheck-after 0
expect_exit 0
expect_stdout </dev/null

# As rc.d runs it: revert first, then start applies, status diffs, stop reverts.
rc_run() {
	set +e
	(cd / && env -i MDPROFILE_ROOT="$ROOT" sh "$S" "$1") >"$WORK/rc.out" 2>"$WORK/rc.err"
	RC=$?
	set -e
}
run --services-backend none -q revert
expect_exit 0
cp -a "$ROOT/sys" "$WORK/sys.before"
rc_run start
[ "$RC" = 0 ] || fail "start exited $RC: $(cat "$WORK/rc.out" "$WORK/rc.err")"
run status --json
expect_exit 0
grep -q '"active_profile": "balanced"' "$WORK/out" || fail "start did not apply balanced"
rc_run status
[ "$RC" = 0 ] || fail "status (diff) exited $RC: $(cat "$WORK/rc.out")"
rc_run stop
[ "$RC" = 0 ] || fail "stop exited $RC: $(cat "$WORK/rc.out" "$WORK/rc.err")"
grep -qx 'mdprofile: stop: reverting profile balanced' "$WORK/rc.out" || fail "stop said: $(cat "$WORK/rc.out")"
diff -r "$WORK/sys.before" "$ROOT/sys" >/dev/null || fail "stop did not revert the values"

run_expect 0 services-backend-none-disable . --services-backend none disable
[ -e "$S" ] && fail "disable left the script"
rm -rf "${ROOT:?}/etc" "${ROOT:?}/run/mdprofile/journal" "${ROOT:?}/usr"
expect_unchanged "the tree after disable"

# With the watcher: start starts its keeper (as a DSM task does: a session of its
# own), start-auto finds it running, stop stops it before reverting (issue 34).
run --services-backend none -q enable balanced --auto reshape-fast --target rc.d --binary "$H" \
	--wait-arrays 1 --recheck-after 0
expect_exit 0
K=$(cat "$ROOT/run/mdprofile-auto.pid")
rc_run stop
[ "$RC" = 0 ] || fail "stop exited $RC: $(cat "$WORK/rc.out" "$WORK/rc.err")"
expect_gone "$K"
[ ! -e "$ROOT/run/mdprofile-auto.pid" ] || fail "stop left the keeper's pid file"
rc_run start
[ "$RC" = 0 ] || fail "start exited $RC: $(cat "$WORK/rc.out" "$WORK/rc.err")"
# the keeper writes its pid once it holds its lock
wait_until 100 0.1 'grep -qx "mode auto" "$ROOT/run/mdprofile/watcher" 2>/dev/null && [ -s "$ROOT/run/mdprofile-auto.pid" ]' ||
	fail "start did not start the watcher: $(cat "$ROOT/var/log/mdprofile-auto.log")"
K=$(cat "$ROOT/run/mdprofile-auto.pid")
rc_run start-auto
grep -qx "mdprofile: the watcher runs already (its keeper: pid $K)" "$WORK/rc.out" ||
	fail "start-auto with a keeper running said: $(cat "$WORK/rc.out")"
run -q --services-backend none disable
expect_exit 0
expect_gone "$K"

# An overlay found only through --profiles (adversarial-4 F03): pinned in the script,
# so the watcher the boot (here: enable) starts from / runs it.
mkdir -p "$WORK/p"
printf 'extends: reshape-fast\n' >"$WORK/p/nightly.yaml"
run --services-backend none -q --profiles "$WORK/p" enable balanced --auto nightly --target rc.d \
	--binary "$H" --wait-arrays 1 --recheck-after 0
expect_exit 0
grep -q "^	exec \"\$root\$mdp\" --wait auto --name \"\$auto\" - <<'" "$S" || fail "the overlay is not pinned in the script"
grep -qx "auto='nightly'" "$S" || fail "the script does not name the overlay nightly"
wait_until 100 0.1 'grep -q nightly "$ROOT/run/mdprofile/watcher" 2>/dev/null' ||
	fail "the watcher did not run nightly: $(cat "$ROOT/var/log/mdprofile-auto.log")"
run -q --services-backend none disable
expect_exit 0
