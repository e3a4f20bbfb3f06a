# bench: throughput of a volume, never the page cache taken for the disks
# (issue 14). Figures vary; what is checked is that they are there, how each
# read was made, and that nothing is left behind.
# tags: slow no-valgrind (SIGINT timed against running benches)
fixture ds-dsm6-reshape
SCRATCH="$WORK/scratch"
SHM=$(mktemp -d /dev/shm/mdprofile-bench-test.XXXXXX)
mkdir -p "$SCRATCH"

# check_json METHOD...: runs present, positive, the method one of METHOD.
cat >"$WORK/check.py" <<'EOF'
import json, sys
r = json.load(sys.stdin)
assert r["method"] in sys.argv[1:], r["method"]
assert r["read_cached"] == (r["method"] == "cached")
assert len(r["runs"]) == 2 and r["size_bytes"] == 8 << 20
for run in r["runs"]:
    assert run["write_mb_s"] > 0 and run["read_mb_s"] > 0
for k in ("write_mb_s", "read_mb_s"):
    s = r[k]
    assert 0 < s["min"] <= s["mean"] <= s["max"] and s["spread_pct"] >= 0
EOF
# progress.py FILE PATTERN: a terminal's capture; every progress line
# ("\rbench: ...\033[K") matches PATTERN and there is one at least; prints
# what is left once they and their clearing ("\r\033[K") are taken out.
cat >"$WORK/progress.py" <<'EOF'
import re, sys
data = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read().replace("\r\n", "\n")
line = re.compile(r"\rbench: ([^\r\n\033]*)\033\[K")
seen = line.findall(data)
assert seen, "no progress line: %r" % data
for s in seen:
    assert re.fullmatch(sys.argv[2], s), "progress line %r" % s
rest = line.sub("", data).replace("\r\033[K", "")
assert "\r" not in rest and "\033" not in rest, "not cleared: %r" % rest
sys.stdout.write(rest)
EOF
check_json() {
	python3 "$WORK/check.py" "$@" <"$WORK/out" || fail "bench --json: $(cat "$WORK/out")"
}

# On the build machine's disk: the read bypasses or drops the cache.
run bench --path "$SCRATCH" --size 8MiB --runs 2 --json
expect_exit 0
check_json direct dropped
[ -z "$(ls -A "$SCRATCH")" ] || fail "a test file was left in $SCRATCH: $(ls -A "$SCRATCH")"
# On tmpfs the file lives in RAM: the read is reported as cached.
run bench --path "$SHM" --size 8MiB --runs 2 --json
expect_exit 0
check_json cached
run bench --path "$SHM" --size 8MiB --runs 2
expect_exit 0
grep -q '^read:  mean .* (cached, not the disks)$' "$WORK/out" || fail "text does not mark the read cached"
[ -z "$(ls -A "$SHM")" ] || fail "a test file was left in $SHM"

# On a terminal, each run also as bars; never in a pipe.
script -qec "cd '$SRC' && ${MDP_WRAP:-} '$MDP' bench --path '$SHM' --size 8MiB --runs 2" /dev/null \
	>"$WORK/tty" 2>&1 || fail "bench on a tty failed: $(cat "$WORK/tty")"
grep -q '^  1 write #* [0-9.]*' "$WORK/tty" || fail "no bars on a tty: $(cat "$WORK/tty")"
grep -q '^    read  #* [0-9.]*' "$WORK/tty" || fail "no read bar on a tty"
grep -q '#' "$WORK/out" && fail "bars in a pipe"
# ...and a progress line on stderr (phase, run, MB/s so far), cleared before the results.
python3 "$WORK/progress.py" "$WORK/tty" '(write|read) run [12]/2, [0-9]+ MiB of 8 MiB, [0-9.]+ MB/s so far' \
	>"$WORK/tty.rest" || fail "progress on a tty"
grep -q 'bench: read run 2/2' "$WORK/tty" || fail "no progress of the last read: $(cat -A "$WORK/tty")"
head -n 1 "$WORK/tty.rest" | grep -q '^machine: ' || fail "results after progress: $(cat -A "$WORK/tty.rest")"
grep -q '^read:  mean ' "$WORK/tty.rest" || fail "no summary after progress"
# In a pipe (the text run above): not a byte of it.
run_expect 0 . - bench --path "$SHM" --size 8MiB --runs 2

# SIGINT in the middle: exit 3, the file removed.
run_bg bench --path "$SHM" --size 256MiB --runs 100
i=0
while [ -z "$(ls -A "$SHM")" ] && [ $i -lt 200 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -INT "$BGPID"
RC=0
wait "$BGPID" || RC=$?
LAST="bench (SIGINT)"
expect_exit 3
grep -q '^mdprofile: interrupted by SIGINT after [0-9]* runs\?; the test file was removed$' "$WORK/err" ||
	fail "SIGINT: $(cat "$WORK/err")"
[ -z "$(ls -A "$SHM")" ] || fail "SIGINT left a test file in $SHM"

# Too large for the free space, not a directory, a device: refused, nothing written.
run bench --path "$SHM" --size 1024GiB
expect_exit 2
grep -q "MiB free; a test of 1048576 MiB needs" "$WORK/err" || fail "no space message: $(cat "$WORK/err")"
[ -z "$(ls -A "$SHM")" ] || fail "a refused run wrote to $SHM"
run_expect 2 . bench-path-devnull bench --path /dev/null
run_expect 2 . bench-size-12junk bench --size 12junk
run_expect 2 . bench-runs-0 bench --runs 0

# Without --path: the first mounted volume on an md array, /volume1 first.
run_expect 2 . bench-size-4MiB bench --size 4MiB
mkdir -p "$ROOT/volume1" "$ROOT/volume2"
printf '%s\n' '/dev/sda1 / ext4 rw 0 0' '/dev/md3 /volume2 btrfs rw 0 0' \
	'/dev/md2 /volume1 btrfs rw 0 0' >"$ROOT/proc/mounts"
run bench --size 4MiB --runs 1 --json
expect_exit 0
python3 -c 'import json,sys; print(json.load(sys.stdin)["path"])' <"$WORK/out" | _norm /dev/stdin >"$WORK/path"
[ "$(cat "$WORK/path")" = "@ROOT@/volume1" ] || fail "default volume: $(cat "$WORK/path")"
printf '%s\n' '/dev/sda1 / ext4 rw 0 0' >"$ROOT/proc/mounts"
run_expect 2 . bench bench
run diff --runs 3
expect_exit 2

# --compare: first the settings the box has now, then each profile applied in
# turn by the same transaction as apply, measured, and the values from before
# restored at the end.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
run_expect 0 . - bench --compare balanced,reshape-fast --path "$SCRATCH" --size 8MiB --runs 2
sed 's/write [0-9.]* MB\/s, read [0-9.]* MB\/s/write W, read R/' "$WORK/out" >"$WORK/norm"
cat >"$WORK/want" <<'EOF'
current          write W, read R; md3 reshape 4687 KiB/s
balanced         write W, read R; md3 reshape 4687 KiB/s
reshape-fast     write W, read R; md3 reshape 4687 KiB/s
reverted to the values from before
EOF
cmp -s "$WORK/want" "$WORK/norm" || fail "bench --compare: $(cat "$WORK/out")"
expect_unchanged "bench --compare"
# md's own speed per profile, nothing written to any volume.
run bench --compare balanced,reshape-fast --op-only --duration 1 --json
expect_exit 0
expect_json bench-compare-balancedreshape-fast-op-on
expect_unchanged "bench --compare --op-only"
# --op-only alone: the same first row, nothing applied.
run_expect 0 bench-op-only-duration . bench --op-only --duration 1
# On a terminal: a progress line per row and second, cleared; the rows as in a pipe.
run_expect 0 bench-compare-balanced-op-only - bench --compare balanced --op-only --duration 1
script -qec "cd '$SRC' && ${MDP_WRAP:-} '$MDP' --root '$ROOT' bench --compare balanced --op-only --duration 1" \
	/dev/null >"$WORK/tty" 2>&1 || fail "bench --compare on a tty failed: $(cat "$WORK/tty")"
python3 "$WORK/progress.py" "$WORK/tty" \
	'current \(1/2\), second 1 of 1, md3 reshape 4687 KiB/s so far|balanced \(2/2\), (settling, [12] s of 2|second 1 of 1, md3 reshape 4687 KiB/s so far)' \
	>"$WORK/tty.rest" || fail "progress of --compare on a tty"
grep -q 'bench: balanced (2/2), second 1 of 1' "$WORK/tty" || fail "no progress of the second row: $(cat -A "$WORK/tty")"
cmp -s "$WORK/out" "$WORK/tty.rest" || fail "--compare on a tty: $(cat -A "$WORK/tty.rest")"
# -q on a terminal: no progress either.
script -qec "cd '$SRC' && ${MDP_WRAP:-} '$MDP' --root '$ROOT' -q bench --op-only --duration 1" \
	/dev/null >"$WORK/tty" 2>&1 || fail "bench -q on a tty failed: $(cat "$WORK/tty")"
[ "$(cat "$WORK/tty")" = "$(printf 'current          md3 reshape 4687 KiB/s\r')" ] ||
	fail "bench -q on a tty: $(cat -A "$WORK/tty")"
expect_unchanged "bench --compare on a tty"
# SIGINT in the middle of a comparison reverts.
# (after the first row, the current settings, measured for one window)
run_bg bench --compare balanced,reshape-fast --op-only --duration 4
wait_until 1000 0.02 "grep -q '^state active' '$ROOT/run/mdprofile/journal' 2>/dev/null" ||
	fail "bench --compare applied no profile"
kill -INT "$BGPID"
RC=0
wait "$BGPID" || RC=$?
LAST="bench --compare (SIGINT)"
expect_exit 3
expect_stderr bench-compare-balanced-op-only
expect_unchanged "bench --compare interrupted"
# A profile active before would be lost: refused.
run apply -q balanced
expect_exit 0
run_expect 2 . bench-compare-reshape-fast-op-only bench --compare reshape-fast --op-only --duration 1
run revert -q
expect_exit 0
expect_unchanged "refused comparison"
rm -rf "$SHM"
