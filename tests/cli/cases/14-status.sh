# status: operations with progress, speed and ETA; the one case that pins the whole
# status --json document (others narrow it with json_only to the fields they test).
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
run_expect 0 shared/status - status
run --json status
expect_exit 0
expect_json json-status
expect_no_stderr
fixture server-raid6-raid10
run_expect 0 status.2 - status
# -v: each array's UUID and where it came from (no md/uuid in this fixture:
# the member superblocks; md1 has none to read).
fixture ds-dsm6-reshape
run_expect 0 v-status - -v status
