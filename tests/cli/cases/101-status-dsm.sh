# status on a Synology box: the system arrays md0/md1 of a 4-bay box with
# two disks are "2 of 4 bays used", not degraded (only md0/md1, raid1,
# superblock 0.90, on DSM); (E) members; DSM's queued lines
# (recovery=DELAYED, check=PENDING, reshape=CLEANING UP); a data scrub
# (md repair); DSM's resync speed setting beside the live limits, and the
# note diff and apply give about it.
fixture ds-dsm6-reshape
B=$ROOT/sys/block
for md in md0 md1; do
	rm -r "$B"/$md/md/dev-sdc* "$B"/$md/md/dev-sdd*
	echo 2 >"$B"/$md/md/degraded
done
echo repair >"$B"/md3/md/sync_action
cat >"$ROOT"/proc/mdstat <<'EOF'
Personalities : [raid1] [linear] [raid0] [raid10] [raid6] [raid5] [raid4] [raidF1]
md3 : active raid5 sdd6[2] sda6[0] sdb6[1]
      1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]
      [=====>...............]  resync = 25.1% (491263360/1953494784) finish=5198.4min speed=4687K/sec

md2 : active raid5 sdd5[4] sda5[0] sdc5[5](E) sdb5[1]
      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]
      	recovery=DELAYED

md1 : active raid1 sda2[0] sdb2[1]
      2097088 blocks [4/2] [UU__]

md0 : active raid1 sda1[0] sdb1[1]
      2490176 blocks [4/2] [UU__]

md5 : active raidF1 sata4p3[0] sata5p3[1] sata6p3[2]
      3902283648 blocks super 1.2 level 5, 64k chunk, algorithm 2 [3/3] [UUU]
      	check=PENDING

md6 : active raid5 sdc7[0] sdd7[1] sde7[2] sdf7[3]
      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]
      	reshape=CLEANING UP

unused devices: <none>
EOF
mkdir -p "$ROOT"/usr/syno/etc
cat >"$ROOT"/usr/syno/etc/raid_setting.conf <<'EOF'
[StripeCacheSize]
md2=4096

[ResyncSpeed]
resync_speed_option="resync_faster"
EOF
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   2 of 4 bays used  clean            idle
       read-ahead 128 KiB
md1    raid1   2 of 4 bays used  clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean, member failed recover delayed (waits for an array on the same disks)
       members: sdc5 failed (disk errors, (E))
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   3 disks          active           data scrub (md repair) 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (3 MiB), read-ahead 192 KiB
md5    raidF1  3 disks          active           check pending (starts at the first write)
       from /proc/mdstat only: sysfs has no md array by that name
md6    raid5   4 disks          active           reshape cleaning_up (DSM finishes the reshape)
       from /proc/mdstat only: sysfs has no md array by that name

speed limits now: min 10000 KiB/s, max 200000 KiB/s; DSM's setting: resync_faster, 300000 / 600000 KiB/s

no profile is active
EOF
expect_stderr <<'EOF'
EOF
dsm_fields() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["arrays"]:
    print(a["name"], a["raid_disks"], a["missing_disks"], a["empty_bays"], a["sync_action"],
          a["sync_state"], " ".join(m["name"] + ":" + m["state"] for m in a["members"]))
print(json.dumps(d["dsm_resync_speed"]))
' "$WORK/out"
}
run --json status
expect_exit 0
dsm_fields >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF'
md0 4 0 2 idle idle sda1:in_sync sdb1:in_sync
md1 4 0 2 idle idle sda2:in_sync sdb2:in_sync
md2 4 0 0 recover delayed sda5:in_sync sdb5:in_sync sdc5:failed sdd5:in_sync
md3 3 0 0 repair running sda6:in_sync sdb6:in_sync sdd6:in_sync
md5 3 0 0 check pending sata4p3:in_sync sata5p3:in_sync sata6p3:in_sync
md6 4 0 0 reshape cleaning_up sdc7:in_sync sdd7:in_sync sde7:in_sync sdf7:in_sync
{"option": "resync_faster", "live_min_kib_s": 10000, "live_max_kib_s": 200000, "min_kib_s": 300000, "max_kib_s": 600000}
EOF

# diff and apply say that DSM writes its own setting back.
run diff balanced
expect_exit 1
grep '^note: DSM' "$WORK/out" >"$WORK/note" || _fail "diff gave no DSM note"
cp "$WORK/note" "$WORK/out"
expect_stdout <<'EOF'
note: DSM writes its own RAID resync speed setting (resync_faster, 300000 / 600000 KiB/s) to speed_limit_min/max at every boot and whenever that setting changes in Storage Manager
EOF
run apply balanced
expect_exit 0
grep '^note: DSM' "$WORK/out" >"$WORK/note" || _fail "apply gave no DSM note"
cp "$WORK/note" "$WORK/out"
expect_stdout <<'EOF'
note: DSM writes its own RAID resync speed setting (resync_faster, 300000 / 600000 KiB/s) to speed_limit_min/max at every boot and whenever that setting changes in Storage Manager
EOF

# The empty-bay rule holds only where all of it identifies DSM's system
# arrays: off DSM, on another array, at another superblock version, md0/md1
# are degraded like any other.
fixture ds-dsm6-reshape
B=$ROOT/sys/block
for md in md0 md1; do
	rm -r "$B"/$md/md/dev-sdc* "$B"/$md/md/dev-sdd*
	echo 2 >"$B"/$md/md/degraded
done
echo 1.2 >"$B"/md1/md/metadata_version
run status -q
expect_exit 0
head -4 "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF'
md0    raid1   2 of 4 bays used  clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean, degraded  idle
       members: 2 of 4 working
EOF
rm "$ROOT"/etc.defaults/VERSION
run status -q
expect_exit 0
head -2 "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF'
md0    raid1   4 disks          clean, degraded  idle
       members: 2 of 4 working
EOF

# resync_manual carries its own numbers; an option mdprofile does not know is shown as is.
mkdir -p "$ROOT"/usr/syno/etc
printf '[ResyncSpeed]\nresync_speed_option = resync_manual\nmin_resync_speed = 50000\nmax_resync_speed = 400000\n' >"$ROOT"/usr/syno/etc/raid_setting.conf
touch "$ROOT"/etc.defaults/VERSION
run --json status
expect_exit 0
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["dsm_resync_speed"]))' "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF'
{"option": "resync_manual", "live_min_kib_s": 10000, "live_max_kib_s": 200000, "min_kib_s": 50000, "max_kib_s": 400000}
EOF
printf '[ResyncSpeed]\nresync_speed_option=resync_turbo\n' >"$ROOT"/usr/syno/etc/raid_setting.conf
run status -q
expect_exit 0
grep '^speed limits' "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF'
speed limits now: min 10000 KiB/s, max 200000 KiB/s; DSM's setting: resync_turbo
EOF
