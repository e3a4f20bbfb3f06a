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
run_expect 0 . status status
run_expect 0 recover . recover
expect_unchanged "stale journal cleared"
expect_file var/log/fake-services.log fake-services.log

# An unreadable journal is never trusted: exit 3, the file is left for a human.
mkdir -p "$ROOT/run/mdprofile"
printf 'garbage\n' >"$ROOT/run/mdprofile/journal"
run_expect 3 . apply-balanced apply balanced
