# diff --json of the seed DiskStation, for scripts.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped
run --json diff reshape-fast
expect_exit 1
expect_json <<'EOF'
{
 "profile": "reshape-fast",
 "changes": [
  {
   "target": "dev.raid",
   "tunable": "speed_limit_min",
   "path": "/proc/sys/dev/raid/speed_limit_min",
   "current": 10000,
   "desired": 100000,
   "unit": "KiB/s",
   "pending": true,
   "reason": "raid.speed_limit_min"
  },
  {
   "target": "dev.raid",
   "tunable": "speed_limit_max",
   "path": "/proc/sys/dev/raid/speed_limit_max",
   "current": 200000,
   "desired": 500000,
   "unit": "KiB/s",
   "pending": true,
   "reason": "raid.speed_limit_max"
  },
  {
   "target": "md2",
   "tunable": "read_ahead",
   "path": "/sys/block/md2/queue/read_ahead_kb",
   "current": 192,
   "desired": 32768,
   "unit": "KiB",
   "pending": true,
   "reason": "rule 2 (@BIN@/profiles/reshape-fast.yaml:37)"
  },
  {
   "target": "md3",
   "tunable": "read_ahead",
   "path": "/sys/block/md3/queue/read_ahead_kb",
   "current": 192,
   "desired": 32768,
   "unit": "KiB",
   "pending": true,
   "reason": "rule 2 (@BIN@/profiles/reshape-fast.yaml:37)"
  },
  {
   "target": "md2",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md2/md/stripe_cache_size",
   "current": 256,
   "desired": 32768,
   "unit": "pages",
   "pending": true,
   "reason": "rule 1 (@BIN@/profiles/reshape-fast.yaml:31)"
  },
  {
   "target": "md3",
   "tunable": "stripe_cache_size",
   "path": "/sys/block/md3/md/stripe_cache_size",
   "current": 256,
   "desired": 32768,
   "unit": "pages",
   "pending": true,
   "reason": "rule 1 (@BIN@/profiles/reshape-fast.yaml:31)"
  }
 ],
 "services": [
  {
   "name": "synoindexd",
   "action": "pause",
   "result": "would-pause"
  },
  {
   "name": "synomkthumbd",
   "action": "pause",
   "result": "not-running"
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
 "memory": {
  "budget_bytes": 2063827950,
  "now_bytes": 7340032,
  "after_bytes": 939524096,
  "arrays": [
   {
    "array": "md2",
    "disks": 4,
    "now_bytes": 4194304,
    "after_bytes": 536870912
   },
   {
    "array": "md3",
    "disks": 3,
    "now_bytes": 3145728,
    "after_bytes": 402653184
   }
  ]
 },
 "pending": 6
}
EOF
expect_stderr <<'EOF'
EOF
