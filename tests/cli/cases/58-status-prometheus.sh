# status --format prometheus (issue 10): the node_exporter textfile format,
# checked line by line and by promtool's rules where it is installed.
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
mdprofile_array_sync_running{array="md0",action="idle"} 0
mdprofile_array_sync_running{array="md1",action="idle"} 0
mdprofile_array_sync_running{array="md2",action="idle"} 0
mdprofile_array_sync_running{array="md3",action="reshape"} 1
# HELP mdprofile_array_sync_progress_ratio the operation's progress, 0..1, as md truncates it
# TYPE mdprofile_array_sync_progress_ratio gauge
mdprofile_array_sync_progress_ratio{array="md0"} 0.000
mdprofile_array_sync_progress_ratio{array="md1"} 0.000
mdprofile_array_sync_progress_ratio{array="md2"} 0.000
mdprofile_array_sync_progress_ratio{array="md3"} 0.251
# HELP mdprofile_array_sync_speed_bytes_per_second md/sync_speed
# TYPE mdprofile_array_sync_speed_bytes_per_second gauge
mdprofile_array_sync_speed_bytes_per_second{array="md0"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md1"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md2"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md3"} 4799488
# HELP mdprofile_array_sync_eta_seconds time left at the current speed
# TYPE mdprofile_array_sync_eta_seconds gauge
mdprofile_array_sync_eta_seconds{array="md0"} 0
mdprofile_array_sync_eta_seconds{array="md1"} 0
mdprofile_array_sync_eta_seconds{array="md2"} 0
mdprofile_array_sync_eta_seconds{array="md3"} 311975
# HELP mdprofile_array_missing_disks raid disks without a working member
# TYPE mdprofile_array_missing_disks gauge
mdprofile_array_missing_disks{array="md0"} 0
mdprofile_array_missing_disks{array="md1"} 0
mdprofile_array_missing_disks{array="md2"} 0
mdprofile_array_missing_disks{array="md3"} 0
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
# HELP mdprofile_tunable_value a managed tunable's current value, in its unit
# TYPE mdprofile_tunable_value gauge
mdprofile_tunable_value{target="dev.raid",tunable="speed_limit_min",unit="KiB/s"} 100000
mdprofile_tunable_value{target="dev.raid",tunable="speed_limit_max",unit="KiB/s"} 500000
mdprofile_tunable_value{target="md2",tunable="read_ahead",unit="KiB"} 32768
mdprofile_tunable_value{target="md3",tunable="read_ahead",unit="KiB"} 32768
mdprofile_tunable_value{target="md2",tunable="stripe_cache_size",unit="pages"} 1000
mdprofile_tunable_value{target="md3",tunable="stripe_cache_size",unit="pages"} 32768
# HELP mdprofile_tunable_profile_value the value the active profile set, in its unit
# TYPE mdprofile_tunable_profile_value gauge
mdprofile_tunable_profile_value{target="dev.raid",tunable="speed_limit_min",unit="KiB/s"} 100000
mdprofile_tunable_profile_value{target="dev.raid",tunable="speed_limit_max",unit="KiB/s"} 500000
mdprofile_tunable_profile_value{target="md2",tunable="read_ahead",unit="KiB"} 32768
mdprofile_tunable_profile_value{target="md3",tunable="read_ahead",unit="KiB"} 32768
mdprofile_tunable_profile_value{target="md2",tunable="stripe_cache_size",unit="pages"} 32768
mdprofile_tunable_profile_value{target="md3",tunable="stripe_cache_size",unit="pages"} 32768
# HELP mdprofile_array_sync_running 1 while md runs an operation (not one only queued)
# TYPE mdprofile_array_sync_running gauge
mdprofile_array_sync_running{array="md0",action="idle"} 0
mdprofile_array_sync_running{array="md1",action="idle"} 0
mdprofile_array_sync_running{array="md2",action="idle"} 0
mdprofile_array_sync_running{array="md3",action="reshape"} 1
# HELP mdprofile_array_sync_progress_ratio the operation's progress, 0..1, as md truncates it
# TYPE mdprofile_array_sync_progress_ratio gauge
mdprofile_array_sync_progress_ratio{array="md0"} 0.000
mdprofile_array_sync_progress_ratio{array="md1"} 0.000
mdprofile_array_sync_progress_ratio{array="md2"} 0.000
mdprofile_array_sync_progress_ratio{array="md3"} 0.251
# HELP mdprofile_array_sync_speed_bytes_per_second md/sync_speed
# TYPE mdprofile_array_sync_speed_bytes_per_second gauge
mdprofile_array_sync_speed_bytes_per_second{array="md0"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md1"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md2"} 0
mdprofile_array_sync_speed_bytes_per_second{array="md3"} 4799488
# HELP mdprofile_array_sync_eta_seconds time left at the current speed
# TYPE mdprofile_array_sync_eta_seconds gauge
mdprofile_array_sync_eta_seconds{array="md0"} 0
mdprofile_array_sync_eta_seconds{array="md1"} 0
mdprofile_array_sync_eta_seconds{array="md2"} 0
mdprofile_array_sync_eta_seconds{array="md3"} 311975
# HELP mdprofile_array_missing_disks raid disks without a working member
# TYPE mdprofile_array_missing_disks gauge
mdprofile_array_missing_disks{array="md0"} 0
mdprofile_array_missing_disks{array="md1"} 0
mdprofile_array_missing_disks{array="md2"} 0
mdprofile_array_missing_disks{array="md3"} 0
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
