# status --format prometheus (issue 10): the node_exporter textfile format,
# checked line by line and by promtool's rules where it is installed: tunables
# in base units, one metric per unit; a 0/1 series per action; array and
# device labels; samples not known left out.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
run status --format prometheus
expect_exit 0
expect_stdout <<'EOF'
# HELP mdprofile_profile_active 1 while a profile applied by mdprofile is in force
# TYPE mdprofile_profile_active gauge
mdprofile_profile_active{profile=""} 0
# HELP mdprofile_array_sync_running 1 while md runs an operation (not one only queued)
# TYPE mdprofile_array_sync_running gauge
mdprofile_array_sync_running{array="md0",device="md0"} 0
mdprofile_array_sync_running{array="md1",device="md1"} 0
mdprofile_array_sync_running{array="md2",device="md2"} 0
mdprofile_array_sync_running{array="md3",device="md3"} 1
# HELP mdprofile_array_sync_action 1 for the operation md/sync_action names (running or queued), 0 for the others
# TYPE mdprofile_array_sync_action gauge
mdprofile_array_sync_action{array="md0",device="md0",action="idle"} 1
mdprofile_array_sync_action{array="md0",device="md0",action="resync"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="recover"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="reshape"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="check"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="repair"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="frozen"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="idle"} 1
mdprofile_array_sync_action{array="md1",device="md1",action="resync"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="recover"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="reshape"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="check"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="repair"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="frozen"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="idle"} 1
mdprofile_array_sync_action{array="md2",device="md2",action="resync"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="recover"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="reshape"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="check"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="repair"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="frozen"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="idle"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="resync"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="recover"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="reshape"} 1
mdprofile_array_sync_action{array="md3",device="md3",action="check"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="repair"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="frozen"} 0
# HELP mdprofile_array_sync_progress_ratio the running operation's progress, 0..1, as md truncates it
# TYPE mdprofile_array_sync_progress_ratio gauge
mdprofile_array_sync_progress_ratio{array="md3",device="md3"} 0.251
# HELP mdprofile_array_sync_speed_bytes_per_second md/sync_speed
# TYPE mdprofile_array_sync_speed_bytes_per_second gauge
mdprofile_array_sync_speed_bytes_per_second{array="md0",device="md0"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md1",device="md1"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md2",device="md2"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md3",device="md3"} 4799488
# HELP mdprofile_array_sync_eta_seconds time left at the current speed, while it is known
# TYPE mdprofile_array_sync_eta_seconds gauge
mdprofile_array_sync_eta_seconds{array="md3",device="md3"} 311975
# HELP mdprofile_array_missing_disks raid disks without a working member (DSM's empty system-array bays are not)
# TYPE mdprofile_array_missing_disks gauge
mdprofile_array_missing_disks{array="md0",device="md0"} 0
mdprofile_array_missing_disks{array="md1",device="md1"} 0
mdprofile_array_missing_disks{array="md2",device="md2"} 0
mdprofile_array_missing_disks{array="md3",device="md3"} 0
EOF
run -q apply reshape-fast
expect_exit 0
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
echo 1000 >"$ROOT/sys/block/md2/md/stripe_cache_size"
run status --format prometheus
expect_exit 0
expect_stdout <<'EOF'
# HELP mdprofile_profile_active 1 while a profile applied by mdprofile is in force
# TYPE mdprofile_profile_active gauge
mdprofile_profile_active{profile="reshape-fast"} 1
# HELP mdprofile_profile_layer 1 for each active layer: role base or overlay, by who applied it
# TYPE mdprofile_profile_layer gauge
mdprofile_profile_layer{role="base",profile="reshape-fast",by="hand"} 1
# HELP mdprofile_profile_since_timestamp_seconds when the active profile was applied
# TYPE mdprofile_profile_since_timestamp_seconds gauge
mdprofile_profile_since_timestamp_seconds 1795941000
# HELP mdprofile_drift_values values moved since the profile applied them
# TYPE mdprofile_drift_values gauge
mdprofile_drift_values 1
# HELP mdprofile_service_paused 1 for each service the active profile paused
# TYPE mdprofile_service_paused gauge
mdprofile_service_paused{service="synoindexd"} 1
mdprofile_service_paused{service="pkgctl-FileStation"} 1
# HELP mdprofile_tunable_bytes_per_second a managed tunable's current value: a speed limit (md counts KiB/s per device)
# TYPE mdprofile_tunable_bytes_per_second gauge
mdprofile_tunable_bytes_per_second{target="dev.raid",tunable="speed_limit_min"} 102400000
mdprofile_tunable_bytes_per_second{target="dev.raid",tunable="speed_limit_max"} 512000000
# HELP mdprofile_tunable_profile_bytes_per_second the value the active profile set: a speed limit (md counts KiB/s per device)
# TYPE mdprofile_tunable_profile_bytes_per_second gauge
mdprofile_tunable_profile_bytes_per_second{target="dev.raid",tunable="speed_limit_min"} 102400000
mdprofile_tunable_profile_bytes_per_second{target="dev.raid",tunable="speed_limit_max"} 512000000
# HELP mdprofile_tunable_bytes a managed tunable's current value: a read-ahead
# TYPE mdprofile_tunable_bytes gauge
mdprofile_tunable_bytes{target="md2",tunable="read_ahead"} 33554432
mdprofile_tunable_bytes{target="md3",tunable="read_ahead"} 33554432
# HELP mdprofile_tunable_profile_bytes the value the active profile set: a read-ahead
# TYPE mdprofile_tunable_profile_bytes gauge
mdprofile_tunable_profile_bytes{target="md2",tunable="read_ahead"} 33554432
mdprofile_tunable_profile_bytes{target="md3",tunable="read_ahead"} 33554432
# HELP mdprofile_tunable_pages a managed tunable's current value: a stripe cache, in pages per member disk
# TYPE mdprofile_tunable_pages gauge
mdprofile_tunable_pages{target="md2",tunable="stripe_cache_size"} 1000
mdprofile_tunable_pages{target="md3",tunable="stripe_cache_size"} 32768
# HELP mdprofile_tunable_profile_pages the value the active profile set: a stripe cache, in pages per member disk
# TYPE mdprofile_tunable_profile_pages gauge
mdprofile_tunable_profile_pages{target="md2",tunable="stripe_cache_size"} 32768
mdprofile_tunable_profile_pages{target="md3",tunable="stripe_cache_size"} 32768
# HELP mdprofile_array_sync_running 1 while md runs an operation (not one only queued)
# TYPE mdprofile_array_sync_running gauge
mdprofile_array_sync_running{array="md0",device="md0"} 0
mdprofile_array_sync_running{array="md1",device="md1"} 0
mdprofile_array_sync_running{array="md2",device="md2"} 0
mdprofile_array_sync_running{array="md3",device="md3"} 1
# HELP mdprofile_array_sync_action 1 for the operation md/sync_action names (running or queued), 0 for the others
# TYPE mdprofile_array_sync_action gauge
mdprofile_array_sync_action{array="md0",device="md0",action="idle"} 1
mdprofile_array_sync_action{array="md0",device="md0",action="resync"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="recover"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="reshape"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="check"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="repair"} 0
mdprofile_array_sync_action{array="md0",device="md0",action="frozen"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="idle"} 1
mdprofile_array_sync_action{array="md1",device="md1",action="resync"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="recover"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="reshape"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="check"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="repair"} 0
mdprofile_array_sync_action{array="md1",device="md1",action="frozen"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="idle"} 1
mdprofile_array_sync_action{array="md2",device="md2",action="resync"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="recover"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="reshape"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="check"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="repair"} 0
mdprofile_array_sync_action{array="md2",device="md2",action="frozen"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="idle"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="resync"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="recover"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="reshape"} 1
mdprofile_array_sync_action{array="md3",device="md3",action="check"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="repair"} 0
mdprofile_array_sync_action{array="md3",device="md3",action="frozen"} 0
# HELP mdprofile_array_sync_progress_ratio the running operation's progress, 0..1, as md truncates it
# TYPE mdprofile_array_sync_progress_ratio gauge
mdprofile_array_sync_progress_ratio{array="md3",device="md3"} 0.251
# HELP mdprofile_array_sync_speed_bytes_per_second md/sync_speed
# TYPE mdprofile_array_sync_speed_bytes_per_second gauge
mdprofile_array_sync_speed_bytes_per_second{array="md0",device="md0"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md1",device="md1"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md2",device="md2"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md3",device="md3"} 4799488
# HELP mdprofile_array_sync_eta_seconds time left at the current speed, while it is known
# TYPE mdprofile_array_sync_eta_seconds gauge
mdprofile_array_sync_eta_seconds{array="md3",device="md3"} 311975
# HELP mdprofile_array_missing_disks raid disks without a working member (DSM's empty system-array bays are not)
# TYPE mdprofile_array_missing_disks gauge
mdprofile_array_missing_disks{array="md0",device="md0"} 0
mdprofile_array_missing_disks{array="md1",device="md1"} 0
mdprofile_array_missing_disks{array="md2",device="md2"} 0
mdprofile_array_missing_disks{array="md3",device="md3"} 0
EOF
expect_stderr <<'EOF'
EOF
# every sample line is NAME{LABELS} NUMBER and each name has its HELP and TYPE
awk '/^#/ { if ($2 == "TYPE") typed[$3] = 1; next }
	{ n = $1; sub(/\{.*/, "", n); if (!typed[n] || $2 !~ /^-?[0-9.]+$/ || NF != 2) bad = bad "\n" $0 }
	END { if (bad) { print "bad lines:" bad; exit 1 } }' "$WORK/out" >"$WORK/awk" ||
	_fail "$(cat "$WORK/awk")"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$WORK/out" >"$WORK/promtool" 2>&1 || _fail "promtool: $(cat "$WORK/promtool")"
fi
# --format json is --json; a format we do not know is a usage error
run status --format json
expect_exit 0
cp "$WORK/out" "$WORK/fj"
run status --json
expect_exit 0
cmp -s "$WORK/out" "$WORK/fj" || _fail "--format json differs from --json"
run status --format yaml
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --format 'yaml': expected text, json or prometheus
EOF
run diff --format prometheus
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --format does not apply to 'diff'
usage: mdprofile [options] diff [PROFILE]
EOF
