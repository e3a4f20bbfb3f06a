# Hostile nesting: 400000 '[' (400 KB, under the 1 MiB profile cap) once
# took libyaml minutes, because its scanner's cost per token grows with the
# depth. The loader stops at a depth no profile needs and answers at once.
# tags: no-valgrind (not yet in make valgrind: passed under it)
mkdir -p "$WORK/p"
head -c 400000 /dev/zero | tr '\0' '[' >"$WORK/p/deep.yaml"
run_noroot check "$WORK/p/deep.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/deep.yaml:1:1: wrong type for the profile: expected a mapping, found a list
mdprofile: $WORK/p/deep.yaml:1:17: yaml nesting is too deep (more than 16 levels)
EOF

# The same inside a rule: the first levels are a profile's own (a value may be a
# mapping, {at_least: V}, whose keys are names).
{
	printf 'arrays:\n  - match: all\n    stripe_cache_size: '
	head -c 200000 /dev/zero | tr '\0' '{'
} >"$WORK/p/deep-rule.yaml"
run_noroot check "$WORK/p/deep-rule.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/deep-rule.yaml:3:25: invalid key: expected a name
mdprofile: $WORK/p/deep-rule.yaml:3:37: yaml nesting is too deep (more than 16 levels)
EOF
