# A signal during a slow service pause (issue 13, item 2). SIGTERM: the
# pause finishes, then everything is rolled back. SIGKILL: the pausing tool
# outlives mdprofile; recover waits for it before it looks at the service.
# tags: no-valgrind (kills on purpose mid-pause: timing)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
echo 1 >"$ROOT/var/lib/fake-services/synoindexd.slow"
snapshot

# Start apply in the background and wait until the pause is under way.
apply_bg() {
	rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	(cd "$SRC" && exec ${MDP_WRAP:-} "$MDP" --root "$ROOT" -q apply reshape-fast) >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0
	while [ ! -e "$ROOT/var/lib/fake-services/synoindexd.slow.started" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ $i -lt 200 ] || _fail "the pause never started"
}

for sig in TERM INT HUP; do
	apply_bg
	kill -"$sig" "$pid"
	RC=0
	wait "$pid" || RC=$?
	LAST="apply reshape-fast (SIG$sig during the pause)"
	expect_exit 3
	expect_stderr <<EOF
mdprofile: interrupted by SIG$sig: rolling back
mdprofile: apply failed; every change was rolled back
EOF
	expect_file var/lib/fake-services/synoindexd <<'EOF'
running
EOF
	rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	expect_unchanged "SIG$sig during a service pause"
done

# SIGKILL: the journal names the pausing tool's process group; recover lets
# it finish, sees the service paused and resumes it. (The kill waits for the
# journal: between the fork and that write mdprofile knows nothing to record.)
apply_bg
kill_when_pausing "$pid" synoindexd
grep -q '^svc synoindexd pausing [1-9][0-9]* start [1-9][0-9]* boot [0-9a-f-]*$' "$ROOT/run/mdprofile/journal" ||
	_fail "the journal does not name the pausing tool: $(grep '^svc' "$ROOT/run/mdprofile/journal")"
run recover
expect_exit 0
expect_stdout <<'EOF'
found an interrupted apply of profile reshape-fast: restoring the baseline
md3 stripe_cache_size: 32768 -> 256
md2 stripe_cache_size: 32768 -> 256
md3 read_ahead: 32 MiB -> 192 KiB
md2 read_ahead: 32 MiB -> 192 KiB
dev.raid.speed_limit_max: 500000 KiB/s -> 200000 KiB/s
dev.raid.speed_limit_min: 100000 KiB/s -> 10000 KiB/s
service synoindexd: resumed
EOF
expect_file var/lib/fake-services/synoindexd <<'EOF'
running
EOF
rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
expect_unchanged "SIGKILL during a service pause + recover"
