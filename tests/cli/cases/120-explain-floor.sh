# explain: md held at the floor by other partitions' I/O (DSM's md0); 14-field diskstats whose counters wrap at 2^32: the upper bound is the new minimum
fixture explain/floor
snapshot
run explain
expect_exit 1
expect_stdout <<'EOF'
md2: recover 22.1%, 10100 KiB/s per disk (progress over 10.0 s), about 1d 17h left
  limits: minimum 10000 (system), maximum 200000 (system): at the minimum: md throttles down to it while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  floor: speed 10100 KiB/s, minimum 10000 (system): md throttles to it while other I/O runs
         other partitions of the member disks: 3000 KiB/s in all, most on sda (3000 KiB/s)
    => apply balanced (minimum 50000 KiB/s)
    gain: at most 50000 KiB/s per disk (upper bound: the new minimum, if the disks can)
  competing-io: other partitions of the member disks: 3000 KiB/s in all, most on sda (3000 KiB/s)
    => none beyond the floor's
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
   "speed_kib_s": 10100,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431101000,
   "total_kib": 1948683264,
   "eta_s": 150255,
   "limits": {
    "min_kib_s": 10000,
    "min_source": "system",
    "max_kib_s": 200000,
    "max_source": "system",
    "binds": "min"
   },
   "kernel": "4.4.302+",
   "pacing_rule": "drain",
   "findings": [
    {
     "kind": "floor",
     "evidence": [
      "speed 10100 KiB/s, minimum 10000 (system): md throttles to it while other I/O runs",
      "other partitions of the member disks: 3000 KiB/s in all, most on sda (3000 KiB/s)"
     ],
     "recommendation": {
      "kind": "profile",
      "name": "balanced",
      "value": null,
      "text": "apply balanced (minimum 50000 KiB/s)"
     },
     "gain": {
      "kind": "upper-bound",
      "speed_kib_s": 50000
     }
    },
    {
     "kind": "competing-io",
     "evidence": [
      "other partitions of the member disks: 3000 KiB/s in all, most on sda (3000 KiB/s)"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none beyond the floor's"
     },
     "gain": null
    }
   ]
  }
 ],
 "unreadable": []
}
EOF
expect_unchanged
