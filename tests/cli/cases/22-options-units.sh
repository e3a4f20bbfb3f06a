# Options anywhere ('--' ends them), and one value read the same way by every command.
fixture ds-dsm6-reshape
run list -v
expect_exit 0
expect_stdout <<'EOF'
balanced         shipped    Steady RAID progress while the NAS stays responsive  [@BIN@/profiles/balanced.yaml]
kernel-defaults  shipped    Upstream Linux kernel defaults for md RAID  [@BIN@/profiles/kernel-defaults.yaml]
low-ram          shipped    Balanced, sized for NAS boxes with 512 MiB to 1 GiB of RAM  [@BIN@/profiles/low-ram.yaml]
reshape-fast     shipped    Finish RAID resync, rebuild, reshape or scrub as fast as the disks allow  [@BIN@/profiles/reshape-fast.yaml]
EOF
expect_stderr <<'EOF'
EOF
# -q after the command: diff says nothing, its exit code tells (1: pending).
run diff balanced -q
expect_exit 1
expect_stdout </dev/null
expect_stderr <<'EOF'
EOF
run apply balanced --dry-run
expect_exit 0
expect_stdout <<'EOF'

dev.raid
  speed_limit_min                 10000 KiB/s -> 50000 KiB/s

md2 (raid5, 4 disks)
  read_ahead                          192 KiB -> 4 MiB
  stripe_cache_size                       256 -> 2048   (4 MiB -> 32 MiB)

md3 (raid5, 3 disks, reshape 25.1%)
  read_ahead                          192 KiB -> 4 MiB
  stripe_cache_size                       256 -> 2048   (3 MiB -> 24 MiB)

dry run: 5 changes would be made, nothing was touched
EOF
expect_stderr <<'EOF'
EOF
run apply balanced
expect_exit 0
expect_stdout <<'EOF'
dev.raid.speed_limit_min: 10000 KiB/s -> 50000 KiB/s
md2 read_ahead: 192 KiB -> 4 MiB
md3 read_ahead: 192 KiB -> 4 MiB
md2 stripe_cache_size: 256 -> 2048
md3 stripe_cache_size: 256 -> 2048
profile balanced is active; 'mdprofile revert' restores the values from before
EOF
expect_stderr <<'EOF'
EOF
run diff
expect_exit 0
expect_stdout <<'EOF'
active profile balanced: no drift
EOF
expect_stderr <<'EOF'
EOF
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal" # since_epoch_s reads its time
run status -v --json
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
   "stripe_cache_pages": 2048,
   "stripe_cache_bytes": 33554432,
   "read_ahead_kib": 4096
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
   "stripe_cache_pages": 2048,
   "stripe_cache_bytes": 25165824,
   "read_ahead_kib": 4096
  }
 ],
 "active_profile": "balanced",
 "profile_state": "active",
 "journal_profile": "balanced",
 "since_epoch_s": 1795941000,
 "until_idle": false,
 "layers": [
  {
   "role": "base",
   "profile": "balanced",
   "by": "hand",
   "since_epoch_s": 1795941000
  }
 ],
 "watcher": null,
 "paused_services": [],
 "op_speeds": [
  {
   "array": "md3",
   "action": "reshape",
   "applied_kib_s": 4687,
   "now_kib_s": 4687
  }
 ],
 "drift_values": 0,
 "mem_total_kib": 8061828,
 "mem_available_kib": 6918232,
 "dsm_resync_speed": null
}
EOF
expect_stderr <<'EOF'
EOF
run revert -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
run status --bogus
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: unknown option '--bogus' (see mdprofile --help)
EOF
run status --root
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: option '--root' needs an argument (see mdprofile --help)
EOF
run diff --dry-run balanced
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: --dry-run does not apply to 'diff'
usage: mdprofile [options] diff [PROFILE]
EOF
run diff a b
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
usage: mdprofile [options] diff [PROFILE]
EOF
run --help apply
expect_exit 0
expect_stdout <<'EOF'
usage: mdprofile [options] apply [--dry-run | --until-idle [--interval S] | --base] PROFILE
  apply PROFILE transactionally (rolled back on any failure);
  over an active profile it is an overlay: revert returns to that base
EOF
expect_stderr <<'EOF'
EOF
run check -- -q
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: invalid profile name '-q'
EOF
