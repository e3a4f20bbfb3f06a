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
