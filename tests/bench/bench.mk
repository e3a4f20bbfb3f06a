# Benchmark: mdprofile apply reshape-fast + revert against a plain sh
# script doing the same writes and read-backs (docs/PERFORMANCE.md).
#   make bench [BENCH_RUNS=30]
# Prints a table and writes build/bench/results.txt. It fails only when a
# run fails or the two sides leave different trees, never on timing.
BENCH_RUNS ?= 30

bench: mdprofile
	@python3 tests/bench/bench.py --bin ./mdprofile --runs $(BENCH_RUNS) --out build/bench
