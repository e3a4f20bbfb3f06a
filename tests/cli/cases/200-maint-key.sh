# maintenance: {windows, heat, defer_to} (issue 49): the loader takes windows of the week,
# a heat rule and the jobs a check gives way to, says where a wrong one is and what is
# wrong, show names them in every form (notify too: what a watcher tells, and where), a
# child's maintenance replaces its parent's.
fixture ds-dsm6-reshape
P="$ROOT/etc/mdprofile/profiles"
mkdir -p "$P"
cat >"$P/nightly.yaml" <<'YAML'
extends: balanced
maintenance:
  windows: ["Mon-Fri 01:00-07:00", "Sat,Sun 00:00-24:00", "Fri-Mon 22:00-02:00"]
  heat: {hot_at_c: 50, cool_below_c: 45}
  defer_to: [smart-selftest, rsync, "123"]
  notify: {command: /usr/local/sbin/md-news, events: [end, start]}
YAML
cat >"$P/late.yaml" <<'YAML'
extends: nightly
maintenance:
  windows: ["23:00-05:00"]
YAML
w() { printf 'maintenance:\n  %s\n' "$2" >"$P/$1.yaml"; }
printf 'maintenance: {}\n' >"$P/empty.yaml"
w day 'windows: ["Mnd-Fri 01:00-07:00", "Mon,Tue,Xyz 01:00-02:00"]'
w hour 'windows: ["Mon 25:00-07:00", "24:00-02:00", "Mon 01:00-24:01", "01:60-02:00"]'
w same 'windows: ["Mon 01:00-01:00"]'
w shape 'windows: ["Mon 1:00-2:00", "Mon  01:00-02:00", "Mon-Fri"]'
w nowindows 'windows: []'
w heatrange 'heat: {hot_at_c: 91, cool_below_c: 19}'
w heatrev 'heat: {hot_at_c: 45, cool_below_c: 50}'
w heatmiss 'heat: {cool_below_c: 45}'
w defer 'defer_to: [bin/rsync, 0123456789abcdef, " rsync", rsync, rsync, 123]'
w unknown 'window: ["Mon 01:00-02:00"]'
w nodefer 'defer_to: []'
w toomany "defer_to: [$(seq -s, -f 'job%g' 17)]"
w notify 'notify: {command: "md-news --mail", events: [start, done, start]}'

run_expect 0 check - check nightly late
for f in empty day hour same shape nowindows heatrange heatrev heatmiss defer unknown nodefer \
	toomany notify; do
	run_expect 2 - "check-$f" check "$f"
done
run_expect 0 show - show nightly
run_expect 0 show-late - show late
run_expect 0 . - show nightly --json
json_only maintenance
expect_json show
run_expect 0 show-yaml - show --yaml nightly
# A profile without one shows none.
run_expect 0 . - show balanced --json
json_field .maintenance null
