# Invariant 5 on the real binary: SIGKILL right after the k-th system write,
# for every k, then `recover` -> the baseline, byte for byte.
# tags: heavy seam no-valgrind (crashes on purpose)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running
snapshot
k=1
while :; do
	MDPROFILE_FAULT=crash-after-write:$k run -q apply reshape-fast
	[ "$RC" = 0 ] && { exit_checked; break; } # past the last write: a normal apply
	expect_exit 137
	[ -f "$ROOT/run/mdprofile/journal" ] || fail "crash $k: no journal left"
	run_expect 0 . status status
	run recover
	expect_exit 0
	expect_unchanged "crash after write $k + recover"
	[ ! -f "$ROOT/run/mdprofile/journal" ] || fail "crash $k: journal left after recover"
	k=$((k + 1))
	[ $k -le 40 ] || { fail "never finished"; break; }
done
[ $k -ge 7 ] || fail "only $((k - 1)) crash points were tried"
revert_unchanged "revert"

# What recover says, and that any mutating command recovers first.
MDPROFILE_FAULT=crash-after-write:3 run -q apply reshape-fast
expect_exit 137
run_expect 0 recover . recover
run_expect 0 recover.2 . recover
MDPROFILE_FAULT=crash-after-write:2 run -q apply reshape-fast
expect_exit 137
run_expect 0 revert . revert
expect_unchanged "revert after crash"

# Options refused before the lock and recover (issue 36): an interrupted apply's
# journal and values stay as they were; exit 2 means nothing was touched.
MDPROFILE_FAULT=crash-after-write:2 run -q apply reshape-fast
expect_exit 137
cp -a "$ROOT/sys" "$WORK/sys.crashed"
cp "$ROOT/run/mdprofile/journal" "$WORK/journal.crashed"
for args in "apply --base --until-idle balanced" "auto --on bogus balanced" \
	"enable --target bogus balanced" "bench --compare a,b,c,d,e,f,g,h,i"; do
	# shellcheck disable=SC2086 # the words of args
	run $args
	expect_exit 2
	cmp -s "$WORK/journal.crashed" "$ROOT/run/mdprofile/journal" &&
		diff -r "$WORK/sys.crashed" "$ROOT/sys" >/dev/null ||
		fail "'$args' recovered before refusing its options"
done
run_expect 0 recover.3 . recover
expect_unchanged "recover after the refusals"
