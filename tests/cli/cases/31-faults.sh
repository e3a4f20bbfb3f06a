# Invariant 4 on the real binary: failing or clamping the k-th system write,
# or the k-th journal fsync/rename, leaves the tree byte-identical (exit 3).
# tags: heavy seam no-valgrind (not yet in make valgrind: passed under it)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running
snapshot
for kind in write clamp; do
	k=1
	while :; do
		MDPROFILE_FAULT=$kind:$k run apply reshape-fast
		[ "$RC" = 0 ] && { exit_checked; break; } # k is past the last write
		expect_exit 3
		expect_unchanged "$kind:$k"
		k=$((k + 1))
		[ $k -le 40 ] || { fail "$kind: never succeeded"; break; }
	done
	[ $k -ge 7 ] || fail "$kind: only $((k - 1)) writes were tried"
	revert_unchanged "revert after $kind"
done

# The error says what happened and that it was undone.
MDPROFILE_FAULT=clamp:5 run -q apply reshape-fast
expect_exit 3
expect_stderr q-apply-reshape-fast
MDPROFILE_FAULT=write:1 run -q apply reshape-fast
expect_exit 3
expect_stderr q-apply-reshape-fast.2

for f in fsync:1 fsync:2 fsync:3 fsync:4 rename:1 rename:2; do
	MDPROFILE_FAULT=$f run -q apply reshape-fast
	expect_exit 3
	expect_unchanged "$f"
done
