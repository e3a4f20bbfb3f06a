# mdprofile __values COMMAND --OPTION: the words an option takes, from the
# option tables, for the bash completion (which types no list itself).
run_noroot __values status --format
expect_exit 0
expect_stdout <<'EOF2'
text
json
prometheus
EOF2
run_noroot __values apply --origin
expect_exit 0
expect_stdout <<'EOF2'
hand
boot
EOF2
run_noroot __values boot-script --target
expect_exit 0
expect_stdout <<'EOF2'
dsm
systemd
rc.d
EOF2
run_noroot __values auto --on
expect_exit 0
expect_stdout <<'EOF2'
resync
recovery
reshape
check
repair
EOF2
run_noroot __values --all --services-backend
expect_exit 0
expect_stdout <<'EOF2'
dsm6
dsm7
systemd
none
EOF2
# A free value has no words; an option of another command none here.
run_noroot __values show --root
expect_exit 0
expect_stdout <<'EOF2'
EOF2
run_noroot __values show --format
expect_exit 0
expect_stdout <<'EOF2'
EOF2
run_noroot __values nosuch --format
expect_exit 2
