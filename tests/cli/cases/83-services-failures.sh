# A pause or a resume that fails: the failed step undone too, every change rolled back,
# and what is left named with the command that finishes it.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

# The failed step is undone too: a stop that failed or was killed midway may have
# half-stopped the service (it was running before, so starting it again is right either
# way).
begin dsm6 a=running b=running c=running
touch "$ROOT/var/lib/fake-services/b.fail-pause"
profile a a b c
mdp_calls 3 apply-pause-fails apply a
stderr_has "service b: 'synoservice --pause-by-reason b mdprofile' failed (exit code 1): Failed to pause service [b]"
expect_states a=running b=running c=running
expect_baseline

# A resume that fails on revert: exit 4, the command that finishes it; a second revert does.
begin_ab
mdp apply a
expect_exit 0
: >"$ROOT/var/log/fake-services.log"
touch "$ROOT/var/lib/fake-services/a.fail-resume"
mdp_calls 4 revert-resume-fails revert
stderr_has "service a is still paused"
stderr_has "  synoservice --resume-by-reason a mdprofile"
rm "$ROOT/var/lib/fake-services/a.fail-resume"
mdp_calls 0 revert-resume-fails.2 revert
expect_ab_back

# A broken package (synopkg status 150): a system failure, nothing left changed.
begin dsm7 pkg:Bad=broken a=running
profile a a pkg:Bad
mdp apply a
expect_exit 3
stderr_has "service pkg:Bad: 'synopkg status Bad' says the package is broken"
expect_states a=running Bad=broken
expect_baseline

# A DSM without the by-reason verbs: the plain ones, and one note saying so.
begin dsm6 a=running b=running
: >"$ROOT/var/lib/fake-services/.no-reason-verbs"
profile a a b
mdp_calls 0 apply-plain-verbs apply a
[ "$(grep -c 'no pause/resume by reason' "$WORK/out")" = 1 ] ||
	fail "the plain-verbs note is not said exactly once"
mdp --json revert
expect_exit 0
grep -qF '"this DSM'"'"'s service tool has no pause/resume by reason' "$WORK/out" ||
	fail "the JSON notes lack the plain-verbs note"
expect_ab_back
