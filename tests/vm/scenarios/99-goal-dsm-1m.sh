# 99-goal-dsm-1m: 99-goal-dsm with a client reading 1 MiB at a time (a copy from the system
# array, or DSM's own work on it), which takes more of the disks than a share's 64 KiB reads.
# A scenario of its own for the guest's time limit per scenario (180 s a round).
# lab: bench-vm only (a figure for docs/PERFORMANCE.md, nothing the lab judges)
GOAL_DSM_SIZES=1048576
. "$LAB/scenarios/99-goal-dsm.sh"
