# explain: md held at the floor by other partitions' I/O (DSM's md0); 14-field diskstats whose counters wrap at 2^32: the upper bound is the new minimum
# tags: smoke (the aarch64 set of make check-deep)
fixture explain/floor
read_only 1 explain
