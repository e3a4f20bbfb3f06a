# A read-only command under --root runs tools from the tree (status runs
# mdadm for arrays without md/uuid), often as root: a tool runs only when the
# caller named the tree (MDPROFILE_ROOT_EXEC), the tree holds no explain
# capture, and nobody but root or the caller can have changed the tool, its
# directories, the tree or the way to it. The refusal names the file and why;
# discovery then falls back to the member superblocks.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/sbin"
chmod 0755 "$ROOT/sbin"
# shellcheck disable=SC2016 # the fake expands them, not this shell
printf '%s\n' '#!/bin/sh' 'echo "$*" >>"$MDPROFILE_ROOT/mdadm.log"' \
	'echo MD_UUID=00112233:44556677:8899aabb:ccddeeff' >"$ROOT/sbin/mdadm"
chmod 0755 "$ROOT/sbin/mdadm"
# refused: every check but the caller's word passes
chmod go-w "$ROOT"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/sbin/mdadm: refusing to run it: a --root tree's programs run only when MDPROFILE_ROOT_EXEC names the tree
EOF2
# another tree named: the same
MDPROFILE_ROOT_EXEC="$WORK:$SRC/tests/fixtures/ds-dsm6-reshape" run status
expect_exit 0
stderr_has "refusing to run it: a --root tree's programs run only when MDPROFILE_ROOT_EXEC names the tree"
[ ! -e "$ROOT/mdadm.log" ] || fail "mdadm ran in a tree nobody named"

root_tools
chmod 0775 "$ROOT/sbin/mdadm"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/sbin/mdadm: refusing to run it: group/world-writable (mode 0775)
EOF2
[ ! -e "$ROOT/mdadm.log" ] || fail "the group-writable mdadm ran"

chmod 0755 "$ROOT/sbin/mdadm"
chmod 0777 "$ROOT/sbin"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/sbin/mdadm: refusing to run it: directory @ROOT@/sbin is group/world-writable (mode 0777)
EOF2
[ ! -e "$ROOT/mdadm.log" ] || fail "mdadm in a world-writable directory ran"

# the tree itself, and a directory above it, that others can change
chmod 0755 "$ROOT/sbin"
chmod 0775 "$ROOT"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/sbin/mdadm: refusing to run it: directory @ROOT@ is group/world-writable (mode 0775)
EOF2
chmod 0755 "$ROOT"
chmod 0777 "$WORK"
run status
expect_exit 0
stderr_has "refusing to run it: directory $WORK is group/world-writable (mode 0777)"
chmod 0755 "$WORK"
[ ! -e "$ROOT/mdadm.log" ] || fail "mdadm in a tree others can change ran"

# A tree that holds an explain capture (.explain) never runs anything, named or not.
mkdir "$ROOT/.explain"
run status
expect_exit 0
expect_stderr <<'EOF2'
mdprofile: @ROOT@/sbin/mdadm: refusing to run it: the tree holds an explain capture (/.explain), and a capture's programs never run
EOF2
rmdir "$ROOT/.explain"
[ ! -e "$ROOT/mdadm.log" ] || fail "mdadm ran in a capture"

# As it should be: it runs, once per array, and its UUIDs are used.
run --json status
expect_exit 0
expect_stderr <<'EOF2'
EOF2
expect_file mdadm.log <<'EOF2'
--detail --export /dev/md0
--detail --export /dev/md1
--detail --export /dev/md2
--detail --export /dev/md3
EOF2
grep -q '"name": "md1", "level": "raid1", "raid_disks": 4, "prev_raid_disks": 0, "missing_disks": 0, "uuid": "00112233445566778899aabbccddeeff"' \
	"$WORK/out" || fail "status does not show mdadm's UUID for md1"
