# status says the same thing in the same words whether a fact comes from
# sysfs or from /proc/mdstat: one spelling per kernel state (recover,
# read-auto, spare_rebuilding, journal), raid0/linear members counted as
# raid disks, ETA from mdstat's counts and speed, degraded and failed said
# in text, resync=PENDING kept beside sysfs, an inactive array's state
# from mdstat, and "1 disk", "1 member".
fixture ds-dsm6-reshape
rm -r "$ROOT"/sys/block "$ROOT"/etc.defaults
cat >"$ROOT"/proc/mdstat <<'EOF'
Personalities : [linear] [raid0] [raid1] [raid6] [raid5] [raid4]
md2 : active raid5 nvme0n1[3](J) sdc[2] sdb[1] sda[0]
      3906764800 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/3] [UUU]

md3 : active (auto-read-only) raid5 sdd3[2] sde3[3] sdf3[0]
      41908224 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/3] [UUU]
      	resync=PENDING

md4 : active raid1 sdh1[2] sdg1[0]
      976630464 blocks super 1.2 [2/1] [U_]
      [==>..................]  recovery = 12.6% (123456000/976630464) finish=71.1min speed=200000K/sec
      bitmap: 2/8 pages [8KB], 65536KB chunk

md5 : active raid0 sdj1[1] sdi1[0]
      1953260544 blocks super 1.2 512k chunks

md6 : active linear sdk1[0]
      976630336 blocks super 1.2 0k rounding

md7 : active raid5 sdl1[0] sdm1[1](F) sdn1[2](F)
      1953258496 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/1] [U__]

md8 : inactive sdo1[0](S)
      976630336 blocks super 1.2

unused devices: <none>
EOF
run_expect 0 status status status

# The facts both paths can know, one line per array.
facts() {
	python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["arrays"]:
    if len(sys.argv) > 2 and a["name"] not in sys.argv[2:]:
        continue
    print(a["name"], a["raid_disks"], a["missing_disks"], a["state"], a["sync_action"],
          a["sync_state"], a["progress_permille"], a["speed_kib_s"], a["eta_seconds"],
          a["kernel_eta_seconds"], " ".join(m["name"] + ":" + m["state"] for m in a["members"]))
' "$WORK/out" "$@"
}
run --json status
expect_exit 0
facts >"$WORK/facts" && mv "$WORK/facts" "$WORK/out"
expect_stdout json-status

# With sysfs beside it: md0 waits for its first write (md/sync_action
# reads idle, mdstat says resync=PENDING), md1 is inactive with no
# md/array_state, md2 rebuilds sdc5 into its third role.
fixture ds-dsm6-reshape
B=$ROOT/sys/block
echo read-auto >"$B"/md0/md/array_state
rm "$B"/md1/md/array_state "$B"/md1/md/sync_action
echo recover >"$B"/md2/md/sync_action
echo '164102144 / 3897366528' >"$B"/md2/md/sync_completed
echo 100000 >"$B"/md2/md/sync_speed
echo 1 >"$B"/md2/md/degraded
for m in sda5 sdb5 sdd5; do echo in_sync >"$B"/md2/md/dev-$m/state; done
echo spare >"$B"/md2/md/dev-sdc5/state
# the fixture's md3 stanza (through its blank line) as it is, then the rest
sed -n '1,/^$/p' "$ROOT"/proc/mdstat >"$WORK"/mdstat
cat >>"$WORK"/mdstat <<'EOF'
md2 : active raid5 sdd5[4] sda5[0] sdc5[5] sdb5[1]
      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/3] [UU_U]
      [>....................]  recovery =  4.2% (82051072/1948683264) finish=311.1min speed=100000K/sec

md1 : inactive sdd2[3](S) sda2[0](S) sdb2[1](S) sdc2[2](S)
      8388352 blocks

md0 : active (auto-read-only) raid1 sdd1[3] sda1[0] sdb1[1] sdc1[2]
      2490176 blocks [4/4] [UUUU]
      	resync=PENDING

unused devices: <none>
EOF
mv "$WORK"/mdstat "$ROOT"/proc/mdstat
run_expect 0 status.2 . status
run --json status
expect_exit 0
facts md0 md2 >"$WORK/facts" && mv "$WORK/facts" "$WORK/with-sysfs"
# the same arrays from /proc/mdstat alone say the same, but for the state
# word mdstat cannot tell (clean or active) and the order of arrays and members
rm -r "$B"
run --json status
expect_exit 0
facts md0 md2 >"$WORK/facts" && mv "$WORK/facts" "$WORK/out"
expect_stdout json-status.2
cp "$WORK/with-sysfs" "$WORK/out"
expect_stdout json-status.3
