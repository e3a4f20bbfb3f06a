# status: for the active profile, md's speed of each operation when it was
# applied (journaled by apply as "speed DEV ACTION KIB_S") beside the speed now.
# tags: heavy
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
run apply -q reshape-fast
expect_exit 0
grep -qx 'speed md3 reshape 4687' "$ROOT/run/mdprofile/journal" ||
	fail "apply did not journal md3's speed: $(cat "$ROOT/run/mdprofile/journal")"

# The reshape speeds up under the profile: sysfs and /proc/mdstat say so.
echo 9374 >"$ROOT/sys/block/md3/md/sync_speed"
sed -i 's/finish=[0-9.]*min speed=[0-9]*K/finish=2599.2min speed=9374K/' "$ROOT/proc/mdstat"
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal" # "since" reads its time
run_expect 0 status - status
# op_speeds: JSON's same figures.
op_speeds() {
	python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["op_speeds"]))' <"$WORK/out"
}
run status --json
expect_exit 0
[ "$(op_speeds)" = '[{"array": "md3", "action": "reshape", "applied_kib_s": 4687, "now_kib_s": 9374}]' ] ||
	fail "status --json op_speeds: $(op_speeds)"

# Applied again (drift put right): the speed when it was first applied stays.
run apply -q reshape-fast
expect_exit 0
grep -qx 'speed md3 reshape 4687' "$ROOT/run/mdprofile/journal" ||
	fail "applied again: $(grep speed "$ROOT/run/mdprofile/journal")"

# The reshape ended: the speed then, and that it runs no longer.
echo idle >"$ROOT/sys/block/md3/md/sync_action"
echo none >"$ROOT/sys/block/md3/md/sync_speed"
echo none >"$ROOT/sys/block/md3/md/sync_completed"
run status
expect_exit 0
grep -A1 '^paused services' "$WORK/out" | tail -n 1 >"$WORK/line"
[ "$(cat "$WORK/line")" = "md3 reshape: 4687 KiB/s when reshape-fast was applied, not running now" ] ||
	fail "status after the reshape: $(cat "$WORK/out")"
run status --json
expect_exit 0
[ "$(op_speeds)" = '[{"array": "md3", "action": "reshape", "applied_kib_s": 4687, "now_kib_s": null}]' ] ||
	fail "status --json op_speeds after the reshape: $(op_speeds)"
run revert -q
expect_exit 0

# Applied in the operation's first seconds (md's sync_speed reads 0, as when auto engages):
# "starting", not "0 KiB/s".
echo reshape >"$ROOT/sys/block/md3/md/sync_action"
echo 0 >"$ROOT/sys/block/md3/md/sync_speed"
echo '0 / 1953382400' >"$ROOT/sys/block/md3/md/sync_completed"
run apply -q reshape-fast
expect_exit 0
grep -qx 'speed md3 reshape 0' "$ROOT/run/mdprofile/journal" ||
	fail "apply at the start did not journal 0: $(cat "$ROOT/run/mdprofile/journal")"
echo 9374 >"$ROOT/sys/block/md3/md/sync_speed"
run status
expect_exit 0
grep -A1 '^paused services' "$WORK/out" | tail -n 1 >"$WORK/line"
[ "$(cat "$WORK/line")" = "md3 reshape: starting when reshape-fast was applied, 9374 KiB/s now" ] ||
	fail "status after applying at the start: $(cat "$WORK/out")"
run revert -q
expect_exit 0
echo idle >"$ROOT/sys/block/md3/md/sync_action"
echo none >"$ROOT/sys/block/md3/md/sync_speed"
echo none >"$ROOT/sys/block/md3/md/sync_completed"

# Nothing running when applied: no such line, op_speeds empty.
run apply -q reshape-fast
expect_exit 0
grep -q '^speed ' "$ROOT/run/mdprofile/journal" && fail "an idle md journaled a speed"
run status --json
expect_exit 0
[ "$(op_speeds)" = '[]' ] || fail "status --json op_speeds, idle: $(op_speeds)"
run revert -q
expect_exit 0
