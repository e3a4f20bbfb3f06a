# apply -> status -> drift -> revert on the seed DiskStation with DSM 6 services.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped pkgctl-FileStation=running
snapshot
run_expect 0 apply-reshape-fast - apply reshape-fast
expect_file sys/block/md2/md/stripe_cache_size stripe_cache_size
expect_file proc/sys/dev/raid/speed_limit_min speed_limit_min
# md3 follows the sysctl ("system"): md shows the new number.
expect_file sys/block/md3/md/sync_speed_min sync_speed_min
expect_file var/lib/fake-services/synoindexd synoindexd

# Again: nothing to change; services it did not pause are looked at again.
run_expect 0 apply-reshape-fast.2 . apply reshape-fast

touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal" # "since" reads its time
run_expect 0 shared/status.2 . status

run_expect 0 diff . diff

# Someone (or DSM) changes a value by hand: diff reports the drift.
echo 1024 >"$ROOT/sys/block/md2/md/stripe_cache_size"
run_expect 1 diff.2 . diff

run_expect 0 revert - revert
expect_unchanged "after revert"
# The user's stopped service was never touched; only ours were resumed.
expect_file var/log/fake-services.log fake-services.log

run_expect 0 revert.2 . revert
