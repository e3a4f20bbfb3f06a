# explain: 20 minutes left: not worth tuning
fixture explain/finishing
snapshot
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: recover 99.3%, 10000 KiB/s per disk (progress over 10.0 s), about 20m left
  limits: minimum 10000 (system), maximum 200000 (system): at the minimum: md throttles down to it while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  finishing: 11900000 KiB per disk left at 10000 KiB/s: about 20 min
    => none: not worth tuning
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
   "speed_kib_s": 10000,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 1936783264,
   "total_kib": 1948683264,
   "eta_s": 1190,
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
     "kind": "finishing",
     "evidence": [
      "11900000 KiB per disk left at 10000 KiB/s: about 20 min"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: not worth tuning"
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
