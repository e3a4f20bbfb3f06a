# mdprofile auto (issue 20): a watcher over a base profile, as the binary
# runs it. An operation starts: the overlay is applied, services paused;
# md idle: the base's values come back byte for byte. One watcher per
# machine; a revert from another shell holds it off (status says so); a
# stop signal ends it; after SIGKILL recover removes the overlay. The
# loop's own rules (put-backs and their limit, held until idle and armed
# again, flapping, a goal, waiting for the lock another mdprofile holds,
# and another's failed apply meanwhile) are the unit tests'
# (test_watcher_loop).
# tags: slow no-valgrind (a watcher in the background, signals, SIGKILL: timing)

ORIG="$WORK/orig"

# What md shows of md3 when its reshape has ended, and when it runs again.
md_idle() {
	echo none >"$ROOT/sys/block/md3/md/reshape_position"
	echo idle >"$ROOT/sys/block/md3/md/sync_action"
	echo none >"$ROOT/sys/block/md3/md/sync_completed"
	echo 0 >"$ROOT/sys/block/md3/md/sync_speed"
	sed -i '/reshape =/d' "$ROOT/proc/mdstat"
}
# sync_action last: the watcher (interval 0.2 s) acts on it, and under load it once
# journaled the speed of a reshape whose sync_speed still read 0
md_reshape() {
	for f in sync_completed sync_speed; do
		cp "$ORIG/$f" "$ROOT/sys/block/md3/md/$f"
	done
	cp "$ORIG/mdstat" "$ROOT/proc/mdstat"
	cp "$ORIG/sync_action" "$ROOT/sys/block/md3/md/sync_action"
}

# Wait for a condition (a shell command), up to 15 s.
wait_for() {
	i=0
	until eval "$1"; do
		i=$((i + 1))
		[ $i -lt 150 ] || { fail "timed out waiting for: $2"; return 1; }
		sleep 0.1
	done
}

watcher_is() { grep -qx "state $1" "$ROOT/run/mdprofile/watcher" 2>/dev/null; }
top_is() {
	grep -qx "profile \"$1\"" "$ROOT/run/mdprofile/journal" 2>/dev/null &&
		grep -qx "state active" "$ROOT/run/mdprofile/journal"
}
has_under() { grep -q '^under ' "$ROOT/run/mdprofile/journal" 2>/dev/null; }
value_is() { [ "$(cat "$ROOT/sys/block/md3/md/stripe_cache_size")" = "$1" ]; }

start_auto() {
	bg_start auto --interval 0.2 "$@"
	wait_for '[ -s "$WORK/bg.pid" ] && watcher_is armed' "the watcher to arm"
	BG=$(cat "$WORK/bg.pid")
}

finish_auto() {
	bg_finish
	# speeds and spans vary with the machine
	sed -i -e 's/average [0-9]* KiB/average N KiB/' -e 's/on for [0-9hms ]*;/on for T;/' "$WORK/out"
}

setup() {
	fixture ds-dsm6-reshape
	mkdir -p "$ORIG"
	cp "$ROOT/sys/block/md3/md/sync_action" "$ROOT/sys/block/md3/md/sync_completed" \
		"$ROOT/sys/block/md3/md/sync_speed" "$ORIG/"
	cp "$ROOT/proc/mdstat" "$ORIG/mdstat"
	fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
	md_idle
	run apply -q balanced
	expect_exit 0
	snapshot
}

# ---- an operation starts, DSM rewrites, md goes idle --------------------------
setup
zone -12600 -0330 && snapshot # the log's and status's times: the box's, with its offset
start_auto reshape-fast
md_reshape
wait_for 'top_is reshape-fast && has_under' "the overlay to be applied"
# The watcher's log (a file here) has the engage's lines while it runs, not at its exit.
wait_for 'grep -Eqx "[0-9-]{10}T[0-9:]{8}-03:30 service pkgctl-FileStation: paused" "$WORK/bg.out"' \
	"the engage's lines in the log"
touch -d '2026-11-29 08:30 UTC' "$ROOT/run/mdprofile/journal"
run status -q
expect_exit 0
sed -i -e 's/(pid [0-9]*), engaged since .*/(pid N), engaged since T/' \
	-e 's/^base profile: balanced since [^,]*,/base profile: balanced since T,/' "$WORK/out"
expect_stdout status-q
run status --json
expect_exit 0
grep -q '"layers": \[{"role": "base", "profile": "balanced", "by": "hand", "since_epoch_s": [0-9]*}, {"role": "overlay", "profile": "reshape-fast", "by": "auto", "since_epoch_s": 1795941000}\], "watcher": {"pid": [0-9]*, "mode": "auto", "profile": "reshape-fast", "state": "engaged", "since_epoch_s": [0-9]*, "on": \["resync", "recovery", "reshape"\], "why": null}' "$WORK/out" ||
	fail "status --json does not show both layers and the watcher: $(cat "$WORK/out")"
run status --format prometheus
expect_exit 0
grep -qx 'mdprofile_profile_layer{role="base",profile="balanced",by="hand"} 1' "$WORK/out" &&
	grep -qx 'mdprofile_profile_layer{role="overlay",profile="reshape-fast",by="auto"} 1' "$WORK/out" &&
	grep -qx 'mdprofile_watcher_state{mode="auto",profile="reshape-fast",state="engaged"} 1' "$WORK/out" &&
	grep -qx 'mdprofile_watcher_state{mode="auto",profile="reshape-fast",state="armed"} 0' "$WORK/out" ||
	fail "status --format prometheus does not show both layers and the watcher: $(grep -e layer -e watcher "$WORK/out")"
# A second watcher is refused while this one runs.
run auto reshape-fast
expect_exit 3
sed -i 's/(pid [0-9]*,/(pid N,/' "$WORK/err"
expect_stderr auto-reshape-fast
# Its lock removed (root may): the watcher takes it again, a second one is still refused.
rm "$ROOT/run/mdprofile/watcher.lock"
wait_for '[ -e "$ROOT/run/mdprofile/watcher.lock" ]' "the watcher to take its lock again"
run auto reshape-fast
expect_exit 3
sed -i 's/(pid [0-9]*,/(pid N,/' "$WORK/err"
expect_stderr auto-reshape-fast
# DSM's pool tools write the stripe cache back: put back.
echo 256 >"$ROOT/sys/block/md3/md/stripe_cache_size"
wait_for 'value_is 32768' "the put-back"
md_idle
wait_for 'top_is balanced && ! has_under' "the overlay to be removed"
wait_for 'grep -Eqx "${STAMP_RE}service synoindexd: resumed" "$WORK/bg.out"' "the release's lines in the log"
kill -TERM "$BG"
finish_auto
expect_exit 0
expect_stdout auto-reshape-fast
expect_no_stderr
# The base's values, byte for byte; the journal keeps the baselines the overlay added.
cp "$ROOT/run/mdprofile/journal" "$WORK/journal.after"
cp "$WORK/snap/run/mdprofile/journal" "$ROOT/run/mdprofile/journal"
expect_unchanged "after the operation ended"
cp "$WORK/journal.after" "$ROOT/run/mdprofile/journal"
[ ! -e "$ROOT/run/mdprofile/watcher" ] || fail "the watcher left its state file"

# ---- a revert from another shell holds it off until md is idle ------------------
setup
start_auto -q reshape-fast
md_reshape
wait_for 'top_is reshape-fast && has_under' "the overlay to be applied"
run revert -q
expect_exit 0
wait_for 'watcher_is held' "the watcher to see the revert"
run status -q
expect_exit 0
# (the line wraps within 80 columns)
tr '\n' ' ' <"$WORK/out" | grep -q 'watcher: auto reshape-fast (pid [0-9]*), held since .*: *removed  *by another mdprofile; armed again when md is idle' ||
	fail "status does not say the watcher is held off: $(cat "$WORK/out")"
# SIGINT: it ends, exit 0, the base as it was.
kill -INT "$BG"
finish_auto
expect_exit 0
top_is balanced && ! has_under || fail "the revert's base is not on"

# ---- SIGKILL while engaged: the next mutating command removes the overlay -------
setup
start_auto -q reshape-fast
md_reshape
wait_for 'top_is reshape-fast && has_under' "the overlay to be applied"
kill -KILL "$BG"
finish_auto
expect_exit 137
run_expect 0 recover . recover
top_is balanced && ! has_under || fail "recover did not go back to the base"
[ ! -e "$ROOT/run/mdprofile/watcher" ] || fail "recover left a dead watcher's state file"

# ---- bad input changes nothing -----------------------------------------------------
setup
run_expect 2 . auto-on-rebuild-reshape-fast auto --on rebuild reshape-fast
run_expect 2 . auto-json-reshape-fast auto --json reshape-fast
run revert --all -q
expect_exit 0
run_expect 2 . apply-origin-elsewhere-q apply --origin elsewhere -q balanced
