# 30-refuse: values the real kernel refuses or changes, and injected write
# failures: apply exits 3 and every value is byte-identical to before.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.30"

# The kernel keeps read-ahead in whole pages: 1023 KiB reads back as 1020 KiB.
# The loader cannot know that, so only the read-back catches it (invariant 3).
# The speed limit comes first so there is something to roll back.
cat >"$PROFILES/ra-odd.yaml" <<'YAML'
description: read-ahead the kernel rounds down to a page multiple
raid:
  speed_limit_min: 54321
arrays:
  - match: all
    read_ahead: 1023KiB
YAML
mdp apply "$PROFILES/ra-odd.yaml"
expect_exit 3 "apply of a read-ahead the kernel rounds is refused"
expect_unchanged "$VM_STATE/snap.30" "rounded read-ahead: everything rolled back"

# The same for member disks' read-ahead.
cat >"$PROFILES/mra-odd.yaml" <<'YAML'
description: member read-ahead the kernel rounds down
raid:
  speed_limit_max: 123457
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: 512
    member_read_ahead: 4095KiB
YAML
mdp apply "$PROFILES/mra-odd.yaml"
expect_exit 3 "apply of a member read-ahead the kernel rounds is refused"
expect_unchanged "$VM_STATE/snap.30" "rounded member read-ahead: everything rolled back"

# md refuses preread_bypass_threshold above the stripe cache (EINVAL); the plan
# knows the rule and must refuse before touching anything (exit 2).
cat >"$PROFILES/preread.yaml" <<'YAML'
description: preread above the stripe cache
raid:
  speed_limit_min: 54321
arrays:
  - match: {levels: [raid5, raid6]}
    preread_bypass_threshold: 4096
YAML
mdp apply "$PROFILES/preread.yaml"
expect_exit 2 "preread above the stripe cache is refused before any write"
expect_unchanged "$VM_STATE/snap.30" "preread refusal touched nothing"

# A profile anyone may have written is refused before anything is read.
cp "$PROFILES/ra-odd.yaml" /tmp/anyone.yaml
mdp apply /tmp/anyone.yaml
expect_exit 2 "a profile in world-writable /tmp is refused"
expect_unchanged "$VM_STATE/snap.30" "the /tmp profile touched nothing"

# Injected failures on the real kernel: the k-th write fails (EIO) or is
# clamped; every k up to the number of writes apply makes.
inject() {
	kind=$1
	k=1
	bad=0
	while [ $k -le 80 ]; do
		MDPROFILE_FAULT=$kind:$k mdp apply reshape-fast
		if [ "$RC" = 0 ]; then
			break  # fewer than k writes: the fault never fired
		fi
		if [ "$RC" != 3 ]; then
			fail "$kind:$k: apply exit $RC, want 3"
			show_last
			bad=1
		fi
		if ! check_matches "$VM_STATE/snap.30" "$kind:$k rolled back"; then
			bad=1
			mdp revert
		fi
		k=$((k + 1))
	done
	if [ "$RC" != 0 ]; then
		fail "$kind: apply still failing after $k faults"
	elif [ $k = 1 ]; then
		fail "$kind:1 did not fail apply: is MDPROFILE_FAULT supported?"
	else
		[ $bad = 0 ] && ok "$kind:1..$((k - 1)): each exits 3, each rolled back byte for byte"
	fi
	mdp revert
	expect_exit 0 "revert after the $kind series"
	expect_unchanged "$VM_STATE/snap.30" "baseline after the $kind series"
}

inject write
inject clamp
