# When a check under the watcher's maintenance windows ends at its pace (issue 49), in text,
# JSON and Prometheus: running, paused outside the windows (from the next one), paused beside
# a hot disk (when it resumes is unknown: no date); not for an array the watcher's profile
# does not select, nor without a watcher. The clock is the seam's (now:), the zone the tree's.
# tags: seam
fixture server-raid6-raid10
zone 3600 CET
md=$ROOT/sys/block/md1/md
S="$ROOT/run/mdprofile"
mkdir -p "$S" && chmod 0700 "$S"
# watcher [ARRAYS]: the state a watcher running night-checks writes (ARRAYS: its profile's).
watcher() {
	{
		printf 'mdprofile-watcher 1\npid %s\nmode auto\nprofile "night-checks"\nstate armed\n' $$
		printf 'since 1\non resync,recovery,reshape\nwhy ""\n'
		printf 'window Mon-Fri 01:00-07:00\nwindow Sat-Sun 00:00-24:00\n'
		[ $# = 0 ] || printf 'arrays %s\n' "$1"
		echo end
	} >"$S/watcher"
}
# paused LINE: the pause journal with one "pause ..." line.
paused() {
	printf 'mdprofile-paused 1\nboot_id %s\npause %s\nend\n' \
		"$(cat "$ROOT/proc/sys/kernel/random/boot_id")" "$1" >"$S/paused"
	chmod 600 "$S/paused"
}
# status_as NAME: status's text, the stand-in watcher's pid as N.
status_as() {
	MDPROFILE_FAULT=now:$NOW run status
	expect_exit 0
	sed -i 's/(pid [0-9]*)/(pid N)/' "$WORK/out"
	expect_stdout "$1"
	expect_no_stderr
}
# prom NAME: the check metrics of the last run's Prometheus output, exactly.
prom() {
	grep 'check_' "$WORK/out" >"$ROOT/prom"
	expect_file prom "$1"
}
watcher
(
	exec 9>"$S/watcher.lock"
	flock 9
	echo held
	exec sleep 30
) >"$WORK/held" &
HOLDER=$!
wait_until 50 0.1 'grep -qs held "$WORK/held"' || fail "the stand-in did not take the watcher lock"
# Monday 2026-12-07 12:00 +01:00; md1's check at 22.1% and 5000 KiB/s: 84h 31m 57s of work:
# this week's four nights of 6 h from Tuesday 01:00 and its weekend (72 h), then Monday's and
# Tuesday's nights, and it ends on Wednesday 2026-12-16 at 01:31:57 +01:00.
NOW=1796641200
echo 5000 >"$md/sync_speed"
status_as status
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_only windowed_checks
expect_json status
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --format prometheus
prom prom
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$WORK/out" >"$WORK/promtool" 2>&1 || fail "promtool: $(cat "$WORK/promtool")"
fi

# Paused outside its windows at 5000 KiB/s: the same end. Beside a hot disk: no date.
echo idle >"$md/sync_action"
paused 'md1 check 863340544 3906516992 window 1796688000 pace 5000'
status_as status.paused
paused 'md1 check 863340544 3906516992 heat pace 5000'
status_as status.heat
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_only windowed_checks
expect_json heat
# A pause without its pace (a watcher that did not say it): no finish.
paused 'md1 check 863340544 3906516992 window 1796688000'
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_field .windowed_checks '[]'

# The watcher's profile selects md0 alone: md1's check is none of its windows' business.
echo check >"$md/sync_action"
rm "$S/paused"
watcher md0
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_field .windowed_checks '[]'
watcher 'md0 md1'
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_field '.windowed_checks[0].finish_epoch_s' 1797381117

# No watcher: its windows are not believed.
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null || : # ended by the kill
MDPROFILE_FAULT=now:$NOW run_expect 0 . - status --json
json_field .windowed_checks '[]'
