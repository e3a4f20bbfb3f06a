# While the boot task runs (issue 50): the enabled script marks its step, and
# status says the boot task runs (waiting for the arrays, re-checking until
# when) instead of "NOT intact"; the script starts the watcher before its
# re-check, so the watcher runs through it; the mark goes when the script
# ends. The box's zone is the tree's /etc/localtime.
# tags: no-valgrind (the boot script runs the binary from a shell in the background)
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
fakes esynoscheduler
dsm_binary
S="$ROOT/volume1/@mdprofile/mdprofile.sh"
zone 3600 CET

run -q --services-backend none enable balanced --auto reshape-fast --binary "$B" --recheck-after 60
expect_exit 0
# A reboot: no keeper, no watcher.
K=$(cat "$ROOT/run/mdprofile-auto.pid")
W=$(sed -n 's/^pid //p' "$ROOT/run/mdprofile/watcher")
kill -TERM "$K"
expect_gone "$K" "$W"

# The boot task runs the script: it applies, starts the watcher, then re-checks.
(cd / && exec env -i MDPROFILE_ROOT="$ROOT" sh "$S") >"$WORK/boot.out" 2>&1 &
P=$!
wait_until 100 0.1 'grep -q "^$P re-checking " "$ROOT/run/mdprofile/boot" 2>/dev/null &&
	grep -q "^pid " "$ROOT/run/mdprofile/watcher" 2>/dev/null' ||
	fail "no re-check with the watcher: $(cat "$WORK/boot.out" "$ROOT/run/mdprofile/boot")"
# The re-check's end, as the mark says it, pinned to a known time (09:15 at +01:00).
echo "$P re-checking 1796631300" >"$ROOT/run/mdprofile/boot"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" | sed -E 's/\(pid [0-9]+\)/(pid N)/' >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF2'
enabled: profile balanced at every boot, target dsm, watcher: reshape-fast:
  intact; the boot task runs: re-checking until 2026-12-07T09:15:00+01:00
  script       /volume1/@mdprofile/mdprofile.sh: intact
  task         mdprofile: intact
  watcher      mdprofile auto reshape-fast (pid N): running
EOF2
run --format json status
expect_exit 0
json_field .enabled.boot.step '"re-checking"' 
json_field .enabled.boot.until_epoch_s 1796631300
json_field .enabled.intact true

# Before the watcher starts (the script waits for its arrays): not started, not NOT intact.
echo "$P waiting" >"$ROOT/run/mdprofile/boot"
kill -TERM "$(cat "$ROOT/run/mdprofile-auto.pid")"
wait_until 100 0.1 '! grep -q "^pid " "$ROOT/run/mdprofile/watcher" 2>/dev/null' || fail "the watcher did not stop"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" | sed -E 's/\(pid [0-9]+\)/(pid N)/' >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF2'
enabled: profile balanced at every boot, target dsm, watcher: reshape-fast: the
  boot task runs: waiting for the arrays
  script       /volume1/@mdprofile/mdprofile.sh: intact
  task         mdprofile: intact
  watcher      mdprofile auto reshape-fast: not started; the boot task starts it
               once the profile is applied
EOF2

# The script ended: its mark is no one's; the watcher down is said with one remedy.
kill -TERM "$P"
wait "$P" 2>/dev/null || :
rm -f "$ROOT/run/mdprofile-auto.pid"
run status
expect_exit 0
stdout_line 'enabled: profile balanced at every boot, target dsm, watcher: reshape-fast: the'
stdout_line '  watcher is NOT running'
stdout_line '  watcher      mdprofile auto reshape-fast: NOT running; start it: /bin/sh'
run --format json status
expect_exit 0
json_field .enabled.boot null
run -q --services-backend none disable
expect_exit 0
