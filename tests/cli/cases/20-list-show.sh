# list and show of the shipped profiles.
fixture ds-dsm6-reshape
run list
expect_exit 0
expect_stdout <<'EOF'
balanced         shipped    Steady RAID progress while the NAS stays responsive
kernel-defaults  shipped    Upstream Linux kernel defaults for md RAID
low-ram          shipped    Balanced, sized for NAS boxes with 512 MiB to 1 GiB of RAM
reshape-fast     shipped    Finish RAID resync, rebuild, reshape or scrub as fast as the disks allow
EOF
expect_stderr <<'EOF'
EOF
run show low-ram
expect_exit 0
expect_stdout <<'EOF'
name: low-ram
file: @BIN@/profiles/low-ram.yaml
extends: balanced
description: Balanced, sized for NAS boxes with 512 MiB to 1 GiB of RAM
memory_budget: 32 MiB
raid.speed_limit_min: 50000 KiB/s
raid.speed_limit_max: 200000 KiB/s
array rule 1: match levels raid4, raid5, raid6
  stripe_cache_size: 2048
array rule 2: match levels raid4, raid5, raid6, raid10
  read_ahead: 4 MiB
array rule 3: match levels raid4, raid5, raid6
  stripe_cache_size: auto
array rule 4: match levels raid4, raid5, raid6, raid10
  read_ahead: 1 MiB
pause service: synoindexd (optional)
pause service: synomkthumbd (optional)
pause service: pkg-FileStation-thumbd (optional)
EOF
expect_stderr <<'EOF'
EOF
run --json show low-ram
expect_exit 0
expect_json <<'EOF'
{
 "name": "low-ram",
 "path": "@BIN@/profiles/low-ram.yaml",
 "chain": [
  "low-ram",
  "balanced"
 ],
 "description": "Balanced, sized for NAS boxes with 512 MiB to 1 GiB of RAM",
 "memory_budget": "32 MiB",
 "raid": {
  "speed_limit_min": 50000,
  "speed_limit_max": 200000
 },
 "arrays": [
  {
   "match": {
    "all": false,
    "names": [],
    "levels": [
     "raid4",
     "raid5",
     "raid6"
    ],
    "uuids": []
   },
   "set": {
    "stripe_cache_size": 2048
   }
  },
  {
   "match": {
    "all": false,
    "names": [],
    "levels": [
     "raid4",
     "raid5",
     "raid6",
     "raid10"
    ],
    "uuids": []
   },
   "set": {
    "read_ahead": 4096
   }
  },
  {
   "match": {
    "all": false,
    "names": [],
    "levels": [
     "raid4",
     "raid5",
     "raid6"
    ],
    "uuids": []
   },
   "set": {
    "stripe_cache_size": "auto"
   }
  },
  {
   "match": {
    "all": false,
    "names": [],
    "levels": [
     "raid4",
     "raid5",
     "raid6",
     "raid10"
    ],
    "uuids": []
   },
   "set": {
    "read_ahead": 1024
   }
  }
 ],
 "services": [
  {
   "name": "synoindexd",
   "optional": true,
   "only_on": null,
   "timeout": null
  },
  {
   "name": "synomkthumbd",
   "optional": true,
   "only_on": null,
   "timeout": null
  },
  {
   "name": "pkg-FileStation-thumbd",
   "optional": true,
   "only_on": null,
   "timeout": null
  }
 ]
}
EOF
expect_stderr <<'EOF'
EOF
run show nope
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: profile 'nope' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF
