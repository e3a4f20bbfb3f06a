# explain: one member 96% busy, the others 9%: the slow disk is the speed
fixture explain/member
read_only 0 explain

# the disk a recovery writes, 96% busy at 40 ms a request, the disks it is rebuilt from 9%:
# its own finding with its numbers (not "no cause found"), and no recommendation
fixture explain/target
run explain
expect_exit 0
expect_stdout target
expect_no_stderr
run --json explain
expect_exit 0
expect_json json-target
