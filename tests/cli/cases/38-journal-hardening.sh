# The journal cannot be steered by text from outside (issue 13, item 4, and the boot id).
fixture ds-dsm6-reshape
snapshot
# A profile whose path holds a newline and a forged baseline line: the
# journal quotes it, so revert restores md2's read-ahead to 192 KiB, not 4.
d="$ROOT/tmp/$(printf 'x\nbase read_ahead md2 "4"')"
mkdir -p "$d"
cp "$SRC/profiles/balanced.yaml" "$d/p.yaml"
run apply -q "$d/p.yaml"
expect_exit 0
grep -q '^path "@*.*\\nbase read_ahead md2 \\"4\\"/p.yaml"$' "$ROOT/run/mdprofile/journal" ||
	_fail "the profile path is not quoted in the journal"
run revert -q
expect_exit 0
expect_stderr <<'EOF'
EOF
rm -rf "$ROOT/tmp"
expect_unchanged "apply + revert with a forged path"
# Values from the journal are checked against the registry before revert writes them.
journal() {
	mkdir -p "$ROOT/run/mdprofile"
	printf 'mdprofile-journal 1\nstate active\nboot_id %s\nprofile "x"\npath "-"\n%s\nend\n' \
		"$(cat "$ROOT/proc/sys/kernel/random/boot_id")" "$1" >"$ROOT/run/mdprofile/journal"
}
for bad in 'base read_ahead md2 "99999999999"' 'base stripe_cache_size md2 "0"' \
	'svc b;a`r paused' 'base read_ahead md2 "19 2"'; do
	journal "$bad"
	run revert
	expect_exit 3
	expect_stdout <<'EOF'
EOF
	expect_stderr <<'EOF'
mdprofile: /run/mdprofile/journal: journal is unreadable; move it aside after checking the values it lists by hand
EOF
done
rm "$ROOT/run/mdprofile/journal"
expect_unchanged "refused journals"
# No boot id: no transaction (recover could not tell its journal from a stale one).
mv "$ROOT/proc/sys/kernel/random/boot_id" "$WORK/boot_id"
run apply balanced
expect_exit 3
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: cannot read the boot id (/proc/sys/kernel/random/boot_id): No such file or directory; refusing to start a transaction
mdprofile: apply failed: No such file or directory
EOF
mv "$WORK/boot_id" "$ROOT/proc/sys/kernel/random/boot_id"
expect_unchanged "no boot id"
# A journal that is not a file is reported, never read as "nothing active".
mkdir -p "$ROOT/run/mdprofile/journal"
run status -q
expect_exit 0
expect_stdout <<'EOF'
md0    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md1    raid1   4 disks          clean            idle
       read-ahead 128 KiB
md2    raid5   4 disks          clean            idle
       stripe cache 256 (4 MiB), read-ahead 192 KiB
md3    raid5   3 disks          active           reshape 25.1%, 4687 KiB/s, about 3d 14h left
       stripe cache 256 (3 MiB), read-ahead 192 KiB

no profile is active
EOF
expect_stderr <<'EOF'
mdprofile: warning: @ROOT@/run/mdprofile/journal: refusing the journal: not a regular file; remove it
EOF
run apply balanced
expect_exit 3
expect_stderr <<'EOF'
mdprofile: @ROOT@/run/mdprofile/journal: refusing the journal: not a regular file; remove it
EOF
rmdir "$ROOT/run/mdprofile/journal"
# Text from files reaches a terminal with its control characters escaped, and JSON escaped.
mkdir -p "$ROOT/etc/mdprofile/profiles"
printf 'description: "red \\e[31malert\\e[0m"\nraid:\n  speed_limit_min: 20000\n' >"$ROOT/etc/mdprofile/profiles/esc.yaml"
run show esc
expect_exit 0
expect_stdout <<'EOF'
name: esc
file: @ROOT@/etc/mdprofile/profiles/esc.yaml
description: red \x1b[31malert\x1b[0m
memory_budget: 25% of RAM (default)
raid.speed_limit_min: 20000 KiB/s
EOF
run show esc --json
expect_exit 0
grep -q '"description": "red \\u001b\[31malert\\u001b\[0m"' "$WORK/out" || _fail "ESC not escaped in JSON"
