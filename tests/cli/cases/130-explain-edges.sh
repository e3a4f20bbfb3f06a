# explain: an operation that ends between the samples, nothing running, arrays by name, an
# array that does not exist, and evidence that cannot be read (listed, never a failure).
# tags: no-valgrind (runs as nobody, who cannot write valgrind's log under /root)
fixture explain/ended
run_expect 0 explain - explain

fixture explain/idle
run_expect 0 explain.2 . explain
run --json explain
expect_exit 0
expect_json json-explain

# Named: an idle array is reported (nothing runs), an unknown one is a usage error.
fixture explain/floor
run_expect 0 explain-md0 . explain md0
run_expect 2 - explain-md0-md9 explain md0 md9
run_expect 2 . explain-interval-0 explain --interval 0

# No /proc/mdstat: nothing to explain from, exit 3.
rm "$ROOT/proc/mdstat" "$ROOT/.explain/1/proc/mdstat"
run_expect 3 . explain explain

# A file that exists but cannot be read is named, and the rest still explains (as nobody:
# root reads mode 000 files).
as_nobody || return 0
ROOT="$NB/root"
cp -a "$SRC/tests/fixtures/explain/cpu" "$ROOT"
[ -z "$AS" ] || chown -R nobody "$ROOT"
chmod 000 "$ROOT/.explain/1/proc/2345/stat"
run_expect 0 explain.3 . explain
run --json explain
expect_exit 0
python3 -c 'import json,sys; print(json.load(sys.stdin)["unreadable"])' <"$WORK/out" >"$WORK/u"
[ "$(cat "$WORK/u")" = "[{'path': '/proc/2345/stat', 'error': 'Permission denied'}]" ] ||
	fail "unreadable: $(cat "$WORK/u")"
chmod -R u+rwX "$ROOT"
rm -rf "$NB"
