#!/bin/sh
# Run the lab (run.sh) on each kernel whose cache and initramfs vm.mk prepared.
#
#   labs.sh OUT KERNEL...
#
# KERNEL's guest boots tests/vm/cache/KERNEL/vmlinuz with OUT/KERNEL/initramfs.gz, must
# report the release in tests/vm/cache/KERNEL/kver, and writes its consoles to OUT/KERNEL/.  Environment (besides run.sh's):
#   VM_PARALLEL=1|0   run the kernels' labs at the same time (default 1 for more than
#                     one kernel; VM_VERBOSE=1 always runs them one after the other)
#   VM_SMP=N          guest CPUs (default: 1 each when parallel, 2 otherwise)
#
# Exit 0 only when the lab passed on every kernel.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: labs.sh OUT KERNEL...}
shift
[ $# -gt 0 ] || { echo "usage: labs.sh OUT KERNEL..." >&2; exit 2; }
parallel=${VM_PARALLEL:-1}
[ $# -gt 1 ] || parallel=0
[ "${VM_VERBOSE:-0}" != 1 ] || parallel=0
case $parallel in 0 | 1) ;; *) echo "labs: VM_PARALLEL=$parallel: want 0 or 1" >&2; exit 2 ;; esac
if [ "$parallel" = 1 ]; then
	VM_SMP=${VM_SMP:-1}
else
	VM_SMP=${VM_SMP:-2}
fi
export VM_SMP

# lab KERNEL: one kernel's run, every "vm-run:" line tagged with the kernel;
# leaves OUT/KERNEL/status (run.sh's exit code) and OUT/KERNEL/seconds.
lab() {
	mkdir -p "$out/$1"
	t0=$(date +%s)
	{
		rc=0
		VM_LOGDIR=$out/$1 VM_KVER=$(cat "$here/cache/$1/kver") sh "$here/run.sh" "$here/cache/$1/vmlinuz" "$out/$1/initramfs.gz" 2>&1 || rc=$?
		echo "$rc" >"$out/$1/status"
	} | sed "s/^vm-run: /vm-run $1: /"
	echo $(($(date +%s) - t0)) >"$out/$1/seconds"
}

t0=$(date +%s)
if [ "$parallel" = 1 ]; then
	echo "labs: $* at the same time, -smp $VM_SMP each"
	pids=
	for k in "$@"; do
		rm -f "$out/$k/status"
		mkdir -p "$out/$k"
		lab "$k" >"$out/$k/run.log" &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	trap 'kill $pids 2>/dev/null; exit 130' INT TERM
	# shellcheck disable=SC2086
	wait $pids || true
	trap - INT TERM
	for k in "$@"; do
		cat "$out/$k/run.log"
	done
else
	for k in "$@"; do
		rm -f "$out/$k/status"
		lab "$k"
	done
fi

status=0
for k in "$@"; do
	rc=$(cat "$out/$k/status" 2>/dev/null || echo "none")
	if [ "$rc" = 0 ]; then
		echo "labs: $k passed ($(cat "$out/$k/seconds") s, $(uname -m) TCG, -smp $VM_SMP)"
	else
		echo "labs: $k FAILED (run.sh exit $rc; consoles in $out/$k/)"
		status=1
	fi
done
echo "labs: $* took $(($(date +%s) - t0)) s"
exit $status
