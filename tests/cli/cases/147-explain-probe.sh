# explain --probe: the cpu finding's one setting (md2/group_thread_cnt 4) applied through the
# journal for one window between explain's own and one more at the settings as they were
# (A/B/A), then reverted: the windows' speeds, the change and the A windows' spread, in text
# and JSON; the tree is byte-identical afterwards. A replay's /.explain/2..5 hold the probe's
# samples (the B window's start and end, the second A window's), read like /.explain/1.
fixture explain/cpu
mkdir -p "$ROOT/proc/sys/kernel/random"
echo 5e0c6b8a-3d1f-4c2e-9b7a-1f2e3d4c5b6a >"$ROOT/proc/sys/kernel/random/boot_id"
# probe_sample N DONE: /.explain/N as /.explain/1 with the recovery at DONE KiB
probe_sample() {
	rm -rf "$ROOT/.explain/$1"
	cp -a "$ROOT/.explain/1" "$ROOT/.explain/$1"
	sed -i "s|(431400000/|($2/|" "$ROOT/.explain/$1/proc/mdstat"
}
probe_sample 2 431400000
probe_sample 3 431980000 # B: 58000 KiB/s over 10 s
probe_sample 4 431980000
probe_sample 5 432390000 # A again: 41000 KiB/s
snapshot
run explain --probe
expect_exit 1
expect_stdout <<'EOF'
md2: recover 22.1%, 40000 KiB/s per disk (progress over 10.0 s), about 10h 32m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  cpu: md2_raid5: 95% of a CPU (/proc/2345/stat)
       trade-off: 4 worker threads may each take a CPU from other work while the sync runs; it takes effect at once and 0 sets it back
       check first: SMART was not read for sdd, sdc, sdb, sda (explain reads it as root with smartctl): 'smartctl -H' on each; a failing disk pushed harder can fail outright
    => spread stripe work over 4 threads; the gain cannot be computed, measure it with 'mdprofile bench --op-only --compare' and a profile that sets it
    gain: cannot be computed from two samples
    probe: md2/group_thread_cnt 4 for one window between two at the settings as they were, then reverted
      A 40000 KiB/s, B 58000 KiB/s, A 41000 KiB/s per disk; window 10.0 s each
      => md2/group_thread_cnt 4: +43% (the A windows differ by 2%: the change stands out of that)
EOF
expect_stderr <<'EOF'
EOF
expect_unchanged "after explain --probe"
[ ! -e "$ROOT/run/mdprofile/journal" ] || fail "a journal was left: $(cat "$ROOT/run/mdprofile/journal")"
cp "$WORK/out" "$WORK/probe.out"

# Over an interrupted apply (its journal "applying", speed_limit_min at its 50000) the probe
# recovers only once nothing refuses it, then takes its window again on the restored values:
# the same report as above, the tree as before the apply.
run -q apply balanced
expect_exit 0
sed -i 's/^state active$/state applying/' "$ROOT/run/mdprofile/journal"
run explain --probe
expect_exit 1
cmp -s "$WORK/out" "$WORK/probe.out" || fail "the probe after recover: $(diff "$WORK/probe.out" "$WORK/out")"
expect_unchanged "after recover and explain --probe"

# probe_json: the probed finding's probe object alone.
probe_json() {
	python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["arrays"][0]["findings"][0]["probe"]))' <"$WORK/out"
}
run --json explain --probe
expect_exit 1
[ "$(probe_json)" = '{"setting": "md2/group_thread_cnt", "value": "4", "window_s": 10.0, "ended": false, "a_kib_s": [40000, 41000], "b_kib_s": 58000, "change_pct": 43.2, "spread_pct": 2.5, "beyond_spread": true, "reverted": true}' ] ||
	fail "explain --json --probe: $(probe_json)"
expect_unchanged "after explain --json --probe"

# The A windows differ more than B from them: the change is within the noise.
probe_sample 5 432780000 # A again: 80000 KiB/s
snapshot
run explain --probe
expect_exit 1
grep -A2 '^    probe:' "$WORK/out" | tail -n 2 >"$WORK/probe"
[ "$(cat "$WORK/probe")" = "      A 40000 KiB/s, B 58000 KiB/s, A 80000 KiB/s per disk; window 10.0 s each
      => md2/group_thread_cnt 4: -3% (the A windows differ by 67%: the change is within that, not shown to be the setting's)" ] ||
	fail "a noisy probe: $(cat "$WORK/probe")"

# The operation ends during the B window: reverted all the same, no figure.
echo idle >"$ROOT/.explain/3/sys/block/md2/md/sync_action"
sed -i '/recovery =/d' "$ROOT/.explain/3/proc/mdstat"
snapshot
run explain --probe
expect_exit 1
grep -A1 '^    probe:' "$WORK/out" | tail -n 1 >"$WORK/probe"
[ "$(cat "$WORK/probe")" = "      the operation ended during the probe; reverted, no figure" ] ||
	fail "the operation ended: $(cat "$WORK/out")"
expect_stderr <<'EOF'
EOF
run --json explain --probe
expect_exit 1
[ "$(probe_json)" = '{"setting": "md2/group_thread_cnt", "value": "4", "window_s": 10.0, "ended": true, "a_kib_s": [], "b_kib_s": null, "change_pct": null, "spread_pct": null, "beyond_spread": false, "reverted": true}' ] ||
	fail "explain --json --probe, the operation ended: $(probe_json)"
expect_unchanged "after a probe the operation's end cut short"
