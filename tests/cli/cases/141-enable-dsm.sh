# enable on DSM: the profile applied now, the script next to the binary and
# the one Task Scheduler boot-up task "mdprofile" created through
# esynoscheduler with every parameter and read back; the same enable again
# changes nothing; another profile replaces the task (delete, create), never
# adds one; status says what is enabled; disable deletes the task, looks
# that it is gone, removes the script and reverts.
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
fakes esynoscheduler
B=/volume1/@mdprofile/mdprofile
mkdir -p "$ROOT/volume1/@mdprofile"
printf '#!/bin/sh\n' >"$ROOT$B"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile" "$ROOT$B"
LOG="$ROOT/var/log/fake-services.log"
# The tasks as the fake keeps them, one a line, fields joined by '|'.
tasks() { tr '\037' '|' <"$ROOT/var/lib/fake-esynoscheduler/tasks"; }
snapshot

run --services-backend none enable balanced --binary "$B"
expect_exit 0
expect_stderr </dev/null
expect_stdout <<'EOF'
dev.raid.speed_limit_min: 10000 KiB/s -> 50000 KiB/s
md2 read_ahead: 192 KiB -> 4 MiB
md3 read_ahead: 192 KiB -> 4 MiB
md2 stripe_cache_size: 256 -> 2048
md3 stripe_cache_size: 256 -> 2048
profile balanced is active
installed the boot script /volume1/@mdprofile/mdprofile.sh
created the Task Scheduler boot-up task mdprofile: /bin/bash /volume1/@mdprofile/mdprofile.sh
profile balanced is enabled at every boot (target dsm); 'mdprofile disable' undoes it
EOF
# Every parameter given (omitted ones get defaults silently), none with a '%'.
expect_file var/log/fake-services.log <<'EOF'
esynoscheduler --delete task_name=mdprofile
esynoscheduler --get task_name=mdprofile
esynoscheduler --create task_name=mdprofile event=bootup enable=true owner={"0":"root"} operation_type=script operation=/bin/bash /volume1/@mdprofile/mdprofile.sh description=mdprofile: apply profile balanced at boot (mdprofile enable)
esynoscheduler --get task_name=mdprofile
EOF
[ "$(tasks)" = "1|mdprofile|bootup|true|0|root|script|mdprofile: apply profile balanced at boot (mdprofile enable)|/bin/bash /volume1/@mdprofile/mdprofile.sh" ] ||
	_fail "the task: $(tasks)"
[ "$(stat -c %a "$ROOT/volume1/@mdprofile/mdprofile.sh")" = 755 ] || _fail "script mode"
# The script is boot-script's for the same profile, under enable's name, with its stop.
run boot-script --binary "$B" balanced
expect_exit 0
grep -q '^# Install: mdprofile enable balanced --target dsm (the Task Scheduler boot-up task mdprofile runs it)\.$' \
	"$ROOT/volume1/@mdprofile/mdprofile.sh" || _fail "the script does not say what installed it"
sed -n '/^# The profile this script applies/,/^}$/p' "$WORK/out" >"$WORK/p.boot"
sed -n '/^# The profile this script applies/,/^}$/p' "$ROOT/volume1/@mdprofile/mdprofile.sh" >"$WORK/p.enable"
[ -s "$WORK/p.boot" ] && cmp -s "$WORK/p.boot" "$WORK/p.enable" ||
	_fail "enable pinned another profile than boot-script"
for sh in sh bash; do
	shellcheck -s "$sh" "$ROOT/volume1/@mdprofile/mdprofile.sh" >"$WORK/sc" 2>&1 ||
		_fail "shellcheck -s $sh: $(head -5 "$WORK/sc")"
done
grep -q "logger -p user.warning -t mdprofile" "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	_fail "the script does not log at user.warning (syslog-ng drops less on DSM)"
grep -q '^		synologset1 sys warn 0x11100000 ' "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	_fail "a failing boot does not write a Log Center entry"

# The same again: nothing changes, nothing is created or deleted.
: >"$LOG"
cp -a "$ROOT/volume1/@mdprofile/mdprofile.sh" "$WORK/script.1"
run --services-backend none enable balanced --binary "$B"
expect_exit 0
expect_stderr </dev/null
expect_stdout <<'EOF'
profile balanced: already in sync, nothing changed
profile balanced is already enabled at every boot (target dsm); 'mdprofile disable' undoes it
EOF
expect_file var/log/fake-services.log <<'EOF'
esynoscheduler --get task_name=mdprofile
EOF
cmp -s "$WORK/script.1" "$ROOT/volume1/@mdprofile/mdprofile.sh" || _fail "enable again rewrote the script"

run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF'
enabled: profile balanced at every boot, target dsm: intact
  script       /volume1/@mdprofile/mdprofile.sh: intact
  task         mdprofile: intact
EOF

# Another profile, with the watcher: the task replaced (delete, create), one task.
: >"$LOG"
run --services-backend none -q enable reshape-fast --auto reshape-fast --binary "$B"
expect_exit 0
expect_stderr </dev/null
expect_stdout </dev/null
expect_file var/log/fake-services.log <<'EOF'
esynoscheduler --delete task_name=mdprofile
esynoscheduler --get task_name=mdprofile
esynoscheduler --delete task_name=mdprofile
esynoscheduler --get task_name=mdprofile
esynoscheduler --create task_name=mdprofile event=bootup enable=true owner={"0":"root"} operation_type=script operation=/bin/bash /volume1/@mdprofile/mdprofile.sh description=mdprofile: apply profile reshape-fast at boot, then watch with reshape-fast (mdprofile enable)
esynoscheduler --get task_name=mdprofile
EOF
[ "$(tasks | wc -l)" = 1 ] || _fail "replacing left $(tasks | wc -l) tasks"
grep -qx "auto='reshape-fast'" "$ROOT/volume1/@mdprofile/mdprofile.sh" || _fail "no watcher in the script"
grep -q '^	setsid "$mdp" auto "$auto" </dev/null >/dev/null 2>&1 &$' "$ROOT/volume1/@mdprofile/mdprofile.sh" ||
	_fail "the watcher is not started in a session of its own"
run --format json status
expect_exit 0
python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["enabled"], sort_keys=True))' \
	<"$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF'
{"auto": "reshape-fast", "binary": "/volume1/@mdprofile/mdprofile", "intact": true, "pieces": [{"state": "intact", "what": "script", "where": "/volume1/@mdprofile/mdprofile.sh"}, {"state": "intact", "what": "task", "where": "mdprofile"}], "profile": "reshape-fast", "target": "dsm"}
EOF
# A task someone changed is not intact.
MDPROFILE_ROOT=$ROOT "$ROOT/usr/syno/sbin/esynoscheduler" --set task_name=mdprofile enable=false >/dev/null
run --format prometheus status
expect_exit 0
sed -n '/^# HELP mdprofile_enabled /,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF'
# HELP mdprofile_enabled 1 while a profile is enabled at boot (mdprofile enable)
# TYPE mdprofile_enabled gauge
mdprofile_enabled{profile="reshape-fast",target="dsm",auto="reshape-fast"} 1
# HELP mdprofile_enabled_intact 1 when every piece enable installed is in place
# TYPE mdprofile_enabled_intact gauge
mdprofile_enabled_intact 0
EOF

# disable: the task deleted and looked for, the script removed, the values back.
: >"$LOG"
run --services-backend none disable
expect_exit 0
expect_stderr </dev/null
expect_stdout <<'EOF'
deleted the Task Scheduler task mdprofile
removed the boot script /volume1/@mdprofile/mdprofile.sh
reverting profile reshape-fast
dev.raid.speed_limit_max: 500000 KiB/s -> 200000 KiB/s
md3 stripe_cache_size: 32768 -> 256
md2 stripe_cache_size: 32768 -> 256
md3 read_ahead: 32 MiB -> 192 KiB
md2 read_ahead: 32 MiB -> 192 KiB
dev.raid.speed_limit_min: 100000 KiB/s -> 10000 KiB/s
profile reshape-fast is no longer enabled
EOF
expect_file var/log/fake-services.log <<'EOF'
esynoscheduler --delete task_name=mdprofile
esynoscheduler --get task_name=mdprofile
EOF
[ -z "$(tasks)" ] || _fail "disable left a task: $(tasks)"
rm -rf "${ROOT:?}/var/lib/fake-esynoscheduler" "${ROOT:?}/run/mdprofile/journal"
rmdir "$ROOT/etc/mdprofile" "$ROOT/etc"
expect_unchanged "the tree after disable"
run --services-backend none disable
expect_exit 0
expect_stdout <<'EOF'
nothing is enabled
EOF
