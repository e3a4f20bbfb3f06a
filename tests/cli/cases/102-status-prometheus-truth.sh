# status --format prometheus tells what JSON tells: arrays only /proc/mdstat
# lists are exported too, a sample that is not known is left out (no -1
# missing disks on raid0/linear, no ETA while idle), and a profile name
# that is not valid UTF-8 reads the same in a label as in JSON (U+FFFD for
# the stray byte; a control character, which JSON escapes and a label
# cannot, is U+FFFD in the label: 78-outside-text).
fixture ds-dsm6-reshape
rm -r "$ROOT"/sys/block
cat >"$ROOT"/proc/mdstat <<'EOF'
Personalities : [linear] [raid0] [raid1]
md4 : active raid1 sdh1[2] sdg1[0]
      976630464 blocks super 1.2 [2/1] [U_]
      [==>..................]  recovery = 12.6% (123456000/976630464) finish=71.1min speed=200000K/sec

md5 : active raid0 sdj1[1] sdi1[0]
      1953260544 blocks super 1.2 512k chunks

unused devices: <none>
EOF
run status --format prometheus
expect_exit 0
grep -v '^#' "$WORK/out" | grep -v 'sync_action{.*} 0$' >"$WORK/f" && mv "$WORK/f" "$WORK/out"
expect_stdout status-format-prometheus
expect_stderr status-format-prometheus

# A profile file whose name holds a byte that is not UTF-8, a quote and a
# backslash: the label and the JSON carry the same text.
fixture ds-dsm6-reshape
name=$(printf 'odd\377"x\\y')
cp "$SRC/profiles/balanced.yaml" "$WORK/$name.yaml"
run -q apply "$WORK/$name.yaml"
expect_exit 0
run --json status
expect_exit 0
cp "$WORK/out" "$WORK/json"
run status --format prometheus
expect_exit 0
python3 - "$WORK/json" "$WORK/out" >"$WORK/cmp" <<'EOF' || fail "$(cat "$WORK/cmp")"
import json, re, sys
want = json.load(open(sys.argv[1]))["active_profile"]
text = open(sys.argv[2], "rb").read().decode("utf-8")  # fails unless valid UTF-8
m = re.search(r'^mdprofile_profile_active\{profile="((?:[^"\\]|\\.)*)"\} 1$', text, re.M)
got = re.sub(r'\\(.)', lambda e: "\n" if e.group(1) == "n" else e.group(1), m.group(1))
if got != want or want != 'odd\ufffd"x\\y':
    print("label %r, JSON %r" % (got, want))
    sys.exit(1)
EOF
