# 99-goal-qd8: the latency goal's case C (issue 48): 4 KiB random reads at a queue depth of 8
# (eight clients reading back to back at once: a database, or many users) on the recovering
# array itself, md21 of 99-goal-dsm's layout, its goal twice their mean with md21 idle. The
# question is where the kernel's limits put that client over its goal (md's drain rule
# notices a reader of the array itself only between its sync requests), and whether the goal
# then holds it within 1.2 times. Reported, not judged, as 99-goal-dsm.
# lab: bench-vm only (a figure for docs/PERFORMANCE.md, nothing the lab judges)
GOAL_DSM_SIZES=4096
GOAL_DSM_READ=md21
GOAL_DSM_CLIENTS=8
. "$LAB/scenarios/99-goal-dsm.sh"
