# 97-auto: mdprofile auto reshape-fast over a low-ram base (balanced's
# stripe caches are above the lab's 1 GiB RAM budget), on a real
# kernel. A member of md1 (raid5) is failed, removed and added back: md
# starts a real recovery (held with md/sync_max), md's own event wakes the
# watcher, which applies reshape-fast as an overlay in well under a second;
# a script writes md1's stripe_cache_size back to 256 as DSM's pool tools
# do, and the watcher puts it back; the recovery is released, ends, and
# low-ram's values are back within seconds, byte for byte. While armed, a
# stopped array (md3) costs no CPU. --on recovery: md4's resync and md5's
# reshape, held when this runs without 90, do not engage it.
have_mdprofile || skip_all "no mdprofile in the image"

ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

"$MDP" -q apply low-ram || fail "apply low-ram (the base) failed"
"$MDP" auto --on recovery --interval 5 reshape-fast >"$VM_STATE/auto.log" 2>&1 &
AUTO=$!
wait_line /run/mdprofile/watcher 'state armed' 20 "mdprofile auto did not arm"

# Armed on an idle box with a stopped array: poll() must not spin on it.
mdadm --stop /dev/md3 >/dev/null 2>&1 || fail "mdadm --stop /dev/md3 failed"
# the base's values on the arrays that stay
snapshot "$VM_STATE/snap.97"
sleep 1
t0=$(ticks $AUTO)
sleep 4
t1=$(ticks $AUTO)
if kill -0 $AUTO 2>/dev/null && [ $((t1 - t0)) -le 40 ]; then
	ok "armed, the watcher stays idle after md3 was stopped ($((t1 - t0)) ticks in 4 s)"
else
	fail "armed, the watcher spins after md3 was stopped: $((t1 - t0)) ticks in 4 s"
fi

# A rebuild starts: fail, remove and add back md1's last member, held at 8192 sectors.
member=$(ls /sys/block/md1/slaves | tail -1)
echo 8192 >/sys/block/md1/md/sync_max
mdadm /dev/md1 --fail "/dev/$member" >/dev/null 2>&1 || fail "mdadm --fail $member"
mdadm /dev/md1 --remove "/dev/$member" >/dev/null 2>&1 || fail "mdadm --remove $member"
sleep 0.5
t_start=$(now_ms)
mdadm /dev/md1 --add "/dev/$member" >/dev/null 2>&1 || fail "mdadm --add $member"
# Seen: the watcher's state leaves "armed" as it starts to apply. Engaged: the apply is
# journaled, which under TCG on a loaded host can take seconds of its own (stripe caches
# grown, every value read back), so that it is no measure of how md woke the watcher.
poll 0.02 500 "mdprofile auto did not see md1's recovery" \
	grep -qx 'state engag\(ing\|ed\)' /run/mdprofile/watcher
t_seen=$(now_ms)
wait_engaged "mdprofile auto did not engage on md1's recovery"
t_engaged=$(now_ms)
expect_eq "$(cat /sys/block/md1/md/sync_action)" recover "md1 runs a real recovery"
# the interval is 5 s: only md's own event can make it this quick
if [ $((t_seen - t_start)) -lt 2500 ]; then
	ok "saw it $((t_seen - t_start)) ms after the recovery started (interval 5 s), engaged at $((t_engaged - t_start)) ms"
else
	fail "saw it only $((t_seen - t_start)) ms after the recovery started (engaged at $((t_engaged - t_start)) ms)"
fi
want=$(sed -n 's/^set stripe_cache_size md1 \([0-9]*\)$/\1/p' /run/mdprofile/journal)
expect_eq "$(cat /sys/block/md1/md/stripe_cache_size)" "$want" "md1's stripe cache is reshape-fast's"
expect_match "$(cat /run/mdprofile/journal)" 'under "low-ram"' "low-ram waits under the overlay"

# What DSM's pool tools do at every storage-pool operation.
echo 256 >/sys/block/md1/md/stripe_cache_size
i=0
until [ "$(cat /sys/block/md1/md/stripe_cache_size)" = "$want" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { fail "the rewritten stripe cache was not put back within 10 s"; break; }
	sleep 0.1
done
ok "the stripe cache DSM-style rewrote was put back ($((i / 10)).$((i % 10)) s)"

# The recovery ends: back to low-ram within seconds.
echo max >/sys/block/md1/md/sync_max
i=0
until [ "$(cat /sys/block/md1/md/sync_action)" = idle ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || { fail "md1's recovery did not end within 60 s"; break; }
	sleep 0.1
done
t_idle=$(now_ms)
i=0
until journal_has 'profile "low-ram"' && ! grep -q '^under ' /run/mdprofile/journal; do
	i=$((i + 1))
	[ $i -lt 300 ] || break
	sleep 0.1
done
t_base=$(now_ms)
if [ $i -lt 300 ]; then
	ok "low-ram back $((t_base - t_idle)) ms after the recovery ended (3 s debounce)"
else
	fail "the overlay was not removed within 30 s of md1's recovery ending"
fi
expect_unchanged "$VM_STATE/snap.97" "low-ram's values, byte for byte, after the overlay went"

stop_bg "$AUTO" 30 "$VM_STATE/auto.log" "mdprofile auto reshape-fast"
expect_exit 0 "auto exits 0 on SIGTERM"
output_match "^($TS )?"'engaged: md1 recover; applying profile reshape-fast$' "it says it engaged on md1's recovery"
output_match "^($TS )?"'md1 stripe_cache_size: rewritten to 256 by something else; put back [0-9]+ \(1 of 3\)$' \
	"it says what it put back"
output_match "^($TS )?"'md idle for 3s; removing profile reshape-fast$' "it says it released"
output_match "^($TS )?"'back to the base profile low-ram$' "back to the base"

"$MDP" -q revert --all || fail "revert --all failed"
# md3 as it was, for what comes after (boot 2 assembles every array anyway)
# shellcheck disable=SC2046
mdadm --assemble /dev/md3 --run $(for s in d11 d12 d13 d14; do serial_disk $s; done) \
	>/dev/null 2>&1 || fail "md3 could not be assembled again"
