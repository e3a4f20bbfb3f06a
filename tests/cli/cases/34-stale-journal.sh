# A journal from another boot: the reboot reset the kernel values and the
# services came back; it is reported and cleared, nothing is written.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
mkdir -p "$ROOT/run/mdprofile"
cat >"$ROOT/run/mdprofile/journal" <<'EOF'
mdprofile-journal 1
state active
boot_id 00000000-0000-0000-0000-000000000000
profile reshape-fast
path -
base stripe_cache_size md2 "999"
svc synoindexd paused
end
EOF
run status
expect_exit 0
expect_stderr <<'EOF'
mdprofile: warning: an interrupted or stale transaction was found; run 'mdprofile recover'
EOF
run recover
expect_exit 0
expect_stdout <<'EOF'
cleared a journal from an earlier boot (profile reshape-fast): the reboot already reset the kernel values
services it paused (synoindexd) came back with the boot; nothing to resume
EOF
expect_unchanged "stale journal cleared"
expect_file var/log/fake-services.log <<'EOF'
EOF

# An unreadable journal is never trusted: exit 3, the file is left for a human.
mkdir -p "$ROOT/run/mdprofile"
printf 'garbage\n' >"$ROOT/run/mdprofile/journal"
run apply balanced
expect_exit 3
expect_stderr <<'EOF'
mdprofile: /run/mdprofile/journal: journal is unreadable; move it aside after checking the values it lists by hand
EOF
