# Invariant 7: two applies at once. One wins; the tree ends in exactly one
# profile's state, never a mix. The loser fails fast naming the holder.
# System files only; the journal (which profile is active) is checked apart,
# since its baseline order depends on which apply came first.
# tags: heavy no-valgrind (not yet in make valgrind: passed under it)
state_copy() {
	_sys_copy "$ROOT" "$1"
	mv "$1/run/mdprofile/journal" "$1.journal"
}

fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running
for p in reshape-fast balanced; do
	run apply $p
	expect_exit 0
	state_copy "$WORK/state-$p"
	run revert
	expect_exit 0
done
snapshot
# bg_apply TAG PROFILE [OPTION]: apply in the background, exit code to $WORK/TAG.rc.
bg_apply() {
	rc=0
	# shellcheck disable=SC2086 # MDP_WRAP and $3 are words or nothing
	(cd "$SRC" && ${MDP_WRAP:-} "$MDP" --root "$ROOT" -q ${3:-} apply "$2") >"$WORK/$1.out" 2>&1 || rc=$?
	echo $rc >"$WORK/$1.rc"
}
i=0
while [ $i -lt 8 ]; do
	# --base: one after the other, the second replaces the first
	bg_apply a reshape-fast --base &
	bg_apply b balanced --base &
	wait
	state_copy "$WORK/now"
	if diff -r "$WORK/now" "$WORK/state-reshape-fast" >/dev/null 2>&1; then
		grep -q '^profile "reshape-fast"$' "$WORK/now.journal" || fail "round $i: journal names $(grep ^profile "$WORK/now.journal")"
	elif diff -r "$WORK/now" "$WORK/state-balanced" >/dev/null 2>&1; then
		grep -q '^profile "balanced"$' "$WORK/now.journal" || fail "round $i: journal names $(grep ^profile "$WORK/now.journal")"
	else
		fail "round $i: the tree is in neither profile's state: $(cat "$WORK/a.rc") $(cat "$WORK/b.rc")"
		diff -r "$WORK/now" "$WORK/state-reshape-fast" >&2
	fi
	for r in a b; do
		case $(cat "$WORK/$r.rc") in
		0) ;;
		3) grep -q "another mdprofile (pid [0-9]*) is changing the system" "$WORK/$r.out" ||
			fail "round $i: loser said: $(cat "$WORK/$r.out")" ;;
		*) fail "round $i: apply exited $(cat "$WORK/$r.rc"): $(cat "$WORK/$r.out")" ;;
		esac
	done
	run -q revert
	expect_exit 0
	expect_unchanged "round $i revert"
	i=$((i + 1))
done

# --wait: the second waits for the first instead of failing.
bg_apply a reshape-fast --wait &
bg_apply b balanced --wait &
wait
[ "$(cat "$WORK/a.rc")$(cat "$WORK/b.rc")" = 00 ] || fail "--wait: exits $(cat "$WORK/a.rc") $(cat "$WORK/b.rc")"
# one after the other: the second is an overlay on the first, the first its base
grep -q '^under "' "$ROOT/run/mdprofile/journal" || fail "--wait: the second apply is no overlay"
run -q revert --all
expect_exit 0
expect_unchanged "after --wait and revert --all"
