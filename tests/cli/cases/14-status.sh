# status: operations with progress, speed and ETA.
fixture ds-dsm6-reshape
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (3 MiB), read-ahead 192 KiB

no profile is active
EOF
expect_stderr <<'EOF'
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
   "missing_disks": 0,
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
     "state": "in_sync"
    },
    {
     "name": "sdd5",
     "slot": 3,
     "state": "in_sync"
    }
   ],
   "stripe_cache_pages": 256,
   "stripe_cache_bytes": 4194304,
   "read_ahead_kib": 192
  },
  {
   "name": "md3",
   "level": "raid5",
   "raid_disks": 3,
   "prev_raid_disks": 0,
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
   "stripe_cache_bytes": 3145728,
   "read_ahead_kib": 192
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
expect_stderr <<'EOF'
EOF
fixture server-raid6-raid10
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid6   8 disks          clean            idle
       stripe cache 8192 (256 MiB), read-ahead 6 MiB
md1    raid10  4 disks          active           check 22.1%, 876543 KiB/s, about 29m left
       read-ahead 2 MiB

no profile is active
EOF
expect_stderr <<'EOF'
EOF
# -v: each array's UUID and where it came from (no md/uuid in this fixture:
# the member superblocks; md1 has none to read).
fixture ds-dsm6-reshape
run -v status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
       uuid 1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4 (from superblock)
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
       uuid unknown
md2    raid5   4 disks          clean            idle
       stripe cache 256 (4 MiB), read-ahead 192 KiB
       uuid 6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d (from superblock)
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (3 MiB), read-ahead 192 KiB
       uuid f0e1d2c3b4a5968778695a4b3c2d1e0f (from superblock)

no profile is active
EOF
expect_stderr <<'EOF'
EOF
