# What status says of a check mdprofile auto paused in place (issue 49), in text, JSON and
# Prometheus: its place, why it waits and, outside the windows, when the next one opens; that
# no watcher runs to resume it; a line of another boot, or of an array that runs again, is
# no pause.
fixture server-raid6-raid10
md=$ROOT/sys/block/md1/md
boot=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
# paused LINE...: the pause journal the watcher keeps, one "pause ..." line each.
paused() {
	mkdir -p "$ROOT/run/mdprofile"
	chmod 700 "$ROOT/run/mdprofile"
	{
		printf 'mdprofile-paused 1\nboot_id %s\n' "$boot"
		printf 'pause %s\n' "$@"
		echo end
	} >"$ROOT/run/mdprofile/paused"
	chmod 600 "$ROOT/run/mdprofile/paused"
}
# prom NAME: the check metrics of the last run's Prometheus output, exactly.
prom() {
	grep 'check_' "$WORK/out" >"$ROOT/prom"
	expect_file prom "$1"
}
echo idle >"$md/sync_action"
paused 'md1 check 863341056 3906516992 window 1765155600'
run_expect 0 status - status
run_expect 0 . - status --json
json_only paused_checks
expect_json status
run_expect 0 . - status --format prometheus
prom prom
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$WORK/out" >"$WORK/promtool" 2>&1 || fail "promtool: $(cat "$WORK/promtool")"
fi

# Hot, then a job deferred to; a pause without its total (the watcher did not say it).
paused 'md1 repair 863341056 3906516992 heat'
run_expect 0 status.heat - status
paused 'md1 check 2048 0 deferred'
run_expect 0 status.deferred - status
run_expect 0 . - status --format prometheus
prom prom.deferred

# md runs the check again (someone wrote check): no pause. A line of another boot: none.
echo check >"$md/sync_action"
run_expect 0 . - status --json
json_only paused_checks
expect_json none
echo idle >"$md/sync_action"
boot=00000000-0000-0000-0000-000000000000
paused 'md1 check 863341056 3906516992 window 1765155600'
run_expect 0 . - status --json
json_only paused_checks
expect_json none

# DSM: its data scrub is md's repair.
fixture dt-sata-dsm7
boot=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
echo idle >"$ROOT/sys/block/md2/md/sync_action"
paused 'md2 repair 1024 4096'
run_expect 0 status.dsm - status
