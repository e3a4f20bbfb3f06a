# A read-only command under --root runs tools from the tree (status runs
# mdadm for arrays without md/uuid), often as root: only a tool that nobody
# but root or the caller can have changed runs. The refusal names the file
# and why; discovery then falls back to the member superblocks.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/sbin"
chmod 0755 "$ROOT/sbin"
# shellcheck disable=SC2016 # the fake expands them, not this shell
printf '%s\n' '#!/bin/sh' 'echo "$*" >>"$MDPROFILE_ROOT/mdadm.log"' \
	'echo MD_UUID=00112233:44556677:8899aabb:ccddeeff' >"$ROOT/sbin/mdadm"
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

# As it should be: it runs, once per array, and its UUIDs are used.
chmod 0755 "$ROOT/sbin"
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
