# A Debian server with raid6 x8 and raid10 mid-check.
fixture server-raid6-raid10
run_expect 1 diff-balanced - diff balanced
run_expect 1 diff-kernel-defaults - diff kernel-defaults
run_expect 1 v-diff-kernel-defaults - -v diff kernel-defaults
