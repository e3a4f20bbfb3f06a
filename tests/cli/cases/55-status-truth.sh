# status tells the whole truth (issue 10): degraded arrays with the failed,
# spare and missing members, a reshape's old disk count, md's truncated
# percent, queued operations, arrays only /proc/mdstat knows, an mdstat
# line it cannot read, and the active profile with what it paused, since
# when, its drift, or that a reboot took its values.
# tags: heavy
fixture ds-dsm6-reshape
B=$ROOT/sys/block
# md3 grows from 3 to 4 disks; md2 lost sdc5 and has sde5 as a spare.
echo '4 (3)' >"$B"/md3/md/raid_disks
echo 1 >"$B"/md2/md/degraded
for m in sda5 sdb5 sdd5; do echo in_sync >"$B"/md2/md/dev-$m/state; done
echo faulty >"$B"/md2/md/dev-sdc5/state
mkdir "$B"/md2/md/dev-sde5 && echo none >"$B"/md2/md/dev-sde5/slot && echo spare >"$B"/md2/md/dev-sde5/state
# md1 waits behind md3 on the same disks; md0 was never written since assembly.
echo resync >"$B"/md1/md/sync_action && echo delayed >"$B"/md1/md/sync_completed
echo resync >"$B"/md0/md/sync_action && echo none >"$B"/md0/md/sync_completed
echo read-auto >"$B"/md0/md/array_state
cat >"$ROOT"/proc/mdstat <<'EOF'
Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]
md3 : active raid5 sde6[3] sdd6[2] sda6[0] sdb6[1]
      1953494784 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/4] [UUUU]
      [=====>...............]  reshape = 25.1% (491263360/1953494784) finish=5198.4min speed=4687K/sec

md9 : running raid1 sdx1[0] sdy1[1]
      1000 blocks super 1.2 [2/2] [UU]

md2 : active raid5 sde5[6](S) sdd5[4] sda5[0] sdc5[5](F) sdb5[1]
      5846049792 blocks super 1.2 level 5, 64k chunk, algorithm 2 [4/3] [UU_U]

md1 : active raid1 sdd2[3] sda2[0] sdb2[1] sdc2[2]
      2097088 blocks [4/4] [UUUU]
      	resync=DELAYED

md0 : active (auto-read-only) raid1 sdd1[3] sda1[0] sdb1[1] sdc1[2]
      2490176 blocks [4/4] [UUUU]
      	resync=PENDING

md127 : inactive sdf[1](S) sdg[0](S)
      5288 blocks super external:imsm
       
unused devices: <none>
EOF
run_expect 0 status status status
run --json status
expect_exit 0
# what each array is and does, as sysfs and mdstat tell it (case 14 pins the whole document)
json_only arrays.name arrays.level arrays.raid_disks arrays.prev_raid_disks arrays.missing_disks \
	arrays.state arrays.source arrays.sync_action arrays.sync_state arrays.progress_permille \
	arrays.members
expect_json json-status

# Without md/degraded and dev-*/state (older kernels, restricted sysfs) the
# failed member comes from mdstat's (F) and [n/m].
rm "$B"/md2/md/degraded "$B"/md2/md/dev-*/state
run_expect 0 status-q . status -q

# md's percent is truncated, not rounded: 8.58% is 8.5% in /proc/mdstat,
# and status says the same with or without /proc/mdstat beside it.
fixture server-raid6-raid10
echo '335544320 / 3906516992' >"$ROOT"/sys/block/md1/md/sync_completed
sed -i 's|check = 22.1% (431670272/1953258496) finish=28.9min|check =  8.5% (167772160/1953258496) finish=33.9min|' "$ROOT"/proc/mdstat
run_expect 0 status.2 . status
rm "$ROOT"/proc/mdstat
run_expect 0 status.3 . status

# The profile half of the JSON document.
profile_fields() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["arrays"]; print(json.dumps(d))' "$WORK/out"
}

# The active profile: since when, what it paused, drift; then a reboot.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
run -q apply reshape-fast
expect_exit 0
touch -d '2026-11-29 08:30 UTC' "$ROOT"/run/mdprofile/journal
run_expect 0 shared/status.2 . status
echo 1000 >"$ROOT"/sys/block/md2/md/stripe_cache_size
run_expect 0 status.5 . status
run --json status
expect_exit 0
profile_fields >"$WORK/out.p" && mv "$WORK/out.p" "$WORK/out"
expect_json json-status.2
echo 6e1f0000-0000-4000-8000-000000000001 >"$ROOT"/proc/sys/kernel/random/boot_id
run_expect 0 status.6 status.2 status
run --json status
expect_exit 0
profile_fields >"$WORK/out.p" && mv "$WORK/out.p" "$WORK/out"
expect_json json-status.3

# No /sys/block at all (a restricted container): status says so and shows
# every array as /proc/mdstat lists it; diff and apply still refuse.
fixture ds-dsm6-reshape
rm -r "$ROOT/sys/block"
run_expect 0 status.7 status.3 status
run_expect 3 . diff-balanced diff balanced

# An md/ directory without md/level is said, not skipped silently; mdstat
# still shows the array.
fixture ds-dsm6-reshape
rm "$ROOT/sys/block/md1/md/level"
run_expect 0 status-q.2 status-q status -q

# A journal status cannot read (not root; here one not to be trusted): what is active
# is unknown, never "no profile is active" (issue 37).
fixture ds220j-dsm7
mkdir -p "$ROOT/run/mdprofile/journal"
chmod 0700 "$ROOT/run/mdprofile"
run status
expect_exit 0
stdout_line 'active profile: unknown: cannot read /run/mdprofile/journal (see the warning)'
run --json status
expect_exit 0
json_field .profile_state '"unknown"'
run status --format prometheus
expect_exit 0
stdout_line 'mdprofile_journal_readable 0'
grep -q '^mdprofile_profile_active' "$WORK/out" && fail "an unknown profile exported as a 0 or 1"
