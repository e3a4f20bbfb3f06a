# The output contract (docs/output.md): apply, apply --dry-run, revert and recover share one JSON shape; options may follow the command.
# tags: seam
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
# Nothing pending in a dry run is changed: "changed" says what apply would do.
run apply balanced --dry-run --json
expect_exit 0
expect_json <<'EOF'
{
 "changed": true,
 "profile": "balanced",
 "result": "ok",
 "dry_run": true,
 "changes": [
  {
   "target": "dev.raid",
   "tunable": "speed_limit_min",
   "path": "/proc/sys/dev/raid/speed_limit_min",
   "before": 10000,
   "after": 50000,
   "unit": "KiB/s"
  },
  {
   "target": "md2",
   "tunable": "read_ahead",
   "path": "/sys/block/md2/queue/read_ahead_kb",
   "before": 192,
   "after": 4096,
   "unit": "KiB"
  },
  {
   "target": "md3",
   "tunable": "read_ahead",
   "path": "/sys/block/md3/queue/read_ahead_kb",
   "before": 192,
   "after": 4096,
   "unit": "KiB"
  },
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "before": 256,
   "after": 2048,
   "unit": "pages"
  },
  {
   "target": "md3",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md3/md/stripe_cache_size",
   "before": 256,
   "after": 2048,
   "unit": "pages"
  }
 ],
 "services": [],
 "notes": [],
 "left": []
}
EOF
expect_stderr <<'EOF'
EOF
run apply --json balanced
expect_exit 0
expect_json <<'EOF'
{
 "changed": true,
 "profile": "balanced",
 "result": "ok",
 "dry_run": false,
 "changes": [
  {
   "target": "dev.raid",
   "tunable": "speed_limit_min",
   "path": "/proc/sys/dev/raid/speed_limit_min",
   "before": 10000,
   "after": 50000,
   "unit": "KiB/s"
  },
  {
   "target": "md2",
   "tunable": "read_ahead",
   "path": "/sys/block/md2/queue/read_ahead_kb",
   "before": 192,
   "after": 4096,
   "unit": "KiB"
  },
  {
   "target": "md3",
   "tunable": "read_ahead",
   "path": "/sys/block/md3/queue/read_ahead_kb",
   "before": 192,
   "after": 4096,
   "unit": "KiB"
  },
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "before": 256,
   "after": 2048,
   "unit": "pages"
  },
  {
   "target": "md3",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md3/md/stripe_cache_size",
   "before": 256,
   "after": 2048,
   "unit": "pages"
  }
 ],
 "services": [],
 "notes": [],
 "left": []
}
EOF
expect_stderr <<'EOF'
EOF
# A failed switch to reshape-fast: rolled back to balanced; skipped services stay reported.
MDPROFILE_FAULT=write:2 run apply reshape-fast --json
expect_exit 3
expect_json <<'EOF'
{
 "changed": false,
 "profile": "reshape-fast",
 "result": "rolled-back",
 "dry_run": false,
 "changes": [],
 "services": [
  {
   "name": "synomkthumbd",
   "action": "pause",
   "result": "not-found"
  },
  {
   "name": "pkgctl-FileStation",
   "action": "pause",
   "result": "not-found"
  },
  {
   "name": "pkg-FileStation-thumbd",
   "action": "pause",
   "result": "other-platform"
  },
  {
   "name": "pkg-SynoFinder-fileindexd",
   "action": "pause",
   "result": "other-platform"
  },
  {
   "name": "pkgctl-SynologyPhotos",
   "action": "pause",
   "result": "other-platform"
  }
 ],
 "notes": [],
 "left": []
}
EOF
expect_stderr <<'EOF'
mdprofile: dev.raid.speed_limit_max: writing 500000 KiB/s failed: Input/output error
mdprofile: apply failed; every change was rolled back
EOF
# Drift of the active profile, JSON after the command.
run diff --json
expect_exit 0
expect_json <<'EOF'
{
 "profile": "balanced",
 "changes": [
  {
   "target": "dev.raid",
   "tunable": "speed_limit_min",
   "path": "/proc/sys/dev/raid/speed_limit_min",
   "current": 50000,
   "desired": 50000,
   "unit": "KiB/s",
   "pending": false,
   "reason": "applied by balanced"
  },
  {
   "target": "dev.raid",
   "tunable": "speed_limit_max",
   "path": "/proc/sys/dev/raid/speed_limit_max",
   "current": 200000,
   "desired": 200000,
   "unit": "KiB/s",
   "pending": false,
   "reason": "applied by balanced"
  },
  {
   "target": "md2",
   "tunable": "read_ahead",
   "path": "/sys/block/md2/queue/read_ahead_kb",
   "current": 4096,
   "desired": 4096,
   "unit": "KiB",
   "pending": false,
   "reason": "applied by balanced"
  },
  {
   "target": "md3",
   "tunable": "read_ahead",
   "path": "/sys/block/md3/queue/read_ahead_kb",
   "current": 4096,
   "desired": 4096,
   "unit": "KiB",
   "pending": false,
   "reason": "applied by balanced"
  },
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "current": 2048,
   "desired": 2048,
   "unit": "pages",
   "pending": false,
   "reason": "applied by balanced"
  },
  {
   "target": "md3",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md3/md/stripe_cache_size",
   "current": 2048,
   "desired": 2048,
   "unit": "pages",
   "pending": false,
   "reason": "applied by balanced"
  }
 ],
 "services": [],
 "notes": [],
 "memory": {
  "budget_bytes": 0,
  "now_bytes": 58720256,
  "after_bytes": 58720256,
  "arrays": [
   {
    "array": "md2",
    "disks": 4,
    "now_bytes": 33554432,
    "after_bytes": 33554432
   },
   {
    "array": "md3",
    "disks": 3,
    "now_bytes": 25165824,
    "after_bytes": 25165824
   }
  ]
 },
 "pending": 0
}
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
   "target": "md3",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md3/md/stripe_cache_size",
   "before": 2048,
   "after": 256,
   "unit": "pages"
  },
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "before": 2048,
   "after": 256,
   "unit": "pages"
  },
  {
   "target": "md3",
   "tunable": "read_ahead",
   "path": "/sys/block/md3/queue/read_ahead_kb",
   "before": 4096,
   "after": 192,
   "unit": "KiB"
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
expect_unchanged "json apply + revert"
# No active profile: still one JSON document.
run diff --json
expect_exit 0
expect_json <<'EOF'
{
 "profile": null,
 "changes": [],
 "services": [],
 "notes": [],
 "memory": {
  "budget_bytes": 0,
  "now_bytes": 0,
  "after_bytes": 0,
  "arrays": []
 },
 "pending": 0
}
EOF
expect_stderr <<'EOF'
EOF
run recover --json
expect_exit 0
expect_json <<'EOF'
{
 "changed": false,
 "profile": null,
 "result": "ok",
 "dry_run": false,
 "changes": [],
 "services": [],
 "notes": [],
 "left": []
}
EOF
expect_stderr <<'EOF'
EOF
run revert --json
expect_exit 0
expect_json <<'EOF'
{
 "changed": false,
 "profile": null,
 "result": "ok",
 "dry_run": false,
 "changes": [],
 "services": [],
 "notes": [
  "no profile is active; nothing to revert"
 ],
 "left": []
}
EOF
expect_stderr <<'EOF'
EOF
# Failures before any document: a JSON error object on stdout, the messages on stderr too.
run apply nope --json
expect_exit 2
expect_json <<'EOF'
{
 "error": {
  "exit": 2,
  "messages": [
   "profile 'nope' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)"
  ]
 }
}
EOF
expect_stderr <<'EOF'
mdprofile: profile 'nope' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF
run status --json --root /nonexistent
expect_exit 2
expect_json <<'EOF'
{
 "error": {
  "exit": 2,
  "messages": [
   "--root /nonexistent: No such file or directory"
  ]
 }
}
EOF
expect_stderr <<'EOF'
mdprofile: --root /nonexistent: No such file or directory
EOF
# A profile named like an option after '--'.
run apply --json -- --dry-run
expect_exit 2
expect_json <<'EOF'
{
 "error": {
  "exit": 2,
  "messages": [
   "invalid profile name '--dry-run'"
  ]
 }
}
EOF
expect_stderr <<'EOF'
mdprofile: invalid profile name '--dry-run'
EOF
