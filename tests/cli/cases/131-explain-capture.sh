# explain --capture: every file read, both samples and the time between them, in a tar that
# extracts into a fixture root; explain --root on it replays the same report without
# sleeping. Read-only: the system files are untouched.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
snapshot
run_expect 0 . - explain --interval 1 --capture "$WORK/c.tar"
expect_unchanged
sed 's/window [0-9.]* s/window W s/; s/in [0-9]* s;/in W s;/; s/progress in [0-9]* s:/progress in W s:/' "$WORK/out" >"$WORK/live"
tar tf "$WORK/c.tar" >"$WORK/list" || fail "the capture is not a tar archive"
for f in proc/mdstat sys/block/md3/md/sync_speed_min .explain/1/proc/mdstat \
	.explain/1/sys/block/md3/md/sync_completed .explain/elapsed_ms; do
	grep -qx "$f" "$WORK/list" || fail "the capture lacks $f"
done
# Only what explain reads: nothing from /etc, /dev or the boot id.
! grep -E '^(etc|dev|\.explain/1/etc)|boot_id' "$WORK/list" || fail "the capture holds more"

mkdir "$WORK/x"
tar xf "$WORK/c.tar" -C "$WORK/x"
ROOT="$WORK/x"
run explain
expect_exit 0
sed 's/window [0-9.]* s/window W s/; s/in [0-9]* s;/in W s;/; s/progress in [0-9]* s:/progress in W s:/' "$WORK/out" >"$WORK/replay"
cmp -s "$WORK/live" "$WORK/replay" || {
	fail "the replay differs from the live run:"
	diff -u "$WORK/live" "$WORK/replay" >&2
}
# The window is the machine's: shown as W.
_expect "$WORK/replay" "stdout (the window as W)" <<'EOF'
md3: reshape 25.1%, 4687 KiB/s per disk (md's own 30 s average; window W s)
  waiting: no progress in W s: /proc/mdstat position 491263360 KiB and md/sync_completed (982526720 / 3906989568) unchanged; md/sync_speed 4687 is md's decaying 30 s average
    => none: nothing shows what md waits on; collect the md threads' /proc/PID/wchan and /proc/PID/stack (root) and dmesg
  info: /proc/mdstat progress did not move in W s; speed from md/sync_speed (md's 30 s average)
    => none
  info: kernel release unreadable: the pacing rule is not known
    => none
EOF

# A capture of a capture's replay holds the same files.
run explain --capture "$WORK/c2.tar"
expect_exit 0
tar tf "$WORK/c2.tar" >"$WORK/list2"
cmp -s "$WORK/list" "$WORK/list2" || fail "a replay's capture lists other files"

# What is at FILE is replaced by a new file, never written into (adversarial-4 F09): a hard
# link's other name keeps its bytes. A FIFO there is refused before anything is read, as
# status --output refuses it (the new file would replace it for every other program), and
# never blocks (timeout: the oldest write hung on it for ever).
echo keep >"$WORK/other"
ln "$WORK/other" "$WORK/h.tar"
mkfifo "$WORK/fifo.tar"
run explain --capture "$WORK/h.tar"
expect_exit 0
tar tf "$WORK/h.tar" >/dev/null 2>&1 || fail "--capture h.tar: not replaced by a capture"
[ "$(cat "$WORK/other")" = keep ] || fail "--capture wrote through a hard link"
MDP_WRAP="timeout 30 ${MDP_WRAP:-}" run_expect 2 - . explain --capture "$WORK/fifo.tar"
stderr_line "mdprofile: --capture $WORK/fifo.tar: it is a FIFO, which the new file would replace"
[ -p "$WORK/fifo.tar" ] || fail "--capture replaced the FIFO"

# --capture into a directory that does not exist: refused before anything is read.
run_expect 2 - explain-capture-nosuchc.tar explain --capture no/such/c.tar
