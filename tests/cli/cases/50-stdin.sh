# apply -, diff -, check -: a profile read from stdin (what a boot script feeds apply)
# plans and writes exactly what the profile file does.
fixture ds-dsm6-reshape
run show --yaml balanced
expect_exit 0
cp "$WORK/out" "$WORK/pin.yaml"
run_expect 0 check-pin.yaml . check - <"$WORK/pin.yaml"
# Only the profile's name and the rules' positions differ.
unplace='s/"profile": "[^"]*"//; s/"reason": "rule \([0-9]*\) ([^)]*)"/rule \1/g'
run diff balanced --json
expect_exit 1
sed "$unplace" "$WORK/out" >"$WORK/want.diff"
run diff - --json <"$WORK/pin.yaml"
expect_exit 1
sed "$unplace" "$WORK/out" >"$WORK/got.diff"
cmp -s "$WORK/want.diff" "$WORK/got.diff" || fail "diff - plans other changes than diff balanced"
# apply - writes byte for byte what apply balanced writes.
snapshot
run apply balanced
expect_exit 0
cp -a "$ROOT" "$WORK/by-name"
run revert
expect_exit 0
expect_unchanged
run_expect 0 . - apply - <"$WORK/pin.yaml"
tail -n 1 "$WORK/out" >"$WORK/last"
cmp -s "$WORK/last" - <<'EOF' || fail "apply - names its profile: $(cat "$WORK/last")"
profile stdin is active; 'mdprofile revert' restores the values from before
EOF
for f in proc/sys/dev/raid/speed_limit_min proc/sys/dev/raid/speed_limit_max \
	sys/block/md2/md/stripe_cache_size sys/block/md3/md/stripe_cache_size \
	sys/block/md2/queue/read_ahead_kb sys/block/md3/md/sync_speed_min; do
	cmp -s "$ROOT/$f" "$WORK/by-name/$f" || fail "apply - wrote $f unlike apply balanced"
done
run revert
expect_exit 0
expect_unchanged
# Bad text on stdin is positioned as stdin and changes nothing.
printf 'raid:\n  speed_limit_mn: 5\n' >"$WORK/bad.yaml"
run_expect 2 . apply-bad.yaml apply - <"$WORK/bad.yaml"
expect_unchanged
run_expect 2 . check-devnull check - - </dev/null
# More than any profile file may hold is refused before parsing.
python3 -c 'print("description: x\n" + "#" * 1048576)' >"$WORK/big.yaml"
run_expect 2 . check-big.yaml check - <"$WORK/big.yaml"
# --name names it, in apply's report and the journal (status shows it).
run apply - --name balanced-boot <"$WORK/pin.yaml"
expect_exit 0
[ "$(tail -n 1 "$WORK/out")" = "profile balanced-boot is active; 'mdprofile revert' restores the values from before" ] ||
	fail "--name does not name the profile: $(tail -n 1 "$WORK/out")"
run status
expect_exit 0
grep -q '^active profile: balanced-boot since ' "$WORK/out" || fail "status does not show --name"
run revert
expect_exit 0
expect_unchanged
run_expect 2 . check-name-a-b check - --name 'a b' <"$WORK/pin.yaml"
run status --name x
expect_exit 2
