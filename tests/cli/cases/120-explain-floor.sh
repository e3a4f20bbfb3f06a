# explain: md held at the floor by other partitions' I/O (DSM's md0); 14-field diskstats whose counters wrap at 2^32: the upper bound is the new minimum
# tags: smoke (the aarch64 set of make check-deep)
fixture explain/floor
read_only 1 explain

# the same on SSDs (issue 38): balanced would cap the array (its maximum 200000 stays), so
# reshape-fast, quoting its own minimum for SSD and NVMe arrays
fixture explain/floor-ssd
run explain
expect_exit 1
expect_stdout floor-ssd
expect_no_stderr
