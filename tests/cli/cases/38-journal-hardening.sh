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
	fail "the profile path is not quoted in the journal"
run_expect 0 . - revert -q
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
	run_expect 3 - revert revert
done
rm "$ROOT/run/mdprofile/journal"
expect_unchanged "refused journals"
# No boot id: no transaction (recover could not tell its journal from a stale one).
mv "$ROOT/proc/sys/kernel/random/boot_id" "$WORK/boot_id"
run_expect 3 - apply-balanced apply balanced
mv "$WORK/boot_id" "$ROOT/proc/sys/kernel/random/boot_id"
expect_unchanged "no boot id"
# A journal that is not a file is reported, never read as "nothing active".
mkdir -p "$ROOT/run/mdprofile/journal"
run_expect 0 status-q-dir status-q status -q
run_expect 3 . apply-balanced.2 apply balanced
rmdir "$ROOT/run/mdprofile/journal"
# Text from files reaches a terminal with its control characters escaped, and JSON escaped.
mkdir -p "$ROOT/etc/mdprofile/profiles"
printf 'description: "red \\e[31malert\\e[0m"\nraid:\n  speed_limit_min: 20000\n' >"$ROOT/etc/mdprofile/profiles/esc.yaml"
run_expect 0 show-esc . show esc
run show esc --json
expect_exit 0
grep -q '"description": "red \\u001b\[31malert\\u001b\[0m"' "$WORK/out" || fail "ESC not escaped in JSON"
