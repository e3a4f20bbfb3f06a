# show --yaml: a profile pinned as one file (extends flattened, written by
# libcyaml) that loads back to the same settings.
# tags: heavy
fixture ds-dsm6-reshape
mkdir -p "$ROOT/pins"
for p in $(shipped_names); do
	run_expect 0 . - show --yaml "$p"
	cp "$WORK/out" "$ROOT/pins/$p.yaml"
	# The pinned file shows the same settings as the profile it came from.
	run show "$p"
	expect_exit 0
	sed -e '/^name: /d' -e '/^file: /d' -e '/^extends: /d' "$WORK/out" >"$WORK/want.show"
	run show "$ROOT/pins/$p.yaml"
	expect_exit 0
	sed -e '/^name: /d' -e '/^file: /d' -e '/^extends: /d' "$WORK/out" >"$WORK/got.show"
	cmp -s "$WORK/want.show" "$WORK/got.show" || fail "$p: the pinned file shows other settings"
	# ...and plans the same changes on this machine (none for night-checks: diff exits 0).
	run diff "$p" --json
	want=$RC
	[ "$want" = 0 ] || [ "$want" = 1 ] || fail "diff $p exited $want, expected 0 or 1"
	exit_checked
	python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["changes"]))' \
		<"$WORK/out" | sed 's/"reason": "[^"]*"//g' >"$WORK/want.diff"
	run diff "$ROOT/pins/$p.yaml" --json
	expect_exit "$want"
	python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["changes"]))' \
		<"$WORK/out" | sed 's/"reason": "[^"]*"//g' >"$WORK/got.diff"
	cmp -s "$WORK/want.diff" "$WORK/got.diff" || fail "$p: the pinned file plans other changes"
done
run_expect 0 show-yaml-low-ram . show --yaml low-ram
# Every form a value can take survives the trip.
cat >"$ROOT/pins/odd.yaml" <<'EOF'
description: "yes: every form"
memory_budget: 512MiB
raid:
  speed_limit_min: 1000
arrays:
  - match: all
    sync_speed_min: system
    group_thread_cnt: 0
  - match: {names: [md2], uuids: ["6a1b0c7d:2e3f4a5b:8c9d0e1f:2a3b4c5d"]}
    member_read_ahead: 1536KiB
    preread_bypass_threshold: 1
services:
  pause: [synoindexd, "pkg:SynologyPhotos", {name: x, optional: true}]
EOF
run_expect 0 show-yaml-pinsodd.yaml . show --yaml "$ROOT/pins/odd.yaml"
# Text that YAML reads as a number, a boolean or null is pinned quoted (libcyaml
# writes it, libyaml restyles those scalars), so it loads back as the same text.
printf 'description: "123"\nservices:\n  pause:\n  - name: "yes"\n    only_on: [dsm6]\n' \
	>"$ROOT/pins/num.yaml"
run_expect 0 show-yaml-pinsnum.yaml - show --yaml "$ROOT/pins/num.yaml"
cp "$WORK/out" "$ROOT/pins/num-pinned.yaml"
run show "$ROOT/pins/num.yaml"
expect_exit 0
sed -e '/^name: /d' -e '/^file: /d' "$WORK/out" >"$WORK/want.show"
run show "$ROOT/pins/num-pinned.yaml"
expect_exit 0
sed -e '/^name: /d' -e '/^file: /d' "$WORK/out" >"$WORK/got.show"
cmp -s "$WORK/want.show" "$WORK/got.show" || fail "num: the pinned file shows other settings"
grep -qx 'description: 123' "$WORK/got.show" || fail "num: description is not the text 123"
run show --yaml "$ROOT/pins/num-pinned.yaml"
expect_exit 0
sed 1d "$WORK/out" >"$WORK/again.yaml"
sed 1d "$ROOT/pins/num-pinned.yaml" | cmp -s - "$WORK/again.yaml" ||
	fail "num: pinning the pinned file gives another file"
run show --yaml --json low-ram
expect_exit 2
run diff --yaml low-ram
expect_exit 2
