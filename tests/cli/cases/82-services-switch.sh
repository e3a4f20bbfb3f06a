# One profile after another: a base replaced, an overlay on a base, each service paused
# once and resumed when no layer wants it any more.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

# A -> B replacing the base: B's new services paused, A's that B does not list resumed.
begin_a_applied
mdp_calls 0 apply-base apply --base b
expect_states x=running y=paused z=paused
mdp_calls 0 revert-base revert
expect_states x=running y=running z=running
expect_baseline

# B as an overlay on A: B's new services paused, A's kept paused under it; revert
# resumes only the overlay's, a second revert the base's.
begin_a_applied
mdp_calls 0 apply-overlay apply b
expect_states x=paused y=paused z=paused
mdp_calls 0 revert-overlay revert
expect_states x=paused y=paused z=running
mdp revert
expect_exit 0
expect_states x=running y=running z=running
expect_baseline
