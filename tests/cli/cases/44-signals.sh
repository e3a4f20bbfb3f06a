# A signal during a slow service pause (issue 13, item 2). SIGTERM: the
# pause finishes, then everything is rolled back. SIGKILL: the pausing tool
# outlives mdprofile; recover waits for it before it looks at the service.
# tags: slow no-valgrind (kills on purpose mid-pause: timing)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
echo 1 >"$ROOT/var/lib/fake-services/synoindexd.slow"
snapshot

# Start apply in the background and wait until the pause is under way.
apply_bg() {
	rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	run_bg -q apply reshape-fast
	wait_until 200 0.05 '[ -e "$ROOT/var/lib/fake-services/synoindexd.slow.started" ]' ||
		fail "the pause never started"
}

for sig in TERM INT HUP; do
	apply_bg
	kill -"$sig" "$BGPID"
	RC=0
	wait "$BGPID" || RC=$?
	LAST="apply reshape-fast (SIG$sig during the pause)"
	expect_exit 3
	expect_stderr <<EOF
mdprofile: interrupted by SIG$sig: rolling back
mdprofile: apply failed; every change was rolled back
EOF
	expect_file var/lib/fake-services/synoindexd synoindexd
	rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	expect_unchanged "SIG$sig during a service pause"
done

# SIGKILL: the journal names the pausing tool's process group; recover lets
# it finish, sees the service paused and resumes it. (The kill waits for the
# journal: between the fork and that write mdprofile knows nothing to record.)
apply_bg
kill_when_pausing "$BGPID" synoindexd
grep -q '^svc synoindexd pausing [1-9][0-9]* start [1-9][0-9]* boot [0-9a-f-]*$' "$ROOT/run/mdprofile/journal" ||
	fail "the journal does not name the pausing tool: $(grep '^svc' "$ROOT/run/mdprofile/journal")"
run_expect 0 recover . recover
expect_file var/lib/fake-services/synoindexd synoindexd.2
rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
expect_unchanged "SIGKILL during a service pause + recover"
