# explain --probe changes a setting: without root it says so first, touching nothing (exit 77,
# as apply and bench --compare); explain without --probe reads as any user.
# tags: no-valgrind (runs as nobody)
as_nobody || return 0
run_noroot explain --probe
expect_exit 77
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: 'explain' changes kernel settings and services and needs root: run it with sudo or as root
EOF
# Without --probe it reads this machine's md as nobody (exit 3 where there is no
# /proc/mdstat): whatever it finds, it never asks for root.
run_noroot explain --interval 1
! grep -q 'needs root' "$WORK/err" || fail "explain without --probe asked for root"
exit_checked
rm -rf "$NB"
