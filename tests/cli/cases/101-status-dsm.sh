# status on a Synology box: the system arrays md0/md1 of a 4-bay box with
# two disks are "2 of 4 bays used", not degraded (only md0/md1, raid1,
# superblock 0.90, on DSM); (E) members; DSM's queued lines
# (recovery=DELAYED, check=PENDING, reshape=CLEANING UP); a data scrub
# (md repair); DSM's resync speed setting beside the live limits, and the
# note diff and apply give about it.
# tags: smoke (the aarch64 set of make check-deep)

# The DSM fixture with md0 and md1 (DSM's system and swap arrays) missing two disks each.
degraded_system_arrays() {
	fixture ds-dsm6-reshape
	B=$ROOT/sys/block
	for md in md0 md1; do
		rm -r "$B"/$md/md/dev-sdc* "$B"/$md/md/dev-sdd*
		echo 2 >"$B"/$md/md/degraded
	done
}
degraded_system_arrays
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
run_expect 0 status - status
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
expect_stdout json-status

# diff and apply say that DSM writes its own setting back.
run diff balanced
expect_exit 1
grep '^note: DSM' "$WORK/out" >"$WORK/note" || fail "diff gave no DSM note"
cp "$WORK/note" "$WORK/out"
expect_stdout diff-balanced
run apply balanced
expect_exit 0
grep '^note: DSM' "$WORK/out" >"$WORK/note" || fail "apply gave no DSM note"
cp "$WORK/note" "$WORK/out"
expect_stdout apply-balanced

# The empty-bay rule holds only where all of it identifies DSM's system
# arrays: off DSM, on another array, at another superblock version, md0/md1
# are degraded like any other.
degraded_system_arrays
echo 1.2 >"$B"/md1/md/metadata_version
run status -q
expect_exit 0
head -4 "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout status-q
rm "$ROOT"/etc.defaults/VERSION
run status -q
expect_exit 0
head -2 "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout status-q.2

# resync_manual carries its own numbers; an option mdprofile does not know is shown as is.
mkdir -p "$ROOT"/usr/syno/etc
printf '[ResyncSpeed]\nresync_speed_option = resync_manual\nmin_resync_speed = 50000\nmax_resync_speed = 400000\n' >"$ROOT"/usr/syno/etc/raid_setting.conf
touch "$ROOT"/etc.defaults/VERSION
run --json status
expect_exit 0
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["dsm_resync_speed"]))' "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout json-status.2
printf '[ResyncSpeed]\nresync_speed_option=resync_turbo\n' >"$ROOT"/usr/syno/etc/raid_setting.conf
run status -q
expect_exit 0
grep '^speed limits' "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout status-q.3

# A disk that failed, not an empty bay (issue 37): md2 misses sdd5 and md0/md1 lack
# sdd too, so one of their two empty slots is that disk: degraded, not a bay.
degraded_system_arrays
rm -r "$B"/md2/md/dev-sdd5
echo 1 >"$B"/md2/md/degraded
run --json status
expect_exit 0
python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["arrays"]:
    if a["name"] in ("md0", "md1", "md2"):
        print(a["name"], "missing", a["missing_disks"], "empty_bays", a["empty_bays"])
' "$WORK/out" >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout <<'EOF2'
md0 missing 1 empty_bays 1
md1 missing 1 empty_bays 1
md2 missing 1 empty_bays 0
EOF2
