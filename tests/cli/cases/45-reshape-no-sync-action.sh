# A reshape whose md/sync_action and md/sync_completed are missing; md shows
# it in /proc/mdstat. diff, apply --dry-run and apply must agree that md3's
# stripe cache stays at what md set, though apply discovers only what its
# plan needs (no progress): the plan apply executes is the plan diff showed.
fixture ds-dsm6-reshape
rm "$ROOT/sys/block/md3/md/sync_action" "$ROOT/sys/block/md3/md/sync_completed"
mkdir -p "$WORK/p"
cat >"$WORK/p/small.yaml" <<'EOF'
description: a small stripe cache on every raid5
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: 128
EOF
kept="md3: stripe_cache_size kept at 256: a reshape is running"
# Output formats are the formatter's business; what each plan says is ours.
says() {
	grep -q "$1" "$WORK/out" || fail "'mdprofile $LAST' does not say '$1'"
}
says_not() {
	! grep -q "$1" "$WORK/out" || fail "'mdprofile $LAST' says '$1'"
}
run diff "$WORK/p/small.yaml"
expect_exit 1
says "$kept"
says "1 change pending"
run apply --dry-run "$WORK/p/small.yaml"
expect_exit 0
says "$kept"
says "1 change would be made"
snapshot
run apply "$WORK/p/small.yaml"
expect_exit 0
says "$kept"
says "md2 stripe_cache_size: 256 -> 128"
says_not "md3 stripe_cache_size"
expect_file sys/block/md3/md/stripe_cache_size stripe_cache_size
run revert
expect_exit 0
expect_unchanged "after revert"
