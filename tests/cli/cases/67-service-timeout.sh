# A services.pause entry's own timeout: it wins over --service-timeout and
# --package-timeout (which only set the default for entries without one),
# and recover's wait for a pause cut short by SIGKILL covers it.
# tags: slow no-valgrind (kills on purpose mid-pause: timing)
fixture ds220j-dsm7
fakes dsm7 synoindexd=running pkg:SynologyPhotos=running
P=$ROOT/etc/mdprofile/profiles
mkdir -p "$P"
# The stop of synoindexd takes 2 s: more than the 1 s default set below.
echo 2 >"$ROOT/var/lib/fake-services/synoindexd.slow"
printf 'services:\n  pause:\n    - {name: synoindexd, timeout: 3}\n    - {name: "pkg:SynologyPhotos", only_on: [dsm7], timeout: 1200}\n' >"$P/own.yaml"
printf 'services:\n  pause: [synoindexd]\n' >"$P/none.yaml"
printf 'services:\n  pause:\n    - {name: synoindexd, timeout: 1}\n' >"$P/short.yaml"

run_expect 0 show-own . show own
run show --json own
expect_exit 0
expect_json show-json-own
run_expect 0 show-yaml-own . show --yaml own
# What show --yaml wrote loads back to the same entries.
cp "$WORK/out" "$P/pinned.yaml"
run_expect 0 show-pinned . show pinned

# The entry's 3 s wins over the command line's 1 s: the slow stop is waited for.
snapshot
run_expect 0 service-timeout-package-timeout-apply-ow . --service-timeout 1 --package-timeout 1 apply own
expect_file var/lib/fake-services/synoindexd synoindexd
# The journal keeps each entry's timeout, for the resume and for recover.
grep '^svc ' "$ROOT/run/mdprofile/journal" >"$WORK/svc"
cmp -s "$WORK/svc" - <<'EOF' || fail "journal svc lines: $(cat "$WORK/svc")"
svc synoindexd paused timeout 3
svc pkg:SynologyPhotos paused timeout 1200
EOF
run revert
expect_exit 0
rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
expect_unchanged "apply own + revert"

# Without its own timeout the 1 s default applies: the stop is killed, all
# rolled back. An entry's own timeout wins when it is the smaller one too.
for how in "1 none" "10 short"; do
	# shellcheck disable=SC2086 # two words: the timeout and the profile
	set -- $how
	run_expect 3 . service-timeout-apply --service-timeout "$1" apply "$2"
	rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	expect_unchanged "apply $2 with --service-timeout $1, rolled back"
done

# SIGKILL while the slow stop runs: recover, run with 1 s timeouts, still
# waits the entry's journaled 3 s for the stop tool, so it sees the service
# paused and resumes it (with the 1 s it would kill the tool and find it running).
rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
run_bg -q apply own
kill_when_pausing "$BGPID" synoindexd
grep -q '^svc synoindexd pausing [1-9][0-9]* start [1-9][0-9]* boot [0-9a-f-]* timeout 3$' "$ROOT/run/mdprofile/journal" ||
	fail "the journal does not carry the timeout: $(grep '^svc' "$ROOT/run/mdprofile/journal")"
run_expect 0 service-timeout-package-timeout-recover . --service-timeout 1 --package-timeout 1 recover
expect_file var/lib/fake-services/synoindexd synoindexd.2
rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
expect_unchanged "SIGKILL during a slow pause + recover"

# Bad values: where and what, nothing run.
printf 'services:\n  pause:\n    - {name: a, timeout: 0}\n    - {name: b, timeout: 3601}\n    - {name: c, timeout: "90"}\n    - {name: d, timeout: 090}\n    - {name: e, timeout: 1.5}\n' >"$P/bad.yaml"
snapshot
: >"$ROOT/var/log/fake-services.log"
run_expect 2 . apply-bad apply bad
expect_file var/log/fake-services.log </dev/null
expect_unchanged "a bad profile"
