# apply -> status -> drift -> revert on the seed DiskStation with DSM 6 services.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped pkgctl-FileStation=running
snapshot
run apply reshape-fast
expect_exit 0
expect_stdout <<'EOF'
service synomkthumbd is not running; left alone
dev.raid.speed_limit_min: 10000 KiB/s -> 100000 KiB/s
dev.raid.speed_limit_max: 200000 KiB/s -> 500000 KiB/s
md2 read_ahead: 192 KiB -> 32 MiB
md3 read_ahead: 192 KiB -> 32 MiB
md2 stripe_cache_size: 256 -> 32768
md3 stripe_cache_size: 256 -> 32768
service synoindexd: paused
service pkgctl-FileStation: paused
profile reshape-fast is active; 'mdprofile revert' restores the values from before
EOF
expect_stderr <<'EOF'
EOF
expect_file sys/block/md2/md/stripe_cache_size <<'EOF'
32768
EOF
expect_file proc/sys/dev/raid/speed_limit_min <<'EOF'
100000
EOF
# md3 follows the sysctl ("system"): md shows the new number.
expect_file sys/block/md3/md/sync_speed_min <<'EOF'
100000 (system)
EOF
expect_file var/lib/fake-services/synoindexd <<'EOF'
paused
EOF

# Again: nothing to change; services it did not pause are looked at again.
run apply reshape-fast
expect_exit 0
expect_stdout <<'EOF'
service synomkthumbd is not running; left alone
profile reshape-fast: already in sync, nothing changed
EOF

touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal" # "since" reads its time
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

run diff
expect_exit 0
expect_stdout <<'EOF'
active profile reshape-fast: no drift
EOF

# Someone (or DSM) changes a value by hand: diff reports the drift.
echo 1024 >"$ROOT/sys/block/md2/md/stripe_cache_size"
run diff
expect_exit 1
expect_stdout <<'EOF'
drift from active profile reshape-fast (live -> applied)

md2 (raid5, 4 disks)
  stripe_cache_size                      1024 -> 32768   (16 MiB -> 512 MiB)

1 value drifted; 'mdprofile apply reshape-fast' sets them again
EOF

run revert
expect_exit 0
expect_stdout <<'EOF'
reverting profile reshape-fast
md3 stripe_cache_size: 32768 -> 256
md2 stripe_cache_size: 1024 -> 256
md3 read_ahead: 32 MiB -> 192 KiB
md2 read_ahead: 32 MiB -> 192 KiB
dev.raid.speed_limit_max: 500000 KiB/s -> 200000 KiB/s
dev.raid.speed_limit_min: 100000 KiB/s -> 10000 KiB/s
service pkgctl-FileStation: resumed
service synoindexd: resumed
EOF
expect_stderr <<'EOF'
EOF
expect_unchanged "after revert"
# The user's stopped service was never touched; only ours were resumed.
expect_file var/log/fake-services.log <<'EOF'
synoservice --status synoindexd
synoservice --status synomkthumbd
synoservice --status pkgctl-FileStation
synoservice --pause-by-reason synoindexd mdprofile
synoservice --status synoindexd
synoservice --pause-by-reason pkgctl-FileStation mdprofile
synoservice --status pkgctl-FileStation
synoservice --status synomkthumbd
synoservice --status pkgctl-FileStation
synoservice --resume-by-reason pkgctl-FileStation mdprofile
synoservice --status pkgctl-FileStation
synoservice --status synoindexd
synoservice --resume-by-reason synoindexd mdprofile
synoservice --status synoindexd
EOF

run revert
expect_exit 0
expect_stdout <<'EOF'
no profile is active; nothing to revert
EOF
