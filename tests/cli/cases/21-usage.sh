# Usage errors: exit 2, one clear line.
fixture ds-dsm6-reshape
run_expect 2 - frobnicate frobnicate
run_expect 2 - diff-a-b diff a b
run_expect 2 - apply apply
run_expect 2 - service-timeout-0-status --service-timeout 0 status
run_expect 2 - services-backend-dsm9-revert --services-backend dsm9 revert
