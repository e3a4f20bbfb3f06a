# shellcheck shell=sh
# demo: a RAID5 reshape (3 -> 4 disks) before and after `mdprofile apply reshape-fast`.
#
# Run by /init with mdp_mode=demo; the host streams the console.  The numbers shown
# are what the kernel reports (md/sync_speed, KiB/s, averaged over its own window),
# sampled every few seconds; nothing is computed or made up here.

MD=/dev/md0
SYS=/sys/block/md0/md
MDP=/usr/bin/mdprofile
SAMPLE=${DEMO_SAMPLES:-5}   # samples per phase
EVERY=3                     # seconds between samples

say() {
	echo
	echo "### $*"
}

disk() {
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial")" = "$1" ] && echo "/dev/${d##*/}"
	done
}

# A slow baseline: 100 KiB/s min, 1 MiB/s max per device.  Low on purpose: under
# qemu TCG the emulated disks top out at a few MiB/s, so DSM's 10000/200000 would
# already be above what this guest can do and the demo would show no difference.
setup() {
	echo 100 >/proc/sys/dev/raid/speed_limit_min
	echo 1000 >/proc/sys/dev/raid/speed_limit_max
	mdadm --create $MD --run --force --level=5 --raid-devices=3 --assume-clean \
		"$(disk d01)" "$(disk d02)" "$(disk d03)" >/dev/null 2>&1 || return 1
	mdadm --add $MD "$(disk d04)" >/dev/null 2>&1 || return 1
	mdadm --grow $MD --raid-devices=4 --backup-file=/run/md0.backup >/dev/null 2>&1 || return 1
}

# Progress line from /proc/mdstat plus the kernel's md/sync_speed.
sample() {
	i=0
	sum=0
	while [ $i -lt "$SAMPLE" ]; do
		sleep $EVERY
		sp=$(cat $SYS/sync_speed 2>/dev/null || echo 0)
		[ "$sp" = none ] && sp=0
		prog=$(grep -E '(reshape|resync|recovery) =' /proc/mdstat | sed 's/^ *//')
		echo "  t+$(((i + 1) * EVERY))s  sync_action=$(cat $SYS/sync_action)  md/sync_speed=${sp} KiB/s"
		echo "        ${prog:-(no operation running)}"
		sum=$((sum + sp))
		i=$((i + 1))
	done
	AVG=$((sum / SAMPLE))
}

limits() {
	echo "  speed_limit_min=$(cat /proc/sys/dev/raid/speed_limit_min)" \
		"speed_limit_max=$(cat /proc/sys/dev/raid/speed_limit_max)" \
		"stripe_cache_size=$(cat $SYS/stripe_cache_size)" \
		"read_ahead_kb=$(cat /sys/block/md0/queue/read_ahead_kb)"
}

demo() {
	say "building a 3-disk RAID5 and growing it to 4 disks (a reshape)"
	setup || { echo "demo: array setup failed"; return 1; }
	cat /proc/mdstat
	say "baseline limits"
	limits
	say "reshape with the baseline limits"
	sample
	before=$AVG
	if [ ! -x $MDP ]; then
		echo "demo: mdprofile is not in this image (make static failed?); stopping here"
		return 1
	fi
	say "mdprofile diff reshape-fast"
	$MDP diff reshape-fast
	echo "(exit $?)"
	say "mdprofile apply reshape-fast"
	$MDP apply reshape-fast
	echo "(exit $?)"
	limits
	say "reshape with reshape-fast"
	sample
	after=$AVG
	say "mdprofile status"
	$MDP status
	say "mdprofile revert"
	$MDP revert
	echo "(exit $?)"
	limits
	say "result: average md/sync_speed ${before} KiB/s before, ${after} KiB/s after" \
		"(guest: qemu TCG, sparse image files; a real NAS's disks set the real limit)"
}

demo
echo "DEMO-END"
