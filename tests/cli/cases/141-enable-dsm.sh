# enable on DSM: the profile applied now, the script next to the binary and
# the one Task Scheduler boot-up task "mdprofile" created through
# esynoscheduler with every parameter and read back; the same enable again
# changes nothing; another profile replaces the task (delete, create), never
# adds one; status says what is enabled; disable deletes the task, looks
# that it is gone, removes the script and reverts.
# tags: heavy smoke (the aarch64 set of make check-deep)
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
fakes esynoscheduler
dsm_binary
LOG="$ROOT/var/log/fake-services.log"
snapshot

run_expect 0 services-backend-none-enable-balanced - --services-backend none enable balanced --binary "$B"
# Every parameter given (omitted ones get defaults silently), none with a '%'.
expect_file var/log/fake-services.log fake-services.log
[ "$(tasks)" = "1|mdprofile|bootup|true|0|root|script|mdprofile: apply profile balanced at boot (mdprofile enable)|/bin/bash /volume1/@mdprofile/mdprofile.sh" ] ||
	fail "the task: $(tasks)"
[ "$(stat -c %a "$ROOT/volume1/@mdprofile/mdprofile.sh")" = 755 ] || fail "script mode"
# The script is boot-script's for the same profile, under enable's name, with its stop.
run boot-script --binary "$B" balanced
expect_exit 0
grep -q '^# Install: mdprofile enable balanced --target dsm (the Task Scheduler boot-up task mdprofile runs it)\.$' \
	"$ROOT/volume1/@mdprofile/mdprofile.sh" || fail "the script does not say what installed it"
sed -n '/^# The profile this script applies/,/^}$/p' "$WORK/out" >"$WORK/p.boot"
sed -n '/^# The profile this script applies/,/^}$/p' "$ROOT/volume1/@mdprofile/mdprofile.sh" >"$WORK/p.enable"
[ -s "$WORK/p.boot" ] && cmp -s "$WORK/p.boot" "$WORK/p.enable" ||
	fail "enable pinned another profile than boot-script"
for sh in sh bash; do
	shellcheck -s "$sh" "$ROOT/volume1/@mdprofile/mdprofile.sh" >"$WORK/sc" 2>&1 ||
		fail "shellcheck -s $sh: $(head -5 "$WORK/sc")"
done
grep -q "logger -p user.warning -t mdprofile" "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	fail "the script does not log at user.warning (syslog-ng drops less on DSM)"
grep -q '^		synologset1 sys warn 0x11100000 ' "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	fail "a failing boot does not write a Log Center entry"

# The same again: nothing changes, nothing is created or deleted.
: >"$LOG"
cp -a "$ROOT/volume1/@mdprofile/mdprofile.sh" "$WORK/script.1"
run_expect 0 services-backend-none-enable-balanced.2 - --services-backend none enable balanced --binary "$B"
expect_file var/log/fake-services.log fake-services.log.2
cmp -s "$WORK/script.1" "$ROOT/volume1/@mdprofile/mdprofile.sh" || fail "enable again rewrote the script"

run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout status

# Another profile, with the watcher: the task replaced (delete, create), one task;
# the watcher started now, as the boot starts it: its keeper in a session of its
# own, its lines with their times in its log (issue 34).
: >"$LOG"
run_expect 0 - - --services-backend none -q enable low-ram --auto reshape-fast --binary "$B"
expect_file var/log/fake-services.log fake-services.log.3
[ "$(tasks | wc -l)" = 1 ] || fail "replacing left $(tasks | wc -l) tasks"
grep -qx "auto='reshape-fast'" "$ROOT/volume1/@mdprofile/mdprofile.sh" || fail "no watcher in the script"
grep -q '^	setsid /bin/sh "$root$self" keep-auto </dev/null >>"$root$auto_log" 2>&1 &$' "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	fail "the watcher is not kept in a session of its own"
KEEPER=$(cat "$ROOT/run/mdprofile-auto.pid")
[ "$(cut -d" " -f6 "/proc/$KEEPER/stat")" = "$KEEPER" ] || fail "the keeper is not in a session of its own"
grep -Eq "^${STAMP_RE}profile reshape-fast armed: " "$ROOT/var/log/mdprofile-auto.log" ||
	fail "the watcher's log: $(cat "$ROOT/var/log/mdprofile-auto.log")"
run --format json status
expect_exit 0
python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["enabled"], sort_keys=True))' \
	<"$WORK/out" | sed 's/(pid [0-9]*)/(pid N)/' >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout format-json-status
# A task someone changed is not intact.
MDPROFILE_ROOT=$ROOT "$ROOT/usr/syno/sbin/esynoscheduler" --set task_name=mdprofile enable=false >/dev/null
run --format prometheus status
expect_exit 0
sed -n '/^# HELP mdprofile_enabled /,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout format-prometheus-status
MDPROFILE_ROOT=$ROOT "$ROOT/usr/syno/sbin/esynoscheduler" --set task_name=mdprofile enable=true >/dev/null
# The watcher and its keeper killed: status says so and how to start it, which starts
# one keeper (case 174: a keeper that starts it again, and enable over it).
W=$(sed -n 's/^pid //p' "$ROOT/run/mdprofile/watcher")
kill -KILL "$KEEPER" "$W"
expect_gone "$KEEPER" "$W"
run status
expect_exit 0
stdout_line '  watcher      mdprofile auto reshape-fast: NOT running; start it: /bin/sh'
stdout_line '               /volume1/@mdprofile/mdprofile.sh start-auto'
run --format prometheus status
expect_exit 0
stdout_line 'mdprofile_enabled_intact 0'
stdout_line 'mdprofile_watcher_running 0'
(cd / && env -i MDPROFILE_ROOT="$ROOT" sh "$ROOT/volume1/@mdprofile/mdprofile.sh" start-auto) >"$WORK/sa.out" 2>&1 ||
	fail "start-auto: $(cat "$WORK/sa.out")"
# a new watcher's state (absent for a moment while the dead one's is cleared) and its keeper
wait_until 100 0.1 'grep -q "^pid " "$ROOT/run/mdprofile/watcher" 2>/dev/null &&
	! grep -qx "pid $W" "$ROOT/run/mdprofile/watcher" && [ -s "$ROOT/run/mdprofile-auto.pid" ]' ||
	fail "start-auto did not start the watcher: $(cat "$ROOT/var/log/mdprofile-auto.log")"
KEEPER=$(cat "$ROOT/run/mdprofile-auto.pid")
W=$(sed -n 's/^pid //p' "$ROOT/run/mdprofile/watcher")

# disable: the task deleted and looked for, the script removed, the values back, the
# watcher and its keeper stopped.
: >"$LOG"
run --services-backend none disable
expect_exit 0
expect_no_stderr
sed -i "s/(pid $W) and its keeper (pid $KEEPER)/(pid W) and its keeper (pid K)/" "$WORK/out"
expect_stdout services-backend-none-disable
expect_file var/log/fake-services.log fake-services.log.4
[ -z "$(tasks)" ] || fail "disable left a task: $(tasks)"
expect_gone "$KEEPER" "$W"
rm -rf "${ROOT:?}/var/lib/fake-esynoscheduler" "${ROOT:?}/run/mdprofile/journal" \
	"${ROOT:?}/var/log/mdprofile-auto.log"
rmdir "$ROOT/etc/mdprofile" "$ROOT/etc"
expect_unchanged "the tree after disable"
run_expect 0 services-backend-none-disable.2 . --services-backend none disable
# With --json too, one document: revert's shape, nothing changed (adversarial-4 F08).
run --json disable
expect_exit 0
expect_json <<'EOF2'
{
 "changed": false,
 "profile": null,
 "result": "ok",
 "dry_run": false,
 "changes": [],
 "services": [],
 "notes": [
  "nothing is enabled"
 ],
 "left": []
}
EOF2
expect_no_stderr

# A watcher started by hand, as the owner may (F05): disable stops it too.
run -q --services-backend none enable balanced --binary "$B"
expect_exit 0
bg_start -q --services-backend none auto --interval 0.2 reshape-fast
wait_until 100 0.1 'grep -Eqx "state (armed|engaged)" "$ROOT/run/mdprofile/watcher" 2>/dev/null' ||
	fail "the hand watcher did not arm"
W=$(cat "$WORK/bg.pid")
run --services-backend none disable
expect_exit 0
stdout_line "stopped the watcher (pid $W)"
expect_gone "$W"
