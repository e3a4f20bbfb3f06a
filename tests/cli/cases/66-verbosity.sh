# -q and -v mean the same for every command (mdprofile(8), VERBOSITY):
# -q leaves errors, warnings and the data a command exists to show; -v adds
# detail (files, values in sync); --json is the same at every level.
# tags: heavy no-valgrind (not yet in make valgrind: passed under it)
fixture ds-dsm6-reshape
snapshot

# list: -q the names alone, for scripts; -v each file.
shipped_names >"$WORK/q-list"
run -q list
expect_exit 0
expect_stdout <"$WORK/q-list"
shipped_list --profiles '@SRC@/profiles/%s.yaml' >"$WORK/list-v"
run list -v --profiles "$SRC/profiles"
expect_exit 0
expect_stdout <"$WORK/list-v"

# check: -q nothing (the exit code), plain "ok", -v the file.
run_expect 0 - . check balanced -q
run_expect 0 check-balanced . check balanced
run_expect 0 check-balanced-v . check balanced -v

# diff and apply --dry-run: -q nothing (diff exits 1 when something is pending);
# -v also the values already in sync.
run_expect 1 - . -q diff balanced
run_expect 0 - . -q apply --dry-run balanced
run_expect 0 v-apply-dry-run-balanced . -v apply --dry-run balanced
expect_unchanged "quiet and verbose reads"

# apply, revert: -v names the file of every value written.
run_expect 0 v-apply-balanced . -v apply balanced
# drift: -q nothing, plain one line, -v every value with == or ->.
run_expect 0 - . -q diff
run_expect 0 diff . diff
run_expect 0 v-diff . -v diff
# status is data: the same table at -q as without it.
run status
expect_exit 0
cp "$WORK/out" "$WORK/status.plain"
run -q status
expect_exit 0
cmp -s "$WORK/out" "$WORK/status.plain" || fail "status -q differs from status"
run_expect 0 - . -q apply balanced
run_expect 0 v-revert . -v revert
run_expect 0 - . -q revert
run_expect 0 - . -q recover
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
		cmp -s "$WORK/out" "$WORK/plain.json" || fail "$cmd --json $v differs from $cmd --json"
	done
done

# Both at once is a usage error, whatever their order.
run_expect 2 - v-status-q -v status -q
run --quiet --verbose list
expect_exit 2
