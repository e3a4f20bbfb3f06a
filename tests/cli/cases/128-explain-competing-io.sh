# explain: users' I/O on md2 itself between the limits: a profile, gain only by measuring
fixture explain/competing
snapshot
run explain
expect_exit 1
expect_stdout <<'EOF'
md2: recover 22.1%, 60000 KiB/s per disk (progress over 10.0 s), about 7h 1m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  competing-io: md2 itself: 20000 KiB/s of other reads and writes, 1 in flight
    => apply reshape-fast: a minimum above the speed stops md's throttle; the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare reshape-fast'
    gain: cannot be computed from two samples
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
   "speed_kib_s": 60000,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431600000,
   "total_kib": 1948683264,
   "eta_s": 25284,
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
     "kind": "competing-io",
     "evidence": [
      "md2 itself: 20000 KiB/s of other reads and writes, 1 in flight"
     ],
     "recommendation": {
      "kind": "profile",
      "name": "reshape-fast",
      "value": null,
      "text": "apply reshape-fast: a minimum above the speed stops md's throttle; the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare reshape-fast'"
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
