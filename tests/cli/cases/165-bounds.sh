# Floors and ceilings (issue 38): {at_least: V} never lowers what the box has,
# {at_most: V} never raises it. diff names what a bound keeps, apply writes and
# journals only the rest, drift ignores a kept value, revert restores exactly.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
# The seed box: speed_limit_min 10000, speed_limit_max 200000, md2 and md3 read_ahead
# 192 KiB and stripe_cache_size 256.
cat >"$P/floors-base.yaml" <<'YAML'
description: floors on the sysctls
raid:
  speed_limit_min: {at_least: 50000}
  speed_limit_max: {at_least: 150000}
YAML
cat >"$P/floors.yaml" <<'YAML'
extends: floors-base
arrays:
  - match: {levels: [raid5]}
    stripe_cache_size: {at_least: 4096}
    read_ahead:
      at_most: 4 MiB
YAML

# extends keeps the bound; show says it in every form.
run_expect 0 show - show floors
run_expect 0 . - show floors --json
expect_json show
run_expect 0 show-yaml - show --yaml floors

# A raised floor is a change, a value already beyond its bound a kept line.
run_expect 1 diff - diff floors
run_expect 1 . - diff floors --json
json_field '.changes[1]' '{"target":"dev.raid","tunable":"speed_limit_max","path":"/proc/sys/dev/raid/speed_limit_max","current":200000,"desired":200000,"unit":"KiB/s","pending":false,"reason":"raid.speed_limit_max","bound":"at_least","limit":150000,"kept":true}'
json_field '.pending' '3'

snapshot
run_expect 0 apply - apply floors
run_expect 0 . - apply floors --json --dry-run
json_field '.kept[0]' '{"target":"dev.raid","tunable":"speed_limit_max","path":"/proc/sys/dev/raid/speed_limit_max","value":200000,"unit":"KiB/s","bound":"at_least","limit":150000,"kept":true}'
# A kept value is none of the profile's: changing it is no drift, and revert leaves it.
run_expect 0 diff-applied - diff
echo 300000 >"$ROOT/proc/sys/dev/raid/speed_limit_max"
run_expect 0 diff-applied - diff
echo 200000 >"$ROOT/proc/sys/dev/raid/speed_limit_max"
revert_unchanged "after apply and revert"

# The pinned profile loads back to the same plan.
run show --yaml floors
expect_exit 0
cp "$WORK/out" "$ROOT/pinned.yaml"
run_expect 1 diff-pinned - diff "$ROOT/pinned.yaml"

# A bad bound: each error at its line, in the loader's words.
cat >"$P/bad-bounds.yaml" <<'YAML'
raid:
  speed_limit_min: {at_least: 700000}
  speed_limit_max: {at_most: 600000}
arrays:
  - match: all
    stripe_cache_size: {}
    read_ahead: {at_most: 4MiB, at_least: 1MiB}
    sync_speed_min: {at_least: system}
    group_thread_cnt: {at_least: many}
YAML
run_expect 2 - check-bad check bad-bounds
