# Crashes around the service steps, then recover: the journal names every service apply
# meant to pause, and recover resumes only what was really paused. Made two ways:
# MDPROFILE_FAULT=crash-after-write:K (the seam) for the tunable steps, a SIGKILL of
# mdprofile while a fake pause hangs for the service steps, which the seam cannot reach.
# tags: slow seam no-valgrind (crashes on purpose; recover waits for the killed pause)
. "$SRC/tests/cli/svc.sh"

# A crash after the K-th tunable write of apply (before any pause), then recover: it
# looks first and resumes only what is not running.
for k in 1 2; do
	begin_ab
	MDPROFILE_FAULT=crash-after-write:$k mdp apply a
	expect_exit 137
	expect_calls apply-after-write
	expect_states a=running b=running
	mdp_calls 0 recover-after-write recover
	expect_ab_back
done

# A crash in revert after its first tunable write, before any resume: recover resumes both.
begin_ab
mdp apply a
expect_exit 0
: >"$ROOT/var/log/fake-services.log"
MDPROFILE_FAULT=crash-after-write:1 mdp revert
expect_exit 137
expect_calls </dev/null
expect_states a=paused b=paused
mdp_calls 0 recover-in-revert recover
expect_ab_back

# SIGKILL while the pause of service HUNG hangs, then recover; the calls before the
# kill against apply-pausing-HUNG, recover's against recover-pausing-HUNG.
crash_in_pause() {
	begin dsm6 a=running b=running
	touch "$ROOT/var/lib/fake-services/$1.hang"
	profile a a b
	run_bg --profiles "$P" apply a
	LAST="apply a (killed)"
	wait_until 100 0.1 "[ -s '$ROOT/var/lib/fake-services/$1.hang.pids' ]" || true
	kill -9 "$BGPID"
	wait "$BGPID" 2>/dev/null || true
	# shellcheck disable=SC2046 # the pids, one a word
	kill -9 $(cat "$ROOT/var/lib/fake-services/$1.hang.pids") 2>/dev/null || true
	rm -f "$ROOT/var/lib/fake-services/$1.hang"
}
# The killed pause never changed its service: recover leaves it alone and resumes only
# what was really paused.
crash_in_pause a
expect_calls apply-pausing-a
mdp_calls 0 recover-pausing-a recover
expect_ab_back

crash_in_pause b
expect_calls apply-pausing-b
mdp_calls 0 recover-pausing-b recover
expect_ab_back
