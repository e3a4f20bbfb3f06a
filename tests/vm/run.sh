#!/bin/sh
# Boot the lab guest under qemu (TCG) on fresh sparse disks and judge its result.
#
#   run.sh KERNEL INITRAMFS
#
# Environment:
#   VM_MODE=test|demo   test (default) runs the scenarios; demo streams the demo
#   VM_SCENARIOS=a,b    only these scenarios (names without .sh)
#   VM_TIMEOUT=900      seconds per boot before qemu is killed
#   VM_MEM=1024         guest MiB
#   VM_SMP=2            guest CPUs
#   VM_VERBOSE=1        stream the guest console while it runs (demo always does)
#   VM_LOGDIR=build/vm  where console.log (and console-boot2.log) go
#   VM_KVER=REL         the kernel release the guest must report (uname -r), if set
#
# Exit 0 only when every boot printed exactly one "VM-RESULT: N passed, 0 failed"
# and its console shows no oops, BUG, panic or call trace.  A second boot on the
# same disk images runs tests/vm/scenarios/boot2/*.sh when any exist.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: run.sh KERNEL INITRAMFS}
initrd=${2:?usage: run.sh KERNEL INITRAMFS}
mode=${VM_MODE:-test}
timeout_s=${VM_TIMEOUT:-900}
mem=${VM_MEM:-1024}
logdir=${VM_LOGDIR:-build/vm}
scenarios=${VM_SCENARIOS:-}

die() { echo "vm-run: $*" >&2; exit 1; }

# Every scenario VM_SCENARIOS names must exist (in any boot): a misspelt or space-separated
# list would otherwise run nothing and pass.
old_ifs=$IFS IFS=,
for s in $scenarios; do
	found=no
	for f in "$here"/scenarios/"$s".sh "$here"/scenarios/*/"$s".sh; do
		[ -f "$f" ] && found=yes
	done
	[ $found = yes ] ||
		die "VM_SCENARIOS: no scenario '$s' in tests/vm/scenarios (a comma list of names without .sh)"
done
IFS=$old_ifs

# Sparse disk images d01..dNN of $2 MiB in $1: they cost no space until written.
make_disks() {
	i=1
	while [ "$i" -le "$3" ]; do
		truncate -s "${2}M" "$1/$(printf 'd%02d' "$i").img"
		i=$((i + 1))
	done
}

# qemu -drive/-device pairs for every image; the serial (d01, ...) is how the
# guest finds a disk, whatever vdX name it gets. x01..x04 are throttled by qemu
# (throttling.bps-total: disks with a real limit, for 96-explain): 8 MiB/s each,
# x04 2 MiB/s (a slow member). s01 is an ATA disk on the pc machine's PIIX IDE and n01 an
# NVMe namespace: qemu emulates SMART on both, for the real smartctl (96-smart); the
# guest sees them as sdX and nvme0n1, and no virtio disk's name moves. The pc machine's
# bus has 32 slots and the 30 virtio disks fill all it has free (0 and 1 are the host
# bridge and the PIIX), so the NVMe controller is function 1 of c04's slot, the last.
drive_args() {
	for img in "$1"/d*.img "$1"/x*.img "$1"/c*.img "$1"/s*.img "$1"/n*.img; do
		[ -e "$img" ] || continue
		s=$(basename "$img" .img)
		t=
		case $s in
		x04) t=,throttling.bps-total=2097152 ;;
		x*) t=,throttling.bps-total=8388608 ;;
		esac
		printf -- '-drive file=%s,format=raw,if=none,id=%s,cache=unsafe,aio=threads%s ' \
			"$img" "$s" "$t"
		case $s in
		s*) printf -- '-device ide-hd,drive=%s,serial=%s ' "$s" "$s" ;;
		n01) printf -- '-device nvme,drive=%s,serial=%s,addr=0x1f.1 ' "$s" "$s" ;;
		c04) printf -- '-device virtio-blk-pci,drive=%s,serial=%s,addr=0x1f.0,multifunction=on ' \
			"$s" "$s" ;;
		*) printf -- '-device virtio-blk-pci,drive=%s,serial=%s ' "$s" "$s" ;;
		esac
	done
}

# boot LOG CMDLINE-EXTRA: one qemu run; returns qemu's (or timeout's) status.
boot() {
	log=$1
	extra=$2
	# no_timer_check: under TCG on a busy host the kernel's early check of the IO-APIC
	# timer can miss its ticks, print "MP-BIOS bug: 8254 timer not connected" (which the
	# judge takes for a BUG) and in the worst case panic ("IO-APIC + timer doesn't work").
	# shellcheck disable=SC2046
	set -- timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg -m "$mem" -smp "${VM_SMP:-2}" \
		-display none -vga none -nic none -monitor none -serial stdio -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet no_timer_check mdp_mode=$mode $extra" \
		$(drive_args "$disks")
	rc=0
	if [ "$mode" = demo ] || [ "${VM_VERBOSE:-0}" = 1 ]; then
		{ "$@" </dev/null 2>&1 || echo "vm-run-status: $?"; } | tr -d '\r' | tee "$log"
	else
		{ "$@" </dev/null 2>&1 || echo "vm-run-status: $?"; } | tr -d '\r' >"$log"
	fi
	st=$(sed -n 's/^vm-run-status: //p' "$log")
	[ -z "$st" ] || rc=$st
	return "$rc"
}

# judge LOG: 0 when the log shows a clean, fully passing run.
judge() {
	log=$1
	problems=
	n=$(grep -c '^VM-RESULT: ' "$log" || true)
	case $n in
	0) problems="no VM-RESULT line" ;;
	1) ;;
	*) problems="$n VM-RESULT lines" ;;
	esac
	if [ -n "${VM_KVER:-}" ] && ! grep -qx "init: kernel $VM_KVER" "$log"; then
		problems="$problems; the guest did not report kernel $VM_KVER ($(sed -n 's/^init: kernel //p' "$log" | head -n 1))"
	fi
	if grep -Eqi 'Oops|BUG:|Kernel panic|call trace|general protection fault|hung_task' "$log"; then
		problems="$problems; kernel oops/BUG/panic/call trace in the log"
	fi
	if [ "$n" = 1 ]; then
		line=$(grep '^VM-RESULT: ' "$log")
		failed=$(echo "$line" | sed -n 's/^VM-RESULT: [0-9]* passed, \([0-9]*\) failed$/\1/p')
		[ "$failed" = 0 ] || problems="$problems; $line"
		echo "vm-run: $line"
	fi
	[ -z "$problems" ] && return 0
	echo "vm-run: FAILED: ${problems#; }"
	return 1
}

# Whether a boot should run: scenarios exist in $1 matching VM_SCENARIOS.
wanted() {
	for f in "$1"/*.sh; do
		[ -e "$f" ] || continue
		[ -z "$scenarios" ] && return 0
		case ",$scenarios," in *",$(basename "$f" .sh),"*) return 0 ;; esac
	done
	return 1
}

# one_boot N LOG: boot and judge; prints the guest log (or its failures) on failure.
one_boot() {
	start=$(date +%s)
	rc=0
	boot "$2" "mdp_boot=$1${scenarios:+ mdp_scenarios=$scenarios}${VM_ROUNDS:+ mdp_rounds=$VM_ROUNDS}" || rc=$?
	echo "vm-run: boot $1 took $(($(date +%s) - start)) s"
	if [ "$mode" = demo ]; then
		[ "$rc" -eq 0 ] || die "demo qemu exited $rc"
		grep -q '^DEMO-END' "$2" || die "the demo did not finish (see $2)"
		if grep -Eqi 'Oops|BUG:|Kernel panic|call trace' "$2"; then
			die "kernel oops/BUG/panic in the demo (see $2)"
		fi
		return 0
	fi
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && echo "vm-run: FAILED: timed out after $timeout_s s"
	grep '^WARNING - ' "$2" | sed 's/^/vm-run: /' || true # known failures, said not failed
	if judge "$2" && [ "$rc" -eq 0 ]; then
		grep -E '^(ok|FAIL) - ' "$2" | grep -c '^ok' | sed 's/^/vm-run: checks ok: /'
		return 0
	fi
	[ "${VM_VERBOSE:-0}" = 1 ] || { echo "---- guest console ($2)"; cat "$2"; echo "----"; }
	grep -E '^FAIL - ' "$2" | sed 's/^/vm-run: /' || true
	return 1
}

main() {
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (run: sh tests/deps.sh)"
	[ -s "$kernel" ] || die "no kernel $kernel (run tests/vm/fetch.sh)"
	[ -s "$initrd" ] || die "no initramfs $initrd"
	mkdir -p "$logdir"
	disks=$(mktemp -d "${TMPDIR:-/tmp}/mdp-vm-disks.XXXXXX")
	trap 'rm -rf "$disks"' EXIT INT TERM
	if [ "$mode" = demo ]; then
		make_disks "$disks" "${VM_DEMO_MIB:-1024}" 4
		one_boot 1 "$logdir/demo.log"
		return 0
	fi
	make_disks "$disks" 128 22
	# sparse: a sync at 8 MiB/s writes only what the scenario lets it reach; 16 GiB keeps
	# explain from calling it "finishing"
	for x in x01 x02 x03 x04; do truncate -s 16G "$disks/$x.img"; done
	# c01..c04: large, sparse and unthrottled, for a sync that is CPU-bound under TCG
	# (99-explain-probe); 256 GiB keeps explain from calling the resync "finishing" (64 GiB
	# at the 41 MB/s of an SSD-marked resync was under 30 minutes)
	for c in c01 c02 c03 c04; do truncate -s 256G "$disks/$c.img"; done
	# s01 (IDE) and n01 (NVMe): disks that answer SMART (96-smart)
	for s in s01 n01; do truncate -s 128M "$disks/$s.img"; done
	status=0
	if wanted "$here/scenarios" || [ -z "$scenarios" ]; then
		one_boot 1 "$logdir/console.log" || status=1
	fi
	if wanted "$here/scenarios/boot2"; then
		one_boot 2 "$logdir/console-boot2.log" || status=1
	fi
	return $status
}

main "$@"
