# mdprofile auto on a box of 60 arrays (issue 41): its armed line names them
# as a summary, "60 arrays: md0..md59", not a list cut in the middle of a name.
# tags: slow no-valgrind (a watcher in the background, stopped by a signal)

ROOT="$WORK/root"
python3 "$SRC/tests/fixtures/mkroot.py" --gen 60x2 --level raid1 --out "$ROOT" ||
	fail "mkroot.py --gen failed"
bg_start --services-backend none auto reshape-fast
i=0
until grep -qx "state armed" "$ROOT/run/mdprofile/watcher" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 150 ] || { fail "the watcher did not arm"; break; }
	sleep 0.1
done
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
expect_stdout auto-60-arrays
expect_no_stderr
