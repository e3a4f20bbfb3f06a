# Text from outside (sysfs values, profile file names, the journal's profile
# name, a service tool's output) never reaches a terminal raw: control
# characters, escape sequences and bytes that are not UTF-8 read \xHH in
# text; --json and Prometheus output stay valid UTF-8 (U+FFFD for a stray byte).
fixture ds-dsm6-reshape
# OSC (window title), clear screen, a newline and a stray 0xff.
printf 'clean\033]0;pwned\007\033[2J\n' >"$ROOT/sys/block/md2/md/array_state"
printf 'raid1\033[31m\377\n' >"$ROOT/sys/block/md1/md/level"
printf 'idle\nx\033[1m\n' >"$ROOT/sys/block/md0/md/sync_action"
mkdir -p "$WORK/p"
NAME=$(printf 'fast\033[31m\n\377x')
printf 'description: odd\nraid:\n  speed_limit_min: 50000\n' >"$WORK/p/$NAME.yaml"

# Only bytes a terminal shows as they are: no ESC, BEL or 0xff.
raw_free() {
	if LC_ALL=C grep -q "$(printf '[\033\007\377]')" "$WORK/out" "$WORK/err"; then
		fail "'mdprofile $LAST' wrote a control character or a stray byte raw"
	fi
}

run --services-backend none apply "$WORK/p/$NAME.yaml"
expect_exit 0
raw_free
run --services-backend none apply "$WORK/p/$NAME.yaml"
expect_exit 0
raw_free
expect_stdout services-backend-none-apply-p
run status
expect_exit 0
raw_free
sed -i 's/ since 20[0-9T:+-]*//' "$WORK/out"
expect_stdout status
expect_no_stderr

# JSON: strict UTF-8 and JSON, the values as read with U+FFFD for 0xff.
run --json status
expect_exit 0
python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert d["active_profile"] == "fast\x1b[31m\n\ufffdx", d
a = {x["name"]: x for x in d["arrays"]}
assert a["md2"]["state"] == "clean\x1b]0;pwned\x07\x1b[2J", a["md2"]
assert a["md1"]["level"] == "raid1\x1b[31m\ufffd", a["md1"]
' "$WORK/out" 2>"$WORK/py" || fail "status --json: $(cat "$WORK/py")"
raw_free

# Prometheus: valid UTF-8, the label escaped.
run status --format prometheus
expect_exit 0
python3 -c '
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
assert "profile=\"fast\ufffd[31m\\n\ufffdx\"" in t, t
' "$WORK/out" 2>"$WORK/py" || fail "status --format prometheus: $(cat "$WORK/py")"
raw_free

# status --watch (not a tty: a line per array), stopped once it has shown them all.
bg_start status --watch --interval 1
wait_until 100 0.1 '[ -s "$WORK/bg.pid" ] && [ -f "$WORK/bg.out" ] && [ "$(wc -l <"$WORK/bg.out")" -ge 4 ]' ||
	fail "status --watch printed no 4 lines"
kill -TERM "$(cat "$WORK/bg.pid")"
wait "$BGSH" || true
LAST="status --watch --interval 1"
sed -e 's/^20[0-9-]*T[0-9:]*[+-][0-9:]* /TIME /' -e 's/about [0-9dhm ]* left/about ETA left/' \
	"$WORK/bg.out" >"$WORK/out"
cp "$WORK/bg.err" "$WORK/err"
raw_free
expect_stdout status-format-prometheus

run diff
expect_exit 0
raw_free
expect_stdout diff

run revert
expect_exit 0
raw_free
expect_stdout revert

# The file's name in show and in an error about it.
run show "$WORK/p/$NAME.yaml"
expect_exit 0
raw_free
printf 'description: odd\nraid:\n  speed_limt_min: 1\n' >"$WORK/p/$NAME.yaml"
run check "$WORK/p/$NAME.yaml"
expect_exit 2
raw_free

# A service tool's answer in an error message.
fakes dsm6 synoindexd=running
cat >"$ROOT/usr/syno/sbin/synoservice" <<'EOF'
#!/bin/sh
printf 'Service \033]0;owned\007\033[2J\377\n'
exit 9
EOF
printf 'services:\n  pause: [synoindexd]\n' >"$WORK/p/svc.yaml"
run diff "$WORK/p/svc.yaml"
expect_exit 0
raw_free
expect_stderr diff-psvc.yaml

# explain on a capture someone else made (adversarial-4 F06): the kernel's release and a
# member's state from the capture, escape sequences in both.
fixture explain/floor
printf '4.4.302+\033]0;pwned\007\033[2J\n' >"$ROOT/proc/sys/kernel/osrelease"
printf 'in_sync\033[31m\377\n' >"$ROOT/sys/block/md2/md/dev-sdd5/state"
run explain
expect_exit 1
raw_free
stdout_has 'pacing: kernel 4.4.302+\x1b]0;pwned\x07\x1b[2J,'
