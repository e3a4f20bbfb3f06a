# An array stopped after apply took its values with it: revert says so and finishes (issue 13, item 3).
fixture ds-dsm6-reshape
run apply balanced -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
rm -rf "$ROOT"/sys/block/md3 "$ROOT"/sys/devices/virtual/block/md3
run revert
expect_exit 0
expect_stdout <<'EOF'
reverting profile balanced
md3 no longer exists: its values went with it, nothing to restore
md2 stripe_cache_size: 2048 -> 256
md2 read_ahead: 4 MiB -> 192 KiB
dev.raid.speed_limit_min: 50000 KiB/s -> 10000 KiB/s
EOF
expect_stderr <<'EOF'
EOF
run status -q
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       from /proc/mdstat only: sysfs has no md array by that name

no profile is active
EOF
expect_stderr <<'EOF'
EOF
run apply balanced -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
run revert --json
expect_exit 0
expect_json <<'EOF'
{
 "changed": true,
 "profile": "balanced",
 "result": "ok",
 "dry_run": false,
 "changes": [
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "before": 2048,
   "after": 256,
   "unit": "pages"
  },
  {
   "target": "md2",
   "tunable": "read_ahead",
   "path": "/sys/block/md2/queue/read_ahead_kb",
   "before": 4096,
   "after": 192,
   "unit": "KiB"
  },
  {
   "target": "dev.raid",
   "tunable": "speed_limit_min",
   "path": "/proc/sys/dev/raid/speed_limit_min",
   "before": 50000,
   "after": 10000,
   "unit": "KiB/s"
  }
 ],
 "services": [],
 "notes": [
  "reverting profile balanced"
 ],
 "left": []
}
EOF
expect_stderr <<'EOF'
EOF
# A tampered journal naming an absent device does not wedge later commands either.
mkdir -p "$ROOT"/run/mdprofile && printf 'mdprofile-journal 1\nstate applying\nboot_id %s\nprofile "x"\npath "-"\nbase stripe_cache_size md9 "256"\nend\n' "$(cat "$ROOT"/proc/sys/kernel/random/boot_id)" > "$ROOT"/run/mdprofile/journal
run recover
expect_exit 0
expect_stdout <<'EOF'
found an interrupted apply of profile x: restoring the baseline
md9 no longer exists: its values went with it, nothing to restore
EOF
expect_stderr <<'EOF'
EOF
run apply balanced -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
run revert -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
