# explain: resync=DELAYED behind md3 on the same disks (md3 itself resyncs, its progress measured over the window); a reshape held by a read-only array
fixture explain/delayed
read_only 0 explain

# a reshape cut off and assembled auto-read-only: md runs none and mdstat shows none, but
# md/reshape_position says where it stands: waiting, with the command that resumes it
fixture explain/reshape-held
run explain
expect_exit 0
expect_stdout reshape-held
expect_no_stderr
run --json explain
expect_exit 0
expect_json json-reshape-held
# the same on a writable array: mdadm has to continue it
for f in "$ROOT/sys/block/md2/md/array_state" "$ROOT/.explain/1/sys/block/md2/md/array_state"; do
	[ ! -e "$f" ] || echo clean >"$f"
done
run explain
expect_exit 0
stdout_line "    => none until the harm check passes; then mdadm must continue it ('mdadm --grow --continue /dev/md2', with the --backup-file it was started with, if any)"
