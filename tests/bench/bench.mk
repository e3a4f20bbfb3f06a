# Benchmark: mdprofile apply reshape-fast + revert against a plain sh
# script doing the same writes and read-backs (docs/PERFORMANCE.md).
#   make bench [BENCH_RUNS=30]     (ends with make bench-vm: explain's figures in the lab)
# Runs twice: the dynamic release build (./mdprofile) and the static build
# a NAS owner copies onto DSM (build/static/mdprofile); then idle_cpu.py measures
# the watchers' CPU per minute (build/bench/idle_cpu.txt). Prints tables and
# writes build/bench/results.txt and build/bench-static/results.txt. It fails
# only when a run fails or the two sides leave different trees, never on timing.
BENCH_RUNS ?= 30
# CPU seconds per minute of status --watch (idle) and apply --until-idle (issue 10)
BENCH_WATCH_SECONDS ?= 60
# mdprofile auto armed on an idle box, extrapolated to an hour (issue 20: >= 10 minutes)
BENCH_AUTO_SECONDS ?= 600

## apply + revert against a plain shell script, as ratios (docs/PERFORMANCE.md)
bench: mdprofile static
	@python3 tests/bench/bench.py --bin ./mdprofile --runs $(BENCH_RUNS) --out build/bench
	@python3 tests/bench/bench.py --bin $(STATIC)/mdprofile --runs $(BENCH_RUNS) \
		--out build/bench-static --no-callgrind
	@python3 tests/bench/idle_cpu.py --bin ./mdprofile --seconds $(BENCH_WATCH_SECONDS) \
		--auto-bin $(STATIC)/mdprofile --auto-seconds $(BENCH_AUTO_SECONDS) --out build/bench
	@$(MAKE) --no-print-directory bench-vm

# explain's figures in the VM lab (3 A/B/A rounds on each kernel, about 8 min): a sync
# beside a competing reader of the array and beside a reader of DSM's system array on the
# first partitions, under the kernel's limits and under the recommended profile, against
# the idle array; the busy share explain reports for a slow member; and --probe's A/B/A
# of group_thread_cnt on busy CPUs.
.PHONY: bench-vm
## explain's lab figures: syncs beside readers, a slow member, a probe (VM, both kernels)
bench-vm:
	@VM_ROUNDS=3 VM_TIMEOUT=1500 $(MAKE) --no-print-directory vm-check VM_SCENARIOS=96-explain,99-explain-io,99-explain-probe
	@mkdir -p build/bench
	@sh tests/bench/vm_figures.sh $(foreach k,$(VM_KLIST),$(VM_OUT)/$(k)/console.log) | \
		tee build/bench/vm.txt
