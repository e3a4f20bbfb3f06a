# explain: a (local) sync_speed_max left at 10000 binds: the one setting, not a profile, and a rough gain
fixture explain/ceiling-local
snapshot
run explain
expect_exit 1
expect_stdout <<'EOF'
md2: recover 22.1%, 9950 KiB/s per disk (progress over 10.0 s), about 1d 18h left
  limits: minimum 10000 (system), maximum 10000 (local): at the maximum: md sleeps above it
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  ceiling: speed 9950 KiB/s, maximum 10000 (local): md sleeps above it
           disks busy: sdd 30% sdc 30% sdb 30% sda 30%
           the array's own maximum (local) overrides dev.raid.speed_limit_max: a profile's sysctl does not lift it
    => echo system > /sys/block/md2/md/sync_speed_max (or a higher number)
    gain: roughly 29850 KiB/s per disk (rough: the speed scaled to the disks' idle time)
EOF
expect_stderr <<'EOF'
EOF
run --json explain
expect_exit 1
expect_json <<'EOF'
{
 "arrays": [
  {
   "array": "md2",
   "action": "recover",
   "speed_kib_s": 9950,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431099500,
   "total_kib": 1948683264,
   "eta_s": 152520,
   "limits": {
    "min_kib_s": 10000,
    "min_source": "system",
    "max_kib_s": 10000,
    "max_source": "local",
    "binds": "max"
   },
   "kernel": "4.4.302+",
   "pacing_rule": "drain",
   "findings": [
    {
     "kind": "ceiling",
     "evidence": [
      "speed 9950 KiB/s, maximum 10000 (local): md sleeps above it",
      "disks busy: sdd 30% sdc 30% sdb 30% sda 30%",
      "the array's own maximum (local) overrides dev.raid.speed_limit_max: a profile's sysctl does not lift it"
     ],
     "recommendation": {
      "kind": "setting",
      "name": "md2/sync_speed_max",
      "value": "system",
      "text": "echo system > /sys/block/md2/md/sync_speed_max (or a higher number)"
     },
     "gain": {
      "kind": "rough",
      "speed_kib_s": 29850
     }
    }
   ]
  }
 ],
 "unreadable": []
}
EOF
expect_unchanged
