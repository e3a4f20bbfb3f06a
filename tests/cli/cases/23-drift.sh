# Drift is measured against what was applied (the journal), not the profile file as it reads now.
fixture ds-dsm6-reshape
mkdir -p "$ROOT"/etc/mdprofile/profiles && cp "$SRC/profiles/balanced.yaml" "$ROOT"/etc/mdprofile/profiles/mine.yaml
run apply mine -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
run diff
expect_exit 0
expect_stdout <<'EOF'
active profile mine: no drift
EOF
expect_stderr <<'EOF'
EOF
# Editing the profile after apply is not drift.
sed -i 's/speed_limit_min: 50000/speed_limit_min: 70000/' "$ROOT"/etc/mdprofile/profiles/mine.yaml
run diff
expect_exit 0
expect_stdout <<'EOF'
active profile mine: no drift
EOF
expect_stderr <<'EOF'
EOF
# A value changed behind mdprofile's back is.
echo 10000 > "$ROOT"/proc/sys/dev/raid/speed_limit_min
run diff
expect_exit 1
expect_stdout <<'EOF'
drift from active profile mine (live -> applied)

dev.raid
  speed_limit_min                 10000 KiB/s -> 50000 KiB/s

1 value drifted; 'mdprofile apply mine' sets them again
EOF
expect_stderr <<'EOF'
EOF
# The edited profile itself still diffs against the live system.
run diff mine
expect_exit 1
expect_stdout <<'EOF'
profile mine (@ROOT@/etc/mdprofile/profiles/mine.yaml)

dev.raid
  speed_limit_min                 10000 KiB/s -> 70000 KiB/s

stripe cache memory: 56 MiB now, 56 MiB after; budget 787 MiB (10% of 7872 MiB RAM)

1 change pending
EOF
expect_stderr <<'EOF'
EOF
run revert -q
expect_exit 0
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
EOF
