# explain: every member 97% busy, nothing else runs: nothing to gain, exit 0
fixture explain/disks
snapshot
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: recover 22.1%, 30000 KiB/s per disk (progress over 10.0 s), about 14h 2m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  disks-at-limit: disks busy: sdd 97% sdc 97% sdb 97% sda 97%
                  30000 KiB/s per member disk, other I/O under 5% of it
    => none: the disks are at their limit, nothing to gain
    gain: none, the disks are the limit
EOF
expect_stderr <<'EOF'
EOF
run --json explain
expect_exit 0
expect_json <<'EOF'
{
 "arrays": [
  {
   "array": "md2",
   "action": "recover",
   "speed_kib_s": 30000,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431300000,
   "total_kib": 1948683264,
   "eta_s": 50579,
   "limits": {
    "min_kib_s": 10000,
    "min_source": "system",
    "max_kib_s": 200000,
    "max_source": "system",
    "binds": "between"
   },
   "kernel": "4.4.302+",
   "pacing_rule": "drain",
   "findings": [
    {
     "kind": "disks-at-limit",
     "evidence": [
      "disks busy: sdd 97% sdc 97% sdb 97% sda 97%",
      "30000 KiB/s per member disk, other I/O under 5% of it"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: the disks are at their limit, nothing to gain"
     },
     "gain": {
      "kind": "zero",
      "speed_kib_s": 30000
     }
    }
   ]
  }
 ],
 "unreadable": []
}
EOF
expect_unchanged
