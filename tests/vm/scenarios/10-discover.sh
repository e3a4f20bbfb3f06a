# 10-discover: list, diff and status against real md arrays; diff changes nothing.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.10"

mdp list
expect_exit 0 "list"
output_match "reshape-fast" "list shows the shipped reshape-fast profile"

mdp diff reshape-fast
expect_exit 1 "diff reshape-fast on a fresh system has pending changes"
diff_out="$OUT
$ERR"
for md in $(parity_arrays); do
	expect_match "$(section "$diff_out" "$md ")" "stripe_cache_size" \
		"diff lists $md's stripe_cache_size"
done
expect_eq "$(section "$diff_out" "md0 ")" "" "reshape-fast has nothing for raid1 md0"

# raid1 has no stripe cache: the kernel has no such file, and a profile asking
# one for every array gets a note for raid1, not a write.
expect_eq "$(sysval /sys/block/md0/md/stripe_cache_size)" "(missing)" "raid1 md0 has no stripe cache"
cat >"$PROFILES/all-scs.yaml" <<'YAML'
description: a stripe cache for every array
arrays:
  - match: all
    stripe_cache_size: 1024
YAML
mdp diff "$PROFILES/all-scs.yaml"
expect_exit 1 "diff of a stripe cache for all arrays"
output_match "md0.*(skip|not applicable|n/a|raid1)" "diff says md0 (raid1) is skipped"
mdp apply "$PROFILES/all-scs.yaml"
expect_exit 0 "apply of a stripe cache for all arrays (raid1 skipped, not an error)"
for md in $(parity_arrays); do
	expect_eq "$(cat /sys/block/"$md"/md/stripe_cache_size)" 1024 "$md stripe_cache_size reads back 1024"
done
mdp revert
expect_exit 0 "revert"
expect_unchanged "$VM_STATE/snap.10" "diff changed nothing"

mdp status
expect_exit 0 "status"
# An array's lines: its own and the indented ones under it (an operation that does not fit
# in 80 columns goes on the next line).
array_lines() { printf '%s\n' "$OUT" | awk -v md="$1" '/^[^ ]/ { on = ($1 == md) } on'; }
expect_match "$(array_lines md5)" "reshape" "status shows md5 reshaping"
expect_match "$(array_lines md4)" "resync" "status shows md4 resyncing"

mdp --json status
expect_exit 0 "status --json"
output_match '^[[:space:]]*[{[]' "status --json prints JSON"
