# 99-explain-probe: explain --probe on a real kernel. A raid6 resync over four large
# sparse, unthrottled disks (c01..c04, marked non-rotational) on a box whose CPUs are busy (a busy loop per CPU, as
# a transcoding media server would be): explain names the cpu finding and its one setting,
# mdN/group_thread_cnt 4, whose gain it cannot compute, so --probe measures it (more md
# threads may win CPU time from the loops).
#  1. --probe: explain's window at the settings as they are (A), one with the setting
#     applied through the journal (B), reverted, one more (A): three speeds, the change and
#     the spread; afterwards group_thread_cnt reads 0 again and no journal is left.
#  2. SIGTERM while the setting is applied: reverted before exit 3.
#  3. SIGKILL while the setting is applied: the value stays (the journal says by probe)
#     until `recover` puts 0 back.
have_mdprofile || skip_all "no mdprofile in the image"
C1=$(serial_disk c01) && C2=$(serial_disk c02) && C3=$(serial_disk c03) &&
	C4=$(serial_disk c04) || skip_all "no unthrottled disks c01..c04"
echo 1000 >/proc/sys/dev/raid/speed_limit_min
echo 200000 >/proc/sys/dev/raid/speed_limit_max
GTC=/sys/block/md9/md/group_thread_cnt

# rotational 0|1: c01..c04 marked non-rotational (SSDs, where a CPU-bound raid6 sync is
# common) or back to the virtio default. On a loaded host the unthrottled virtio disks can
# read 90 % busy, which on hard disks is "at their limit" and withdraws every
# recommendation, the cpu one's too (CI, twice); busy time is no limit for an SSD.
rotational() {
	for _d in "$C1" "$C2" "$C3" "$C4"; do
		echo "$1" >"/sys/block/${_d#/dev/}/queue/rotational"
	done
}
rotational 0

# gtc_is N: md9's group_thread_cnt reads N
gtc_is() {
	[ "$(cat $GTC)" = "$1" ]
}

# applied_or_gone: the probe in BG has applied its setting, or has exited
applied_or_gone() {
	gtc_is 4 || ! kill -0 "$BG" 2>/dev/null
}

# probe_bg: explain --probe in the background until the setting is applied (pid in BG).
# The cpu finding rests on one window's /proc/stat, and a TCG guest on a loaded host
# sometimes sees a window with idle time: a probe that found nothing to probe is started
# again, at most three times, and what explain saw is printed.
probe_bg() {
	for _try in 1 2 3; do
		"$MDP" explain md9 --probe --interval 4 >"$VM_STATE/probe.log" 2>&1 &
		BG=$!
		poll 0.1 300 "the probe applies md9/group_thread_cnt 4 or exits" applied_or_gone ||
			return 1
		gtc_is 4 && return 0
		wait "$BG" 2>/dev/null
		echo "probe attempt $_try found nothing to probe: $(cat "$VM_STATE/probe.log")"
		"$MDP" explain md9 --interval 4 --json 2>&1 | sed 's/^/  explain now: /'
	done
	fail "the probe applies md9/group_thread_cnt 4 (three attempts)"
	return 1
}

# hogs_stop: end the busy loops
hogs_stop() {
	# shellcheck disable=SC2086 # a list of pids
	kill $HOGS 2>/dev/null
	# shellcheck disable=SC2086
	wait $HOGS 2>/dev/null
}

mdadm -C /dev/md9 -R -q -l6 -n4 -c64 --bitmap=none "$C1" "$C2" "$C3" "$C4" 2>/dev/null ||
	skip_all "cannot create md9"
HOGS=
for _ in $(seq "$(grep -c '^processor' /proc/cpuinfo)"); do
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
done
sleep 3
explain md9 --interval 4
echo "explain: md9 raid6 resync on busy CPUs: $OUT"
if ! printf '%s\n' "$OUT" | grep -q '"kind": "cpu", "evidence": \["'; then
	hogs_stop
	rotational 1
	mdadm -S /dev/md9 >/dev/null 2>&1
	skip_all "explain found no cpu finding on md9 to probe"
fi
ok "explain: the raid6 resync on busy CPUs has the cpu finding"
output_match '"recommendation": \{"kind": "setting", "name": "md9/group_thread_cnt", "value": "4"' \
	"explain: the one setting, md9/group_thread_cnt 4"
expect_exit 1 "a setting to try is a recommendation"

explain md9 --probe --interval 4
echo "explain --probe: $(printf '%s\n' "$OUT" | grep -Eo '"probe": \{[^}]*\}')"
expect_exit 1 "explain --probe measures the setting"
output_match '"probe": \{"setting": "md9/group_thread_cnt", "value": "4", "window_s": 4\.[0-9], "ended": false, "a_kib_s": \[[1-9][0-9]*, [1-9][0-9]*\], "b_kib_s": [1-9][0-9]*, "change_pct": -?[0-9.]+, "spread_pct": [0-9.]+, "beyond_spread": (true|false), "reverted": true\}' \
	"explain --probe: three windows with the operation running, the change, the spread, reverted"
expect_eq "$(cat $GTC)" 0 "explain --probe: md9/group_thread_cnt is 0 again"
P=$(printf '%s\n' "$OUT" | grep -Eo '"a_kib_s": \[[0-9]+, [0-9]+\], "b_kib_s": [0-9]+, "change_pct": -?[0-9.]+, "spread_pct": [0-9.]+' |
	sed 's/"a_kib_s": \[\([0-9]*\), \([0-9]*\)\], "b_kib_s": \([0-9]*\), "change_pct": \([-0-9.]*\), "spread_pct": \([0-9.]*\)/a1=\1 b=\3 a2=\2 change_pct=\4 spread_pct=\5/')
echo "BENCH-VM: probe kernel=$(uname -r) setting=group_thread_cnt value=4 $P"
expect_eq "$([ -e /run/mdprofile/journal ] && echo left || echo none)" none \
	"explain --probe: no journal left"

probe_bg
stop_bg "$BG" 30 "$VM_STATE/probe.log" "explain --probe (SIGTERM while applied)"
expect_exit 3 "SIGTERM during the probe"
expect_match "$OUT" 'interrupted by SIGTERM; md9/group_thread_cnt is as it was' \
	"SIGTERM: the probe says it reverted"
expect_eq "$(cat $GTC)" 0 "SIGTERM: md9/group_thread_cnt is 0 again"

probe_bg
kill -KILL "$BG"
wait "$BG" 2>/dev/null
expect_eq "$(cat $GTC)" 4 "SIGKILL: the probe's setting stays until recovered"
expect_eq "$(journal_has 'by probe' && echo journaled || echo not)" journaled \
	"SIGKILL: the journal says the probe changed it"
mdp recover
expect_exit 0 "recover after a killed probe"
output_match 'group_thread_cnt' "recover names what it restores"
expect_eq "$(cat $GTC)" 0 "recover: md9/group_thread_cnt is 0 again"
expect_eq "$([ -e /run/mdprofile/journal ] && echo left || echo none)" none \
	"recover: no journal left"

hogs_stop
rotational 1
mdadm -S /dev/md9 >/dev/null 2>&1
mdadm --zero-superblock "$C1" "$C2" "$C3" "$C4" >/dev/null 2>&1
