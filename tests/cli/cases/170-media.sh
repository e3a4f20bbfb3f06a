# Disk classes (issue 38): status names each array's class, match: {media: ...}
# selects by it (all members of a class named; an unknown class matches nothing,
# and diff says why), reshape-fast keeps SSD arrays from md's throttle.
fixture ssd-raid5-mixed
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
cat >"$P/by-class.yaml" <<'YAML'
raid:
  speed_limit_max: {at_least: 2000000}
arrays:
  - match: {media: [ssd, nvme]}
    read_ahead: 8MiB
  - match: {media: hdd}
    read_ahead: 1MiB
  - match: {media: [hdd, ssd], levels: [raid1]}
    sync_speed_min: 20000
YAML

# md0 is four SSDs, md1 an SSD and a hard disk.
run_expect 0 status - status
run_expect 0 . - status --json
json_field '.arrays[0].media' '"ssd"'
json_field '.arrays[1].media' '"mixed"'
run_expect 0 show - show by-class
run_expect 0 . - show by-class --json
json_field '.arrays[0].match.media' '["ssd","nvme"]'
run_expect 1 diff - diff by-class
run_expect 1 diff-reshape-fast - diff reshape-fast

# One member whose class cannot be read: no media rule matches its array, said once.
rm "$ROOT/sys/block/sdf/queue/rotational"
run_expect 1 diff-unknown - diff by-class
run_expect 0 . - status --json
json_field '.arrays[1].media' 'null'

# A bad class word: where, what, and the nearest class.
cat >"$P/bad-class.yaml" <<'YAML'
arrays:
  - match: {media: [hdd, sdd]}
    read_ahead: 1MiB
  - match: {media: {ssd: true}}
    read_ahead: 1MiB
YAML
run_expect 2 - check-bad check bad-class
sed -i '4,5d' "$P/bad-class.yaml"
run_expect 2 - check-bad-word check bad-class
