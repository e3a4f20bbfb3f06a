# An array's own lower limit (issue 38): md3 of the real reshape held at 5 MB/s
# by "5000 (local)" is named by diff for a profile that leaves it alone, lifted
# by reshape-fast and put back exactly by revert.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=stopped synomkthumbd=stopped pkgctl-FileStation=stopped
echo "5000 (local)" >"$ROOT/sys/block/md3/md/sync_speed_max"
run_expect 1 diff-cap-balanced - diff balanced
run_expect 1 diff-cap-reshape-fast - diff reshape-fast
snapshot
run_expect 0 apply - apply reshape-fast
expect_file sys/block/md3/md/sync_speed_max lifted
run_expect 0 diff-applied - diff
revert_unchanged "after reshape-fast and revert"
expect_file sys/block/md3/md/sync_speed_max restored
