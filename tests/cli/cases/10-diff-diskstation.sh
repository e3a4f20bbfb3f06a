# The seed DiskStation (DSM 6, md3 reshaping): what reshape-fast changes.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped pkgctl-FileStation=running
snapshot
run diff reshape-fast
expect_exit 1
expect_stdout <<'EOF'
profile reshape-fast (@BIN@/profiles/reshape-fast.yaml)

dev.raid
  speed_limit_min                 10000 KiB/s -> 100000 KiB/s
  speed_limit_max                200000 KiB/s -> 500000 KiB/s

md2 (raid5, 4 disks)
  read_ahead                          192 KiB -> 32 MiB
  stripe_cache_size                       256 -> 32768   (4 MiB -> 512 MiB)

md3 (raid5, 3 disks, reshape 25.1%)
  read_ahead                          192 KiB -> 32 MiB
  stripe_cache_size                       256 -> 32768   (3 MiB -> 384 MiB)

stripe cache memory: 7 MiB now, 896 MiB after; budget 1968 MiB (25% of 7872 MiB RAM)

services
  synoindexd: running; would be paused
  synomkthumbd: stopped; left alone
  pkgctl-FileStation: running; would be paused

6 changes pending
EOF
expect_stderr <<'EOF'
EOF
expect_unchanged "diff"
# The entries for DSM 7 (only_on) are noise on DSM 6: shown with -v only.
run -v diff reshape-fast
expect_exit 1
sed -n '/^services$/,/^$/p' "$WORK/out" >"$WORK/svc"
cp "$WORK/svc" "$WORK/out"
expect_stdout <<'EOF'
services
  synoindexd: running; would be paused
  synomkthumbd: stopped; left alone
  pkgctl-FileStation: running; would be paused
  pkg-FileStation-thumbd: not for this platform (only_on); skipped
  pkg-SynoFinder-fileindexd: not for this platform (only_on); skipped
  pkgctl-SynologyPhotos: not for this platform (only_on); skipped

EOF
