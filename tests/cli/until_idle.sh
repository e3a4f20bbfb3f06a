# shellcheck shell=sh
# The apply --until-idle cases' helpers (56-until-idle, 190-until-idle-layers): md's end of
# an operation imitated on a fixture root, and the watcher run in the background. Sourced
# after lib.sh.

# What md shows when the seed DiskStation's reshape of md3 has ended: a reshape that
# finished leaves reshape_position "none", one interrupted the sector it reached.
flip_idle() {
	echo "${2:-none}" >"$1/sys/block/md3/md/reshape_position"
	echo idle >"$1/sys/block/md3/md/sync_action"
	echo none >"$1/sys/block/md3/md/sync_completed"
	echo 0 >"$1/sys/block/md3/md/sync_speed"
	sed -i '/reshape =/d' "$1/proc/mdstat"
}

# mdprofile in the background, as a detached watcher would run. A subshell
# reaps it, so the shell's "Killed" notice stays out of the test's output.
start_bg() {
	bg_start "$@"
	i=0
	# applied and committed: from here a stop signal waits for the watcher
	until [ -s "$WORK/bg.pid" ] && grep -qx 'by until-idle' "$ROOT/run/mdprofile/journal" 2>/dev/null &&
		grep -qx 'state active' "$ROOT/run/mdprofile/journal"; do
		i=$((i + 1))
		[ $i -lt 300 ] || { fail "the watcher did not start"; break; }
		sleep 0.1
	done
	# shellcheck disable=SC2034 # the case signals it
	BG=$(cat "$WORK/bg.pid")
}

finish_bg() {
	bg_finish
	# durations and speeds vary with the machine
	sed -i -e 's/after [0-9hms ]*;/after T;/' -e 's/average [0-9]* KiB/average N KiB/' "$WORK/out"
}
