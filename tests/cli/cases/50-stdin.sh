# apply -, diff -, check -: a profile read from stdin (what a boot script feeds apply)
# plans and writes exactly what the profile file does.
fixture ds-dsm6-reshape
run show --yaml balanced
expect_exit 0
cp "$WORK/out" "$WORK/pin.yaml"
run check - <"$WORK/pin.yaml"
expect_exit 0
expect_stdout <<'EOF'
-: ok
EOF
# Only the profile's name and the rules' positions differ.
unplace='s/"profile": "[^"]*"//; s/"reason": "rule \([0-9]*\) ([^)]*)"/rule \1/g'
run diff balanced --json
expect_exit 1
sed "$unplace" "$WORK/out" >"$WORK/want.diff"
run diff - --json <"$WORK/pin.yaml"
expect_exit 1
sed "$unplace" "$WORK/out" >"$WORK/got.diff"
cmp -s "$WORK/want.diff" "$WORK/got.diff" || _fail "diff - plans other changes than diff balanced"
# apply - writes byte for byte what apply balanced writes.
snapshot
run apply balanced
expect_exit 0
cp -a "$ROOT" "$WORK/by-name"
run revert
expect_exit 0
expect_unchanged
run apply - <"$WORK/pin.yaml"
expect_exit 0
expect_stderr <<'EOF'
EOF
tail -n 1 "$WORK/out" >"$WORK/last"
cmp -s "$WORK/last" - <<'EOF' || _fail "apply - names its profile: $(cat "$WORK/last")"
profile stdin is active; 'mdprofile revert' restores the values from before
EOF
for f in proc/sys/dev/raid/speed_limit_min proc/sys/dev/raid/speed_limit_max \
	sys/block/md2/md/stripe_cache_size sys/block/md3/md/stripe_cache_size \
	sys/block/md2/queue/read_ahead_kb sys/block/md3/md/sync_speed_min; do
	cmp -s "$ROOT/$f" "$WORK/by-name/$f" || _fail "apply - wrote $f unlike apply balanced"
done
run revert
expect_exit 0
expect_unchanged
# Bad text on stdin is positioned as stdin and changes nothing.
printf 'raid:\n  speed_limit_mn: 5\n' >"$WORK/bad.yaml"
run apply - <"$WORK/bad.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: stdin:2:3: unknown key 'speed_limit_mn' (did you mean 'speed_limit_min'?)
EOF
expect_unchanged
run check - - </dev/null
expect_exit 2
expect_stderr <<'EOF'
mdprofile: '-' (the profile on stdin) may be given only once
EOF
# More than any profile file may hold is refused before parsing.
python3 -c 'print("description: x\n" + "#" * 1048576)' >"$WORK/big.yaml"
run check - <"$WORK/big.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: stdin: the profile on stdin is larger than 1048576 bytes
EOF
# --name names it, in apply's report and the journal (status shows it).
run apply - --name balanced-boot <"$WORK/pin.yaml"
expect_exit 0
[ "$(tail -n 1 "$WORK/out")" = "profile balanced-boot is active; 'mdprofile revert' restores the values from before" ] ||
	_fail "--name does not name the profile: $(tail -n 1 "$WORK/out")"
run status
expect_exit 0
grep -q '^active profile: balanced-boot since ' "$WORK/out" || _fail "status does not show --name"
run revert
expect_exit 0
expect_unchanged
run check - --name 'a b' <"$WORK/pin.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --name 'a b': a profile name is letters, digits, '.', '_' and '-', not starting with '.' or '-', at most 64
EOF
run status --name x
expect_exit 2
