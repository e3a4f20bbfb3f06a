# A services.pause entry's own timeout: it wins over --service-timeout and
# --package-timeout (which only set the default for entries without one),
# and recover's wait for a pause cut short by SIGKILL covers it.
# tags: no-valgrind (kills on purpose mid-pause: timing)
fixture ds220j-dsm7
fakes dsm7 synoindexd=running pkg:SynologyPhotos=running
P=$ROOT/etc/mdprofile/profiles
mkdir -p "$P"
# The stop of synoindexd takes 2 s: more than the 1 s default set below.
echo 2 >"$ROOT/var/lib/fake-services/synoindexd.slow"
printf 'services:\n  pause:\n    - {name: synoindexd, timeout: 3}\n    - {name: "pkg:SynologyPhotos", only_on: [dsm7], timeout: 1200}\n' >"$P/own.yaml"
printf 'services:\n  pause: [synoindexd]\n' >"$P/none.yaml"
printf 'services:\n  pause:\n    - {name: synoindexd, timeout: 1}\n' >"$P/short.yaml"

run show own
expect_exit 0
expect_stdout <<'EOF'
name: own
file: @ROOT@/etc/mdprofile/profiles/own.yaml
memory_budget: 25% of RAM (default)
pause service: synoindexd (timeout 3s)
pause service: pkg:SynologyPhotos (only on dsm7) (timeout 1200s)
EOF
run show --json own
expect_exit 0
expect_json <<'EOF'
{
 "name": "own",
 "path": "@ROOT@/etc/mdprofile/profiles/own.yaml",
 "chain": [
  "own"
 ],
 "description": "",
 "memory_budget": "25% of RAM (default)",
 "raid": {},
 "arrays": [],
 "services": [
  {
   "name": "synoindexd",
   "optional": false,
   "only_on": null,
   "timeout": 3
  },
  {
   "name": "pkg:SynologyPhotos",
   "optional": false,
   "only_on": [
    "dsm7"
   ],
   "timeout": 1200
  }
 ]
}
EOF
run show --yaml own
expect_exit 0
expect_stdout <<'EOF'
# profile own, pinned by 'mdprofile show --yaml' from @ROOT@/etc/mdprofile/profiles/own.yaml
---
services:
  pause:
  - name: synoindexd
    optional: false
    timeout: 3
  - name: pkg:SynologyPhotos
    optional: false
    only_on:
    - dsm7
    timeout: 1200
...
EOF
# What show --yaml wrote loads back to the same entries.
cp "$WORK/out" "$P/pinned.yaml"
run show pinned
expect_exit 0
expect_stdout <<'EOF'
name: pinned
file: @ROOT@/etc/mdprofile/profiles/pinned.yaml
memory_budget: 25% of RAM (default)
pause service: synoindexd (timeout 3s)
pause service: pkg:SynologyPhotos (only on dsm7) (timeout 1200s)
EOF

# The entry's 3 s wins over the command line's 1 s: the slow stop is waited for.
snapshot
run --service-timeout 1 --package-timeout 1 apply own
expect_exit 0
expect_stdout <<'EOF'
service synoindexd: paused
service pkg:SynologyPhotos: paused
profile own is active; 'mdprofile revert' restores the values from before
EOF
expect_file var/lib/fake-services/synoindexd <<'EOF'
stopped
EOF
# The journal keeps each entry's timeout, for the resume and for recover.
grep '^svc ' "$ROOT/run/mdprofile/journal" >"$WORK/svc"
cmp -s "$WORK/svc" - <<'EOF' || _fail "journal svc lines: $(cat "$WORK/svc")"
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
	run --service-timeout "$1" apply "$2"
	expect_exit 3
	expect_stderr <<'EOF'
mdprofile: service synoindexd: 'synosystemctl stop-service-by-reason mdprofile synoindexd' timed out after 1 s, killed
mdprofile: apply failed; every change was rolled back
EOF
	rm "$ROOT/var/lib/fake-services/synoindexd.slow.started"
	expect_unchanged "apply $2 with --service-timeout $1, rolled back"
done

# SIGKILL while the slow stop runs: recover, run with 1 s timeouts, still
# waits the entry's journaled 3 s for the stop tool, so it sees the service
# paused and resumes it (with the 1 s it would kill the tool and find it running).
rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
(cd "$SRC" && exec ${MDP_WRAP:-} "$MDP" --root "$ROOT" -q apply own) >"$WORK/out" 2>"$WORK/err" &
pid=$!
kill_when_pausing "$pid" synoindexd
grep -q '^svc synoindexd pausing [1-9][0-9]* start [1-9][0-9]* boot [0-9a-f-]* timeout 3$' "$ROOT/run/mdprofile/journal" ||
	_fail "the journal does not carry the timeout: $(grep '^svc' "$ROOT/run/mdprofile/journal")"
run --service-timeout 1 --package-timeout 1 recover
expect_exit 0
expect_stdout <<'EOF'
found an interrupted apply of profile own: restoring the baseline
service synoindexd: resumed
EOF
expect_file var/lib/fake-services/synoindexd <<'EOF'
running
EOF
rm -f "$ROOT/var/lib/fake-services/synoindexd.slow.started"
expect_unchanged "SIGKILL during a slow pause + recover"

# Bad values: where and what, nothing run.
printf 'services:\n  pause:\n    - {name: a, timeout: 0}\n    - {name: b, timeout: 3601}\n    - {name: c, timeout: "90"}\n    - {name: d, timeout: 090}\n    - {name: e, timeout: 1.5}\n' >"$P/bad.yaml"
snapshot
: >"$ROOT/var/log/fake-services.log"
run apply bad
expect_exit 2
expect_stderr <<'EOF'
mdprofile: @ROOT@/etc/mdprofile/profiles/bad.yaml:3:26: timeout 0 is out of range (1..3600)
mdprofile: @ROOT@/etc/mdprofile/profiles/bad.yaml:4:26: timeout 3601 is out of range (1..3600)
mdprofile: @ROOT@/etc/mdprofile/profiles/bad.yaml:5:26: timeout '90' is quoted, so yaml reads it as text: write 90 without quotes
mdprofile: @ROOT@/etc/mdprofile/profiles/bad.yaml:6:26: timeout '090': leading zeros are ambiguous (octal in yaml 1.1); write 90
mdprofile: @ROOT@/etc/mdprofile/profiles/bad.yaml:7:26: timeout '1.5' is not a plain decimal number: expected 1..3600 seconds
EOF
expect_file var/log/fake-services.log </dev/null
expect_unchanged "a bad profile"
