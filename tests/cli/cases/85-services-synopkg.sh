# synopkg of each DSM 7 generation (7.0, 7.1: JSON, 7.2: its own exit codes): a package
# paused, one stopped or not installed skipped, all back on revert.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

for minor in 0 1 2; do
	begin dsm7 pkg:Run=running pkg:Off=stopped
	printf 'majorversion="7"\nminorversion="%s"\n' "$minor" >"$ROOT/etc.defaults/VERSION"
	profile a pkg:Run pkg:Off '?pkg:Gone'
	mdp_calls 0 apply --json apply a
	for want in '"name": "pkg:Run", "action": "pause", "result": "done"' \
		'"name": "pkg:Off", "action": "pause", "result": "not-running"' \
		'"name": "pkg:Gone", "action": "pause", "result": "not-found"'; do
		grep -qF "$want" "$WORK/out" || fail "7.$minor: apply --json lacks $want"
	done
	mdp revert
	expect_exit 0
	expect_states Run=running Off=stopped
	expect_baseline
done
