# One profile after another: a base replaced, an overlay on a base, each service paused
# once and resumed when no layer wants it any more.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

# A -> B replacing the base: B's new services paused, A's that B does not list resumed.
begin_a_applied
mdp apply --base b
expect_exit 0
expect_calls apply-base
expect_states x=running y=paused z=paused
mdp revert
expect_exit 0
expect_calls revert-base
expect_states x=running y=running z=running
expect_baseline

# B as an overlay on A: B's new services paused, A's kept paused under it; revert
# resumes only the overlay's, a second revert the base's.
begin_a_applied
mdp apply b
expect_exit 0
expect_calls apply-overlay
expect_states x=paused y=paused z=paused
mdp revert
expect_exit 0
expect_calls revert-overlay
expect_states x=paused y=paused z=running
mdp revert
expect_exit 0
expect_states x=running y=running z=running
expect_baseline
