# defer_to smart-selftest (issue 49): the watcher asks smartctl whether a self-test runs on
# each member disk (-n standby -c: a disk asleep stays asleep), once per disk however many
# arrays it is in; one on sdb pauses md2's check in place (DSM), said with the disk and how
# far the test is; the arrays without a check are left alone. A disk smartctl tells no
# self-test status for (sdc, sdd: no fake answer) is said once.
# tags: no-valgrind (a watcher in the background)
fixture ds-dsm6-reshape
fakes smartctl sda=standby sdb=ata,selftest=extended,left=30
D="$ROOT/sys/block/md2/md"
mkdir -p "$ROOT/etc/mdprofile/profiles"
cat >"$ROOT/etc/mdprofile/profiles/tested.yaml" <<'YAML'
maintenance:
  defer_to: [smart-selftest]
YAML
echo 01234567-89ab-cdef-0123-456789abcdef >"$D/uuid"
echo 0 >"$D/sync_min"
echo "1024 / 4096" >"$D/sync_completed"
echo check >"$D/sync_action"

bg_start --services-backend none auto --interval 0.1 tested
wait_until 100 0.05 'grep -q "md2 check paused" "$WORK/bg.out"' || fail "md2 not paused"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
[ "$(cat "$D/sync_action")" = idle ] || fail "md2's check runs"
sort "$ROOT/var/log/fake-services.log" >"$WORK/calls"
mv "$WORK/out" "$WORK/log"
mv "$WORK/calls" "$WORK/out"
expect_stdout calls
mv "$WORK/log" "$WORK/out"
expect_stdout log
