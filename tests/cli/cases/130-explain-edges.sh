# explain: an operation that ends between the samples, nothing running, arrays by name, an
# array that does not exist, and evidence that cannot be read (listed, never a failure).
# tags: no-valgrind (runs as nobody, who cannot write valgrind's log under /root)
fixture explain/ended
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: none (sampled over 10.0 s)
  info: the recovery ended between the samples
    => none
EOF
expect_stderr <<'EOF'
EOF

fixture explain/idle
run explain
expect_exit 0
expect_stdout <<'EOF'
no md operation runs or waits (sampled over 10.0 s)
EOF
run --json explain
expect_exit 0
expect_json <<'EOF'
{
 "arrays": [],
 "unreadable": []
}
EOF

# Named: an idle array is reported (nothing runs), an unknown one is a usage error.
fixture explain/floor
run explain md0
expect_exit 0
expect_stdout <<'EOF'
md0: none (sampled over 10.0 s)
EOF
run explain md0 md9
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: no array md9 in /proc/mdstat
EOF
run explain --interval 0
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --interval '0': expected seconds, 0.1..3600
EOF

# No /proc/mdstat: nothing to explain from, exit 3.
rm "$ROOT/proc/mdstat" "$ROOT/.explain/1/proc/mdstat"
run explain
expect_exit 3
expect_stderr <<'EOF'
mdprofile: cannot read /proc/mdstat: No such file or directory
EOF

# A file that exists but cannot be read is named, and the rest still explains (as nobody:
# root reads mode 000 files).
as_nobody || return 0
ROOT="$NB/root"
cp -a "$SRC/tests/fixtures/explain/cpu" "$ROOT"
[ -z "$AS" ] || chown -R nobody "$ROOT"
chmod 000 "$ROOT/.explain/1/proc/2345/stat"
run explain
expect_exit 0
expect_stdout <<'EOF'
md2: recover 22.1%, 40000 KiB/s per disk (progress over 10.0 s), about 10h 32m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  info: no limit, shared disk, CPU or cache bound found in this window
        disks busy: sdd 50% sdc 50% sdb 50% sda 50%
    => none: md's own request pattern may be the limit; measure a profile with 'mdprofile bench --op-only --compare'

not read: /proc/2345/stat (Permission denied)
EOF
run --json explain
expect_exit 0
python3 -c 'import json,sys; print(json.load(sys.stdin)["unreadable"])' <"$WORK/out" >"$WORK/u"
[ "$(cat "$WORK/u")" = "[{'path': '/proc/2345/stat', 'error': 'Permission denied'}]" ] ||
	_fail "unreadable: $(cat "$WORK/u")"
chmod -R u+rwX "$ROOT"
rm -rf "$NB"
