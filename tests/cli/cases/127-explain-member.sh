# explain: one member 96% busy, the others 9%: the slow disk is the speed
fixture explain/member
snapshot
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: recover 22.1%, 3100 KiB/s per disk (progress over 10.0 s), about 5d 15h left
  limits: minimum 10000 (system), maximum 200000 (system): below the minimum: md is not throttling
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  member: sdc5 (sdc): 96% busy, 5.0 ms a request; the others' median 9%, 5.0 ms
    => none: the slowest member sets the speed; check its SMART data and cable, back up first if the array is degraded
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
   "speed_kib_s": 3100,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431031000,
   "total_kib": 1948683264,
   "eta_s": 489565,
   "limits": {
    "min_kib_s": 10000,
    "min_source": "system",
    "max_kib_s": 200000,
    "max_source": "system",
    "binds": "below-min"
   },
   "kernel": "4.4.302+",
   "pacing_rule": "drain",
   "findings": [
    {
     "kind": "member",
     "evidence": [
      "sdc5 (sdc): 96% busy, 5.0 ms a request; the others' median 9%, 5.0 ms"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: the slowest member sets the speed; check its SMART data and cable, back up first if the array is degraded"
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
