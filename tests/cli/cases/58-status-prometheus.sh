# status --format prometheus (issue 10): the node_exporter textfile format,
# checked line by line and by promtool's rules where it is installed: tunables
# in base units, one metric per unit; a 0/1 series per action; array and
# device labels; samples not known left out.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
run_expect 0 status-format-prometheus . status --format prometheus
run -q apply reshape-fast
expect_exit 0
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
echo 1000 >"$ROOT/sys/block/md2/md/stripe_cache_size"
run_expect 0 status-format-prometheus.2 - status --format prometheus
# every sample line is NAME{LABELS} NUMBER and each name has its HELP and TYPE
awk '/^#/ { if ($2 == "TYPE") typed[$3] = 1; next }
	{ n = $1; sub(/\{.*/, "", n); if (!typed[n] || $2 !~ /^-?[0-9.]+$/ || NF != 2) bad = bad "\n" $0 }
	END { if (bad) { print "bad lines:" bad; exit 1 } }' "$WORK/out" >"$WORK/awk" ||
	fail "$(cat "$WORK/awk")"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$WORK/out" >"$WORK/promtool" 2>&1 || fail "promtool: $(cat "$WORK/promtool")"
fi
# --format json is --json; a format we do not know is a usage error
run status --format json
expect_exit 0
cp "$WORK/out" "$WORK/fj"
run status --json
expect_exit 0
cmp -s "$WORK/out" "$WORK/fj" || fail "--format json differs from --json"
run_expect 2 . status-format-yaml status --format yaml
run_expect 2 . diff-format-prometheus diff --format prometheus

# --json means one JSON document: with --format prometheus it is refused, as one (issue 37).
run --json status --format prometheus
expect_exit 2
json_field .error.messages '["--json and --format prometheus: choose one"]'
