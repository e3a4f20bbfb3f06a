# Run against the release binary (make cli-release): it is built without the
# fault seam, so MDPROFILE_FAULT, set or inherited by accident, changes
# nothing. The same settings make the test builds fail (31-faults) or crash.
# tags: no-valgrind (needs a binary without the seam; build/vg has it)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
for f in write:1 clamp:1 crash-after-write:1 crash-after-service:1 fsync:1 rename:1 junk; do
	MDPROFILE_FAULT=$f run -q apply reshape-fast
	expect_exit 0
	expect_stderr <<'EOF2'
EOF2
	expect_file sys/block/md2/md/stripe_cache_size <<'EOF2'
32768
EOF2
	MDPROFILE_FAULT=$f run -q revert
	expect_exit 0
	expect_unchanged "revert with MDPROFILE_FAULT=$f"
done
