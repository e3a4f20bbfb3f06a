# 10-discover: list, diff and status against real md arrays; diff changes nothing.
have_mdprofile || skip_all "no mdprofile in the image"
snapshot "$VM_STATE/snap.10"

mdp list
assert_exit 0 "list"
assert_out "reshape-fast" "list shows the shipped reshape-fast profile"

mdp diff reshape-fast
assert_exit 1 "diff reshape-fast on a fresh system has pending changes"
diff_out="$OUT
$ERR"
for md in $(parity_arrays); do
	assert_match "$diff_out" "($md.*stripe_cache_size|stripe_cache_size.*$md)" \
		"diff names $md's stripe_cache_size"
done
# raid1 has no stripe cache: the kernel has no such file, and the tool says why.
assert_eq "$(sysval /sys/block/md0/md/stripe_cache_size)" "(missing)" "raid1 md0 has no stripe cache"
assert_match "$diff_out" "md0.*(skip|not applicable|n/a|raid1)" "diff says md0 (raid1) is skipped"
assert_snapshot "$VM_STATE/snap.10" "diff changed nothing"

mdp status
assert_exit 0 "status"
assert_out "md5.*reshape|reshape.*md5" "status shows md5 reshaping"
assert_out "md4.*resync|resync.*md4" "status shows md4 resyncing"

mdp --json status
assert_exit 0 "status --json"
assert_out '^[[:space:]]*[{[]' "status --json prints JSON"
