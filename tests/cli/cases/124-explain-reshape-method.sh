# explain: a reshape through a backup file: the method sets the pace, no recommendation
fixture explain/backup
snapshot
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: reshape 22.1%, 7118 KiB/s per disk (progress over 10.0 s), about 2d 11h left
  limits: minimum 10000 (system), maximum 200000 (system): below the minimum: md is not throttling
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  reshape-method: /run/mdadm/backup_file-md2: mdadm copies each section to a backup file first
                  md/suspend_hi 123456, md/sync_max max: mdadm steps the reshape
                  md/dev-*/new_offset equals offset: the data offset does not move
    => none: the backup copy sets the pace, no limit or cache changes it; next time reshape without a backup file (mdadm 3.3+, room for a new data offset)
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
   "action": "reshape",
   "speed_kib_s": 7118,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431071180,
   "total_kib": 1948683264,
   "eta_s": 213207,
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
     "kind": "reshape-method",
     "evidence": [
      "/run/mdadm/backup_file-md2: mdadm copies each section to a backup file first",
      "md/suspend_hi 123456, md/sync_max max: mdadm steps the reshape",
      "md/dev-*/new_offset equals offset: the data offset does not move"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: the backup copy sets the pace, no limit or cache changes it; next time reshape without a backup file (mdadm 3.3+, room for a new data offset)"
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
