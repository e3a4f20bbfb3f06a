# explain: 3.10: the stripe cache full in both samples and it does not grow itself
fixture explain/stripe
snapshot
run explain
expect_exit 1
expect_stdout <<'EOF'
md2: reshape 22.1%, 4687 KiB/s per disk (progress over 10.0 s), about 3d 17h left
  limits: minimum 10000 (system), maximum 200000 (system): below the minimum: md is not throttling
  pacing: kernel 3.10.105, pre-4.1 rule, sleeps down to the minimum while it sees other I/O (from upstream md.c)
  stripe-cache: stripe_cache_active 256 -> 256 of stripe_cache_size 256: full in both samples
                kernel 3.10: the cache does not grow by itself before 4.1
    => apply reshape-fast (a stripe cache sized to memory); the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare reshape-fast'
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
   "action": "reshape",
   "speed_kib_s": 4687,
   "speed_source": "progress",
   "window_s": 10.0,
   "done_kib": 431046870,
   "total_kib": 1948683264,
   "eta_s": 323796,
   "limits": {
    "min_kib_s": 10000,
    "min_source": "system",
    "max_kib_s": 200000,
    "max_source": "system",
    "binds": "below-min"
   },
   "kernel": "3.10.105",
   "pacing_rule": "sleep",
   "findings": [
    {
     "kind": "stripe-cache",
     "evidence": [
      "stripe_cache_active 256 -> 256 of stripe_cache_size 256: full in both samples",
      "kernel 3.10: the cache does not grow by itself before 4.1"
     ],
     "recommendation": {
      "kind": "profile",
      "name": "reshape-fast",
      "value": null,
      "text": "apply reshape-fast (a stripe cache sized to memory); the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare reshape-fast'"
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
