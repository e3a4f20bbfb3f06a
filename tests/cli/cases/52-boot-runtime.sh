# A boot script at work, run as DSM's Task Scheduler runs it (env -i, cwd /)
# under bash and busybox ash, on a machine whose md numbers changed since it
# was generated (md2 is md5 now, md3 is md2): values land on the arrays by
# UUID, byte for byte what 'mdprofile apply' writes; a missing array, less
# RAM and DSM's own overwrite after the first apply.
# tags: slow no-valgrind (not yet in make valgrind: passed under it; a re-check on a clock)

# ds-dsm6-reshape after a reboot (md2 -> md5, md3 -> md2) in $2, changed by $1 (python on spec s).
reboot_root() {
	rm -rf "$2"
	python3 - "$1" "$SRC/tests/fixtures" >"$WORK/spec.json" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[2])
import mkroot
s = mkroot.ds_dsm6_reshape()
s["mdstat"] = None
ren = {"md2": "md5", "md3": "md2"}
for a in s["arrays"]:
    a["name"] = ren.get(a["name"], a["name"])
exec(sys.argv[1])
json.dump(s, sys.stdout)
EOF
	python3 "$SRC/tests/fixtures/mkroot.py" --spec "$WORK/spec.json" --out "$2"
}

# Run script $2 with shell $1 as a boot task would: no environment but the root.
boot_run() {
	set +e
	# shellcheck disable=SC2086 # $1 is a shell with its arguments: "busybox ash"
	(cd / && env -i MDPROFILE_ROOT="$3" $1 "$2") >"$WORK/boot.out" 2>"$WORK/boot.err"
	RC=$?
	set -e
}

# A cross binary runs under qemu-user (MDP_WRAP): the script calls it through a wrapper.
BINARY=$(wrapped_mdp)

fixture ds-dsm6-reshape
mkdir -p "$ROOT/p"
cat >"$ROOT/p/names.yaml" <<'EOF'
extends: balanced
arrays:
  - match: {names: [md2]}
    stripe_cache_size: 4096
  - match: {names: [md3]}
    read_ahead: 8MiB
EOF
# The same profile as a person would write it for the renumbered box.
cat >"$WORK/by-uuid.yaml" <<'EOF'
extends: balanced
arrays:
  - match: {uuids: ["6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d"]}
    stripe_cache_size: 4096
  - match: {uuids: ["f0e1d2c3b4a5968778695a4b3c2d1e0f"]}
    read_ahead: 8MiB
EOF
run boot-script "$ROOT/p/names.yaml" --binary "$BINARY" --wait-arrays 1 --recheck-after 0 \
	-o "$WORK/boot.sh"
expect_exit 0
run boot-script "$ROOT/p/names.yaml" --binary "$BINARY" --target rc.d --wait-arrays 1 \
	--recheck-after 0 \
	-o "$WORK/rc.sh"
expect_exit 0

reboot_root '' "$WORK/want"
run_noroot --root "$WORK/want" apply "$WORK/by-uuid.yaml"
expect_exit 0
for sh in bash "busybox ash"; do
	reboot_root '' "$WORK/r"
	boot_run "$sh" "$WORK/boot.sh" "$WORK/r"
	[ "$RC" = 0 ] || fail "$sh: the boot script exited $RC: $(cat "$WORK/boot.out" "$WORK/boot.err")"
	[ -s "$WORK/boot.err" ] && fail "$sh: the boot script wrote to stderr: $(cat "$WORK/boot.err")"
	diff -r -x run "$WORK/want" "$WORK/r" >"$WORK/rdiff" ||
		fail "$sh: the boot script wrote other values than apply: $(head "$WORK/rdiff")"
	grep -qx 'mdprofile: md5 stripe_cache_size: 256 -> 4096' "$WORK/boot.out" ||
		fail "$sh: md5 (md2 when generated) did not get its stripe cache: $(cat "$WORK/boot.out")"
	grep -qx 'mdprofile: done, exit code 0' "$WORK/boot.out" || fail "$sh: no last log line"
	# status tells a boot's profile from one applied by hand.
	run_noroot --root "$WORK/r" status
	expect_exit 0
	grep -qx "active profile: names since .*, applied at boot" "$WORK/out" ||
		fail "$sh: status does not say the boot script applied it: $(cat "$WORK/out")"
done

# rc.d: start applies, status diffs, stop changes nothing, anything else is usage.
reboot_root '' "$WORK/r"
boot_run "busybox ash" "$WORK/rc.sh" "$WORK/r"
[ "$RC" = 0 ] || fail "rc.d start exited $RC"
diff -r -x run "$WORK/want" "$WORK/r" >/dev/null || fail "rc.d start wrote other values"
set +e
(cd / && env -i MDPROFILE_ROOT="$WORK/r" busybox ash "$WORK/rc.sh" status) >"$WORK/st" 2>&1
[ $? = 0 ] || fail "rc.d status after start is not in sync: $(cat "$WORK/st")"
echo 8 >"$WORK/r/sys/block/md5/md/stripe_cache_size"
(cd / && env -i MDPROFILE_ROOT="$WORK/r" busybox ash "$WORK/rc.sh" status) >"$WORK/st" 2>&1
[ $? = 1 ] || fail "rc.d status does not see a changed value"
(cd / && env -i MDPROFILE_ROOT="$WORK/r" bash "$WORK/rc.sh" stop) >"$WORK/st" 2>&1
[ $? = 0 ] || fail "rc.d stop failed"
(cd / && env -i MDPROFILE_ROOT="$WORK/r" bash "$WORK/rc.sh" restart) >"$WORK/st" 2>&1
[ $? = 2 ] || fail "rc.d restart is not a usage error"
set -e

# md3 (md2 now) is not assembled at boot: said, the rest set, exit 1.
reboot_root 's["arrays"] = [a for a in s["arrays"] if a["name"] != "md2"]' "$WORK/r"
boot_run bash "$WORK/boot.sh" "$WORK/r"
[ "$RC" = 1 ] || fail "a missing array: exit $RC, expected 1"
grep -qx 'mdprofile: not assembled after 1s, left untuned: f0e1d2c3b4a5968778695a4b3c2d1e0f' \
	"$WORK/boot.out" || fail "the missing array is not logged: $(cat "$WORK/boot.out")"
[ "$(cat "$WORK/r/sys/block/md5/md/stripe_cache_size")" = 4096 ] ||
	fail "the arrays that were there were not set"

# Less RAM at boot (256 MiB): the explicit 4096 (64 MiB) is over the budget: refused and logged.
lowram='s["meminfo"] = [["MemTotal", 262144], ["MemFree", 100000], ["MemAvailable", 200000]]'
reboot_root "$lowram" "$WORK/r"
cp -a "$WORK/r" "$WORK/r0"
boot_run bash "$WORK/boot.sh" "$WORK/r"
[ "$RC" = 2 ] || fail "over the budget at boot: exit $RC, expected 2"
grep -q '^mdprofile: .*budget' "$WORK/boot.out" || fail "the budget refusal is not logged"
grep -qx 'mdprofile: apply failed with exit code 2' "$WORK/boot.out" || fail "no failure line"
diff -r -x run "$WORK/r0" "$WORK/r" >/dev/null || fail "a refused apply changed values"
# ...while auto sizes shrink to what apply gives on that box.
run_noroot --root "$WORK/r" boot-script reshape-fast --binary "$BINARY" --wait-arrays 0 \
	--recheck-after 0 -o "$WORK/fast.sh"
expect_exit 0
reboot_root "$lowram" "$WORK/want"
run_noroot --root "$WORK/want" --services-backend none apply reshape-fast
expect_exit 0
boot_run "busybox ash" "$WORK/fast.sh" "$WORK/r"
[ "$RC" = 0 ] || fail "reshape-fast on 256 MiB: exit $RC"
diff -r -x run "$WORK/want" "$WORK/r" >/dev/null || fail "auto sizes at boot differ from apply"

# DSM writes speed_limit_min after the first apply: the re-check sees it and applies again.
run boot-script "$ROOT/p/names.yaml" --binary "$BINARY" --wait-arrays 1 --recheck-after 3 \
	-o "$WORK/re.sh"
expect_exit 0
reboot_root '' "$WORK/r"
(cd / && env -i MDPROFILE_ROOT="$WORK/r" bash "$WORK/re.sh") >"$WORK/boot.out" 2>&1 &
pid=$!
i=0
until grep -qs '^state active' "$WORK/r/run/mdprofile/journal" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo 10000 >"$WORK/r/proc/sys/dev/raid/speed_limit_min"
set +e
wait $pid
RC=$?
set -e
[ "$RC" = 0 ] || fail "re-check: exit $RC: $(cat "$WORK/boot.out")"
grep -qx 'mdprofile: values changed after apply (DSM sets some while it boots): applying again' \
	"$WORK/boot.out" || fail "the overwrite was not caught: $(cat "$WORK/boot.out")"
[ "$(cat "$WORK/r/proc/sys/dev/raid/speed_limit_min")" = 50000 ] ||
	fail "speed_limit_min was not set again"
