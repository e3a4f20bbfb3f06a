# 99-explain-io: explain on shared, throttled disks (x01..x03 at 8 MiB/s each), and the
# competing-I/O figure of `make bench-vm`. Judged on medians of A/B/A rounds with wide
# margins (TCG noise reached 40 % between identical phases); the kernel command line's
# mdp_rounds=N sets the rounds (1 in make check, 3 in make bench-vm).
#  1. md9 raid5 recovering with a competing reader on md9 itself (reading flat out, as
#     the lab's first measurements of explain's rules did): explain names the floor (or the competing I/O)
#     and recommends a profile with a higher minimum; A (the kernel's
#     limits) / B (reshape-fast applied) / A (reverted): B near the idle speed in every
#     round, and (3 rounds) B's median above A's. The bench figures: A's and B's medians
#     over the idle array's speed.
#  2. DSM's layout (a small raid1 "system" array over every disk's first partition, the
#     data array over the second ones): with both syncing, md waits with the one and
#     explain says so (waiting); a reader on the system array is named as competing I/O
#     on the data array's member disks, not as a failing member (the disk it reads is
#     the busy one); A/B/A with the profile explain recommends, as in 1.
have_mdprofile || skip_all "no mdprofile in the image"
X1=$(serial_disk x01) && X2=$(serial_disk x02) && X3=$(serial_disk x03) ||
	skip_all "no throttled disks x01..x03"
ROUNDS=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^mdp_rounds=//p')
ROUNDS=${ROUNDS:-1}
W=6
echo 1000 >/proc/sys/dev/raid/speed_limit_min
echo 200000 >/proc/sys/dev/raid/speed_limit_max

# window MD: the operation's speed over one explain window
window() {
	explain "$1" --interval $W
	speed_of "$OUT"
}

# ab_rounds MD PROFILE TENTHS WHAT: ROUNDS rounds of A (the kernel's limits) / B (PROFILE
# applied) / A (reverted), one window each, while a reader competes; every B at least
# TENTHS/10 of IDLE and (3 rounds or more) B's median above A's. The medians in MA, MB.
ab_rounds() {
	A=
	B=
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		A="$A $(window "$1")"
		mdp apply "$2"
		expect_exit 0 "$4: apply $2 (round $r)"
		sleep 2
		B="$B $(window "$1")"
		mdp revert
		expect_exit 0 "$4: revert (round $r)"
		sleep 2
		A="$A $(window "$1")"
	done
	# shellcheck disable=SC2086 # word lists of numbers
	MA=$(median $A) && MB=$(median $B)
	echo "explain: $4, idle ${IDLE} KiB/s: kernel limits${A} (median ${MA}), $2${B} (median ${MB})"
	for b in $B; do
		expect_eq "$([ $((b * 10)) -ge $((${IDLE:-0} * $3)) ] && echo near || echo below)" \
			near "$4: $2 keeps the sync near the idle speed ($b of ${IDLE} KiB/s)"
	done
	[ "$ROUNDS" -lt 3 ] ||
		expect_eq "$([ "${MB:-0}" -gt "${MA:-0}" ] && echo up || echo not)" up \
			"$4: $2 moves the speed up (medians ${MA} -> ${MB} KiB/s)"
}

# reader_binds MD REGEX WHO: explain's last report on MD: a reader binds (floor or competing
# I/O first), its evidence matches REGEX (names WHO), and no member is called failing (not
# the disk being rebuilt, which takes every write: once 97 % busy against the readers' 44 %
# on 5.10, nor the one the reader keeps busy)
reader_binds() {
	K=$(first_kind "$OUT")
	expect_eq "$(case $K in floor | competing-io) echo ok ;; *) echo "$K" ;; esac)" ok \
		"explain: the reader binds $1 (floor or competing I/O)"
	output_match "$2" "explain: names $3"
	expect_eq "$(printf '%s\n' "$OUT" | grep -c '"kind": "member"')" 0 \
		"explain: no member of $1 is called failing"
}

mdadm -C /dev/md9 -R -q -l5 -n3 -c64 --bitmap=none "$X1" "$X2" "$X3" 2>/dev/null ||
	skip_all "cannot create md9"
sleep 3
IDLE=$(window md9)
reader_start /dev/md9
sleep 3
explain md9 --interval $W
echo "explain: md9 with a reader: $OUT"
reader_binds md9 '"kind": "(floor|competing-io)", "evidence": \["md9 itself: [0-9]+ KiB/s' \
	"md9 itself"
expect_exit 1 "a reader under the kernel's minimum is a recommendation"
# balanced or reshape-fast: either minimum is above what these disks can do
output_match '"recommendation": \{"kind": "profile", "name": "(balanced|reshape-fast)"' \
	"explain: recommends a shipped profile with a higher minimum"
# Measured (3 rounds, 8 MiB/s disks): idle 8107/8153 KiB/s (6.1/5.10); beside the reader
# the kernel's limits swing between 1604 and 7767 (md's drain rule notices the reader only
# now and then), reshape-fast holds 7526-7721. So: reshape-fast keeps the sync near the
# idle speed in every round, and over 3 rounds its median is above the kernel limits'.
ab_rounds md9 reshape-fast 8 "md9 beside its reader"
reader_stop
echo "BENCH-VM: competing-reader kernel=$(uname -r) idle=${IDLE} defaults=${MA} reshape-fast=${MB} rounds=${ROUNDS}"
mdadm -S /dev/md9 >/dev/null 2>&1
mdadm --zero-superblock "$X1" "$X2" "$X3" >/dev/null 2>&1

# DSM's layout: p1 a small system partition, p2 the data
for d in "$X1" "$X2" "$X3"; do
	printf 'o\nn\np\n1\n\n+64M\nn\np\n2\n\n\nw\n' | fdisk "$d" >/dev/null 2>&1
done
sleep 1
for d in "$X1" "$X2" "$X3"; do
	[ -b "${d}1" ] && [ -b "${d}2" ] || skip_all "fdisk made no partitions on $d"
done
mdadm -C /dev/md21 -R -q -l5 -n3 -c64 --bitmap=none "${X1}2" "${X2}2" "${X3}2" 2>/dev/null ||
	skip_all "cannot create md21"
mdadm -C /dev/md20 -R -q -l1 -n3 --bitmap=none --metadata=0.90 "${X1}1" "${X2}1" "${X3}1" \
	2>/dev/null || skip_all "cannot create md20"
sleep 2
DELAYED=
for md in md20 md21; do
	grep -A3 "^$md " /proc/mdstat | grep -q 'resync=DELAYED\|recovery=DELAYED' && DELAYED=$md
done
echo "explain: mdstat with two arrays on the same disks:"
cat /proc/mdstat
if [ -z "$DELAYED" ]; then
	fail "neither md20 nor md21 waits for the other"
else
	explain "$DELAYED" --interval 3
	expect_eq "$(first_kind "$OUT")" waiting "explain: $DELAYED waits for the other array"
	expect_exit 0 "waiting is nothing to change"
fi
# the system array in sync (as DSM's md0 is, most of the time), read by DSM itself
mdadm -S /dev/md20 >/dev/null 2>&1
mdadm -C /dev/md20 -R -q -l1 -n3 --bitmap=none --metadata=0.90 --assume-clean \
	"${X1}1" "${X2}1" "${X3}1" 2>/dev/null || fail "cannot re-create md20 clean"
reader_start /dev/md20
sleep 3
explain md21 --interval $W
echo "explain: md21 with a reader on md20: $OUT"
reader_binds md21 '"other partitions of the member disks: [0-9]+ KiB/s in all, most on vd[a-z]+' \
	"the other partitions of md21's disks"
REC=$(printf '%s\n' "$OUT" | grep -Eo '"recommendation": \{"kind": "profile", "name": "[a-z-]+"' |
	head -n 1 | sed 's/.*"name": "//; s/"$//')
expect_match "$REC" '^(balanced|reshape-fast)$' "explain: md21 recommends a shipped profile"
# A/B/A with what explain recommends: md21's recovery beside the system array's reader
ab_rounds md21 "${REC:-reshape-fast}" 7 "md21 beside md20's reader"
reader_stop
echo "BENCH-VM: system-reader kernel=$(uname -r) idle=${IDLE} defaults=${MA} profile=${REC} recommended=${MB} rounds=${ROUNDS}"
mdadm -S /dev/md20 /dev/md21 >/dev/null 2>&1
for d in "$X1" "$X2" "$X3"; do
	mdadm --zero-superblock "${d}1" "${d}2" >/dev/null 2>&1
	dd if=/dev/zero of="$d" bs=512 count=1 2>/dev/null
	blockdev --rereadpt "$d" 2>/dev/null
done
