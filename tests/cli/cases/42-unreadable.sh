# An md attribute that exists but cannot be read is an error, not absence:
# no array drops out, no "md is not loaded", no partial apply that exits 0.
# Root reads mode 000 files anyway, so as root the binary runs as nobody on
# a copy nobody owns (mode 000 then stops its owner too).
# tags: no-valgrind (runs as nobody)
as_nobody || return 0
ROOT="$NB/root"
cp -a "$SRC/tests/fixtures/ds-dsm6-reshape" "$ROOT"
[ -z "$AS" ] || chown -R nobody "$ROOT"
mkdir "$NB/p"
cat >"$NB/p/fast.yaml" <<'EOF'
description: faster syncs, a bigger stripe cache
raid:
  speed_limit_min: 50000
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: 1024
EOF
chmod -R a+rX "$NB/p"

chmod 000 "$ROOT/sys/block/md2/md/level"
run_expect 3 . status status
chmod 644 "$ROOT/sys/block/md2/md/level"

chmod 000 "$ROOT/sys/block/md3/md/stripe_cache_size"
run_expect 3 . diff-pfast.yaml diff "$NB/p/fast.yaml"
chmod 644 "$ROOT/sys/block/md3/md/stripe_cache_size"

# Snapshots copy the tree, so they are taken while everything is readable.
snapshot
chmod 000 "$ROOT/proc/sys/dev/raid/speed_limit_min"
run_expect 3 . apply-pfast.yaml apply "$NB/p/fast.yaml"
chmod 644 "$ROOT/proc/sys/dev/raid/speed_limit_min"
expect_unchanged "after the refused apply"
rm -rf "$NB"
