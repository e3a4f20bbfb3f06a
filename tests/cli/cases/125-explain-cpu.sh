# explain: md2_raid5 at 95% of a CPU: group_thread_cnt, no number
fixture explain/cpu
snapshot
run explain
expect_exit 1
expect_stdout <<'EOF'
md2: recover 22.1%, 40000 KiB/s per disk (progress over 10.0 s), about 10h 32m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  cpu: md2_raid5: 95% of a CPU (/proc/2345/stat)
    => spread stripe work over 4 threads; the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare' and a profile that sets it
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
   "speed_kib_s": 40000,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431400000,
   "total_kib": 1948683264,
   "eta_s": 37932,
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
     "kind": "cpu",
     "evidence": [
      "md2_raid5: 95% of a CPU (/proc/2345/stat)"
     ],
     "recommendation": {
      "kind": "setting",
      "name": "md2/group_thread_cnt",
      "value": "4",
      "text": "spread stripe work over 4 threads; the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare' and a profile that sets it"
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
