# explain reads each member disk's SMART once, after its window, with smartctl as root (a
# fixture root runs its own: tests/fakes/smartctl). A capture holds what smartctl printed and
# its exit status (.explain/smart/DISK, DISK.exit); its replay reads them, never smartctl.
#  1. live: smartctl once per disk, with -n standby (a sleeping disk stays asleep), into the
#     capture; a disk asleep is no error
#  2. a disk with pending sectors beside the slow member: evidence, and "replace that disk"
#  3. a failing disk alone is the member finding, and the floor's profile is withdrawn
#  4. healthy disks: the floor's verdict as before, and one note that SMART was read
#  5. idle arrays listed before the busy one: its disks still asked, once each
# tags: heavy (four live explains with the fake smartctl, each then replayed)

# smart_replay FIXTURE DISK=WORDS...: explain live on FIXTURE (its replay moved away) with
# the fake smartctl answering so, captured (its calls in $WORK/calls); then ROOT is
# FIXTURE's replay with that capture's SMART files.
smart_replay() {
	_fx=$1
	shift
	fixture "$_fx"
	rm -rf "$ROOT/.explain"
	fakes smartctl "$@"
	run explain --interval 0.1 --capture "$WORK/c.tar"
	expect_exit 0
	expect_no_stderr
	rm -rf "$WORK/x" && mkdir "$WORK/x"
	tar xf "$WORK/c.tar" -C "$WORK/x" .explain/smart || fail "the capture holds no SMART"
	cp "$ROOT/var/log/fake-services.log" "$WORK/calls"
	fixture "$_fx"
	cp -a "$WORK/x/.explain/smart" "$ROOT/.explain/smart"
}

smart_replay explain/member sda=ata sdb=ata,crc=3 sdc=ata,pending=8,realloc=24 sdd=standby
_expect "$WORK/calls" "smartctl's calls" <<'CALLS'
smartctl -n standby -H -A -f brief /dev/sdd
smartctl -n standby -H -A -f brief /dev/sdc
smartctl -n standby -H -A -f brief /dev/sdb
smartctl -n standby -H -A -f brief /dev/sda
CALLS
tar tf "$WORK/c.tar" | grep '^\.explain/smart/' | sort >"$WORK/list"
_expect "$WORK/list" "the capture's SMART files" <<'LIST'
.explain/smart/sda
.explain/smart/sda.exit
.explain/smart/sdb
.explain/smart/sdb.exit
.explain/smart/sdc
.explain/smart/sdc.exit
.explain/smart/sdd
.explain/smart/sdd.exit
LIST
[ "$(cat "$WORK/x/.explain/smart/sdd.exit")" = 2 ] || fail "sdd asleep: not smartctl's exit 2"
grep -q '^197 Current_Pending_Sector .* 8$' "$WORK/x/.explain/smart/sdc" ||
	fail "sdc: smartctl's own table is not in the capture"

# 2. the slow member's replay with those answers; no smartctl runs
read_only 0 explain
[ ! -s "$ROOT/var/log/fake-services.log" ] || fail "a replay ran smartctl"

# 3. sdb failing on the floor's box: the member finding, no profile
smart_replay explain/floor sda=ata sdb=ata,failed,realloc=4008 sdc=ata sdd=ata
run explain
expect_exit 0
expect_stdout failing
expect_no_stderr

# 4. all pass (sdd an NVMe answer): the floor's recommendation stands, with one note
smart_replay explain/floor sda=ata sdb=ata sdc=ata sdd=nvme
run explain
expect_exit 1
expect_stdout healthy
expect_no_stderr

# 5. the idle arrays md1 and md0 listed before md2 (mdstat's order varies): md2's disks are
#    still asked, once each; members of an idle array are never asked
fixture explain/member
rm -rf "$ROOT/.explain"
cat >"$ROOT/proc/mdstat" <<'MDSTAT'
Personalities : [raid1] [raid6] [raid5] [raid4]
md1 : active raid1 sdd2[3] sdc2[2] sdb2[1] sda2[0]
      2097088 blocks [4/4] [UUUU]

md0 : active raid1 sdd1[3] sdc1[2] sdb1[1] sda1[0]
      2097088 blocks [4/4] [UUUU]

md2 : active raid5 sdd5[3] sdc5[2] sdb5[1] sda5[0]
      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]
      [====>...............]  recovery = 22.1% (431000000/1948683264) finish=8159.6min speed=3100K/sec

unused devices: <none>
MDSTAT
fakes smartctl sda=ata sdb=ata sdc=ata sdd=ata
run explain --interval 0.1
expect_exit 0
[ "$(grep -c '^smartctl ' "$ROOT/var/log/fake-services.log")" = 4 ] ||
	fail "smartctl not asked once for each of md2's disks: $(cat "$ROOT/var/log/fake-services.log")"
