# maintenance notify (issue 49): the watcher tells of a check it sees start and end, in its
# log, to DSM's Log Center and notifications (start and end), and to the notify command,
# run with the event in MDPROFILE_* variables (mdprofile.yaml(5)); the end says how long it
# took, whether it completed and md's mismatch_cnt. A command that fails is said once.
# tags: no-valgrind (a watcher in the background)
fixture ds-dsm6-reshape
fakes dsmlog
D="$ROOT/sys/block/md2/md"
mkdir -p "$ROOT/usr/local/sbin" "$ROOT/etc/mdprofile/profiles"
cat >"$ROOT/usr/local/sbin/md-news" <<'HOOK'
#!/bin/sh
env | grep '^MDPROFILE_' | grep -v '^MDPROFILE_ROOT' | sort >>"$MDPROFILE_ROOT/var/log/md-news"
echo -- >>"$MDPROFILE_ROOT/var/log/md-news"
HOOK
chmod 755 "$ROOT/usr/local/sbin/md-news"
cat >"$ROOT/etc/mdprofile/profiles/told.yaml" <<'YAML'
arrays:
  - match: {names: [md2]}
    stripe_cache_size: 4096
maintenance:
  notify: {command: /usr/local/sbin/md-news, events: [start, end]}
YAML
echo 01234567-89ab-cdef-0123-456789abcdef >"$D/uuid"
echo 0 >"$D/sync_min"
echo 5 >"$D/mismatch_cnt"
echo "1024 / 4096" >"$D/sync_completed"
echo check >"$D/sync_action"
wait_for() { wait_until 100 0.05 "$1" || fail "timed out waiting for: $2"; }

bg_start --services-backend none auto --interval 0.1 told
wait_for 'grep -q "^--" "$ROOT/var/log/md-news" 2>/dev/null' "the start"
echo idle >"$D/sync_action"
echo none >"$D/sync_completed"
wait_for '[ "$(grep -c "^--" "$ROOT/var/log/md-news")" = 2 ]' "the end"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
T='s/after [0-9]h [0-9]{2}m [0-9]{2}s/after T/'
sed -E "$T" "$WORK/out" >"$WORK/log"
sed -E "$T; s/DURATION_S=[0-9]+$/DURATION_S=N/" "$ROOT/var/log/md-news" >"$WORK/out"
expect_stdout news
sed -E "$T" "$ROOT/var/log/fake-services.log" >"$WORK/out"
expect_stdout dsm
mv "$WORK/log" "$WORK/out"
expect_stdout log

# A command that fails (refused here: others may write it) is said once, not at each event.
chmod 777 "$ROOT/usr/local/sbin/md-news"
echo check >"$D/sync_action"
echo "1024 / 4096" >"$D/sync_completed"
bg_start --services-backend none auto --interval 0.1 told
wait_for 'grep -q "md2 check started" "$WORK/bg.out"' "the start"
echo idle >"$D/sync_action"
echo none >"$D/sync_completed"
wait_for 'grep -q "md2 check completed" "$WORK/bg.out"' "the end"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
expect_stderr refused
grep -c 'notify command /usr/local/sbin/md-news failed' "$WORK/out" >"$WORK/n"
[ "$(cat "$WORK/n")" = 1 ] || fail "the failure said $(cat "$WORK/n") times"
