# list and show of the shipped profiles.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
run_expect 0 shared/list - list
run_expect 0 show-low-ram - show low-ram
run --json show low-ram
expect_exit 0
expect_json json-show-low-ram
expect_no_stderr
run_expect 2 - show-nope show nope
