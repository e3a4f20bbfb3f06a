# The output contract (docs/output.md): apply, apply --dry-run, revert and recover share one JSON shape; options may follow the command.
# tags: heavy seam
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
# Nothing pending in a dry run is changed: "changed" says what apply would do.
run apply balanced --dry-run --json
expect_exit 0
expect_json apply-balanced-dry-run-json
expect_no_stderr
run apply --json balanced
expect_exit 0
expect_json apply-json-balanced
expect_no_stderr
# A failed switch to reshape-fast: rolled back to balanced; skipped services stay reported.
MDPROFILE_FAULT=write:2 run apply reshape-fast --json
expect_exit 3
expect_json apply-reshape-fast-json
expect_stderr apply-reshape-fast-json
# Drift of the active profile, JSON after the command.
run diff --json
expect_exit 0
expect_json diff-json
expect_no_stderr
run revert --json
expect_exit 0
expect_json revert-json
expect_no_stderr
expect_unchanged "json apply + revert"
# No active profile: still one JSON document.
run diff --json
expect_exit 0
expect_json diff-json.2
expect_no_stderr
run recover --json
expect_exit 0
expect_json recover-json
expect_no_stderr
run revert --json
expect_exit 0
expect_json revert-json.2
expect_no_stderr
# Failures before any document: a JSON error object on stdout, the messages on stderr too.
run apply nope --json
expect_exit 2
expect_json apply-nope-json
expect_stderr apply-nope-json
run status --json --root /nonexistent
expect_exit 2
expect_json status-json-root-nonexistent
expect_stderr status-json-root-nonexistent
# A profile named like an option after '--'.
run apply --json -- --dry-run
expect_exit 2
expect_json apply-json-dry-run
expect_stderr apply-json-dry-run
# The error object keeps the first 100 messages, then counts (issue 46: a process that runs for
# months keeps no list that grows); stderr has them all.
# shellcheck disable=SC2046 # 120 words
run --json explain --interval 0.1 $(seq -f 'md%g' 100 219)
expect_exit 2
[ "$(wc -l <"$WORK/err")" = 120 ] || fail "stderr has $(wc -l <"$WORK/err") lines, not 120"
json_field '.error.messages[99]' '"no array md199 in /proc/mdstat"'
json_field '.error.messages[100]' '"and 20 more, on stderr"'
python3 -c 'import json, sys; sys.exit(len(json.load(sys.stdin)["error"]["messages"]) != 101)' \
	<"$WORK/out" || fail "the error object does not hold 101 messages"
