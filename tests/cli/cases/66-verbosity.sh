# -q and -v mean the same for every command (mdprofile(8), VERBOSITY):
# -q leaves errors, warnings and the data a command exists to show; -v adds
# detail (files, values in sync); --json is the same at every level.
# tags: no-valgrind (not yet in make valgrind: passed under it)
fixture ds-dsm6-reshape
snapshot

# list: -q the names alone, for scripts; -v each file.
run -q list
expect_exit 0
expect_stdout <<'EOF'
balanced
kernel-defaults
low-ram
reshape-fast
EOF
run list -v --profiles "$SRC/profiles"
expect_exit 0
expect_stdout <<'EOF'
balanced         --profiles Steady RAID progress while the NAS stays responsive  [@SRC@/profiles/balanced.yaml]
kernel-defaults  --profiles Upstream Linux kernel defaults for md RAID  [@SRC@/profiles/kernel-defaults.yaml]
low-ram          --profiles Balanced, sized for NAS boxes with 512 MiB to 1 GiB of RAM  [@SRC@/profiles/low-ram.yaml]
reshape-fast     --profiles Finish RAID resync, rebuild, reshape or scrub as fast as the disks allow  [@SRC@/profiles/reshape-fast.yaml]
EOF

# check: -q nothing (the exit code), plain "ok", -v the file.
run check balanced -q
expect_exit 0
expect_stdout </dev/null
run check balanced
expect_exit 0
expect_stdout <<'EOF'
balanced: ok
EOF
run check balanced -v
expect_exit 0
expect_stdout <<'EOF'
balanced: ok  [@BIN@/profiles/balanced.yaml]
EOF

# diff and apply --dry-run: -q nothing (diff exits 1 when something is pending);
# -v also the values already in sync.
run -q diff balanced
expect_exit 1
expect_stdout </dev/null
run -q apply --dry-run balanced
expect_exit 0
expect_stdout </dev/null
run -v apply --dry-run balanced
expect_exit 0
expect_stdout <<'EOF'

dev.raid
  speed_limit_min                 10000 KiB/s -> 50000 KiB/s
  speed_limit_max                200000 KiB/s == 200000 KiB/s

md2 (raid5, 4 disks)
  read_ahead                          192 KiB -> 4 MiB
  stripe_cache_size                       256 -> 2048   (4 MiB -> 32 MiB)

md3 (raid5, 3 disks, reshape 25.1%)
  read_ahead                          192 KiB -> 4 MiB
  stripe_cache_size                       256 -> 2048   (3 MiB -> 24 MiB)

dry run: 5 changes would be made, nothing was touched
EOF
expect_unchanged "quiet and verbose reads"

# apply, revert: -v names the file of every value written.
run -v apply balanced
expect_exit 0
expect_stdout <<'EOF'
dev.raid.speed_limit_min: 10000 KiB/s -> 50000 KiB/s  [/proc/sys/dev/raid/speed_limit_min]
md2 read_ahead: 192 KiB -> 4 MiB  [/sys/block/md2/queue/read_ahead_kb]
md3 read_ahead: 192 KiB -> 4 MiB  [/sys/block/md3/queue/read_ahead_kb]
md2 stripe_cache_size: 256 -> 2048  [/sys/block/md2/md/stripe_cache_size]
md3 stripe_cache_size: 256 -> 2048  [/sys/block/md3/md/stripe_cache_size]
profile balanced is active; 'mdprofile revert' restores the values from before
EOF
# drift: -q nothing, plain one line, -v every value with == or ->.
run -q diff
expect_exit 0
expect_stdout </dev/null
run diff
expect_exit 0
expect_stdout <<'EOF'
active profile balanced: no drift
EOF
run -v diff
expect_exit 0
expect_stdout <<'EOF'
drift from active profile balanced (live -> applied)

dev.raid
  speed_limit_min                 50000 KiB/s == 50000 KiB/s
  speed_limit_max                200000 KiB/s == 200000 KiB/s

md2 (raid5, 4 disks)
  read_ahead                            4 MiB == 4 MiB
  stripe_cache_size                      2048 == 2048   (32 MiB)

md3 (raid5, 3 disks, reshape 25.1%)
  read_ahead                            4 MiB == 4 MiB
  stripe_cache_size                      2048 == 2048   (24 MiB)

no drift
EOF
# status is data: the same table at -q as without it.
run status
expect_exit 0
cp "$WORK/out" "$WORK/status.plain"
run -q status
expect_exit 0
cmp -s "$WORK/out" "$WORK/status.plain" || _fail "status -q differs from status"
run -q apply balanced
expect_exit 0
expect_stdout </dev/null
run -v revert
expect_exit 0
expect_stdout <<'EOF'
reverting profile balanced
md3 stripe_cache_size: 2048 -> 256  [/sys/block/md3/md/stripe_cache_size]
md2 stripe_cache_size: 2048 -> 256  [/sys/block/md2/md/stripe_cache_size]
md3 read_ahead: 4 MiB -> 192 KiB  [/sys/block/md3/queue/read_ahead_kb]
md2 read_ahead: 4 MiB -> 192 KiB  [/sys/block/md2/queue/read_ahead_kb]
dev.raid.speed_limit_min: 50000 KiB/s -> 10000 KiB/s  [/proc/sys/dev/raid/speed_limit_min]
EOF
run -q revert
expect_exit 0
expect_stdout </dev/null
run -q recover
expect_exit 0
expect_stdout </dev/null
expect_unchanged "apply and revert"

# --json is the same document at every level.
# shellcheck disable=SC2086 # $cmd is a command with its arguments
for cmd in list "diff balanced" status; do
	case $cmd in diff*) want=1 ;; *) want=0 ;; esac # diff: balanced is pending
	run --json $cmd
	expect_exit $want
	cp "$WORK/out" "$WORK/plain.json"
	for v in -q -v; do
		run $v --json $cmd
		expect_exit $want
		cmp -s "$WORK/out" "$WORK/plain.json" || _fail "$cmd --json $v differs from $cmd --json"
	done
done

# Both at once is a usage error, whatever their order.
run -v status -q
expect_exit 2
expect_stdout </dev/null
expect_stderr <<'EOF'
mdprofile: -q and -v ask for less and more at once: give one of them
EOF
run --quiet --verbose list
expect_exit 2
