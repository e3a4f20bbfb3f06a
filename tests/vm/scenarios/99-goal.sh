# 99-goal: the latency goal (issue 40) against a real md: a recovery on md9 over the
# throttled disks x01..x03 (8 MiB/s each) beside a client that streams from md9 and times
# its own O_DIRECT reads (mdp-reader: 64 KiB every 50 ms; mean and p99). One window of
# W seconds for each of: the kernel's limits with the reader, the goal profile
# (responsive, its goal scaled to the lab disks) with the reader, the goal profile alone; with mdp_rounds=3 (make bench-vm)
# also reshape-fast with and without the reader. Each profile is held by
# `apply --until-idle` (the recovery outlasts every window; SIGTERM hands the values
# back), so kernel-defaults, reshape-fast and responsive run the same path.
# Each window with the reader starts with S seconds of it untimed: the controller's first
# looks (one a second here, every 5 s by default) react to a client that just started, and
# a rebuild runs for hours, so what is judged is the steady state after them. From md's
# speed to the floor takes three back-offs (7500, 3900, 1950, 1000 KiB/s), a look each,
# which under CI's load came 2-3 s apart: 6 s.
# Judged by make bench-vm (mdp_rounds=3; the gate judges the mechanism only, see below): with
# the goal, the reader's mean stays within 1.2 times the goal. The latency the
# watcher steers on (/run/mdprofile/goal, sampled through the timed window) is reported: it
# is md's own where md times its requests (6.1); where it does not (5.10), the members'
# counters leave out md's own work (a degraded raid5 read reconstructed from two members,
# raid5d's CPU), and the watcher's own timed reads of md9 must be among its samples
# (source probe, never the members alone: docs/PERFORMANCE.md). The recovery is no slower than
# under the kernel's limits; alone, the goal profile lets the recovery run near the disks'
# speed.
have_mdprofile || skip_all "no mdprofile in the image"
command -v mdp-reader >/dev/null || skip_all "no mdp-reader in the image"
X1=$(serial_disk x01) && X2=$(serial_disk x02) && X3=$(serial_disk x03) ||
	skip_all "no throttled disks x01..x03"
[ -f /usr/share/mdprofile/profiles/responsive.yaml ] || skip_all "no profile responsive"
# The goal for these disks: TCG and qemu's throttle make a 64 KiB read take 20-50 ms with the
# kernel's limits (a NAS's disk, 8-15 ms), so the lab's profile is responsive with its goal
# scaled; everything else is the shipped profile's.
GOAL=100
P=/tmp/goal-profiles
mkdir -p "$P" && cp /usr/share/mdprofile/profiles/*.yaml "$P/"
printf 'description: responsive, its goal for the lab disks\nextends: responsive\ngoal:\n  foreground_latency_ms: %s\n' \
	"$GOAL" >"$P/lab-goal.yaml"
ROUNDS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^mdp_rounds=//p')
ROUNDS=${ROUNDS:-1}
W=8
S=6

# what earlier scenarios left on these disks
for md in md20 md21 md9; do mdadm -S "/dev/$md" >/dev/null 2>&1; done
for d in "$X1" "$X2" "$X3"; do
	mdadm --zero-superblock "$d" "${d}1" "${d}2" >/dev/null 2>&1
	dd if=/dev/zero of="$d" bs=1M count=1 conv=fsync 2>/dev/null
done
blockdev --rereadpt "$X1" "$X2" "$X3" 2>/dev/null
echo 1000 >/proc/sys/dev/raid/speed_limit_min
echo 200000 >/proc/sys/dev/raid/speed_limit_max
mdadm -C /dev/md9 -R -q -l5 -n3 -c64 --bitmap=none --assume-clean "$X1" "$X2" "$X3" \
	2>/dev/null || skip_all "cannot create md9"
mdadm /dev/md9 --fail "$X3" >/dev/null 2>&1 && mdadm /dev/md9 --remove "$X3" >/dev/null 2>&1 &&
	mdadm /dev/md9 --add "$X3" >/dev/null 2>&1 || fail "no recovery on md9"
poll 0.2 50 "md9 does not recover" action_is md9 recover

# done_kib: md9's recovery position in KiB, live (mdstat's, not sync_completed's checkpoints)
done_kib() {
	sed -n '/^md9 /,/^$/s/.*recovery = *[0-9.]*% (\([0-9]*\)\/.*/\1/p' /proc/mdstat
}

# window PROFILE READER: hold PROFILE (none: the kernel's limits as they are) for W seconds,
# with the timed reader when READER is 1. Sets SPEED (KiB/s) and MEAN, P99 (ms, the reader's).
window() {
	_h=
	if [ "$1" != none ]; then
		mdprofile --profiles "$P" apply --until-idle --interval 1 "$1" >"/tmp/goal.$1.log" 2>&1 &
		_h=$!
		sleep 2
	fi
	[ "$2" = 1 ] && mdp-reader /dev/md9 "$S" 50 65536 >/dev/null
	# what the watcher measured at each look: "latency US SOURCE" of md9, twice a look (the
	# line goes on with "max N" and "spent" where the goal steers the maximum)
	(while :; do
		sed -n 's/^array md9 [0-9]* latency \([0-9]*\) \([a-z]*\)\( .*\)\{0,1\}$/\1 \2/p' \
			/run/mdprofile/goal 2>/dev/null
		sleep 0.5
	done) >"/tmp/goal.$1.$2.seen" &
	_s=$!
	_d0=$(done_kib)
	_t0=$(cut -d' ' -f1 /proc/uptime)
	if [ "$2" = 1 ]; then
		_r=$(mdp-reader /dev/md9 "$W" 50 65536)
	else
		sleep "$W"
		_r=
	fi
	_d1=$(done_kib)
	_t1=$(cut -d' ' -f1 /proc/uptime)
	kill "$_s" && wait "$_s" 2>/dev/null
	# the mean, and the source most samples came from (the figures' table)
	SEEN=$(awk '{ t += $1; n++; c[$2]++; if (c[$2] > c[s]) s = $2 } END { if (n) printf "%.1f %s", t / n / 1000, s }' \
		"/tmp/goal.$1.$2.seen")
	SPEED=$(awk -v a="$_d0" -v b="$_d1" -v s="$_t0" -v e="$_t1" 'BEGIN { printf "%d", (b - a) / (e - s) }')
	MEAN=$(printf '%s\n' "$_r" | sed -n 's/.* mean_ms \([0-9.]*\) .*/\1/p')
	P99=$(printf '%s\n' "$_r" | sed -n 's/.* p99_ms \([0-9.]*\) .*/\1/p')
	if [ -n "$_h" ]; then
		kill -TERM "$_h"
		wait_exit "$_h" 20 || fail "apply --until-idle $1 did not end on SIGTERM"
		[ ! -e /run/mdprofile/journal ] || fail "a layer left after $1: $(cat /run/mdprofile/journal)"
	fi
	echo "goal: $1 reader=$2: recovery ${SPEED} KiB/s; reader ${_r:-none}; watcher saw ${SEEN:-nothing}"
}

window none 1
DEF=$SPEED DEF_MEAN=$MEAN
window lab-goal 1
GOAL_SPEED=$SPEED GOAL_MEAN=$MEAN GOAL_P99=$P99 GOAL_SEEN=${SEEN% *} GOAL_SRC=${SEEN#* }
grep -E 'minimum|maximum|nothing left' /tmp/goal.lab-goal.log | tail -5
window lab-goal 0
ALONE=$SPEED
if [ "$ROUNDS" -ge 3 ]; then
	window reshape-fast 1
	FAST=$SPEED FAST_MEAN=$MEAN
	window reshape-fast 0
	FAST_ALONE=$SPEED
fi
echo "BENCH-VM: goal kernel=$(uname -r) goal=$GOAL defaults_kib=$DEF defaults_ms=$DEF_MEAN" \
	"goal_kib=$GOAL_SPEED goal_mean=$GOAL_MEAN goal_p99=$GOAL_P99 goal_seen=${GOAL_SEEN:--}" \
	"goal_src=${GOAL_SRC:--} alone_kib=$ALONE" \
	"fast_kib=${FAST:--} fast_ms=${FAST_MEAN:--} fast_alone_kib=${FAST_ALONE:--}"
within() { awk -v m="$1" -v g="$GOAL" 'BEGIN { print (m != "" && m <= 1.2 * g) ? "within" : "over" }'; }
# where the samples came from: md's own counters on 6.1; on 5.10 the probe, or the members
# where they were slower (at the floor, the sync's large requests make them so)
expect_eq "$(grep -qE ' (md|probe)$' /tmp/goal.lab-goal.1.seen && echo own || echo members)" own \
	"the watcher steered md9 on md's counters or its own reads, never the members' alone: $(cut -d' ' -f2 /tmp/goal.lab-goal.1.seen | sort | uniq -c | tr '\n' ' ')"
# What the watcher measured is reported, not judged: at the floor (the minimum from before)
# it can do no more, and its 4 KiB reads read slower than the client's under CI's load
# (5.10: 121 ms beside the client's 65).
echo "goal: the watcher measured ${GOAL_SEEN} ms ($GOAL_SRC), the client ${GOAL_MEAN} ms"
# The figures are judged by make bench-vm (mdp_rounds=3), never by the gate: in one window
# of 8 s under TCG the client's mean swings between 46 and 129 ms around a goal of 100 with
# the watcher doing the same thing, and one look's spike takes the recovery from 7400 to
# 2400 KiB/s (measured in CI, 2026-12-07). The gate proves the mechanism (the source it
# steered on, the layer handed back); the bench the figures.
if [ "$ROUNDS" -ge 3 ]; then
	expect_eq "$(within "$GOAL_MEAN")" within \
		"the reader's mean under the goal profile (${GOAL_MEAN} ms) within 1.2 x the goal ($GOAL ms)"
	# Not the issue's "twice the kernel limits'": here md's drain rule (5.10 and 6.1) already lets
	# the recovery run at 0.75-1.0 of its idle speed beside this reader under the kernel's limits
	# (measured 6014-8099 KiB/s of 8000), so the goal can only match it. A look over the goal
	# steers the maximum down (to the minimum's floor at most), so over rounds the recovery
	# must keep 0.8 of the kernel limits' pace.
	expect_eq "$([ $((${GOAL_SPEED:-0} * 10)) -ge $((${DEF:-0} * 8)) ] && echo kept || echo slower)" kept \
		"the recovery under the goal not below the kernel limits' (${GOAL_SPEED} vs ${DEF} KiB/s)"
	expect_eq "$([ $((${ALONE:-0} * 10)) -ge $((8192 * 7)) ] && echo near || echo below)" near \
		"alone, the goal profile lets the recovery near the disks' speed (${ALONE} KiB/s)"
fi
mdadm -S /dev/md9 >/dev/null 2>&1
mdadm --zero-superblock "$X1" "$X2" "$X3" >/dev/null 2>&1
