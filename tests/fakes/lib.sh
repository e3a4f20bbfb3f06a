# shellcheck shell=sh
# Common part of the fake service managers, sourced by each of them. They
# behave as the facts at the top of src/txn/services.c say the real tools do
# (F1..F19 there); a fake that disagrees with a fact is a bug in one of them.
#
# State of a service NAME: the file $MDPROFILE_ROOT/var/lib/fake-services/NAME
# holding running, stopped, paused (DSM 6: enabled, job stopped), starting,
# stopping or broken; no file means the service manager does not know NAME.
# Knobs, by creating files beside it:
#   NAME.fail-pause    the pause/stop command fails (exit 1, with a message)
#   NAME.fail-resume   the resume/start command fails
#   NAME.hang          the pause/stop command hangs (sleep 1000); the pids of
#                      the shell and the sleep go to NAME.hang.pids
#   NAME.slow          the pause/stop command takes as many seconds as the file
#                      says, then succeeds; NAME.slow.started appears when it begins
#   NAME.settle        stop and start return at once but the service shows
#                      stopping/starting for as many seconds as the file says
#                      (F12, F14, F19); NAME.until holds when that ends
#   NAME.stuck         stop reports success but the service keeps running
#   NAME.reasons       the reasons NAME is stopped for, one a line (F4, F10):
#                      a stop by reason adds one, a start by reason removes
#                      one and starts NAME only when none is left; a plain
#                      start clears them all
#   .no-reason-verbs   (no NAME) the tool predates the by-reason verbs (F7)
# Every call is appended as "TOOL ARGS..." to
# $MDPROFILE_ROOT/var/log/fake-services.log.
#
# The fakes refuse to run without MDPROFILE_ROOT so that they can never
# touch the real /var.

FAKE_DIR=$MDPROFILE_ROOT/var/lib/fake-services
FAKE_LOG=$MDPROFILE_ROOT/var/log/fake-services.log

fake_log() {
	mkdir -p "${FAKE_LOG%/*}" && (IFS=' '; printf '%s\n' "$*") >>"$FAKE_LOG"
}

# A name the fakes can use as a file name.
fake_valid() {
	case $1 in
	'' | . | .. | .* | */* | *.fail-* | *.hang* | *.slow* | *.settle | *.until | *.stuck | *.reasons)
		return 1
		;;
	esac
	return 0
}

# Prints running, stopped, paused, starting, stopping, broken or missing.
# A transition whose time is up has ended.
fake_state() {
	if ! fake_valid "$1" || [ ! -f "$FAKE_DIR/$1" ]; then
		echo missing
		return
	fi
	st=$(cat "$FAKE_DIR/$1")
	case $st in
	starting | stopping)
		if [ "$(date +%s)" -ge "$(cat "$FAKE_DIR/$1.until" 2>/dev/null || echo 0)" ]; then
			[ "$st" = starting ] && st=running || st=$(cat "$FAKE_DIR/$1.target")
			fake_set "$1" "$st"
		fi
		;;
	esac
	echo "$st"
}

fake_set() {
	printf '%s\n' "$2" >"$FAKE_DIR/$1"
}

# fake_knob NAME KNOB: whether the test asked for KNOB (fail-pause, ...).
fake_knob() {
	[ -e "$FAKE_DIR/$1.$2" ]
}

fake_reason_verbs() {
	[ ! -e "$FAKE_DIR/.no-reason-verbs" ]
}

# The pause/stop is slow: tests signal or kill mdprofile while it runs.
fake_slow() {
	fake_knob "$1" slow || return 0
	: >"$FAKE_DIR/$1.slow.started"
	sleep "$(cat "$FAKE_DIR/$1.slow")"
}

fake_hang() {
	sleep 1000 &
	echo "$$ $!" >"$FAKE_DIR/$1.hang.pids"
	wait
	exit 1
}

# fake_stop NAME STATE [REASON]: what a successful stop does (STATE is
# stopped, or paused on DSM 6), honouring the stuck and settle knobs.
fake_stop() {
	[ -n "${3:-}" ] && printf '%s\n' "$3" >>"$FAKE_DIR/$1.reasons"
	fake_knob "$1" stuck && return 0
	if fake_knob "$1" settle; then
		echo $(($(date +%s) + $(cat "$FAKE_DIR/$1.settle"))) >"$FAKE_DIR/$1.until"
		echo "$2" >"$FAKE_DIR/$1.target"
		fake_set "$1" stopping
	else
		fake_set "$1" "$2"
	fi
}

# fake_start NAME [REASON]: a start by REASON releases only that reason;
# without one every reason goes (a plain start undoes DSM's own stops).
fake_start() {
	r=$FAKE_DIR/$1.reasons
	if [ -n "${2:-}" ]; then
		if [ -f "$r" ]; then
			grep -vxF -- "$2" "$r" >"$r.new" || :
			mv "$r.new" "$r"
			[ -s "$r" ] && return 0
		fi
	fi
	rm -f "$r"
	if fake_knob "$1" settle; then
		echo $(($(date +%s) + $(cat "$FAKE_DIR/$1.settle"))) >"$FAKE_DIR/$1.until"
		fake_set "$1" starting
	else
		fake_set "$1" running
	fi
}
