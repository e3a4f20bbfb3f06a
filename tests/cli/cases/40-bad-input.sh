# Bad input: a clear error that says where and what, exit 2, nothing touched.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
mkdir -p "$WORK/p"
# A profile cannot make mdprofile write outside the registry: array names
# are checked, and only discovered devices are ever written.
cat >"$WORK/p/evil.yaml" <<'EOF'
description: tries to write outside /sys
arrays:
  - match: {names: ["../../etc/passwd", md2]}
    stripe_cache_size: 1024
EOF
run apply "$WORK/p/evil.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/evil.yaml:3:21: invalid array name '../../etc/passwd': expected a device name like md2
EOF
expect_unchanged "evil names"

cat >"$WORK/p/shell.yaml" <<'EOF'
description: shell metacharacters in service names
services:
  pause: ["-rf", "a;b", "$(reboot)"]
EOF
run apply "$WORK/p/shell.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/shell.yaml:3:11: invalid service name '-rf': must not start with '-'
mdprofile: $WORK/p/shell.yaml:3:18: invalid service name 'a;b': only letters, digits and @._:- are allowed
mdprofile: $WORK/p/shell.yaml:3:25: invalid service name '\$(reboot)': only letters, digits and @._:- are allowed
EOF
expect_file var/log/fake-services.log </dev/null
expect_unchanged "bad service names"

# Every error of a file at once, in file order.
cat >"$WORK/p/many.yaml" <<'EOF'
description: three mistakes
raid:
  speed_limit_mit: 100000
arrays:
  - match: all
    strip_cache_size: 4096
    read_ahed: 32MiB
EOF
run check "$WORK/p/many.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/many.yaml:3:3: unknown key 'speed_limit_mit' (did you mean 'speed_limit_min'?)
mdprofile: $WORK/p/many.yaml:6:5: unknown key 'strip_cache_size' (did you mean 'stripe_cache_size'?)
mdprofile: $WORK/p/many.yaml:7:5: unknown key 'read_ahed' (did you mean 'read_ahead'?)
EOF

# Explicit stripe caches over the memory budget: refused with arrays and MiB.
cat >"$WORK/p/greedy.yaml" <<'EOF'
description: too much stripe cache for 8 GiB
memory_budget: 10%
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: 32768
EOF
run apply "$WORK/p/greedy.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/greedy.yaml: stripe caches would use 896 MiB (md2 512 MiB, md3 384 MiB), above the memory budget of 787 MiB (10% of 7872 MiB RAM)
EOF
expect_unchanged "over budget"

# A profile matching nothing here changes nothing.
cat >"$WORK/p/none.yaml" <<'EOF'
description: for an array this box does not have
arrays:
  - match: {names: [md9]}
    stripe_cache_size: 1024
EOF
run_expect 0 apply-pnone.yaml . apply "$WORK/p/none.yaml"
expect_unchanged "nothing matched"

# --dry-run prints the plan and touches nothing.
run apply --dry-run reshape-fast
expect_exit 0
expect_unchanged "dry run"
tail -1 "$WORK/out" | grep -qx 'dry run: 6 changes would be made, nothing was touched' ||
	fail "dry run summary: $(tail -1 "$WORK/out")"

# The corpus files through the real binary: same lines as the loader test.
for f in 01-unknown-key-did-you-mean 06-out-of-range 10-bare-size; do
	run_noroot check "tests/profiles/bad/$f.yaml"
	expect_exit 2
	sed 's/^/mdprofile: /' "$SRC/tests/profiles/bad/$f.err" | expect_stderr
done

# Package entries are checked with the profile, not first at apply.
cat >"$WORK/p/pkg.yaml" <<'EOF2'
description: package entries without a package
services:
  pause: ["pkg:", "pkg:a:b"]
EOF2
run check "$WORK/p/pkg.yaml"
expect_exit 2
expect_stderr <<EOF2
mdprofile: $WORK/p/pkg.yaml:3:11: invalid service name 'pkg:': a package name is required after 'pkg:'
mdprofile: $WORK/p/pkg.yaml:3:19: invalid service name 'pkg:a:b': the package name after 'pkg:' must not contain ':'
EOF2
