# explain: resync=DELAYED behind md3 on the same disks; md3's progress did not move, so md's own average is used and said
fixture explain/delayed
snapshot
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: resync, 0 KiB/s per disk (md's own 30 s average; window 10.0 s)
  waiting: /proc/mdstat: resync=DELAYED
           md3 runs a resync on the same disks; md syncs arrays that share disks one after the other
    => none: it starts when md3 finishes

md3: resync 12.0%, 10000 KiB/s per disk (md's own 30 s average; window 10.0 s), about 23h 52m left
  limits: minimum 10000 (system), maximum 200000 (system): at the minimum: md throttles down to it while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  info: /proc/mdstat progress did not move in 10 s; speed from md/sync_speed (md's 30 s average)
    => none
  info: no limit, shared disk, CPU or cache bound found in this window
        disks busy: sdd 60% sdc 60% sdb 60% sda 60%
    => none: md's own request pattern may be the limit; measure a profile with 'mdprofile bench --op-only --compare'
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
   "action": "resync",
   "speed_kib_s": 0,
   "speed_source": "md",
   "window_s": 10.0,
   "done_kib": 0,
   "total_kib": 0,
   "eta_s": 0,
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
     "kind": "waiting",
     "evidence": [
      "/proc/mdstat: resync=DELAYED",
      "md3 runs a resync on the same disks; md syncs arrays that share disks one after the other"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: it starts when md3 finishes"
     },
     "gain": null
    }
   ]
  },
  {
   "array": "md3",
   "action": "resync",
   "speed_kib_s": 10000,
   "speed_source": "md",
   "window_s": 10.0,
   "done_kib": 117210624,
   "total_kib": 976755200,
   "eta_s": 85954,
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
     "kind": "info",
     "evidence": [
      "/proc/mdstat progress did not move in 10 s; speed from md/sync_speed (md's 30 s average)"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none"
     },
     "gain": null
    },
    {
     "kind": "info",
     "evidence": [
      "no limit, shared disk, CPU or cache bound found in this window",
      "disks busy: sdd 60% sdc 60% sdb 60% sda 60%"
     ],
     "recommendation": {
      "kind": "none",
      "name": null,
      "value": null,
      "text": "none: md's own request pattern may be the limit; measure a profile with 'mdprofile bench --op-only --compare'"
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
