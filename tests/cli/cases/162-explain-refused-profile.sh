# explain on a box where apply would refuse the profile the floor calls for: balanced's fixed
# stripe caches (2048 pages a disk) are above its memory budget (10 % of 128 MiB), as the VM
# lab's 1 GiB guest with five parity arrays found. explain plans each shipped profile as
# diff would and recommends the next one (reshape-fast, whose cache is sized to memory),
# saying why (and the goal profile beside it); diff balanced itself refuses with the same reason.
fixture explain/floor
printf 'MemTotal:         131072 kB\nMemAvailable:      65536 kB\n' >"$ROOT/proc/meminfo"
echo 4 >"$ROOT/sys/block/md2/md/raid_disks"
snapshot
run explain
expect_exit 1
grep -A7 '^  floor:' "$WORK/out" >"$WORK/floor"
[ "$(cat "$WORK/floor")" = "  floor: speed 10100 KiB/s, minimum 10000 (system): md throttles to it while other I/O runs
         other partitions of the member disks: 3000 KiB/s in all, most on sda (3000 KiB/s)
         trade-off: the other I/O (3000 KiB/s, 7% of the member disks' traffic now) loses disk time to a higher minimum: md stops yielding to it below the minimum
         balanced: apply refuses it on this box (stripe caches would use 32 MiB (md2 32 MiB), above the memory budget of 12 MiB (10% of 128 MiB RAM))
         or 'mdprofile auto responsive': the limits steered to hold the shares' requests under 30 ms; slower than a fixed minimum while they are busy, full speed when they stop
         check first: SMART was not read for sdd, sdc, sdb, sda (explain reads it as root with smartctl): 'smartctl -H' on each; a failing disk pushed harder can fail outright
    => apply reshape-fast (minimum 300000 KiB/s)
    gain: at most 300000 KiB/s per disk (upper bound: the new minimum, if the disks can)" ] ||
	fail "explain's floor with balanced refused: $(cat "$WORK/out")"
expect_no_stderr
expect_unchanged "after explain"
run diff balanced
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: @BIN@/profiles/balanced.yaml: stripe caches would use 32 MiB (md2 32 MiB), above the memory budget of 12 MiB (10% of 128 MiB RAM)
EOF2
# JSON: the same evidence and recommendation
run --json explain
expect_exit 1
grep -q '"balanced: apply refuses it on this box (stripe caches would use 32 MiB' "$WORK/out" ||
	fail "explain --json: no refusal in the evidence: $(cat "$WORK/out")"
grep -q '"recommendation": {"kind": "profile", "name": "reshape-fast"' "$WORK/out" ||
	fail "explain --json: not reshape-fast: $(cat "$WORK/out")"
