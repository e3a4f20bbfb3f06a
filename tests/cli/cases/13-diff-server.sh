# A Debian server with raid6 x8 and raid10 mid-check.
fixture server-raid6-raid10
run diff balanced
expect_exit 1
expect_stdout <<'EOF'
profile balanced (@BIN@/profiles/balanced.yaml)

dev.raid
  speed_limit_min                  1000 KiB/s -> 50000 KiB/s

md0 (raid6, 8 disks)
  stripe_cache_size                      8192 -> 2048   (256 MiB -> 64 MiB)
  read_ahead                            6 MiB -> 4 MiB

md1 (raid10, 4 disks, check 22.1%)
  read_ahead                            2 MiB -> 4 MiB

stripe cache memory: 256 MiB now, 64 MiB after; budget 3205 MiB (10% of 32057 MiB RAM)

4 changes pending
EOF
expect_stderr <<'EOF'
EOF
run diff kernel-defaults
expect_exit 1
expect_stdout <<'EOF'
profile kernel-defaults (@BIN@/profiles/kernel-defaults.yaml)

md0 (raid6, 8 disks)
  stripe_cache_size                      8192 -> 256   (256 MiB -> 8 MiB)
  sync_speed_min                  50000 KiB/s -> system
  group_thread_cnt                          4 -> 0

stripe cache memory: 256 MiB now, 8 MiB after; budget 8014 MiB (25% of 32057 MiB RAM, the default)

3 changes pending
EOF
expect_stderr <<'EOF'
EOF
run -v diff kernel-defaults
expect_exit 1
expect_stdout <<'EOF'
profile kernel-defaults (@BIN@/profiles/kernel-defaults.yaml)

dev.raid
  speed_limit_min                  1000 KiB/s == 1000 KiB/s
  speed_limit_max                200000 KiB/s == 200000 KiB/s

md0 (raid6, 8 disks)
  stripe_cache_size                      8192 -> 256   (256 MiB -> 8 MiB)
  sync_speed_min                  50000 KiB/s -> system
  sync_speed_max              system (200000) == system
  group_thread_cnt                          4 -> 0
  preread_bypass_threshold                  1 == 1

md1 (raid10, 4 disks, check 22.1%)
  sync_speed_min                system (1000) == system
  sync_speed_max              system (200000) == system

stripe cache memory: 256 MiB now, 8 MiB after; budget 8014 MiB (25% of 32057 MiB RAM, the default)

3 changes pending
EOF
expect_stderr <<'EOF'
EOF
