# 20-apply-revert: apply reshape-fast on the real kernel, read every value back
# from /sys and /proc, then revert to a byte-identical baseline.
have_mdprofile || skip_all "no mdprofile in the image"
PROFILE=/usr/share/mdprofile/profiles/reshape-fast.yaml
snapshot "$VM_STATE/snap.20"

# A plain number the profile gives for KEY (first occurrence), or "".
profile_num() {
	sed -n "s/^[[:space:]]*$1:[[:space:]]*\([0-9][0-9]*\)[[:space:]]*\(#.*\)\{0,1\}$/\1/p" \
		"$PROFILE" | head -n 1
}

mdp apply reshape-fast
expect_exit 0 "apply reshape-fast"
snapshot "$VM_STATE/snap.20.applied"
if cmp -s "$VM_STATE/snap.20" "$VM_STATE/snap.20.applied"; then
	fail "apply changed no value in /sys or /proc"
else
	ok "apply changed values in /sys and /proc"
fi

for k in speed_limit_min speed_limit_max; do
	want=$(profile_num "$k")
	[ -n "$want" ] || continue
	expect_eq "$(cat /proc/sys/dev/raid/$k)" "$want" "/proc/sys/dev/raid/$k is the profile's value"
done
want=$(profile_num stripe_cache_size)
for md in $(parity_arrays); do
	got=$(cat "/sys/block/$md/md/stripe_cache_size")
	if [ -n "$want" ]; then
		expect_eq "$got" "$want" "$md stripe_cache_size is the profile's value"
	else
		before=$(sed -n "s|^/sys/block/$md/md/stripe_cache_size\t||p" "$VM_STATE/snap.20")
		expect_ne "$got" "$before" "$md stripe_cache_size changed (auto: $before -> $got)"
	fi
done
expect_eq "$(sysval /sys/block/md0/md/stripe_cache_size)" "(missing)" "raid1 md0 still has no stripe cache"

mdp diff reshape-fast
expect_exit 0 "diff after apply is in sync"
mdp status
expect_exit 0 "status after apply"
output_match "reshape-fast" "status names the active profile"

mdp revert
expect_exit 0 "revert"
expect_unchanged "$VM_STATE/snap.20" "revert restored every value byte for byte"
mdp revert
expect_exit 0 "a second revert is a no-op"
expect_unchanged "$VM_STATE/snap.20" "still byte-identical after the second revert"
mdp diff reshape-fast
expect_exit 1 "diff after revert has pending changes again"
