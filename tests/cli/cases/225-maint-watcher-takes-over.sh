# A watcher started again (its keeper's restart, systemd's, a boot) takes over the checks the
# watcher before it paused (issue 49): they stay paused while their reason holds, and the new
# watcher resumes them when allowed and says so. Before, the command's own recover let them
# go as it started (a gone watcher's pauses, as revert does): the check ran again at once,
# outside its windows, and no line said it was resumed.
fixture server-raid6-raid10
md=$ROOT/sys/block/md1/md
mkdir -p "$ROOT/run/mdprofile" "$WORK/p"
chmod 700 "$ROOT/run/mdprofile"
printf 'mdprofile-paused 1\nboot_id %s\npause md1 check 863341056\nend\n' \
	"$(cat "$ROOT/proc/sys/kernel/random/boot_id")" >"$ROOT/run/mdprofile/paused"
chmod 600 "$ROOT/run/mdprofile/paused"
echo idle >"$md/sync_action"
echo 863341056 >"$md/sync_min"
# a window twelve hours from now (the tree has no zone: UTC)
away=$((($(date -u +%H | sed 's/^0//') + 12) % 24))
printf 'description: checks twelve hours from now\nmaintenance:\n  windows: ["%02d:00-%02d:30"]\n' \
	"$away" "$away" >"$WORK/p/night.yaml"
printf 'description: checks at any hour\nmaintenance:\n  windows: ["00:00-24:00"]\n' >"$WORK/p/open.yaml"

# Outside its window: kept paused, and its reason kept true.
bg_start --profiles "$WORK/p" auto --interval 0.1 night
wait_until 50 0.1 'grep -q "^pause md1 check 863341056 .* window " "$ROOT/run/mdprofile/paused" 2>/dev/null' ||
	fail "the watcher did not take the pause over: $(cat "$ROOT/run/mdprofile/paused" "$WORK/bg.out")"
[ "$(cat "$md/sync_action")" = idle ] || fail "md1's check resumed outside its window"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
! grep -q resumed "$WORK/out" || fail "a resume said: $(cat "$WORK/out")"

# In its window: resumed from its place, and said.
bg_start --profiles "$WORK/p" auto --interval 0.1 open
wait_until 50 0.1 '[ "$(cat "$md/sync_action")" = check ]' || fail "md1's check not resumed"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
stdout_line "md1 check resumed from 22% (sector 863341056)"
[ "$(cat "$md/sync_min")" = 863341056 ] || fail "md1's place moved: $(cat "$md/sync_min")"
[ ! -s "$ROOT/run/mdprofile/paused" ] || ! grep -q "^pause md1" "$ROOT/run/mdprofile/paused" ||
	fail "the pause journal still lists md1"
