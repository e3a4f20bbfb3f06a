# A 512 MiB two-disk DS220j (DSM 7): raid1 only, low-ram.
fixture ds220j-dsm7
fakes dsm7 synoindexd=running pkg-FileStation-thumbd=stopped
run diff low-ram
expect_exit 1
expect_stdout <<'EOF'
profile low-ram (@BIN@/profiles/low-ram.yaml)

dev.raid
  speed_limit_min                 10000 KiB/s -> 50000 KiB/s

services
  synoindexd: running; would be paused
  synomkthumbd: not found (optional); skipped
  pkg-FileStation-thumbd: stopped; left alone

1 change pending
EOF
expect_stderr <<'EOF'
EOF
run diff reshape-fast
expect_exit 1
expect_stdout <<'EOF'
profile reshape-fast (@BIN@/profiles/reshape-fast.yaml)

dev.raid
  speed_limit_min                 10000 KiB/s -> 100000 KiB/s
  speed_limit_max                200000 KiB/s -> 500000 KiB/s

services
  synoindexd: running; would be paused
  synomkthumbd: not found (optional); skipped
  pkg-FileStation-thumbd: stopped; left alone
  pkg-SynoFinder-fileindexd: not found (optional); skipped
  pkgctl-SynologyPhotos: not found (optional); skipped

2 changes pending
EOF
expect_stderr <<'EOF'
EOF
