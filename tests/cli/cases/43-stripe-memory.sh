# Stripe cache memory is pages x disks against a budget taken from RAM.
# Where either factor is unknown mdprofile says so and changes no stripe
# cache on the strength of a 0: a disk count that does not parse refuses
# that array's stripe cache; an unusable MemTotal refuses budgets given as a
# share of RAM (the default too), while one given as a size still works.
fixture ds-dsm6-reshape
mkdir -p "$WORK/p"
cat >"$WORK/p/md2.yaml" <<'EOF'
description: the largest stripe cache on md2, 64 MiB budget
memory_budget: 64MiB
arrays:
  - match: {names: [md2]}
    stripe_cache_size: 32768
EOF
snapshot
for bad in garbage 4294967296; do
	echo "$bad" >"$ROOT/sys/block/md2/md/raid_disks"
	run apply "$WORK/p/md2.yaml"
	expect_exit 0
	expect_stdout apply-pmd2.yaml
	expect_stderr <<EOF
mdprofile: /sys/block/md2/md/raid_disks: unexpected value '$bad'
EOF
	expect_file sys/block/md2/md/stripe_cache_size stripe_cache_size
done
echo 4 >"$ROOT/sys/block/md2/md/raid_disks"
# The real count: 512 MiB, over the budget.
run apply "$WORK/p/md2.yaml"
expect_exit 2
expect_unchanged "after the refused apply"

# MemTotal absent, 0 or beyond 64 bits: a share of RAM cannot be computed.
for mem in absent 0 99999999999999999999 18014398509481984; do
	grep -v '^MemTotal:' "$SRC/tests/fixtures/ds-dsm6-reshape/proc/meminfo" >"$ROOT/proc/meminfo"
	[ "$mem" = absent ] || echo "MemTotal: $mem kB" >>"$ROOT/proc/meminfo"
	run_expect 2 . diff-reshape-fast diff reshape-fast
done
cat >"$WORK/p/default.yaml" <<'EOF'
description: stripe caches under the default budget
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: 512
EOF
run diff "$WORK/p/default.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/default.yaml: stripe_cache_size needs a memory budget and the default, 25% of RAM, is unknown (/proc/meminfo has no usable MemTotal); set memory_budget to a size such as 512MiB
EOF
# A budget given as a size needs no MemTotal; nor does a profile without stripe caches.
sed -i 's/^description: .*/&\nmemory_budget: 64MiB/' "$WORK/p/default.yaml"
run_expect 1 . - diff "$WORK/p/default.yaml"
cat >"$WORK/p/speed.yaml" <<'EOF'
description: speed only
memory_budget: 25%
raid:
  speed_limit_min: 50000
EOF
run_expect 1 . - diff "$WORK/p/speed.yaml"
