# A capture is data (issue 47): replaying one someone sent (explain, status, diff under
# --root on the extracted tar) runs no program it carries: not its mdadm (status and diff
# ask one for an array without md/uuid), not its smartctl (explain asks one where the tree
# is no replay), though extraction made them root's, and not even where MDPROFILE_ROOT_EXEC
# names the tree. Stripped of its .explain, it is a tree nobody named: nothing runs either.
fixture explain/floor
run explain --capture "$WORK/c.tar"
expect_exit 1
expect_no_stderr
# The honest capture with two members appended, root's and 0755, each leaving a line behind.
mkdir -p "$WORK/evil/usr/sbin"
for t in mdadm smartctl; do
	printf '#!/bin/sh\necho "%s $*" >>%s/ran\n' "$t" "$WORK" >"$WORK/evil/usr/sbin/$t"
done
chmod 0755 "$WORK/evil/usr" "$WORK/evil/usr/sbin" "$WORK/evil/usr/sbin/"*
cp "$WORK/c.tar" "$WORK/hostile.tar"
tar --owner=0 --group=0 -rf "$WORK/hostile.tar" -C "$WORK/evil" usr usr/sbin/mdadm usr/sbin/smartctl
mkdir "$WORK/r"
tar xf "$WORK/hostile.tar" -C "$WORK/r"
ROOT=$WORK/r

run explain
expect_exit 1
expect_stdout replay
expect_no_stderr
run status
expect_exit 0
expect_stderr refused
run diff balanced
expect_exit 1
expect_stderr refused
MDPROFILE_ROOT_EXEC=$ROOT run status
expect_exit 0
expect_stderr refused
[ ! -e "$WORK/ran" ] || fail "a replay ran the capture's programs: $(cat "$WORK/ran")"

# Without its .explain: explain samples the tree live (and would ask smartctl), status its mdadm.
mkdir "$WORK/s"
tar xf "$WORK/hostile.tar" -C "$WORK/s" --exclude=.explain
ROOT=$WORK/s
run explain --interval 0.1
expect_exit 0
expect_no_stderr
stdout_line "not read: @ROOT@/usr/sbin/smartctl (refusing to run it: a --root tree's programs run only when MDPROFILE_ROOT_EXEC names the tree)"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/usr/sbin/mdadm: refusing to run it: a --root tree's programs run only when MDPROFILE_ROOT_EXEC names the tree
EOF2
[ ! -e "$WORK/ran" ] || fail "a tree nobody named ran its programs: $(cat "$WORK/ran")"
