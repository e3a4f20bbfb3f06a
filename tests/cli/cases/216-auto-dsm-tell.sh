# The watcher on DSM tells the owner (issue 50): its engage, release and
# give-up go to Log Center with DSM's own synologset1 (sys warn 0x11100000,
# the one form known to take free text), and a release after an operation
# it sped up ended to DSM's notifications too (synodsmnotify @administrators
# with the i18n title DSM's own scripts use), checked against DSM 6.2.3's
# own under qemu-user (src/boot/boot.c). A box off DSM (no
# /etc.defaults/VERSION) gets neither; a notification that fails is
# said in the log and ends nothing. The fakes answer as the facts in
# src/boot/boot.c say DSM's do.
# tags: slow no-valgrind (a watcher in the background, released after md's idle debounce)
fixture ds-dsm6-reshape
fakes dsmlog
D="$ROOT/sys/block/md3/md"
wait_for() { wait_until 150 0.1 "$1" || fail "timed out waiting for: $2"; }
calls() { sed -E -e 's/average [0-9]+ KiB/average N KiB/' -e 's/after [0-9hms ]+$/after T/' \
	"$ROOT/var/log/fake-services.log"; }

# auto: md3's reshape engages it, md3 idle releases it
echo idle >"$D/sync_action"
bg_start --services-backend none auto --interval 0.2 reshape-fast
wait_for 'grep -qx "state armed" "$ROOT/run/mdprofile/watcher" 2>/dev/null' "the watcher to arm"
echo reshape >"$D/sync_action"
wait_for 'grep -q "^synologset1" "$ROOT/var/log/fake-services.log"' "the engage in Log Center"
echo idle >"$D/sync_action"
wait_for 'grep -q "^synodsmnotify" "$ROOT/var/log/fake-services.log"' "the release's notification"
kill -TERM "$(cat "$WORK/bg.pid")"
bg_finish
expect_exit 0
calls >"$WORK/out"
expect_stdout <<'EOF2'
synologset1 sys warn 0x11100000 mdprofile: engaged: md3 reshape; profile reshape-fast applied
synologset1 sys warn 0x11100000 mdprofile: md3 reshape: ended, last seen at 25.1%, average N KiB/s; profile reshape-fast removed after T
synodsmnotify @administrators dsmnotify:system_event mdprofile: md3 reshape: ended, last seen at 25.1%, average N KiB/s; profile reshape-fast removed after T
EOF2
: >"$ROOT/var/log/fake-services.log"

# A notification that fails is said in the log; the watcher goes on and releases.
touch "$ROOT/var/lib/fake-services/synodsmnotify.fail-notify"
echo reshape >"$D/sync_action"
bg_start --services-backend none apply --until-idle --interval 0.2 reshape-fast
wait_for 'grep -q "watching until" "$WORK/bg.out"' "the watch"
echo idle >"$D/sync_action"
bg_finish
expect_exit 0
stdout_line "DSM's notification (synodsmnotify) failed: synodsmnotify: failed to send the notification (fake)"
calls >"$WORK/out"
expect_stdout <<'EOF2'
synologset1 sys warn 0x11100000 mdprofile: md3 reshape: ended, last seen at 25.1%, average N KiB/s; profile reshape-fast reverted
synodsmnotify @administrators dsmnotify:system_event mdprofile: md3 reshape: ended, last seen at 25.1%, average N KiB/s; profile reshape-fast reverted
EOF2

# Not DSM: no Log Center, no notification, not a word about them.
rm "$ROOT/etc.defaults/VERSION"
: >"$ROOT/var/log/fake-services.log"
echo reshape >"$D/sync_action"
run --services-backend none apply --until-idle --interval 0.2 reshape-fast &
P=$!
wait_until 100 0.1 'grep -q "^state engaged\|^state armed\|^pid" "$ROOT/run/mdprofile/watcher" 2>/dev/null' || :
echo idle >"$D/sync_action"
wait "$P"
RC=$?
exit_checked
[ "$RC" -eq 0 ] || fail "apply --until-idle off DSM exited $RC"
[ ! -s "$ROOT/var/log/fake-services.log" ] || fail "off DSM it called: $(cat "$ROOT/var/log/fake-services.log")"
