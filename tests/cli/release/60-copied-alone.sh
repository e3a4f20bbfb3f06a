# The README's install: the binary copied alone into an empty directory works,
# with the shipped profiles built in; files of the same name override them, and
# list says where each one comes from.
fixture ds-dsm6-reshape
snapshot
# The same diff through the profile files next to the binary, for comparison.
run diff reshape-fast
expect_exit 1
sed '1d' "$WORK/out" >"$WORK/diff-files"
ALONE="$WORK/alone"
mkdir "$ALONE"
cp "$MDP" "$ALONE/mdprofile"
[ "$(ls "$ALONE")" = mdprofile ] || fail "the directory holds more than the binary"
MDP="$ALONE/mdprofile"
shipped_list built-in >"$WORK/list"
run list
expect_exit 0
expect_stdout <"$WORK/list"
expect_stderr <<'EOF2'
EOF2
run show reshape-fast
expect_exit 0
head -3 "$WORK/out" >"$WORK/head"
cmp -s "$WORK/head" - <<'EOF2' || fail "show reshape-fast: $(cat "$WORK/head")"
name: reshape-fast
file: built-in:reshape-fast
description: Finish RAID resync, rebuild, reshape or scrub as fast as the disks allow
EOF2
# Built-in low-ram extends built-in balanced.
run --json show low-ram
expect_exit 0
grep -q '"path": "built-in:low-ram", "chain": \["low-ram", "balanced"\]' "$WORK/out" ||
	fail "show low-ram: $(cat "$WORK/out")"
run diff reshape-fast
expect_exit 1
head -1 "$WORK/out" >"$WORK/head"
echo "profile reshape-fast (built-in:reshape-fast)" | cmp -s "$WORK/head" - ||
	fail "diff names $(cat "$WORK/head")"
sed '1d' "$WORK/out" | cmp -s "$WORK/diff-files" - ||
	fail "diff with the built-in differs from the diff with the shipped file"
expect_unchanged "list, show and diff"

# /etc/mdprofile/profiles, then --profiles DIR, override the built-ins by name.
mkdir -p "$ROOT/etc/mdprofile/profiles" "$ROOT/mine"
printf 'description: mine in etc\nextends: balanced\n' >"$ROOT/etc/mdprofile/profiles/balanced.yaml"
printf 'description: my own\n' >"$ROOT/mine/reshape-fast.yaml"
printf 'description: only here\n' >"$ROOT/mine/extra.yaml"
run --profiles "$ROOT/mine" --json list
expect_exit 0
# The files first; then the built-ins from the shared list, but the two overridden, and
# low-ram, which extends the invalid etc balanced.
{
	cat <<'EOF2'
[
 {
  "name": "extra",
  "path": "@ROOT@/mine/extra.yaml",
  "source": "--profiles",
  "valid": true,
  "description": "only here"
 },
 {
  "name": "reshape-fast",
  "path": "@ROOT@/mine/reshape-fast.yaml",
  "source": "--profiles",
  "valid": true,
  "description": "my own"
 },
 {
  "name": "balanced",
  "path": "@ROOT@/etc/mdprofile/profiles/balanced.yaml",
  "source": "etc",
  "valid": false,
  "description": ""
 },
EOF2
	shipped_list built-in | awk '$1 != "balanced" && $1 != "reshape-fast" {
		ok = $1 != "low-ram"
		printf "%s {\n  \"name\": \"%s\",\n  \"path\": \"built-in:%s\",\n", n++ ? ",\n" : "", $1, $1
		printf "  \"source\": \"built-in\",\n  \"valid\": %s,\n", ok ? "true" : "false"
		printf "  \"description\": \"%s\"\n }", ok ? substr($0, 29) : ""
	} END { print "\n]" }'
} >"$WORK/list.json"
expect_json <"$WORK/list.json"
# The etc file extends "balanced", which names itself: a cycle, reported.
run check balanced
expect_exit 2
expect_stderr <<'EOF2'
mdprofile: @ROOT@/etc/mdprofile/profiles/balanced.yaml:2:10: extends cycle: balanced -> balanced
EOF2
printf 'description: mine in etc\nextends: kernel-defaults\n' >"$ROOT/etc/mdprofile/profiles/balanced.yaml"
{
	echo 'balanced         etc        mine in etc  [@ROOT@/etc/mdprofile/profiles/balanced.yaml]'
	shipped_list built-in 'built-in:%s' | grep -v '^balanced '
} >"$WORK/list"
run -v list
expect_exit 0
expect_stdout <"$WORK/list"

# A name found nowhere: said so, and it fails. The shipped directory it names is the one
# beside it, not the build's DATADIR: a copy reads its built-ins even where a package
# installed its profiles there (make deb on a box with mdprofile installed).
run show nope
expect_exit 2
expect_stdout <<'EOF2'
EOF2
grep -qxF "mdprofile: profile 'nope' not found (looked in $ROOT/etc/mdprofile/profiles, \
$ALONE/profiles and the built-in profiles)" "$WORK/err" || fail "show nope: $(cat "$WORK/err")"
