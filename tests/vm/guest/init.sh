#!/bin/sh
# /init of the lab guest: bring up md on virtio disks, build arrays, run scenarios.
#
# Kernel command line (set by tests/vm/run.sh):
#   mdp_mode=test|demo|shell   what to do once the arrays exist (default test)
#   mdp_boot=1|2                1: create arrays on blank disks; 2: assemble the
#                               arrays the first boot left, under other md numbers
#   mdp_scenarios=a,b           run only these scenarios (names without .sh)
#
# The last line the host looks for is exactly one "VM-RESULT: N passed, N failed".
# Whatever happens, the guest powers off so qemu exits.

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
# mdadm would wait for udev (there is none) and try to hand a reshape to systemd.
MDADM_NO_UDEV=1
MDADM_NO_SYSTEMCTL=1
export MDADM_NO_UDEV MDADM_NO_SYSTEMCTL
LAB=/lab
VM_STATE=/run/vm
export LAB VM_STATE

mounts() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/pts /run /tmp
	mount -t tmpfs -o mode=0755 tmpfs /run
	mount -t tmpfs -o mode=1777 tmpfs /tmp
	mkdir -p /run/mdadm "$VM_STATE" /var/lib /var/log
}

# Command line parameter, or $2 when absent.
param() {
	v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1)
	echo "${v:-$2}"
}

load_modules() {
	while read -r m; do
		insmod "$LAB/modules/$m" || echo "init: insmod $m failed"
	done <"$LAB/modules/load.order"
}

# The block device whose virtio serial is $1 (the host names disks d01, d02, ...).
disk() {
	for d in /sys/block/vd*; do
		if [ "$(cat "$d/serial" 2>/dev/null)" = "$1" ]; then
			echo "/dev/${d##*/}"
			return 0
		fi
	done
	echo "init: no disk with serial $1" >&2
	return 1
}

disks() {
	for s in "$@"; do
		disk "$s" || return 1
	done
}

# Quiet mdadm: its chatter is noise on the console unless it fails.
mdadm_q() {
	out=$(mdadm "$@" 2>&1) || {
		echo "init: mdadm $* failed:"
		echo "$out"
		return 1
	}
}

# Timestamped progress line (uptime), to see where boot time goes.
step() {
	echo "init: $(cut -d' ' -f1 /proc/uptime) s: $*"
}

create() {
	dev=$1 level=$2
	step "create $dev $level"
	shift 2
	n=$#
	# shellcheck disable=SC2046,SC2086 # disks and EXTRA are lists of words
	mdadm_q --create "$dev" --run --force --metadata=1.2 --level="$level" \
		--raid-devices="$n" --homehost=lab $EXTRA $(disks "$@")
}

# Stop the running resync/reshape of $1 at about $2 sectors past its current
# position and let it wait there: md/sync_max can only be lowered while the sync
# thread is stopped, so freeze, set the limit, then unfreeze.  The operation stays
# "in progress" (sync_action still resync/reshape) for as long as the lab runs,
# however fast a profile lets it go.
hold() {
	step "hold $1"
	md=/sys/block/${1#/dev/}/md
	echo frozen >"$md/sync_action"
	i=0
	while [ "$(cat "$md/sync_completed" 2>&1)" != none ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	chunk=$(cat "$md/chunk_size" 2>/dev/null || echo 65536)
	chunk=$((chunk / 512))
	[ "$chunk" -gt 0 ] || chunk=128
	at=$(($2 / chunk * chunk))
	echo "$at" >"$md/sync_max" || echo "init: cannot hold ${1#/dev/} at $at"
	echo idle >"$md/sync_action"
}

# Boot 1: blank disks -> arrays.  Syncs are crawling (speed limits of 1 KiB/s)
# while arrays are created so the held ones cannot finish before hold() runs.
build_arrays() {
	echo 1 >/proc/sys/dev/raid/speed_limit_min
	echo 1 >/proc/sys/dev/raid/speed_limit_max
	EXTRA=--assume-clean
	create /dev/md0 raid1 d01 d02
	create /dev/md1 raid5 d03 d04 d05 d06
	create /dev/md2 raid6 d07 d08 d09 d10
	create /dev/md3 raid10 d11 d12 d13 d14
	# A raid5 in its initial resync.
	EXTRA=
	create /dev/md4 raid5 d15 d16 d17
	hold /dev/md4 16384
	# A raid5 reshaping from 3 to 4 disks.
	# Room before the data lets md move the data offset instead of needing a
	# backup file (and an mdadm process babysitting the critical section).
	EXTRA="--assume-clean --data-offset=8M"
	create /dev/md5 raid5 d18 d19 d20
	mdadm_q --add /dev/md5 "$(disk d21)"
	step "grow /dev/md5"
	mdadm_q --grow /dev/md5 --raid-devices=4
	hold /dev/md5 16384
	EXTRA=
	# The baseline every scenario starts from: upstream defaults.
	echo 1000 >/proc/sys/dev/raid/speed_limit_min
	echo 200000 >/proc/sys/dev/raid/speed_limit_max
}

# Boot 2: the same arrays, assembled under md numbers 10 and up (names are not
# identities; UUIDs are).  Reshapes resume from their superblock position.
assemble_arrays() {
	n=10
	mdadm --examine --scan 2>/dev/null | sed -n 's/.*UUID=\([^ ]*\).*/\1/p' |
		while read -r uuid; do
			mdadm_q --assemble "/dev/md$n" --run --uuid="$uuid" \
				--backup-file=/run/md5.backup --invalid-backup /dev/vd*
			n=$((n + 1))
		done
}

run_scenarios() {
	only=$(param mdp_scenarios "" | tr ',' ' ')
	: >"$VM_STATE/pass"
	: >"$VM_STATE/fail"
	dir=$LAB/scenarios
	[ "$(param mdp_boot 1)" = 2 ] && dir=$LAB/scenarios/boot2
	for f in "$dir"/*.sh; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sh)
		if [ -n "$only" ] && ! echo " $only " | grep -q " $name "; then
			continue
		fi
		# A benchmark's scenario runs only when named (make bench-vm names it).
		if [ -z "$only" ] && grep -q '^# lab: bench-vm only' "$f"; then
			echo "=== $name: make bench-vm's, not the lab's"
			continue
		fi
		echo "=== $name"
		t0=$(cut -d' ' -f1 /proc/uptime)
		# Each scenario in its own shell with a time limit, so one hang or
		# early exit cannot take the others down with it.
		# (180 s a round: mdp_rounds=N repeats 99-explain-io's A/B/A rounds, make bench-vm)
		SCENARIO=$name timeout "${VM_SCENARIO_TIMEOUT:-$((180 * $(param mdp_rounds 1)))}" sh -c \
			". $LAB/lib.sh; . $f" </dev/null 2>&1
		rc=$?
		echo "=== $name took $(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
		if [ $rc -ne 0 ]; then
			echo "FAIL - $name: scenario exited $rc (143 = timed out)"
			echo x >>"$VM_STATE/fail"
		fi
	done
	pass=$(wc -l <"$VM_STATE/pass")
	failed=$(wc -l <"$VM_STATE/fail")
	[ -n "$only" ] && [ "$pass$failed" = 00 ] && {
		echo "FAIL - no scenario matched '$only'"
		failed=1
	}
	echo "=== mdstat at the end"
	cat /proc/mdstat
	echo "VM-RESULT: $pass passed, $failed failed"
}

# Wait (at most 60 s) until no resync/reshape is running, except those held at
# md/sync_max, which wait there and power off cleanly.  With one running at full speed
# (boot 2 without the tool: md15's reshape and md14's resync resume on assembly),
# `poweroff -f` sometimes never returned, on 6.1 and on 5.10, with the guests at -smp 1.
settle_syncs() {
	i=0
	while [ $i -lt 600 ]; do
		busy=
		for md in /sys/block/md*/md; do
			[ -e "$md/sync_action" ] || continue
			case $(cat "$md/sync_action") in idle | frozen) continue ;; esac
			n=${md%/md}
			[ "$(cat "$md/sync_max" 2>/dev/null)" = max ] && busy="$busy ${n##*/}"
		done
		[ -z "$busy" ] && return 0
		[ $i = 0 ] && echo "init: waiting for the syncs of$busy to end before power-off"
		sleep 0.1
		i=$((i + 1))
	done
	echo "init: syncs still running at power-off:$busy"
}

off() {
	# Not after the demo: its reshape of 1 GiB disks would hold the console for a minute.
	[ "$(param mdp_mode test)" = test ] && settle_syncs
	sync
	poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 5
}

lab() {
	load_modules
	mode=$(param mdp_mode test)
	boot=$(param mdp_boot 1)
	if [ "$boot" = 2 ]; then
		assemble_arrays
	elif [ "$mode" = demo ]; then
		:  # demo.sh builds its own array
	else
		build_arrays
	fi
	echo "init: arrays ready at $(cut -d' ' -f1 /proc/uptime) s"
	case $mode in
	demo) sh "$LAB/demo.sh" ;;
	shell) setsid cttyhack sh ;;
	*)
		echo "=== arrays"
		cat /proc/mdstat
		run_scenarios
		;;
	esac
}

main() {
	mounts
	echo 1 >/proc/sys/kernel/sysrq
	# The host checks that the guest runs the kernel it meant to boot (run.sh, VM_KVER).
	echo "init: kernel $(uname -r)"
	# In a subshell: a shell error there must not kill PID 1 (a kernel panic);
	# the host sees the missing VM-RESULT line instead.
	(lab)
	off
}

main "$@"
