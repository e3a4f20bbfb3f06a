# status tells the whole truth (issue 10): degraded arrays with the failed,
# spare and missing members, a reshape's old disk count, md's truncated
# percent, queued operations, arrays only /proc/mdstat knows, an mdstat
# line it cannot read, and the active profile with what it paused, since
# when, its drift, or that a reboot took its values.
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
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          read-auto        resync pending (starts at the first write)
       read-ahead 128 KiB
md1    raid1   4 disks          clean            resync delayed (waits for an array on the same disks)
       read-ahead 128 KiB
md2    raid5   4 disks          clean, degraded  idle
       members: 3 of 4 working; sdc5 failed; sde5 spare
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   4 disks (was 3)  active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md127  -       2 members        inactive         idle
       from /proc/mdstat only: sysfs has no md array by that name: a metadata container

no profile is active
EOF
expect_stderr <<'EOF'
mdprofile: /proc/mdstat:6: unknown array state 'running', skipped
EOF
run --json status
expect_exit 0
expect_json <<'EOF'
{
 "arrays": [
  {
   "name": "md0",
   "level": "raid1",
   "raid_disks": 4,
   "prev_raid_disks": 0,
   "missing_disks": 0,
   "uuid": "1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4",
   "state": "read-auto",
   "source": "sysfs",
   "empty_bays": 0,
   "sync_action": "resync",
   "sync_state": "pending",
   "progress_permille": 0,
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0,
   "kernel_eta_seconds": 0,
   "members": [
    {
     "name": "sda1",
     "slot": 0,
     "state": "in_sync"
    },
    {
     "name": "sdb1",
     "slot": 1,
     "state": "in_sync"
    },
    {
     "name": "sdc1",
     "slot": 2,
     "state": "in_sync"
    },
    {
     "name": "sdd1",
     "slot": 3,
     "state": "in_sync"
    }
   ],
   "stripe_cache_pages": null,
   "stripe_cache_bytes": 0,
   "read_ahead_kib": 128
  },
  {
   "name": "md1",
   "level": "raid1",
   "raid_disks": 4,
   "prev_raid_disks": 0,
   "missing_disks": 0,
   "uuid": "",
   "state": "clean",
   "source": "sysfs",
   "empty_bays": 0,
   "sync_action": "resync",
   "sync_state": "delayed",
   "progress_permille": 0,
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0,
   "kernel_eta_seconds": 0,
   "members": [
    {
     "name": "sda2",
     "slot": 0,
     "state": "in_sync"
    },
    {
     "name": "sdb2",
     "slot": 1,
     "state": "in_sync"
    },
    {
     "name": "sdc2",
     "slot": 2,
     "state": "in_sync"
    },
    {
     "name": "sdd2",
     "slot": 3,
     "state": "in_sync"
    }
   ],
   "stripe_cache_pages": null,
   "stripe_cache_bytes": 0,
   "read_ahead_kib": 128
  },
  {
   "name": "md2",
   "level": "raid5",
   "raid_disks": 4,
   "prev_raid_disks": 0,
   "missing_disks": 1,
   "uuid": "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d",
   "state": "clean",
   "source": "sysfs",
   "empty_bays": 0,
   "sync_action": "idle",
   "sync_state": "idle",
   "progress_permille": 0,
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0,
   "kernel_eta_seconds": 0,
   "members": [
    {
     "name": "sda5",
     "slot": 0,
     "state": "in_sync"
    },
    {
     "name": "sdb5",
     "slot": 1,
     "state": "in_sync"
    },
    {
     "name": "sdc5",
     "slot": 2,
     "state": "failed"
    },
    {
     "name": "sdd5",
     "slot": 3,
     "state": "in_sync"
    },
    {
     "name": "sde5",
     "slot": -1,
     "state": "spare"
    }
   ],
   "stripe_cache_pages": 256,
   "stripe_cache_bytes": 4194304,
   "read_ahead_kib": 192
  },
  {
   "name": "md3",
   "level": "raid5",
   "raid_disks": 4,
   "prev_raid_disks": 3,
   "missing_disks": 0,
   "uuid": "f0e1d2c3b4a5968778695a4b3c2d1e0f",
   "state": "active",
   "source": "sysfs",
   "empty_bays": 0,
   "sync_action": "reshape",
   "sync_state": "running",
   "progress_permille": 251,
   "done_sectors": 982526720,
   "total_sectors": 3906989568,
   "speed_kib_s": 4687,
   "eta_seconds": 311975,
   "kernel_eta_seconds": 311904,
   "members": [
    {
     "name": "sda6",
     "slot": 0,
     "state": "in_sync"
    },
    {
     "name": "sdb6",
     "slot": 1,
     "state": "in_sync"
    },
    {
     "name": "sdd6",
     "slot": 2,
     "state": "in_sync"
    }
   ],
   "stripe_cache_pages": 256,
   "stripe_cache_bytes": 4194304,
   "read_ahead_kib": 192
  },
  {
   "name": "md127",
   "level": "",
   "raid_disks": 0,
   "prev_raid_disks": 0,
   "missing_disks": -1,
   "uuid": "",
   "state": "inactive",
   "source": "mdstat",
   "empty_bays": 0,
   "sync_action": "idle",
   "sync_state": "idle",
   "progress_permille": 0,
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0,
   "kernel_eta_seconds": 0,
   "members": [
    {
     "name": "sdf",
     "slot": -1,
     "state": "spare"
    },
    {
     "name": "sdg",
     "slot": -1,
     "state": "spare"
    }
   ],
   "stripe_cache_pages": null,
   "stripe_cache_bytes": 0,
   "read_ahead_kib": null
  }
 ],
 "active_profile": null,
 "profile_state": "none",
 "journal_profile": null,
 "since_epoch_s": null,
 "until_idle": false,
 "layers": [],
 "watcher": null,
 "paused_services": [],
 "op_speeds": [],
 "drift_values": null,
 "mem_total_kib": 8061828,
 "mem_available_kib": 6918232,
 "dsm_resync_speed": null
}
EOF

# Without md/degraded and dev-*/state (older kernels, restricted sysfs) the
# failed member comes from mdstat's (F) and [n/m].
rm "$B"/md2/md/degraded "$B"/md2/md/dev-*/state
run status -q
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          read-auto        resync pending (starts at the first write)
       read-ahead 128 KiB
md1    raid1   4 disks          clean            resync delayed (waits for an array on the same disks)
       read-ahead 128 KiB
md2    raid5   4 disks          clean, degraded  idle
       members: 3 of 4 working; sdc5 failed; sde5 spare
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   4 disks (was 3)  active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md127  -       2 members        inactive         idle
       from /proc/mdstat only: sysfs has no md array by that name: a metadata container

no profile is active
EOF

# md's percent is truncated, not rounded: 8.58% is 8.5% in /proc/mdstat,
# and status says the same with or without /proc/mdstat beside it.
fixture server-raid6-raid10
echo '335544320 / 3906516992' >"$ROOT"/sys/block/md1/md/sync_completed
sed -i 's|check = 22.1% (431670272/1953258496) finish=28.9min|check =  8.5% (167772160/1953258496) finish=33.9min|' "$ROOT"/proc/mdstat
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid6   8 disks          clean            idle
       stripe cache 8192 (256 MiB), read-ahead 6 MiB
md1    raid10  4 disks          active           check 8.5%, 876543 KiB/s, about 34m left
       read-ahead 2 MiB

no profile is active
EOF
rm "$ROOT"/proc/mdstat
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid6   8 disks          clean            idle
       stripe cache 8192 (256 MiB), read-ahead 6 MiB
md1    raid10  4 disks          active           check 8.5%, 876543 KiB/s, about 34m left
       read-ahead 2 MiB

no profile is active
EOF

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
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 32768 (512 MiB), read-ahead 32 MiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 32768 (384 MiB), read-ahead 32 MiB

active profile: reshape-fast since 2026-11-29 08:30 UTC
paused services: synoindexd, pkgctl-FileStation
md3 reshape: 4687 KiB/s when reshape-fast was applied, 4687 KiB/s now
drift: none
EOF
echo 1000 >"$ROOT"/sys/block/md2/md/stripe_cache_size
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 1000 (16000 KiB), read-ahead 32 MiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 32768 (384 MiB), read-ahead 32 MiB

active profile: reshape-fast since 2026-11-29 08:30 UTC
paused services: synoindexd, pkgctl-FileStation
md3 reshape: 4687 KiB/s when reshape-fast was applied, 4687 KiB/s now
drift: 1 value changed since apply (see 'mdprofile diff')
EOF
run --json status
expect_exit 0
profile_fields >"$WORK/out.p" && mv "$WORK/out.p" "$WORK/out"
expect_json <<'EOF'
{
 "active_profile": "reshape-fast",
 "profile_state": "active",
 "journal_profile": "reshape-fast",
 "since_epoch_s": 1795941000,
 "until_idle": false,
 "layers": [
  {
   "role": "base",
   "profile": "reshape-fast",
   "by": "hand",
   "since_epoch_s": 1795941000
  }
 ],
 "watcher": null,
 "paused_services": [
  "synoindexd",
  "pkgctl-FileStation"
 ],
 "op_speeds": [
  {
   "array": "md3",
   "action": "reshape",
   "applied_kib_s": 4687,
   "now_kib_s": 4687
  }
 ],
 "drift_values": 1,
 "mem_total_kib": 8061828,
 "mem_available_kib": 6918232,
 "dsm_resync_speed": null
}
EOF
echo 6e1f0000-0000-4000-8000-000000000001 >"$ROOT"/proc/sys/kernel/random/boot_id
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 1000 (16000 KiB), read-ahead 32 MiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 32768 (384 MiB), read-ahead 32 MiB

profile reshape-fast was applied before the last reboot: its values are gone
paused before the reboot (run 'mdprofile recover'): synoindexd, pkgctl-FileStation
EOF
expect_stderr <<'EOF'
mdprofile: warning: an interrupted or stale transaction was found; run 'mdprofile recover'
EOF
run --json status
expect_exit 0
profile_fields >"$WORK/out.p" && mv "$WORK/out.p" "$WORK/out"
expect_json <<'EOF'
{
 "active_profile": null,
 "profile_state": "stale",
 "journal_profile": "reshape-fast",
 "since_epoch_s": null,
 "until_idle": false,
 "layers": [],
 "watcher": null,
 "paused_services": [],
 "op_speeds": [],
 "drift_values": null,
 "mem_total_kib": 8061828,
 "mem_available_kib": 6918232,
 "dsm_resync_speed": null
}
EOF

# No /sys/block at all (a restricted container): status says so and shows
# every array as /proc/mdstat lists it; diff and apply still refuse.
fixture ds-dsm6-reshape
rm -r "$ROOT/sys/block"
run status
expect_exit 0
expect_stdout <<'EOF'
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       from /proc/mdstat only: sysfs has no md array by that name
md2    raid5   4 disks          active           idle
       from /proc/mdstat only: sysfs has no md array by that name
md1    raid1   4 disks          active           idle
       from /proc/mdstat only: sysfs has no md array by that name
md0    raid1   4 disks          active           idle
       from /proc/mdstat only: sysfs has no md array by that name

no profile is active
EOF
expect_stderr <<'EOF'
mdprofile: /sys/block is not there: arrays as /proc/mdstat lists them
EOF
run diff balanced
expect_exit 3
expect_stderr <<'EOF'
mdprofile: cannot list /sys/block: No such file or directory
mdprofile: cannot read the system state: No such file or directory
EOF

# An md/ directory without md/level is said, not skipped silently; mdstat
# still shows the array.
fixture ds-dsm6-reshape
rm "$ROOT/sys/block/md1/md/level"
run status -q
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (3 MiB), read-ahead 192 KiB
md1    raid1   4 disks          active           idle
       from /proc/mdstat only: sysfs has no md array by that name

no profile is active
EOF
expect_stderr <<'EOF'
mdprofile: /sys/block/md1/md/level: missing, so md1 is not read from sysfs
EOF
