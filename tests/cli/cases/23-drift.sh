# Drift is measured against what was applied (the journal), not the profile file as it reads now.
fixture ds-dsm6-reshape
mkdir -p "$ROOT"/etc/mdprofile/profiles && cp "$SRC/profiles/balanced.yaml" "$ROOT"/etc/mdprofile/profiles/mine.yaml
run_expect 0 - - apply mine -q
run_expect 0 diff - diff
# Editing the profile after apply is not drift.
sed -i 's/speed_limit_min: 50000/speed_limit_min: 70000/' "$ROOT"/etc/mdprofile/profiles/mine.yaml
run_expect 0 diff.2 - diff
# A value changed behind mdprofile's back is.
echo 10000 > "$ROOT"/proc/sys/dev/raid/speed_limit_min
run_expect 1 diff.3 - diff
# The edited profile itself still diffs against the live system.
run_expect 1 diff-mine - diff mine
run_expect 0 - - revert -q
