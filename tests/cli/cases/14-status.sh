# status: operations with progress, speed and ETA.
fixture ds-dsm6-reshape
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid1    4 disks  clean      idle
md1    raid1    4 disks  clean      idle
md2    raid5    4 disks  clean      idle
md3    raid5    3 disks  active     reshape 25.1%, 4687 KiB/s, about 3d 14h left

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
   "uuid": "1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4",
   "state": "clean",
   "sync_action": "idle",
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0
  },
  {
   "name": "md1",
   "level": "raid1",
   "raid_disks": 4,
   "uuid": "",
   "state": "clean",
   "sync_action": "idle",
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0
  },
  {
   "name": "md2",
   "level": "raid5",
   "raid_disks": 4,
   "uuid": "6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d",
   "state": "clean",
   "sync_action": "idle",
   "done_sectors": 0,
   "total_sectors": 0,
   "speed_kib_s": 0,
   "eta_seconds": 0
  },
  {
   "name": "md3",
   "level": "raid5",
   "raid_disks": 3,
   "uuid": "f0e1d2c3b4a5968778695a4b3c2d1e0f",
   "state": "active",
   "sync_action": "reshape",
   "done_sectors": 982526720,
   "total_sectors": 3906989568,
   "speed_kib_s": 4687,
   "eta_seconds": 311975
  }
 ],
 "active_profile": null,
 "paused_services": [],
 "mem_total_kib": 8061828,
 "mem_available_kib": 6918232
}
EOF
expect_stderr <<'EOF'
EOF
fixture server-raid6-raid10
run status
expect_exit 0
expect_stdout <<'EOF'
md0    raid6    8 disks  clean      idle
md1    raid10   4 disks  active     check 22.1%, 876543 KiB/s, about 29m left

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
md0    raid1    4 disks  clean      idle
       uuid 1d2c3b4a9e8f7a6b5c4d3e2f01f2e3d4 (from superblock)
md1    raid1    4 disks  clean      idle
       uuid unknown
md2    raid5    4 disks  clean      idle
       uuid 6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d (from superblock)
md3    raid5    3 disks  active     reshape 25.1%, 4687 KiB/s, about 3d 14h left
       uuid f0e1d2c3b4a5968778695a4b3c2d1e0f (from superblock)

no profile is active
EOF
expect_stderr <<'EOF'
EOF
