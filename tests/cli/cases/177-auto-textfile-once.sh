# auto --textfile FILE says a standing problem once (issue 46): the watcher writes FILE every
# minute for months, and each write reads the system again. A line of /proc/mdstat that
# mdprofile cannot read is said at the first write only, its clearing once, and a new problem
# once. MDPROFILE_FAULT=minute:1 makes each look (every 0.1 s) a minute's write: an hour's
# writes would take 6 s, a dozen tell the same (tests/unit/test_diag.c soaks a day's).
# tags: seam
fixture ds-dsm6-reshape
PROM=$WORK/out.d/m.prom
mkdir "$WORK/out.d"
cp "$ROOT/proc/mdstat" "$WORK/mdstat"

# mdstat [LINE]: /proc/mdstat as the fixture has it, LINE after it; replaced whole, as md would
mdstat() {
	{
		cat "$WORK/mdstat"
		[ $# = 0 ] || echo "      $1"
	} >"$ROOT/proc/mdstat.new"
	mv "$ROOT/proc/mdstat.new" "$ROOT/proc/mdstat"
}

# writes N: wait for N more writes of the textfile (each a new file renamed over it).
writes() {
	_n=0
	while [ $_n -lt "$1" ]; do
		_was=$(stat -c %y "$PROM" 2>/dev/null || echo none)
		wait_until 100 0.02 '[ "$(stat -c %y "$PROM" 2>/dev/null || echo none)" != "$_was" ]' ||
			{
				fail "the textfile was not written again"
				return
			}
		_n=$((_n + 1))
	done
}

mdstat 'junk here'
MDPROFILE_FAULT=minute:1 bg_start --services-backend none auto --on check --interval 0.1 \
	--textfile "$PROM" reshape-fast
writes 5
mdstat # cleared
writes 4
mdstat 'junk there' # another
writes 4
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
sed -i "s|$PROM|PROM|" "$WORK/err"
expect_stderr <<'EOF'
mdprofile: /proc/mdstat:16: a line outside any array 'junk here', skipped
mdprofile: --textfile PROM: no problem now
mdprofile: /proc/mdstat:16: a line outside any array 'junk there', skipped
EOF
