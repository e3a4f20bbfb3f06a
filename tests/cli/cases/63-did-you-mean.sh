# A mistyped command or profile name: one line with what was meant, exit 2, no usage dump.
fixture ds-dsm6-reshape
run stauts
expect_exit 2
expect_stdout <<'EOF2'
EOF2
expect_stderr <<'EOF2'
mdprofile: unknown command 'stauts' (did you mean 'status'?)
EOF2
run help lsit
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: help: unknown command 'lsit' (did you mean 'list'?)
EOF2
run frobnicate
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: unknown command 'frobnicate' (see mdprofile --help)
EOF2
snapshot
run apply reshape-fsat
expect_exit 2
expect_stdout <<'EOF2'
EOF2
expect_stderr <<'EOF2'
mdprofile: profile 'reshape-fsat' not found; did you mean 'reshape-fast'? (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF2
expect_unchanged "apply of a mistyped profile"
# Names in every place are candidates: --profiles, /etc and the built-ins.
mkdir -p "$ROOT/mine" "$ROOT/etc/mdprofile/profiles"
echo 'description: x' >"$ROOT/mine/nightly-scrub.yaml"
echo 'description: y' >"$ROOT/etc/mdprofile/profiles/weekend.yaml"
run --profiles "$ROOT/mine" show nightly-scrb
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: profile 'nightly-scrb' not found; did you mean 'nightly-scrub'? (looked in @ROOT@/mine, @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF2
run diff Weekend
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: profile 'Weekend' not found; did you mean 'weekend'? (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF2
run show zzz
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: profile 'zzz' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF2

# A prefix of several options names them (issue 37).
run_noroot --ver
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: option '--ver' is ambiguous: --verbose or --version
EOF2
