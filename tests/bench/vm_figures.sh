#!/bin/sh
# The VM lab's figures for `make bench-vm` (docs/PERFORMANCE.md), from the BENCH-VM lines
# the explain scenarios print on each kernel's console:
#   vm_figures.sh CONSOLE...
# competing-reader: a raid5 recovery on 8 MiB/s disks beside a reader of the array, as a
# ratio of the same recovery on the idle array (medians of 3 A/B/A rounds; the issue's
# goal for reshape-fast: at least 0.95). system-reader: the data array's recovery beside a
# reader of DSM's system array on the first partitions, kernel limits and the profile
# explain recommends, over the same idle figure. slow-member: the busy shares explain reports for
# a raid1 on a 2 MiB/s and an 8 MiB/s disk (the throttles' ratio says 100 % against 25 %).
# probe: explain --probe's A/B/A windows for a raid6 resync on busy CPUs. goal: a recovery
# beside a client timing its 64 KiB reads every 50 ms: the recovery's KiB/s and the reads'
# mean ms under the kernel's limits, the goal profile (and the latency the watcher steered on,
# with its source), reshape-fast; alone, goal and reshape-fast. goal-dsm: DSM's layout, the
# data array's recovery beside a client of the system array on the same disks (64 KiB or
# 1 MiB reads back to back), kernel limits, the goal (twice the client's idle mean) and
# reshape-fast: the recovery's KiB/s and the client's mean and p95 (a round each, comma
# separated when more); goal-qd8's rows there too: eight 4 KiB clients at once on the
# recovering array itself (`4096x8 md21`).
set -eu
[ $# -gt 0 ] || { echo "usage: vm_figures.sh CONSOLE..." >&2; exit 2; }
lines=$(grep -h '^BENCH-VM: ' "$@" || true)
[ -n "$lines" ] || { echo "vm_figures: no BENCH-VM line in $*" >&2; exit 1; }
# one table per kind of line, in this order, whatever order the consoles printed them
for kind in competing-reader system-reader slow-member probe goal goal-dsm; do
	printf '%s\n' "$lines" | awk -v kind="$kind" '
function v(k,   i, kv) {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
	return ""
}
$2 != kind { next }
!hdr++ && kind != "competing-reader" { print "" }
$2 == "competing-reader" {
	if (hdr == 1) printf "%-18s %9s %17s %17s %7s\n", "sync beside a reader", "idle KiB/s",
	    "kernel limits", "reshape-fast", "rounds"
	i = v("idle") + 0
	printf "%-18s %9d %9d (%5.2f) %9d (%5.2f) %7s\n", v("kernel"), i, v("defaults"),
	    i ? v("defaults") / i : 0, v("reshape-fast"), i ? v("reshape-fast") / i : 0, v("rounds")
}
$2 == "system-reader" {
	if (hdr == 1) printf "%-18s %9s %17s %17s %7s\n", "beside a p1 reader", "idle KiB/s",
	    "kernel limits", "recommended", "rounds"
	i = v("idle") + 0
	printf "%-18s %9d %9d (%5.2f) %9d (%5.2f) %7s  %s\n", v("kernel"), i, v("defaults"),
	    i ? v("defaults") / i : 0, v("recommended"), i ? v("recommended") / i : 0, v("rounds"),
	    v("profile")
}
$2 == "slow-member" {
	if (hdr == 1) printf "%-18s %14s %14s %20s\n", "slow member", "slow busy %",
	    "others busy %", "throttles KiB/s"
	printf "%-18s %14s %14s %13s / %s\n", v("kernel"), v("slow_util"), v("others_util"),
	    v("throttle_slow"), v("throttle_others")
}
$2 == "goal" {
	if (hdr == 1) printf "%-18s %5s %15s %21s %16s %15s %17s\n", "beside a client", "goal",
	    "kernel limits", "goal (mean, p99)", "watcher saw", "reshape-fast", "alone: goal, fast"
	printf "%-18s %5s %7s %5sms %7s %5sms %5sms %6sms %-7s %7s %5sms %8s %8s\n", v("kernel"),
	    v("goal"), v("defaults_kib"), v("defaults_ms"), v("goal_kib"), v("goal_mean"),
	    v("goal_p99"), v("goal_seen"), v("goal_src"), v("fast_kib"), v("fast_ms"), v("alone_kib"),
	    v("fast_alone_kib")
}
$2 == "goal-dsm" {
	if (hdr == 1) printf "%-18s %14s %5s %6s %21s %21s %21s\n", "DSM layout client", "reads",
	    "goal", "alone", "kernel (ms, p95)", "goal (ms, p95)", "reshape-fast (ms, p95)"
	r = v("reader_bytes") (v("clients") > 1 ? "x" v("clients") : "") " " (v("read") ? v("read") : "md20")
	printf "%-18s %14s %5s %6s %7s %6s %6s %7s %6s %6s %7s %6s %6s\n", v("kernel"),
	    r, v("goal"), v("alone_kib"), v("kernel_kib"), v("kernel_ms"),
	    v("kernel_p95"), v("goal_kib"), v("goal_ms"), v("goal_p95"), v("fast_kib"), v("fast_ms"),
	    v("fast_p95")
}
$2 == "probe" {
	if (hdr == 1) printf "%-18s %22s %9s %9s %9s %8s %8s\n", "probe, busy CPUs", "setting",
	    "A KiB/s", "B KiB/s", "A KiB/s", "change", "spread"
	printf "%-18s %22s %9s %9s %9s %7s%% %7s%%\n", v("kernel"), v("setting") " " v("value"), v("a1"), v("b"),
	    v("a2"), v("change_pct"), v("spread_pct")
}'
done
