# Usage errors: exit 2, one clear line.
fixture ds-dsm6-reshape
run frobnicate
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: unknown command 'frobnicate' (see mdprofile --help)
EOF
run diff a b
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
usage: mdprofile [options] diff [PROFILE]
EOF
run apply
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
usage: mdprofile [options] apply [--dry-run | --until-idle [--interval S] | --base] PROFILE
EOF
run --service-timeout 0 status
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: --service-timeout '0': expected seconds, 1..3600
EOF
run --services-backend dsm9 revert
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: unknown service manager 'dsm9' (expected dsm6, dsm7, systemd or none)
EOF
