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

# Options refused before the lock and recover (issue 36), and every other refusal of a
# command line (issue 46): an interrupted apply's journal and values stay as they were;
# exit 2 means nothing was touched. refused MESSAGE ARGS...: run ARGS, exit 2, MESSAGE
# ('.': not compared) a line of stderr, and the crashed journal and values untouched.
MDPROFILE_FAULT=crash-after-write:2 run -q apply reshape-fast
expect_exit 137
cp -a "$ROOT/sys" "$WORK/sys.crashed"
cp "$ROOT/run/mdprofile/journal" "$WORK/journal.crashed"
refused() {
	msg=$1
	shift
	run "$@"
	expect_exit 2
	[ "$msg" = . ] || stderr_line "mdprofile: $msg"
	cmp -s "$WORK/journal.crashed" "$ROOT/run/mdprofile/journal" &&
		diff -r "$WORK/sys.crashed" "$ROOT/sys" >/dev/null ||
		fail "'$*' recovered before refusing"
}
refused . apply --base --until-idle balanced
refused . auto --on bogus balanced
refused . enable --target bogus balanced
refused . bench --compare a,b,c,d,e,f,g,h,i
# the profiles enable loads, and --auto's
bin=/usr/bin/mdprofile
refused "profile 'nosuchprofile' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)" \
	enable nosuchprofile --binary $bin
refused "--auto balanced is the profile enabled itself: the watcher would have nothing to add; give it a faster profile, or leave --auto out" \
	enable balanced --auto balanced --binary $bin
refused "missing.yaml: cannot open profile: No such file or directory" \
	enable --auto missing.yaml balanced --binary $bin
# explain --probe: an array it does not know, nothing to probe (both known after its window)
refused "no array md99 in /proc/mdstat" explain --interval 0.1 --probe md99
refused "--probe: every recommendation's gain is computed or there is none: nothing to probe" \
	explain --interval 0.1 --probe
# bench --compare without --path: no volume on md to measure
refused "/proc/mounts: cannot read it: No such file or directory" bench --compare balanced
run_expect 0 recover.3 . recover
expect_unchanged "recover after the refusals"
