# Help and status keep within 80 columns (issue 37): help, help COMMAND for every
# command, and status (and status -v) on every fixture and with a profile active; a line
# over 80 fails the case. An abbreviated command is refused, naming the commands meant.
# tags: heavy (the help of every command, status on every fixture)
: >"$WORK/wide"
wide() {
	awk -v what="$1" 'length($0) > 80 { print what ": " length($0) ": " $0 }' "$WORK/out" \
		>>"$WORK/wide"
}
run_noroot help
expect_exit 0
wide help
cmds=$(awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c && /^  [a-z]/ { print $1 }' "$WORK/out")
for c in $cmds; do
	run_noroot help "$c"
	expect_exit 0
	wide "help $c"
done
for f in "$SRC"/tests/fixtures/*/; do
	[ -d "$f/proc" ] || continue
	f=$(basename "$f")
	fixture "$f"
	run status -v
	expect_exit 0
	wide "$f: status -v"
done
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
run -q apply reshape-fast
expect_exit 0
run status
expect_exit 0
wide "status after apply"
[ -s "$WORK/wide" ] && fail "lines over 80 columns:
$(cat "$WORK/wide")"

run_expect 2 - re re
run_expect 2 - help-e help e
